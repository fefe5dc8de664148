package classify

import (
	"testing"

	"github.com/sandboxauth/sandboxauth/internal/programs"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClassifyGrantedIsTheListWithTheGrant: ClassifyGranted gives the
// verdict of the same lists with the grant added at the end of the safe
// list, for grants and commands that meet the grant's name, prefix,
// versioned names, letter case, excluded options of project code, nested
// shells and wrappers, and commands the grant does not cover.
func TestClassifyGrantedIsTheListWithTheGrant(t *testing.T) {
	sb := engineSandbox(t)
	grants := []Matcher{
		{Command: "make"},
		{Command: "npm", CommandArgsPrefix: []string{"run", "test"}},
		{Command: "python3", CommandArgsPrefix: []string{"manage.py"}},
		{Command: "python", CommandArgsPrefix: []string{"manage.py"}}, // covers python3.12 too
		{Command: "go", CommandArgsPrefix: []string{"test"}},
		{Command: "cargo", CommandArgsPrefix: []string{"build"}},
		{Command: "git", CommandArgsPrefix: []string{"push"}},
		{Command: "curl"},
		{Command: "rm"},
		{Command: ""},
	}
	argvs := [][]string{
		{"make"}, {"make", "build"}, {"MAKE", "build"}, {"/usr/bin/make", "-j4"}, {"gmake", "all"},
		{"npm", "run", "test"}, {"npm", "run", "test", "--", "--watch"}, {"npm", "run", "build"},
		{"npm", "test", "--script-shell", "x"},
		{"python3", "manage.py", "test"}, {"python3.12", "manage.py", "test"}, {"python3", "-c", "print(1)"},
		{"go", "test", "./..."}, {"go", "test", "-exec", "x", "./..."}, {"go", "test", "-toolexec=x"}, {"go", "build"},
		{"cargo", "build", "--release"}, {"cargo", "run"},
		{"git", "push", "origin", "main"}, {"git", "push", "--force"}, {"git", "-c", "core.pager=x", "push"},
		{"curl", "https://example.com"}, {"rm", "-rf", "/"}, {"rm", "main.go"},
		{"bash", "-c", "make build && rm main.go"}, {"sh", "-c", "npm run test"},
		{"timeout", "5", "make"}, {"env", "CC=x", "make"}, {"xargs", "make"},
		{"sudo", "make"}, {"ls"}, {"cat", ".env"},
	}
	for _, g := range grants {
		with := &Commands{}
		with.AddDefaults()
		with.Add(SafeList, g)
		plain := &Commands{}
		plain.AddDefaults()
		for _, split := range []bool{false, true} {
			with.SetSplitCompound(split)
			plain.SetSplitCompound(split)
			for _, argv := range argvs {
				site := Site{SandboxDir: sb, Cwd: sb}
				want := with.Classify(site, nil, nil, argv, nil)
				got := plain.ClassifyGranted(site, nil, nil, argv, nil, g)
				require.Equal(t, want.Result(), got.Result(), "grant %v, split %v, argv %q", g, split, argv)
				assert.Equal(t, want.Rule(), got.Rule(), "grant %v, split %v, argv %q", g, split, argv)
				assert.Equal(t, want.ProjectCode(), got.ProjectCode(), "grant %v, split %v, argv %q", g, split, argv)
			}
		}
	}
}

// TestClassifyGrantedLeavesTheListAlone: trying a grant adds nothing to
// the lists.
func TestClassifyGrantedLeavesTheListAlone(t *testing.T) {
	c := &Commands{}
	c.AddDefaults()
	before := len(c.Matchers(SafeList))
	v := c.ClassifyGranted(Site{}, nil, nil, []string{"curl", "https://example.com"}, nil, Matcher{Command: "curl"})
	assert.Equal(t, Safe, v.Result())
	assert.Len(t, c.Matchers(SafeList), before)
	v = c.Classify(Site{}, nil, nil, []string{"curl", "https://example.com"}, nil)
	assert.NotEqual(t, Safe, v.Result())
}

// TestClassifyGrantedEverySpec: a grant for each program spec's command
// and prefix, tried on lists without that spec's own matcher (empty
// lists) and on the defaults, gives what the lists with the grant added
// give: the grant's spec, when it has one, reads the argv as the list's
// matcher would have it read.
func TestClassifyGrantedEverySpec(t *testing.T) {
	sb := engineSandbox(t)
	site := Site{SandboxDir: sb, Cwd: sb}
	defaults := &Commands{}
	defaults.AddDefaults()
	for _, sp := range programs.All() {
		g := Matcher{Command: sp.Command, CommandArgsPrefix: sp.Prefix, Reason: "session grant"}
		base := append([]string{sp.Command}, sp.Prefix...)
		argvs := [][]string{base}
		for _, extra := range []string{"x", "/etc/passwd", "-z", "--check", ".env"} {
			argvs = append(argvs, append(append([]string(nil), base...), extra))
		}
		for _, plain := range []*Commands{{}, defaults} {
			with := &Commands{}
			for _, l := range []List{BlockedList, DangerousList, SafeList} {
				for _, m := range plain.Matchers(l) {
					with.Add(l, m)
				}
			}
			with.Add(SafeList, g)
			for _, argv := range argvs {
				want := with.Classify(site, nil, nil, argv, nil)
				got := plain.ClassifyGranted(site, nil, nil, argv, nil, g)
				require.Equal(t, want.Result(), got.Result(), "grant %v, argv %q: %s / %s", g, argv, want.Rule(), got.Rule())
				assert.Equal(t, want.Rule(), got.Rule(), "grant %v, argv %q", g, argv)
				assert.Equal(t, want.ProjectCode(), got.ProjectCode(), "grant %v, argv %q", g, argv)
			}
		}
	}
}
