package sandboxauth

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// scanDeep scans every directory of the sandbox (see confinedeep.go), as
// mode says.
func (c *confinePaths) scanDeep(mode scanMode) *deepScan {
	s := newDeepScan()
	root, err := unix.Open(c.sandbox, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return s
	}
	defer unix.Close(root)
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		home = ""
	}
	// Protected matches are looked for (before and after the run) outside
	// git directories, protected matches and installed dependencies
	// (dependencyDirs): a directory named build, dist or vendor may be
	// the project's own code (a workspace crate at crates/build), where
	// the user runs cargo or npm.
	type dir struct {
		rel     string
		noMatch bool
	}
	match := mode != scanPrivate
	queue := []dir{{".", !match}}
	for len(queue) > 0 {
		rel, noMatch := queue[0].rel, queue[0].noMatch
		queue = queue[1:]
		abs := filepath.Join(c.sandbox, rel)
		fd, err := openDirAt(root, rel)
		if err != nil {
			if err != unix.ENOENT && err != unix.ENOTDIR {
				s.unreadable = append(s.unreadable, abs)
			}
			continue
		}
		f := os.NewFile(uintptr(fd), abs)
		entries, err := f.ReadDir(-1)
		if err != nil {
			s.unreadable = append(s.unreadable, abs)
		}
		// Before the run, what the quarantine moved aside is never the
		// user's: brought back (renamed, by a later or a concurrent run),
		// it is new. After it, it is judged like the rest.
		aside := mode == scanBefore && strings.Contains(rel, quarantineSuffix)
		gitdir := isGitDirectory(entries)
		if (rel != "." || mode == scanPrivate) && gitdir && !aside {
			if id, ok := identifyAt(fd, "."); ok {
				s.gitDirs[id] = abs
				if mode != scanPrivate {
					s.obeyed[abs] = append(obeyedAt(fd, abs), c.configObeyed(abs, home)...)
				}
			}
		}
		if mode == scanAfter && !gitdir && partialGitDirectory(entries) {
			if id, ok := identifyAt(fd, "."); ok {
				s.partial = append(s.partial, id)
			}
		}
		noMatch = noMatch || gitdir
		for _, e := range entries {
			name := e.Name()
			below := noMatch || name == ".git" || dependencyDirs()[name]
			if !below && c.writeProtectedMatch(name, filepath.Join(rel, name)) {
				below = true
				if id, ok := identifyAt(fd, name); ok {
					digest, whole := stateDigest(filepath.Join(abs, name))
					s.protected[filepath.Join(abs, name)] = protectedMatch{id: id, digest: digest, whole: whole}
				}
			}
			switch {
			case name == ".git" && !e.IsDir() && !aside:
				if id, ok := identifyAt(fd, name); ok {
					s.pointers[id] = pointer{path: filepath.Join(abs, name), ctime: ctimeAt(fd, name)}
				}
			case mode == scanAfter && e.Type()&os.ModeSymlink != 0:
				if target, err := readlinkAt(fd, name); err == nil {
					s.links = append(s.links, link{path: filepath.Join(abs, name), target: target, ctime: ctimeAt(fd, name)})
				}
			case e.IsDir():
				queue = append(queue, dir{filepath.Join(rel, name), below})
			}
		}
		f.Close()
	}
	return s
}

// dependencyDirs are the directories that hold only what package managers
// install and tools generate under names of their own, which no one works
// in: protected names there (a package's own .npmrc or .vscode, the .env
// a framework copies into its build output) are not judged. Directories
// named build, dist, target or vendor are not among them: a project's own
// code may be called so. It is built on first use.
var dependencyDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"node_modules": true, ".venv": true, "site-packages": true, "__pycache__": true,
		".next": true, ".nuxt": true, ".svelte-kit": true, ".turbo": true, ".tox": true, ".nox": true,
		".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, ".gradle": true}
})

// openDirAt opens the directory rel beneath root for reading, with no
// symbolic link on the way; a path too long for one call, or a directory
// on the way whose permissions the command took away (which are given
// back to the owner), is opened one element at a time.
func openDirAt(root int, rel string) (int, error) {
	fd, err := pathres.Openat2(root, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err == unix.EACCES || err == unix.ENAMETOOLONG {
		fd, err = openReadable(root, rel)
	}
	return fd, err
}

// identifyAt returns the identity of name in the directory dir, without
// following a final link.
func identifyAt(dir int, name string) (fileID, bool) {
	var st unix.Statx_t
	if err := unix.Statx(dir, name, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_INO|unix.STATX_BTIME, &st); err != nil {
		return fileID{}, false
	}
	id := fileID{dev: unix.Mkdev(st.Dev_major, st.Dev_minor), ino: st.Ino}
	if st.Mask&unix.STATX_BTIME != 0 {
		id.birth = birthTime{st.Btime.Sec, st.Btime.Nsec}
	}
	return id, true
}

// ctimeAt returns the change time (in nanoseconds) of name in the
// directory dir, not followed; one that cannot be looked at counts as
// changed now.
func ctimeAt(dir int, name string) int64 {
	var st unix.Stat_t
	if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 1<<63 - 1
	}
	return st.Ctim.Nano()
}

