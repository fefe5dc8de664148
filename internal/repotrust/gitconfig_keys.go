package repotrust

// The allow-list of repository configuration keys. Every key here is data
// that no git command turns into a program to run, a host to contact or a
// file to read outside the repository: the layout facts `git init` and
// `git clone` write, the names of remotes and branches, the identity of
// the author. Anything else (core.fsmonitor, core.pager, diff.external,
// man.viewer, browser.<tool>.cmd, blame.ignoreRevsFile,
// extensions.partialClone, remote.<name>.promisor, core.hooksPath,
// filter drivers, aliases, ...) makes the repository's git commands not
// safe: git has hundreds of keys and grows new ones each release, so a
// deny-list would always be one release behind.

// harmlessKey reports whether a setting is on the allow-list. Section and
// key are lower-case; a subsection is any name.
func harmlessKey(s Setting) bool {
	switch s.Section {
	case "core":
		if s.Subsection != "" {
			return false
		}
		switch s.Key {
		case "repositoryformatversion", // the layout version
			"filemode",          // whether the executable bit is tracked
			"bare",              // whether there is a work tree
			"logallrefupdates",  // whether reflogs are kept (inside the repository)
			"ignorecase",        // how names compare
			"precomposeunicode", // how names are normalised (macOS)
			"symlinks",          // whether symbolic links are checked out as links
			"autocrlf", "eol":   // git's own line-ending conversion
			return true
		}
	case "extensions":
		// worktreeConfig only makes git read config.worktree, which is
		// read here too; objectFormat and refStorage choose formats.
		// partialClone (a promisor remote that git fetches from during
		// reads) is not here.
		return s.Subsection == "" && (s.Key == "worktreeconfig" || s.Key == "objectformat" || s.Key == "refstorage")
	case "remote":
		// url and fetch are used only by commands that talk to a remote,
		// which are not safe anyway. promisor, partialclonefilter,
		// uploadpack, receivepack, proxy are not here.
		return s.Subsection != "" && (s.Key == "url" || s.Key == "fetch" || s.Key == "pushurl" || s.Key == "tagopt" || s.Key == "prune")
	case "branch":
		// vscode-merge-base is what an editor records; rebase is read by
		// git pull only.
		return s.Subsection != "" && (s.Key == "remote" || s.Key == "merge" || s.Key == "rebase" || s.Key == "vscode-merge-base")
	case "user":
		return s.Subsection == "" && (s.Key == "name" || s.Key == "email")
	case "submodule":
		// What `git submodule init` writes; submodule.<name>.update may
		// name a command and is not here.
		return s.Subsection != "" && (s.Key == "url" || s.Key == "active")
	case "lfs":
		// access is the authentication scheme git-lfs remembers for a
		// server, used only when it transfers objects.
		return s.Subsection == "" && s.Key == "repositoryformatversion" || s.Subsection != "" && s.Key == "access"
	case "filter":
		// `git lfs install --local` writes these; git runs filter
		// commands through a shell, so only these exact values pass.
		if s.Subsection != "lfs" {
			return false
		}
		switch s.Key {
		case "clean":
			return s.Value == "git-lfs clean -- %f"
		case "smudge":
			return s.Value == "git-lfs smudge -- %f" || s.Value == "git-lfs smudge --skip -- %f"
		case "process":
			return s.Value == "git-lfs filter-process" || s.Value == "git-lfs filter-process --skip"
		case "required":
			return true
		}
	}
	return false
}

// isInclude reports whether a setting includes another file: include.path
// and includeIf.<condition>.path. Conditions are taken as true, the worse
// case, so the file is always read.
func isInclude(s Setting) bool {
	return s.Key == "path" && (s.Section == "include" && s.Subsection == "" || s.Section == "includeif" && s.Subsection != "")
}
