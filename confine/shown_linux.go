package confine

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// A shown file (Policy.Shown) is a ReadOnly file that the command reads
// with other content than its own. Bubblewrap copies the content from a
// descriptor into a file of its own and binds that, read-only, over the
// path (--ro-bind-data), after the pins on the way, so that the path is
// the checked one; the real file is left as it is. A missing shown path
// gets a placeholder holding the content instead (see placeholder).

// cover records that the existing read-only path r, which addReadOnly
// has checked, shows content. r must be a regular file: covering a
// directory with a file would change what the command finds beneath it.
func (v *view) cover(r, content string) error {
	fi, err := os.Lstat(r)
	if err != nil {
		return fmt.Errorf("confine: the shown file %s: %w", r, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("confine: Policy.Shown %s is not a regular file: only a file's content can be shown: %w", r, ErrUnsafePolicy)
	}
	if v.shown == nil {
		v.shown = map[string]string{}
	}
	v.shown[r] = content
	return nil
}

// addData adds, under key, a descriptor from which content can be read
// from its start: an anonymous memory file, sealed so that nothing can
// change it once written.
func (s *sources) addData(key, content string) error {
	fd, err := unix.MemfdCreate("sandboxauth-shown", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return fmt.Errorf("confine: a memory file for %s: %w", key, err)
	}
	f := os.NewFile(uintptr(fd), key)
	if _, err := f.WriteString(content); err != nil {
		f.Close()
		return fmt.Errorf("confine: writing the content shown at %s: %w", key, err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return fmt.Errorf("confine: the content shown at %s: %w", key, err)
	}
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL); err != nil {
		f.Close()
		return fmt.Errorf("confine: sealing the content shown at %s: %w", key, err)
	}
	s.byPath[key] = s.first + len(s.files)
	s.files = append(s.files, f)
	return nil
}

// dataKey is the key under which sources holds the content shown at p.
func dataKey(p string) string { return "data:" + p }

// hiddenEmpty reports whether the hidden file f is shown as an empty
// file (a copy, see addData) rather than as a device that cannot be
// opened: outside the writable places, where the user's settings files
// with credentials lie (~/.npmrc, which yarn reads). Inside them a
// hidden file may be tracked by git, which would stage an empty file in
// its place (git commit -a) and refuses a device.
func (v *view) hiddenEmpty(f string) bool { return v.writableRoot(f) == "" }
