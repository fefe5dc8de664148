package confine

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHiddenLinksFollowed: what links inside hidden directories lead to
// is hidden under its own name, through a chain of links, through a link
// inside a directory reached so (a second hop), when it is relative, and
// when it lies in the sandbox (where it cannot be opened); public package
// trees and the command's own /tmp are passed over.
func TestHiddenLinksFollowed(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	t.Setenv("KUBECONFIG", "")
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	write := func(path, body string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
	}
	link := func(target, at string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(at), 0o700))
		require.NoError(t, os.Symlink(target, at))
	}
	write(home+"/clusters/prod.yaml", "CHAINEDSECRET")
	link(home+"/clusters/prod.yaml", home+"/clusters/current.yaml")
	link(home+"/clusters/current.yaml", home+"/.kube/config")
	write(home+"/shared/aws/credentials", "SECONDHOPSECRET")
	link(home+"/shared/aws/credentials", home+"/keys-in-dir/credentials")
	link(home+"/keys-in-dir", home+"/.aws/keys")
	write(home+"/keys/id_work", "RELATIVESECRET")
	link("../keys/id_work", home+"/.ssh/id_work")
	write(sb+"/deploy/kubeconfig.yaml", "INSANDBOXSECRET")
	link(sb+"/deploy/kubeconfig.yaml", home+"/.kube/sandbox-config")
	link("/tmp/nowhere-sandboxauth", home+"/.ssh/agent.sock")
	link("/usr/bin/env", home+"/.docker/cli-plugins/docker-env")

	p := DefaultPolicy(sb)
	for _, c := range []struct{ path, mark string }{
		{home + "/clusters/prod.yaml", "CHAINEDSECRET"},
		{home + "/clusters/current.yaml", "CHAINEDSECRET"},
		{home + "/shared/aws/credentials", "SECONDHOPSECRET"},
		{home + "/keys/id_work", "RELATIVESECRET"},
		{sb + "/deploy/kubeconfig.yaml", "INSANDBOXSECRET"},
	} {
		out, _ := sh(t, p, sb, "cat "+c.path)
		assert.NotContains(t, out, c.mark, "%s was readable", c.path)
	}
	out, err := sh(t, p, sb, "test -x /usr/bin/env && echo public")
	require.NoError(t, err, out)
	assert.Contains(t, out, "public", "a program of the system's package tree that a hidden directory links to stays in sight")
}

// TestHiddenLinkMadeWhileRunning: a link inside a hidden directory that
// leads nowhere yet (~/.kube/config -> ~/clusters/next.yaml before it is
// made) keeps the file it names from being read when it is made while
// the command runs.
func TestHiddenLinkMadeWhileRunning(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	t.Setenv("KUBECONFIG", "")
	require.NoError(t, os.MkdirAll(home+"/.kube", 0o700))
	require.NoError(t, os.MkdirAll(home+"/clusters", 0o700))
	target := home + "/clusters/next.yaml"
	require.NoError(t, os.Symlink(target, home+"/.kube/config"))
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", "for i in $(seq 100); do [ -e "+target+" ] && break; sleep 0.05; done; cat "+target)
	cmd.Dir = sb
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, DefaultPolicy(sb)))
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, os.WriteFile(target, []byte("MADELATERSECRET"), 0o600))
	_ = cmd.Wait()
	assert.NotContains(t, out.String(), "MADELATERSECRET")
	assert.Contains(t, out.String(), "ermission denied", "the command saw the file and could not read it")
}

// TestHiddenLinksFailClosed: a link inside a hidden directory that leads
// to the home, to a directory holding the sandbox, to a file with a
// second name, or into a Writable entry makes the policy refused, with a
// message naming the link; so does a sandbox inside a hidden directory.
func TestHiddenLinksFailClosed(t *testing.T) {
	requireConfinement(t)
	for _, c := range []struct {
		name, want string
		setup      func(t *testing.T, home, sb string) Policy
	}{
		{"to the home", ".ssh/home", func(t *testing.T, home, sb string) Policy {
			require.NoError(t, os.Symlink(home, home+"/.ssh/home"))
			return DefaultPolicy(sb)
		}},
		{"to a directory holding the sandbox", ".kube/work", func(t *testing.T, home, sb string) Policy {
			require.NoError(t, os.Symlink(filepath.Dir(sb), home+"/.kube/work"))
			return DefaultPolicy(sb)
		}},
		{"to a file with a second name", ".ssh/id_work", func(t *testing.T, home, sb string) Policy {
			require.NoError(t, os.WriteFile(home+"/keys/id_work", []byte("k"), 0o600))
			require.NoError(t, os.Link(home+"/keys/id_work", home+"/keys/id_work.copy"))
			require.NoError(t, os.Symlink(home+"/keys/id_work", home+"/.ssh/id_work"))
			return DefaultPolicy(sb)
		}},
		{"into a Writable entry", ".aws/credentials", func(t *testing.T, home, sb string) Policy {
			shared := t.TempDir()
			require.NoError(t, os.WriteFile(shared+"/creds", []byte("k"), 0o600))
			require.NoError(t, os.Symlink(shared+"/creds", home+"/.aws/credentials"))
			p := DefaultPolicy(sb)
			p.Writable = append(p.Writable, shared)
			return p
		}},
		{"a sandbox inside a hidden directory", "lies in the hidden directory", func(t *testing.T, home, sb string) Policy {
			inside := home + "/.aws/project"
			require.NoError(t, os.Mkdir(inside, 0o700))
			return DefaultPolicy(inside)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := fakeHome(t)
			t.Setenv("GOCACHE", home+"/.cache/go-build")
			for _, d := range []string{".ssh", ".kube", ".aws", "keys", "work/proj"} {
				require.NoError(t, os.MkdirAll(filepath.Join(home, d), 0o700))
			}
			sb := home + "/work/proj"
			p := c.setup(t, home, sb)
			cmd := newTrue(p.Sandbox)
			err := Run(cmd, p)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrUnsafePolicy), "%v", err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
