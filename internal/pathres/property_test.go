package pathres

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// propNames are the names used for the entries of the random trees and for
// the components of the probed paths.
var propNames = []string{"a", "b", "c", "d", "e"}

// buildRandomTree creates, under base, a random tree of directories, files
// and symlinks (relative and absolute targets, with "." and "..", dangling
// ones, loops, chains, links to "/", to base and to its parent).
func buildRandomTree(t *testing.T, base string, rng *rand.Rand) {
	dirs := []string{base}
	for i := 0; i < 40; i++ {
		parent := dirs[rng.IntN(len(dirs))]
		p := parent + "/" + propNames[rng.IntN(len(propNames))]
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		switch r := rng.IntN(10); {
		case r < 4:
			require.NoError(t, os.Mkdir(p, 0o755))
			dirs = append(dirs, p)
		case r < 5:
			require.NoError(t, os.WriteFile(p, nil, 0o644))
		default:
			require.NoError(t, os.Symlink(randomTarget(base, rng), p))
		}
	}
}

func randomTarget(base string, rng *rand.Rand) string {
	var sb strings.Builder
	switch rng.IntN(12) {
	case 0:
		return "/"
	case 1, 2:
		sb.WriteString(base + "/") // absolute, inside the tree
	case 3:
		sb.WriteString(base + "/../" + filepath.Base(base) + "/") // absolute, through ".."
	case 4:
		return filepath.Dir(base) // absolute, outside the tree
	}
	n := 1 + rng.IntN(3)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte('/')
		}
		switch r := rng.IntN(10); {
		case r < 2:
			sb.WriteString("..")
		case r < 3:
			sb.WriteString(".")
		case r < 4:
			sb.WriteString("zz") // never exists: dangling
		default:
			sb.WriteString(propNames[rng.IntN(len(propNames))])
		}
	}
	return sb.String()
}

// forEachProbe calls f with base joined with every sequence of up to depth
// components drawn from propNames, "." and "..".
func forEachProbe(base string, depth int, f func(p string)) {
	comps := append([]string{".", ".."}, propNames...)
	var walk func(p string, d int)
	walk = func(p string, d int) {
		f(p)
		if d == depth {
			return
		}
		for _, c := range comps {
			walk(p+"/"+c, d+1)
		}
	}
	walk(base, 0)
}

