package confine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// bwrapCandidates are the places bubblewrap is looked for, in order. Only
// fixed system locations: a bwrap found through PATH could be any program
// that a user's earlier command put there, and distributions' AppArmor
// profiles that allow user namespaces name /usr/bin/bwrap.
var bwrapCandidates = [...]string{"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}

// findBwrap returns the path of the system's bubblewrap, or an error
// wrapping ErrUnavailable that says how to install it.
func findBwrap() (string, error) {
	return findBwrapIn(bwrapCandidates[:])
}

// findBwrapIn is findBwrap over the given places.
func findBwrapIn(candidates []string) (string, error) {
	for _, p := range candidates {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("confine: bubblewrap is not installed (looked for %s); install it with your package manager (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap): %w", strings.Join(candidates, ", "), ErrUnavailable)
}

// namespaceArgs are the namespaces every confined command gets: a user
// namespace in which it has no capabilities and cannot make another, its
// own mounts, processes, System V and POSIX IPC, host name and cgroup
// view, and (unless network is allowed) its own network with only a
// loopback interface. It runs in a session of its own, so it has no
// controlling terminal, and dies if the process that started it does.
func namespaceArgs(network bool) []string {
	a := []string{
		"--unshare-user", "--disable-userns", "--unshare-ipc", "--unshare-pid",
		"--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL",
		"--new-session", "--die-with-parent",
	}
	if !network {
		a = append(a, "--unshare-net")
	}
	return a
}

// probe starts bubblewrap with every namespace a confined command gets and
// nothing in it, and reports what is missing when that fails.
func probe(bwrap string) error {
	args := append(namespaceArgs(false), "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", bwrap, "--version")
	cmd := exec.Command(bwrap, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("confine: bubblewrap (%s) cannot create the namespaces a confined command needs: %s%s: %w",
			bwrap, strings.TrimSpace(firstNonEmpty(stderr.String(), err.Error())), userNamespaceAdvice(), ErrUnavailable)
	}
	return nil
}

// userNamespaceAdvice names the system setting that forbids unprivileged
// user namespaces, when one does, and how to change it.
func userNamespaceAdvice() string {
	return userNamespaceAdviceFrom(func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	})
}

// userNamespaceAdviceFrom is userNamespaceAdvice with the system's
// settings read by read.
func userNamespaceAdviceFrom(read func(path string) string) string {
	switch {
	case read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
		return " (AppArmor forbids unprivileged user namespaces here: allow bubblewrap with an AppArmor profile for /usr/bin/bwrap, or run sysctl kernel.apparmor_restrict_unprivileged_userns=0)"
	case read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
		return " (unprivileged user namespaces are switched off: run sysctl kernel.unprivileged_userns_clone=1)"
	case read("/proc/sys/user/max_user_namespaces") == "0":
		return " (user namespaces are switched off: run sysctl user.max_user_namespaces=15000)"
	}
	if read("/proc/self/ns/user") == "" {
		if _, err := os.Stat("/proc/self/ns/user"); errors.Is(err, os.ErrNotExist) {
			return " (this kernel has no user namespaces: it needs CONFIG_USER_NS)"
		}
	}
	return ""
}

// namespacesForbidden reports, without starting anything, that the
// system's settings forbid the namespaces bubblewrap needs, as an error
// wrapping ErrUnavailable; when they might (AppArmor's rule, which a
// profile for bwrap lifts), it asks bubblewrap itself.
func namespacesForbidden(bwrap string) error {
	advice := userNamespaceAdvice()
	switch {
	case advice == "":
		return nil
	case os.Geteuid() == 0 && !strings.Contains(advice, "max_user_namespaces"):
		return nil // the other settings bind unprivileged users only
	case strings.Contains(advice, "AppArmor"):
		return probe(bwrap)
	}
	return fmt.Errorf("confine: user namespaces are not available to this process%s: %w", advice, ErrUnavailable)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
