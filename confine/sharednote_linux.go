package confine

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// A note shared by this user's confined runs that overlap: what the
// machine's device nodes or a terminal were like before the first of them
// began. Each run puts back what the note says when it ends; a run that
// took its own note while another's command had changed the thing would
// put that change back after the other had undone it. The note lives in
// the record directory (out of every command's reach), under a lock:
// NAME.lock is held while a run joins or leaves, NAME.runs is locked
// shared by each run while it lasts (one that can lock it exclusively is
// alone), and NAME.json is the note.

// sharedNote returns the note name in book, taken by take when no run
// shares it, and release, which ends this run's share (the last run's
// removes the note). ok is false when the note cannot be shared (no lock,
// a note that cannot be read): the caller then notes alone.
func sharedNote(book, name string, take func() []byte) (note []byte, release func(), ok bool) {
	lockPath, runsPath, notePath := filepath.Join(book, name+".lock"), filepath.Join(book, name+".runs"), filepath.Join(book, name+".json")
	lock, err := flockOpen(lockPath, unix.LOCK_EX)
	if err != nil {
		return nil, nil, false
	}
	defer lock.Close()
	if probe, err := flockOpen(runsPath, unix.LOCK_EX|unix.LOCK_NB); err == nil {
		probe.Close() // no run shares the note: take it anew
		note = take()
		if err := os.WriteFile(notePath, note, 0o600); err != nil {
			return nil, nil, false
		}
	} else if note, err = os.ReadFile(notePath); err != nil {
		return nil, nil, false
	}
	runs, err := flockOpen(runsPath, unix.LOCK_SH)
	if err != nil {
		return nil, nil, false
	}
	return note, func() {
		lock, err := flockOpen(lockPath, unix.LOCK_EX)
		runs.Close()
		if err != nil {
			return
		}
		defer lock.Close()
		if probe, err := flockOpen(runsPath, unix.LOCK_EX|unix.LOCK_NB); err == nil {
			probe.Close()
			os.Remove(notePath) // the last run of those sharing it
		}
	}, true
}

// flockOpen opens path (made when missing) and locks it with how.
func flockOpen(path string, how int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
