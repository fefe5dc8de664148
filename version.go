package sandboxauth

import (
	"runtime/debug"
	"strings"
)

// modulePath is this module's path, as go.mod names it.
const modulePath = "github.com/sandboxauth/sandboxauth"

// Version returns the version of this module in the running program, as
// the Go toolchain recorded it in the build information: a release tag
// ("v1.2.0") or a pseudo-version ("v0.0.0-20261126120000-4e7e013c5d2a")
// when the module was fetched as a dependency or installed with
// go install …@latest, and "(devel)" when the program was built inside a
// checkout of the module, followed by the commit it was built from when
// the toolchain recorded one ("(devel) 4e7e013c5d2a", "+modified" when
// the checkout had uncommitted changes). It returns "(unknown)" for a
// program built without build information.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	return versionFrom(bi)
}

// versionFrom is Version read from bi.
func versionFrom(bi *debug.BuildInfo) string {
	mod := &bi.Main
	if bi.Main.Path != modulePath {
		mod = nil
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				mod = d
				break
			}
		}
	}
	if mod == nil {
		return "(unknown)"
	}
	if mod.Replace != nil {
		mod = mod.Replace
	}
	v := mod.Version
	if v != "" && v != "(devel)" {
		return v
	}
	v = "(devel)"
	if mod != &bi.Main {
		return v // a replacement by a local directory: no revision is recorded
	}
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	rev = rev[:min(len(rev), 12)]
	if modified {
		rev += "+modified"
	}
	return strings.Join([]string{v, rev}, " ")
}
