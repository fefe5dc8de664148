// Package hookstart prepares a process started as a coding agent's hook
// ("sandboxauth hook --for AGENT") before most of the program's packages
// initialise: it makes the process run on one processor.
//
// A hook process decides one call, one goroutine at a time, and exits. A
// second processor only makes the runtime wake threads that find nothing
// to run: they compete for the machine's processors while the call is
// decided, and must all be stopped when the process exits. Changing the
// number of processors stops the world and hands back what the other
// processor's allocation cache holds, which costs more the later it is
// done, so it is done here, in a package that imports only os and the
// runtime and is therefore initialised before the heavy ones (the shell
// parser's regular expressions and the Unicode tables they use,
// compress/flate, the FIPS crypto packages, encoding/json): see
// BenchmarkHookLatency, and TestHookStartsEarly for the order.
//
// Every other subcommand, and every test binary, keeps the runtime's
// default.
package hookstart

import (
	"os"
	"runtime"
)

func init() {
	if IsHookCall(os.Args[1:]) {
		runtime.GOMAXPROCS(1)
	}
}

// IsHookCall reports whether args, the program's arguments after its
// name, start a hook call: "hook" not followed by "install".
func IsHookCall(args []string) bool {
	return len(args) > 0 && args[0] == "hook" && (len(args) < 2 || args[1] != "install")
}
