package sandboxauth

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxauth/sandboxauth/internal/classify"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyTestOriginals are read-protected names of DefaultProtectedPaths, one
// or more for each pattern, and copyTestDecorations the ways of naming a
// copy (and, last, names that only begin with the original): "N" stands
// for the original's base name.
var (
	copyTestOriginals = []string{".env", ".env.local", ".npmrc", ".envrc", ".envrc.local", ".dev.vars", ".dev.vars.prod",
		".Renviron", ".Rhistory", ".secrets.toml", "local.settings.json", "terraform.tfstate", "prod.tfvars",
		"x.tfvars.json", "terraform.tfstate.backup", "config/master.key", "config/credentials/production.key",
		".streamlit/secrets.toml", "app/.env"}
	copyTestDecorations = []string{"N~", "N.~1~", "#N#", "swap", ".N.un~", "N.bak", "N.orig", "N,v", "N (copy)",
		"N copy", "Copy of N", "Copy (2) of N", "N-backup", "N_backup", "N-bak", "N_old", "N backup", "N-copy", "N~1",
		"N_2024-01-01", "N.gz", "N.zip", "N.tgz", "N.bk", "N.bck", "N.tmp", "N.20240101", "N.tar.gz", "N.save",
		"N-1234.tmp", "N.dpkg-old", "N-", "N.backup.1732000000", "N (1)", "N - Copy", "N.BAK", "N_Backup",
		"N (another copy)", "N.tar.zst", "N.7z", "N.old.1", "N-2024.bak", "Copy of N.bak", "N.bak~",
		// Copies of copies: the confinement hides the copies beside what it hides.
		"#N-backup#", ".N-backup.un~", "#N.tgz#", "N_old.swp", "Copy of N-backup", "N-backup (copy)",
		// Not copies (of the original; .env.* and the like may match them all the same).
		"N.example", "N-example", "N.pub", "Nx", "N.sample", "N-prod", "xN", "N.d.ts",
	}
)

// copyTestNames returns every decoration of every original, and the
// originals.
func copyTestNames() []string {
	var names []string
	for _, o := range copyTestOriginals {
		dir, base := path.Split(o)
		for _, d := range copyTestDecorations {
			n := strings.ReplaceAll(d, "N", base)
			if d == "swap" {
				n = "." + base + ".swp"
				if strings.HasPrefix(base, ".") {
					n = base + ".swp"
				}
			}
			names = append(names, dir+n)
		}
		names = append(names, o)
	}
	return names
}

// TestProtectedCopiesAgreeWithConfinement (round 25b): the copies of a
// read-protected file that the confinement hides are exactly those the
// read protection of the agent's own tools asks about, since both take
// "a copy" from copyname.Of. Before, 50 of the red team's 322 names (and
// 282 of these 1083) were hidden from a confined command and read by the
// Read tool without asking. Every name is a file in one sandbox, with
// the originals (the confinement hides what lies beside a hidden file)
// and without them; the confined side is a real confined run that tries
// to read each.
func TestProtectedCopiesAgreeWithConfinement(t *testing.T) {
	names := copyTestNames()
	rules := defaultOptions().protected
	for _, withOriginals := range []bool{true, false} {
		t.Run(map[bool]string{true: "with the originals", false: "copies alone"}[withOriginals], func(t *testing.T) {
			sb := escapeSandbox(t)
			var present []string
			for _, n := range names {
				if !withOriginals && slices.Contains(copyTestOriginals, n) {
					continue
				}
				write15(t, filepath.Join(sb, filepath.FromSlash(n)), "TOKEN=sekrit\n", 0o600)
				present = append(present, n)
			}
			write15(t, filepath.Join(sb, "names.txt"), strings.Join(present, "\n")+"\n", 0o644)
			out := runProtected20(t, sb, `while IFS= read -r n; do if cat -- "$n" >/dev/null 2>&1; then echo "READ:$n"; fi; done < names.txt; echo DONE`)
			require.Contains(t, out, "DONE")
			readable := map[string]bool{}
			for _, line := range strings.Split(out, "\n") {
				if n, ok := strings.CutPrefix(line, "READ:"); ok {
					readable[n] = true
				}
			}
			asks := 0
			for _, n := range present {
				abs := filepath.Join(sb, filepath.FromSlash(n))
				ask := classify.ProtectedFor(rules, false, sb, sb, abs, abs) != nil
				if ask {
					asks++
				}
				assert.Equal(t, !readable[n], ask, "%s: hidden by the confinement %v, asked about by the read protection %v", n, !readable[n], ask)
			}
			t.Logf("%d names, %d asked about and hidden", len(present), asks)
		})
	}
}

