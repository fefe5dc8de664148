// Package toolpolicy decides which tools an agent, a model provider or a
// subagent may use at all, before any call is made.
//
// # Names
//
// Every tool name and every pattern goes through one normalizer: surrounding
// white space is trimmed, ASCII letters are lower-cased, and aliases are
// resolved (by default the agents' names of the vocabulary below, "bash" →
// "exec" and "apply-patch" → "apply_patch"; a [Registry] can add more). A
// canonical tool name is 1 to 128 bytes of a-z, 0-9, '_', '-', '.' and ':',
// and does not start with "group:". Any other name (empty, non-ASCII,
// containing a space, a '*', …) is never allowed; [Policy.Explain] reports
// it as [RuleInvalidName].
//
// # Vocabulary
//
// One table ([Vocabulary]) names the tools agents have in common, gives each
// a [Kind] (read, write, edit, shell, search, other) and lists what each
// agent calls it:
//
//	canonical      kind    Claude Code       Gemini CLI                          Codex        OpenClaw
//	read           read    Read              read_file, read_many_files                       read
//	write          write   Write             write_file                                       write
//	edit           edit    Edit, MultiEdit   replace                                          edit
//	apply_patch    edit                                                          apply_patch  apply_patch
//	notebook_edit  edit    NotebookEdit
//	glob           search  Glob              glob
//	grep           search  Grep              grep_search, search_file_content
//	ls             search  LS                list_directory
//	exec           shell   Bash              run_shell_command                   shell        exec
//	process        shell                                                                      process
//	web_fetch      other   WebFetch          web_fetch                                        web_fetch
//	web_search     other   WebSearch         google_web_search                                web_search
//
// Every agent's name is an alias of the canonical name, so a policy written
// in one agent's names applies to every agent: a deny of "Bash" refuses
// "run_shell_command", "shell" and "exec". group:fs holds the tools of kind
// read, write, edit and search, group:runtime those of kind shell.
// [AgentToolName] gives an agent's name of a tool (Claude Code's shell tool
// is "Bash"), which the sandboxauth authorizers use to name the shell tool
// as the agent calls it; [KindOf] gives the kind of any name.
//
// # Patterns
//
// A pattern is one of:
//
//   - "*": every tool;
//   - an exact name, such as "exec" (aliases apply, so "bash" means "exec");
//   - a wildcard, where '*' stands for any run of characters, possibly empty,
//     anywhere in the pattern: "fs_*", "*_read", "*test*", "a*b*c". '*' is
//     the only wildcard. Two adjacent stars are rejected as malformed, since
//     "**" would suggest a recursive glob that does not exist here.
//     Wildcards match canonical names: aliases are resolved before matching,
//     so "ba*" does not match "bash" (which is "exec");
//   - "group:NAME": the members of a registered group. A group reference
//     cannot contain a wildcard, and an unknown group is an error.
//
// Patterns are compiled once, when a configuration is loaded or a policy
// is built. Matching uses no regular expressions: exact names and group
// members are looked up in a map, and wildcards are indexed by their
// literal prefix (a trie), their literal suffix (a trie of reversed
// suffixes) or a piece of one of their middle literals (a table of four-,
// two- or one-byte grams), and then checked segment by segment.
//
// # Layers
//
// A policy is a stack of layers. Each layer has a deny list and an optional
// allow list:
//
//   - a tool matched by the layer's deny list is refused by the layer;
//   - otherwise, a layer without an allow list (nil) does not restrict;
//   - otherwise, the tool must be matched by the allow list. An explicit
//     empty allow list allows nothing.
//
// The effective policy is the intersection of its layers: a tool is allowed
// directly when no layer denies it, every allow list matches it, AND at
// least one layer has an allow list. With no allow list anywhere (and no
// profile, which is an allow list), the policy denies everything. Deny is
// evaluated before allow and always wins: a deny in any layer cannot be
// undone by an allow in any other layer or by a related-tool grant. A later
// layer can therefore only narrow.
//
// # Related tools
//
// An explicit table (by default: "exec" grants "apply_patch") lets an
// allowed tool bring a related one with it. The grant is decided layer by
// layer, as each layer's allow list is: a layer whose allow list matches a
// tool that grants "apply_patch" (by name, by "*", by a group or by a
// wildcard such as "e*") lets "apply_patch" pass that layer as if it were
// listed. So a global allow list of "exec" and an agent allow list of
// "apply_patch" allow "apply_patch". A grant is never stronger than a deny:
// a deny of "apply_patch" in any layer excludes it, and a granter that any
// layer denies grants nothing (the pattern this package follows leaves that
// case open; refusing is the closed choice). Grants are one level deep; they
// do not chain.
//
// # Plugins
//
// [Registry.AddPlugin] registers a plugin's tools under its id: the group
// "group:ID", the plain id itself in any allow or deny list (so "deny":
// ["weather"] denies every tool of the plugin weather), and "group:plugins"
// for the tools of every plugin. A plugin id is not a tool name.
//
// # Configuration
//
// A JSON configuration (see [ConfigFile]) yields these layers, in order:
//
//  1. profile: the agent's "profile" if it sets one, otherwise the global
//     tools.profile. The agent's profile REPLACES the global one; it is the
//     only field that overrides rather than intersects. Profiles are named
//     allow/deny lists: "minimal", "coding", "messaging" and "full" (allow
//     every tool) by default.
//  2. global: tools.allow and tools.deny.
//  3. provider: tools.byProvider["PROVIDER/MODEL"] if that key exists,
//     otherwise tools.byProvider["PROVIDER"]. Only one entry is used: the
//     model entry replaces the provider entry; it does not add to it. Keys
//     are trimmed and lower-cased; the key is split at its first '/'.
//  4. agent: agents[].tools.allow and .deny of the agent whose id matches.
//     Agent ids are canonicalized like tool names (trimmed, lower-cased), in
//     the file and in [Query.AgentID], so "Coder" and "coder" are one agent
//     and two ids that differ only in case are an error. An id with no entry
//     contributes no agent layer (and keeps the global profile); when the
//     configuration lists agents, [Policy.Explain] reports such an id in
//     Decision.Warning, because a misspelt id loses the agent's deny list.
//  5. subagent: for each level of subagent nesting, one layer whose deny list
//     is the registry's default subagent deny list (sessions_list,
//     sessions_history, sessions_send, sessions_spawn, gateway, agents_list,
//     session_status, cron) plus tools.subagents.tools.deny, and whose allow
//     list is tools.subagents.tools.allow (absent by default). A subagent of
//     a subagent gets the layer once more, and [Policy.Subagent] adds any
//     further layer; a child never gains a tool its parent lacks.
//
// Decoding is strict: unknown fields, duplicate keys, null lists, trailing
// data, blank entries, unknown groups and profiles and malformed patterns
// are errors that name the offending entry, such as
// tools.byProvider["openai"].deny[2]: unknown group "group:fz". Nothing is
// ever dropped, so a typo can never turn an allow list into "allow all".
// [Config.Lint] additionally reports, against a catalogue of known tool
// names, the patterns that match no tool.
//
// # Default groups
//
//	group:fs         read, write, edit, apply_patch, notebook_edit, glob, grep, ls
//	group:runtime    exec, process
//	group:sessions   sessions_list, sessions_history, sessions_send, sessions_spawn
//	group:memory     memory_search, memory_get
//	group:web        web_search, web_fetch
//	group:messaging  message
//	group:platform   browser, canvas, nodes, cron, message, gateway,
//	                 agents_list, session_status, image
//
// group:platform holds the tools the host platform itself provides to its
// agents (browser control, canvases, device nodes, scheduling, messaging,
// gateway administration, agent listing, session status, images).
//
// # Explanations
//
// [Policy.Explain] reports the verdict with the layer and the rule that
// decided it. Deny lists are searched first, in layer order, so a refusal
// by a deny rule is reported as such even when an earlier layer's allow
// list does not list the tool either. Otherwise a refusal names the first
// layer whose allow list misses the tool ([RuleNotListed]), or
// [RuleDefaultDeny] when no layer has an allow list; a grant names the
// first layer with an allow list and the rule in it that matched, or the
// granting tool for [RuleRelated].
//
// # Use
//
// A [Policy] is immutable and safe for concurrent use; a nil *Policy
// allows nothing. [Policy.Allowed] allocates nothing for a canonical name.
// Every name that some exact rule or group mentions has its verdict
// computed when the policy is built, so deciding it costs one map lookup;
// any other name walks the wildcard index. [Policy.WithCatalogue]
// precomputes the verdicts of a known list of tools as well. Resolve a
// policy once per agent session and reuse it.
package toolpolicy
