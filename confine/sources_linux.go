package confine

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// sources are the bind mounts' sources, opened before bubblewrap starts.
// Bubblewrap mounts a path by looking it up when it gets to it; by then a
// confined command of the same sandbox, running meanwhile, could have put
// a symbolic link where a checked directory was, and the mount would take
// whatever the link names (an outside directory, made writable). A
// descriptor opened with no symbolic link allowed anywhere on the way
// names the checked file itself; bubblewrap mounts it (--bind-fd) and
// closes it.
type sources struct {
	files  []*os.File
	byPath map[string]int // path: descriptor number in the child
	first  int            // the child's number for files[0]
}

// openSources opens every source of v's binds that lies where a confined
// command could change it: the writable places, the pins, the read-only
// paths and the program. Their descriptors in the child are numbered from
// first, in the order of s.files.
func openSources(v *view, first int) (*sources, error) {
	s := &sources{byPath: map[string]int{}, first: first}
	add := func(p string) error {
		if _, ok := s.byPath[p]; ok {
			return nil
		}
		fd, err := pathres.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_CLOEXEC, // no O_NOFOLLOW: with it, O_PATH opens a final symbolic link itself
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err != nil {
			s.close()
			if err == unix.ELOOP {
				return fmt.Errorf("confine: %s became a symbolic link while the command was being started: %w", p, ErrUnsafePolicy)
			}
			return fmt.Errorf("confine: opening %s: %w", p, err)
		}
		s.byPath[p] = s.first + len(s.files)
		s.files = append(s.files, os.NewFile(uintptr(fd), p))
		return nil
	}
	for _, b := range v.writable {
		if err := add(b.Src); err != nil {
			return nil, err
		}
	}
	paths := append(append([]string{}, v.pins...), v.readOnly...)
	if v.program != "" {
		paths = append(paths, v.program)
	}
	for _, p := range paths {
		if err := add(p); err != nil {
			return nil, err
		}
	}
	for p, content := range v.shown {
		if err := s.addData(dataKey(p), content); err != nil {
			s.close()
			return nil, err
		}
	}
	for _, f := range v.hiddenFile {
		if slices.Contains(v.closed, f) || !v.hiddenEmpty(f) {
			continue
		}
		if err := s.addData(dataKey(f), ""); err != nil {
			s.close()
			return nil, err
		}
	}
	// The reading rules go to the helper as data: hundreds of paths,
	// more than an argument may hold.
	var r *readRules
	if v.reads != nil {
		r = <-v.reads
	}
	if r != nil {
		b, err := json.Marshal(r)
		if err == nil {
			err = s.addData(readsKey, string(b))
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("confine: the reading rules: %w", err)
		}
	}
	if err := s.addProgram(helperPath); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// addProgram adds the running program (its executable, which may have
// been replaced or removed on disk since it started) under key.
func (s *sources) addProgram(key string) error {
	fd, err := unix.Open("/proc/self/exe", unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("confine: opening this program's executable: %w", err)
	}
	s.byPath[key] = s.first + len(s.files)
	s.files = append(s.files, os.NewFile(uintptr(fd), key))
	return nil
}

// fd is the child's descriptor number for p's source, as an argument.
func (s *sources) fd(p string) string { return strconv.Itoa(s.byPath[p]) }

// close closes this process's copies.
func (s *sources) close() {
	for _, f := range s.files {
		f.Close()
	}
}
