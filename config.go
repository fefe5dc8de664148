package sandboxauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/sandboxauth/sandboxauth/internal/classify"

	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/programs"
	"github.com/sandboxauth/sandboxauth/internal/strictjson"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// DefaultPromptTimeout is the prompt timeout of an authorizer built from a
// configuration that sets neither "promptTimeout" nor "headless": a
// question nobody answers within it is refused with ErrPromptTimeout. It
// bounds the wait of a program that builds its authorizer from a file and
// never reads the channel of requests (a batch job that should have said
// "headless"), which would otherwise wait until Close. Pass
// WithPromptTimeout(0) to NewAuthorizer to wait without limit.
const DefaultPromptTimeout = 10 * time.Minute

// MaxConfigSize is the largest configuration file LoadConfig reads.
const MaxConfigSize = 8 << 20

// The values of the "policy" key.
const (
	PolicySandbox     = "sandbox"
	PolicyPermissive  = "permissive"
	PolicyAutoApprove = "autoapprove"
)

// Config is a checked configuration file: the policy, edits of the default
// command lists and protected paths, compound splitting, headless mode,
// the prompt timeout, the tool policy and the confinement the host runs
// shell commands under ("confine", see Confinement). It is immutable; every
// NewAuthorizer call builds fresh command lists from it.
//
// The format is one JSON object (config.schema.json describes it):
//
//	{
//	  "policy": "sandbox",
//	  "commands": {
//	    "safe":      {"add": [{"command": "make", "args": ["test"]}],
//	                  "remove": [{"command": "cat"}]},
//	    "blocked":   {"add": [{"command": "terraform", "reason": "no cloud changes"}]},
//	    "dangerous": {"add": [{"command": "git", "args": ["push"]}]}
//	  },
//	  "splitCompound": true,
//	  "protectedPaths": {"add": ["secrets/", {"pattern": "go.sum", "read": false}],
//	                     "remove": [".idea/"]},
//	  "headless": false,
//	  "promptTimeout": "2m",
//	  "tools": {"profile": "coding", "deny": ["web_fetch"]},
//	  "agents": [{"id": "reviewer", "tools": {"deny": ["exec"]}}],
//	  "confine": {"network": false, "writable": ["/var/cache/ci"]}
//	}
//
// Every key is optional; an absent "policy" is "sandbox", the strictest.
// "tools" and "agents" are a tool policy exactly as package toolpolicy
// reads it (toolpolicy.ConfigFile), so a tool policy file is a valid
// configuration by itself.
// See LoadConfig for what is checked.
type Config struct {
	policy         string
	safe           listEdits
	blocked        listEdits
	dangerous      listEdits
	splitCompound  bool
	protected      []ProtectedPath
	headless       bool
	promptTimeout  time.Duration
	hasPromptLimit bool
	tools          *toolpolicy.Config
	confinement    *confine.Policy // nil: the host promises no confinement
	widenings      []ConfigError   // the entries that allow more than the defaults
	warnings       []ConfigError   // the safe entries that make the lists meaningless
}

// listEdits are the removals from and additions to one default list.
type listEdits struct {
	remove []CommandMatcher
	add    []CommandMatcher
}

// ConfigError is an error in a configuration file. It names the file (when
// the configuration was read from one), the line and column (1-based,
// counting characters) and the key path, such as
// commands.safe.add[2].flags. It matches ErrInvalidConfig with errors.Is,
// and the error it carries (for instance toolpolicy.ErrUnknownGroup) too.
type ConfigError struct {
	File   string
	Line   int
	Column int
	Path   string
	Err    error
}

// Error returns "FILE:LINE:COLUMN: PATH: ERR".
func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	fmt.Fprintf(&b, "%d:%d: ", e.Line, e.Column)
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns ErrInvalidConfig and the underlying error.
func (e *ConfigError) Unwrap() []error { return []error{ErrInvalidConfig, e.Err} }

// LoadConfig reads and checks the configuration file at path (see Config
// and ParseConfig). Errors name the file, line, column and key.
func LoadConfig(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sandboxauth: %w (%w)", err, ErrInvalidConfig)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigSize+1))
	if err != nil {
		return nil, fmt.Errorf("sandboxauth: reading %s: %w (%w)", path, err, ErrInvalidConfig)
	}
	c, err := ParseConfig(data)
	if err != nil {
		return nil, nameFile(path, err)
	}
	for i := range c.widenings {
		c.widenings[i].File = path
	}
	for i := range c.warnings {
		c.warnings[i].File = path
	}
	return c, nil
}

// nameFile sets File in every *ConfigError of err.
func nameFile(path string, err error) error {
	var ce *ConfigError
	if errors.As(err, &ce) {
		ce.File = path
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if _, self := err.(*ConfigError); !self {
			for _, e := range j.Unwrap() {
				nameFile(path, e)
			}
		}
	}
	return err
}

