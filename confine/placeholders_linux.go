package confine

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
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
type placeholderLock struct {
	f *os.File
	// places are the sandbox whose record it is and the run's other
	// writable places: placeholders are made beneath them, and a record
	// naming anything else is not followed.
	places []string
}

// lockPlaceholders takes the shared lock of sandbox's record, kept in
// root, for a run that may also write beneath writable.
func lockPlaceholders(root, sandbox string, writable []string) (*placeholderLock, error) {
	dir := filepath.Join(root, "placeholders")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("confine: the placeholder record: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, digest(sandbox)), os.O_RDWR|os.O_CREATE|os.O_APPEND|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("confine: the placeholder record: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH); err != nil {
		f.Close()
		return nil, fmt.Errorf("confine: locking the placeholder record: %w", err)
	}
	return &placeholderLock{f: f, places: append([]string{sandbox}, writable...)}, nil
}

// placeholder is one path made to stand for a missing ReadOnly path: an
// empty directory, or a file with the given content. It is named by the
// writable place it lies in (root) and its path there (rel), and known by
// its identity, so that it is removed only if it is still the one made,
// reached with no symbolic link on the way.
type placeholder struct {
	root, rel string
	isFile    bool
	content   string
	dev, ino  uint64
}

// makeAt creates the placeholder as name in the directory dir (a
// descriptor); one already there (another run's) is fine.
func (ph placeholder) makeAt(dir int, name string) error {
	if !ph.isFile {
		if err := unix.Mkdirat(dir, name, 0o755); err != nil && err != unix.EEXIST {
			return err
		}
		return nil
	}
	fd, err := unix.Openat(dir, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o444)
	if err == unix.EEXIST {
		return nil
	}
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), name)
	_, werr := f.WriteString(ph.content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// remove removes the placeholder if it is still the one made (same
// identity; for a directory, empty; for a file, the same content),
// through a descriptor of its directory opened beneath its writable place
// with no symbolic link on the way.
func (ph placeholder) remove() {
	root, err := unix.Open(ph.root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(root)
	dir, name := root, ph.rel
	if i := strings.LastIndexByte(ph.rel, '/'); i >= 0 {
		how := &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		}
		dir, err = pathres.Openat2(root, ph.rel[:i], how)
		if err == unix.EACCES {
			// The command took the search permission of a directory on
			// the way (chmod 000 .): give it back to the owner.
			dir, err = pathres.OpenBeneathOwned(root, ph.rel[:i], how)
		}
		if err != nil {
			return
		}
		defer unix.Close(dir)
		name = ph.rel[i+1:]
	}
	var st unix.Stat_t
	err = unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if err == unix.EACCES {
		pathres.GiveOwnerAccess(dir)
		err = unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil || uint64(st.Dev) != ph.dev || st.Ino != ph.ino {
		return
	}
	if !ph.isFile {
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			unlinkGivingAccess(dir, name, unix.AT_REMOVEDIR) // fails unless empty
		}
		return
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size != int64(len(ph.content)) {
		return
	}
	fd, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	b := make([]byte, len(ph.content)+1)
	n, _ := unix.Read(fd, b)
	unix.Close(fd)
	if string(b[:max(n, 0)]) == ph.content {
		unlinkGivingAccess(dir, name, 0)
	}
}

// record appends the placeholders made by this run.
func (l *placeholderLock) record(phs []placeholder) error {
	if len(phs) == 0 {
		return nil
	}
	var b bytes.Buffer
	for _, ph := range phs {
		kind := "d"
		if ph.isFile {
			kind = "f"
		}
		for _, field := range []string{kind, ph.root, ph.rel, ph.content, strconv.FormatUint(ph.dev, 10), strconv.FormatUint(ph.ino, 10)} {
			b.WriteString(field)
			b.WriteByte(0)
		}
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
	data, err := io.ReadAll(io.NewSectionReader(l.f, 0, 1<<30))
	if err != nil {
		return
	}
	var phs []placeholder
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Split(splitNUL)
	var fields []string
	for sc.Scan() {
		if fields = append(fields, sc.Text()); len(fields) < 6 {
			continue
		}
		dev, derr := strconv.ParseUint(fields[4], 10, 64)
		ino, ierr := strconv.ParseUint(fields[5], 10, 64)
		// Only beneath the places where placeholders are made.
		if derr == nil && ierr == nil && filepath.IsAbs(fields[1]) && fields[2] != "" && l.beneathPlaces(filepath.Join(fields[1], fields[2])) {
			phs = append(phs, placeholder{root: fields[1], rel: fields[2], isFile: fields[0] == "f", content: fields[3], dev: dev, ino: ino})
		}
		fields = fields[:0]
	}
	// Deepest first, so that a placeholder's placeholder parent is empty
	// when its turn comes.
	slices.SortStableFunc(phs, func(a, b placeholder) int { return strings.Count(b.rel, "/") - strings.Count(a.rel, "/") })
	for _, ph := range phs {
		ph.remove()
	}
	_ = l.f.Truncate(0)
}

// beneathPlaces reports whether p lies beneath one of l's places.
func (l *placeholderLock) beneathPlaces(p string) bool {
	for _, w := range l.places {
		if p != w && pathres.Within(w, p) {
			return true
		}
	}
	return false
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

// unlinkGivingAccess removes name from the directory dir, giving the
// owner back its permissions on dir first if the removal is refused.
func unlinkGivingAccess(dir int, name string, flags int) {
	if unix.Unlinkat(dir, name, flags) == unix.EACCES {
		pathres.GiveOwnerAccess(dir)
		_ = unix.Unlinkat(dir, name, flags)
	}
}
