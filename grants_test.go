package sandboxauth

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGrantRules(t *testing.T) {
	ok := []Grant{
		{Operation: OpShell, Command: []string{"npm", "run", "test"}},
		{Operation: OpShell, Command: []string{"make"}},
		{Operation: OpRead, Path: "/home/u/p/.env"},
		{Operation: OpWrite, Path: "/home/u/p/gen", Subtree: true},
		{Operation: OpShell, Command: []string{"npm", "run", "test"}, Sandbox: "/home/u/p"},
	}
	for _, g := range ok {
		assert.NoError(t, checkGrant(g), "%v", g)
	}
	bad := map[string]Grant{
		"shell":              {Operation: OpShell, Command: []string{"bash"}},
		"shell with script":  {Operation: OpShell, Command: []string{"sh", "-c"}},
		"interpreter":        {Operation: OpShell, Command: []string{"python3"}},
		"inline awk":         {Operation: OpShell, Command: []string{"awk"}},
		"wrapper":            {Operation: OpShell, Command: []string{"timeout"}},
		"env wrapper":        {Operation: OpShell, Command: []string{"env"}},
		"xargs":              {Operation: OpShell, Command: []string{"xargs"}},
		"sudo":               {Operation: OpShell, Command: []string{"sudo"}},
		"blocked":            {Operation: OpShell, Command: []string{"curl"}},
		"path program":       {Operation: OpShell, Command: []string{"./build.sh"}},
		"abs program":        {Operation: OpShell, Command: []string{"/usr/bin/make"}},
		"flag word":          {Operation: OpShell, Command: []string{"git", "-c"}},
		"too many words":     {Operation: OpShell, Command: []string{"a", "b", "c", "d"}},
		"empty command":      {Operation: OpShell},
		"shell with path":    {Operation: OpShell, Command: []string{"make"}, Path: "/x"},
		"relative sandbox":   {Operation: OpShell, Command: []string{"make"}, Sandbox: "p"},
		"unclean sandbox":    {Operation: OpShell, Command: []string{"make"}, Sandbox: "/p/"},
		"read with sandbox":  {Operation: OpRead, Path: "/p/x", Sandbox: "/p"},
		"relative path":      {Operation: OpRead, Path: "x/y"},
		"root":               {Operation: OpWrite, Path: "/", Subtree: true},
		"unclean":            {Operation: OpRead, Path: "/a/../b"},
		"path with command":  {Operation: OpRead, Path: "/a", Command: []string{"ls"}},
		"unknown operation":  {Operation: "delete", Path: "/a"},
		"upper-case program": {Operation: OpShell, Command: []string{"CURL"}},
		"assignment":         {Operation: OpShell, Command: []string{"make", "CC=evil"}},
	}
	for name, g := range bad {
		assert.ErrorIs(t, checkGrant(g), ErrInvalidConfig, name)
	}
}

func TestGrantsStore(t *testing.T) {
	s := NewGrants()
	g1 := Grant{Operation: OpShell, Command: []string{"npm", "run", "test"}}
	g2 := Grant{Operation: OpRead, Path: "/p/.env"}
	require.NoError(t, s.Add(g1))
	require.NoError(t, s.Add(g1))
	require.NoError(t, s.Add(g2))
	assert.Equal(t, []Grant{g1, g2}, s.List())
	l := s.List()
	l[0].Command[0] = "evil"
	assert.Equal(t, "npm", s.List()[0].Command[0], "List returns copies")

	data, err := s.Export()
	require.NoError(t, err)
	other := NewGrants()
	require.NoError(t, other.Import(data))
	assert.Equal(t, s.List(), other.List())

	assert.True(t, s.Revoke(g1))
	assert.False(t, s.Revoke(g1))
	assert.Equal(t, []Grant{g2}, s.List())
	s.Clear()
	assert.Empty(t, s.List())

	assert.ErrorIs(t, s.Add(Grant{Operation: OpShell, Command: []string{"bash"}}), ErrInvalidConfig)
}

