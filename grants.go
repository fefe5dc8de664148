package sandboxauth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A Grant is a person's "allow, and don't ask again this session" for a
// scope that the library computed and stated in the prompt:
//
//   - for a shell command, its program and subcommand words (Command, such
//     as ["npm", "run", "test"]), with further operands: arguments that are
//     not options (-x, --x), forced or deleting refspecs (+x, x:y, :x) or
//     assignments (X=y), so that a grant for `git push origin` does not cover
//     `git push origin --force`;
//   - for a shell command asked about because of its arguments, that exact
//     command in that directory (Exact, Cwd, Rule);
//   - for a read or a write, one resolved path (Path), or everything below a
//     directory (Path with Subtree). A protected path (see ProtectedPath) is
//     covered only by a grant of that very path, never by a Subtree grant,
//     so a grant for .git does not lift the protection of .git/hooks.
//
// A shell running a one-command script of plain words (`bash -c 'npm run
// test'`) is matched as that command.
//
// A grant never widens a blocked command or anything the strict Sandbox
// policy refuses outright: it applies only inside the sandbox, only to
// commands whose class is dangerous or none, and only where the command,
// with the grant taken as a safe matcher, classifies as safe (so that a
// granted `rm` still asks about `rm ~/x`). Grants are never offered or applied
// for shells, interpreters, transparent wrappers, xargs, privilege escalation,
// or programs given by path.
type Grant struct {
	Operation Operation `json:"operation"`
	Command   []string  `json:"command,omitempty"`
	Path      string    `json:"path,omitempty"`
	Subtree   bool      `json:"subtree,omitempty"`

	// Exact makes a shell grant cover Command exactly (no further
	// arguments), run in the directory Cwd, and only while the command is
	// still asked about for the same Rule. It is what a person is offered
	// when a command was asked about for its arguments (a protected path
	// such as .env, a write into .git, ...) rather than for its program:
	// allowing `cat .env` once for the session must not allow `cat` on other
	// protected files. The words of an exact grant may be any arguments.
	Exact bool   `json:"exact,omitempty"`
	Cwd   string `json:"cwd,omitempty"`
	Rule  string `json:"rule,omitempty"`

	// Sandbox limits a shell grant to calls made in that sandbox (an
	// absolute, clean path): a grant for `go test` made while working on
	// one project does not run another project's tests. The grants a
	// person makes by answering a UserRequest always name the sandbox of
	// the call; a shell grant without one applies in every sandbox. Read
	// and write grants name absolute paths and take no sandbox.
	Sandbox string `json:"sandbox,omitempty"`
}

// String describes the grant's scope for a person.
func (g Grant) String() string {
	switch {
	case g.Operation == OpShell && g.Exact:
		return fmt.Sprintf("run exactly `%s` in %s", formatArgv(g.Command), g.Cwd)
	case g.Operation == OpShell:
		return fmt.Sprintf("run `%s` with any further operands (no options)", formatArgv(g.Command))
	case g.Subtree:
		return fmt.Sprintf("%s anything in %s", g.Operation, g.Path)
	default:
		return fmt.Sprintf("%s %s", g.Operation, g.Path)
	}
}

func (g Grant) equal(h Grant) bool {
	return g.Operation == h.Operation && slices.Equal(g.Command, h.Command) && g.Path == h.Path && g.Subtree == h.Subtree &&
		g.Exact == h.Exact && g.Cwd == h.Cwd && g.Rule == h.Rule && g.Sandbox == h.Sandbox
}

// appliesIn reports whether g may apply to a call in sandbox (clean).
func (g Grant) appliesIn(sandbox string) bool {
	return g.Sandbox == "" || g.Sandbox == sandbox
}

// covers reports whether g covers the resolved path p for op.
func (g Grant) covers(op Operation, p string) bool {
	if g.Operation != op || g.Path == "" {
		return false
	}
	if g.Subtree {
		return p == g.Path || strings.HasPrefix(p, g.Path+"/")
	}
	return p == g.Path
}

// Grants is a set of session grants. It is safe for concurrent use; create
// one with NewGrants and pass it to constructors with WithGrants.
//
// A grant applies to calls decided after it was made. Requests already
// waiting for a person when a grant is made stay waiting: each needs its own
// answer.
type Grants struct {
	mu   sync.RWMutex
	list []Grant
}

// NewGrants returns an empty set of grants.
func NewGrants() *Grants { return &Grants{} }

// Add records g after checking it (see Grant). Adding a grant twice is not
// an error.
func (s *Grants) Add(g Grant) error {
	if err := checkGrant(g); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.list {
		if h.equal(g) {
			return nil
		}
	}
	g.Command = slices.Clone(g.Command)
	s.list = append(s.list, g)
	return nil
}

