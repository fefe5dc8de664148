package repotrust

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// GoToolchainTrusted reports whether every go command started in dir runs
// the installed toolchain. Unless GOTOOLCHAIN is "local" in the
// environment, the go command reads the go and toolchain lines of the
// go.mod and go.work it finds, and when either asks for a newer Go than
// its own it looks for that toolchain on PATH or downloads it, and runs it
// in its place: go version and go env included. So each go.mod and
// go.work in dir and its parents up to sandbox must ask for no Go newer
// than the installed one, whose version is read from the VERSION file of
// the GOROOT that the go found on PATH belongs to. A line not understood,
// or an installed version that cannot be learnt, is not trusted. The
// go.env files (the toolchain's own and the user's) lie outside the
// sandbox and are not read: GOTOOLCHAIN=auto, the worse case, is assumed.
func GoToolchainTrusted(dir, sandbox string, env Env) (ok bool, reason string) {
	if env != nil {
		if v, ok := env("GOTOOLCHAIN"); ok && v == "local" {
			return true, ""
		}
	}
	var local goVersion
	known := false
	return scanProjectFiles(dir, sandbox, "go.mod and go.work files", []string{"go.mod", "go.work"}, func(name, _ string, b []byte) (bool, string) {
		for _, l := range lines(b) {
			f := strings.Fields(strings.SplitN(l.text, "//", 2)[0])
			if len(f) == 0 || f[0] != "go" && f[0] != "toolchain" {
				continue
			}
			if len(f) != 2 || f[1] == "(" {
				return false, at(name, l) + ": a " + f[0] + " directive in a form not read here, so which toolchain the go command runs is not known"
			}
			v := f[1]
			if u, err := strconv.Unquote(v); err == nil {
				v = u
			}
			if f[0] == "toolchain" {
				if v == "default" || v == "local" {
					continue
				}
				rest, ok := strings.CutPrefix(v, "go")
				if !ok {
					return false, at(name, l) + ": toolchain " + v + " is not a Go release name, so which toolchain the go command runs is not known"
				}
				v, _, _ = strings.Cut(rest, "-") // go1.21.0-custom
			}
			want, ok := parseGoVersion(v)
			if !ok {
				return false, at(name, l) + ": " + f[0] + " " + f[1] + " is not a Go version read here, so which toolchain the go command runs is not known"
			}
			if !known {
				if local, known = installedGo(env); !known {
					return false, at(name, l) + ": " + f[0] + " " + f[1] + " may ask for a newer Go than the installed one, whose version cannot be learnt; the go command would download and run that toolchain"
				}
			}
			if local.less(want) {
				return false, at(name, l) + ": " + f[0] + " " + f[1] + " asks for a newer Go than the installed go" + local.text +
					", so the go command would download that toolchain (or take one from PATH) and run it instead"
			}
		}
		return true, ""
	})
}

// goVersion is a Go version: 1.21 (a language version), 1.21rc2, 1.21.3.
type goVersion struct {
	major, minor, patch int
	kind                int // 0 language version, 1 beta, 2 rc, 3 release
	pre                 int
	text                string
}

// less orders versions as the go command does: 1.21 < 1.21rc1 < 1.21.0.
func (a goVersion) less(b goVersion) bool {
	for _, d := range [...][2]int{{a.major, b.major}, {a.minor, b.minor}, {a.kind, b.kind}, {a.patch, b.patch}, {a.pre, b.pre}} {
		if d[0] != d[1] {
			return d[0] < d[1]
		}
	}
	return false
}

// parseGoVersion reads 1.N, 1.N.P, 1.NrcK and 1.NbetaK (and 1 alone).
func parseGoVersion(s string) (goVersion, bool) {
	v := goVersion{text: s}
	num := func(t string) (int, bool) {
		if t == "" || len(t) > 9 {
			return 0, false
		}
		n, err := strconv.Atoi(t)
		return n, err == nil && n >= 0 && t[0] != '+' && t[0] != '-'
	}
	major, rest, hasMinor := strings.Cut(s, ".")
	var ok bool
	if v.major, ok = num(major); !ok {
		return v, false
	}
	if !hasMinor {
		return v, true
	}
	minor, patch, hasPatch := strings.Cut(rest, ".")
	switch {
	case hasPatch:
		v.kind = 3
		if v.patch, ok = num(patch); !ok {
			return v, false
		}
	case strings.Contains(minor, "rc"):
		var pre string
		minor, pre, _ = strings.Cut(minor, "rc")
		v.kind = 2
		if v.pre, ok = num(pre); !ok {
			return v, false
		}
	case strings.Contains(minor, "beta"):
		var pre string
		minor, pre, _ = strings.Cut(minor, "beta")
		v.kind = 1
		if v.pre, ok = num(pre); !ok {
			return v, false
		}
	}
	v.minor, ok = num(minor)
	return v, ok
}

// installedGo returns the version of the go command found on PATH, from
// the VERSION file of its GOROOT (the directory above its bin).
func installedGo(env Env) (goVersion, bool) {
	path := ""
	if env != nil {
		path, _ = env("PATH")
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" || !filepath.IsAbs(d) {
			continue // a relative PATH entry is the engine's concern
		}
		exe := filepath.Join(d, "go")
		fi, err := os.Stat(exe)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			continue
		}
		real, err := filepath.EvalSymlinks(exe)
		if err != nil {
			return goVersion{}, false
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(real)), "VERSION"))
		if err != nil {
			return goVersion{}, false
		}
		first, _, _ := strings.Cut(string(b), "\n")
		rest, ok := strings.CutPrefix(strings.TrimSpace(first), "go")
		if !ok {
			return goVersion{}, false
		}
		return parseGoVersion(rest)
	}
	return goVersion{}, false
}
