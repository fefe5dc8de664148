package sandboxauth

import (
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// Per-segment analysis judges every command of a script before any runs,
// against the file system as it is now. A command that writes changes
// what the later ones meet: `touch -- --checkpoint-action=exec=sh\ x`
// makes a later `tar -tf a.tar *` run a program, `ln -s ~/.ssh/id_rsa k`
// makes a later `cat k` read outside, a redirection into .git/config makes
// a later `git status` run one. So once a segment may write (a writing
// redirection, a program that writes or runs project code, or anything not
// known to be read-only), the segments after it, and those of the same
// pipeline, are judged without trusting the file system: a path, a glob, a
// cd, a PATH directory inside the sandbox or the repository git would use
// makes them dangerous (asked about), whatever the tree says now. Segments
// that touch no file (echo, tail reading a pipe) keep their class, so
// `go test ./... 2>&1 | tail -5` and `ls && git status && cat README.md`
// stay safe.

// untrustedVerdict is the answer for a segment whose safety would rest on
// a file-system fact that an earlier segment may have changed.
func untrustedVerdict(what, why string) cmdVerdict {
	return mkVerdict(CommandCheckResultDangerous, "rule: file system changed by an earlier segment: "+what,
		"an earlier command of the script may write files, so "+what+" is not judged by what it is now: "+why+
			"; run the writing command on its own first, then this one")
}

// segmentWrites reports whether a script command, classified v, may
// change the file system that later segments see.
func segmentWrites(c shell.Command, v cmdVerdict) bool {
	if v.res != CommandCheckResultSafe {
		return true // not safe anyway; nothing is assumed about it
	}
	for _, rd := range c.Redirs {
		if rd.Writes() && !isHarmlessDevice(rd.Target) {
			return true
		}
	}
	if len(c.Args) == 0 {
		return false // a shell variable assignment
	}
	switch c.Args[0] {
	case "cd", "pushd", "popd":
		return false
	}
	return !readOnlyArgv(v.argv)
}

// readOnlyPrograms write no file and run no project code, whatever their
// safe arguments (the unsafe ones, such as sort -o or sed -i, do not make
// a command safe in the first place).
var readOnlyPrograms = map[string]bool{
	"[": true, "test": true, "true": true, "false": true, "echo": true, "printf": true, "pwd": true,
	"cat": true, "head": true, "tail": true, "wc": true, "grep": true, "egrep": true, "fgrep": true,
	"rg": true, "sort": true, "expr": true, "sleep": true, "logname": true, "nproc": true, "tty": true,
	"uname": true, "whoami": true, "stat": true, "cmp": true, "comm": true, "cut": true, "tr": true,
	"nl": true, "od": true, "hexdump": true, "strings": true, "base32": true, "base64": true, "df": true,
	"id": true, "seq": true, "basename": true, "dirname": true, "realpath": true, "readlink": true,
	"which": true, "whereis": true, "type": true, "column": true, "expand": true, "unexpand": true,
	"fold": true, "fmt": true, "paste": true, "join": true, "rev": true, "tac": true, "tsort": true,
	"numfmt": true, "arch": true, "locale": true, "uptime": true, "groups": true, "getconf": true,
	"cal": true, "jq": true, "eza": true, "exa": true, "lsd": true, "ls": true, "shellcheck": true,
	"wait": true, "dircolors": true, "look": true, "factor": true, "du": true, "md5sum": true,
	"sha1sum": true, "sha224sum": true, "sha256sum": true, "sha384sum": true, "sha512sum": true,
	"shasum": true, "cksum": true, "b2sum": true, "sum": true, "diff": true, "set": true, "date": true, "find": true, "sed": true, "awk": true,
	"gawk": true, "mawk": true, "nawk": true, "fd": true, "bat": true, "zipinfo": true, "env": true,
	"printenv": true,
}

// readOnlyFormText lists programs read-only only in some forms: the words
// after the program name (after git's global options) must begin with one
// of these.
var readOnlyFormText = map[string][]string{
	"git": {"status", "diff", "log", "show", "whatchanged", "diff-tree", "diff-index", "diff-files", "range-diff",
		"shortlog", "blame", "annotate", "grep", "rev-parse", "rev-list", "ls-files", "ls-tree", "cat-file",
		"describe", "name-rev", "merge-base", "show-ref", "for-each-ref", "count-objects", "check-ignore",
		"check-attr", "version", "--version", "reflog", "stash list", "stash show", "worktree list",
		"submodule status", "config --get", "config --get-all", "config --get-regexp", "config --list",
		"config -l", "config get", "config list", "var"},
	"go":      {"vet", "list", "version", "env", "doc", "help", "mod verify", "mod edit -json", "mod edit -print"},
	"cargo":   {"--version", "version"},
	"node":    {"--version", "-v"},
	"npm":     {"--version", "-v", "ls"},
	"python":  {"--version", "-V"},
	"rustc":   {"--version"},
	"command": {"-v", "-V"},
	"tar":     {"t"}, // any first word that selects --list: tarListing
	"unzip":   {"-l", "-v", "-Z", "-t"},
}

// readOnlyForms is readOnlyFormText split into words, once.
var readOnlyForms = func() map[string][][]string {
	m := make(map[string][][]string, len(readOnlyFormText))
	for name, forms := range readOnlyFormText {
		for _, f := range forms {
			m[name] = append(m[name], strings.Fields(f))
		}
	}
	return m
}()

// readOnlyArgv reports whether argv (a safe command, wrappers looked
// through) is known to write nothing and run no project code.
func readOnlyArgv(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	name := commandBase(argv[0])
	if readOnlyPrograms[name] {
		return true
	}
	forms, ok := readOnlyForms[versionless(name)]
	if !ok {
		return false
	}
	args := argv[1:]
	if name == "git" {
		norm, _, problem := gitGlobals(argv)
		if problem != "" {
			return false
		}
		args = norm[1:]
	}
	for _, words := range forms {
		if len(args) < len(words) {
			continue
		}
		match := true
		for i, w := range words {
			a := args[i]
			if name == "tar" && i == 0 {
				// tar -tf, tf, -tvzf, --list: a bundle holding t and no
				// other operation letter.
				match = tarListing(a)
				break
			}
			if a != w {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// tarListing reports whether a is tar's first word selecting --list and no
// writing operation.
func tarListing(a string) bool {
	if a == "--list" {
		return true
	}
	b := strings.TrimPrefix(a, "-")
	if b == "" || strings.HasPrefix(b, "-") {
		return false
	}
	return strings.IndexByte(b, 't') >= 0 && !strings.ContainsAny(b, "cruxA")
}
