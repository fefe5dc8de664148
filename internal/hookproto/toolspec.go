package hookproto

import (
	"path/filepath"
	"strings"
)

// toolSpec says where a tool's input holds what the authorizer needs.
type toolSpec struct {
	kind Kind
	// shell: the key of the command (required) and of an optional working
	// directory, relative to the event's cwd.
	command, cwdKey string
	// shell: the agent runs a command given back in place of the call's
	// own (see Request.CanRewrite).
	rewrite bool
	// read, write, edit: the keys that may name the path. Every one
	// present is checked, since which of them the agent's tool reads is
	// its own business (a decoy path in another key must not hide the
	// real one); one is required unless dirs is set.
	path []string
	// search (and directory listings): the keys of the directory
	// searched, each one present checked (as for path), the event's cwd
	// when none is.
	dirs []string
	// search: the tool reads the contents of the files it finds (grep,
	// read_many_files), not only their names (glob).
	contents bool
	// search: keys of glob patterns relative to that directory, and of
	// lists of them.
	globs     []string
	globLists []string
}

// apply fills req from the tool input in according to s. req.Cwd must be
// set.
func (s toolSpec) apply(req *Request, in fields) error {
	req.Kind = s.kind
	switch s.kind {
	case KindShell:
		if s.rewrite {
			req.CanRewrite, req.input = true, in.m
		}
		cmd, err := in.str(s.command)
		if err != nil {
			return err
		}
		if strings.TrimSpace(cmd) == "" {
			return malformed("%s.%s is empty", in.where, s.command)
		}
		req.Command = cmd
		if s.cwdKey != "" {
			dir, ok, err := in.optStr(s.cwdKey)
			if err != nil {
				return err
			}
			if ok && dir != "" {
				if req.Cwd, err = resolve(in.where+"."+s.cwdKey, req.Cwd, dir); err != nil {
					return err
				}
			}
		}
		return nil
	case KindOther:
		return nil
	}
	named := len(req.Paths)
	for _, key := range s.path {
		p, ok, err := in.optStr(key)
		if err != nil {
			return err
		}
		if ok {
			abs, err := resolve(in.where+"."+key, req.Cwd, p)
			if err != nil {
				return err
			}
			req.Paths = append(req.Paths, abs)
		}
	}
	if len(req.Paths) > named {
		return nil
	}
	if len(s.dirs) == 0 {
		return malformed("%s names no path (expected %s)", in.where, strings.Join(s.path, " or "))
	}
	var bases []string
	for _, key := range s.dirs {
		dir, ok, err := in.optStr(key)
		if err != nil {
			return err
		}
		if ok && dir != "" {
			base, err := resolve(in.where+"."+key, req.Cwd, dir)
			if err != nil {
				return err
			}
			bases = append(bases, base)
		}
	}
	if len(bases) == 0 {
		bases = []string{req.Cwd}
	}
	var patterns []string
	for _, key := range s.globs {
		p, ok, err := in.optStr(key)
		if err != nil {
			return err
		}
		if ok && p != "" {
			patterns = append(patterns, p)
		}
	}
	for _, key := range s.globLists {
		l, err := in.strList(key)
		if err != nil {
			return err
		}
		patterns = append(patterns, l...)
	}
	for _, base := range bases {
		req.Paths = append(req.Paths, base)
		for _, p := range patterns {
			g, err := globBase(in.where+" glob", base, p)
			if err != nil {
				return err
			}
			if g != base {
				req.Paths = append(req.Paths, g)
			}
		}
	}
	if s.contents {
		req.Contents, req.Patterns = true, patterns
	}
	return nil
}

// specFor returns the spec of tool in table, or the spec of a tool the
// hook does not look into (KindOther).
func specFor(table map[string]toolSpec, tool string) toolSpec {
	if s, ok := table[tool]; ok {
		return s
	}
	return toolSpec{kind: KindOther}
}

// isParentRef reports whether a slash-separated pattern climbs with "..".
func isParentRef(pattern string) bool {
	for _, e := range strings.Split(filepath.ToSlash(pattern), "/") {
		if e == ".." {
			return true
		}
	}
	return false
}
