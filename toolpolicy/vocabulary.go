package toolpolicy

import (
	"slices"
	"strings"
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
// is static data, never modified: Vocabulary returns it as ToolNames.
var vocabulary = [...]toolEntry{
	{"read", KindRead, agentNames{
		claudeCode: {"Read"}, geminiCLI: {"read_file", "read_many_files"}, openClaw: {"read"}}},
	{"write", KindWrite, agentNames{
		claudeCode: {"Write"}, geminiCLI: {"write_file"}, openClaw: {"write"}}},
	{"edit", KindEdit, agentNames{
		claudeCode: {"Edit", "MultiEdit"}, geminiCLI: {"replace"}, openClaw: {"edit"}}},
	{"apply_patch", KindEdit, agentNames{
		codex: {"apply_patch"}, openClaw: {"apply_patch"}}},
	{"notebook_edit", KindEdit, agentNames{
		claudeCode: {"NotebookEdit"}}},
	{"glob", KindSearch, agentNames{
		claudeCode: {"Glob"}, geminiCLI: {"glob"}}},
	{"grep", KindSearch, agentNames{
		claudeCode: {"Grep"}, geminiCLI: {"grep_search", "search_file_content"}}},
	{"ls", KindSearch, agentNames{
		claudeCode: {"LS"}, geminiCLI: {"list_directory"}}},
	{"exec", KindShell, agentNames{
		claudeCode: {"Bash"}, geminiCLI: {"run_shell_command"}, codex: {"shell"}, openClaw: {"exec"}}},
	{"process", KindShell, agentNames{
		openClaw: {"process"}}},
	{"web_fetch", KindOther, agentNames{
		claudeCode: {"WebFetch"}, geminiCLI: {"web_fetch"}, openClaw: {"web_fetch"}}},
	{"web_search", KindOther, agentNames{
		claudeCode: {"WebSearch"}, geminiCLI: {"google_web_search"}, openClaw: {"web_search"}}},
}

// toolEntry is one entry of the vocabulary, as ToolName holds it, with
// the agents' names by agent index (see agentNames).
type toolEntry struct {
	name  string
	kind  Kind
	names agentNames
}

// agentNames holds the names each agent gives a tool, indexed as Agents
// lists the agents (claudeCode, geminiCLI, codex, openClaw), so that the
// vocabulary is static data: a table of maps would be built by every
// process that names a tool.
type agentNames [4][]string

// The indices of agentNames, in the order of Agents.
const (
	claudeCode = iota
	geminiCLI
	codex
	openClaw
)

// agentIndex returns the index of agent in agentNames, or -1 for an agent
// the vocabulary does not know.
func agentIndex(agent Agent) int {
	for i, a := range Agents() {
		if a == agent {
			return i
		}
	}
	return -1
}

// genericAliases returns the spellings of no particular agent.
func genericAliases() map[string]string {
	return map[string]string{
		"bash":        "exec",
		"apply-patch": "apply_patch",
	}
}

// Vocabulary returns a copy of the table of tool names.
func Vocabulary() []ToolName {
	agents := Agents()
	out := make([]ToolName, len(vocabulary))
	for i := range vocabulary {
		t := &vocabulary[i]
		out[i] = ToolName{Name: t.name, Kind: t.kind, Aliases: map[Agent][]string{}}
		for a, names := range t.names {
			if len(names) > 0 {
				out[i].Aliases[agents[a]] = slices.Clone(names)
			}
		}
	}
	return out
}

// vocabularyAliases returns the default alias table: the generic aliases
// and every agent name that differs from its canonical name once
// lower-cased.
func vocabularyAliases() map[string]string {
	m := genericAliases()
	for i := range vocabulary {
		t := &vocabulary[i]
		for _, names := range t.names {
			for _, n := range names {
				if l := strings.ToLower(n); l != t.name {
					m[l] = t.name
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
	for i := range vocabulary {
		if slices.Contains(kinds, vocabulary[i].kind) {
			out = append(out, vocabulary[i].name)
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
	for i := range vocabulary {
		if vocabulary[i].name == n {
			return vocabulary[i].kind
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
	a := agentIndex(agent)
	if a < 0 {
		return "", false
	}
	n := canonical
	if !slices.ContainsFunc(vocabulary[:], func(t toolEntry) bool { return t.name == canonical }) {
		var ok bool
		if n, ok = Normalize(canonical); !ok {
			return "", false
		}
	}
	for i := range vocabulary {
		if vocabulary[i].name == n {
			names := vocabulary[i].names[a]
			if len(names) == 0 {
				return "", false
			}
			return names[0], true
		}
	}
	return "", false
}
