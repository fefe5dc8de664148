package sandboxauth

// The quarantine's view of git directories: the files of repositories
// known before the run that redirect git or hold its configuration, git's
// state of an operation stopped half-way, directories that git takes for
// a git directory by their contents, and an index that is not
// understood. Each case runs a confined command and then the user's own
// git, unconfined, as the user would next.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shellIn runs script in dir with /bin/sh, unconfined, and fails the test
// when it fails.
func shellIn(t *testing.T, dir, script string) {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", "set -e\n"+script)
	c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
	out, err := c.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

func TestQuarantineGitDirectories(t *testing.T) {
	cases := []struct {
		name string
		// setup is the user's, before the run; payload the confined
		// command's (MARKER names a file outside the sandbox); then the
		// user runs git with then in the directory thenIn.
		setup, payload string
		thenIn         string
		then           []string
		// moved are paths the quarantine moves aside, kept paths it
		// leaves.
		moved, kept []string
		// failing says the payload is expected to fail (a read-only file).
		failing bool
	}{
		{
			name:    "hooks created in a nested repository that had none",
			setup:   "git init -q sub && git -C sub commit -q --allow-empty -m x && rm -rf sub/.git/hooks",
			payload: "mkdir sub/.git/hooks && printf '#!/bin/sh\\ntouch MARKER\\n' > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit",
			thenIn:  "sub", then: []string{"commit", "-q", "--allow-empty", "-m", "y"},
			moved: []string{"sub/.git/hooks"},
		},
		{
			name:    "config created in a nested repository that had none",
			setup:   "git init -q sub && git -C sub commit -q --allow-empty -m x && rm sub/.git/config",
			payload: "printf '[core]\\n\\tfsmonitor = \"touch MARKER; false\"\\n' > sub/.git/config",
			thenIn:  "sub", then: []string{"status", "--short"},
			moved: []string{"sub/.git/config"},
		},
		{
			name:    "a missing file the nested configuration includes",
			setup:   "git init -q sub && git -C sub commit -q --allow-empty -m x && printf '[include]\\n\\tpath = extra.conf\\n' >> sub/.git/config",
			payload: "printf '[core]\\n\\tfsmonitor = \"touch MARKER; false\"\\n' > sub/.git/extra.conf",
			thenIn:  "sub", then: []string{"status", "--short"},
			moved: []string{"sub/.git/extra.conf"},
		},
		{
			name:    "config.worktree of a nested repository",
			setup:   "git init -q sub && git -C sub commit -q --allow-empty -m x && git -C sub config extensions.worktreeConfig true",
			payload: "printf '[core]\\n\\tfsmonitor = \"touch MARKER; false\"\\n' > sub/.git/config.worktree",
			thenIn:  "sub", then: []string{"status", "--short"},
			moved: []string{"sub/.git/config.worktree"},
		},
		{
			name:    "alternates of a nested repository",
			setup:   "git init -q sub && git -C sub commit -q --allow-empty -m x",
			payload: "echo \"$HOME\" > sub/.git/objects/info/alternates",
			thenIn:  "sub", then: []string{"status", "--short"},
			moved: []string{"sub/.git/objects/info/alternates"},
		},
		{
			name: "the todo of a rebase stopped in a nested repository",
			setup: `git init -q sub && cd sub && for m in 1 2 3; do git commit -q --allow-empty -m $m; done
GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i HEAD~2`,
			payload: "printf 'exec touch MARKER\\n' | cat - sub/.git/rebase-merge/git-rebase-todo > t && cat t > sub/.git/rebase-merge/git-rebase-todo && rm t",
			thenIn:  "sub", then: []string{"rebase", "--continue"},
			moved: []string{"sub/.git/rebase-merge"},
		},
		{
			name: "a rebase stopped at the top that the command leaves alone stays",
			setup: `for m in 1 2 3; do git commit -q --allow-empty -m $m; done
GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i HEAD~2`,
			payload: "git status --short && echo x > notes.txt && git commit -q --amend --allow-empty -m amended",
			thenIn:  ".", then: []string{"status", "--short"},
			kept: []string{".git/rebase-merge/git-rebase-todo"},
		},
		{
			name: "a rebase stopped at the top that a confined git rebase --continue finishes",
			setup: `for m in 1 2 3; do git commit -q --allow-empty -m $m; done
GIT_SEQUENCE_EDITOR='sed -i 1s/^pick/edit/' git rebase -q -i HEAD~2`,
			payload: "git rebase --continue && test ! -e .git/rebase-merge",
			thenIn:  ".", then: []string{"status", "--short"},
		},
		{
			name:    "a new bare repository below the top",
			payload: "mkdir -p notes/c && git init -q --bare notes/c && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ../..\\n\\tfsmonitor = \"touch MARKER; false\"\\n' > notes/c/config",
			thenIn:  "notes/c", then: []string{"status", "--short"},
			moved: []string{"notes/c/HEAD"},
		},
		{
			name:    "a directory with an old HEAD made a git directory",
			setup:   "mkdir docs && echo 'ref: refs/heads/main' > docs/HEAD && git add docs && git commit -q -m docs",
			payload: "mkdir docs/objects docs/refs && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ..\\n\\tfsmonitor = \"touch MARKER; false\"\\n' > docs/config",
			thenIn:  "docs", then: []string{"status", "--short"},
			moved: []string{"docs/HEAD"},
		},
		{
			name:    "a stub naming a new common directory",
			payload: "mkdir -p lib/c && git init -q --bare lib/c && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ../..\\n\\tfsmonitor = \"touch MARKER; false\"\\n' > lib/c/config && mkdir lib/s && echo 'ref: refs/heads/main' > lib/s/HEAD && echo ../c > lib/s/commondir",
			thenIn:  "lib/s", then: []string{"status", "--short"},
			moved: []string{"lib/c/HEAD", "lib/s/HEAD"},
		},
		{
			name:    "an existing bare repository keeps its configuration",
			setup:   "git init -q --bare fixtures/repo.git",
			payload: "printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ../..\\n\\tfsmonitor = \"touch MARKER; false\"\\n' >> fixtures/repo.git/config",
			thenIn:  "fixtures/repo.git", then: []string{"status", "--short"},
			kept: []string{"fixtures/repo.git/HEAD"}, failing: true,
		},
		{
			name:    "a directory of the project made a git directory behind 300 new directories",
			setup:   "mkdir src && echo x > src/main.go && git add src && git commit -q -m src",
			payload: "for i in $(seq 100 399); do mkdir a$i; done && cd src && mkdir objects refs && echo 'ref: refs/heads/main' > HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ..\\n\\tfsmonitor = \"touch MARKER; false\"\\n' > config",
			thenIn:  "src", then: []string{"status", "--short"},
			moved: []string{"src/HEAD"},
		},
		{
			name:    "a new repository behind 300 old directories moved ahead of it",
			setup:   "mkdir -p old && for i in $(seq 100 399); do mkdir old/d$i; touch old/d$i/f; done && git add old && git commit -q -m old",
			payload: "mv old/d* . && mkdir zz && cd zz && git init -q && printf '[core]\\n\\tfsmonitor = \"touch MARKER; false\"\\n' >> .git/config",
			thenIn:  "zz", then: []string{"status", "--short"},
			moved: []string{"zz/.git"},
		},
		{
			name:    "a gitlink of a nested repository deeper than the walk",
			setup:   "git init -q sub && git -C sub commit -q --allow-empty -m x",
			payload: "cd sub && " + gitlinkPayload("a/b/c/d/evil", "MARKER", ""),
			thenIn:  "sub", then: []string{"status", "--short"},
			moved: []string{"sub/a/b/c/d/evil/.git"},
		},
		{
			name:    "an old repository deeper than the walk, changed and then recorded as a gitlink",
			setup:   "git init -q a/b/c/d/old && git -C a/b/c/d/old commit -q --allow-empty -m x",
			payload: "printf '[core]\\n\\tfsmonitor = \"touch MARKER; false\"\\n' >> a/b/c/d/old/.git/config && git update-index --add --cacheinfo 160000,$(git -C a/b/c/d/old rev-parse HEAD),a/b/c/d/old",
			thenIn:  ".", then: []string{"status", "--short"},
			moved: []string{"a/b/c/d/old/.git"},
		},
		{
			name: "a sparse index hides a gitlink deeper than the walk",
			payload: gitlinkPayload("a/b/c/d/e/evil", "MARKER", "") + `
printf '/*\n!/*/\n/a/\n' > .git/info/sparse-checkout
git -c core.sparseCheckout=true -c core.sparseCheckoutCone=true -c index.sparse=true sparse-checkout reapply
grep -q sdir .git/index`,
			thenIn: ".", then: []string{"status", "--short"},
			moved: []string{"a/b/c/d/e/evil/.git"},
		},
		{
			name: "with an index not understood before, repositories deeper than the walk stay",
			setup: `mkdir -p a/b/c/d/e/old && git init -q a/b/c/d/e/old && echo x > keep.txt && git add keep.txt && git commit -q -m keep
printf '/*\n!/*/\n/a/\n' > .git/info/sparse-checkout
git -c core.sparseCheckout=true -c core.sparseCheckoutCone=true -c index.sparse=true sparse-checkout reapply
grep -q sdir .git/index`,
			payload: "true",
			thenIn:  ".", then: []string{"status", "--short"},
			kept: []string{"a/b/c/d/e/old/.git"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			shellIn(t, sb, "git commit -q --allow-empty -m init")
			if tc.setup != "" {
				shellIn(t, sb, tc.setup)
			}
			marker := homeMarker(t)
			out, err := runConfined(shIn(sb, strings.ReplaceAll(tc.payload, "MARKER", marker)), protectedPolicy(t, sb))
			if tc.failing {
				require.Error(t, err, "the payload was expected to be refused: %s", out)
			} else {
				require.NoError(t, err, out)
			}
			for _, rel := range tc.moved {
				assert.NoFileExists(t, filepath.Join(sb, rel), "not moved aside")
				assert.NoDirExists(t, filepath.Join(sb, rel), "not moved aside")
				_, err := os.Lstat(filepath.Join(sb, rel+quarantineSuffix))
				assert.NoError(t, err, "%s was not renamed to %s", rel, rel+quarantineSuffix)
			}
			for _, rel := range tc.kept {
				_, err := os.Lstat(filepath.Join(sb, rel))
				assert.NoError(t, err, "%s was moved aside", rel)
			}
			c := exec.Command("git", tc.then...)
			c.Dir, c.Env = filepath.Join(sb, tc.thenIn), append(os.Environ(), gitEnv...)
			b, _ := c.CombinedOutput()
			t.Logf("git %s: %s", strings.Join(tc.then, " "), b)
			assert.NoFileExists(t, marker, "the user's git ran what the confined command wrote")
			matches, _ := filepath.Glob(filepath.Join(sb, "*", "*"+quarantineSuffix+"*"))
			if len(tc.moved) == 0 {
				assert.Empty(t, matches, "moved aside what it should not")
			}
		})
	}
}

// TestQuarantineWalkFollowsNoLink: the walks read a directory only when
// no symbolic link lies on the way from the sandbox, so that a directory
// swapped for a link by a concurrent run cannot lead them (the whole
// sandbox's search included) out of it.
func TestQuarantineWalkFollowsNoLink(t *testing.T) {
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	outside := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(outside, "deep", "repo", ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "real", "sub"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(sb, "link")))
	c := newConfinePaths(sb, nil, nil)
	for _, tc := range []struct {
		rel string
		ok  bool
	}{{".", true}, {"real", true}, {"real/sub", true}, {"link", false}, {"link/deep", false}, {"../", false}} {
		_, err := c.readDir(filepath.Join(sb, tc.rel))
		assert.Equal(t, tc.ok, err == nil, "%s: %v", tc.rel, err)
	}
}
