// Package hookproto speaks the pre-tool hook protocols of the coding agents
// people run (Claude Code, Codex, Gemini CLI, Cursor, GitHub Copilot CLI):
// it decodes the event an agent writes on a hook's standard input into one
// Request, and encodes a Decision as the answer that agent obeys (standard
// output, standard error and exit status).
//
// # Requests
//
// Every agent's event becomes a Request: its Kind (shell, read, write, edit,
// search, other), the tool as the agent named it, the shell command (a
// string meant for `bash -c`, or an argv), the paths the call touches
// (absolute: relative ones are resolved against the event's working
// directory or the tool's own directory argument), the working directory,
// the project directory and the session. Every file named in a Codex
// apply_patch body is among the paths. A search of files' contents (grep,
// read_many_files) is marked Contents, with its glob patterns, so that the
// caller can tell which protected files it may read.
//
// # Failing closed
//
// Agents let a tool call run when a hook crashes, exits 1 or prints nothing
// they understand. So a decoder never guesses: malformed JSON, an event it
// does not know, a missing or mistyped field, a relative working directory
// are errors, and the caller answers them with the agent's explicit deny
// (Agent.Encode with a Deny decision, which is always well-formed). An
// "ask" where the event cannot ask (Codex PreToolUse, Cursor
// beforeReadFile) is encoded as a deny that says a person must approve.
//
// # Rewriting
//
// An allow may carry a Command to run in place of the call's own
// (Decision.Command): the hook uses it to run a shell command confined.
// Only where the agent is documented to run the rewritten command is
// Request.CanRewrite set (Claude Code's Bash tool, through updatedInput);
// everywhere else such a decision is encoded as a refusal, so that the
// original command never runs in place of the one meant.
//
// Each adapter's file cites the documentation or source its protocol
// facts were checked against. Its table of tools is built on first use
// (sync.OnceValue) and never changed: a hook process speaks one protocol.
package hookproto