// ParseConfig checks a configuration document. Decoding is strict: an
// unknown key, a duplicate key, null, a value of the wrong type, trailing
// data, an unknown policy, a malformed matcher, duration or pattern, a
// removal that matches no default entry, a safe entry that would overrule
// a blocked one without "overrideBlocked": true (and a blocked entry that
// safe entries would overrule), and a relative "confine" directory are errors,
// each a *ConfigError with its line, column and key path. Nothing is
// dropped or defaulted silently.
func ParseConfig(data []byte) (*Config, error) {
	if len(data) > MaxConfigSize {
		return nil, &ConfigError{Line: 1, Column: 1, Err: fmt.Errorf("the configuration is larger than %d bytes", MaxConfigSize)}
	}
	// An empty object (no file: the defaults) has no member to check
	// against the schema: building the schema would cost a hook process
	// 124 allocations.
	schema := &strictjson.Node{Kind: strictjson.Object}
	if !bytes.Equal(bytes.TrimSpace(data), []byte("{}")) {
		schema = configSchema()
	}
	doc, err := strictjson.Parse(data, schema)
	if err != nil {
		return nil, fromStrict(err)
	}
	var f configFile
	// An empty object sets no field either; decoding it would still cost a
	// hook the reflection over configFile.
	if !bytes.Equal(bytes.TrimSpace(doc.Data()), []byte("{}")) {
		dec := json.NewDecoder(bytes.NewReader(doc.Data()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil { // the shape is checked: this cannot fail
			return nil, &ConfigError{Line: 1, Column: 1, Err: err}
		}
	}
	p := configParser{doc: doc, data: data}
	return p.build(&f)
}

// fromStrict converts a strictjson error, or several joined.
func fromStrict(err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var errs []error
		for _, e := range j.Unwrap() {
			errs = append(errs, fromStrict(e))
		}
		return errors.Join(errs...)
	}
	var se *strictjson.Error
	if errors.As(err, &se) {
		return &ConfigError{Line: se.Line, Column: se.Column, Path: se.Path, Err: se.Err}
	}
	return &ConfigError{Line: 1, Column: 1, Err: err}
}

// configFile mirrors the schema for decoding.
type configFile struct {
	Schema         string              `json:"$schema"`
	Policy         *string             `json:"policy"`
	Commands       *commandsJSON       `json:"commands"`
	SplitCompound  bool                `json:"splitCompound"`
	ProtectedPaths *protectedPathsJSON `json:"protectedPaths"`
	Headless       bool                `json:"headless"`
	PromptTimeout  *string             `json:"promptTimeout"`
	Tools          json.RawMessage     `json:"tools"`
	Agents         json.RawMessage     `json:"agents"`
	Confine        *confineJSON        `json:"confine"`
}

// confineJSON is the "confine" section: the confine.Policy the host runs
// shell commands under, the sandbox being each call's own.
type confineJSON struct {
	Network  bool     `json:"network"`
	Writable []string `json:"writable"`
	Readable []string `json:"readable"`
}

type commandsJSON struct {
	Safe      *editsJSON `json:"safe"`
	Blocked   *editsJSON `json:"blocked"`
	Dangerous *editsJSON `json:"dangerous"`
}

type editsJSON struct {
	Add    []matcherJSON `json:"add"`
	Remove []matcherJSON `json:"remove"`
}

type matcherJSON struct {
	Command         string   `json:"command"`
	Args            []string `json:"args"`
	Flags           []string `json:"flags"`
	ExceptFlags     []string `json:"exceptFlags"`
	Reason          string   `json:"reason"`
	OverrideBlocked bool     `json:"overrideBlocked"`
}

type protectedPathsJSON struct {
	Add    []protectedJSON `json:"add"`
	Remove []string        `json:"remove"`
}

// protectedJSON is one added protected path: a pattern alone (reads and
// writes ask), or an object whose "read" and "write" default to true.
type protectedJSON struct {
	Pattern string `json:"pattern"`
	Read    *bool  `json:"read"`
	Write   *bool  `json:"write"`
}

// UnmarshalJSON reads either shape.
func (p *protectedJSON) UnmarshalJSON(b []byte) error {
	var pattern string
	if err := json.Unmarshal(b, &pattern); err == nil {
		*p = protectedJSON{Pattern: pattern}
		return nil
	}
	type plain protectedJSON
	return json.Unmarshal(b, (*plain)(p))
}

// flags returns what the entry protects: true where a flag is absent.
func (p protectedJSON) flags() (read, write bool) {
	return p.Read == nil || *p.Read, p.Write == nil || *p.Write
}

// configSchema is the shape of a configuration document, built on each
// use.
func configSchema() *strictjson.Node {
	str := func() *strictjson.Node { return &strictjson.Node{Kind: strictjson.String, NonBlank: true} }
	boolean := &strictjson.Node{Kind: strictjson.Bool}
	strs := func(nonBlank bool) *strictjson.Node {
		return &strictjson.Node{Kind: strictjson.Array, Elem: &strictjson.Node{Kind: strictjson.String, NonBlank: nonBlank}}
	}
	const matcherExample = `{"command": "make", "args": ["test"]}`
	matcher := func(override bool) *strictjson.Node {
		n := &strictjson.Node{Kind: strictjson.Object, Example: matcherExample, Fields: map[string]*strictjson.Node{
			"command":     str(),
			"args":        strs(false),
			"flags":       strs(true),
			"exceptFlags": strs(true),
			"reason":      {Kind: strictjson.String},
		}}
		if override {
			n.Fields["overrideBlocked"] = boolean
		}
		return n
	}
	edits := func(override bool) *strictjson.Node {
		return &strictjson.Node{Kind: strictjson.Object, Example: `{"add": [` + matcherExample + `]}`, Fields: map[string]*strictjson.Node{
			"add":    {Kind: strictjson.Array, Elem: matcher(override), Example: "[" + matcherExample + "]"},
			"remove": {Kind: strictjson.Array, Elem: matcher(false), Example: "[" + matcherExample + "]"},
		}}
	}
	return &strictjson.Node{Kind: strictjson.Object, Fields: map[string]*strictjson.Node{
		"$schema": {Kind: strictjson.String},
		"policy":  {Kind: strictjson.String, NonBlank: true, Example: `"sandbox"`},
		"commands": {Kind: strictjson.Object, Example: `{"safe": {"add": [` + matcherExample + `]}}`, Fields: map[string]*strictjson.Node{
			"safe":      edits(true),
			"blocked":   edits(false),
			"dangerous": edits(false),
		}},
		"splitCompound": boolean,
		"protectedPaths": {Kind: strictjson.Object, Example: `{"add": ["secrets/"], "remove": [".idea/"]}`, Fields: map[string]*strictjson.Node{
			"add": {Kind: strictjson.Array, Example: `["secrets/"]`, Elem: &strictjson.Node{Kind: strictjson.Object, Example: `{"pattern": "go.sum", "read": false}`, Fields: map[string]*strictjson.Node{
				"pattern": str(), "read": boolean, "write": boolean,
			}, Or: &strictjson.Node{Kind: strictjson.String, NonBlank: true, Example: `"secrets/"`}}},
			"remove": {Kind: strictjson.Array, Example: `[".idea/"]`, Elem: &strictjson.Node{Kind: strictjson.String, NonBlank: true}},
		}},
		"headless":      boolean,
		"promptTimeout": {Kind: strictjson.String, NonBlank: true, Example: `"2m"`},
		"tools":         {Kind: strictjson.Raw, Example: `{"profile": "coding"}`},
		"agents":        {Kind: strictjson.RawList, Example: `[{"id": "reviewer", "tools": {"deny": ["Bash"]}}]`},
		"confine": {Kind: strictjson.Object, Example: `{"network": false, "writable": ["/abs/dir"]}`, Fields: map[string]*strictjson.Node{
			"network":  boolean,
			"writable": strs(true),
			"readable": strs(true),
		}},
	}}
}

// confinement checks the "confine" section: absolute directories, and a
// policy that asks about project code (autoapprove asks nothing).
func (p *configParser) confinement(f *confineJSON, policy string) *confine.Policy {
	if policy == PolicyAutoApprove {
		p.fail("confine", "has no effect under the policy %q, which allows every call; remove it or choose %q or %q", PolicyAutoApprove, PolicySandbox, PolicyPermissive)
		return nil
	}
	cp := &confine.Policy{Network: f.Network, Writable: slices.Clone(f.Writable)}
	if f.Readable != nil {
		cp.Readable = append([]string{}, f.Readable...)
	}
	for key, list := range map[string][]string{"writable": f.Writable, "readable": f.Readable} {
		for i, d := range list {
			if !cleanAbs(d) {
				p.fail(fmt.Sprintf("confine.%s[%d]", key, i), "%q is not an absolute, clean directory", d)
			}
		}
	}
	return cp
}

// configParser checks the values of a decoded document and locates errors.
type configParser struct {
	doc  *strictjson.Doc
	data []byte
	errs []error
}

func (p *configParser) fail(path string, format string, args ...any) {
	le := p.doc.Errorf(path, nil)
	p.errs = append(p.errs, &ConfigError{Line: le.Line, Column: le.Column, Path: path, Err: fmt.Errorf(format, args...)})
}

func (p *configParser) build(f *configFile) (*Config, error) {
	c := &Config{policy: PolicySandbox, splitCompound: f.SplitCompound, headless: f.Headless}
	if f.Policy != nil {
		switch *f.Policy {
		case PolicySandbox, PolicyPermissive, PolicyAutoApprove:
			c.policy = *f.Policy
		default:
			p.fail("policy", "unknown policy %q (want %q, %q or %q)", *f.Policy, PolicySandbox, PolicyPermissive, PolicyAutoApprove)
		}
	}
	if f.PromptTimeout != nil {
		d, err := time.ParseDuration(*f.PromptTimeout)
		switch {
		case err != nil:
			p.fail("promptTimeout", "%q is not a duration (write it as Go does: \"90s\", \"2m\", \"1h30m\")", *f.PromptTimeout)
		case d <= 0:
			p.fail("promptTimeout", "%q must be positive (leave the key out to wait until the authorizer is closed)", *f.PromptTimeout)
		default:
			c.promptTimeout, c.hasPromptLimit = d, true
		}
	}
	if f.Commands != nil {
		before := len(p.errs)
		c.safe = p.edits("commands.safe", f.Commands.Safe)
		c.blocked = p.edits("commands.blocked", f.Commands.Blocked)
		c.dangerous = p.edits("commands.dangerous", f.Commands.Dangerous)
		if len(p.errs) == before { // every matcher is well-formed
			p.checkLists(c, f.Commands)
		}
	}
	c.protected = p.protectedPaths(f.ProtectedPaths)
	if c.policy == PolicyAutoApprove {
		for _, key := range []string{"commands", "splitCompound", "protectedPaths", "headless", "promptTimeout"} {
			if p.doc.Has(key) {
				p.fail(key, "has no effect under the policy %q, which allows every call without looking at commands or paths; remove it or choose %q or %q", PolicyAutoApprove, PolicySandbox, PolicyPermissive)
			}
		}
	}
	if f.Tools != nil || f.Agents != nil {
		c.tools = p.tools()
	}
	if f.Confine != nil {
		c.confinement = p.confinement(f.Confine, c.policy)
	}
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	p.recordWidenings(c, f)
	return c, nil
}

// recordWidenings notes every entry that allows more than the defaults.
func (p *configParser) recordWidenings(c *Config, f *configFile) {
	add := func(path, what string) {
		le := p.doc.Errorf(path, nil)
		c.widenings = append(c.widenings, ConfigError{Line: le.Line, Column: le.Column, Path: path, Err: errors.New(what)})
	}
	if c.policy != PolicySandbox {
		add("policy", fmt.Sprintf("the policy %q allows more than %q", c.policy, PolicySandbox))
	}
	if f.Commands != nil {
		if f.Commands.Safe != nil {
			for i, m := range f.Commands.Safe.Add {
				path := fmt.Sprintf("commands.safe.add[%d]", i)
				what := "adds a safe command"
				if pc, _ := programs.RunsProjectCode(strings.ToLower(m.Command), m.Args); pc != "" {
					// The entry is final for project code too (AddSafe).
					what = "adds a safe command that runs project code (" + pc + "): it runs without a question, whether or not confinement is declared"
				}
				add(path, what)
				if found := classify.Matcher(c.safe.add[i]).LetsThrough(); len(found) > 0 {
					le := p.doc.Errorf(path, nil)
					c.warnings = append(c.warnings, ConfigError{Line: le.Line, Column: le.Column, Path: path, Err: fmt.Errorf(
						"the safe entry %q lets these run without asking: %s. A safe entry is final: it decides for every command it matches. "+
							"Narrow it with \"args\" or \"exceptFlags\", or remove it", c.safe.add[i].String(), strings.Join(found, "; "))})
				}
			}
		}
		for _, l := range []struct {
			name string
			e    *editsJSON
		}{{"blocked", f.Commands.Blocked}, {"dangerous", f.Commands.Dangerous}} {
			if l.e != nil {
				for i := range l.e.Remove {
					add(fmt.Sprintf("commands.%s.remove[%d]", l.name, i), "removes a "+l.name+" command")
				}
			}
		}
	}
	if c.splitCompound {
		add("splitCompound", "judges compound commands segment by segment")
	}
	if f.ProtectedPaths != nil {
		for i := range f.ProtectedPaths.Remove {
			add(fmt.Sprintf("protectedPaths.remove[%d]", i), "removes a protected path")
		}
	}
	for _, key := range []string{"tools", "agents"} {
		if p.doc.Has(key) {
			add(key, "sets a tool policy")
		}
	}
}

// Widenings returns the entries of the configuration that allow more than
// the defaults: a policy other than sandbox, safe additions, removals from
// the blocked and dangerous lists and from the protected paths, per-segment
// analysis, and a tool policy. A host that loads a file it does not trust
// (one shipped in a repository, say) can refuse it when there are any.
// Each is a *ConfigError naming the entry.
func (c *Config) Widenings() []error {
	out := make([]error, len(c.widenings))
	for i := range c.widenings {
		e := c.widenings[i]
		out[i] = &e
	}
	return out
}

// Warnings returns the safe entries of the configuration that make the
// command lists meaningless for what they match: an entry for a shell, a
// wrapper or xargs (which run any command given to them), one that
// overrules default dangerous entries (python3 -c, rm -rf, git push) or
// lets a program's unsafe options through (find -exec), unless the entry
// pins a subcommand, file or module with "args". The configuration is
// valid; a host shows these to the person who wrote it. Each is a
// *ConfigError naming the entry.
func (c *Config) Warnings() []error {
	out := make([]error, len(c.warnings))
	for i := range c.warnings {
		e := c.warnings[i]
		out[i] = &e
	}
	return out
}

// edits checks the add and remove lists of one command list.
func (p *configParser) edits(path string, e *editsJSON) listEdits {
	var out listEdits
	if e == nil {
		return out
	}
	for i, m := range e.Remove {
		if cm, ok := p.matcher(fmt.Sprintf("%s.remove[%d]", path, i), m); ok {
			out.remove = append(out.remove, cm)
		}
	}
	for i, m := range e.Add {
		if cm, ok := p.matcher(fmt.Sprintf("%s.add[%d]", path, i), m); ok {
			out.add = append(out.add, cm)
		}
	}
	return out
}

// matcher checks one matcher object.
func (p *configParser) matcher(path string, m matcherJSON) (CommandMatcher, bool) {
	if !p.doc.Has(path + ".command") {
		p.fail(path, `"command" is missing: name the program the entry is about`)
		return CommandMatcher{}, false
	}
	switch {
	case strings.ContainsFunc(m.Command, unicode.IsSpace):
		p.fail(path+".command", "%q contains white space: name the program only and put its arguments in \"args\"", m.Command)
		return CommandMatcher{}, false
	case strings.Contains(m.Command, "/"):
		p.fail(path+".command", "%q contains a slash: name the program, not its path (it is compared with the base name of argv[0])", m.Command)
		return CommandMatcher{}, false
	case strings.ContainsAny(m.Reason, "\r\n"):
		p.fail(path+".reason", "must be one line")
		return CommandMatcher{}, false
	}
	return CommandMatcher{Command: m.Command, CommandArgsPrefix: m.Args, Flags: m.Flags, ExceptFlags: m.ExceptFlags, Reason: m.Reason}, true
}

// checkLists applies the edits to the default lists, which reports removals
// that select nothing, and then looks for safe entries that overrule
// blocked ones.
func (p *configParser) checkLists(c *Config, cj *commandsJSON) {
	s, removeErrs := c.buildCommands()
	for _, re := range removeErrs {
		p.fail(re.path, "%v", re.err)
	}
	blocked := s.BlockedCommandMatchers()
	safe := s.SafeCommandMatchers()
	// ownBlocked and ownSafe find the file's own additions among the
	// lists' entries: a clash between two of the file's entries is fixed
	// by removing one of them, not with a removal from the defaults.
	ownIndex := func(adds []CommandMatcher, m CommandMatcher) int {
		return slices.IndexFunc(adds, func(a CommandMatcher) bool { return sameMatcher(a, m) })
	}
	if cj.Safe != nil {
		for i, m := range cj.Safe.Add {
			if m.OverrideBlocked {
				continue
			}
			sm := c.safe.add[i]
			for _, bm := range blocked {
				if !overlaps(sm, bm) {
					continue
				}
				path := fmt.Sprintf("commands.safe.add[%d]", i)
				if j := ownIndex(c.blocked.add, bm); j >= 0 {
					p.fail(path, "the safe entry %q clashes with this file's blocked entry %q (commands.blocked.add[%d], %s): safe entries win over blocked ones, so the blocked entry would not apply to what both match. "+
						"Remove one of the two, or narrow the safe entry with \"args\" or \"exceptFlags\"", sm.String(), bm.String(), j, p.where(fmt.Sprintf("commands.blocked.add[%d]", j)))
				} else {
					p.fail(path, "the safe entry %q would overrule the default blocked entry %q (%s): safe entries win over blocked ones. "+
						"Add \"overrideBlocked\": true to the entry if that is what you mean, or remove the blocked entry with \"commands\": {\"blocked\": {\"remove\": [{\"command\": %q}]}}", sm.String(), bm.String(), reasonOr(bm), bm.Command)
				}
				break
			}
		}
	}
	for i, bm := range c.blocked.add {
		var shadow []string
		own := -1
		for _, sm := range safe {
			if !overlaps(sm, bm) {
				continue
			}
			if j := ownIndex(c.safe.add, sm); j >= 0 {
				if cj.Safe.Add[j].OverrideBlocked && own < 0 {
					own = j
				}
				continue // reported from the safe entry's side unless it overrides
			}
			shadow = append(shadow, strings.Join(append([]string{sm.Command}, sm.CommandArgsPrefix...), " "))
		}
		path := fmt.Sprintf("commands.blocked.add[%d]", i)
		if own >= 0 {
			p.fail(path, "the blocked entry %q is overruled by this file's safe entry commands.safe.add[%d] (%s), which says \"overrideBlocked\": true, so it would not apply to what both match. Remove one of the two",
				bm.String(), own, p.where(fmt.Sprintf("commands.safe.add[%d]", own)))
		}
		if len(shadow) > 0 {
			slices.Sort(shadow)
			shadow = slices.Compact(shadow)
			more := ""
			if len(shadow) > 5 {
				more = fmt.Sprintf(" and %d more", len(shadow)-5)
				shadow = shadow[:5]
			}
			p.fail(path, "the blocked entry %q is overruled by default safe entries (%s%s): safe entries win over blocked ones. "+
				"Remove them with \"commands\": {\"safe\": {\"remove\": [{\"command\": %q}]}}, which removes every default safe %s entry",
				bm.String(), strings.Join(quoteAll(shadow), ", "), more, bm.Command, bm.Command)
		}
	}
}

// where is "line L, column C" of the value at path.
func (p *configParser) where(path string) string {
	le := p.doc.Errorf(path, nil)
	return fmt.Sprintf("line %d, column %d", le.Line, le.Column)
}

// sameMatcher reports whether a and b are the same entry (see
// classify.Matcher).
func sameMatcher(a, b CommandMatcher) bool {
	return classify.Matcher(a).Selects(classify.Matcher(b)) && classify.Matcher(b).Selects(classify.Matcher(a))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func reasonOr(m CommandMatcher) string {
	if m.Reason != "" {
		return m.Reason
	}
	return "blocked"
}

// overlaps reports whether some argv could match both matchers (see
// classify.Matcher.Overlaps).
func overlaps(a, b CommandMatcher) bool {
	return classify.Matcher(a).Overlaps(classify.Matcher(b))
}

// removeError is a removal that selected nothing.
type removeError struct {
	path string
	err  error
}

// buildCommands returns the default lists with the configured edits:
// removals first (each must select at least one default entry), then
// additions.
func (c *Config) buildCommands() (*ShellAllowedCommands, []removeError) {
	s := NewShellAllowedCommands()
	var errs []removeError
	lists := []struct {
		kind    string
		edits   listEdits
		current func() []CommandMatcher
		remove  func(CommandMatcher) error
		add     func(CommandMatcher)
	}{
		{"safe", c.safe, s.SafeCommandMatchers, s.RemoveSafe, s.AddSafe},
		{"blocked", c.blocked, s.BlockedCommandMatchers, s.RemoveBlocked, s.AddBlocked},
		{"dangerous", c.dangerous, s.DangerousCommandMatchers, s.RemoveDangerous, s.AddDangerous},
	}
	for _, l := range lists {
		for i, sel := range l.edits.remove {
			n := 0
			for _, m := range l.current() {
				if selects(sel, m) {
					if l.remove(m) == nil {
						n++
					}
				}
			}
			if n == 0 {
				errs = append(errs, removeError{fmt.Sprintf("commands.%s.remove[%d]", l.kind, i),
					fmt.Errorf("%q matches no entry of the default %s list (`sandboxauth defaults` lists them)", sel.String(), l.kind)})
			}
		}
		for _, m := range l.edits.add {
			l.add(m)
		}
	}
	s.SetSplitCompound(c.splitCompound)
	return s, errs
}

// selects reports whether a removal entry selects the list entry m (see
// classify.Matcher.Selects).
func selects(sel, m CommandMatcher) bool {
	return classify.Matcher(sel).Selects(classify.Matcher(m))
}

// protectedPaths checks the protected path edits and returns the resulting
// list (nil when nothing is edited: the defaults).
func (p *configParser) protectedPaths(pj *protectedPathsJSON) []ProtectedPath {
	if pj == nil {
		return nil
	}
	out := DefaultProtectedPaths()
	for i, pat := range pj.Remove {
		path := fmt.Sprintf("protectedPaths.remove[%d]", i)
		j := slices.IndexFunc(out, func(pp ProtectedPath) bool { return pp.Pattern == pat })
		if j < 0 {
			p.fail(path, "%s", notDefaultProtected(pat, out))
			continue
		}
		out = slices.Delete(out, j, j+1)
	}
	for i, a := range pj.Add {
		path := fmt.Sprintf("protectedPaths.add[%d]", i)
		read, write := a.flags()
		pp := ProtectedPath{Pattern: a.Pattern, Read: read, Write: write}
		if pp.Pattern == "" {
			p.fail(path, `"pattern" is missing: name the path to protect, such as "secrets/" (or give the pattern alone, as a string, to protect reads and writes)`)
			continue
		}
		if !read && !write {
			p.fail(path, `protects nothing: "read" and "write" are both false. Leave them out (both default to true) or set the one that must ask to true`)
			continue
		}
		if _, err := compileProtected([]ProtectedPath{pp}); err != nil {
			var ie *inputError
			msg := err.Error()
			if errors.As(err, &ie) {
				msg = strings.TrimPrefix(strings.Replace(ie.msg, "protected path 0 ", "", 1), "sandboxauth: ")
			}
			p.fail(path, "%s", msg)
			continue
		}
		out = append(out, pp)
	}
	return out
}

// notDefaultProtected says that pat, given to protectedPaths.remove, is
// not one of the protected paths list, and what it may have meant.
func notDefaultProtected(pat string, list []ProtectedPath) string {
	norm := func(s string) string { return strings.ToLower(strings.Trim(s, "/")) }
	for _, pp := range list {
		if pp.Pattern != pat && (norm(pp.Pattern) == norm(pat) || norm(pp.Pattern) == "**/"+norm(pat) || norm(pp.Pattern) == "./"+norm(pat)) {
			return fmt.Sprintf("%q is not a default protected path: did you mean %q? Remove takes a default's pattern exactly as written (`sandboxauth defaults` lists them)", pat, pp.Pattern)
		}
	}
	return fmt.Sprintf("%q is not a default protected path; remove takes a default's pattern exactly as written (`sandboxauth defaults` lists them)", pat)
}

// tools compiles the tool policy ("tools" and "agents", a configuration
// of package toolpolicy) with toolpolicy's own parser, and locates its
// errors in the whole document.
func (p *configParser) tools() *toolpolicy.Config {
	// The tool policy document is rebuilt from the two values; segments
	// map its offsets back to the file's.
	type segment struct{ at, orig, n int64 }
	var doc bytes.Buffer
	var segs []segment
	doc.WriteByte('{')
	for _, key := range []string{"tools", "agents"} {
		raw := p.doc.Raw(key)
		if raw == nil {
			continue
		}
		if len(segs) > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, "%q:", key)
		segs = append(segs, segment{int64(doc.Len()), p.doc.Errorf(key, nil).Offset, int64(len(raw))})
		doc.Write(raw)
	}
	doc.WriteByte('}')
	tc, err := toolpolicy.ParseConfig(&doc)
	if err == nil {
		return tc
	}
	var add func(error)
	add = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				add(x)
			}
			return
		}
		var ce *toolpolicy.ConfigError
		if !errors.As(e, &ce) {
			p.fail("tools", "%v", e)
			return
		}
		off := segs[0].orig
		for _, s := range segs {
			if ce.Offset >= s.at && ce.Offset <= s.at+s.n {
				off = s.orig + ce.Offset - s.at
			}
		}
		line, col := strictjson.LineColumn(p.data, off)
		p.errs = append(p.errs, &ConfigError{Line: line, Column: col, Path: ce.Path, Err: ce.Err})
	}
	add(err)
	return nil
}

