package confine

import (
	"fmt"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// abiScope is the Landlock ABI version (Linux 6.12) that scopes signals and
// abstract UNIX sockets.
const abiScope = 6

// landlockABI returns the kernel's Landlock ABI version, 0 when it has
// none.
func landlockABI() int {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return abi
}

// needScope says whether a policy needs Landlock's scoping, and returns an
// error wrapping ErrUnavailable when the kernel lacks it. With the network
// shared, the command is in the machine's network namespace, where the
// abstract UNIX sockets of every other program are; only Landlock's scope
// keeps it from them. Without the network, a namespace of its own does.
func needScope(abi int, network bool) (bool, error) {
	if !network {
		return abi >= abiScope, nil
	}
	if abi < abiScope {
		return false, fmt.Errorf("confine: with the network allowed, only Landlock's scoping (ABI %d, Linux 6.12) keeps a confined command from the abstract UNIX sockets of other programs, and this kernel has ABI %d: %w", abiScope, abi, ErrUnavailable)
	}
	return true, nil
}

// scopeRuleset returns a Landlock ruleset that handles no file or network
// access, only scopes: a process in its domain can neither signal nor
// connect to the abstract UNIX sockets of processes outside it. Handling
// no file access keeps mounting allowed, which bubblewrap needs after the
// domain is in force.
func scopeRuleset() (int, error) {
	attr := ll.RulesetAttr{Scoped: ll.ScopeAbstractUnixSocket | ll.ScopeSignal}
	fd, err := ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return -1, fmt.Errorf("confine: creating the Landlock ruleset: %v: %w", err, ErrUnavailable)
	}
	return fd, nil
}

// restrictThread puts the calling OS thread in the domain of ruleset fd
// (setting no_new_privs first, as Landlock requires).
func restrictThread(fd int) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("confine: setting no_new_privs: %v: %w", err, ErrUnavailable)
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		return fmt.Errorf("confine: landlock_restrict_self: %v: %w", err, ErrUnavailable)
	}
	return nil
}
