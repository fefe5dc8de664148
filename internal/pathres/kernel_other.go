//go:build !linux || !(386 || amd64 || arm || arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x)

package pathres

// kernelResolve never answers on this system: there is no openat2 (or its
// number is not known here), so every path is resolved in user space.
func kernelResolve(p string, t tiers) (string, proof) {
	return "", notProven
}

// kernelResolveFrom never answers either.
func kernelResolveFrom(p string, t tiers, placed string) (string, proof) {
	return "", notProven
}
