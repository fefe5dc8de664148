package sandboxauth

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// FuzzGlobalGitConfig: whatever the user's git configuration says, what
// it makes read-only lies beneath the sandbox (never the sandbox itself),
// and every placeholder is for a read-only path.
func FuzzGlobalGitConfig(f *testing.F) {
	for _, seed := range []string{
		"[include]\n\tpath = ~/proj/gc\n",
		"[includeIf \"gitdir:~/proj/\"] path = :(optional)../proj/x\n",
		"[core]\n\thooksPath = ../proj/h\n\tfsmonitor = \"sh -c '~/proj/w; $HOME/proj/v'\"\n",
		"[alias]\n\tx = !~/proj/a && ./b\n[credential]\n\thelper = !f() { ~/proj/c; }; f\n",
		"[init]\n\ttemplateDir = ~/proj/../proj/t\n[diff \"x\"]\n\ttextconv = ~root/x\n",
		"[core]\n\texcludesFile = ~\n\tpager = ~/proj\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, config string) {
		home := t.TempDir()
		sb := filepath.Join(home, "proj")
		if err := os.MkdirAll(filepath.Join(sb, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "gc"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("HOME", home)
		t.Setenv("XDG_CONFIG_HOME", "")
		t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "gc"))
		t.Setenv("GIT_CONFIG_COUNT", "")
		real, err := pathres.Resolve(sb)
		if err != nil {
			t.Fatal(err)
		}
		p := confine.Policy{Sandbox: real, Placeholders: map[string]string{}}
		c := newConfinePaths(real, nil, &p)
		c.globalGitConfig()
		for _, r := range p.ReadOnly {
			if r == real || !pathres.Within(real, r) {
				t.Fatalf("%s is read-only, outside the sandbox %s", r, real)
			}
		}
		for k := range p.Placeholders {
			if !slices.Contains(p.ReadOnly, k) {
				t.Fatalf("a placeholder for %s, which is not read-only", k)
			}
		}
	})
}
