//go:build !linux

package confine

import (
	"fmt"
	"os/exec"
	"runtime"
)

func available() error {
	return fmt.Errorf("confine: %s has no confinement backend (Linux namespaces through bubblewrap only): %w", runtime.GOOS, ErrUnavailable)
}

func start(cmd *exec.Cmd, p *Policy, finished func()) error {
	return available()
}

// PrivateCopies finds none: nothing runs confined here.
func PrivateCopies(p Policy) ([]string, error) { return nil, nil }

// RecordDir has no records to keep: nothing runs confined here.
func RecordDir(p Policy) (string, error) { return "", available() }

// SandboxRecord has no records to keep: nothing runs confined here.
func SandboxRecord(p Policy, name string) (string, error) { return "", available() }

// CheckSandbox refuses every sandbox: nothing runs confined here.
func CheckSandbox(p Policy) error { return available() }