// obeyedAt returns what git obeys in the git directory gitdir (open as
// dir), with digests of their contents: each of gitObeyedNames that
// exists, and the entries of those that are directories, keyed by their
// path in the git directory. The entries of a directory reached through
// a link are to be moved aside as the link.
func obeyedAt(dir int, gitdir string) []obeyedEntry {
	var out []obeyedEntry
	for _, name := range gitObeyedNames() {
		var st unix.Stat_t
		if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		path := filepath.Join(gitdir, name)
		out = append(out, obeyedEntry{key: name, path: path, digest: digestAt(dir, name, &st)})
		link := st.Mode&unix.S_IFMT == unix.S_IFLNK
		if st.Mode&unix.S_IFMT != unix.S_IFDIR && !link {
			continue
		}
		sub, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		out = append(out, entriesObeyed(sub, name, path, link)...)
	}
	return out
}

// entriesObeyed returns, with digests, the entries of the directory sub
// (which it closes), opened at path and keyed under key; reached through
// a link (link), each is to be moved aside as the link.
func entriesObeyed(sub int, key, path string, link bool) []obeyedEntry {
	f := os.NewFile(uintptr(sub), path)
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	var out []obeyedEntry
	for _, n := range names {
		var st unix.Stat_t
		if unix.Fstatat(sub, n, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		e := obeyedEntry{key: key + "/" + n, path: filepath.Join(path, n), digest: digestAt(sub, n, &st)}
		if link {
			e.path = path
		}
		out = append(out, e)
	}
	return out
}

// digestAt returns what tells one content of name (in the directory dir,
// whose status st is) from another: a regular file's SHA-256 (its size
// and change time beyond 1 MiB), a link's target, a directory's or
// another file's type.
func digestAt(dir int, name string, st *unix.Stat_t) string {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if st.Size > 1<<20 {
			return fmt.Sprintf("big %d %d", st.Size, st.Ctim.Nano())
		}
		fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Sprintf("unreadable %d", st.Ctim.Nano())
		}
		f := os.NewFile(uintptr(fd), name)
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, io.LimitReader(f, 1<<20+1)); err != nil {
			return fmt.Sprintf("unreadable %d", st.Ctim.Nano())
		}
		return hex.EncodeToString(h.Sum(nil))
	case unix.S_IFLNK:
		target, err := readlinkAt(dir, name)
		if err != nil {
			return fmt.Sprintf("link %d", st.Ctim.Nano())
		}
		return "link " + target
	}
	return fmt.Sprintf("type %o", st.Mode&unix.S_IFMT)
}

// configObeyed returns, with digests, the files in the sandbox that the
// configuration of the git directory gitdir makes git read or run: the
// files it includes, and the hooks directory it names (with its
// entries), keyed by their paths. A relative hooks path is taken from
// where git runs: the work tree's top, the parent of a .git directory, or
// the git directory itself; ~ is home.
func (c *confinePaths) configObeyed(gitdir, home string) []obeyedEntry {
	var out []obeyedEntry
	note := func(p string, dir bool) {
		if !pathres.Within(c.sandbox, p) || p == c.sandbox {
			return
		}
		parent, err := unix.Open(filepath.Dir(p), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return
		}
		defer unix.Close(parent)
		var st unix.Stat_t
		if unix.Fstatat(parent, filepath.Base(p), &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			return
		}
		out = append(out, obeyedEntry{key: p, path: p, digest: digestAt(parent, filepath.Base(p), &st)})
		if !dir {
			return
		}
		link := st.Mode&unix.S_IFMT == unix.S_IFLNK
		sub, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return
		}
		out = append(out, entriesObeyed(sub, p, p, link)...)
	}
	cfg := readGitConfigPaths(filepath.Join(gitdir, "config"))
	for _, inc := range cfg.includes {
		for _, p := range expandGitPath(inc, gitdir, home) {
			note(p, false)
		}
	}
	for _, base := range []string{gitdir, filepath.Dir(gitdir)} {
		for _, p := range expandGitPath(cfg.hooksPath, base, home) {
			note(p, true)
		}
	}
	return out
}

// readlinkAt reads the link name in the directory dir.
func readlinkAt(dir int, name string) (string, error) {
	b := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(dir, name, b)
	if err != nil {
		return "", err
	}
	return string(b[:n]), nil
}
