package confine

import (
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// presence tells, of many paths, which are certainly missing, with one
// listing of each directory that holds several of them instead of one
// lstat per path. DefaultPolicy hides about 190 paths of each home
// directory (of four homes here, run as root) and nearly all of them are
// missing: their lstat calls were most of the time spent resolving the
// view. A path that presence does not rule out is then looked at as
// before (existing), so the answer is the same; only the calls for the
// missing ones are saved.
type presence struct {
	// listed maps a directory to the names in it, or to nil when the
	// directory does not exist (nor, then, anything beneath it). A
	// directory not in the map was not listed: its paths are asked about
	// one by one.
	listed map[string]map[string]struct{}
}

// listThreshold is how many of the paths a directory must hold for it to
// be listed (a listing costs about four system calls); maxListed is the
// most names a listing may hold, above which the directory is left to
// one lstat per path.
const (
	listThreshold = 4
	maxListed     = 4096
)

// newPresence lists the directories that hold at least listThreshold of
// paths (absolute and clean; others are left alone).
func newPresence(paths []string) *presence {
	count := map[string]int{}
	for _, p := range paths {
		if dir, ok := listableParent(p); ok {
			count[dir]++
		}
	}
	pr := &presence{listed: map[string]map[string]struct{}{}}
	for dir, n := range count {
		if n < listThreshold {
			continue
		}
		names, ok := listNames(dir)
		if ok {
			pr.listed[dir] = names
		}
	}
	return pr
}

// listableParent returns the directory holding p when p is absolute,
// clean and not the root.
func listableParent(p string) (string, bool) {
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || p == "/" {
		return "", false
	}
	return filepath.Dir(p), true
}

// listNames returns the names in dir, or nil when dir does not exist or
// is not a directory (an lstat of anything beneath it fails the same
// way); ok is false when dir could not be listed for another reason (no
// read permission, too many names), and its paths are to be asked about
// one by one.
func listNames(dir string) (names map[string]struct{}, ok bool) {
	// O_DIRECTORY: a FIFO where a directory is expected must not block.
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == unix.ENOENT || err == unix.ENOTDIR {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	list, err := f.Readdirnames(maxListed + 1)
	if (err != nil && err != io.EOF) || len(list) > maxListed {
		return nil, false
	}
	names = make(map[string]struct{}, len(list))
	for _, n := range list {
		names[n] = struct{}{}
	}
	return names, true
}

// missing reports whether p certainly does not exist: the listed
// directory holding p or one of its ancestors does not hold its name, or
// does not exist.
func (pr *presence) missing(p string) bool {
	if _, ok := listableParent(p); !ok {
		return false
	}
	for cur := p; cur != "/"; cur = filepath.Dir(cur) {
		names, listed := pr.listed[filepath.Dir(cur)]
		if !listed {
			continue
		}
		if names == nil {
			return true
		}
		if _, found := names[filepath.Base(cur)]; !found {
			return true
		}
	}
	return false
}
