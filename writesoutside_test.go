package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShellWritesOutsideRefused: a shell command that writes, creates or
// deletes a path outside the sandbox is refused by the Sandbox policy, as a
// tool's write outside is, with the path named before anything else; the
// Permissive policy asks, naming it too. The cases with a link were run
// for real in a throwaway directory: rm -rf out/ emptied the directory the
// link leads to. Writes beneath the temporary directory and reads outside
// are asked about, as before.
func TestShellWritesOutsideRefused(t *testing.T) {
	root := t.TempDir()
	sb := filepath.Join(root, "sb")
	victim := filepath.Join(root, "victim")
	require.NoError(t, os.MkdirAll(sb, 0o755))
	require.NoError(t, os.MkdirAll(victim, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(victim, "keep"), []byte("k"), 0o644))
	require.NoError(t, os.Symlink("../victim", filepath.Join(sb, "out")))
	// The temporary directory of the commands is a directory of its own,
	// so that the tree above (itself in the test's temporary directory) is
	// not beneath it.
	tmp := filepath.Join(root, "tmp")
	require.NoError(t, os.MkdirAll(tmp, 0o755))
	t.Setenv("TMPDIR", tmp)
	tmpFile := filepath.Join(tmp, "out.log")

	commands := NewShellAllowedCommands()
	commands.SetSplitCompound(true)
	tests := []struct {
		name    string
		argv    []string
		refused bool   // Sandbox refuses with ErrOutsideSandbox
		rule    string // the rule both policies name
	}{
		{"rm -rf ~ in a script", []string{"bash", "-c", "rm -rf ~"}, true, "writes outside sandbox: ~"},
		{"rm -rf ~/ in a script", []string{"bash", "-c", "rm -rf ~/"}, true, "writes outside sandbox: ~/"},
		{"rm -rf /", []string{"rm", "-rf", "/"}, true, "writes outside sandbox: /"},
		{"rm -f /etc/hosts", []string{"rm", "-f", "/etc/hosts"}, true, "writes outside sandbox: /etc/hosts"},
		{"rm /etc/hosts", []string{"rm", "/etc/hosts"}, true, "writes outside sandbox: /etc/hosts"},
		{"rm -rf through a link", []string{"rm", "-rf", "out/"}, true, "writes outside sandbox: out/"},
		{"rm -rf ..", []string{"rm", "-rf", "../victim"}, true, "writes outside sandbox: ../victim"},
		{"cp over a file through a link", []string{"cp", "/dev/null", "out/keep"}, true, "writes outside sandbox: out/keep"},
		{"mv a file out of a link", []string{"mv", "out/keep", "x"}, true, "writes outside sandbox: out/keep"},
		{"touch outside", []string{"touch", "/etc/x"}, true, "writes outside sandbox: /etc/x"},
		{"an unsafe option's output file", []string{"sort", "-o", "/etc/x", "a"}, true, "writes outside sandbox: /etc/x"},
		{"find's output file", []string{"find", ".", "-fprint", "/etc/x"}, true, "writes outside sandbox: /etc/x"},
		{"a redirection into the home directory", []string{"bash", "-c", "echo x >> ~/.bashrc"}, true, "redirection outside sandbox: >>~/.bashrc"},
		{"after a safe segment", []string{"bash", "-c", "ls && rm -rf ~"}, true, "writes outside sandbox: ~"},
		{"the temporary directory asks", []string{"bash", "-c", "ls > " + tmpFile}, false, "redirection outside sandbox: >" + tmpFile},
		{"rm in the temporary directory asks", []string{"rm", "-f", tmpFile}, false, "writes outside sandbox: " + tmpFile},
		{"a read outside asks", []string{"cat", "/etc/hostname"}, false, "path outside sandbox: /etc/hostname"},
		{"a copy from outside asks", []string{"cp", "/etc/hostname", "x"}, false, "path outside sandbox: /etc/hostname"},
		{"rm -rf inside asks for the flags", []string{"rm", "-rf", "build"}, false, "recursive or forced removal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sandbox, sreqs, err := NewSandboxAuthorizer(commands)
			require.NoError(t, err)
			defer sandbox.Close()
			err = answerNo(sreqs, func() error { return sandbox.IsShellAuthorized(false, "", sb, sb, tt.argv) })
			if tt.refused {
				require.ErrorIs(t, err, ErrOutsideSandbox)
				assert.Contains(t, err.Error(), "was refused: outside the sandbox ")
				assert.NotContains(t, err.Error(), "refused by the user", "refused without asking")
			} else {
				require.ErrorIs(t, err, ErrAuthorizationDenied, "asked")
			}

			permissive, preqs, err := NewPermissiveSandboxAuthorizer(commands)
			require.NoError(t, err)
			defer permissive.Close()
			var rule string
			err = answerNoRule(preqs, &rule, func() error { return permissive.IsShellAuthorized(false, "", sb, sb, tt.argv) })
			require.ErrorIs(t, err, ErrAuthorizationDenied, "Permissive asks")
			assert.Contains(t, rule, tt.rule)
		})
	}
	_, err := os.Stat(filepath.Join(victim, "keep"))
	require.NoError(t, err, "nothing ran")
}

// answerNo runs call while answering every request with Disallow.
func answerNo(reqs <-chan UserRequest, call func() error) error {
	var rule string
	return answerNoRule(reqs, &rule, call)
}

// answerNoRule is answerNo that records the first request's Rule.
func answerNoRule(reqs <-chan UserRequest, rule *string, call func() error) error {
	done := make(chan error, 1)
	go func() { done <- call() }()
	for {
		select {
		case r := <-reqs:
			if *rule == "" {
				*rule = r.Rule
			}
			r.Disallow()
		case err := <-done:
			return err
		}
	}
}
