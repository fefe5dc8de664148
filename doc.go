// Package sandboxauth decides whether an LLM agent's tool call may run.
//
// Before a tool reads a file, writes one or runs a shell command, it asks an
// [Authorizer]. The answer is nil (run), an error (do not run; the message is
// written for the model), or a question for a person, which the authorizer
// sends on its channel of [UserRequest] values and waits for, so that the
// call returns once the person has answered.
//
// # Policies
//
//   - [NewSandboxAuthorizer]: reads and writes inside the sandbox directory
//     only; nothing outside, even with permission; safe commands run, blocked
//     ones are refused, and so are commands that write, create or delete
//     outside the sandbox (rm -rf ~, cp x /etc/hosts; see
//     [Classification].WritesOutside); everything else is asked about.
//   - [NewPermissiveSandboxAuthorizer]: the sandbox is free; a person is asked
//     about anything outside it and whenever the model requests permission;
//     unlisted commands run.
//   - [NewAutoApproveAuthorizer]: everything runs; nobody is asked.
//   - [NewCodeUnitAuthorizer]: a wrapper that confines writes, and reads by
//     the read_file, ls, diagnostics and run_tests tools (and searches with
//     [WithCodeUnitSearch]), to a [codeunit.CodeUnit] and defers everything
//     else to another authorizer.
//   - [NewToolPolicyAuthorizer]: a wrapper that refuses the tools a
//     [toolpolicy.Policy] does not give the agent, under the agent's own tool
//     names ([WithToolVocabulary], [WithShellTool]).
//
// Nil commands given to the Sandbox and Permissive constructors mean the
// default lists ([NewShellAllowedCommands]).
//
// # Configuration
//
// [LoadConfig] reads one JSON file (the policy, edits of the default command
// lists and protected paths, compound splitting, headless mode, the prompt
// timeout and the tool policy) and [Config.NewAuthorizer] builds the
// authorizer it describes. Decoding is strict: an unknown or duplicate key,
// a wrong type or a bad value is a [ConfigError] naming the file, line,
// column and key (every one of them is reported), and a safe entry may not
// overrule a blocked one unless it says "overrideBlocked". Comments and
// trailing commas (JSONC) are accepted. [Config.Warnings] names the safe
// entries that make the lists meaningless (a shell, python3 -c, find). An
// authorizer built from a file that sets neither "headless" nor
// "promptTimeout" refuses a question nobody answers after
// [DefaultPromptTimeout]. The sandboxauth command reads the same file with
// --config.
//
// # Paths
//
// The sandbox directory and every path must be absolute. Containment is
// decided on real paths: symbolic links are resolved component by component
// as the kernel resolves them (a ".." after a link leads to the parent of the
// link's target; dangling links are followed; a missing tail is resolved from
// its nearest existing ancestor), and the sandbox directory is resolved too. A
// path is inside when both its resolution and the resolution of its lexically
// cleaned form lie in the resolved sandbox. One path outside in a list makes
// the whole call outside. A read or write call with no path at all names
// nothing to read or write, so there is nothing to refuse: it returns nil,
// and that nil covers no path.
//
// # Shell commands
//
// A command is an argv run directly, as os/exec runs it; shell syntax means
// something only inside a shell wrapper such as bash -c SCRIPT, whose script is
// parsed. [ShellAllowedCommands] sorts a command into one of five classes
// (safe, blocked, dangerous, inscrutable, none); see its documentation.
//
// # Errors
//
// Every refusal matches [ErrDenied] with errors.Is, and one more specific
// sentinel: [ErrOutsideSandbox], [ErrBlockedCommand], [ErrOutsideCodeUnit],
// [ErrAuthorizationDenied], [ErrPromptTimeout], [ErrToolNotPermitted],
// [ErrNoUser], [ErrCallCanceled] or [ErrAuthorizerClosed]. Malformed calls ([ErrEmptyCommand],
// [ErrInvalidCommand], [ErrInvalidPath]) and bad configuration
// ([ErrInvalidConfig]) are errors that do not match ErrDenied, and never
// authorize anything.
//
// # Concurrency
//
// Every authorizer and [ShellAllowedCommands] is safe for concurrent use.
// Close releases every waiting call with ErrAuthorizerClosed, closes the
// channel of requests and refuses every later call.
//
// A call that asks a person blocks until the person answers, so tool calls
// must run on goroutines other than the one that reads the channel of
// requests; calling a tool from that loop deadlocks. Every authorizer also
// implements [ContextAuthorizer]: cancelling the context of a call withdraws
// its pending question and returns [ErrCallCanceled].
package sandboxauth
