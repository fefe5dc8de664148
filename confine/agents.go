package confine

import "path/filepath"

// codingAgent is where a coding agent keeps what it must not show a
// command it runs: its tokens, the settings that hold its tool servers'
// keys, and its logs: session transcripts (the output of every tool call:
// a .env the user let it read once, an `env` listing), prompt histories
// (a token pasted into the prompt), the shell snapshots it takes of the
// user's environment, copies of the files it edited, and the tokens of its
// editor integration.
type codingAgent struct {
	// homes are its directories beneath the user's home.
	homes []string
	// env names the variable that moves its directory, if any.
	env string
	// entries are the paths in its directory that hold secrets; none
	// means the whole directory. What the user wrote for the agent
	// (skills and their scripts, commands, subagents, plugins) stays in
	// sight: the model runs those scripts through the command line.
	entries []string
}

// codingAgents are the coding agents whose directories DefaultPolicy
// knows.
func codingAgents() []codingAgent {
	geminiLike := []string{"oauth_creds.json", "google_accounts.json", ".env", "settings.json",
		"mcp-oauth-tokens.json", "tmp", "history"}
	return []codingAgent{
		// Claude Code (~/.config/claude since 1.0.30, ~/.claude before).
		{homes: []string{".claude", ".config/claude"}, env: "CLAUDE_CONFIG_DIR", entries: []string{
			".credentials.json", ".claude.json", "settings.json", "settings.local.json", "projects",
			"history.jsonl", "shell-snapshots", "ide", "file-history", "todos", "debug",
			"session-env", "paste-cache", "backups", "plans"}},
		// Codex.
		{homes: []string{".codex"}, env: "CODEX_HOME", entries: []string{
			"auth.json", ".credentials.json", "config.toml", ".env", "sessions", "archived_sessions",
			"history.jsonl", "log", "shell_snapshots"}},
		// Gemini CLI and Qwen Code, its fork.
		{homes: []string{".gemini"}, entries: geminiLike},
		{homes: []string{".qwen"}, entries: geminiLike},
		// Droid.
		{homes: []string{".factory"}, entries: []string{
			"auth.json", "config.json", "settings.json", "mcp.json", "sessions", "history",
			"history.json", "logs"}},
		// Amp, Goose, Crush, opencode, Cline's command line, Cursor's.
		{homes: []string{".local/share/amp", ".cache/amp", ".local/share/goose", ".local/state/goose",
			".config/goose", ".local/share/crush", ".config/crush", ".local/share/opencode",
			".cline", ".config/cursor", ".cursor", ".aider", ".continue", ".copilot",
			".config/github-copilot", ".tabby-client"}},
		{homes: []string{".config/amp"}, entries: []string{"settings.json"}},
		// Windsurf's and Kiro's tool servers, Augment's command line's
		// session, Zed's agent threads.
		{homes: []string{".codeium/windsurf"}, entries: []string{"mcp_config.json"}},
		{homes: []string{".kiro"}, entries: []string{"settings/mcp.json"}},
		{homes: []string{".augment"}},
		{homes: []string{".local/share/zed"}, entries: []string{"threads"}},
		// Editors' agents: VS Code's tool servers and Copilot Chat's
		// sessions (in each workspace's storage), Windsurf's state (its
		// globalStorage, as VS Code's and Cursor's in homeCredentials),
		// Claude Desktop's tool servers.
		{homes: []string{".config/Code/User"}, entries: []string{"mcp.json", "workspaceStorage"}},
		{homes: []string{".config/Windsurf/User"}, entries: []string{"globalStorage", "History", "workspaceStorage"}},
		{homes: []string{".config/Claude"}},
		{homes: []string{".config/opencode"}, entries: []string{"opencode.json", "opencode.jsonc"}},
		// Model providers' command-line tools.
		{homes: []string{".config/aichat", ".config/shell_gpt"}},
		{homes: []string{".config/fabric"}, entries: []string{".env"}},
		{homes: []string{".config/io.datasette.llm"}, entries: []string{"keys.json", "logs.db"}},
		{homes: []string{".ollama"}, entries: []string{"id_ed25519", "history"}},
	}
}

// agentCredentials returns the places of codingAgents beneath home
// (relative to it when home is "").
func agentCredentials(home string) []string {
	var out []string
	for _, a := range codingAgents() {
		for _, h := range a.homes {
			out = append(out, agentEntries(filepath.Join(home, h), a.entries)...)
		}
	}
	return out
}

// agentEntries returns entries beneath dir, or dir itself when there are
// none.
func agentEntries(dir string, entries []string) []string {
	if len(entries) == 0 {
		return []string{dir}
	}
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, filepath.Join(dir, e))
	}
	return out
}
