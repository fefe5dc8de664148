package confine

import "os/exec"

// Start starts cmd confined by p, as cmd.Start does: call cmd.Wait as
// usual. Only the child (and what it starts) is confined; the calling
// process keeps all its rights.
//
// cmd is started through bubblewrap: after Start, cmd.Path and cmd.Args
// name bubblewrap and its arguments (the sandbox, in full), and
// cmd.Process is bubblewrap's. When the command ends on its own,
// bubblewrap exits with its status (128+N when signal N ended it) once
// every process of the sandbox has ended and Policy.AfterExit has run, so
// cmd.Wait returns after both. A signal sent to cmd.Process (Kill, or a
// context's cancellation with exec.CommandContext) ends bubblewrap and,
// at once, every process of the sandbox (SIGKILL); cmd.Wait then returns
// without waiting for AfterExit, which runs as soon as the last process
// of the sandbox is gone, provided the calling process lives. On a kernel
// without Landlock's scoping (ABI 6, Linux 6.12) the command itself can
// end the sandbox that way, by signalling its first process. A caller
// that must not go on before AfterExit uses Run, which waits for it in
// every case, or wraps AfterExit (see the example).
//
// A standard stream that is one of the caller's files is given to the
// command as it is only when it is a pipe, a terminal or another
// character device, or, for cmd.Stdin, a socket or a regular file open
// for reading only. Any other (a regular file opened to append a log to, a socket)
// is relayed through a pipe, so that the command never holds the file
// (it could truncate it or rewrite what it held): exec.Cmd copies
// between the pipe and the file, as for a stream that is not an
// *os.File, and cmd.Wait returns once the copy is done, which is when the
// sandbox has ended. cmd.ExtraFiles are passed as they are: they are the
// caller's explicit choice of what the command may hold.
//
// When the machine cannot enforce p (see Available), Start returns an
// error wrapping ErrUnavailable and starts nothing. A policy that would
// leave a way out returns an error wrapping ErrUnsafePolicy; an invalid
// policy or command is an error wrapping neither. cmd.SysProcAttr may not
// set namespaces, credentials, a chroot, a controlling terminal or a
// parent-death signal: confinement sets those itself.
func Start(cmd *exec.Cmd, p Policy) error {
	if err := p.check(cmd); err != nil {
		return err
	}
	return start(cmd, &p, nil)
}

// Run starts cmd confined by p and waits for it, as cmd.Run does, and
// then for Policy.AfterExit and the sandbox's cleanup, in every case:
// also when the sandbox was ended by a signal, from outside or (on a
// kernel that cannot keep it from the sandbox's first process) from the
// command itself.
func Run(cmd *exec.Cmd, p Policy) error {
	if err := p.check(cmd); err != nil {
		return err
	}
	finished := make(chan struct{})
	if err := start(cmd, &p, func() { close(finished) }); err != nil {
		return err
	}
	err := cmd.Wait()
	<-finished
	return err
}

// Available returns nil when this machine can confine commands as
// DefaultPolicy asks (bubblewrap is installed and can create the
// namespaces; the kernel has what the system-call filter needs), and
// otherwise an error wrapping ErrUnavailable that names what is missing
// and how to provide it. It starts bubblewrap once to find out.
func Available() error {
	return available()
}
