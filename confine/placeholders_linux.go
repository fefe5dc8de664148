package confine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// A placeholder keeps a missing ReadOnly path from being created: an empty
// directory is made in its place and mounted read-only in the view, where
// it can be neither removed nor replaced. Placeholders exist on the real
// file system while a confined command of the sandbox runs, and are removed
// when the last one ends.
//
// Confined commands of one sandbox may run at the same time, each with its
// own view, and a placeholder one of them relies on must outlive it. Each
// run holds a shared lock on a file kept for the sandbox (outside it, in
// the user's cache directory) while it runs, and records the placeholders
// it made there. The run that ends and can take the lock exclusively is the
// last: it removes every recorded placeholder that is still an empty
// directory. A run that dies without cleaning leaves them to the next.

// placeholderLock is a held shared lock on the sandbox's placeholder
// record.
type placeholderLock struct{ f *os.File }

// lockPlaceholders takes the shared lock of sandbox's record.
func lockPlaceholders(root, sandbox string) (*placeholderLock, error) {
	dir := filepath.Join(root, "placeholders")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("confine: the placeholder record: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, digest(sandbox)), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("confine: the placeholder record: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH); err != nil {
		f.Close()
		return nil, fmt.Errorf("confine: locking the placeholder record: %w", err)
	}
	return &placeholderLock{f}, nil
}

// placeholder is one path made to stand for a missing ReadOnly path: an
// empty directory, or a file with the given content.
type placeholder struct {
	path    string
	isFile  bool
	content string
}

// make creates the placeholder; one already there (another run's) is fine.
func (ph placeholder) make() error {
	if !ph.isFile {
		if err := os.Mkdir(ph.path, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		return nil
	}
	f, err := os.OpenFile(ph.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o444)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	_, werr := f.WriteString(ph.content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// remove removes the placeholder if it is still what was made: an empty
// directory, or a regular file with the same content.
func (ph placeholder) remove() {
	fi, err := os.Lstat(ph.path)
	if err != nil {
		return
	}
	if !ph.isFile {
		if fi.IsDir() {
			_ = unix.Rmdir(ph.path) // fails unless empty
		}
		return
	}
	if !fi.Mode().IsRegular() || fi.Size() != int64(len(ph.content)) {
		return
	}
	if b, err := os.ReadFile(ph.path); err == nil && string(b) == ph.content {
		_ = os.Remove(ph.path)
	}
}

// record appends the placeholders made by this run.
func (l *placeholderLock) record(phs []placeholder) error {
	if len(phs) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, ph := range phs {
		if ph.isFile {
			b.WriteByte('f')
		} else {
			b.WriteByte('d')
		}
		b.WriteString(ph.path)
		b.WriteByte(0)
		b.WriteString(ph.content)
		b.WriteByte(0)
	}
	_, err := l.f.Write(b.Bytes())
	return err
}

// release ends this run's hold. If no other run holds the lock, every
// recorded placeholder that is still as it was made is removed (innermost
// first) and the record emptied.
func (l *placeholderLock) release() {
	defer l.f.Close()
	if unix.Flock(int(l.f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return // another run of the sandbox still relies on them
	}
	data, err := os.ReadFile(l.f.Name())
	if err != nil {
		return
	}
	var phs []placeholder
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Split(splitNUL)
	for sc.Scan() {
		head := sc.Text()
		if !sc.Scan() {
			break
		}
		if len(head) < 2 || !filepath.IsAbs(head[1:]) {
			continue
		}
		phs = append(phs, placeholder{path: head[1:], isFile: head[0] == 'f', content: sc.Text()})
	}
	// Deepest first, so that a placeholder's placeholder parent is empty
	// when its turn comes.
	slices.SortStableFunc(phs, func(a, b placeholder) int { return strings.Count(b.path, "/") - strings.Count(a.path, "/") })
	for _, ph := range phs {
		ph.remove()
	}
	_ = l.f.Truncate(0)
}

func splitNUL(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
