package repotrust

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// stamp is what a cached decision remembers of one path it consulted: the
// identity of the file (device and inode), its type and permission bits,
// its size and its modification and change times. A path that did not
// exist is remembered by its nearest existing ancestor directory, whose
// modification time changes when an entry is created in it. A path whose
// stamp differs, or whose existence changed, invalidates the decision.
type stamp struct {
	path         string
	exists       bool
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64 // nanoseconds
}

func statStamp(path string) stamp {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return stamp{path: path}
	}
	return stamp{
		path: path, exists: true,
		dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}
}

// changed reports whether the path's stamp differs from s.
func (s *stamp) changed() bool {
	return statStamp(s.path) != *s
}

// stamps collects the stamps of the paths a decision consulted, once each.
type stamps struct {
	list []stamp
	seen map[string]bool
}

// file records a path that was read or whose presence mattered, and
// returns its stamp. A missing path is recorded by its nearest existing
// ancestor directory alone: creating the path (or any missing directory
// on the way) changes that directory's times, and replacing the directory
// changes its inode.
func (ss *stamps) file(path string) stamp {
	st := statStamp(path)
	if st.exists {
		ss.add(st)
		return st
	}
	ss.ancestor(path)
	return st
}

// presence returns the stamp of a path whose existence and type matter
// but whose content and times do not (objects/ and refs/): its parent
// directory is recorded instead, whose times change when the entry is
// created, removed or replaced.
func (ss *stamps) presence(path string) stamp {
	st := statStamp(path)
	ss.ancestor(path)
	return st
}

func (ss *stamps) ancestor(path string) {
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if ss.seen[dir] {
			// Stamped already by this decision (discovery looks for
			// .git and HEAD in the same directory): that stamp stands.
			return
		}
		if d := statStamp(dir); d.exists || dir == "/" || dir == "." {
			ss.add(d)
			return
		}
	}
}

func (ss *stamps) add(st stamp) {
	if ss.seen == nil {
		ss.seen = map[string]bool{}
	}
	if ss.seen[st.path] {
		return
	}
	ss.seen[st.path] = true
	ss.list = append(ss.list, st)
}

// racy reports whether a stamped file changed too close to start for its
// stamp to show a further change: within RacyWindow, or within
// CoarseRacyWindow when its times are whole seconds. Change times count,
// since no program can set them; modification times too.
func (ss *stamps) racy(start time.Time) bool {
	for _, s := range ss.list {
		for _, t := range []int64{s.mtime, s.ctime} {
			w := RacyWindow
			if t%int64(time.Second) == 0 {
				w = CoarseRacyWindow
			}
			if !time.Unix(0, t).Before(start.Add(-w)) {
				return true
			}
		}
	}
	return false
}

// readFile reads a small file, recording its stamp. A missing file is
// (nil, false, nil).
func (ss *stamps) readFile(path string) ([]byte, bool, error) {
	st := ss.file(path)
	if !st.exists {
		return nil, false, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, true, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, true, err
	}
	if !fi.Mode().IsRegular() {
		return nil, true, errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, true, err
	}
	if len(b) > maxFileSize {
		return nil, true, errTooLarge
	}
	return b, true, nil
}