// TestProtectedDirectoriesAgreeWithConfinement (round 25b): a directory
// that a read-protected pattern or its copies rule matches (.env made a
// directory, .env.d, a copy of .env kept as a directory) is hidden whole
// by the confinement, and every file below it is asked about; a link to
// such a file is asked about too.
func TestProtectedDirectoriesAgreeWithConfinement(t *testing.T) {
	sb := escapeSandbox(t)
	files := []string{".env/prod", "config/.env.d/prod", "config/.env.d/deep/er/key", ".env-backup/prod", ".npmrc-old/x", "Copy of .env/prod",
		"infra/terraform.tfstate.d/dev/terraform.tfstate", "infra/terraform.tfstate.d/dev/notes.txt"}
	for _, f := range files {
		write15(t, filepath.Join(sb, filepath.FromSlash(f)), "TOKEN=sekrit\n", 0o600)
	}
	symlink15(t, ".env/prod", filepath.Join(sb, "prod-link"))
	symlink15(t, "config/.env.d", filepath.Join(sb, "envd-link"))
	files = append(files, "prod-link", "envd-link/prod")
	var script strings.Builder
	for _, f := range files {
		script.WriteString(`cat -- '` + f + `' >/dev/null 2>&1 && echo 'READ:` + f + "'\n")
	}
	script.WriteString("echo DONE\n")
	out := runProtected20(t, sb, script.String())
	require.Contains(t, out, "DONE")
	rules := defaultOptions().protected
	for _, f := range files {
		abs := filepath.Join(sb, filepath.FromSlash(f))
		real, err := filepath.EvalSymlinks(abs)
		require.NoError(t, err)
		assert.NotContains(t, out, "READ:"+f+"\n", "the confined command read %s", f)
		assert.NotNil(t, classify.ProtectedFor(rules, false, sb, sb, abs, real), "%s is not read-protected", f)
	}
}

// TestProtectedCopiesDeepAnchored: a copy of a file that a deep pattern
// names (Vagrant's machine keys, five levels down, below the walk's
// depth) is hidden by the confinement as the read protection asks about
// it.
func TestProtectedCopiesDeepAnchored(t *testing.T) {
	sb := escapeSandbox(t)
	files := []string{".vagrant/machines/default/virtualbox/private_key.bak", ".vagrant/machines/default/virtualbox/Copy of private_key"}
	var script strings.Builder
	for _, f := range files {
		write15(t, filepath.Join(sb, filepath.FromSlash(f)), "KEY\n", 0o600)
		script.WriteString(`cat -- '` + f + `' >/dev/null 2>&1 && echo 'READ:` + f + "'\n")
	}
	script.WriteString("echo DONE\n")
	out := runProtected20(t, sb, script.String())
	require.Contains(t, out, "DONE")
	for _, f := range files {
		abs := filepath.Join(sb, filepath.FromSlash(f))
		assert.NotContains(t, out, "READ:"+f+"\n", "the confined command read %s", f)
		assert.NotNil(t, classify.ProtectedFor(defaultOptions().protected, false, sb, sb, abs, abs), "%s is not read-protected", f)
	}
}
