package repotrust

// Decide says whether the git command described by c is safe in the
// repository these facts describe. accept, when not nil, may pass a
// configuration problem after all (a core.hooksPath in a directory the
// model cannot write); when it passes core.hooksPath the hooks there are
// the caller's, and the repository's own hooks directory is not used.
// subject is the key, hook or path to blame ("core.fsmonitor",
// "hook post-index-change"); reason names the file too, and why.
func (f *Facts) Decide(c Command, accept func(p Problem) bool) (ok bool, subject, reason string) {
	j := f.Judge(c, accept, nil)
	return j.OK, j.Subject, j.Reason
}

// Judgement is what Judge says of a git command in a repository.
type Judgement struct {
	// OK is set when nothing but the hooks in Hook makes the command
	// unsafe.
	OK bool
	// Subject is the key, hook or path to blame ("core.fsmonitor", "hook
	// post-index-change"), and Reason says why, naming the file, when
	// the command is not OK.
	Subject, Reason string
	// Hook is the first hook the command runs that the caller's own
	// passed (a hook in the project, which runs as the project's code);
	// nil when it runs none.
	Hook *Hook
}

// Judge is Decide with one more say for the caller: own, when not nil,
// passes a present hook that the command runs as the caller's to answer
// (a hook inside the sandbox: the project's code), reported in
// Judgement.Hook instead of making the command not OK. Every problem of
// the configuration and layout, and every hook own does not pass, is
// judged first and still makes the command not OK.
func (f *Facts) Judge(c Command, accept func(p Problem) bool, own func(h Hook) bool) Judgement {
	if !f.Found {
		return Judgement{OK: true}
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
			return Judgement{Subject: p.Setting, Reason: "the repository's configuration sets " + p.Setting + " (" + p.Where + "), which " + p.Why +
				": git may run a program, contact a host or read outside the sandbox"}
		}
		return Judgement{Subject: p.Where, Reason: "the repository is not understood: " + p.Where + ": " + p.Why}
	}
	var ownHook *Hook
	if !hooksPathAccepted {
		for _, h := range f.Hooks {
			if !c.runs(h.Name) {
				continue
			}
			if own != nil && own(h) {
				if ownHook == nil {
					ownHook = &h
				}
				continue
			}
			runs := "runs"
			if c.AnyHook {
				// Not known to run only some hooks: it may run this one.
				runs = "is not known to leave any hook alone, so it may run"
			}
			return Judgement{Subject: "hook " + h.Name, Reason: "git " + c.Name + " " + runs + " the " + h.Name + " hook (" + h.Path + "), a program in the repository"}
		}
	}
	if c.Writes && f.Outside != "" {
		return Judgement{Subject: "store outside the sandbox", Reason: "git " + c.Name + " writes refs, the index or objects of a repository outside the sandbox (" + f.Outside + ")"}
	}
	return Judgement{OK: true, Hook: ownHook}
}
