package toolpolicy

import (
	"slices"
	"strings"
	"sync"
)

// Kind says what a tool does to the world, whatever it is called.
type Kind string

// The kinds of tool.
const (
	KindRead   Kind = "read"   // reads files
	KindWrite  Kind = "write"  // creates or overwrites files
	KindEdit   Kind = "edit"   // changes files in place (replace, patch)
	KindShell  Kind = "shell"  // runs commands
	KindSearch Kind = "search" // lists or searches files
	KindOther  Kind = "other"  // anything else (web, sessions, messaging, ...)
)

// Agent names an agent whose tool names the vocabulary knows.
type Agent string

// The agents of the vocabulary.
const (
	AgentClaudeCode Agent = "claude-code"
	AgentGeminiCLI  Agent = "gemini-cli"
	AgentCodex      Agent = "codex"
	AgentOpenClaw   Agent = "openclaw"
)

// Agents returns the agents of the vocabulary.
func Agents() []Agent {
	return []Agent{AgentClaudeCode, AgentGeminiCLI, AgentCodex, AgentOpenClaw}
}

// ToolName is one entry of the vocabulary: a canonical tool name, its
// kind, and the names agents give that tool, spelled as the agents spell
// them (the first name of an agent is the one it uses today).
type ToolName struct {
	Name    string
	Kind    Kind
	Aliases map[Agent][]string
}

// vocabulary is the one table of tool names. Every alias of every agent is
// a default alias of the registry (lower-cased), the kinds build group:fs
// and group:runtime, and the authorizers name the shell tool after it. It
// is never modified: Vocabulary returns a copy. It is built on first use.
var vocabulary = sync.OnceValue(func() []ToolName {
	return []ToolName{
		{"read", KindRead, map[Agent][]string{
			AgentClaudeCode: {"Read"}, AgentGeminiCLI: {"read_file", "read_many_files"}, AgentOpenClaw: {"read"}}},
		{"write", KindWrite, map[Agent][]string{
			AgentClaudeCode: {"Write"}, AgentGeminiCLI: {"write_file"}, AgentOpenClaw: {"write"}}},
		{"edit", KindEdit, map[Agent][]string{
			AgentClaudeCode: {"Edit", "MultiEdit"}, AgentGeminiCLI: {"replace"}, AgentOpenClaw: {"edit"}}},
		{"apply_patch", KindEdit, map[Agent][]string{
			AgentCodex: {"apply_patch"}, AgentOpenClaw: {"apply_patch"}}},
		{"notebook_edit", KindEdit, map[Agent][]string{
			AgentClaudeCode: {"NotebookEdit"}}},
		{"glob", KindSearch, map[Agent][]string{
			AgentClaudeCode: {"Glob"}, AgentGeminiCLI: {"glob"}}},
		{"grep", KindSearch, map[Agent][]string{
			AgentClaudeCode: {"Grep"}, AgentGeminiCLI: {"grep_search", "search_file_content"}}},
		{"ls", KindSearch, map[Agent][]string{
			AgentClaudeCode: {"LS"}, AgentGeminiCLI: {"list_directory"}}},
		{"exec", KindShell, map[Agent][]string{
			AgentClaudeCode: {"Bash"}, AgentGeminiCLI: {"run_shell_command"}, AgentCodex: {"shell"}, AgentOpenClaw: {"exec"}}},
		{"process", KindShell, map[Agent][]string{
			AgentOpenClaw: {"process"}}},
		{"web_fetch", KindOther, map[Agent][]string{
			AgentClaudeCode: {"WebFetch"}, AgentGeminiCLI: {"web_fetch"}, AgentOpenClaw: {"web_fetch"}}},
		{"web_search", KindOther, map[Agent][]string{
			AgentClaudeCode: {"WebSearch"}, AgentGeminiCLI: {"google_web_search"}, AgentOpenClaw: {"web_search"}}},
	}
})

// genericAliases returns the spellings of no particular agent.
func genericAliases() map[string]string {
	return map[string]string{
		"bash":        "exec",
		"apply-patch": "apply_patch",
	}
}

// Vocabulary returns a copy of the table of tool names.
func Vocabulary() []ToolName {
	voc := vocabulary()
	out := make([]ToolName, len(voc))
	for i, t := range voc {
		t.Aliases = make(map[Agent][]string, len(voc[i].Aliases))
		for a, names := range voc[i].Aliases {
			t.Aliases[a] = slices.Clone(names)
		}
		out[i] = t
	}
	return out
}

// vocabularyAliases returns the default alias table: the generic aliases
// and every agent name that differs from its canonical name once
// lower-cased.
func vocabularyAliases() map[string]string {
	m := genericAliases()
	for _, t := range vocabulary() {
		for _, names := range t.Aliases {
			for _, n := range names {
				if l := strings.ToLower(n); l != t.Name {
					m[l] = t.Name
				}
			}
		}
	}
	return m
}

// namesOfKinds returns the canonical names of the given kinds, in table
// order.
func namesOfKinds(kinds ...Kind) []string {
	var out []string
	for _, t := range vocabulary() {
		if slices.Contains(kinds, t.Kind) {
			out = append(out, t.Name)
		}
	}
	return out
}

// KindOf returns the kind of a tool, given by its canonical name or any
// alias ("Bash", "run_shell_command" and "shell" are KindShell), and
// KindOther for a tool the vocabulary does not know.
func KindOf(name string) Kind {
	n, ok := Normalize(name)
	if !ok {
		return KindOther
	}
	for _, t := range vocabulary() {
		if t.Name == n {
			return t.Kind
		}
	}
	return KindOther
}

// AgentToolName returns the name agent gives the tool canonical (its
// current name when it has several), and false when the agent has no such
// tool. AgentToolName(AgentClaudeCode, "exec") is "Bash".
func AgentToolName(agent Agent, canonical string) (string, bool) {
	// A canonical name of the table is its own normal form (no alias names
	// another entry: TestVocabularyIsOneConsistentTable), so the normalizer and its
	// alias table are built only for other spellings: an authorizer that
	// names its shell tool this way (WithToolVocabulary) starts without
	// them.
	voc := vocabulary()
	n := canonical
	if !slices.ContainsFunc(voc, func(t ToolName) bool { return t.Name == canonical }) {
		var ok bool
		if n, ok = Normalize(canonical); !ok {
			return "", false
		}
	}
	for _, t := range voc {
		if t.Name == n {
			names := t.Aliases[agent]
			if len(names) == 0 {
				return "", false
			}
			return names[0], true
		}
	}
	return "", false
}
