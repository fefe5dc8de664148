package pathres

// proof says how [kernelResolve] established its answer, and therefore what
// else the answer proves.
type proof uint8

const (
	// notProven: the kernel gave no answer that is certainly the
	// user-space resolver's; resolve in user space.
	notProven proof = iota
	// proofClean: every component of p exists and none is a symlink (the
	// kernel walked p refusing all symlinks). The real path is
	// filepath.Clean(p), which itself resolves to filepath.Clean(p); so
	// does every path of which p is a lexical extension.
	proofClean
	// proofCleanMissing: p has no ".." component, a prefix of p exists
	// without symlinks and the component after it does not exist. The real
	// path is filepath.Clean(p).
	proofCleanMissing
	// proofFollowed: p exists; the kernel followed its symlinks (no magic
	// links) and named the file it reached.
	proofFollowed
)

// tiers selects which kernel resolutions [kernelResolve] may try.
type tiers uint8

const (
	// tryClean: open p refusing every symlink (openat2 with
	// RESOLVE_NO_SYMLINKS); on success the answer is filepath.Clean(p).
	tryClean tiers = 1 << iota
	// tryMissing: when that open fails with ENOENT and p has no ".."
	// component, open up to maxMissingUp lexical parents of p the same way
	// to prove that only a tail of p is missing.
	tryMissing
	// tryFollow: when p has a symlink, open p following symlinks but no
	// magic links (RESOLVE_NO_MAGICLINKS) and read the path of what was
	// opened from /proc/self/fd.
	tryFollow

	tryAll = tryClean | tryMissing | tryFollow
)

// maxMissingUp is how many lexical parents of a missing path tryMissing
// opens before giving up: each costs a system call, while the user-space
// resolver stops looking up at the first missing component.
const maxMissingUp = 1

// lexicallyBeneath reports whether p begins with root followed by a
// component boundary, so that resolving p walks root's components first
// and the state after them is root's resolution.
func lexicallyBeneath(root, p string) bool {
	n := len(root)
	return n > 0 && len(p) >= n && p[:n] == root && (len(p) == n || p[n] == '/' || root[n-1] == '/')
}

// cleanState returns the state that resolver.run reaches on root when every
// component of root exists and none is a symlink, clean being
// filepath.Clean(root): the result so far is clean, all of it real, no link
// followed. Like run's own state, cur ends with a separator when root does,
// so that resolveUnder can append the rest of a path beneath root.
func cleanState(root, clean string) resolver {
	cur, end := clean, len(clean)
	if clean == "/" {
		end = 0
	} else if root[len(root)-1] == '/' {
		cur += "/"
	}
	return resolver{cur: cur, pos: len(cur), outEnd: end, realEnd: end, maxLinks: MaxLinks}
}

// lexicalParent returns p without its trailing slashes and its last
// component, "/" for a path directly beneath "/" (p is absolute).
func lexicalParent(p string) string {
	i := len(p)
	for i > 1 && p[i-1] == '/' {
		i--
	}
	for i > 0 && p[i-1] != '/' {
		i--
	}
	for i > 1 && p[i-1] == '/' {
		i--
	}
	if i <= 1 {
		return "/"
	}
	return p[:i]
}

// isClean reports whether b is an absolute path that filepath.Clean leaves
// unchanged: it begins with "/", and has no empty, "." or ".." component
// and no trailing slash (except "/" itself).
func isClean[S ~string | ~[]byte](b S) bool {
	if len(b) == 0 || b[0] != '/' {
		return false
	}
	if len(b) == 1 {
		return true
	}
	start := 1
	for i := 1; i <= len(b); i++ {
		if i < len(b) && b[i] != '/' {
			continue
		}
		switch string(b[start:i]) {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

// inProc reports whether the clean absolute path b is /proc or lies
// beneath it.
func inProc(b []byte) bool {
	return len(b) >= 5 && string(b[:5]) == "/proc" && (len(b) == 5 || b[5] == '/')
}

// deletedSuffix is what the kernel appends to the path of a file that has
// been removed (d_path); a file may also be named so.
const deletedSuffix = " (deleted)"

func hasDeletedSuffix(b []byte) bool {
	return len(b) >= len(deletedSuffix) && string(b[len(b)-len(deletedSuffix):]) == deletedSuffix
}
