package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/hookproto"
	"github.com/sandboxauth/sandboxauth/internal/strictjson"
)

// hookTimeout is the time, in seconds, an agent gives the hook. A call
// takes milliseconds; an agent that lets a timed-out hook's call run is
// exposed for no longer than this.
const hookTimeout = 10

// hookTarget is where and how one agent registers a pre-tool hook.
type hookTarget struct {
	projectFile string // relative to the project directory
	userFile    string // relative to the home directory
	// entries returns, for each event to hook, the entry to add under
	// hooks.EVENT, for the hook command cmd.
	entries func(cmd string) []hookEntry
	// version, when set, is the value the file's "version" must have.
	version string
}

// hookEntry is one entry to append to the list hooks[event].
type hookEntry struct {
	event string
	value *jsonObject
}

// obj builds a jsonObject from alternating keys and values.
func obj(kv ...any) *jsonObject {
	o := newJSONObject()
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

// hookTargets are the agents' settings files and entries, with the
// fail-closed settings each agent offers: Claude Code's onFailure "block"
// (a hook that cannot start, times out or exits oddly blocks the call),
// Cursor's failClosed. Codex, Gemini CLI and Copilot CLI let a call run
// when its hook times out; the short timeout bounds that.
func hookTargets() map[string]hookTarget {
	return map[string]hookTarget{
		"claude-code": {
			projectFile: ".claude/settings.json",
			userFile:    ".claude/settings.json",
			entries: func(cmd string) []hookEntry {
				return []hookEntry{{"PreToolUse", obj("matcher", "*", "hooks", []any{
					obj("type", "command", "command", cmd, "timeout", hookTimeout, "onFailure", "block"),
				})}}
			},
		},
		"codex": {
			projectFile: ".codex/hooks.json",
			userFile:    ".codex/hooks.json",
			entries: func(cmd string) []hookEntry {
				return []hookEntry{{"PreToolUse", obj("matcher", "*", "hooks", []any{
					obj("type", "command", "command", cmd, "timeout", hookTimeout),
				})}}
			},
		},
		"gemini-cli": {
			projectFile: ".gemini/settings.json",
			userFile:    ".gemini/settings.json",
			entries: func(cmd string) []hookEntry {
				return []hookEntry{{"BeforeTool", obj("matcher", ".*", "hooks", []any{
					obj("type", "command", "name", "sandboxauth", "command", cmd, "timeout", hookTimeout*1000),
				})}}
			},
		},
		"cursor": {
			projectFile: ".cursor/hooks.json",
			userFile:    ".cursor/hooks.json",
			version:     "1",
			entries: func(cmd string) []hookEntry {
				var out []hookEntry
				for _, ev := range []string{"beforeShellExecution", "beforeReadFile", "preToolUse"} {
					out = append(out, hookEntry{ev, obj("command", cmd, "timeout", hookTimeout, "failClosed", true)})
				}
				return out
			},
		},
		"copilot": {
			projectFile: ".github/hooks/sandboxauth.json",
			userFile:    ".copilot/hooks/sandboxauth.json",
			version:     "1",
			entries: func(cmd string) []hookEntry {
				return []hookEntry{{"preToolUse", obj("type", "command", "bash", cmd, "timeoutSec", hookTimeout)}}
			},
		},
	}
}

const hookInstallDescription = `Register "sandboxauth hook" with an agent: merge its entry into the agent's
settings file, keeping everything already there (other settings, other
hooks, the order of keys). Installing twice changes nothing.

  claude-code  .claude/settings.json         PreToolUse, onFailure "block"
  codex        .codex/hooks.json             PreToolUse
  gemini-cli   .gemini/settings.json         BeforeTool
  cursor       .cursor/hooks.json            beforeShellExecution, beforeReadFile,
                                             preToolUse, failClosed
  copilot      .github/hooks/sandboxauth.json (user: ~/.copilot/hooks/)  preToolUse

--project (the default) writes below --dir; --user writes below the home
directory. Every entry has a 10-second timeout. A settings file that is not
a JSON object, holds duplicate keys, or has a "hooks" member of another
shape is left alone and reported.
`

// runHookInstall is "hook install".
func runHookInstall(e *env, args []string) int {
	fs := newFlagSet(e, "hook install", "--for AGENT [--project|--user] [--dir DIR] [--dry-run]", hookInstallDescription, []string{
		"sandboxauth hook install --for claude-code",
		"sandboxauth hook install --for cursor --user --dry-run",
	})
	agent := fs.String("for", "", "the agent: "+strings.Join(hookproto.Names(), ", "))
	project := fs.Bool("project", false, "install in the project's settings (the default)")
	user := fs.Bool("user", false, "install in the user's settings, below the home directory")
	dir := fs.String("dir", ".", "the project directory, with --project")
	dryRun := fs.Bool("dry-run", false, "print the file that would be written, write nothing")
	program := fs.String("program", "sandboxauth", "the sandboxauth program the agent runs (a name on PATH or an absolute path)")
	if code, done := parseFlags(e, fs, args); done {
		return code
	}
	target, ok := hookTargets()[*agent]
	if !ok {
		return usageError(e, fs, "--for must name one of %s", strings.Join(hookproto.Names(), ", "))
	}
	if fs.NArg() > 0 || (*project && *user) {
		return usageError(e, fs, "give either --project or --user, and no arguments")
	}
	var path string
	if *user {
		home, err := os.UserHomeDir()
		if err != nil {
			return inputError(e, fs, "home directory: %v", err)
		}
		path = filepath.Join(home, target.userFile)
	} else {
		abs, err := filepath.Abs(*dir)
		if err != nil {
			return inputError(e, fs, "%v", err)
		}
		path = filepath.Join(abs, target.projectFile)
	}
	cmd := *program + " hook --for " + *agent
	out, changed, err := mergeHookSettings(path, target, cmd)
	if err != nil {
		var se *settingsSyntaxError
		if errors.Is(err, errSettingsJSONC) {
			return inputError(e, fs, "%s: %v: remove them and run this again, or add the hook entry yourself (the README's snippet for %s, or this command with --dry-run and --dir naming an empty directory prints it)", path, err, *agent)
		}
		if errors.As(err, &se) {
			return inputError(e, fs, "%s:%v", path, err) // PATH:LINE:COLUMN: ...
		}
		return inputError(e, fs, "%s: %v", path, err)
	}
	if _, err := exec.LookPath(*program); err != nil {
		fmt.Fprintf(e.stderr, "warning: %q is not found on PATH here; the agent must find it, or its hook fails (pass --program with an absolute path)\n", *program)
	}
	switch {
	case !changed:
		fmt.Fprintf(e.stdout, "%s: the hook is already installed; nothing to do\n", path)
	case *dryRun:
		fmt.Fprintf(e.stdout, "would write %s:\n%s", path, out)
	default:
		if err := writeFileAtomic(path, out); err != nil {
			return inputError(e, fs, "%v", err)
		}
		fmt.Fprintf(e.stdout, "wrote %s\n", path)
	}
	return exitOK
}

// mergeHookSettings returns the settings file at path with the hook
// entries of target added, and whether anything was added.
func mergeHookSettings(path string, target hookTarget, cmd string) ([]byte, bool, error) {
	doc := newJSONObject()
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		if len(bytes.TrimSpace(data)) > 0 {
			if doc, err = parseJSONObject(data); err != nil {
				return nil, false, settingsError(data, err)
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, err
	}
	if target.version != "" {
		v, ok := doc.get("version")
		if !ok {
			doc.set("version", json.Number(target.version))
		} else if fmt.Sprint(v) != target.version {
			return nil, false, fmt.Errorf("\"version\" is %v; this installer writes version %s files", v, target.version)
		}
	}
	hooksV, ok := doc.get("hooks")
	if !ok {
		hooksV = newJSONObject()
		doc.set("hooks", hooksV)
	}
	hooks, ok := hooksV.(*jsonObject)
	if !ok {
		return nil, false, errors.New(`"hooks" is not a JSON object`)
	}
	changed := false
	for _, entry := range target.entries(cmd) {
		listV, ok := hooks.get(entry.event)
		if !ok {
			listV = []any{}
		}
		list, ok := listV.([]any)
		if !ok {
			return nil, false, fmt.Errorf("hooks.%s is not a list", entry.event)
		}
		if mentionsCommand(list, cmd) {
			continue
		}
		hooks.set(entry.event, append(list, entry.value))
		changed = true
	}
	return doc.encode(), changed, nil
}

// settingsSyntaxError is a settings file's JSON syntax error, located.
type settingsSyntaxError struct {
	line, column int
	err          error
}

func (e *settingsSyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %v", e.line, e.column, e.err)
}

// errSettingsJSONC is the error for a settings file with comments or
// trailing commas, which a rewrite would drop.
var errSettingsJSONC = errors.New("has comments or trailing commas, which rewriting it would lose, so nothing was written")

// settingsError explains why the settings file data, which parseJSONObject
// refused with err, cannot be merged into: comments or trailing commas
// (JSONC) are errSettingsJSONC; a syntax error is located.
func settingsError(data []byte, err error) error {
	if _, plain := parseJSONObject(strictjson.StripComments(data)); plain == nil {
		return errSettingsJSONC
	}
	// The configuration's own decoder locates a syntax error (and takes
	// no offence at duplicate keys or trailing data, reported as they are).
	var located *strictjson.Error
	if _, perr := strictjson.Parse(data, &strictjson.Node{Kind: strictjson.Raw}); errors.As(perr, &located) && located.Line > 0 {
		return &settingsSyntaxError{line: located.Line, column: located.Column, err: located.Err}
	}
	return err
}

// mentionsCommand reports whether some string anywhere in v equals cmd:
// the hook is registered already, in whatever entry shape.
func mentionsCommand(v any, cmd string) bool {
	switch t := v.(type) {
	case string:
		return t == cmd
	case []any:
		for _, e := range t {
			if mentionsCommand(e, cmd) {
				return true
			}
		}
	case *jsonObject:
		for _, k := range t.keys {
			if mentionsCommand(t.vals[k], cmd) {
				return true
			}
		}
	}
	return false
}

// writeFileAtomic replaces path with data: a temporary file in the same
// directory, renamed over it, so that an agent never reads half a file.
// An existing file's permissions are kept.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
