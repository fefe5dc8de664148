package confine

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// offlineHints tell package managers that there is no network, so that a
// command that needs it fails at once with their own "offline" message
// instead of retrying for a minute. Set only when the network is denied,
// and only where the caller's environment does not set them.
var offlineHints = [...]string{
	"npm_config_offline=true", // npm, npx: use the cache, fail at once (ENOTCACHED)
	"YARN_ENABLE_NETWORK=0",   // yarn 2 and later
}

// commandEnv returns the environment the command runs with: env less the
// hidden variables, the URLs in those userinfo matches without their
// user and password (see envWithoutUserinfo), with TMPDIR set to /tmp
// (its own) when it names a directory the command could not write, and,
// without the network, the offline hints.
func commandEnv(env []string, v *view, network bool, hidden, userinfo []string) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(e string) bool {
		name, _, _ := strings.Cut(e, "=")
		return envHidden(name, hidden)
	})
	for i, e := range out {
		if name, value, ok := strings.Cut(e, "="); ok && envHidden(name, userinfo) {
			out[i] = name + "=" + envWithoutUserinfo(name, value)
		}
	}
	for i := len(out) - 1; i >= 0; i-- {
		dir, ok := strings.CutPrefix(out[i], "TMPDIR=")
		if !ok {
			continue
		}
		real, err := pathres.Resolve(filepath.Clean(dir))
		if err != nil || !filepath.IsAbs(dir) || v.writableRoot(real) == "" {
			out[i] = "TMPDIR=/tmp"
		}
		break
	}
	if !network {
		for _, h := range offlineHints {
			name, _, _ := strings.Cut(h, "=")
			if !slices.ContainsFunc(out, func(e string) bool { return strings.HasPrefix(e, name+"=") }) {
				out = append(out, h)
			}
		}
	}
	return out
}

// envHidden reports whether the variable name matches one of the patterns
// (an exact name, or one '*' at the start or the end), ignoring case.
func envHidden(name string, patterns []string) bool {
	name = strings.ToUpper(name)
	for _, p := range patterns {
		p = strings.ToUpper(p)
		switch {
		case strings.HasPrefix(p, "*") && strings.HasSuffix(name, p[1:]):
			return true
		case strings.HasSuffix(p, "*") && strings.HasPrefix(name, p[:len(p)-1]):
			return true
		case p == name:
			return true
		}
	}
	return false
}
