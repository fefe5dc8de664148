// Package pathres resolves absolute paths to real paths the way the kernel
// does, and decides whether a path lies inside a sandbox directory.
//
// Containment must be decided on real paths: a lexical test on
// "/sb/link/secret" says nothing when link points to /etc. This package
// follows symbolic links component by component with Lstat and Readlink,
// like path resolution in the Linux and macOS kernels, but unlike
// [path/filepath.EvalSymlinks] it does not require the path to exist: a tool
// that writes creates its target, so the target's real location is what
// matters. On Linux it first asks the kernel, which answers the common
// cases in one or two system calls (see "Fast path").
//
// # Input
//
// Every path must be non-empty, absolute (begin with "/") and free of NUL
// bytes; otherwise the functions return an error wrapping [ErrEmpty],
// [ErrNotAbsolute] or [ErrNUL]. Such errors are not denials and must never be
// read as "inside". Paths need not be clean: repeated slashes, trailing
// slashes and "." components are ignored.
//
// # Resolution rules
//
// [Resolve] walks the components of p from "/" and keeps a result path:
//
//   - "." is skipped. ".." replaces the result by its parent; the parent of
//     "/" is "/". Because the result never contains a symlink, ".." after a
//     symlink goes to the parent of the symlink's target, as in the kernel
//     (filepath.Clean would instead drop the symlink's name).
//   - Any other component is appended and looked up with Lstat. A symlink is
//     replaced by its target: an absolute target restarts at "/", a relative
//     one is relative to the symlink's directory, and the target's
//     components are walked before the rest of p, following further
//     symlinks recursively.
//   - A dangling symlink is followed too: its target is resolved further
//     although it is missing, because writing through a dangling symlink
//     creates its target.
//   - A component that does not exist, or whose parent exists but is not a
//     directory (e.g. /sb/file.txt/x), is kept literally, and so is every
//     component after it: nothing beneath it is looked up. A later ".." pops
//     a literal component; once all of them are popped, the result is again
//     an existing directory and lookups resume, so "/sb/missing/../link/x"
//     follows link. "/sb/missing/../../etc/x" resolves to "/etc/x".
//   - A symlink whose target is empty (which the kernel refuses with ENOENT)
//     is treated like a missing component.
//   - A symlink inside /proc (/proc/self, /proc/thread-self, /proc/PID/cwd,
//     /proc/PID/fd/N, /proc/mounts, ...) is not followed: it names what the
//     resolving process sees, and the process that uses the path (a shell
//     command, another program's tool) sees its own working directory,
//     root and descriptors. Resolution returns an error wrapping
//     [ErrProcLink], so such a path is never inside a sandbox. A path in
//     /proc without symlinks resolves as any other.
//   - Following more than [MaxLinks] (40) symlinks in one resolution returns
//     an error wrapping [ErrLoop]; a symlink loop is therefore an answer,
//     never a hang.
//   - Lstat and Readlink errors other than "does not exist" and "not a
//     directory", such as EACCES on a directory that cannot be searched, are
//     returned wrapped; they never produce a path.
//
// The result is clean and absolute and, for every path that exists, equals
// what filepath.EvalSymlinks returns. Where the kernel would fail to open
// the path (a non-directory followed by more components, a missing parent),
// Resolve still answers with the location that a lexical reading of the
// remaining components names beneath the last real directory, so that the
// answer is never "no opinion".
//
// Resolution reads the file system at the time of the call. If the tree
// changes between the check and the tool's use of the path (a
// time-of-check/time-of-use race), the answer may no longer hold; only
// opening files relative to a sandbox directory descriptor (openat2 with
// RESOLVE_BENEATH, or os.Root) closes that race.
//
// Only the spelling of the path is examined, not the identity of files: on a
// case-insensitive file system (macOS by default) "/x/SB/a" resolves to
// "/x/SB/a", which is not within "/x/sb" (a false "outside", never a false
// "inside"), and a hard link inside the sandbox to a file outside it is
// inside.
//
// # Containment
//
// [Within] is the lexical test "p is root or beneath it" on component
// boundaries ("/x/sb-evil" is not within "/x/sb"; "/" contains everything),
// valid only on resolved paths. [Contains] resolves both the sandbox root
// and the path and applies Within; because tools may clean a path lexically
// before using it, a path with ".." components is inside only if both its
// kernel resolution and the resolution of filepath.Clean(p) are inside.
//
// # Fast path
//
// A system call costs about a microsecond, and the user-space resolver makes
// one Lstat per component. On Linux 5.6 or later, [Resolve], [Contains],
// [NewRoot] and [Root.Contains] therefore first let the kernel resolve the
// path with openat2(2) and O_PATH (which opens no file, needs no read
// permission and does not open devices or FIFOs), and use the user-space
// resolver only where the kernel's answer does not prove the user-space
// one. The kernel answers in three ways:
//
//   - Without symlinks (RESOLVE_NO_SYMLINKS): if the open succeeds, every
//     component exists and none is a symlink, so the real path is
//     filepath.Clean(p) (".." then goes to the lexical parent, as in
//     Clean). One openat2 and one close; no allocation for a clean path.
//     The same open proves the resolution of a sandbox root that is a
//     lexical prefix of p, so Contains costs one open in all, and it proves
//     that filepath.Clean(p) resolves to the same path, so a path with ".."
//     is resolved once.
//   - A missing tail: if that open fails with ENOENT (a missing component
//     met before any symlink), p has no ".." component and its lexical
//     parent opens as a directory without symlinks, the last component does
//     not exist and the real path is filepath.Clean(p): a file to be created
//     in an existing directory.
//   - Following symlinks: if the first open failed with ELOOP (a symlink),
//     p is opened following symlinks but refusing magic links
//     (RESOLVE_NO_MAGICLINKS), and the path of the opened file is read from
//     /proc/self/fd/N, which is the kernel's own name for it (d_path).
//
// Everything else is left to the user-space resolver, which thus decides
// every error and every answer that the kernel cannot give: a missing path
// other than the tail above (including anything after a missing component,
// a dangling symlink, and ".." after a missing component), a loop or more
// than [MaxLinks] links (ELOOP), a non-directory followed by a component or
// a slash (ENOTDIR), EACCES and any other failure, paths of PATH_MAX (4096)
// bytes or more, magic links (/proc/self/cwd, /proc/self/fd/N, ...), whose
// readlink text need not name the file the kernel reaches, a /proc/self/fd
// that is not procfs, a kernel name that is not a clean absolute path or
// that ends in " (deleted)" (a file removed meanwhile, or so named), and
// systems without openat2 (other kernels, Linux before 5.6, a seccomp filter
// refusing it: after ENOSYS or EPERM it is not tried again).
//
// The kernel's answer is the user-space answer: both walk the same tree
// with the same rules, and without magic links the kernel never leaves the
// process's root, so the name it gives is reachable and is the path the
// user-space resolver builds. The fast path therefore only makes answers
// faster; the tests compare both on random trees with symlinks of every
// kind. Two limits remain, as for the user-space resolver: a tree that
// changes during the resolution (the kernel's answer is then that of one
// moment, the user-space answer possibly a mix), and directories with
// case-insensitive lookup (ext4 casefold), where a name read from
// /proc/self/fd is spelled as the kernel caches it while the user-space
// resolver keeps the spelling given: the answers may then differ, but both
// name the real file, so neither calls inside a file that is outside.
//
// # Performance
//
// In user space, a clean path without symlinks is resolved with one Lstat
// per component and one allocation per Lstat; Contains looks up the
// components that the sandbox root and the path share only once. On Linux,
// an existing path without symlinks costs one openat2 and one close
// (about 4 µs where a system call costs 1 µs, against 20 µs for nine
// Lstats), a path with symlinks three system calls more.
package pathres