// Policy returns the configured policy: PolicySandbox, PolicyPermissive or
// PolicyAutoApprove.
func (c *Config) Policy() string { return c.policy }

// Commands returns new command lists: the defaults with the configured
// removals and additions, and per-segment analysis as configured.
func (c *Config) Commands() *ShellAllowedCommands {
	s, _ := c.buildCommands() // removals were checked when the configuration was parsed
	return s
}

// ProtectedPaths returns the protected paths the configuration's
// authorizers use: DefaultProtectedPaths() with the file's "protectedPaths"
// edits. The slice is the caller's.
func (c *Config) ProtectedPaths() []ProtectedPath {
	if c.protected == nil {
		return DefaultProtectedPaths()
	}
	return slices.Clone(c.protected)
}

// Tools returns the compiled tool policy configuration, or nil when the
// file has neither "tools" nor "agents".
func (c *Config) Tools() *toolpolicy.Config { return c.tools }

// Options returns the options the configuration sets: protected paths,
// headless mode and the prompt timeout, which is DefaultPromptTimeout when
// the file sets neither "promptTimeout" nor "headless".
func (c *Config) Options() []Option {
	var opts []Option
	if c.protected != nil {
		opts = append(opts, WithProtectedPaths(slices.Clone(c.protected)...))
	}
	if c.headless {
		opts = append(opts, WithHeadless())
	}
	switch {
	case c.hasPromptLimit:
		opts = append(opts, WithPromptTimeout(c.promptTimeout))
	case !c.headless:
		opts = append(opts, WithPromptTimeout(DefaultPromptTimeout))
	}
	if c.confinement != nil {
		p, _ := c.Confinement()
		opts = append(opts, WithConfinement(p))
	}
	return opts
}

