package sandboxauth

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// A directory on PATH inside the sandbox (an activated virtual
// environment's .venv/bin, a project's node_modules/.bin) is written by
// confined commands (pip and npm install there), and what it holds runs
// whenever its name is typed, unconfined: the user's shell, the agent's
// own git calls. A program a command puts there under the name of one
// found on PATH outside the sandbox (.venv/bin/git for /usr/bin/git), or
// under a name git runs from PATH (git-remote-NAME for a "NAME::" remote,
// git-lfs, git-NAME for `git NAME`), would run in its place. The
// quarantine moves such a program aside when it is new or changed after
// the run; a name the user's tools already shadowed (.venv/bin/python) is
// kept while it is as it was. The virtual environments' and packages'
// directories are looked at whether or not they are on PATH now: the
// user activates a virtual environment later. What a program there reads
// when it starts (a .pth file of the virtual environment) is the
// project's, as a Makefile is.

// projectBinDirs are the directories of a project that tools put on PATH
// (an activated virtual environment, direnv's layouts, conda's and pixi's
// environments, npm's scripts in a project and its workspaces), as glob
// patterns.
var projectBinDirs = [...]string{".venv/bin", "venv/bin", ".direnv/*/bin", ".conda/bin", ".pixi/envs/*/bin",
	"node_modules/.bin", "*/node_modules/.bin", "*/*/node_modules/.bin"}

// pathShadows returns the programs in the directories on PATH (the
// calling process's; a relative entry from its working directory) that lie
// inside sandbox, and in its projectBinDirs, that would run in the place
// of a program on PATH outside it or that git runs by name.
func pathShadows(sandbox string) []string {
	var inside, outside []string
	add := func(real string) {
		if pathres.Within(sandbox, real) {
			if !slices.Contains(inside, real) {
				inside = append(inside, real)
			}
		} else {
			outside = append(outside, real)
		}
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" {
			d = "." // an empty entry is the working directory
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			continue
		}
		if real, err := pathres.Resolve(abs); err == nil {
			add(real)
		}
	}
	// direnv's PATH_add lines of the project's .envrc name more.
	if b, err := readSmallFile(filepath.Join(sandbox, ".envrc")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "PATH_add" {
				for _, d := range f[1:] {
					if !filepath.IsAbs(d) {
						d = filepath.Join(sandbox, d)
					}
					if real, err := pathres.Resolve(d); err == nil && pathres.Within(sandbox, real) {
						add(real)
					}
				}
			}
		}
	}
	for _, pattern := range projectBinDirs {
		matches, _ := filepath.Glob(filepath.Join(sandbox, pattern))
		for _, m := range matches {
			if real, err := pathres.Resolve(m); err == nil && pathres.Within(sandbox, real) {
				add(real)
			}
		}
	}
	var out []string
	for _, d := range inside {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
				continue // runs nothing by its name
			}
			git := e.Name() == "git" || strings.HasPrefix(e.Name(), "git-")
			if !git && environmentsOwn(sandbox, d, p) {
				continue
			}
			if git || programIn(outside, e.Name()) {
				out = append(out, p)
			}
		}
	}
	return out
}

// programIn reports whether one of dirs holds an executable file name.
func programIn(dirs []string, name string) bool {
	for _, d := range dirs {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

// environmentsOwn reports whether the program p of the directory dir
// inside sandbox is what a virtual environment is made of, and runs
// nothing new of its own: a link to a program outside the sandbox (a
// virtual environment's python, the interpreter the user has), or a
// console script whose first line names an interpreter of dir (pip's
// wrappers, which import what the environment holds: the project's, as a
// .pth file is). Under git's names nothing is the environment's.
func environmentsOwn(sandbox, dir, p string) bool {
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		real, err := pathres.Resolve(p)
		return err == nil && !pathres.Within(sandbox, real)
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [512]byte
	n, _ := f.Read(b[:])
	line, _, _ := strings.Cut(string(b[:n]), "\n")
	interp, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return false
	}
	interp, _, _ = strings.Cut(strings.TrimSpace(interp), " ")
	return filepath.Dir(interp) == dir && strings.HasPrefix(filepath.Base(interp), "python")
}
