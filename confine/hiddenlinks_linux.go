package confine

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// A hidden directory is shown empty, but its entries may be symbolic
// links to where the credential really is (~/.kube/config ->
// ~/clusters/prod.yaml, ~/.aws/credentials -> a dotfiles copy,
// ~/.ssh/id_ed25519 -> a key kept elsewhere): the command would read it
// under its real name. So the links inside the hidden directories that
// exist are followed, and what they lead to is hidden too (and, when it is
// a directory, the links inside it, hiddenLinkHops times).
//
// The reading is bounded: hiddenLinkDepth levels and hiddenLinkEntries
// entries a directory (a browser profile holds thousands), the caches
// homeLinkSkip names passed over. What a link leads to is passed over
// when the command does not see it anyway (beneath another hidden path;
// in /tmp, /run and the other places of its own, /dev, /proc, /sys) or
// when every user of the machine reads it from the system's package trees
// (/usr, /nix/store, /gnu/store: a plugin ~/.docker/cli-plugins links
// to). A link leading to the root, to a home or to a directory holding
// the sandbox cannot be followed without hiding the sandbox or the home:
// the policy is refused (fail closed). One leading into a writable place
// is hidden there (a file shows as a device, a directory empty; the
// sandbox's own read-protected files are hidden so too); Writable and
// Private entries that would overlap one are refused, as for any hidden
// path.
const (
	hiddenLinkDepth   = 4
	hiddenLinkEntries = 512
	hiddenLinkHops    = 2
)

// hiddenLink is a symbolic link found inside a hidden directory and the
// real path it leads to (which may be missing).
type hiddenLink struct{ link, target string }

// linksInside returns the symbolic links inside dir, breadth first,
// hiddenLinkDepth levels down and at most hiddenLinkEntries entries, with
// what each leads to. A link that cannot be resolved (a loop) is passed
// over: the command cannot follow it either.
func linksInside(dir string) []hiddenLink {
	var out []hiddenLink
	enter := func(_, name string, depth int) bool {
		return depth < hiddenLinkDepth && !homeLinkSkip()[name]
	}
	linkWalk(dir, hiddenLinkEntries, enter, func(path, target string) {
		out = append(out, hiddenLink{path, target})
	})
	return out
}

// hideLinkTargets hides what the links inside v's hidden directories lead
// to (see linksInside), and returns an error wrapping ErrUnsafePolicy for
// a link that leads to the root, a home or a directory holding the
// sandbox.
// writable are the policy's Writable and Private entries, as given.
func (v *view) hideLinkTargets(sandbox string, homes, writable []string) error {
	scan := slices.Clone(v.hiddenDirs)
	for hop := 0; hop < hiddenLinkHops && len(scan) > 0; hop++ {
		var next []string
		for _, dir := range scan {
			for _, l := range linksInside(dir) {
				added, err := v.hideLinkTarget(l, sandbox, homes, writable)
				if err != nil {
					return err
				}
				if added != "" {
					next = append(next, added)
				}
			}
		}
		scan = next
	}
	return nil
}

// hideLinkTarget hides l's target unless it is out of the command's sight
// already or public; it returns the target when it is a directory newly
// hidden (whose links are to be followed in turn).
func (v *view) hideLinkTarget(l hiddenLink, sandbox string, homes, writable []string) (string, error) {
	t := l.target
	if v.hiddenAlready(t) || (ownPlace(t) && !inWritable(t, sandbox, writable)) {
		return "", nil
	}
	for _, holder := range append([]string{"/", sandbox}, homes...) {
		if pathres.Within(t, holder) {
			return "", fmt.Errorf("confine: the hidden %s is a symbolic link to %s, which holds %s: the command would read what the link leads to, and hiding it would hide %s too; move the credential into a directory of its own, or remove the link: %w", l.link, t, holder, holder, ErrUnsafePolicy)
		}
	}
	fi, err := os.Lstat(t)
	if err != nil {
		// A missing target (a dangling link) is kept from being read
		// when it is made while the command runs (see readRulesFor).
		v.hiddenMissing = append(v.hiddenMissing, t)
		v.noteHiddenVia(t, l.link)
		return "", nil
	}
	if publicPackageTree(t, fi) {
		return "", nil
	}
	if closedToUser(t, fi) {
		v.closed = append(v.closed, t)
	}
	v.noteHiddenVia(t, l.link)
	if fi.IsDir() {
		v.hiddenDirs = append(v.hiddenDirs, t)
		return t, nil
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 && fi.Mode().IsRegular() {
		return "", fmt.Errorf("confine: the hidden %s is a symbolic link to %s, which has %d names (hard links): the command could read it under another; remove the other links (find -samefile): %w", l.link, t, st.Nlink, ErrUnsafePolicy)
	}
	v.hiddenFile = append(v.hiddenFile, t)
	return "", nil
}

// ownPlace reports whether the real path p lies where the command sees
// places of its own instead of the machine's: /tmp, /var/tmp, /run,
// /dev/shm, /dev, /proc and /sys.
func ownPlace(p string) bool {
	for _, d := range append(privateDirs[:], "/dev", "/proc", "/sys") {
		if pathres.Within(d, p) {
			return true
		}
	}
	return false
}

// inWritable reports whether the real path p lies in the sandbox or in one
// of the writable entries (resolved here: they may lie in /tmp, which the
// writable places cover in the command's view).
func inWritable(p, sandbox string, writable []string) bool {
	if pathres.Within(sandbox, p) {
		return true
	}
	for _, w := range writable {
		if real, err := pathres.Resolve(filepath.Clean(w)); err == nil && pathres.Within(real, p) {
			return true
		}
	}
	return false
}

// hiddenAlready reports whether the real path p is hidden already: a
// hidden file, beneath a hidden directory, or a missing hidden path.
func (v *view) hiddenAlready(p string) bool {
	return slices.Contains(v.hiddenFile, p) || slices.Contains(v.hiddenMissing, p) ||
		slices.ContainsFunc(v.hiddenDirs, func(d string) bool { return pathres.Within(d, p) })
}

// noteHiddenVia records that p is hidden as the target of link, for the
// messages that name it.
func (v *view) noteHiddenVia(p, link string) {
	if v.hiddenVia == nil {
		v.hiddenVia = map[string]string{}
	}
	v.hiddenVia[p] = link
}

// publicPackageTree reports whether p lies in one of the system's package
// trees and every user may read it (the others' read bit): a program or a
// setting a package installed, no secret of the user's.
func publicPackageTree(p string, fi fs.FileInfo) bool {
	in := slices.ContainsFunc([]string{"/usr", "/nix/store", "/gnu/store"}, func(d string) bool { return pathres.Within(d, p) })
	return in && fi.Mode().Perm()&0o004 != 0
}
