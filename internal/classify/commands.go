package classify

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/programs"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// Commands holds the three lists (blocked, dangerous, safe), the switch
// for per-segment analysis of compound scripts, and what classifications
// share between calls: the PATH scan of the last sandbox seen and the
// facts of each repository. It is what the public ShellAllowedCommands
// wraps. Safe for concurrent use; the zero value has empty lists.
type Commands struct {
	mu            sync.RWMutex
	blocked       matcherList
	dangerous     matcherList
	safe          matcherList
	splitCompound bool
	searchPaths   SearchPathCache // PATH directories inside the last sandbox seen
	repos         repotrust.Cache // what each repository makes of git commands
}

// List names one of the three lists.
type List uint8

const (
	// BlockedList holds commands that never run.
	BlockedList List = iota
	// DangerousList holds commands a person decides.
	DangerousList
	// SafeList holds commands that run without asking; a safe match
	// overrules the other lists.
	SafeList
)

// String returns "blocked", "dangerous" or "safe": the word rules begin
// with ("safe: git log ...").
func (l List) String() string {
	switch l {
	case BlockedList:
		return "blocked"
	case DangerousList:
		return "dangerous"
	case SafeList:
		return "safe"
	}
	return fmt.Sprintf("List(%d)", uint8(l))
}

func (c *Commands) list(l List) *matcherList {
	switch l {
	case BlockedList:
		return &c.blocked
	case DangerousList:
		return &c.dangerous
	case SafeList:
		return &c.safe
	}
	panic(fmt.Sprintf("classify: no list %d", uint8(l)))
}

// AddDefaults adds the default matchers (DefaultMatchers) to each list.
// The matchers are fresh, so the lists keep them without copying, and each
// safe one is compiled with the spec it comes from. To an empty list the
// defaults are added as a whole that compiles a command's matchers on the
// first lookup of its name (lazyDefaults); the list behaves as if they
// had been added one by one.
func (c *Commands) AddDefaults() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range []List{BlockedList, DangerousList, SafeList} {
		ml := c.list(l)
		if len(ml.list) == 0 && ml.defaults == nil {
			ml.defaults = &lazyDefaults{kind: l}
			continue
		}
		ml.addDefaults(l)
	}
}

// DefaultMatchers returns a fresh copy of the default matchers of list l.
func DefaultMatchers(l List) []Matcher {
	switch l {
	case BlockedList:
		return fromEntries(programs.Blocked())
	case DangerousList:
		return fromEntries(programs.Dangerous())
	case SafeList:
		return specMatchers()
	}
	return nil
}

func fromEntries(es []programs.ListEntry) []Matcher {
	out := make([]Matcher, len(es))
	for i := range es {
		out[i] = Matcher(es[i])
	}
	return out
}

// Add adds a copy of m to list l. It is a no-op if an equal matcher
// (ignoring Reason) is already there, or if m.Command is empty.
func (c *Commands) Add(l List, m Matcher) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list(l).add(l.String(), m)
}

// Remove removes the matcher equal to m (ignoring Reason) from list l,
// reporting whether there was one.
func (c *Commands) Remove(l List, m Matcher) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.list(l).remove(l.String(), m)
}

// Matchers returns a deep copy of list l, in insertion order.
func (c *Commands) Matchers(l List) []Matcher {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.list(l).copies()
}

// BlockedNames returns the names of the commands blocked regardless of
// their arguments (blocked matchers with no prefix, flags or except
// flags), normalised, sorted and without duplicates.
func (c *Commands) BlockedNames() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []string
	all := c.blocked.all()
	for i := range all {
		if all[i].bare() {
			out = append(out, normalizeCommandName(all[i].Command))
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// SetSplitCompound turns per-segment analysis of compound scripts on or
// off.
func (c *Commands) SetSplitCompound(on bool) {
	c.mu.Lock()
	c.splitCompound = on
	c.mu.Unlock()
}

// SplitCompound reports whether per-segment analysis is on.
func (c *Commands) SplitCompound() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.splitCompound
}

// Site says where a command would run: the absolute, clean sandbox
// directory ("" for none known: every path that may point outside is taken
// as outside) and working directory ("" means the sandbox).
type Site struct {
	SandboxDir string
	Cwd        string
}

// WorkDir is the caller's working directory, placed against the sandbox
// once for the caller and the classifier together. It belongs to one call.
type WorkDir interface {
	// Path is the directory as given (absolute, clean).
	Path() string
	// Place places it, once: where it leads and where the sandbox leads
	// (both resolved), whether it lies inside, or why the sandbox cannot
	// be resolved.
	Place() (resolved, root string, inside bool, err error)
	// ProvenBeneath records that pathres.Proven(sandbox, p) answered for
	// p, which proves where the directory leads when p lies strictly
	// beneath it.
	ProvenBeneath(p string)
	// Placed returns the directory, without placing it, when it has been
	// placed inside the sandbox and leads to itself (no symlink on its
	// way; a missing part of it is literal), so that a missing file
	// directly in it is proven without opening it again
	// (pathres.ProvenFrom).
	Placed() (dir string, ok bool)
}

// Classify classifies argv (already validated: not empty, no NUL byte)
// as it would run at site. protected are the caller's protected paths
// (with a sandbox known, a path argument or redirection that reads or
// writes one makes the command dangerous); known is the caller's working
// directory when it places it too (nil otherwise); project adds the
// caller's own commands that run project code. A panic (a bug) is turned
// into an inscrutable answer, never a crash or a safe one.
func (c *Commands) Classify(site Site, protected []Protected, known WorkDir, argv []string, project []Matcher) Verdict {
	return c.classify(site, protected, known, argv, project, nil)
}

// ClassifyGranted is Classify with grant (a person's session grant for a
// command) taken as one more safe matcher, after the safe list: the
// verdict the command would have if the grant were added to that list.
// The lists and the caches are used as they are, not copied.
func (c *Commands) ClassifyGranted(site Site, protected []Protected, known WorkDir, argv []string, project []Matcher, grant Matcher) Verdict {
	if grant.Command == "" { // as Add: a matcher without a command is no matcher
		return c.classify(site, protected, known, argv, project, nil)
	}
	g := compile(SafeList.String(), normalizeCommandName(grant.Command), grant.Clone(), nil)
	return c.classify(site, protected, known, argv, project, &g)
}

func (c *Commands) classify(site Site, protected []Protected, known WorkDir, argv []string, project []Matcher, grant *compiledMatcher) (v Verdict) {
	cwd := ""
	if site.SandboxDir != "" {
		cwd = site.Cwd
		if cwd == "" {
			cwd = site.SandboxDir
		}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	defer func() {
		if p := recover(); p != nil {
			v = mkVerdict(Inscrutable, "rule: internal error",
				fmt.Sprintf("the classifier failed on this command (%v)", p))
		}
	}()
	r := cmdClassifier{s: c, split: c.splitCompound, sandbox: site.SandboxDir, projectMatchers: project, grant: grant}
	r.known = known
	if site.SandboxDir != "" {
		r.protected = protected
		r.searchPath = c.searchPaths.Get(pathres.Clean(site.SandboxDir))
	}
	return r.argv(argv, cwd, 0, false)
}