// List returns a copy of the grants, in the order they were made.
func (s *Grants) List() []Grant {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Grant, len(s.list))
	for i, g := range s.list {
		g.Command = slices.Clone(g.Command)
		out[i] = g
	}
	return out
}

// Revoke removes g and reports whether it was there.
func (s *Grants) Revoke(g Grant) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, h := range s.list {
		if h.equal(g) {
			s.list = slices.Delete(s.list, i, i+1)
			return true
		}
	}
	return false
}

// Clear removes every grant.
func (s *Grants) Clear() {
	s.mu.Lock()
	s.list = nil
	s.mu.Unlock()
}

// Export returns the grants as a JSON array, for a host to persist.
func (s *Grants) Export() ([]byte, error) {
	return json.MarshalIndent(s.List(), "", "  ")
}

// Import adds the grants of a JSON array made by Export. It is all or
// nothing: an unknown field, trailing data, or a grant that breaks the rules
// of Grant is an error naming the entry, and then nothing is added.
func (s *Grants) Import(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var list []Grant
	if err := dec.Decode(&list); err != nil {
		return invalid(ErrInvalidConfig, "sandboxauth: grants: %v", err)
	}
	if dec.More() {
		return invalid(ErrInvalidConfig, "sandboxauth: grants: trailing data after the array")
	}
	for i, g := range list {
		if err := checkGrant(g); err != nil {
			return invalid(ErrInvalidConfig, "sandboxauth: grants[%d]: %v", i, err)
		}
	}
	for _, g := range list {
		_ = s.Add(g) // checked above
	}
	return nil
}

// noGrantPrograms are programs no grant may name: shells, interpreters,
// wrappers that run another command, and privilege escalation. A grant for
// one would be a grant for anything. It is built on first use.
var noGrantPrograms = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "fish": true, "csh": true, "tcsh": true, "ash": true, "busybox": true,
		"python": true, "python2": true, "python3": true, "pypy": true, "pypy3": true, "node": true, "nodejs": true, "deno": true, "bun": true,
		"perl": true, "ruby": true, "php": true, "lua": true, "luajit": true, "tclsh": true, "wish": true, "Rscript": true, "osascript": true,
		"awk": true, "gawk": true, "mawk": true, "nawk": true,
		"env": true, "timeout": true, "nice": true, "nohup": true, "time": true, "command": true, "builtin": true, "exec": true, "eval": true,
		"stdbuf": true, "setsid": true, "ionice": true, "chrt": true, "taskset": true, "flock": true, "watch": true, "xargs": true, "parallel": true,
		"strace": true, "ltrace": true, "gdb": true, "lldb": true, "valgrind": true, "script": true, "expect": true, "unbuffer": true, "caffeinate": true,
		"sudo": true, "doas": true, "su": true, "pkexec": true, "runuser": true, "chroot": true, "nsenter": true, "unshare": true, "firejail": true,
		"npx": true, "bunx": true, "pnpx": true, "uvx": true, "pipx": true,
	}
})

// grantWord reports whether w may be a word of a command grant: a plain
// lower-case name, not a flag, path, file name or assignment.
func grantWord(w string) bool {
	if w == "" || len(w) > 64 {
		return false
	}
	for i, r := range w {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9' && i > 0, (r == '-' || r == '_' || r == ':') && i > 0:
		default:
			return false
		}
	}
	return true
}

// maxGrantWords bounds a command grant: the program and two subcommand words.
const maxGrantWords = 3

