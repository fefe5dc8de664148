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

// record appends the placeholders made by this run.
func (l *placeholderLock) record(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	_, err := l.f.Write(b.Bytes())
	return err
}

// release ends this run's hold. If no other run holds the lock, every
// recorded placeholder that is still an empty directory is removed
// (innermost first) and the record emptied.
func (l *placeholderLock) release() {
	defer l.f.Close()
	fd := int(l.f.Fd())
	if unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) != nil {
		return // another run of the sandbox still relies on them
	}
	data, err := os.ReadFile(l.f.Name())
	if err != nil {
		return
	}
	var paths []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Split(splitNUL)
	for sc.Scan() {
		if p := sc.Text(); filepath.IsAbs(p) && !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	// Deepest first, so that a placeholder's placeholder parent is empty
	// when its turn comes.
	slices.SortFunc(paths, func(a, b string) int { return strings.Count(b, "/") - strings.Count(a, "/") })
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			continue
		}
		// Remove only an empty directory: rmdir fails on anything else.
		if err := unix.Rmdir(p); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, unix.ENOTEMPTY) && !errors.Is(err, unix.EEXIST) {
			continue
		}
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