// TestResolveMatchesEvalSymlinks is a property test: on random trees, every
// path that exists resolves exactly as filepath.EvalSymlinks resolves it,
// a path on which EvalSymlinks gives up because of a loop is a loop for
// Resolve too, and Contains never calls inside a path whose real location
// is outside. The kernel's answers (Linux) are compared with those of the
// user-space resolver on every path: Resolve, Contains and Root.Contains
// must give the same results, errors included, with and without it.
func TestResolveMatchesEvalSymlinks(t *testing.T) {
	seeds := 16
	if testing.Short() {
		seeds = 4
	}
	var existing, loops, missing, proven int
	var proofs [proofFollowed + 1]int
	for seed := 1; seed <= seeds; seed++ {
		tr := newTestTree(t)
		rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		buildRandomTree(t, tr.base, rng)
		sandbox := tr.base + "/a"
		realSandbox, sandboxErr := filepath.EvalSymlinks(sandbox)
		// Sandbox roots of every kind the tree offers: a directory, a
		// file, a symlink, a missing path, unclean spellings.
		roots := []string{sandbox, tr.base + "/b/", tr.base + "/c/..", tr.base + "/d/a", tr.base}
		fastRoots := make([]*Root, len(roots))
		slowRoots := make([]*Root, len(roots))
		for i, r := range roots {
			var fastErr, slowErr error
			fastRoots[i], fastErr = newRoot(r, true)
			slowRoots[i], slowErr = newRoot(r, false)
			require.Equal(t, errText(slowErr), errText(fastErr), "seed %d: NewRoot(%q)", seed, r)
			if slowErr == nil {
				require.Equal(t, slowRoots[i].Real(), fastRoots[i].Real(), "seed %d: NewRoot(%q).Real()", seed, r)
			}
		}

		probe := 0
		forEachProbe(tr.base, 3, func(p string) {
			pr, _, _ := requireSameResolve(t, p)
			proofs[pr]++
			// The sandbox and, in turn, one of the other roots.
			probe++
			for _, i := range []int{0, 1 + probe%(len(roots)-1)} {
				r := roots[i]
				sr, si, se := contains(r, p, false)
				fr, fi, fe := contains(r, p, true)
				require.Equal(t, errText(se), errText(fe), "seed %d: Contains(%q, %q)", seed, r, p)
				require.Equal(t, sr, fr, "seed %d: Contains(%q, %q)", seed, r, p)
				require.Equal(t, si, fi, "seed %d: Contains(%q, %q)", seed, r, p)
				if pr, pi, ok := Proven(r, p); ok {
					proven++
					require.NoError(t, se, "seed %d: Proven(%q, %q) answered where user space fails", seed, r, p)
					require.Equal(t, sr, pr, "seed %d: Proven(%q, %q)", seed, r, p)
					require.Equal(t, si, pi, "seed %d: Proven(%q, %q)", seed, r, p)
					if slowRoots[i] != nil {
						require.Equal(t, filepath.Clean(r), slowRoots[i].Real(), "seed %d: Proven(%q, %q): the root", seed, r, p)
					}
				}
				if slowRoots[i] == nil {
					continue
				}
				sr, si, se = slowRoots[i].Contains(p)
				fr, fi, fe = fastRoots[i].Contains(p)
				require.Equal(t, errText(se), errText(fe), "seed %d: Root(%q).Contains(%q)", seed, r, p)
				require.Equal(t, sr, fr, "seed %d: Root(%q).Contains(%q)", seed, r, p)
				require.Equal(t, si, fi, "seed %d: Root(%q).Contains(%q)", seed, r, p)
			}

			ev, evErr := filepath.EvalSymlinks(p)
			got, err := resolveLimit(p, evalLimit)
			def, defErr := Resolve(p)
			ref, refErr := refResolve(p, evalLimit)
			if refErr != nil {
				require.ErrorIs(t, err, ErrLoop, "seed %d: Resolve(%q) = %q, reference: %v", seed, p, got, refErr)
			} else {
				require.NoError(t, err, "seed %d: Resolve(%q), reference = %q", seed, p, ref)
				require.Equal(t, ref, got, "seed %d: Resolve(%q) differs from the reference", seed, p)
			}
			switch {
			case evErr == nil:
				existing++
				require.NoError(t, err, "seed %d: Resolve(%q), EvalSymlinks = %q", seed, p, ev)
				require.Equal(t, ev, got, "seed %d: Resolve(%q)", seed, p)
				if defErr == nil {
					require.Equal(t, ev, def, "seed %d: Resolve(%q)", seed, p)
				} else {
					require.ErrorIs(t, defErr, ErrLoop, "seed %d: Resolve(%q)", seed, p)
				}
			case isEvalLoop(evErr):
				loops++
				require.ErrorIs(t, err, ErrLoop, "seed %d: Resolve(%q) = %q", seed, p, got)
				require.ErrorIs(t, defErr, ErrLoop, "seed %d: Resolve(%q) = %q", seed, p, def)
			default:
				missing++
				if err != nil {
					require.ErrorIs(t, err, ErrLoop, "seed %d: Resolve(%q)", seed, p)
				} else {
					require.Equal(t, filepath.Clean(got), got, "seed %d: Resolve(%q) is clean", seed, p)
					require.True(t, filepath.IsAbs(got))
				}
			}
			if defErr != nil && !errors.Is(defErr, ErrLoop) {
				t.Fatalf("seed %d: Resolve(%q): unexpected error %v", seed, p, defErr)
			}

			// Containment in base/a (whatever it is) never contradicts
			// EvalSymlinks.
			resolved, inside, cErr := Contains(sandbox, p)
			if cErr != nil {
				require.False(t, inside)
				return
			}
			if defErr == nil {
				require.Equal(t, def, resolved, "seed %d: Contains(%q, %q)", seed, sandbox, p)
			}
			if inside && evErr == nil && sandboxErr == nil {
				require.True(t, Within(realSandbox, ev),
					"seed %d: Contains(%q, %q) inside but EvalSymlinks = %q, root %q", seed, sandbox, p, ev, realSandbox)
			}
		})
	}
	t.Logf("compared %d existing paths, %d loops, %d missing or invalid paths", existing, loops, missing)
	t.Logf("kernel answers: %d without symlinks, %d with a missing tail, %d following symlinks; %d left to user space",
		proofs[proofClean], proofs[proofCleanMissing], proofs[proofFollowed], proofs[notProven])
	require.Greater(t, existing, 40*seeds, "the random trees must exercise existing paths")
	require.Greater(t, loops, 2*seeds, "the random trees must exercise loops")
	if kernelWorks() {
		require.Greater(t, proofs[proofClean], 10*seeds, "the kernel must answer for paths without symlinks")
		require.Greater(t, proofs[proofCleanMissing], seeds, "the kernel must answer for missing tails")
		require.Greater(t, proven, 10*seeds, "Proven must answer for paths beneath a root without symlinks")
		if followWorks(t) {
			require.Greater(t, proofs[proofFollowed], 10*seeds, "the kernel must answer for paths with symlinks")
		}
	}
}

// refResolve is a deliberately naive implementation of the package's rules
// (a slice of components, a string built for every lookup), used to check the
// index-juggling of resolver on missing paths, which EvalSymlinks rejects.
func refResolve(p string, limit int) (string, error) {
	var out []string // resolved components
	lit := 0         // how many of the last components of out are literal
	links := 0
	todo := strings.Split(p, "/")
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
				if lit > 0 {
					lit--
				}
			}
			continue
		}
		if lit > 0 {
			out = append(out, c)
			lit++
			continue
		}
		cand := "/" + strings.Join(append(append([]string(nil), out...), c), "/")
		fi, err := os.Lstat(cand)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return "", err
			}
			out = append(out, c)
			lit = 1
			continue
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			out = append(out, c)
			continue
		}
		links++
		if links > limit {
			return "", ErrLoop
		}
		target, err := os.Readlink(cand)
		if err != nil {
			return "", err
		}
		if target == "" {
			out = append(out, c)
			lit = 1
			continue
		}
		if target[0] == '/' {
			out = nil
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return "/" + strings.Join(out, "/"), nil
}
