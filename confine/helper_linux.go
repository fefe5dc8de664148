package confine

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"syscall"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// The helper is the calling program itself, started by bubblewrap inside
// the view as the command's first step: it puts itself in a Landlock
// domain that lets it write only beneath the view's writable places, then
// executes the command, which inherits the domain. Mounts decide what is
// writable by where a file lies; Landlock decides by the path it was
// reached through, and it covers what a read-only mount does not: a FIFO
// or socket file of an outside program (writing into a named pipe changes
// no file system), and a file system mounted on the machine after the
// command started (it arrives in the view with its own flags, writable).
// Landlock has to come after bubblewrap's mounts, which it would forbid,
// hence a step inside.
//
// Every program that imports this package can be the helper: package
// initialization looks for helperEnv, and a program started with it runs
// the helper and never its own main. The variable is removed before the
// command runs.

// helperEnv names the variable that makes a program the helper; its value
// is the helper's spec, as JSON.
const helperEnv = "SANDBOXAUTH_CONFINE_HELPER"

// helperPath is where the calling program is bound in the view: /run is
// the command's own empty file system, where bubblewrap can make the
// mount point whatever the program's own path.
const helperPath = "/run/sandboxauth-confine-helper"

// helperSpec is what the helper needs to know.
type helperSpec struct {
	Path     string   `json:"path"`     // the program to execute, with the helper's arguments as its argv
	Writable []string `json:"writable"` // paths in the view beneath which writing is allowed
	ABI      int      `json:"abi"`      // the kernel's Landlock ABI, as the starter found it
}

func init() {
	if v, ok := os.LookupEnv(supervisorEnv); ok {
		os.Exit(runSupervisor(v, os.Args[1:]))
	}
	v, ok := os.LookupEnv(helperEnv)
	if !ok {
		return
	}
	err := runHelper(v, os.Args[1:])
	fmt.Fprintf(os.Stderr, "sandboxauth confinement: %v\n", err)
	os.Exit(126)
}

// runHelper restricts the process and executes the spec's program with
// argv; it returns only on failure.
func runHelper(spec string, argv []string) error {
	var s helperSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		return fmt.Errorf("bad helper spec: %v", err)
	}
	if len(argv) == 0 {
		return fmt.Errorf("no command")
	}
	if err := restrictWrites(s); err != nil {
		return err
	}
	env := make([]string, 0, len(os.Environ()))
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, helperEnv+"=") {
			env = append(env, e)
		}
	}
	err := syscall.Exec(s.Path, argv, env)
	return fmt.Errorf("%s: %w", s.Path, err)
}

// writeRights are the Landlock rights handled (refused) everywhere but
// beneath the writable places, for a kernel of ABI abi; devices are
// handled and never granted.
func writeRights(abi int) (handled, granted uint64) {
	handled = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
		ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym
	if abi >= 2 {
		handled |= ll.AccessFSRefer
	}
	if abi >= 3 {
		handled |= ll.AccessFSTruncate
	}
	return handled, handled &^ (ll.AccessFSMakeChar | ll.AccessFSMakeBlock)
}

// restrictWrites puts the process in a Landlock domain where writing is
// allowed only beneath s.Writable.
func restrictWrites(s helperSpec) error {
	handled, granted := writeRights(s.ABI)
	fd, err := ll.LandlockCreateRuleset(&ll.RulesetAttr{HandledAccessFS: handled}, 0)
	if err != nil {
		return fmt.Errorf("creating the Landlock ruleset: %v", err)
	}
	defer unix.Close(fd)
	for _, w := range s.Writable {
		pfd, err := unix.Open(w, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // not in this view (a Writable entry that does not exist)
		}
		var st unix.Stat_t
		rights := granted
		if unix.Fstat(pfd, &st) == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= ll.AccessFSWriteFile | ll.AccessFSTruncate
		}
		err = ll.LandlockAddPathBeneathRule(fd, &ll.PathBeneathAttr{AllowedAccess: rights, ParentFd: pfd}, 0)
		unix.Close(pfd)
		if err != nil {
			return fmt.Errorf("a Landlock rule for %s: %v", w, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %v", err)
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("landlock_restrict_self: %v", err)
	}
	return nil
}

// helperWritable is where the command may write in view v: its writable
// places, its own /tmp, /var/tmp, /run and /dev/shm, and /dev
// (bubblewrap's, with only the harmless devices and its own terminals).
// Nothing under /proc: as root, the kernel's settings there would act on
// the whole machine.
func helperWritable(v *view) []string {
	out := []string{"/dev"}
	out = append(out, privateDirs[:]...)
	for _, b := range v.writable {
		out = append(out, b.Dst)
	}
	return out
}