// Confinement returns the "confine" section as a confine.Policy whose
// Sandbox is empty, and whether the file has one. A host that builds its
// authorizer from this configuration promises to run every shell command
// it is allowed with confine.Start under this policy, Sandbox set to the
// call's sandbox (confine.DefaultPolicy(sandbox) merged with Writable,
// Readable and Network is the usual start): the authorizer then allows
// project code without asking (see WithConfinement).
func (c *Config) Confinement() (confine.Policy, bool) {
	if c.confinement == nil {
		return confine.Policy{}, false
	}
	p := *c.confinement
	p.Writable = slices.Clone(p.Writable)
	if p.Readable != nil {
		p.Readable = append([]string{}, p.Readable...)
	}
	return p, true
}

// WithoutConfinement returns a copy of c without its "confine" section,
// for a host that does not run the commands itself (an agent's hook, a
// tool that only prints decisions): project code is then asked about, as
// it must be when nothing confines it.
func (c *Config) WithoutConfinement() *Config {
	cp := *c
	cp.confinement = nil
	return &cp
}

// NewAuthorizer builds the configured authorizer. opts come after the
// configuration's own options (see Options), so they may override them.
//
// A call that asks a person blocks until its UserRequest is answered, so a
// program must read the returned channel (see the package documentation),
// or say "headless" in the file (or pass WithHeadless) when no person is
// there. A program that does neither is not left waiting forever: unless
// the file sets "promptTimeout" or "headless", its questions are refused
// with ErrPromptTimeout after DefaultPromptTimeout.
//
// With a tool policy ("tools" or "agents"), the authorizer is wrapped in
// NewToolPolicyAuthorizer with the policy resolved for WithToolQuery (the
// zero Query by default) and the shell tool named by WithShellTool or
// WithToolVocabulary, so calls of tools the policy does not give the agent
// are refused; Close then closes both.
//
// The "autoapprove" policy asks nobody: its channel is closed from the
// start, and of opts only those about tools (WithToolQuery, WithShellTool,
// WithToolVocabulary) matter.
func (c *Config) NewAuthorizer(opts ...Option) (Authorizer, <-chan UserRequest, error) {
	return c.NewPolicyAuthorizer(c.policy, nil, opts...)
}

