package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth"
)

// configHelp documents --config; it is printed by every subcommand's
// --help.
const configHelp = `
Configuration (--config FILE): the same JSON file the library reads with
sandboxauth.LoadConfig, for example

  {
    "policy": "sandbox",
    "commands": {
      "safe":    {"add": [{"command": "make", "args": ["test"]}], "remove": [{"command": "cat"}]},
      "blocked": {"add": [{"command": "terraform", "reason": "no infrastructure changes"}]}
    },
    "splitCompound": true,
    "protectedPaths": {"add": ["secrets/", {"pattern": "go.sum", "read": false}]},
    "headless": false,
    "promptTimeout": "2m",
    "tools": {"profile": "coding", "deny": ["web_fetch"]},
    "agents": [{"id": "reviewer", "tools": {"deny": ["exec"]}}]
  }

A matcher has "command", "args", "flags", "exceptFlags" and "reason"; a safe
entry that would overrule a blocked one needs "overrideBlocked": true.
Decoding is strict: unknown or duplicate keys, null, wrong types and bad
values are errors naming FILE:LINE:COLUMN and the key, e.g.
  policy.json:7:9: commands.safe.add[1]: the safe entry "curl" would overrule ...
The JSON Schema is config.schema.json in the module's root; the README's
"Configuration" section describes every key.
`

// configFlag adds --config to fs.
func configFlag(fs *flag.FlagSet) *string {
	return fs.String("config", "", "the sandboxauth configuration `FILE` (see Configuration below; default: the built-in defaults)")
}

// loadConfig reads the --config file, or returns the defaults for "".
func loadConfig(path string) (*sandboxauth.Config, error) {
	if path == "" {
		return sandboxauth.ParseConfig([]byte("{}"))
	}
	return sandboxauth.LoadConfig(path)
}

// warnConfig prints the configuration's warnings (Config.Warnings: safe
// entries that make the lists meaningless) on standard error, one a line.
// A file at path named as a project's own (.sandboxauth.json) is also
// warned about for every entry that widens the defaults, first: the hook
// refuses every call while the project's file holds one, whatever this
// subcommand makes of it.
func warnConfig(e *env, fs *flag.FlagSet, cfg *sandboxauth.Config, path string) {
	if filepath.Base(path) == projectConfigName {
		for _, w := range cfg.Widenings() {
			fmt.Fprintf(e.stderr, "%s: warning: the hook refuses every call while a project's %s holds this: %v\n", fs.Name(), projectConfigName, projectWidening(w))
		}
	}
	for _, w := range cfg.Warnings() {
		fmt.Fprintf(e.stderr, "%s: warning: %v\n", fs.Name(), w)
	}
}

// configError prints a configuration error, one entry at fault per line,
// and returns exitUsage.
func configError(e *env, fs *flag.FlagSet, err error) int {
	for _, line := range strings.Split(err.Error(), "\n") {
		if line != "" {
			fmt.Fprintf(e.stderr, "%s: %s\n", fs.Name(), line)
		}
	}
	return exitUsage
}

// policyFor is the policy a subcommand runs: --policy when given, else the
// configuration's.
func policyFor(flagValue string, cfg *sandboxauth.Config) string {
	if flagValue != "" {
		return flagValue
	}
	return cfg.Policy()
}

// commandsFor returns the configuration's command lists, with per-segment
// analysis as --split-compound says (on by default in every subcommand, as
// the hook has it).
func commandsFor(cfg *sandboxauth.Config, split bool) *sandboxauth.ShellAllowedCommands {
	c := cfg.Commands()
	c.SetSplitCompound(split)
	return c
}
