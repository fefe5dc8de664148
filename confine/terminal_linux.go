package confine

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"
)

// A confined command has no controlling terminal, but its standard
// streams may be the user's terminal, and a terminal's settings belong to
// the terminal, not to a process: `stty intr undef -echo` would leave
// Ctrl-C doing nothing and typing unseen after the command ended, and
// TIOCEXCL would make every later open of the terminal fail. The filter
// cannot tell such requests from a program's ordinary ones (a test runner
// that reads keys raw), so the starting thread notes the settings of each
// terminal among the streams before the command starts and puts them back
// once the sandbox has ended, as with the device nodes: its termios, its
// window size, exclusive mode, and output suspended with tcflow. (What the command
// discards of the input typed ahead, TCFLSH, is not put back.)

// terminalState is a terminal's settings: a descriptor of its own for
// it (the caller may close its file meanwhile), its termios, and whether
// it was in exclusive mode.
type terminalState struct {
	fd        int
	rdev      uint64 // which terminal (its device number)
	termios   unix.Termios
	winsize   *unix.Winsize
	exclusive bool
}

// terminalNote is a terminal's settings as the note shared by
// overlapping runs holds them (see sharedNote).
type terminalNote struct {
	Termios   unix.Termios
	Winsize   *unix.Winsize
	Exclusive bool
}

// sharedTerminals notes the settings of the terminals among streams as
// snapshotTerminals does, but takes, for each, the note of this user's
// confined runs that overlap (in book) where there is one: a run that
// began while another's command had changed the terminal (stty -echo)
// would otherwise put that change back when it ends. It returns done,
// which puts the settings back and ends this run's shares.
func sharedTerminals(book string, streams ...any) (done func()) {
	states := snapshotTerminals(streams...)
	var releases []func()
	for i := range states {
		s := &states[i]
		note, release, ok := sharedNote(book, "terminal-"+strconv.FormatUint(s.rdev, 10), func() []byte {
			b, _ := json.Marshal(terminalNote{Termios: s.termios, Winsize: s.winsize, Exclusive: s.exclusive})
			return b
		})
		if !ok {
			continue
		}
		releases = append(releases, release)
		var n terminalNote
		if json.Unmarshal(note, &n) == nil {
			s.termios, s.winsize, s.exclusive = n.Termios, n.Winsize, n.Exclusive
		}
	}
	return func() {
		restoreTerminals(states)
		for _, r := range releases {
			r()
		}
	}
}

// snapshotTerminals returns the settings of the terminals among streams
// (each once).
func snapshotTerminals(streams ...any) []terminalState {
	var out []terminalState
	var seen []uint64
	for _, s := range streams {
		f, ok := s.(*os.File)
		if !ok || f == nil {
			continue
		}
		t, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
		if err != nil {
			continue // not a terminal
		}
		var st unix.Stat_t
		if unix.Fstat(int(f.Fd()), &st) != nil || slices.Contains(seen, st.Rdev) {
			continue
		}
		fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 3)
		if err != nil {
			continue
		}
		excl, _ := unix.IoctlGetInt(fd, unix.TIOCGEXCL)
		ws, _ := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
		seen = append(seen, st.Rdev)
		out = append(out, terminalState{fd: fd, rdev: st.Rdev, termios: *t, winsize: ws, exclusive: excl != 0})
	}
	return out
}

// restoreTerminals puts back the settings in states where they changed,
// and closes the descriptors.
func restoreTerminals(states []terminalState) {
	for _, s := range states {
		if t, err := unix.IoctlGetTermios(s.fd, unix.TCGETS); err == nil && *t != s.termios {
			_ = unix.IoctlSetTermios(s.fd, unix.TCSETS, &s.termios)
		}
		if excl, err := unix.IoctlGetInt(s.fd, unix.TIOCGEXCL); err == nil && excl != 0 && !s.exclusive {
			_ = unix.IoctlSetInt(s.fd, unix.TIOCNXCL, 0)
		}
		if ws, err := unix.IoctlGetWinsize(s.fd, unix.TIOCGWINSZ); err == nil && s.winsize != nil && *ws != *s.winsize {
			_ = unix.IoctlSetWinsize(s.fd, unix.TIOCSWINSZ, s.winsize)
		}
		// Output the command suspended (tcflow TCOOFF, as Ctrl-S does)
		// would leave the user's next write blocked: resume it.
		_ = unix.IoctlSetInt(s.fd, unix.TCXONC, unix.TCOON)
		unix.Close(s.fd)
	}
}
