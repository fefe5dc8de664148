package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// Confinement keeps a little bookkeeping of its own: each sandbox's lock
// and record of placeholders, and the private copies (Policy.Private).
// The record says what the last run to end removes, so it must be out of
// every confined command's reach: a command that could write it would
// have the caller remove, or empty, a file outside the sandbox on its
// behalf. It lives in the user's cache directory, unless that lies in a
// place the command may write (XDG_CACHE_HOME=$PWD/.cache in a CI job, a
// sandbox that holds ~/.cache): then in the user's runtime directory
// ($XDG_RUNTIME_DIR), or in /tmp/sandboxauth-UID, which this process
// makes itself and which must be its own (mode 0700, no link); and when
// none of these will do, Start refuses. Every one of these places that
// exists is hidden from the command as well (bookkeepingHidden).

// bookkeepingCandidates are the places for confinement's records, in
// order of preference.
func bookkeepingCandidates() []string {
	var candidates []string
	if cache, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, filepath.Join(cache, "sandboxauth"))
	}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		candidates = append(candidates, filepath.Join(rt, "sandboxauth"))
	}
	return append(candidates, "/tmp/sandboxauth-"+strconv.Itoa(os.Geteuid()))
}

// bookkeepingHidden returns the places of bookkeepingCandidates that
// exist, as a command's Hidden paths: a command that could read the
// records could also lock them (flock needs no write access) and hold up
// the runs of another project, or keep its last run from its judging, and
// learn the paths of the user's other projects.
func bookkeepingHidden() []string {
	var out []string
	for _, c := range bookkeepingCandidates() {
		if fi, err := os.Lstat(c); err == nil && fi.IsDir() {
			out = append(out, c)
		}
	}
	return out
}

// bookkeepingDir returns the directory for confinement's bookkeeping of a
// command that may write beneath sandbox and writable (resolved paths).
func bookkeepingDir(sandbox string, writable []string) (string, error) {
	var reasons []error
	for _, c := range bookkeepingCandidates() {
		dir, err := ownDir(c)
		if err == nil {
			if w := writableOver(dir, sandbox, writable); w != "" {
				err = fmt.Errorf("%s lies beneath %s, which the command may write", dir, w)
			}
		}
		if err == nil {
			return dir, nil
		}
		reasons = append(reasons, err)
	}
	return "", fmt.Errorf("confine: no place out of the command's reach for confinement's records (%v); set XDG_CACHE_HOME to a directory outside the sandbox: %w", errors.Join(reasons...), ErrUnsafePolicy)
}

// ownDir makes dir (mode 0700) if it is missing and returns its real path;
// it must then be a directory of this user's that no one else may write,
// reached through no link planted at its last element.
func ownDir(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return "", err
	}
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return "", fmt.Errorf("%s is not a directory", dir)
	case int(st.Uid) != os.Geteuid():
		return "", fmt.Errorf("%s belongs to user %d", dir, st.Uid)
	case st.Mode&0o022 != 0:
		return "", fmt.Errorf("%s may be written by others (mode %#o)", dir, st.Mode&0o777)
	}
	return pathres.Resolve(filepath.Clean(dir))
}

// writableOver returns the place among sandbox and writable that dir lies
// beneath, or "".
func writableOver(dir, sandbox string, writable []string) string {
	for _, w := range append([]string{sandbox}, writable...) {
		if w != "" && pathres.Within(w, dir) {
			return w
		}
	}
	return ""
}
