package repotrust

// Decide says whether the git command described by c is safe in the
// repository these facts describe. accept, when not nil, may pass a
// configuration problem after all (a core.hooksPath in a directory the
// model cannot write); when it passes core.hooksPath the hooks there are
// the caller's, and the repository's own hooks directory is not used.
// subject is the key, hook or path to blame ("core.fsmonitor",
// "hook post-index-change"); reason names the file too, and why.
func (f *Facts) Decide(c Command, accept func(p Problem) bool) (ok bool, subject, reason string) {
	if !f.Found {
		return true, "", ""
	}
	hooksPathAccepted := false
	for _, p := range f.Problems {
		if accept != nil && p.Setting != "" && accept(p) {
			if p.Setting == "core.hookspath" {
				hooksPathAccepted = true
			}
			continue
		}
		if p.Setting != "" {
			return false, p.Setting, "the repository's configuration sets " + p.Setting + " (" + p.Where + "), which " + p.Why +
				": git may run a program, contact a host or read outside the sandbox"
		}
		return false, p.Where, "the repository is not understood: " + p.Where + ": " + p.Why
	}
	if !hooksPathAccepted {
		for _, h := range f.Hooks {
			if c.runs(h.Name) {
				return false, "hook " + h.Name, "git " + c.Name + " runs the " + h.Name + " hook (" + h.Path + "), a program in the repository"
			}
		}
	}
	if c.Writes && f.Outside != "" {
		return false, "store outside the sandbox", "git " + c.Name + " writes refs, the index or objects of a repository outside the sandbox (" + f.Outside + ")"
	}
	return true, "", ""
}
