package repotrust

import "path/filepath"

// RustToolchainTrusted reports whether rustup would take the toolchain
// from its own settings: no rust-toolchain or rust-toolchain.toml in dir
// or its parents up to sandbox. Such a file is not read: its path key
// makes rustc and cargo run a binary from the project, and a channel
// that is not installed makes rustup download one (and install its
// components); telling an installed channel from one that is not needs
// rustup's own state, so any toolchain file makes rustc, cargo, rustfmt
// and the other proxies not safe (fail closed; the file is for a person
// to approve).
func RustToolchainTrusted(dir, sandbox string) (ok bool, reason string) {
	dirs, in := projectDirs(dir, sandbox)
	if !in {
		return false, dir + " is not in the sandbox, so its toolchain files are not known"
	}
	for _, d := range dirs {
		for _, n := range []string{"rust-toolchain", "rust-toolchain.toml"} {
			if p := filepath.Join(d, n); !statNotExist(p) {
				return false, p + " chooses the Rust toolchain: its path runs a program from the project, and a channel not installed is downloaded"
			}
		}
	}
	return true, ""
}
