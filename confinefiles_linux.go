package sandboxauth

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// The quarantine's file operations, which reach files through descriptors
// opened beneath the sandbox with no symbolic link on the way (openat2's
// RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS), rename without replacing
// (renameat2's RENAME_NOREPLACE) and know a file by its birth time
// (statx): Linux's alone, as confinement is.

// identify returns path's identity, without following a final link.
func identify(path string) (fileID, bool) {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_INO|unix.STATX_BTIME, &st); err != nil {
		return fileID{}, false
	}
	id := fileID{dev: unix.Mkdev(st.Dev_major, st.Dev_minor), ino: st.Ino}
	if st.Mask&unix.STATX_BTIME != 0 {
		id.birth = birthTime{st.Btime.Sec, st.Btime.Nsec}
	}
	return id, true
}

// changeTime returns path's change time in nanoseconds, not following a
// final link; one that cannot be looked at counts as changed now.
func changeTime(path string) int64 {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return 1<<63 - 1
	}
	return st.Ctim.Nano()
}

// quarantine renames path, which lies beneath sandbox, to a free name
// ending in quarantineSuffix (".N" after it when taken, a random one
// after that; a name too long for them is cut short, see
// quarantineNames), through a descriptor of its directory opened beneath
// the sandbox with no symbolic link on the way; a directory the command made
// read-only is made writable for its owner first. It reports whether
// path is gone. Nothing is ever removed: a name is all it takes.
func quarantine(sandbox, path string) bool {
	rel, err := filepath.Rel(sandbox, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	root, err := unix.Open(sandbox, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(root)
	parent, ok := openBeneath(root, filepath.Dir(rel))
	if !ok {
		return false
	}
	defer unix.Close(parent)
	base := filepath.Base(rel)
	var r [8]byte
	random := ""
	// getrandom(2) itself: crypto/rand would bring its generators'
	// start-up into every program that imports this package.
	if n, err := unix.Getrandom(r[:], 0); err == nil && n == len(r) {
		random = hex.EncodeToString(r[:])
	}
	for _, to := range quarantineNames(base, random) {
		err := renameNoReplace(parent, base, to)
		if err == unix.EACCES || err == unix.EPERM {
			// The command took the write permission away: give it back
			// to the owner and try again.
			pathres.GiveOwnerAccess(parent)
			if fd, err := pathres.Openat2(parent, base, &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW}); err == nil {
				// Renaming a directory rewrites its "..": it must be
				// writable too.
				var ts unix.Stat_t
				if unix.Fstat(fd, &ts) == nil && ts.Mode&unix.S_IFMT == unix.S_IFDIR {
					pathres.GiveOwnerAccess(fd)
				}
				unix.Close(fd)
			}
			err = renameNoReplace(parent, base, to)
		}
		if err == nil {
			disarmGitDirectory(parent, to, random)
			return true
		}
		if err != unix.EEXIST && err != unix.ENOTEMPTY {
			return false
		}
	}
	return false
}

// disarmGitDirectory moves aside the HEAD of name in the directory dir
// when name is a git directory (a .git just moved aside is one still,
// under a name known in advance, which a link in the project could name):
// without HEAD, git takes it for a plain directory.
func disarmGitDirectory(dir int, name, random string) {
	fd, err := pathres.Openat2(dir, name, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS,
	})
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil || !isGitDirectory(entries) {
		return
	}
	for _, to := range quarantineNames("HEAD", random) {
		if err := renameNoReplace(fd, "HEAD", to); err != unix.EEXIST && err != unix.ENOTEMPTY {
			return
		}
	}
}

// renameNoReplace renames from to to in the directory dir, failing with
// EEXIST when to exists. A file system that cannot rename without
// replacing (RENAME_NOREPLACE fails with EINVAL: NFS, some FUSE ones) gets
// a look for to first, then a plain rename: the command has ended, and a
// concurrent run of the same sandbox could at worst have made a file of
// that name in between, which would be lost.
func renameNoReplace(dir int, from, to string) error {
	err := unix.Renameat2(dir, from, dir, to, unix.RENAME_NOREPLACE)
	if err != unix.EINVAL {
		return err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dir, to, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		return unix.EEXIST
	} else if err != unix.ENOENT {
		return err
	}
	return unix.Renameat(dir, from, dir, to)
}

// openBeneath opens rel (a directory) beneath root with O_PATH, one
// element at a time with no symbolic link allowed, giving back to the
// owner the search permission a directory on the way was made to lack.
func openBeneath(root int, rel string) (int, bool) {
	fd, err := pathres.OpenBeneathOwned(root, rel, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	return fd, err == nil
}

// openReadable opens rel (a directory) beneath root for reading, giving
// back to the owner the permissions the directories on the way were made
// to lack.
func openReadable(root int, rel string) (int, error) {
	dir, ok := openBeneath(root, rel)
	if !ok {
		return -1, unix.EACCES
	}
	defer unix.Close(dir)
	fd, err := unix.Openat(dir, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err == unix.EACCES {
		pathres.GiveOwnerAccess(dir)
		fd, err = unix.Openat(dir, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	}
	return fd, err
}

// readDir reads the entries of the directory dir, which lies in the
// sandbox, sorted by name, reached from the sandbox with no symbolic link
// on the way: a concurrent confined command that swaps a directory for a
// link while the quarantine walks cannot lead the walk (unbounded when
// deepRepositories runs) out of the sandbox.
func (c *confinePaths) readDir(dir string) ([]os.DirEntry, error) {
	rel, err := filepath.Rel(c.sandbox, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, errors.New("outside the sandbox")
	}
	root, err := unix.Open(c.sandbox, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(root)
	fd, err := pathres.Openat2(root, rel, &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	if err == unix.EACCES {
		// The command took away the read or search permission of a
		// directory on the way (chmod 111 hides a directory's entries
		// from the walk, not from git started beneath it): give it back
		// to the owner, as the quarantine does to rename.
		fd, err = openReadable(root, rel)
	}
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}
