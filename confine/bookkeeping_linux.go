package confine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/userdb"
)

// Confinement keeps a little bookkeeping of its own: each sandbox's lock
// and record of placeholders, and the private copies (Policy.Private).
// The record says what the last run to end removes, so it must be out of
// every confined command's reach: a command that could write it would
// have the caller remove, or empty, a file outside the sandbox on its
// behalf. It lives in the cache directory of the user's home (as the user
// database gives it, whatever the environment says), unless that lies in
// a place the command may write (a sandbox that holds it): then in the
// user's runtime directory (/run/user/UID), or in /tmp/sandboxauth-UID, which this process
// makes itself and which must be its own (mode 0700, no link); and when
// none of these will do, Start refuses. Every one of these places that
// exists is hidden from the command as well (bookkeepingHidden).

// bookkeepingCandidates are the places for confinement's records, in
// order of preference. They do not follow the environment (HOME,
// XDG_CACHE_HOME, XDG_RUNTIME_DIR): two runs of one sandbox with
// different environments must keep their records in one place, or each
// would take the other's work for the user's (see the sandboxauth
// package's run groups). The cache directory of the home the user
// database gives comes first (of HOME only when it gives none).
func bookkeepingCandidates() []string {
	var candidates []string
	if home, ok := userdb.HomeOfUID(os.Geteuid()); ok {
		candidates = append(candidates, filepath.Join(home, ".cache", "sandboxauth"))
	} else if cache, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, filepath.Join(cache, "sandboxauth"))
	}
	uid := strconv.Itoa(os.Geteuid())
	return append(candidates, filepath.Join("/run/user", uid, "sandboxauth"), "/tmp/sandboxauth-"+uid)
}

// bookkeepingHidden returns the places of bookkeepingCandidates that
// exist, and those an environment of earlier versions named
// (XDG_CACHE_HOME, HOME's cache, XDG_RUNTIME_DIR), as a command's Hidden
// paths: a command that could read the records could also lock them
// (flock needs no write access) and hold up the runs of another project,
// or keep its last run from its judging, and learn the paths of the
// user's other projects.
func bookkeepingHidden() []string {
	places := bookkeepingCandidates()
	if cache, err := os.UserCacheDir(); err == nil {
		places = append(places, filepath.Join(cache, "sandboxauth"))
	}
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		places = append(places, filepath.Join(rt, "sandboxauth"))
	}
	var out []string
	for _, c := range places {
		if slices.ContainsFunc(privateDirs[:], func(d string) bool { return pathres.Within(d, c) }) {
			continue // the command's /tmp and /run are its own already
		}
		if fi, err := os.Lstat(c); err == nil && fi.IsDir() && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// bookkeepingDir returns the directory for confinement's bookkeeping of a
// command that may write beneath sandbox and writable (resolved paths).
func bookkeepingDir(sandbox string, writable []string) (string, error) {
	return bookkeepingDirAmong(bookkeepingCandidates(), sandbox, writable)
}

// bookkeepingDirAmong is bookkeepingDir choosing among candidates.
func bookkeepingDirAmong(candidates []string, sandbox string, writable []string) (string, error) {
	var reasons []error
	for _, c := range candidates {
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
	return "", fmt.Errorf("confine: no place out of the command's reach for confinement's records (%v); confine a directory that does not hold your home's .cache: %w", errors.Join(reasons...), ErrUnsafePolicy)
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
