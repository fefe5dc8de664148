package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestYarnBerryNamed(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
		ok       bool
	}{
		{"empty", "", nil, true},
		{"no yarnPath", "nodeLinker: node-modules\n", nil, true},
		{"yarnPath", "yarnPath: .yarn/releases/yarn-4.5.0.cjs\n", []string{".yarn/releases/yarn-4.5.0.cjs"}, true},
		{"quoted", "yarnPath: \".yarn/releases/y.cjs\" # pinned\n", []string{".yarn/releases/y.cjs"}, true},
		{"single quoted", "yarnPath: '.yarn/releases/y.cjs'\n", []string{".yarn/releases/y.cjs"}, true},
		{"comment", "# settings\nyarnPath: a.cjs # pinned\n", []string{"a.cjs"}, true},
		{"byte order mark", "\ufeffyarnPath: a.cjs\n", []string{"a.cjs"}, true},
		{"quoted key", "\"yarnPath\": a.cjs\n", []string{"a.cjs"}, true},
		{"crlf", "yarnPath: a.cjs\r\n", []string{"a.cjs"}, true},
		{"plugins as maps", "plugins:\n  - path: .yarn/plugins/a.cjs\n    spec: \"@yarnpkg/plugin-a\"\n  - checksum: abc\n    path: .yarn/plugins/b.cjs\nyarnPath: y.cjs\n",
			[]string{".yarn/plugins/a.cjs", ".yarn/plugins/b.cjs", "y.cjs"}, true},
		{"plugins as paths", "plugins:\n  - .yarn/plugins/a.cjs\n", []string{".yarn/plugins/a.cjs"}, true},
		{"plugins unindented", "plugins:\n- path: a.cjs\n- b.cjs\nnodeLinker: pnp\n", []string{"a.cjs", "b.cjs"}, true},
		{"plugin map on the next line", "plugins:\n  -\n    path: a.cjs\n", []string{"a.cjs"}, true},
		{"other blocks", "npmScopes:\n  corp:\n    npmRegistryServer: \"https://x\"\n    npmAuthToken: \"${TOKEN}\"\nyarnPath: y.cjs\n", []string{"y.cjs"}, true},
		{"document start", "---\nyarnPath: y.cjs\n", []string{"y.cjs"}, true},
		{"flow style", "{yarnPath: y.cjs}\n", nil, false},
		{"variable", "yarnPath: ${YARN}\n", nil, false},
		{"quoted variable", "yarnPath: \"${HOME}/y.cjs\"\n", nil, false},
		{"alias", "yarnPath: *y\n", nil, false},
		{"anchor", "x: &y a.cjs\nyarnPath: *y\n", nil, false},
		{"tag", "yarnPath: !!str y.cjs\n", nil, false},
		{"block scalar", "yarnPath: |\n  y.cjs\n", nil, false},
		{"on the next line", "yarnPath:\n  y.cjs\n", nil, false},
		{"merge key", "<<: *base\n", nil, false},
		{"flow plugins", "plugins: [a.cjs]\n", nil, false},
		{"flow plugin", "plugins:\n  - {path: a.cjs}\n", nil, false},
		{"tab", "yarnPath: a.cjs\n\tx: y\n", nil, false},
		{"complex key", "? yarnPath\n: a.cjs\n", nil, false},
		{"escaped quote", "\"yarn\\u0050ath\": a.cjs\n", nil, false},
		{"escape in value", "yarnPath: \"a\\x2ecjs\"\n", nil, false},
		{"top-level list", "- yarnPath: a.cjs\n", nil, false},
		{"empty value", "yarnPath: \"\"\n", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := yarnBerryNamed([]byte(c.in))
			if !c.ok {
				assert.ErrorIs(t, err, errYarnSettings)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestYarnClassicNamed(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
		ok       bool
	}{
		{"none", "registry \"https://registry.yarnpkg.com\"\n", nil, true},
		{"quoted", "yarn-path \".yarn/releases/yarn-1.22.22.cjs\"\n", []string{".yarn/releases/yarn-1.22.22.cjs"}, true},
		{"plain", "# pinned\nyarn-path ./y.js\n", []string{"./y.js"}, true},
		{"quoted key", "\"yarn-path\" \"y.js\"\n", []string{"y.js"}, true},
		{"as a flag", "--yarn-path y.js\n", []string{"y.js"}, true},
		{"letter case", "Yarn-Path y.js\n", []string{"y.js"}, true},
		{"empty", "yarn-path\n", nil, false},
		{"variable", "yarn-path \"$HOME/y.js\"\n", nil, false},
		{"escape", "yarn-path \"a\\\"b\"\n", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := yarnClassicNamed([]byte(c.in))
			if !c.ok {
				assert.ErrorIs(t, err, errYarnSettings)
				return
			}
			assert.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

// FuzzYarnBerryNamed checks that the readers of yarn's settings never
// panic and either fail or name only non-empty paths.
func FuzzYarnBerryNamed(f *testing.F) {
	for _, s := range []string{
		"yarnPath: .yarn/releases/yarn-4.5.0.cjs\n",
		"plugins:\n  - path: a.cjs\n    spec: x\n",
		"plugins:\n- a.cjs\n",
		"\"yarnPath\": 'a'\n",
		"{yarnPath: y}\n",
		"\ufeff---\nyarnPath: a # c\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := yarnBerryNamed(b)
		classic, errClassic := yarnClassicNamed(b)
		for _, p := range append(got, classic...) {
			if p == "" {
				t.Fatalf("an empty path named by %q (%v, %v)", b, err, errClassic)
			}
		}
	})
}
