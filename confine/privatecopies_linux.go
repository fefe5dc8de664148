package confine

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// PrivateCopies returns where the private copies of p.Private are kept on
// the real file system, one for each entry (see Policy.Private; a
// missing entry is made, as Start makes it): directories outside the sandbox that confined commands
// write and that outlive their runs. A caller that looks after what a
// command left (sandboxauth's ProtectConfinement) looks there too: a
// link the command leaves in the project can lead the user into one.
// It makes the record directory (see Start) if it is missing, and fails
// as Start would when there is no place for it.
func PrivateCopies(p Policy) ([]string, error) {
	if len(p.Private) == 0 {
		return nil, nil
	}
	sandbox, _, ok := existing(p.Sandbox)
	if !ok {
		return nil, fmt.Errorf("confine: Policy.Sandbox %q cannot be resolved", p.Sandbox)
	}
	root := p.PrivateRoot
	if root == "" {
		book, err := RecordDir(p)
		if err != nil {
			return nil, err
		}
		root = filepath.Join(book, "private")
	}
	var out []string
	for _, d := range p.Private {
		// Start makes a missing Private place, and a copy for it: so
		// does this, to name the same copy.
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("confine: Policy.Private %q: %w", d, err)
		}
		if real, _, ok := existing(d); ok {
			out = append(out, privateCopyDir(root, sandbox, real))
		}
	}
	return out, nil
}

// privateCopyDir is where the private copy of the directory real is kept
// for sandbox, under root.
func privateCopyDir(root, sandbox, real string) string {
	return filepath.Join(root, sandboxKey(sandbox), digest(real)+"-"+filepath.Base(real))
}

// sandboxKey names the records and private copies of the sandbox (a real
// path) by its path and its identity (device, inode, birth time): a
// project removed and another made at the same path (a fresh clone) gets
// none of the old one's (a private build cache its commands filled, a
// quarantine's baseline of another tree).
func sandboxKey(sandbox string) string {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, sandbox, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_INO|unix.STATX_BTIME, &st); err != nil {
		return digest(sandbox)
	}
	return digest(fmt.Sprintf("%s\x00%d:%d:%d:%d.%d", sandbox, st.Dev_major, st.Dev_minor, st.Ino, st.Btime.Sec, st.Btime.Nsec))
}

// RecordDir returns the directory where confinement keeps its records
// for p's sandbox (the placeholders it made, the private copies), making
// it if missing: the user's own, writable by nobody else, and out of the
// reach of every command confined by p (see Start). Callers may keep
// their own records about runs of the sandbox there, under names of their
// own.
func RecordDir(p Policy) (string, error) {
	sandbox, _, ok := existing(p.Sandbox)
	if !ok {
		return "", fmt.Errorf("confine: Policy.Sandbox %q cannot be resolved", p.Sandbox)
	}
	return bookkeepingDir(sandbox, writableOutsideHome(p.Writable))
}

// SandboxRecord returns the path of a record named name that a caller
// keeps about p's sandbox in RecordDir: one file a sandbox, named after
// it, out of every confined command's reach.
func SandboxRecord(p Policy, name string) (string, error) {
	dir, err := RecordDir(p)
	if err != nil {
		return "", err
	}
	sandbox, _, _ := existing(p.Sandbox)
	return filepath.Join(dir, name+"-"+sandboxKey(sandbox)), nil
}
