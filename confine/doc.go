// Package confine runs a command under kernel confinement, so that what the
// command does is bounded whatever code it runs: a test suite, a build
// script, a package script the model wrote a minute ago.
//
// # The model
//
// A Policy names one directory the command may write beneath (Sandbox), a
// few more writable places (Writable: the temporary directory, toolchain
// caches, /dev/null), optionally the only places it may read (Readable),
// and whether it may use TCP (Network). Start and Run take an *exec.Cmd
// built as usual and start it confined by the policy:
//
//	cmd := exec.Command("go", "test", "./...")
//	cmd.Dir = project
//	err := confine.Run(cmd, confine.DefaultPolicy(project))
//
// Only the child and what it starts are confined. The calling process (the
// agent) keeps every right it had: the restriction is applied to one OS
// thread that exists only to start the child and is then retired.
//
// DefaultPolicy holds what real toolchains need (the temporary directory;
// the Go build and module caches; npm, yarn, pnpm, pip, uv, poetry, cargo,
// deno and bun caches; harmless devices), with reads unrestricted and no
// network. Adjust the returned value to taste: it is a plain struct.
//
// # Fail closed
//
// When the kernel cannot enforce what a Policy asks, Start starts nothing
// and returns an error wrapping ErrUnavailable: no Landlock (Linux before
// 5.13, or Landlock not enabled), a Landlock without TCP rules (before
// Linux 6.7) while Network is false, an architecture without the
// system-call filter described below, or an operating system other than
// Linux. There is never a silent unconfined run. Available reports ahead
// of time whether DefaultPolicy can be enforced.
//
// # What is enforced (Linux Landlock)
//
//   - Writes: creating, writing, truncating, renaming, linking and deleting
//     files, directories, fifos, sockets and symlinks succeed only beneath
//     Sandbox and Writable. Everything else on every file system is
//     read-only to the command, for root too. Device nodes cannot be
//     created anywhere, not even by root in the sandbox: one naming a disk
//     would write past every rule.
//   - Reads: with Readable non-nil, reading files, listing directories and
//     executing programs succeed only beneath Sandbox, Writable, Readable,
//     the program itself and the system directories (/usr, /bin, /sbin,
//     /lib, /lib32, /lib64, /libx32, /etc, /dev, /proc, /sys).
//   - Network (Network false): TCP connect and bind to any port are denied.
//     Landlock checks the connect call, which Multipath TCP sockets and TCP
//     Fast Open (a send with MSG_FASTOPEN opens the connection) do without,
//     so a per-thread seccomp filter also makes creating a Multipath TCP
//     socket fail (as if the protocol were unsupported; programs fall back
//     to plain TCP), makes sendto, sendmsg and sendmmsg with MSG_FASTOPEN
//     fail with EOPNOTSUPP (programs fall back to connect), and makes
//     io_uring unavailable.
//   - The terminal: the same filter refuses the ioctls TIOCSTI and
//     TIOCLINUX (EPERM), which would type a command into the terminal the
//     child shares with the user's shell, to run unconfined once it ends.
//     It is installed whatever the network setting, and kills a process
//     that makes 32-bit or x32 system calls, whose numbers and arguments
//     it would not read right.
//   - Scoping (Landlock ABI 6, Linux 6.12, and later; best effort): the
//     command cannot send signals to processes outside its confinement
//     (the agent, the user's other programs) nor connect to abstract UNIX
//     sockets created outside it.
//   - no_new_privs: set-user-ID programs do not gain privileges.
//
// # What is not enforced
//
//   - Reads when Readable is nil (the default): the command can read what
//     the user can, ~/.ssh included. Set Readable to restrict reads; then
//     list what the toolchain reads.
//   - UDP, ICMP and other non-TCP traffic, including DNS queries; UNIX
//     sockets with a path in a readable place (a Docker or SSH agent
//     socket, for example); binding port 0 or listening on an unbound
//     socket (a port the kernel picks).
//   - File descriptors the command inherits: an open file or socket passed
//     in cmd.ExtraFiles, cmd.Stdin/Stdout/Stderr keeps the access it was
//     opened with.
//   - Resource use (CPU, memory, processes, time), and what the command
//     writes in Writable places, caches included: a command can plant files
//     in a shared cache that later, unconfined builds will use. Keep
//     Writable short when that matters.
//   - Other ioctls on devices, and System V IPC.
//   - File metadata outside the sandbox: Landlock does not control chmod,
//     chown and utimes, so a command can change the mode, owner (as root)
//     and times of any file it could before. Run confined commands as an
//     unprivileged user.
//   - The environment: the child gets cmd.Env (the caller's environment
//     when nil), secrets in it included, and with Readable set it can
//     still read /proc, where other processes of the same user show their
//     command lines and, within its own confinement, environments.
//
// For more, run the agent itself in a container or a virtual machine, or
// add a seccomp profile of your own: confinement here is a wall around
// what the classifier already approved, not a replacement for either.
//
// # Limits of the mechanism
//
// cmd.SysProcAttr.Pdeathsig is refused: Linux sends the parent-death
// signal when the thread that started the child exits, which here is at
// once. Setting Readable to the empty slice (not nil) restricts reads to
// Sandbox, Writable and the system directories.
package confine