func checkGrant(g Grant) error {
	switch g.Operation {
	case OpShell:
		if g.Path != "" || g.Subtree {
			return invalid(ErrInvalidConfig, "sandboxauth: a shell grant takes a command, not a path")
		}
		if g.Sandbox != "" && (!filepath.IsAbs(g.Sandbox) || filepath.Clean(g.Sandbox) != g.Sandbox || strings.ContainsRune(g.Sandbox, 0)) {
			return invalid(ErrInvalidConfig, "sandboxauth: a shell grant's sandbox must be a clean absolute path, not %q", g.Sandbox)
		}
		if g.Exact {
			return checkExactGrant(g)
		}
		if g.Cwd != "" || g.Rule != "" {
			return invalid(ErrInvalidConfig, "sandboxauth: only an exact shell grant takes a directory and a rule")
		}
		if len(g.Command) == 0 || len(g.Command) > maxGrantWords {
			return invalid(ErrInvalidConfig, "sandboxauth: a shell grant names a program and at most %d subcommand words, not %q", maxGrantWords-1, g.Command)
		}
		for _, w := range g.Command {
			if !grantWord(w) {
				return invalid(ErrInvalidConfig, "sandboxauth: %q cannot be part of a grant: only plain names (no flags, paths or file names)", w)
			}
		}
		if noGrantPrograms()[g.Command[0]] {
			return invalid(ErrInvalidConfig, "sandboxauth: %q runs other programs, so no grant may cover it", g.Command[0])
		}
		if r, _ := defaultCommands().Check(g.Command); r == CommandCheckResultBlocked {
			return invalid(ErrInvalidConfig, "sandboxauth: %q is a blocked command, and no grant may cover it", formatArgv(g.Command))
		}
	case OpRead, OpWrite:
		if g.Exact || g.Cwd != "" || g.Rule != "" || g.Sandbox != "" {
			return invalid(ErrInvalidConfig, "sandboxauth: a %s grant takes a path only", g.Operation)
		}
		if len(g.Command) != 0 {
			return invalid(ErrInvalidConfig, "sandboxauth: a %s grant takes a path, not a command", g.Operation)
		}
		if !filepath.IsAbs(g.Path) || filepath.Clean(g.Path) != g.Path || g.Path == "/" || strings.ContainsRune(g.Path, 0) {
			return invalid(ErrInvalidConfig, "sandboxauth: a %s grant needs a clean absolute path other than /, not %q", g.Operation, g.Path)
		}
	default:
		return invalid(ErrInvalidConfig, "sandboxauth: unknown grant operation %q (want read, write or shell)", g.Operation)
	}
	return nil
}

// maxExactWords bounds the argv of an exact grant.
const maxExactWords = 64

// checkExactGrant checks a shell grant of one exact command.
func checkExactGrant(g Grant) error {
	if len(g.Command) == 0 || len(g.Command) > maxExactWords {
		return invalid(ErrInvalidConfig, "sandboxauth: an exact shell grant names a command of 1 to %d words", maxExactWords)
	}
	for _, w := range g.Command {
		if strings.IndexByte(w, 0) >= 0 {
			return invalid(ErrInvalidConfig, "sandboxauth: a grant word cannot contain a NUL byte")
		}
	}
	if !grantWord(g.Command[0]) || noGrantPrograms()[g.Command[0]] {
		return invalid(ErrInvalidConfig, "sandboxauth: %q cannot be granted: the program must be a plain name that runs no other program", g.Command[0])
	}
	if r, _ := defaultCommands().Check(g.Command[:1]); r == CommandCheckResultBlocked {
		return invalid(ErrInvalidConfig, "sandboxauth: %q is a blocked command, and no grant may cover it", g.Command[0])
	}
	if !filepath.IsAbs(g.Cwd) || filepath.Clean(g.Cwd) != g.Cwd || strings.ContainsRune(g.Cwd, 0) {
		return invalid(ErrInvalidConfig, "sandboxauth: an exact shell grant needs the clean absolute directory it runs in, not %q", g.Cwd)
	}
	if g.Rule == "" {
		return invalid(ErrInvalidConfig, "sandboxauth: an exact shell grant needs the rule it was asked about for")
	}
	return nil
}

// defaultCommands is computed once: the default lists, used to refuse grants
// of blocked commands.
var defaultCommands = sync.OnceValue(NewShellAllowedCommands)

// commandScope returns the grant a person may make for argv, or false when
// none may be offered. class is argv's classification.
func commandScope(argv []string, class CommandCheckResult) (Grant, bool) {
	if class != CommandCheckResultDangerous && class != CommandCheckResultNone {
		return Grant{}, false
	}
	words := []string{argv[0]}
	for _, w := range argv[1:] {
		if len(words) == maxGrantWords || !grantWord(w) {
			break
		}
		words = append(words, w)
	}
	g := Grant{Operation: OpShell, Command: words}
	if checkGrant(g) != nil {
		return Grant{}, false
	}
	return g, true
}

// pathScope returns, for a read or write of the resolved paths inside the
// resolved sandbox root, the directories a person may pick: the nearest
// directory holding every path, and its parents up to the sandbox root.
func pathScope(root string, resolved []string) []string {
	if len(resolved) == 0 {
		return nil
	}
	common := filepath.Dir(resolved[0])
	for _, p := range resolved[1:] {
		for common != root && !strings.HasPrefix(p, common+"/") {
			common = filepath.Dir(common)
		}
	}
	var dirs []string
	for d := common; ; d = filepath.Dir(d) {
		if d != "/" {
			dirs = append(dirs, d)
		}
		if d == root || d == "/" || !strings.HasPrefix(d, root) {
			break
		}
	}
	return dirs
}
