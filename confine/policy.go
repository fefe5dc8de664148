package confine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrUnavailable is wrapped by every error that says this kernel (or this
// operating system) cannot enforce what a Policy asks. When Start returns it,
// nothing was started.
var ErrUnavailable = errors.New("confinement unavailable")

// Policy says what a confined command may do. The zero value is not valid:
// Sandbox must be set.
type Policy struct {
	// Sandbox is the absolute path of the directory beneath which the
	// command may create, write, rename and delete files. It must exist.
	Sandbox string

	// Writable lists more absolute paths the command may write beneath: a
	// temporary directory, toolchain caches, /dev/null. An entry may name a
	// file, which then may be written but not replaced. Entries that do not
	// exist when the command starts are skipped.
	Writable []string

	// Readable restricts reads when non-nil: the command may then read and
	// execute only beneath Sandbox, Writable, Readable, the program it
	// runs and the system directories a program needs to start (/usr,
	// /bin, /sbin, /lib*, /etc, /dev, /proc, /sys). nil leaves reads
	// unrestricted. Entries that do not exist are skipped.
	Readable []string

	// Network allows TCP connect and bind. When false, the command can
	// neither connect to a TCP port nor bind one it names; a port the
	// kernel picks (binding port 0, or listening on an unbound socket),
	// which local test servers use, stays open, and so do UDP and DNS
	// (see the package documentation).
	Network bool
}

// systemReadable returns the directories a Policy with Readable set lets
// every command read and execute: the system's programs, libraries,
// configuration, devices and the proc and sys file systems. It is a fresh
// copy.
func systemReadable() []string {
	return []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/dev", "/proc", "/sys"}
}

// DefaultPolicy returns the policy real toolchains need for a project in
// sandbox: the sandbox, the temporary directory, the Go build and module
// caches, the npm, yarn, pnpm, pip, uv, poetry, cargo, deno and bun caches
// (caches only: never a directory of programs on the user's PATH, such as
// PNPM_HOME or ~/.cargo/bin) and the harmless character devices
// (/dev/null, /dev/tty, ...) are writable; reads are not restricted; there is no network. The cache
// locations follow the usual environment variables (GOCACHE, GOMODCACHE,
// GOPATH, XDG_CACHE_HOME, npm_config_cache, PIP_CACHE_DIR, CARGO_HOME, ...)
// of the calling process, falling back to each tool's default.
//
// The temporary directory is shared with every other program of the user:
// a command may leave files there for them. To keep it to itself, replace
// os.TempDir() in Writable with a directory of its own and name that
// directory in TMPDIR in cmd.Env (the sandboxauth command does so).
func DefaultPolicy(sandbox string) Policy {
	home, _ := os.UserHomeDir()
	cache, err := os.UserCacheDir()
	if err != nil && home != "" {
		cache = filepath.Join(home, ".cache")
	}
	var w []string
	add := func(env, fallback string) {
		if v := os.Getenv(env); v != "" && filepath.IsAbs(v) {
			w = append(w, v)
		} else if fallback != "" && filepath.IsAbs(fallback) {
			w = append(w, fallback)
		}
	}
	at := func(base string, elem ...string) string {
		if base == "" {
			return ""
		}
		return filepath.Join(append([]string{base}, elem...)...)
	}
	w = append(w, os.TempDir())
	add("GOCACHE", at(cache, "go-build"))
	gopath := at(home, "go")
	if v := os.Getenv("GOPATH"); v != "" {
		gopath = strings.Split(v, string(os.PathListSeparator))[0]
	}
	add("GOMODCACHE", at(gopath, "pkg", "mod"))
	add("npm_config_cache", at(home, ".npm"))
	add("YARN_CACHE_FOLDER", at(cache, "yarn"))
	// pnpm's store and cache, not PNPM_HOME: that holds pnpm's global
	// programs, a directory on the user's PATH.
	data := at(home, ".local", "share")
	if v := os.Getenv("XDG_DATA_HOME"); v != "" && filepath.IsAbs(v) {
		data = v
	}
	add("npm_config_store_dir", at(data, "pnpm", "store"))
	add("", at(cache, "pnpm"))
	add("PIP_CACHE_DIR", at(cache, "pip"))
	add("UV_CACHE_DIR", at(cache, "uv"))
	add("POETRY_CACHE_DIR", at(cache, "pypoetry"))
	cargo := at(home, ".cargo")
	if v := os.Getenv("CARGO_HOME"); v != "" {
		cargo = v
	}
	w = append(w, at(cargo, "registry"), at(cargo, "git"))
	add("DENO_DIR", at(cache, "deno"))
	add("BUN_INSTALL_CACHE_DIR", at(home, ".bun", "install", "cache"))
	w = append(w, "/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/pts")
	out := w[:0]
	for _, p := range w {
		if p != "" {
			out = append(out, filepath.Clean(p))
		}
	}
	return Policy{Sandbox: sandbox, Writable: out}
}

// check validates p and cmd before anything is opened.
func (p *Policy) check(cmd *exec.Cmd) error {
	if cmd == nil {
		return errors.New("confine: cmd is nil")
	}
	if cmd.Process != nil {
		return errors.New("confine: the command was already started")
	}
	if p.Sandbox == "" {
		return errors.New("confine: Policy.Sandbox is empty; name the directory the command may write beneath")
	}
	if err := checkPath("Sandbox", p.Sandbox); err != nil {
		return err
	}
	fi, err := os.Stat(p.Sandbox)
	if err != nil {
		return fmt.Errorf("confine: Policy.Sandbox: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("confine: Policy.Sandbox %q is not a directory", p.Sandbox)
	}
	for i, w := range p.Writable {
		if err := checkPath(fmt.Sprintf("Writable[%d]", i), w); err != nil {
			return err
		}
	}
	for i, r := range p.Readable {
		if err := checkPath(fmt.Sprintf("Readable[%d]", i), r); err != nil {
			return err
		}
	}
	return nil
}

func checkPath(field, p string) error {
	if p == "" || !filepath.IsAbs(p) || strings.IndexByte(p, 0) >= 0 {
		return fmt.Errorf("confine: Policy.%s %q must be an absolute path", field, p)
	}
	return nil
}
