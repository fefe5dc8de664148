package classify

import (
	"os"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth/internal/programs"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// rustSources judges what a Rust formatter reads beyond its operands:
// rustfmt follows each file's modules and path attributes (the trees of
// its operands' directories are walked), cargo fmt every target its
// manifests name (the tree from the highest directory holding a
// Cargo.toml between the manifest's and the sandbox's is walked). See
// repotrust.RustTreeTrusted.
func (r *cmdClassifier) rustSources(sp *programs.Spec, args []string, cwd string) Verdict {
	if !sp.RustModules && !sp.RustCrate {
		return safeCmdVerdict
	}
	if r.untrusted {
		return untrustedVerdict("the Rust files the formatter follows", "they may have been written to name files outside")
	}
	if r.sandbox == "" {
		return safeCmdVerdict // as for project files: with no sandbox, no tree is known
	}
	p := programs.Acquire(sp, args[1+len(sp.Prefix):])
	defer programs.Release(p)
	if p.Problem != nil {
		return safeCmdVerdict // refused by the spec already
	}
	var roots []string
	if sp.RustModules {
		for _, f := range p.Files {
			roots = append(roots, filepath.Dir(atCwd(cwd, f.Word)))
		}
	}
	if sp.RustCrate {
		start := cwd
		if m := p.Values("--manifest-path"); len(m) > 0 {
			start = filepath.Dir(atCwd(cwd, m[len(m)-1]))
		}
		roots = append(roots, start)
	}
	for _, root := range roots {
		real, inside, err := r.contains(root)
		if err != nil || !inside {
			return mkVerdict(Dangerous, "rule: path outside sandbox: "+root, "the formatter reads Rust files outside the sandbox")
		}
		if sp.RustCrate {
			real = topCrate(real, r.sandboxRoot())
		}
		if ok, reason := repotrust.RustTreeTrusted(real, r.sandboxRoot(), sp.RustCrate); !ok {
			return mkVerdict(Dangerous, "rule: Rust formatter leaves the project", reason+"; a person decides")
		}
	}
	return safeCmdVerdict
}

// topCrate returns the highest directory from dir up to root that holds a
// Cargo.toml (the workspace root cargo may find), or dir.
func topCrate(dir, root string) string {
	top := dir
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, "Cargo.toml")); err == nil {
			top = d
		}
		if d == root || d == "/" || d == "." {
			return top
		}
	}
}
