// Package pathres resolves absolute paths to real paths the way the kernel
// does, and decides whether a path lies inside a sandbox directory.
//
// Containment must be decided on real paths: a lexical test on
// "/sb/link/secret" says nothing when link points to /etc. This package
// follows symbolic links component by component with Lstat and Readlink,
// like path resolution in the Linux and macOS kernels, but unlike
// [path/filepath.EvalSymlinks] it does not require the path to exist: a tool
// that writes creates its target, so the target's real location is what
// matters.
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
// # Performance
//
// A clean path without symlinks is resolved with one Lstat per component
// and no allocation besides those of os.Lstat; Contains looks up the
// components that the sandbox root and the path share only once.
package pathres
