package confine

import (
	"os"
	"os/exec"

	"golang.org/x/sys/unix"
)

// A standard stream that is one of the caller's files is the caller's
// open file description: given to the command, a regular file opened to
// append to (sandboxauth run ... >> ~/build.log, an agent's log of its
// tool calls) can be truncated (ftruncate), written anywhere (F_SETFL
// without O_APPEND, then pwrite) and have its earlier content zeroed
// (fallocate's PUNCH_HOLE), none of which a reopening through
// /proc/self/fd would be let do, and all of which outlive the command. So
// the command is given such a file only where it cannot change what lies
// outside through it:
//
//   - standard output and standard error that are pipes, terminals or
//     character devices are passed as they are (what the command may do to
//     a terminal is bounded elsewhere: terminal_linux.go, streams_linux.go);
//     anything else (a regular file, a socket, a directory, an O_PATH
//     descriptor) is relayed: the command writes into a pipe, and a
//     goroutine of the caller (exec.Cmd's own copy, which cmd.Wait waits
//     for) writes what comes out of it to the file, as the caller opened
//     it (appending when it was opened to append). The relay ends when the
//     last process of the sandbox holding the pipe has ended: the helper
//     kills every one of them when the command exits.
//   - standard input is passed as it is when it is a pipe, a terminal or
//     character device, a socket, or a regular file open for reading
//     only; anything else (a regular file open for writing, a block
//     device, a directory) is relayed the other way, read by the caller
//     and written into a pipe the command reads. (Reading those never
//     waits for a writer: exec.Cmd's copy, which cmd.Wait waits for, ends
//     at the file's end. A pipe or a socket may never end, so they are not
//     relayed: the caller who gives one wants the command to talk over
//     it.)
//
// cmd.ExtraFiles are passed as they are: they are the caller's explicit
// choice of what the command may hold.

// outputRelay is a standard output or error relayed to the caller's file.
// It is not an *os.File, so exec.Cmd makes the pipe and the copy.
type outputRelay struct{ f *os.File }

// Write writes p to the caller's file.
func (r *outputRelay) Write(p []byte) (int, error) { return r.f.Write(p) }

// inputRelay is a standard input relayed from the caller's file.
type inputRelay struct{ f *os.File }

// Read reads from the caller's file.
func (r *inputRelay) Read(p []byte) (int, error) { return r.f.Read(p) }

// relayStreams replaces each of cmd's standard streams that must not be
// handed to the command with a relay, and returns the function that puts
// the caller's back in cmd when it could not be started (once started,
// exec.Cmd's copy of standard input reads cmd.Stdin as it goes, so the
// relays stay). The same file given as standard output and
// error gets one relay, so that exec.Cmd makes one pipe for both and
// keeps their order.
func relayStreams(cmd *exec.Cmd) (restore func()) {
	stdin, stdout, stderr := cmd.Stdin, cmd.Stdout, cmd.Stderr
	if f, ok := cmd.Stdin.(*os.File); ok && f != nil && !passableStream(f, true) {
		cmd.Stdin = &inputRelay{f}
	}
	outputs := map[*os.File]*outputRelay{}
	if f, ok := cmd.Stdout.(*os.File); ok && f != nil && !passableStream(f, false) {
		r := &outputRelay{f}
		outputs[f] = r
		cmd.Stdout = r
	}
	if f, ok := cmd.Stderr.(*os.File); ok && f != nil && !passableStream(f, false) {
		r := outputs[f]
		if r == nil {
			r = &outputRelay{f}
		}
		cmd.Stderr = r
	}
	return func() { cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr }
}

// passableStream reports whether f may be given to the command as it is:
// a pipe, a terminal or another character device, or, for standard input,
// a socket or a regular file open for reading only. A file that cannot be
// looked at is not.
func passableStream(f *os.File, input bool) bool {
	conn, err := f.SyscallConn()
	if err != nil {
		return false
	}
	pass := false
	_ = conn.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) != nil {
			return
		}
		flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		if err != nil || flags&unix.O_PATH != 0 {
			return
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFIFO, unix.S_IFCHR:
			pass = true
		case unix.S_IFSOCK:
			pass = input
		case unix.S_IFREG:
			pass = input && flags&unix.O_ACCMODE == unix.O_RDONLY
		}
	})
	return pass
}
