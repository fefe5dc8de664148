package sandboxauth

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProtect22LiteralNamesKeepTheirCase: a literal protected name with
// capitals (.Rprofile, .Renviron) is kept by a placeholder under its own
// spelling while the command runs; the lower-cased name the patterns are
// matched with left .Rprofile free to create during the run (moved aside
// only when it ended, after an R the user started meanwhile had run it).
func TestProtect22LiteralNamesKeepTheirCase(t *testing.T) {
	for _, name := range []string{".Rprofile", ".Renviron", ".envrc.local"} {
		t.Run(name, func(t *testing.T) {
			sb := escapeSandbox(t)
			out := runProtected20(t, sb, "echo 'system(\"true\")' > "+name+" && echo WROTE")
			assert.NotContains(t, out, "WROTE", "the command created %s while it ran", name)
			assert.NoFileExists(t, filepath.Join(sb, name))
			assert.NoFileExists(t, filepath.Join(sb, strings.ToLower(name)), "a placeholder under the lower-cased name was left")
		})
	}
}

// TestProtect22RunsWithRPlaceholders: R started confined in a project
// without .Rprofile and .Renviron (their placeholders in place) runs.
func TestProtect22RunsWithRPlaceholders(t *testing.T) {
	if _, err := exec.LookPath("Rscript"); err != nil {
		t.Skipf("R is not installed (apt-get install r-base-core): %v", err)
	}
	sb := escapeSandbox(t)
	out := runProtected20(t, sb, "Rscript -e 'cat(\"R-RAN\\n\")'")
	assert.Contains(t, out, "R-RAN")
}

// TestProtect22YarnNamedFiles: what a kept yarn settings file names is
// kept read-only: yarnPath and plugins of .yarnrc.yml at the top and
// below it, yarn-path of yarn 1's .yarnrc, a named file that is missing
// (a placeholder), one behind a symbolic link (the directory holding the
// link); a settings file that is not understood keeps its directory.
func TestProtect22YarnNamedFiles(t *testing.T) {
	cases := []struct {
		name     string
		files    map[string]string
		links    map[string]string
		write    string // the file the command writes
		writable string // a file beside it that stays writable, if any
	}{
		{"yarnPath", map[string]string{".yarnrc.yml": "yarnPath: .yarn/releases/y.cjs\n", ".yarn/releases/y.cjs": "x"}, nil, ".yarn/releases/y.cjs", ".yarn/cache/a.zip"},
		{"plugin", map[string]string{".yarnrc.yml": "plugins:\n  - path: .yarn/plugins/p.cjs\n    spec: p\n", ".yarn/plugins/p.cjs": "x"}, nil, ".yarn/plugins/p.cjs", ".yarn/install-state.gz"},
		{"plugin as a path", map[string]string{".yarnrc.yml": "plugins:\n- tools/p.js\n", "tools/p.js": "x"}, nil, "tools/p.js", "tools/q.js"},
		{"below the top", map[string]string{"apps/web/.yarnrc.yml": "yarnPath: ../../tools/y.cjs\n", "tools/y.cjs": "x"}, nil, "tools/y.cjs", "tools/z.cjs"},
		{"missing", map[string]string{".yarnrc.yml": "yarnPath: .yarn/releases/y.cjs\n", ".yarn/releases/other.cjs": "x"}, nil, ".yarn/releases/y.cjs", ".yarn/releases/z.cjs"},
		{"yarn 1", map[string]string{".yarnrc": "yarn-path \"bin/yarn.js\"\n", "bin/yarn.js": "x"}, nil, "bin/yarn.js", "bin/other.js"},
		{"through a link", map[string]string{".yarnrc.yml": "yarnPath: tools/rel/y.cjs\n", "real/y.cjs": "x", "tools/a": "x"}, map[string]string{"tools/rel": "../real"}, "real/y.cjs", "real/other.cjs"},
		{"repointing the link", map[string]string{".yarnrc.yml": "yarnPath: tools/rel/y.cjs\n", "real/y.cjs": "x", "evil/y.cjs": "x", "tools/a": "x"}, map[string]string{"tools/rel": "../real"}, "tools/new", "evil/y.cjs"},
		{"not understood below the top", map[string]string{"apps/web/.yarnrc.yml": "{yarnPath: y.cjs}\n", "apps/web/y.cjs": "x"}, nil, "apps/web/y.cjs", "apps/other.txt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			for rel, body := range c.files {
				write15(t, filepath.Join(sb, rel), body, 0o644)
			}
			for rel, target := range c.links {
				require.NoError(t, os.Symlink(target, filepath.Join(sb, rel)))
			}
			script := fmt.Sprintf("mkdir -p \"$(dirname '%s')\"; echo changed > '%s' && echo WROTE", c.write, c.write)
			if c.writable != "" {
				script += fmt.Sprintf("; mkdir -p \"$(dirname '%s')\" && echo mine > '%s' && echo KEPT", c.writable, c.writable)
			}
			out := runProtected20(t, sb, script)
			assert.NotContains(t, out, "WROTE", "the command changed %s, which the kept yarn settings name", c.write)
			if b, err := os.ReadFile(filepath.Join(sb, c.write)); err == nil {
				assert.NotContains(t, string(b), "changed")
			}
			if c.writable != "" {
				assert.Contains(t, out, "KEPT", "%s, which nothing names, is the command's to write", c.writable)
			}
		})
	}
}

