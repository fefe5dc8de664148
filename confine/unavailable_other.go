//go:build !linux

package confine

import (
	"fmt"
	"os/exec"
	"runtime"
)

func support(network bool) (int, error) {
	return 0, fmt.Errorf("confine: %s has no confinement backend (Linux Landlock only): %w", runtime.GOOS, ErrUnavailable)
}

func start(cmd *exec.Cmd, p *Policy) error {
	_, err := support(p.Network)
	return err
}
