package confine

import (
	"encoding/json"

	"golang.org/x/sys/unix"
)

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
//
// The nodes are the machine's, and confined commands of this user may run
// at the same time: a run that noted them while another's command had
// changed one would put that change back when it ends. So the runs share
// one note, taken by the first of those running (sharedDevices, see
// sharedNote), and each puts back what it says.

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

// deviceRecord is a deviceState as the shared note holds it.
type deviceRecord struct {
	Path         string
	Mode         uint32
	Atime, Mtime unix.Timespec
	ACL          []byte
}

// sharedDevices takes the device nodes' state from before this user's
// running confined commands began (see sharedNote), and returns done,
// which puts it back and ends this run's share.
func sharedDevices(book string) (done func()) {
	note, release, ok := sharedNote(book, "devices", func() []byte {
		var recs []deviceRecord
		for _, d := range snapshotDevices() {
			recs = append(recs, deviceRecord{Path: d.path, Mode: d.mode, Atime: d.atime, Mtime: d.mtime, ACL: d.acl})
		}
		b, _ := json.Marshal(recs)
		return b
	})
	var recs []deviceRecord
	if ok && json.Unmarshal(note, &recs) == nil {
		var states []deviceState
		for _, r := range recs {
			states = append(states, deviceState{path: r.Path, mode: r.Mode, atime: r.Atime, mtime: r.Mtime, acl: r.ACL})
		}
		return func() {
			restoreDevices(states)
			release()
		}
	}
	if ok {
		release()
	}
	states := snapshotDevices()
	return func() { restoreDevices(states) }
}
