package confine

import "os/exec"

// Start starts cmd confined by p, as cmd.Start does: call cmd.Wait as
// usual. Only the child (and what it starts) is confined; the calling
// process keeps all its rights.
//
// When the kernel cannot enforce p (no Landlock, a Landlock without TCP
// rules while p.Network is false, an operating system other than Linux),
// Start returns an error wrapping ErrUnavailable and starts nothing. An
// invalid policy (Sandbox missing or relative) or command is an error that
// does not wrap ErrUnavailable. cmd.SysProcAttr.Pdeathsig is refused.
func Start(cmd *exec.Cmd, p Policy) error {
	if err := p.check(cmd); err != nil {
		return err
	}
	return start(cmd, &p)
}

// Run starts cmd confined by p and waits for it, as cmd.Run does.
func Run(cmd *exec.Cmd, p Policy) error {
	if err := Start(cmd, p); err != nil {
		return err
	}
	return cmd.Wait()
}

// Available returns nil when this kernel enforces what DefaultPolicy
// promises (writes beneath listed directories only, no TCP), and otherwise
// an error wrapping ErrUnavailable that says what is missing.
func Available() error {
	_, err := support(false)
	return err
}
