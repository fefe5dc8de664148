package pathres

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve appends fuzzed relative suffixes to the sandbox of a small
// fixed tree with symlinks (links in and out, dangling links, loops, a link
// to "/") and checks that Resolve always answers, agrees with
// filepath.EvalSymlinks and with the naive reference wherever they answer,
// and that Contains never calls inside a path whose real location is
// outside. Resolve and Contains must give the same answers, errors
// included, as the user-space resolver alone, and the kernel's answer
// (Linux), where it gives one, must be the user-space one. The seed corpus
// is in testdata/fuzz/FuzzResolve.
func FuzzResolve(f *testing.F) {
	tr := newTestTree(f)
	tr.dir("sb/a/b/c")
	tr.file("sb/file.txt")
	tr.link("sb/in", "a/b")
	tr.link("sb/abs", "$B/sb/a")
	tr.link("sb/up", "..")
	tr.link("sb/out", "$B/outside")
	tr.link("sb/dangin", "nothere")
	tr.link("sb/dangout", "../outside/new")
	tr.link("sb/loop", "loop")
	tr.link("sb/l1", "l2")
	tr.link("sb/l2", "l1")
	tr.link("sb/root", "/")
	tr.link("sb/deep", "a/b/c")
	tr.link("sb/flink", "file.txt")
	tr.link("sb/dot", ".")
	tr.file("outside/secret")
	tr.dir("sb-evil")
	tr.link("sblink", "sb")
	sandbox := tr.path("sb")
	roots := []string{sandbox, tr.path("sblink"), sandbox + "/"}

	f.Fuzz(func(t *testing.T, suffix string) {
		if len(suffix) > 512 {
			return // long names only exercise ENAMETOOLONG
		}
		for _, p := range []string{sandbox + "/" + suffix, tr.base + "/" + suffix} {
			got, err := Resolve(p)
			if strings.IndexByte(suffix, 0) >= 0 {
				if !errors.Is(err, ErrNUL) {
					t.Fatalf("Resolve(%q) = %q, %v; want ErrNUL", p, got, err)
				}
				continue
			}
			if err == nil && (got != filepath.Clean(got) || !filepath.IsAbs(got)) {
				t.Fatalf("Resolve(%q) = %q: not clean and absolute", p, got)
			}

			slow, slowErr := resolve(p, false)
			if errText(slowErr) != errText(err) || slow != got {
				t.Fatalf("Resolve(%q) = %q, %v; user space alone %q, %v", p, got, err, slow, slowErr)
			}
			if real, pr := kernelResolve(p, tryAll); pr != notProven && (slowErr != nil || real != slow) {
				t.Fatalf("kernelResolve(%q) = %q (proof %d); user space %q, %v", p, real, pr, slow, slowErr)
			}

			ref, refErr := refResolve(p, MaxLinks)
			if (err == nil) != (refErr == nil) || (err == nil && got != ref) ||
				errors.Is(err, ErrLoop) != errors.Is(refErr, ErrLoop) {
				t.Fatalf("Resolve(%q) = %q, %v; reference %q, %v", p, got, err, ref, refErr)
			}

			ev, evErr := filepath.EvalSymlinks(p)
			if evErr == nil {
				got255, err255 := resolveLimit(p, evalLimit)
				if err255 != nil || got255 != ev {
					t.Fatalf("Resolve(%q) = %q, %v; EvalSymlinks = %q", p, got255, err255, ev)
				}
				if err != nil && !errors.Is(err, ErrLoop) {
					t.Fatalf("Resolve(%q): %v; EvalSymlinks = %q", p, err, ev)
				}
			} else if isEvalLoop(evErr) && !errors.Is(err, ErrLoop) {
				t.Fatalf("Resolve(%q) = %q, %v; EvalSymlinks: %v", p, got, err, evErr)
			}

			for _, root := range roots {
				resolved, inside, cErr := Contains(root, p)
				sr, si, se := contains(root, p, false)
				if errText(se) != errText(cErr) || sr != resolved || si != inside {
					t.Fatalf("Contains(%q, %q) = %q, %v, %v; user space alone %q, %v, %v", root, p, resolved, inside, cErr, sr, si, se)
				}
				if pr, pi, ok := Proven(root, p); ok && (se != nil || pr != sr || pi != si) {
					t.Fatalf("Proven(%q, %q) = %q, %v; user space alone %q, %v, %v", root, p, pr, pi, sr, si, se)
				}
				if cErr != nil {
					if inside {
						t.Fatalf("Contains(%q, %q): inside with error %v", root, p, cErr)
					}
					continue
				}
				if err == nil && resolved != got {
					t.Fatalf("Contains(%q, %q) resolved %q, Resolve %q", root, p, resolved, got)
				}
				if !inside {
					continue
				}
				if !Within(sandbox, resolved) {
					t.Fatalf("Contains(%q, %q): inside but resolved to %q", root, p, resolved)
				}
				if evErr == nil && !Within(sandbox, ev) {
					t.Fatalf("Contains(%q, %q): inside but EvalSymlinks = %q", root, p, ev)
				}
				if c, err := Resolve(filepath.Clean(p)); err != nil || !Within(sandbox, c) {
					t.Fatalf("Contains(%q, %q): inside but the cleaned path resolves to %q, %v", root, p, c, err)
				}
			}
		}
	})
}
