// Package confine runs a command so that what it does is bounded whatever
// code it runs: a test suite, a build script, a package script the model
// wrote a minute ago. A confined command acts on its sandbox directory and
// on nothing else, at the time or later.
//
// # The model
//
// A Policy names the one directory the command may change (Sandbox), a few
// more (Writable, shared; Private, through a copy of its own), what stays
// read-only inside them (ReadOnly), what it may not read (Hidden), and
// whether it has the network. Start and Run take an *exec.Cmd built as
// usual and start it confined:
//
//	cmd := exec.Command("go", "test", "./...")
//	cmd.Dir = project
//	err := confine.Run(cmd, confine.DefaultPolicy(project))
//
// Only the child and what it starts are confined. The calling process (the
// agent) keeps every right it had.
//
// # The mechanism
//
// The command runs in Linux namespaces made by bubblewrap, the system's
// bwrap (found in /usr/bin, /usr/local/bin or /bin only). The files are
// named after what they hold:
//
//   - sandbox_linux.go assembles the whole sandbox in one function
//     (bwrapArgs); namespaces_linux.go chooses the namespaces and probes
//     them; mounts_linux.go resolves the view (presence_linux.go rules
//     out the missing hidden paths a directory at a time, and its
//     listings show the copies beside them that backups.go tells;
//     hiddenlinks_linux.go follows the links inside hidden directories);
//     sources_linux.go opens what is mounted; sockets_linux.go finds the
//     sockets to mask; privatecopies_linux.go names the private copies;
//     homes.go finds the user's homes and the places a sandbox may not
//     be;
//   - seccomp_linux.go builds the system-call filter, with
//     unixsockets_linux.go's limits on AF_UNIX sockets, netlink_linux.go's
//     on netlink sockets and addressreuse_linux.go's on sharing an
//     address of the machine's network (with Network); landlock_linux.go
//     the Landlock rulesets; connectguard_linux.go stands behind the
//     command's connect calls;
//   - helper_linux.go is the sandbox's first process (which adds
//     Landlock's rules, readrules_linux.go's among them, watches the mount
//     table (mountwatch_linux.go), starts the command and waits for the whole
//     sandbox), from a thread of its own (threads_linux.go);
//     scheduling_linux.go keeps the command's scheduling from reaching
//     it; control_linux.go holds the pipes between it and the starting thread
//     that let cmd.Wait return only once the sandbox is gone;
//     orphans_linux.go ends a sandbox whose bubblewrap was killed before
//     the helper could take over;
//   - placeholders_linux.go keeps missing read-only paths from being
//     created; shown_linux.go covers a read-only file with other content
//     in the view (Policy.Shown); bookkeeping_linux.go chooses where the records are kept
//     (out of every command's reach);
//   - devices_linux.go, terminal_linux.go and streams_linux.go put back
//     the metadata of the machine's device nodes bound into the view, the
//     settings of the user's terminal and the status flags of the
//     standard streams; environment_linux.go adjusts the command's
//     environment.
//
// What the sandbox is:
//
//   - A user namespace in which the command has no capabilities, not even
//     as root, and cannot make another.
//   - A mount namespace: all of / read-only (or, with Readable, only the
//     system directories and what Readable names); /tmp, /var/tmp, /run
//     and /dev/shm empty and its own; a /dev with only null, zero, full,
//     random, urandom, tty and a terminal multiplexer (devpts) of its own;
//     a /proc of its own processes. Then Sandbox, Writable and Private
//     writable; ReadOnly paths bound read-only over them, with every
//     directory between them and the writable place pinned (a mount point
//     cannot be renamed, so the command cannot move .git away and make
//     another); Hidden paths (with the copies left beside them, NAME~,
//     NAME.bak, .NAME.swp, .NAME.un~, .NAME.kate-swp, "NAME (copy)", "Copy of NAME",
//     NAME.tar.gz, and what the links inside hidden directories lead
//     to, ~/.kube/config -> ~/clusters/prod.yaml) replaced by an
//     empty directory or file, but
//     those closed to the user already (not root, neither owner of them
//     nor allowed to read or search them), which the command, with no
//     capability, cannot open either, and a mount costs bubblewrap a
//     read of the whole mount table; and the sockets of outside programs
//     (read from /proc/net/unix) replaced by /dev/null: those in the
//     writable places (the helper refuses a connect anywhere else, with
//     or without Network), and none where it gets only socket pairs.
//   - A network namespace with only a loopback interface, unless Network:
//     servers the command starts on 127.0.0.1 or ::1 work for its own
//     clients, on any port; nothing outside is reachable, the machine's
//     loopback and abstract UNIX sockets and netlink included. With
//     Network the command shares the machine's namespace, and what lets
//     two sockets share an address is kept from it (addressreuse_linux.go):
//     SO_REUSEPORT and the programs that steer a reuseport group
//     (SO_ATTACH_REUSEPORT_CBPF, SO_ATTACH_REUSEPORT_EBPF) fail with EPERM,
//     since they would put the command's socket in an outside server's
//     group and hand it that server's connections; SO_REUSEADDR, which Go,
//     node and Python set on every TCP listener, goes to the helper, which
//     sets it on its own copy of the socket for stream and seqpacket
//     sockets and refuses it (EPERM) for datagram sockets, where the
//     socket bound last would get every datagram meant for an outside UDP
//     server bound with it.
//   - PID, IPC, UTS and cgroup namespaces: the command sees and signals
//     only its own processes (and cannot prlimit or ptrace others, or read
//     their /proc); System V IPC and POSIX message queues are its own.
//     When it ends, everything it started ends (its PID namespace goes
//     with it), and it dies if the process that started it dies.
//   - A session of its own, so no controlling terminal: /dev/tty fails.
//   - With or without Network, connect(2) goes through the helper (a
//     second filter's user notification), which makes the call itself on
//     a copy of the command's socket: an AF_UNIX socket reaches sockets
//     beneath the writable places, whatever name or link leads there, and
//     abstract names of the command's own (without Network, the sandbox's
//     network namespace has its own; with it, a thread of the helper in
//     the command's Landlock domain connects them, so that Landlock's
//     scope applies), and fails with EACCES elsewhere, so an outside
//     program's socket bound, renamed or bound by a relative name after
//     the start is out of reach too. /proc/self and /proc/thread-self at
//     the start of a path, and the view's links to them (/dev/fd/N,
//     /dev/stdin, /dev/stdout, /dev/stderr), name the command's thread.
//     AF_UNIX datagram sockets, which name a path on each send, are not
//     made (EACCES), with Network too.
//   - A Landlock domain that allows writing only beneath the writable
//     places, entered by a helper step inside the view (Landlock forbids
//     the mounts bubblewrap makes, so it comes after them): it covers what
//     a read-only mount does not, a FIFO of an outside program and a file
//     system mounted on the machine after the command started. The helper
//     is the calling program itself, re-executed by bubblewrap as the
//     sandbox's first process (PID 1 of its namespace): package
//     initialization of every program that imports confine runs it when
//     the variable SANDBOXAUTH_CONFINE_HELPER is set, and removes the
//     variable before the command runs. Nothing else is needed of a host
//     program. The helper restricts its own thread and starts the command
//     from it, reaps what the command leaves, kills what is left when the
//     command exits, and, once nothing of the sandbox remains, lets the
//     starting thread run Policy.AfterExit before it exits itself. The
//     command starts from a thread of the helper that is in the Landlock
//     domain and then ends (with Network it stays, to connect abstract
//     names, and only that thread is in the domain), so no other thread
//     of the helper is in the command's domain: where the kernel scopes
//     (ABI 6) the command can neither signal nor ptrace them; it is
//     undumpable, and it takes and drops every signal that would end it,
//     so the command can neither end it early nor use its descriptors.
//   - The sources of the bind mounts are descriptors opened with no
//     symbolic link allowed on the way, so what is mounted is what was
//     checked, whatever a confined command of the same sandbox renames
//     meanwhile.
//   - A mount over one path is detached in every mount namespace when
//     another renames or removes that path, as the user's programs do
//     while a command runs (git rewrites .git/config by renaming
//     config.lock over it; credential helpers, agents refreshing a token
//     and editors save by rename). So the hidden paths outside the
//     writable places are kept by Landlock too, whose domain then handles
//     reading: a new file in their place has no rule and cannot be read
//     (readrules_linux.go). Inside the writable places no Landlock rule
//     can keep a single path, so the helper watches the view's mount
//     table and, when a mount over a path there is detached, kills every
//     process of the sandbox at once and says why on the command's
//     standard error (mountwatch_linux.go); a shown file (Policy.Shown) is
//     a copy, so the user's writes in place do not reach it. When nothing
//     of the command is left, the helper looks at the table once more and
//     tells the caller whether every watched mount held to the end
//     (Policy.MountsHeld): if so, nothing at or below the kept paths is the
//     command's doing.
//   - A system-call filter (installed by bubblewrap just before the
//     command starts): TIOCSTI and TIOCLINUX, which type into a terminal,
//     TIOCSETD, whose line discipline would outlive the command, the
//     kernel keyring, which no namespace separates, sockets of families
//     the network namespace does not separate (AF_VSOCK reaches a virtual
//     machine's host; only UNIX, INET, INET6, NETLINK, PACKET and ALG are
//     made), netlink sockets of other protocols than those that talk to
//     the kernel alone (ROUTE, SOCK_DIAG, GENERIC, KOBJECT_UEVENT:
//     NETLINK_USERSOCK's ports, like abstract names, are the namespace's,
//     and any process may send to any other's; EPROTONOSUPPORT, with or
//     without Network), prlimit on another process (the helper's limits would let the
//     command end it when it chose), changing the scheduling of another
//     task than the calling thread (sched_setscheduler, sched_setparam,
//     sched_setattr, setpriority, ioprio_set, migrate_pages, move_pages
//     and prctl PR_SCHED_CORE with a non-zero target, a process group or
//     a user: the helper, made SCHED_IDLE and nice 19 on a CPU the
//     command keeps busy, would kill the sandbox seconds late when a
//     mount is lost, and end it late when the run is stopped; see
//     scheduling_linux.go), io_uring, the ioctls that snapshot a
//     btrfs or bcachefs subvolume (a snapshot the command makes in the
//     sandbox of a subvolume it owns, the home or /, would copy the hidden
//     credentials from beneath their mounts), and leases (fcntl
//     F_SETLEASE, which would hold outside writers of a file back) fail;
//     so does giving a file the set-user-ID or set-group-ID bit (chmod, or
//     creating it so), since the file would stay set-ID on the user's disk
//     after the run (openat2, whose mode a filter cannot read, reports
//     ENOSYS, and programs fall back to openat); sched_setaffinity of
//     another task than the calling thread returns 0 and changes nothing
//     (glibc sets the affinity a thread is created with by its ID, and
//     OpenMP's binding would fail to make threads); 32-bit and x32 system
//     calls kill the process.
//   - Scheduling: the helper sets RLIMIT_RTPRIO and RLIMIT_NICE to 0
//     before it starts the command, which cannot raise them: no process
//     of the command takes a real-time policy or a lower nice value than
//     it started with, so none is scheduled ahead of the helper. The
//     helper's threads that kill take the kernel's shortest slice (0.1
//     ms, Linux 6.12), which runs them first when they wake; the command
//     cannot set a slice (sched_setattr fails with EPERM; chrt uses it
//     only for SCHED_DEADLINE, which needs a capability anyway). A
//     command may lower its own priority and its children inherit it:
//     nice -n 10 make, ionice -c3, chrt -i 0, taskset -c 0 (which start a
//     program), and a process changing itself by pid 0 (os.nice,
//     os.sched_setaffinity(0, ...), node's os.setPriority(0, ...)) work.
//     The filter cannot tell the command's other threads and processes
//     from the helper's threads (all have non-zero IDs): renice -p,
//     chrt -p and ionice -p of a running process, renice -g and -u,
//     ionice -P and -u, and a thread changing its own policy or nice
//     value by its ID (pthread_setschedparam, node's
//     os.setPriority(process.pid, ...)) fail with EPERM; taskset -p, a
//     thread pinned by its ID (pthread_setaffinity_np, OpenMP's
//     OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY) and Python's
//     os.sched_setaffinity(os.getpid(), ...) are ignored, and the threads
//     run where the scheduler puts them.
//   - With Network, a Landlock domain scoping abstract UNIX sockets and
//     signals (Linux 6.12, Landlock ABI 6), since the command then shares
//     the machine's network namespace, where other programs' abstract
//     sockets are. Without Network the domain is added where the kernel
//     has it; the namespaces already keep the command from both.
//   - Descriptors: the command gets its standard streams and
//     cmd.ExtraFiles; the helper marks every other descriptor it was
//     given close-on-exec before starting it. The calling process is not
//     changed. A standard stream that is a file of the caller's other
//     than a pipe, a terminal or a character device (or, for standard
//     input, a socket or a regular file open for reading only) reaches
//     the command through a pipe that the caller relays
//     (streamrelay_linux.go): the command could otherwise truncate,
//     rewrite or punch holes in the user's log it was given to append to.
//     cmd.ExtraFiles are passed as they are.
//
// # DefaultPolicy
//
// DefaultPolicy holds what real toolchains need: Go's build cache is
// Private (kept per sandbox, so go test works and is fast from the second
// run, and nothing the command compiles reaches the user's own builds);
// every other cache (modules, npm, pip, cargo, ...) is readable and
// read-only, so what was downloaded before can be used and nothing can be
// planted for other builds; the user's credentials are Hidden (see
// CredentialPaths: keys, tokens, histories, the coding agents' transcripts
// and prompt histories, the system's secrets), and so are the environment
// variables that usually carry them (HiddenEnv: see CredentialEnv). The sandboxauth package adds
// the protected paths of the project (ProtectConfinement): .git's
// configuration and hooks, editor and agent settings read-only, .env
// hidden.
//
// # Fail closed
//
// When the machine cannot provide all of this, Start starts nothing and
// returns an error wrapping ErrUnavailable that names what is missing and
// how to fix it: bubblewrap not installed, user namespaces forbidden (a
// sysctl, or Ubuntu's AppArmor rule), no system-call filter for the
// architecture, a kernel without Landlock scoping when Network is set, an
// operating system other than Linux. Available says so ahead of time.
// There is no weaker mode. A policy that would leave a way out (the root
// as sandbox, a writable entry inside the sandbox, containing the home
// directory or under a hidden path, a read-only path reached through a
// symbolic link the command could replace, a sandbox inside a hidden
// directory, a link inside a hidden directory to the root, a home or a
// directory holding the sandbox) is refused with
// ErrUnsafePolicy, and so is a sandbox whose files the user's programs
// obey or run (CheckSandbox): the home directory or one above it, a
// place in ~/.config, ~/.local, ~/.cache or the XDG variables' places (or
// holding a settings place), in a directory on PATH, or inside a ReadOnly
// path (homes.go).
//
// # What is not enforced
//
//   - Reads are open beyond Hidden (with Readable nil): the command reads
//     what the user can, less the credentials. A confined command without
//     network cannot send what it reads anywhere; with Network, restrict
//     reads with Readable.
//   - What the command writes in the sandbox is the user's from then on:
//     a Makefile, a test, a nested repository with a configuration of its
//     own (git status in the parent repository looks into a submodule's),
//     a module at the top that shadows an installed one for python -m
//     run there (python3 -m pip, the python -m pre_commit of pre-commit's
//     hook), a virtual environment's activate script, and what it leaves
//     in the sandbox's private caches (Policy.Private), which later
//     confined builds of the same sandbox use as it left them.
//     Only the ReadOnly paths are kept from it. Protected paths below the
//     top of the sandbox are kept read-only when they exist; a new one
//     created below the top is not prevented.
//   - While the command runs, what it has made is in place: the user's own
//     programs that run in the project meanwhile (an editor's git
//     integration, which runs git status whenever files change; a shell
//     prompt showing the branch) obey it unconfined, a new repository the
//     command recorded as a submodule included (git status enters it and
//     runs its core.fsmonitor). A caller's AfterExit (the sandboxauth
//     package's quarantine) acts only once the command has ended. No
//     mount can stop it, since the command must be able to write the
//     index (git add) and make directories.
//   - Between a rename outside that detaches a mount inside the writable
//     places and the helper's kill (0.25 ms on an idle machine, a few
//     milliseconds when the command loads every CPU; none of its
//     processes is scheduled ahead of the helper, whose killing threads
//     take the kernel's shortest slice, but on a machine loaded by others
//     too, 128 busy processes of the command delayed the kill by up to
//     75 ms (600 ms and more with the default slice)), a command polling
//     for it can read or write the path: read the .env the user just
//     saved, append to .git/config. The kill stops it from going on; what
//     it wrote stays (sandboxauth's quarantine moves a git configuration
//     so changed aside). A hidden file reached under another name (a hard
//     link the user made to a file of a hidden directory, another mount of
//     the home, a copy not beside it, ~/backup/netrc) is not hidden under
//     that name, nor is what a link leads to from deeper in a hidden
//     directory than its links are followed (four levels, 512 entries a
//     directory, two links deep), or through a link inside a writable
//     place, which the command may change between runs.
//   - A file of the sandbox that is a hard link to a file outside (pnpm's
//     store links into node_modules, for example) is one file: writing it
//     writes the original. New hard links into the sandbox cannot be made
//     (link fails across mounts, and git clone --local falls back to
//     copying).
//   - UNIX sockets: Landlock before its pathname-socket right
//     (LANDLOCK_ACCESS_FS_RESOLVE_UNIX, added to Linux after 6.18) does not
//     cover connecting to a socket by its path, so, with or without
//     Network, the helper stands behind every connect
//     (connectguard_linux.go) and lets the command reach only sockets
//     beneath the writable places, and its own abstract ones; no AF_UNIX
//     datagram socket is made, since a datagram names its path on each
//     send (unixsockets_linux.go: logger to /dev/log, sd_notify and a
//     program talking to its children over a datagram pair fail); and
//     where Yama's ptrace_scope (2 or 3) keeps the helper from standing
//     behind connect, no AF_UNIX socket is made but connected pairs, with
//     Network too. Beneath the writable places, a socket must also be
//     one the sandbox made: the helper asks NETLINK_SOCK_DIAG, in its own
//     network namespace, for the listening socket bound to the file it
//     opened (device and inode), and with Network, where outside programs'
//     sockets are listed too, requires a process of the sandbox to hold
//     it (socketmakers_linux.go); a connect to any other socket file
//     there fails with ECONNREFUSED, as for a socket no one listens on
//     (a stale one of an earlier run, which programs then clean up), and
//     every UNIX connect on a kernel without UNIX sock_diag fails with
//     EACCES. So an outside
//     program's socket there, however it got there or is named (bound by
//     a relative name or renamed since, from another network or mount
//     namespace, hard-linked or renamed by the command), is out of reach,
//     and the masking of those present at the start is a second wall. The
//     processes of the command stay dumpable (prctl(PR_SET_DUMPABLE, 0)
//     returns 0 and does nothing) so that the helper can read their
//     descriptors; one that is not dumpable all the same (it runs a
//     program it may not read) cannot be reached by its socket with
//     Network, nor connect. The kernel names a socket's file by device
//     and inode number, which identify one file only on some file
//     systems: a socket is refused on any other (btrfs, whose subvolumes
//     number their inodes each from the start on one device; overlayfs;
//     network and FUSE file systems), and where the inode number exceeds
//     32 bits (which UNIX_DIAG_VFS cuts; XFS on large disks). ext2/3/4,
//     XFS, tmpfs, ramfs and F2FS are known. The helper looks the path
//     up: /proc/self and /proc/thread-self at its start, or through the
//     view's /dev/fd, /dev/stdin, /dev/stdout and /dev/stderr, name the
//     command's thread, but reached through a
//     symbolic link of the command's they name the helper, so such a
//     connect fails. The peer of a connection the helper made is the
//     helper (SO_PEERCRED gives its PID, 1): a server of the command's own
//     that checks its client's PID sees 1, not the client. With
//     Network, the connects to abstract names are made by one thread,
//     one at a time (one that blocks, on a server whose backlog is full,
//     holds the next), and from the domain the command started in: a
//     process of the command that scopes its abstract sockets in a
//     Landlock domain of its own still reaches the rest of the command's
//     through the helper. With Network, an abstract name the command binds
//     is the machine's: an outside program that connects to that name (a
//     service's well-known name while the service is not running, an X
//     display's when no X server is) reaches the command; Landlock scopes
//     connecting, not binding.
//   - With Network, free addresses of the machine: a loopback port no one
//     listens on (a service's port while it is stopped or restarting), or
//     the same port on the other loopback address (::1 while an outside
//     server listens on 127.0.0.1 only, or the other way round: a client
//     of "localhost" may try either first), or another address of
//     127.0.0.0/8, can be bound by the command, whose server then answers
//     outside clients that come to it, as an abstract name can. An address
//     an outside server holds cannot be shared (no SO_REUSEPORT, no
//     SO_REUSEADDR on a datagram socket; on a stream socket SO_REUSEADDR
//     shares no listening address). A program of the command's own that
//     shares a UDP address (a multicast listener, Go's
//     ListenMulticastUDP, mDNS, which set SO_REUSEADDR or SO_REUSEPORT on
//     datagram sockets) fails with EPERM with Network. Where the helper
//     cannot stand behind the command's calls (Yama's ptrace_scope 2 or
//     3), SO_REUSEADDR returns 0 with Network and is not set, so that
//     servers start: a TCP server restarted on a port whose connections
//     wait out TIME_WAIT fails with EADDRINUSE there.
//   - Netlink, with the protocols the command may use (ROUTE, SOCK_DIAG,
//     GENERIC, KOBJECT_UEVENT): the kernel lets a process without
//     CAP_NET_ADMIN over the network namespace send to no port but the
//     kernel's and to no multicast group, so neither the command nor an
//     unprivileged outside program reaches the other's port; with Network
//     the command reads what the kernel tells every process of the
//     machine (interfaces, routes, sockets as ss(8) lists them, device
//     events) and what a privileged outside program (udevd's monitor
//     messages) multicasts to anyone who listens.
//   - The user's terminal while the command runs: its settings (stty) are
//     put back when the sandbox ends, not before, and input typed ahead
//     that the command discarded (TCFLSH) is lost. A stopped
//     `sandboxauth run` (Ctrl-Z) does not stop the sandbox, which runs in
//     a session of its own.
//   - File metadata (mode, times, extended attributes) of the command's
//     standard streams when they are files or terminals of the caller
//     (chmod /proc/self/fd/0), and of files on a file system mounted on
//     the machine after the command started: Landlock has no rights for
//     metadata, and those lie outside the read-only view. As root, also the
//     modes and times of the machine's null, zero, full, random, urandom
//     and tty device nodes, which the command's /dev binds writable (their
//     owner is root): changes are put back when the sandbox ends, so they
//     last at most as long as the command (devices_linux.go).
//   - What the caller's host does after a killed run: Policy.AfterExit
//     runs only when the calling process lives to see the end.
//   - Credentials written into git's configuration: a CI checkout's token
//     in the repository's .git/config (http.<url>.extraheader), a token in
//     a url.<https://TOKEN@host/>.insteadOf rewrite of ~/.gitconfig. git
//     needs both files, so they stay readable (the repository's
//     read-only); without Network the command cannot send what it reads.
//   - What git has recorded: a tracked .env can be read from .git/objects
//     (git show HEAD:.env), and the command can commit files that the work
//     tree keeps read-only onto a branch the user later checks out.
//   - Locks the command takes on files outside it may read (flock,
//     fcntl's record locks): outside programs that lock the same file
//     (flock(1), a package manager's lock) wait or fail until the command
//     lets go or ends. Locks need no write access, and neither the view
//     nor Landlock covers them.
//   - The user's inotify instances and fanotify groups: the kernel
//     counts them per user across user namespaces, so a command that
//     makes them all leaves none to the user's file watchers while it
//     runs.
//   - A background job of the user's shell that writes to the terminal
//     the command was given, while the command has set TOSTOP (stty
//     tostop), is stopped by SIGTTOU and stays stopped after the run,
//     though the setting is put back: the user resumes it (bg).
//   - Resource use (CPU, memory, disk, time), and secrets in the
//     environment under names HiddenEnv does not list: the command gets
//     cmd.Env (the caller's environment when nil) less HiddenEnv, and
//     less the user and password of the URLs in the variables
//     HiddenEnvUserinfo lists (a proxy stays usable, unless it wants a
//     password).
//
// # Limits of the API
//
// After Start, cmd.Path and cmd.Args name bubblewrap and its arguments;
// cmd.Process is bubblewrap's, which exits with the command's status
// (128+N when signal N ended it) once the whole sandbox has ended and
// Policy.AfterExit has run. A signal sent to it ends the whole sandbox at
// once, and cmd.Wait then returns without waiting for AfterExit (see
// Start). cmd.SysProcAttr may not set namespaces, credentials, a chroot,
// a controlling terminal or a parent-death signal. A TMPDIR in the
// command's environment that names a directory it cannot write is replaced
// by /tmp (its own).
package confine