// TestProtect22YarnClassicPathNotRun: yarn 1 hands over to the file its
// .yarnrc names in yarn-path, as yarn 2 and later do with yarnPath: the
// user's yarn ran what the confined command wrote there before the file
// was kept.
func TestProtect22YarnClassicPathNotRun(t *testing.T) {
	yarn, err := exec.LookPath("yarn")
	if err != nil {
		t.Skipf("yarn is not installed: %v", err)
	}
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	write15(t, filepath.Join(sb, "package.json"), `{"name":"x","version":"1.0.0"}`, 0o644)
	write15(t, filepath.Join(sb, ".yarnrc"), "yarn-path \".yarn/releases/yarn-1.22.22.cjs\"\n", 0o644)
	write15(t, filepath.Join(sb, ".yarn", "releases", "yarn-1.22.22.cjs"), "console.log('1.22.22')\n", 0o644)
	runProtected20(t, sb, `echo 'require("fs").writeFileSync("`+marker+`", "x"); console.log("1.22.22")' > .yarn/releases/yarn-1.22.22.cjs`)
	t.Logf("yarn --version: %s", later22a(sb, "", yarn, "--version"))
	assert.NoFileExists(t, marker, "the user's yarn ran the yarn-path file the confined command rewrote")
}

// TestProtect22WalkIgnoresWhatTheCommandMakes: the walk before each run
// reads every directory within its three levels, whatever the command
// made there: many directories at the top or below it, sorted before the
// project's own, leave the secrets two and three levels down hidden in
// the next run.
func TestProtect22WalkIgnoresWhatTheCommandMakes(t *testing.T) {
	cases := []struct{ name, junk, secret string }{
		{"deep siblings", "for i in $(seq 600); do mkdir -p .a/$i; done", "apps/web/.env"},
		{"top directories", "for i in $(seq 600); do mkdir -p .a$i/x; done", "apps/web/.env"},
		{"third level", "for i in $(seq 300); do mkdir -p apps/.a/$i apps/web/.a$i; done", "apps/web/api/.env"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			write15(t, filepath.Join(sb, filepath.FromSlash(c.secret)), "API_KEY=WALKSECRET22\n", 0o600)
			runProtected20(t, sb, c.junk)
			out := runProtected20(t, sb, "cat "+c.secret)
			assert.NotContains(t, out, "WALKSECRET22", "%s was readable after the command made directories before it", c.secret)
		})
	}
}
