package sandboxauth

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// userHome returns the home directory of the user called name, as git finds
// it for a path that begins "~name/" (getpwnam): from the system's user
// database through getent, which consults every source the system's name
// service switch lists, and from /etc/passwd where getent is missing. It
// reports false when no source knows the name or the home directory is not
// absolute; git cannot expand such a path either.
//
// It does not use os/user, whose cgo implementation would link the C
// library into every program that imports this package: a dynamically
// linked program starts more slowly, which a hook started for every tool
// call pays each time (BenchmarkHookLatency).
func userHome(name string) (string, bool) {
	if !validUserName(name) {
		return "", false
	}
	for _, getent := range []string{"/usr/bin/getent", "/bin/getent"} {
		if _, err := os.Stat(getent); err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), userLookupTimeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, getent, "passwd", "--", name).Output()
		if err != nil {
			// Exit status 2: the name is unknown to every source.
			return "", false
		}
		return passwdHome(bytes.NewReader(out), name)
	}
	f, err := os.Open("/etc/passwd")
	if err != nil {
		return "", false
	}
	defer f.Close()
	return passwdHome(f, name)
}

// userLookupTimeout bounds a getent call: a name service that does not
// answer leaves the name unknown.
const userLookupTimeout = 5 * time.Second

// validUserName reports whether name can be a user's name in a passwd
// entry: not empty, no field separator, line break or NUL, and not an
// option to getent.
func validUserName(name string) bool {
	return name != "" && !strings.HasPrefix(name, "-") && !strings.ContainsAny(name, ":\n\x00")
}

// passwdHome returns the home directory (the sixth field) of the first
// entry of the passwd-format text r that is for name.
func passwdHome(r io.Reader, name string) (string, bool) {
	s := bufio.NewScanner(r)
	for s.Scan() {
		fields := strings.Split(s.Text(), ":")
		if len(fields) < 7 || fields[0] != name {
			continue
		}
		home := fields[5]
		if !filepath.IsAbs(home) {
			return "", false
		}
		return home, true
	}
	return "", false
}
