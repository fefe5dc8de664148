package confine

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/copyname"
	"golang.org/x/sys/unix"
)

// presence tells, of many paths, which are certainly missing, with one
// listing of each directory that holds some of them instead of one lstat
// per path. DefaultPolicy hides about 330 paths of each home directory (of
// four homes here, run as root) and nearly all of them are missing: their
// lstat calls were most of the time spent resolving the view. A path that
// presence does not rule out is then looked at as before (existing), so
// the answer is the same; only the calls for the missing ones are saved.
// The listings also show the copies left beside the paths (see backups).
type presence struct {
	// listed maps a directory to the names in it, or to nil when the
	// directory does not exist (nor, then, anything beneath it). A
	// directory not in the map was not listed: its paths are asked about
	// one by one.
	listed map[string]map[string]struct{}
	// dirs are the directories holding the paths, outermost first.
	dirs []string
	// unlisted are the directories holding paths that exist, or may, but
	// could not be listed (no read permission, too many names).
	unlisted []string
}

// maxListed is the most names a listing may hold, above which the
// directory is left to one lstat per path.
const maxListed = 4096

// newPresence lists the directories that hold paths (absolute and clean;
// others are left alone), outermost first, passing over those that a
// listing already made shows missing: of the 330 paths of a home, the
// home's listing rules out most directories (~/.aws, ~/.kube, ...)
// without a call of their own.
func newPresence(paths []string) *presence {
	var dirs []string
	seen := make(map[string]bool, len(paths)/4)
	for _, p := range paths {
		if dir, ok := listableParent(p); ok && !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	slices.SortFunc(dirs, func(a, b string) int {
		if c := strings.Count(a, "/") - strings.Count(b, "/"); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	pr := &presence{listed: make(map[string]map[string]struct{}, len(dirs)), dirs: dirs}
	for _, dir := range dirs {
		if pr.missing(dir) {
			continue
		}
		if names, ok := listNames(dir); ok {
			pr.listed[dir] = names
		} else {
			pr.unlisted = append(pr.unlisted, dir)
		}
	}
	return pr
}

// listableParent returns the directory holding p when p is absolute,
// clean and not the root.
func listableParent(p string) (string, bool) {
	if !cleanAbs(p) || p == "/" {
		return "", false
	}
	i := strings.LastIndexByte(p, '/')
	if i == 0 {
		return "/", true
	}
	return p[:i], true
}

// cleanAbs reports whether p is an absolute path that filepath.Clean
// leaves as it is, without the copy Clean makes of a path that is not.
func cleanAbs(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if p == "/" {
		return true
	}
	start := 1 // of the current element
	for i := 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if elem := p[start:i]; elem == "" || elem == "." || elem == ".." {
			return false
		}
		start = i + 1
	}
	return true
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
	// p is absolute and clean: its ancestors are its prefixes up to a
	// slash (filepath.Dir would clean, and copy, each of them).
	for cur := p; cur != "/"; {
		i := strings.LastIndexByte(cur, '/')
		dir := cur[:i]
		if i == 0 {
			dir = "/"
		}
		if names, listed := pr.listed[dir]; listed {
			if names == nil {
				return true
			}
			if _, found := names[cur[i+1:]]; !found {
				return true
			}
		}
		cur = dir
	}
	return false
}

// backups returns the copies left beside paths (see copyname.Of) that the
// listings show, directory by directory (paths are those presence was
// made of): the entries of a directory holding hidden paths that are
// copies of one of them, but those that are hidden paths themselves. In a
// directory that could not be listed, the usual names of copies are
// looked at one by one.
func (pr *presence) backups(paths []string) []string {
	all := make(map[string]struct{}, len(paths))
	for _, p := range paths {
		all[p] = struct{}{}
	}
	var out []string
	buf := make([]byte, 0, 256)
	for _, dir := range pr.dirs {
		listing, listed := pr.listed[dir]
		unlisted := !listed && slices.Contains(pr.unlisted, dir)
		if len(listing) == 0 && !unlisted {
			continue
		}
		buf = append(append(buf[:0], dir...), '/')
		prefix := len(buf)
		isHidden := func(n string) bool {
			buf = append(buf[:prefix], n...)
			_, ok := all[string(buf)]
			return ok
		}
		if listed {
			var found []string
			for n := range listing {
				if _, ok := copyname.Of(n, isHidden); ok && !isHidden(n) {
					found = append(found, filepath.Join(dir, n))
				}
			}
			slices.Sort(found)
			out = append(out, found...)
			continue
		}
		for _, p := range paths {
			if filepath.Dir(p) != dir {
				continue
			}
			for _, n := range copyname.Usual(filepath.Base(p)) {
				c := filepath.Join(dir, n)
				if _, err := os.Lstat(c); err == nil && !isHidden(n) && !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
	}
	return out
}
