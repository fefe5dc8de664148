package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// A virtual environment's bin directory shadows programs on PATH by
// design: its python links shadow the user's python, and pip's console
// scripts (pip, pytest, black) shadow the same tools installed for the
// whole machine. Running them runs what the environment holds, which is
// the project's, as a .pth file is: that is what activating an
// environment means. A program of the environment's is therefore kept
// when, and only when, it runs Python in the place of Python:
//
//   - a link called python, python3, python3.12 (or pypy...) that leads
//     outside the sandbox to an interpreter of such a name, as venv and uv
//     make them;
//   - a script whose first line names an interpreter of its own directory
//     (pip's and uv's wrappers), called pip, pip3 or pip3.12 (what venv
//     itself writes; the user's pip may be a version manager's shim), or
//     in the place of a program that is itself a Python script
//     (/usr/bin/pytest).
//
// Nothing written by the command proves more (a RECORD file or an entry
// point of site-packages is the command's to write too). So a script or
// link under the name of a program that is not Python's (ls, make, ssh,
// sudo, this program) is never the environment's, whatever its first line
// or its target; nor is one under git's names (see pathShadows).

// environmentsOwn reports whether the program p of the directory dir
// inside sandbox, which shadows the program other outside it, is the
// environment's own (see above).
func environmentsOwn(sandbox, dir, p, other string) bool {
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		real, err := pathres.Resolve(p)
		return err == nil && !pathres.Within(sandbox, real) &&
			pythonName(filepath.Base(p)) && pythonName(filepath.Base(real))
	}
	interp, ok := shebangProgram(p)
	return ok && filepath.Dir(interp) == dir && pythonName(filepath.Base(interp)) &&
		(pipName(filepath.Base(p)) || pythonScript(other))
}

// pipName reports whether name is one venv's ensurepip writes: pip, then
// a version of digits and dots.
func pipName(name string) bool {
	v, ok := strings.CutPrefix(name, "pip")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// pythonScript reports whether the file p is a script Python runs: its
// first line names an interpreter called python... or pypy..., directly
// or through env.
func pythonScript(p string) bool {
	interp, ok := shebangProgram(p)
	return ok && pythonName(filepath.Base(interp))
}

// shebangProgram returns the interpreter the first line of the file p
// names ("#!/usr/bin/python3 -s"), or what env runs there ("#!/usr/bin/env
// -S python3"); it reports false for a file without one.
func shebangProgram(p string) (string, bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	var b [512]byte
	n, _ := f.Read(b[:])
	line, _, _ := strings.Cut(string(b[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return "", false
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return "", false
	}
	if filepath.Base(fields[0]) != "env" {
		return fields[0], true
	}
	for _, f := range fields[1:] {
		if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
			return f, true
		}
	}
	return "", false
}

// pythonName reports whether name is that of a Python interpreter:
// python or pypy, then a version of digits and dots, with t (a build
// without the global lock) at its end.
func pythonName(name string) bool {
	v, ok := strings.CutPrefix(name, "python")
	if !ok {
		if v, ok = strings.CutPrefix(name, "pypy"); !ok {
			return false
		}
	}
	v = strings.TrimSuffix(v, "t")
	return strings.Trim(v, "0123456789.") == ""
}