func TestGrantsImportIsStrictAndAllOrNothing(t *testing.T) {
	cases := map[string]string{
		"unknown field": `[{"operation":"read","path":"/a","forever":true}]`,
		"trailing data": `[] []`,
		"not an array":  `{"operation":"read"}`,
		"shell grant":   `[{"operation":"read","path":"/a"},{"operation":"shell","command":["sh"]}]`,
		"blocked":       `[{"operation":"shell","command":["ssh"]}]`,
		"wrapper":       `[{"operation":"shell","command":["nohup"]}]`,
		"relative":      `[{"operation":"write","path":"a"}]`,
		"bad operation": `[{"operation":"exec","command":["ls"]}]`,
	}
	for name, data := range cases {
		s := NewGrants()
		err := s.Import([]byte(data))
		assert.ErrorIs(t, err, ErrInvalidConfig, name)
		assert.Empty(t, s.List(), "%s: nothing added", name)
	}
	s := NewGrants()
	err := s.Import([]byte(`[{"operation":"read","path":"/a"},{"operation":"shell","command":["sh"]}]`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "grants[1]")
}

func TestGrantsConcurrent(t *testing.T) {
	s := NewGrants()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			g := Grant{Operation: OpRead, Path: "/p/f" + string(rune('a'+i))}
			for j := 0; j < 200; j++ {
				_ = s.Add(g)
				s.List()
				if j%3 == 0 {
					s.Revoke(g)
				}
			}
		}(i)
	}
	wg.Wait()
}

func TestCommandScope(t *testing.T) {
	cases := []struct {
		argv  []string
		class CommandCheckResult
		want  []string // nil: none offered
	}{
		{[]string{"npm", "run", "test", "--watch"}, CommandCheckResultNone, []string{"npm", "run", "test"}},
		{[]string{"go", "test", "./..."}, CommandCheckResultDangerous, []string{"go", "test"}},
		{[]string{"make"}, CommandCheckResultNone, []string{"make"}},
		{[]string{"rm", "-rf", "build"}, CommandCheckResultDangerous, []string{"rm"}},
		{[]string{"docker", "compose", "up", "web"}, CommandCheckResultDangerous, []string{"docker", "compose", "up"}},
		{[]string{"curl", "x"}, CommandCheckResultBlocked, nil},
		{[]string{"bash", "-c", "make"}, CommandCheckResultInscrutable, nil},
		{[]string{"python3", "x.py"}, CommandCheckResultNone, nil},
		{[]string{"timeout", "5", "make"}, CommandCheckResultNone, nil},
		{[]string{"./build.sh"}, CommandCheckResultNone, nil},
		{[]string{"ls"}, CommandCheckResultSafe, nil},
	}
	for _, c := range cases {
		g, ok := commandScope(c.argv, c.class)
		if c.want == nil {
			assert.False(t, ok, "%v", c.argv)
			continue
		}
		require.True(t, ok, "%v", c.argv)
		assert.Equal(t, c.want, g.Command, "%v", c.argv)
	}
}

func TestPathScope(t *testing.T) {
	assert.Equal(t, []string{"/sb/a/b", "/sb/a", "/sb"}, pathScope("/sb", []string{"/sb/a/b/c.go"}))
	assert.Equal(t, []string{"/sb/a", "/sb"}, pathScope("/sb", []string{"/sb/a/b/c.go", "/sb/a/d.go"}))
	assert.Equal(t, []string{"/sb"}, pathScope("/sb", []string{"/sb/x", "/sb/y/z"}))
	assert.Equal(t, []string{"/sb"}, pathScope("/sb", []string{"/sb/.env"}))
}

// TestGrantsPerSandbox: two grants of the same command in two sandboxes
// are two grants; revoking one leaves the other.
func TestGrantsPerSandbox(t *testing.T) {
	s := NewGrants()
	a := Grant{Operation: OpShell, Command: []string{"make"}, Sandbox: "/p/a"}
	b := Grant{Operation: OpShell, Command: []string{"make"}, Sandbox: "/p/b"}
	require.NoError(t, s.Add(a))
	require.NoError(t, s.Add(b))
	require.NoError(t, s.Add(a))
	assert.Equal(t, []Grant{a, b}, s.List())
	assert.True(t, s.Revoke(a))
	assert.Equal(t, []Grant{b}, s.List())
	assert.True(t, a.appliesIn("/p/a"))
	assert.False(t, a.appliesIn("/p/b"))
	assert.True(t, Grant{Operation: OpShell, Command: []string{"make"}}.appliesIn("/p/b"))
}
