package sandboxauth

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// yarn's settings files are kept read-only (see DefaultProtectedPaths),
// but what they name runs as well: the JavaScript file in yarnPath runs in
// place of yarn in every yarn command of the project (.yarnrc.yml for
// yarn 2 and later, yarn-path in .yarnrc for yarn 1, which hands over to
// it too), and the plugins' files are loaded by each. In a project that
// pinned its yarn they are committed files of the project
// (.yarn/releases/yarn-4.5.0.cjs, what `yarn set version` writes): a
// command that rewrites one runs in the user's next `yarn --version`,
// unconfined. So each file a kept settings file names is kept read-only
// too, as the programs named by a repository's configuration are; one
// that is missing gets a placeholder, which yarn fails to run.
//
// The settings are read as the block YAML yarn writes (and yarn 1's
// "key value" lines): top-level keys, yarnPath a scalar, plugins a list
// of paths or of maps with a path. A file that is not understood that
// way (flow style, anchors and aliases, tags, variables in the values, a
// quoted or merged key) may name anything: the directory that holds it
// is then kept read-only whole, and the person fixes it by writing the
// file in block style. A path reached through a symbolic link in the
// sandbox is kept by the directory holding the link, which the command
// then cannot repoint, and by the file the link leads to.

// errYarnSettings says that a yarn settings file is not understood.
var errYarnSettings = errors.New("yarn settings not understood")

// yarnNamedFiles keeps read-only the files that the kept yarn settings
// files among the policy's read-only paths name.
func (c *confinePaths) yarnNamedFiles() {
	for _, ro := range append([]string(nil), c.policy.ReadOnly...) {
		base := strings.ToLower(filepath.Base(ro))
		if base != ".yarnrc.yml" && base != ".yarnrc" {
			continue
		}
		fi, err := os.Lstat(ro)
		if err != nil || !fi.Mode().IsRegular() {
			continue // missing: a placeholder; a link or a directory names nothing yarn reads as settings
		}
		b, err := readSmallFile(ro)
		var named []string
		if err == nil {
			if base == ".yarnrc" {
				named, err = yarnClassicNamed(b)
			} else {
				named, err = yarnBerryNamed(b)
			}
		}
		dir := filepath.Dir(ro)
		if err != nil {
			c.readOnlyBecause(dir, fmt.Sprintf("yarn's settings %s are not understood, so they may name any file that yarn runs, and the directory that holds them is kept read-only whole; write the file as yarn writes it (block YAML, one key a line, or yarn 1's \"yarn-path PATH\" lines)", ro))
			continue
		}
		for _, n := range named {
			if !filepath.IsAbs(n) {
				n = filepath.Join(dir, n)
			}
			c.keepNamed(ro, filepath.Clean(n))
		}
	}
}

// keepNamed keeps the file p read-only when it lies in the sandbox: p
// itself, or, when a symbolic link lies on its way, the directory that
// holds the first link (which the command could repoint) and the file the
// links lead to. A link at the top makes the sandbox itself read-only,
// which confinement refuses: the run fails closed.
func (c *confinePaths) keepNamed(settings, p string) {
	c.keepNamedDepth(settings, p, 0)
}

// keepNamedDepth is keepNamed, depth links followed so far.
func (c *confinePaths) keepNamedDepth(settings, p string, depth int) {
	if !pathres.Within(c.sandbox, p) || p == c.sandbox {
		return
	}
	rel, err := filepath.Rel(c.sandbox, p)
	if err != nil {
		return
	}
	at := c.sandbox
	for _, elem := range strings.Split(rel, string(filepath.Separator)) {
		next := filepath.Join(at, elem)
		fi, err := os.Lstat(next)
		if err != nil {
			break // missing from here on: p gets a placeholder
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			c.readOnlyBecause(at, fmt.Sprintf("yarn's settings %s name %s, which is reached through the symbolic link %s, so the directory that holds the link is kept read-only; name the file itself in the settings", settings, p, next))
			if real, err := pathres.Resolve(p); err == nil && real != p && depth < 8 {
				c.keepNamedDepth(settings, real, depth+1)
			}
			return
		}
		at = next
	}
	c.readOnly(p)
}

