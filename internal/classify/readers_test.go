package classify

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// protectedDefaults are the rules the engine tests use: .env protected
// for reads and writes, .git for writes.
func protectedDefaults(t *testing.T) []Protected {
	t.Helper()
	var out []Protected
	for _, p := range []struct {
		pat         string
		read, write bool
	}{{".env", true, true}, {".env.*", true, true}, {".git/", false, true}} {
		r, err := CompileProtected(p.pat, p.read, p.write)
		require.NoError(t, err)
		out = append(out, r)
	}
	return out
}

// TestReadersReachProtectedFiles: the ways a reader reaches a protected
// file without naming it as a plain operand — a value that lists files,
// recursion chosen by a value, globs and ignore rules that whitelist
// hidden files. Each case was run against the real program (rg 13, GNU
// grep 3.8, file 5.44, tar 1.34) in a throwaway directory, and printed
// the .env.
func TestReadersReachProtectedFiles(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // written into the sandbox first
		cwd   string
		argv  []string
		want  Result
	}{
		// Recursion chosen by a value, by its full name or a prefix.
		{"grep -d recurse", nil, "", []string{"grep", "-d", "recurse", "KEY"}, Dangerous},
		{"grep -d rec", nil, "", []string{"grep", "-d", "rec", "KEY"}, Dangerous},
		{"grep --dir=recurse", nil, "", []string{"grep", "--dir=recurse", "KEY"}, Dangerous},
		{"grep --directories=recurse .", nil, "", []string{"grep", "--directories=recurse", "KEY", "."}, Dangerous},
		{"grep -drecurse", nil, "", []string{"grep", "-drecurse", "KEY"}, Dangerous},
		{"grep -d skip reads no tree", nil, "", []string{"grep", "-d", "skip", "KEY", "main.go"}, Safe},
		{"grep -d recurse beside it", nil, "", []string{"grep", "-d", "recurse", "KEY", "sub"}, Safe},
		// A list of files in one value.
		{"file -m with a colon list", nil, "", []string{"file", "-m", ".env:/dev/null", "main.go"}, Dangerous},
		{"file -m with a list leading out", nil, "", []string{"file", "-m", "x:/etc/passwd", "main.go"}, Dangerous},
		{"file -m of one harmless file", map[string]string{"magic": "0 string x X\n"}, "", []string{"file", "-m", "magic", "main.go"}, Safe},
		{"tar -T list naming -T .env", map[string]string{"list": "-T .env\n"}, "", []string{"tar", "-tf", "a.tar", "-T", "list"}, Dangerous},
		{"tar --files-from", map[string]string{"list": "main.go\n"}, "", []string{"tar", "-t", "--files-from=list", "-f", "a.tar"}, Dangerous},
		// rg: globs and ignore rules that whitelist hidden files.
		{"rg -g .env", nil, "", []string{"rg", "KEY", "-g", ".env"}, Dangerous},
		{"rg -g *", nil, "", []string{"rg", "KEY", "-g", "*"}, Dangerous},
		{"rg --iglob", nil, "", []string{"rg", "KEY", "--iglob", ".ENV"}, Dangerous},
		{"rg -g=.env (clap)", nil, "", []string{"rg", "KEY", "-g=.env"}, Dangerous},
		{"rg -t beside a protected file", nil, "", []string{"rg", "-t", "go", "KEY", "sub"}, Safe},
		{"rg -t whose globs miss the hidden file", map[string]string{"sub/.env": "KEY=x\n"}, "", []string{"rg", "-t", "go", "KEY", "sub"}, Safe},
		{"rg -t whose globs match a hidden file", map[string]string{"sub/.env.go": "KEY=x\n"}, "", []string{"rg", "-t", "go", "KEY", "sub"}, Dangerous},
		{"rg -t of a type not described", map[string]string{"sub/.env": "KEY=x\n"}, "", []string{"rg", "-t", "zz", "KEY", "sub"}, Dangerous},
		{"rg -g whose glob misses the hidden file", map[string]string{"sub/.env": "KEY=x\n"}, "", []string{"rg", "-g", "*.go", "KEY", "sub"}, Safe},
		{"rg -g matching inside a hidden directory", map[string]string{"sub/.cfg/.env": "KEY=x\n"}, "", []string{"rg", "-g", ".*", "KEY", "sub"}, Dangerous},
		{"rg -g with a path", map[string]string{"sub/.env": "KEY=x\n"}, "", []string{"rg", "-g", "sub/*.go", "KEY", "sub"}, Dangerous},
		{"rg --files lists names", nil, "", []string{"rg", "--files", "-g", "*"}, Safe},
		{"rg a negated glob only excludes", nil, "", []string{"rg", "KEY", "-g", "!*.md"}, Safe},
		{"rg plain", nil, "", []string{"rg", "KEY"}, Safe},
		{"rg with a .ignore whitelisting .env", map[string]string{".ignore": "!.env\n"}, "", []string{"rg", "KEY"}, Dangerous},
		{"rg with a .rgignore whitelisting", map[string]string{".rgignore": "*.log\n  !.env\n"}, "", []string{"rg", "KEY"}, Dangerous},
		{"rg with a .gitignore whitelisting", map[string]string{".gitignore": "!.env\n"}, "", []string{"rg", "KEY", "."}, Dangerous},
		{"rg with info/exclude whitelisting", map[string]string{".git/info/exclude": "!.env\n"}, "", []string{"rg", "KEY"}, Dangerous},
		{"rg in a subdirectory, whitelisted from above", map[string]string{".ignore": "!.env\n", "sub/.env": "KEY=x\n"}, "sub", []string{"rg", "KEY"}, Dangerous},
		{"rg in a subdirectory with a whitelisting .ignore in it", map[string]string{"sub/deep/.ignore": "!.env\n", "sub/deep/.env": "KEY=x\n"}, "", []string{"rg", "KEY", "sub"}, Dangerous},
		{"rg with a whitelisting .ignore after a byte-order mark", map[string]string{".ignore": "\xef\xbb\xbf!.env\n"}, "", []string{"rg", "KEY"}, Dangerous},
		{"rg with a whitelisting .ignore in CRLF lines", map[string]string{".ignore": "x\r\n!.env\r\n"}, "", []string{"rg", "KEY"}, Dangerous},
		{"rg with an ignore file that only ignores", map[string]string{".ignore": "*.log\n"}, "", []string{"rg", "KEY"}, Safe},
		{"rg --ignore-file whitelisting", map[string]string{"ig": "!.env\n"}, "", []string{"rg", "--ignore-file", "ig", "KEY"}, Dangerous},
		{"rg --ignore-file that only ignores", map[string]string{"ig": "*.log\n"}, "", []string{"rg", "--ignore-file", "ig", "KEY"}, Safe},
		{"rg --ignore-file that is protected", nil, "", []string{"rg", "--ignore-file", ".env", "KEY", "sub"}, Dangerous},
	}
	t.Run("rg --ignore-file naming a FIFO does not block the classifier", func(t *testing.T) {
		sb := engineSandbox(t)
		require.NoError(t, syscall.Mkfifo(filepath.Join(sb, "fifo"), 0o644))
		c := &Commands{}
		c.AddDefaults()
		v := c.Classify(Site{SandboxDir: sb, Cwd: sb}, protectedDefaults(t), nil, []string{"rg", "--ignore-file", "fifo", "KEY"}, nil)
		assert.NotEqual(t, Safe, v.Result(), "a FIFO is taken to whitelist: %s", v.Rule())
		require.NoError(t, os.WriteFile(filepath.Join(sb, ".ignore"), nil, 0o644))
		require.NoError(t, os.Remove(filepath.Join(sb, ".ignore")))
		require.NoError(t, syscall.Mkfifo(filepath.Join(sb, ".ignore"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(sb, "sub", ".env"), nil, 0o644))
		for _, argv := range [][]string{{"rg", "KEY", "sub"}, {"rg", "KEY"}} {
			v = c.Classify(Site{SandboxDir: sb, Cwd: sb}, protectedDefaults(t), nil, argv, nil)
			assert.Equal(t, Dangerous, v.Result(), "%q with a .ignore FIFO: %s", argv, v.Rule())
		}
	})
	protected := protectedDefaults(t)
	c := &Commands{}
	c.AddDefaults()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb := engineSandbox(t)
			for name, body := range tt.files {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(sb, name)), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(sb, name), []byte(body), 0o644))
			}
			v := c.Classify(Site{SandboxDir: sb, Cwd: filepath.Join(sb, tt.cwd)}, protected, nil, tt.argv, nil)
			assert.Equal(t, tt.want, v.Result(), "%q: %s (%s)", tt.argv, v.Rule(), v.Reason())
		})
	}
}