// NewPolicyAuthorizer is NewAuthorizer with another policy (PolicySandbox,
// PolicyPermissive or PolicyAutoApprove) and, unless commands is nil,
// other command lists than Commands(): for a host or a tool that compares
// policies or adjusts the lists in code.
func (c *Config) NewPolicyAuthorizer(policy string, commands *ShellAllowedCommands, opts ...Option) (Authorizer, <-chan UserRequest, error) {
	all := append(c.Options(), opts...)
	o, err := buildOptions(all)
	if err != nil {
		return nil, nil, err
	}
	if commands == nil {
		commands = c.Commands()
	}
	var inner Authorizer
	var ch <-chan UserRequest
	switch policy {
	case PolicyAutoApprove:
		inner = NewAutoApproveAuthorizer()
		closed := make(chan UserRequest)
		close(closed)
		ch = closed
	case PolicyPermissive:
		inner, ch, err = NewPermissiveSandboxAuthorizer(commands, all...)
	case PolicySandbox:
		inner, ch, err = NewSandboxAuthorizer(commands, all...)
	default:
		return nil, nil, invalid(ErrInvalidConfig, "sandboxauth: unknown policy %q (want %q, %q or %q)", policy, PolicySandbox, PolicyPermissive, PolicyAutoApprove)
	}
	if err != nil {
		return nil, nil, err
	}
	if c.tools == nil {
		return inner, ch, nil
	}
	tp, err := c.tools.Resolve(o.toolQuery)
	if err != nil {
		inner.Close()
		return nil, nil, invalid(ErrInvalidConfig, "sandboxauth: tools: %v", err)
	}
	gate := NewToolPolicyAuthorizer(tp, inner, all...).(*toolPolicyAuthorizer)
	return &ownedFallback{toolPolicyAuthorizer: gate, fallback: inner}, ch, nil
}