// yarnBerryNamed returns the paths a .yarnrc.yml names in yarnPath and
// plugins, or errYarnSettings.
func yarnBerryNamed(b []byte) ([]string, error) {
	var out []string
	inPlugins := false
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff"))))
	sc.Buffer(make([]byte, 0, 4096), len(b)+1)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "\t") {
			return nil, errYarnSettings
		}
		if line == trimmed && !(inPlugins && strings.HasPrefix(line, "-")) { // a top-level line
			inPlugins = false
			if line == "---" {
				continue
			}
			key, value, ok := yamlKey(line)
			if !ok {
				return nil, errYarnSettings
			}
			switch key {
			case "yarnPath":
				v, ok := yamlScalar(value)
				if !ok || v == "" {
					return nil, errYarnSettings
				}
				out = append(out, v)
			case "plugins":
				if value != "" {
					return nil, errYarnSettings
				}
				inPlugins = true
			}
			continue
		}
		if !inPlugins {
			continue // inside another key's block
		}
		item := trimmed
		if strings.HasPrefix(item, "- ") || item == "-" {
			item = strings.TrimLeft(strings.TrimPrefix(item, "-"), " ")
			if item == "" {
				continue // a map on the next lines
			}
			if _, _, isMap := yamlKey(item); !isMap {
				v, ok := yamlScalar(item)
				if !ok || v == "" {
					return nil, errYarnSettings
				}
				out = append(out, v)
				continue
			}
		}
		key, value, ok := yamlKey(item)
		if !ok {
			return nil, errYarnSettings
		}
		if key == "path" {
			v, ok := yamlScalar(value)
			if !ok || v == "" {
				return nil, errYarnSettings
			}
			out = append(out, v)
		}
	}
	if sc.Err() != nil {
		return nil, errYarnSettings
	}
	return out, nil
}

// yamlKey splits a block mapping line "key: value" (the value may be
// empty), the key plain or quoted. It fails on what could make the key
// another (a merge key, a complex key, an anchor, a tag, flow style).
func yamlKey(line string) (key, value string, ok bool) {
	switch {
	case strings.HasPrefix(line, `"`), strings.HasPrefix(line, "'"):
		end := strings.IndexByte(line[1:], line[0])
		if end < 0 || strings.ContainsAny(line[1:end+1], `\`) {
			return "", "", false
		}
		key, line = line[1:end+1], line[end+2:]
		if !strings.HasPrefix(line, ":") {
			return "", "", false
		}
		line = line[1:]
	default:
		i := strings.Index(line, ":")
		if i <= 0 {
			return "", "", false
		}
		key, line = line[:i], line[i+1:]
		if strings.ContainsAny(key[:1], "-?:,[]{}#&*!|>'\"%@`<") || strings.ContainsAny(key, " \t") {
			return "", "", false
		}
	}
	if line != "" && line[0] != ' ' {
		return "", "", false
	}
	return key, strings.TrimSpace(line), true
}

// yamlScalar returns the string a block YAML value stands for when it is
// a plain or quoted scalar without variables (yarn replaces ${NAME}),
// comments trimmed; it fails on anything else.
func yamlScalar(v string) (string, bool) {
	if v == "" {
		return "", true
	}
	switch v[0] {
	case '"', '\'':
		end := strings.IndexByte(v[1:], v[0])
		if end < 0 {
			return "", false
		}
		s, rest := v[1:end+1], strings.TrimSpace(v[end+2:])
		if rest != "" && !strings.HasPrefix(rest, "#") || strings.Contains(s, `\`) || strings.Contains(s, "${") {
			return "", false
		}
		return s, true
	case '&', '*', '!', '|', '>', '[', '{', '%', '@', '`', '?':
		return "", false
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	if strings.Contains(v, "${") || strings.Contains(v, ": ") {
		return "", false
	}
	return v, true
}

// yarnClassicNamed returns the path a .yarnrc of yarn 1 names in
// yarn-path ("yarn-path value", the value quoted or not), or
// errYarnSettings.
func yarnClassicNamed(b []byte) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), len(b)+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		lower := strings.ToLower(line)
		if !strings.Contains(lower, "yarn-path") && !strings.Contains(lower, "yarnpath") {
			continue
		}
		// A line that names the setting in another form than KEY VALUE
		// (yarn 1 also reads "yarn-path: x", "a, yarn-path x",
		// "\"yarn-path\":\"x\"" and yarnPath) is not understood here:
		// fail closed.
		key, value, _ := strings.Cut(line, " ")
		key = strings.ToLower(strings.TrimLeft(strings.Trim(key, `"`), "-"))
		if key != "yarn-path" && key != "yarnpath" {
			return nil, errYarnSettings
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		if value == "" || strings.ContainsAny(value, `"\$`) {
			return nil, errYarnSettings
		}
		out = append(out, value)
	}
	if sc.Err() != nil {
		return nil, errYarnSettings
	}
	return out, nil
}
