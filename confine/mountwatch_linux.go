package confine

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// What keeps a path of the writable places read-only, hidden, pinned or
// shown otherwise is a mount over it in the command's view. A mount over
// one path is detached, in every mount namespace, when another namespace
// renames or removes that path (Linux 3.18): when the user's git rewrites
// .git/config (config.lock renamed over it: git config, git remote add,
// git push -u), or an editor saves .env by rename, while a command runs,
// the command would find the new file in its place, writable or readable.
// Landlock cannot keep single paths beneath a writable place (see
// readRules), so the sandbox's first process watches the mount table of
// the view: the kernel wakes a poll of /proc/self/mountinfo at every
// change, and when a mount the view was built with is gone, every process
// of the sandbox is killed at once and the command's standard error says
// why. What the command does between the rename and the kill (a process
// polling for it can act within microseconds) is not prevented; see the
// package documentation.

// mountWatch is the view's mounts over the watched paths, as the sandbox's
// first process found them.
type mountWatch struct {
	fd     int
	mounts map[string]string // mount ID: the path it covers
}

// newMountWatch records the mounts over paths (paths of the view). It
// fails when one has none: it was detached before the command started.
func newMountWatch(paths []string) (*mountWatch, error) {
	fd, err := unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("opening the mount table: %v", err)
	}
	w := &mountWatch{fd: fd, mounts: map[string]string{}}
	table, err := w.read()
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	covered := map[string]bool{}
	for id, point := range table {
		if slices.Contains(paths, point) {
			w.mounts[id] = point
			covered[point] = true
		}
	}
	for _, p := range paths {
		if !covered[p] {
			unix.Close(fd)
			return nil, fmt.Errorf("%s was renamed or removed outside while the sandbox was being made, which lifts its protection; run the command again", p)
		}
	}
	return w, nil
}

// read returns the mount table: each mount's ID and mount point.
func (w *mountWatch) read() (map[string]string, error) {
	var buf bytes.Buffer
	b := make([]byte, 64<<10)
	for off := int64(0); ; {
		n, err := unix.Pread(w.fd, b, off)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading the mount table: %v", err)
		}
		if n == 0 {
			break
		}
		buf.Write(b[:n])
		off += int64(n)
	}
	table := map[string]string{}
	for _, line := range strings.Split(buf.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		table[f[0]] = unescapeMountPoint(f[4])
	}
	return table, nil
}

// lost waits until a recorded mount is gone and returns the path it
// covered, or an error when the table cannot be watched.
func (w *mountWatch) lost() (string, error) {
	for {
		fds := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLPRI}}
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return "", fmt.Errorf("watching the mount table: %v", err)
		}
		table, err := w.read()
		if err != nil {
			return "", err
		}
		for id, p := range w.mounts {
			if table[id] != p {
				return p, nil
			}
		}
	}
}

// held reports whether every recorded mount is still there (false when
// the table cannot be read).
func (w *mountWatch) held() bool {
	table, err := w.read()
	if err != nil {
		return false
	}
	for id, p := range w.mounts {
		if table[id] != p {
			return false
		}
	}
	return true
}

// unescapeMountPoint undoes the kernel's octal escapes of a mount point
// in the mount table (\040 for a space, \011, \012, \134).
func unescapeMountPoint(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// watchedMounts are the paths of view v whose mounts the sandbox's first
// process watches: the writable places and what covers paths inside
// them (pins, read-only paths, hidden and shown ones).
func watchedMounts(v *view) []string {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, b := range v.writable {
		add(b.Dst)
	}
	for _, p := range append(append(slices.Clone(v.pins), v.readOnly...), append(slices.Clone(v.hiddenDirs), v.hiddenFile...)...) {
		if v.writableRoot(p) != "" && !slices.Contains(v.closed, p) {
			add(p)
		}
	}
	return out
}
