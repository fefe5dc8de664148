package sandboxauth

import (
	"os"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// A directory on PATH inside the sandbox (an activated virtual
// environment's .venv/bin, a project's node_modules/.bin) is written by
// confined commands (pip and npm install there), and what it holds runs
// whenever its name is typed, unconfined: the user's shell, the agent's
// own git calls. A program a command puts there under the name of one
// found later on PATH (.venv/bin/git before /usr/bin/git) would run in
// its place. The quarantine moves such a program aside when it is new or
// changed after the run: a name the user's tools already shadowed
// (.venv/bin/python) is kept while it is as it was.

// pathShadows returns the entries of the directories on PATH (the calling
// process's) that lie inside sandbox and whose name is also a program in
// a later directory of PATH outside it.
func pathShadows(sandbox string) []string {
	var inside, later []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(d) {
			continue // a relative entry names whatever the working directory holds
		}
		real, err := pathres.Resolve(filepath.Clean(d))
		if err != nil {
			continue
		}
		if pathres.Within(sandbox, real) {
			inside = append(inside, real)
		} else if len(inside) > 0 {
			later = append(later, real)
		}
	}
	var out []string
	for _, d := range inside {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			for _, l := range later {
				if fi, err := os.Stat(filepath.Join(l, e.Name())); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
					out = append(out, filepath.Join(d, e.Name()))
					break
				}
			}
		}
	}
	return out
}
