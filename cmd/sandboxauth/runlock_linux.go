package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/confine"
)

// run takes its sandbox's run lock before it looks at the sandbox, and
// holds it until it exits: one confined command of a sandbox at a time.
// The quarantine after a command compares what git obeys with what it
// saw before the command started; a second command running beside the
// first could change a repository and put it back in between, handing a
// change past both checks (see sandboxauth.ProtectConfinement). The lock
// is a file in confinement's record directory (out of every confined
// command's reach), locked with flock(2): the kernel releases it however
// run ends.

// lockSandbox takes the run lock of the sandbox of p, waiting (and saying
// so on e.stderr) while another run holds it. The lock lasts as long as
// this process.
func lockSandbox(e *env, p confine.Policy) error {
	path, err := confine.SandboxRecord(p, "run.lock")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	// f stays open (and locked) until the process exits.
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
		return nil
	}
	fmt.Fprintf(e.stderr, "sandboxauth run: waiting for another confined command in %s to end (one runs at a time in a sandbox)\n", p.Sandbox)
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}
