package pathres

import (
	"path/filepath"
	"testing"
)

// benchTree builds sb/d1/d2/d3/d4/file.txt and the chain
// sb/c1 -> c2 -> c3 -> c4 -> $B/sb/c5, c5 -> d1/d2.
func benchTree(b *testing.B) *testTree {
	tr := newTestTree(b)
	tr.file("sb/d1/d2/d3/d4/file.txt")
	tr.link("sb/c1", "c2")
	tr.link("sb/c2", "c3")
	tr.link("sb/c3", "c4")
	tr.link("sb/c4", "$B/sb/c5")
	tr.link("sb/c5", "d1/d2")
	return tr
}

// modes runs f twice: as the package's callers get it (kernel first, on
// Linux) and with the user-space resolver alone.
func modes(b *testing.B, f func(b *testing.B, kernel bool)) {
	b.Run("kernel", func(b *testing.B) { f(b, true) })
	b.Run("userspace", func(b *testing.B) { f(b, false) })
}

// benchContains measures Contains(sb, rel) and requires inside.
func benchContains(b *testing.B, rel string) {
	modes(b, func(b *testing.B, kernel bool) {
		tr := benchTree(b)
		root, p := tr.path("sb"), tr.path(rel)
		b.ReportAllocs()
		for b.Loop() {
			if _, inside, err := contains(root, p, kernel); err != nil || !inside {
				b.Fatal(inside, err)
			}
		}
	})
}

// BenchmarkContains: an existing file four directories below the sandbox.
// In user space, nine lstat calls (four for the components of the sandbox
// root, five below it); on Linux, one openat2 and one close.
func BenchmarkContains(b *testing.B) { benchContains(b, "sb/d1/d2/d3/d4/file.txt") }

// BenchmarkContainsNewFile: a file to be created in an existing directory
// four levels below the sandbox.
func BenchmarkContainsNewFile(b *testing.B) { benchContains(b, "sb/d1/d2/d3/d4/new.txt") }

// BenchmarkContainsMissing: a file to be created, three missing directories
// below an existing one.
func BenchmarkContainsMissing(b *testing.B) { benchContains(b, "sb/d1/new1/new2/new3/file.txt") }

// BenchmarkContainsDotDot: ".." makes Contains resolve filepath.Clean(p) too
// (unless the kernel proved that p has no symlink).
func BenchmarkContainsDotDot(b *testing.B) { benchContains(b, "sb/d1/d2/../d2/d3/d4/file.txt") }

// BenchmarkContainsSymlinkChain: the existing file reached through the chain
// of five links.
func BenchmarkContainsSymlinkChain(b *testing.B) { benchContains(b, "sb/c1/d3/d4/file.txt") }

// BenchmarkNewRoot: resolving the sandbox root alone.
func BenchmarkNewRoot(b *testing.B) {
	modes(b, func(b *testing.B, kernel bool) {
		tr := benchTree(b)
		root := tr.path("sb")
		b.ReportAllocs()
		for b.Loop() {
			if _, err := newRoot(root, kernel); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRootContains: the existing file against a root resolved once.
func BenchmarkRootContains(b *testing.B) {
	modes(b, func(b *testing.B, kernel bool) {
		tr := benchTree(b)
		r, err := newRoot(tr.path("sb"), kernel)
		if err != nil {
			b.Fatal(err)
		}
		p := tr.path("sb/d1/d2/d3/d4/file.txt")
		b.ReportAllocs()
		for b.Loop() {
			if _, inside, err := r.Contains(p); err != nil || !inside {
				b.Fatal(inside, err)
			}
		}
	})
}

// BenchmarkResolve: the same existing file, without a sandbox root.
func BenchmarkResolve(b *testing.B) {
	modes(b, func(b *testing.B, kernel bool) {
		tr := benchTree(b)
		p := tr.path("sb/d1/d2/d3/d4/file.txt")
		b.ReportAllocs()
		for b.Loop() {
			if _, err := resolve(p, kernel); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkResolveSymlinkChain: a chain of five links (four relative, one
// absolute) in the middle of the path.
func BenchmarkResolveSymlinkChain(b *testing.B) {
	modes(b, func(b *testing.B, kernel bool) {
		tr := benchTree(b)
		p := tr.path("sb/c1/d3/d4/file.txt")
		want := tr.path("sb/d1/d2/d3/d4/file.txt")
		b.ReportAllocs()
		for b.Loop() {
			if got, err := resolve(p, kernel); err != nil || got != want {
				b.Fatal(got, err)
			}
		}
	})
}

// BenchmarkEvalSymlinks is the standard library's resolution of the path of
// BenchmarkResolve, for comparison.
func BenchmarkEvalSymlinks(b *testing.B) {
	tr := benchTree(b)
	p := tr.path("sb/d1/d2/d3/d4/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := filepath.EvalSymlinks(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLstat is one lstat system call, the unit of cost of a
// resolution in user space.
func BenchmarkLstat(b *testing.B) {
	tr := benchTree(b)
	p := tr.path("sb/d1/d2/d3/d4/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lstat(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKernelResolve is the kernel's resolution of the existing file:
// one openat2 refusing symlinks and one close.
func BenchmarkKernelResolve(b *testing.B) {
	tr := benchTree(b)
	p := tr.path("sb/d1/d2/d3/d4/file.txt")
	if _, pr := kernelResolve(p, tryAll); pr == notProven {
		b.Skip("no kernel resolution on this system")
	}
	b.ReportAllocs()
	for b.Loop() {
		kernelResolve(p, tryAll)
	}
}
