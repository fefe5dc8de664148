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

// BenchmarkContains: an existing file four directories below the sandbox.
func BenchmarkContains(b *testing.B) {
	tr := benchTree(b)
	root, p := tr.path("sb"), tr.path("sb/d1/d2/d3/d4/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		if _, inside, err := Contains(root, p); err != nil || !inside {
			b.Fatal(inside, err)
		}
	}
}

// BenchmarkContainsMissing: a file to be created, three missing directories
// below an existing one.
func BenchmarkContainsMissing(b *testing.B) {
	tr := benchTree(b)
	root, p := tr.path("sb"), tr.path("sb/d1/new1/new2/new3/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		if _, inside, err := Contains(root, p); err != nil || !inside {
			b.Fatal(inside, err)
		}
	}
}

// BenchmarkContainsDotDot: ".." makes Contains resolve filepath.Clean(p) too.
func BenchmarkContainsDotDot(b *testing.B) {
	tr := benchTree(b)
	root, p := tr.path("sb"), tr.path("sb/d1/d2/../d2/d3/d4/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		if _, inside, err := Contains(root, p); err != nil || !inside {
			b.Fatal(inside, err)
		}
	}
}

// BenchmarkResolve: the same existing file, without a sandbox root.
func BenchmarkResolve(b *testing.B) {
	tr := benchTree(b)
	p := tr.path("sb/d1/d2/d3/d4/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveSymlinkChain: a chain of five links (four relative, one
// absolute) in the middle of the path.
func BenchmarkResolveSymlinkChain(b *testing.B) {
	tr := benchTree(b)
	p := tr.path("sb/c1/d3/d4/file.txt")
	want := tr.path("sb/d1/d2/d3/d4/file.txt")
	b.ReportAllocs()
	for b.Loop() {
		if got, err := Resolve(p); err != nil || got != want {
			b.Fatal(got, err)
		}
	}
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
// resolution: Contains in BenchmarkContains makes nine (four for the
// components of the sandbox root, five below it).
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
