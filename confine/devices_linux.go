package confine

import "golang.org/x/sys/unix"

// bubblewrap's /dev is a file system of the command's own, but the device
// nodes in it (null, zero, full, random, urandom, tty) are the machine's,
// bound in: they must be usable, and bubblewrap can bind a device only
// writable. A command running as root owns them, and Landlock has no
// right for metadata, so it could change their modes and times (chmod
// 000 /dev/null breaks every program on the machine), and their access
// ACLs (an owner may set them: one can deny a group the use of
// /dev/null). It cannot change their owner (it has no capabilities). So
// the starting thread notes their modes, ACLs and times before the
// command starts and puts back what changed once the sandbox has ended: a
// change lasts at most as long as the command.

// boundDevices are the machine's device nodes that bubblewrap's --dev
// binds into the view.
var boundDevices = [...]string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// deviceState is what a device node's metadata was.
type deviceState struct {
	path         string
	mode         uint32
	atime, mtime unix.Timespec
	acl          []byte // its access ACL (system.posix_acl_access); nil: none
}

// aclAttr is the extended attribute that holds a file's access ACL, which
// its owner may set (as root in the sandbox, on the device nodes: an ACL
// denying a group the use of /dev/null).
const aclAttr = "system.posix_acl_access"

// snapshotDevices returns the metadata of boundDevices.
func snapshotDevices() []deviceState {
	out := make([]deviceState, 0, len(boundDevices))
	for _, p := range boundDevices {
		var st unix.Stat_t
		if unix.Lstat(p, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFCHR {
			out = append(out, deviceState{path: p, mode: st.Mode & 0o7777, atime: st.Atim, mtime: st.Mtim, acl: xattr(p, aclAttr)})
		}
	}
	return out
}

// restoreDevices puts back the modes, access ACLs and modification times
// of the device nodes in states that differ (access times change with every use
// and are left alone).
func restoreDevices(states []deviceState) {
	for _, d := range states {
		var st unix.Stat_t
		if unix.Lstat(d.path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR {
			continue
		}
		if st.Mode&0o7777 != d.mode {
			_ = unix.Fchmodat(unix.AT_FDCWD, d.path, d.mode, 0)
		}
		if acl := xattr(d.path, aclAttr); string(acl) != string(d.acl) {
			if d.acl == nil {
				_ = unix.Removexattr(d.path, aclAttr)
			} else {
				_ = unix.Setxattr(d.path, aclAttr, d.acl, 0)
			}
		}
		if st.Mtim != d.mtime {
			_ = unix.UtimesNanoAt(unix.AT_FDCWD, d.path, []unix.Timespec{{Nsec: unix.UTIME_OMIT}, d.mtime}, unix.AT_SYMLINK_NOFOLLOW)
		}
	}
}

// xattr returns the value of path's extended attribute name, nil when it
// has none.
func xattr(path, name string) []byte {
	buf := make([]byte, 256)
	for {
		n, err := unix.Getxattr(path, name, buf)
		if err == unix.ERANGE {
			buf = make([]byte, 2*len(buf))
			continue
		}
		if err != nil {
			return nil
		}
		return buf[:n:n]
	}
}