// ownedFallback is a tool-policy wrapper that owns its fallback: Close
// closes both. Everything else (the Context methods, tool call IDs) is the
// wrapper's.
type ownedFallback struct {
	*toolPolicyAuthorizer
	fallback Authorizer
}

// Close closes the wrapper, then the authorizer it owns.
func (a *ownedFallback) Close() {
	a.toolPolicyAuthorizer.Close()
	a.fallback.Close()
}

// WithToolQuery selects the layers of the configuration's tool policy that
// apply (the agent id, the model provider and model, the subagent depth).
// It is read by Config.NewAuthorizer; the constructors ignore it.
func WithToolQuery(q toolpolicy.Query) Option {
	return func(o *options) error {
		if q.SubagentDepth < 0 {
			return invalid(ErrInvalidConfig, "sandboxauth: WithToolQuery: negative SubagentDepth %d", q.SubagentDepth)
		}
		o.toolQuery = q
		return nil
	}
}

// ConfinePolicy returns the confine.Policy a command of sandbox runs
// under: confine.DefaultPolicy(sandbox), with the "confine" section's
// writable and readable places and network setting, and the configured
// protected paths (the defaults when the file names none) kept from the
// command as ProtectConfinement does. It is what `sandboxauth run` uses.
func (c *Config) ConfinePolicy(sandbox string) confine.Policy {
	p := confine.DefaultPolicy(sandbox)
	if c.confinement != nil {
		// A cache the file makes writable is shared on purpose: no
		// private copy of it.
		p.Private = slices.DeleteFunc(p.Private, func(d string) bool {
			return slices.ContainsFunc(c.confinement.Writable, func(w string) bool { return pathres.Within(w, d) })
		})
		p.Writable = append(p.Writable, c.confinement.Writable...)
		if c.confinement.Readable != nil {
			p.Readable = append([]string{}, c.confinement.Readable...)
		}
		p.Network = c.confinement.Network
	}
	ps := c.protected
	if ps == nil {
		ps = DefaultProtectedPaths()
	}
	rules, err := compileProtected(ps)
	if err != nil {
		// Validated when the file was read; the defaults then.
		rules, _ = compileProtected(DefaultProtectedPaths())
	}
	return protectConfinement(p, rules)
}
