package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

var repoRoot = filepath.Join("..", "..")

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, name))
	require.NoError(t, err)
	return string(data)
}

// TestRelease checks what a user installing the module meets: the version
// the command prints is the one the toolchain recorded (a build from a
// checkout is "(devel)", never a release number it may not be), the
// README's install line works without a tag, and the licence.
func TestRelease(t *testing.T) {
	r := runBin(t, "", "version")
	require.Equal(t, 0, r.code)
	assert.Regexp(t, `^sandboxauth (\(devel\)( [0-9a-f]{12}(\+modified)?)?|v\d+\.\d+\.\d+\S*) \(go\S+\)\n$`, r.stdout)
	assert.True(t, strings.HasPrefix(r.stdout, "sandboxauth "+sandboxauth.Version()+" ("), "a binary built in the checkout: %s", r.stdout)

	changelog := readRepoFile(t, "CHANGELOG.md")
	assert.Contains(t, changelog, "Keep a Changelog")
	assert.Contains(t, changelog, "## [Unreleased]")

	readme := readRepoFile(t, "README.md")
	for _, m := range regexp.MustCompile(`go (?:install|get) github.com/sandboxauth/sandboxauth\S*@(\S+)`).FindAllStringSubmatch(readme, -1) {
		assert.Equal(t, "latest", m[1], "no release is tagged: an install line must say @latest")
	}
	assert.Contains(t, readme, "go install github.com/sandboxauth/sandboxauth/cmd/sandboxauth@latest")

	license := readRepoFile(t, "LICENSE")
	assert.Contains(t, license, "Apache License")
	assert.Contains(t, license, "Version 2.0, January 2004")
	assert.Contains(t, license, "END OF TERMS AND CONDITIONS")
}

// readmeSnippets returns the settings snippet of each agent in the README:
// the json block after <!-- hook-snippet: AGENT -->.
func readmeSnippets(t *testing.T) map[string]string {
	t.Helper()
	re := regexp.MustCompile("(?s)<!-- hook-snippet: ([a-z-]+) -->\n```json\n(.*?\n)```")
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(readRepoFile(t, "README.md"), -1) {
		out[m[1]] = m[2]
	}
	return out
}

// snippetCommand returns the hook command a settings snippet registers.
func snippetCommand(t *testing.T, snippet string) string {
	t.Helper()
	cmds := settingsCommands(t, []byte(snippet))
	require.NotEmpty(t, cmds)
	for _, c := range cmds[1:] {
		require.Equal(t, cmds[0], c, "one command per snippet")
	}
	return cmds[0]
}

// TestReadmeHookSnippets checks each agent's README snippet: it is exactly
// what "hook install" writes into an empty project, and the command it
// registers is the one TestHookFixtures runs on every fixture of that agent
// (here one fixture proves the snippet's command runs as written).
func TestReadmeHookSnippets(t *testing.T) {
	snippets := readmeSnippets(t)
	fixtures := loadHookFixtures(t)
	for _, agent := range hookproto.Names() {
		t.Run(agent, func(t *testing.T) {
			snippet, ok := snippets[agent]
			require.True(t, ok, "README has no snippet for %s", agent)

			project, home := t.TempDir(), t.TempDir()
			r := installIn(t, project, home, "--for", agent, "--dry-run")
			require.Equal(t, 0, r.code, r.stderr)
			_, written, found := strings.Cut(r.stdout, ":\n")
			require.True(t, found, r.stdout)
			assert.Equal(t, written, snippet, "the README snippet is what hook install writes")

			words := strings.Fields(snippetCommand(t, snippet))
			require.Equal(t, "sandboxauth", words[0])
			require.Equal(t, []string{"hook", "--for", agent}, words[1:], "the snippet runs what TestHookFixtures checks")
			n := 0
			for _, fx := range fixtures {
				if fx.agent != agent {
					continue
				}
				if n++; n == 1 {
					t.Run(fx.name, func(t *testing.T) { runFixture(t, fx, words[1:]) })
				}
			}
			assert.GreaterOrEqual(t, n, 6)
		})
	}
}
