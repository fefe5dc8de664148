package confine

import (
	"maps"
	"os"
	"slices"
	"strings"
)

// bwrapArgs is the whole sandbox in one place: the bubblewrap arguments
// that build the view v for a command, in the order they take effect
// (a later mount covers an earlier one). argv is the command as it is to
// be executed (the helper starts it); helper is the helper's spec; keep
// is the number of the caller's descriptors (standard streams and
// ExtraFiles), which the control descriptors follow (see control); src
// holds the descriptors of the binds' sources (see openSources), so that
// what is mounted is what was checked, whatever is renamed meanwhile.
func bwrapArgs(v *view, network bool, keep int, src *sources, helper string, argv []string) []string {
	a := namespaceArgs(network)

	// 1. The system, read-only: all of it, or (with Readable) nothing yet.
	if v.readable == nil {
		a = append(a, "--ro-bind", "/", "/")
	}
	// 2. Devices, processes, and places of its own: a /dev with only the
	// harmless devices and a terminal multiplexer of its own, a /proc of
	// its process namespace, and empty /tmp, /var/tmp, /run, /dev/shm.
	a = append(a, "--dev", "/dev", "--proc", "/proc")
	// The kernel's settings and its magic keys stay read-only, for root
	// too: bubblewrap covers /proc/sys only when it looks writable to the
	// user, and root's writes there (core_pattern) would run programs on
	// the machine.
	a = append(a, "--ro-bind", "/proc/sys", "/proc/sys", "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger")
	for _, d := range privateDirs {
		if d == "/dev/shm" {
			continue // --dev made it
		}
		if _, err := os.Stat(d); err == nil || v.readable != nil {
			a = append(a, "--tmpfs", d)
		}
	}
	// With Readable, only what it names and the system directories, now
	// that /tmp is there to hold an entry beneath it.
	for _, r := range v.readable {
		a = append(a, "--ro-bind", r, r)
	}
	for _, l := range v.links {
		a = append(a, "--symlink", l.Src, l.Dst)
	}
	// 3. The writable places, outermost first (a Writable entry may lie in
	// /tmp, which step 2 emptied), and the program if it would be out of
	// sight.
	w := slices.Clone(v.writable)
	slices.SortStableFunc(w, func(x, y bind) int { return strings.Count(x.Dst, "/") - strings.Count(y.Dst, "/") })
	for _, b := range w {
		a = append(a, "--bind-fd", src.fd(b.Src), b.Dst)
	}
	if v.program != "" {
		a = append(a, "--ro-bind-fd", src.fd(v.program), v.program)
	}
	// 4. Inside the writable places: directories pinned so that they
	// cannot be renamed or replaced, then the read-only paths.
	for _, p := range v.pins {
		// A pin that is read-only too is bound once, read-only, below:
		// the two binds would share one descriptor, which bubblewrap
		// closes after the first.
		if slices.Contains(v.readOnly, p) {
			continue
		}
		a = append(a, "--bind-fd", src.fd(p), p)
	}
	for _, r := range v.readOnly {
		if _, ok := v.shown[r]; ok {
			// A file shown with other content (Policy.Shown).
			a = append(a, "--ro-bind-data", src.fd(dataKey(r)), r)
			continue
		}
		a = append(a, "--ro-bind-fd", src.fd(r), r)
	}
	// Files shown with other content outside the writable places (a
	// linked worktree's git exclude, in its repository's common
	// directory), in a stable order.
	for _, r := range slices.Sorted(maps.Keys(v.shown)) {
		if !slices.Contains(v.readOnly, r) && !slices.Contains(v.hiddenFile, r) {
			a = append(a, "--ro-bind-data", src.fd(dataKey(r)), r)
		}
	}
	// 5. What it may not read: hidden paths (but those the user cannot
	// open anyway, which a mount would not change) and the sockets of
	// outside programs.
	for _, h := range v.hiddenDirs {
		if !slices.Contains(v.closed, h) {
			a = append(a, "--tmpfs", h, "--remount-ro", h)
		}
	}
	// A hidden file outside the writable places reads as an empty one (a
	// program that reads it as settings, ~/.npmrc, takes it for none);
	// one inside them, and a socket, is a device that cannot be opened,
	// which git refuses to stage (an empty file, it would commit it).
	for _, f := range v.hiddenFile {
		switch {
		case slices.Contains(v.closed, f):
		case v.hiddenEmpty(f):
			a = append(a, "--ro-bind-data", src.fd(dataKey(f)), f)
		default:
			a = append(a, "--ro-bind", "/dev/null", f)
		}
	}
	for _, f := range v.sockets {
		a = append(a, "--ro-bind", "/dev/null", f)
	}
	// 6. The helper (this program, bound where /run, the command's own,
	// can hold it), the sandbox's first process: it puts the command in a
	// Landlock domain that lets it write only beneath the writable places,
	// starts it, and waits for the whole sandbox; bubblewrap reports its
	// PID, and holds the lifeline (its status descriptor, which it keeps
	// open while it lives) whose end tells the helper it is gone. Then
	// where it starts, the system-call filter, the command.
	a = append(a, "--ro-bind-fd", src.fd(helperPath), helperPath, "--setenv", helperEnv, helper)
	a = append(a, "--as-pid-1", "--info-fd", infoFD(keep), "--json-status-fd", lifelineFD(keep))
	a = append(a, "--chdir", v.chdir, "--seccomp", filterFD(keep), "--", helperPath)
	return append(a, argv...)
}
