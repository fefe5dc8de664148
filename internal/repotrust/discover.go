package repotrust

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// location is where git finds a repository: its git directory (the .git
// directory, a bare repository, or a linked worktree's private
// directory), the common directory that holds objects, refs, config and
// hooks (the git directory itself unless a commondir file names another),
// and the work tree ("" for a bare repository).
type location struct {
	gitDir, commonDir, workTree string
}

// discover finds the repository a git command started in cwd uses, as
// git's setup does: $GIT_DIR when set (a directory or a "gitdir:" file,
// with $GIT_WORK_TREE or cwd as the work tree), otherwise the first of
// cwd and its ancestors that holds a .git directory or file naming a valid
// git directory, or that is itself a valid (bare) git directory. A .git
// directory that is not a valid git directory is passed over, as git
// passes over it. GIT_CEILING_DIRECTORIES and file-system boundaries are
// ignored: the walk always goes up to /, the worse case. found is false
// when git would find no repository (and so run nothing from one). A .git
// file or $GIT_DIR that names no valid git directory, which stops git with
// an error, is reported as a problem all the same.
func discover(cwd string, env envSnapshot, ss *stamps) (loc location, found bool, err error) {
	if gd, ok := env.get("GIT_DIR"); ok && gd != "" {
		gd = absAt(cwd, gd)
		if st := ss.file(gd); st.exists && st.mode&modeTypeMask != modeDir {
			if gd, err = readGitFile(gd, ss); err != nil {
				return loc, false, err
			}
		}
		common, valid, err := validGitDir(gd, env, ss)
		if err != nil {
			return loc, false, err
		}
		if !valid {
			return loc, false, &Problem{Where: "environment", Setting: "GIT_DIR", Value: gd, Why: "is not a git directory"}
		}
		wt := cwd
		if w, ok := env.get("GIT_WORK_TREE"); ok && w != "" {
			wt = absAt(cwd, w)
		}
		return location{gitDir: gd, commonDir: common, workTree: wt}, true, nil
	}
	for dir := cwd; ; dir = filepath.Dir(dir) {
		dotGit := filepath.Join(dir, ".git")
		st := ss.file(dotGit)
		if st.exists {
			gd := dotGit
			if st.mode&modeTypeMask != modeDir {
				// A .git file that git cannot read stops git with an
				// error; so does one naming no repository.
				if gd, err = readGitFile(dotGit, ss); err != nil {
					return loc, false, err
				}
				common, valid, err := validGitDir(gd, env, ss)
				if err != nil {
					return loc, false, err
				}
				if !valid {
					return loc, false, &Problem{Where: dotGit, Why: "names " + gd + ", which is not a git directory"}
				}
				return location{gitDir: gd, commonDir: common, workTree: dir}, true, nil
			}
			common, valid, err := validGitDir(gd, env, ss)
			if err != nil {
				return loc, false, err
			}
			if valid {
				return location{gitDir: gd, commonDir: common, workTree: dir}, true, nil
			}
		}
		common, valid, err := validGitDir(dir, env, ss)
		if err != nil {
			return loc, false, err
		}
		if valid {
			return location{gitDir: dir, commonDir: common}, true, nil
		}
		if dir == "/" || dir == "." {
			return loc, false, nil
		}
	}
}

const (
	modeTypeMask = 0o170000
	modeDir      = 0o040000
	modeRegular  = 0o100000
)

func absAt(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// readGitFile reads a "gitdir: PATH" file and returns PATH, taken from
// the file's directory when relative.
func readGitFile(name string, ss *stamps) (string, error) {
	b, _, err := ss.readFile(name)
	if err != nil {
		return "", &Problem{Where: name, Why: "the .git file cannot be read: " + err.Error()}
	}
	s := strings.TrimRight(string(b), "\r\n")
	dir, ok := strings.CutPrefix(s, "gitdir: ")
	if !ok || dir == "" || strings.ContainsAny(dir, "\n\x00") {
		return "", &Problem{Where: name, Why: "the .git file is not a \"gitdir: PATH\" line"}
	}
	return absAt(filepath.Dir(name), dir), nil
}

// validGitDir reports whether dir is a git directory as git's
// is_git_directory decides: a valid HEAD in dir, and objects and refs
// directories in its common directory ($GIT_COMMON_DIR, the directory a
// commondir file names, or dir itself). It returns the common directory.
func validGitDir(dir string, env envSnapshot, ss *stamps) (common string, valid bool, err error) {
	if !validHead(filepath.Join(dir, "HEAD"), ss) {
		return "", false, nil
	}
	common = dir
	if c, ok := env.get("GIT_COMMON_DIR"); ok && c != "" {
		common = absAt(dir, c)
	} else {
		b, exists, err := ss.readFile(filepath.Join(dir, "commondir"))
		if err != nil {
			return "", false, &Problem{Where: filepath.Join(dir, "commondir"), Why: "cannot be read: " + err.Error()}
		}
		if exists {
			c := strings.TrimRight(string(b), "\r\n")
			if c == "" || strings.ContainsAny(c, "\n\x00") {
				return "", false, &Problem{Where: filepath.Join(dir, "commondir"), Why: "does not hold one path"}
			}
			common = absAt(dir, c)
		}
	}
	for _, sub := range []string{"objects", "refs"} {
		// git asks access(X_OK), which a directory passes, and so
		// does an executable file.
		if st := ss.presence(filepath.Join(common, sub)); !st.exists || st.mode&modeTypeMask != modeDir && st.mode&0o111 == 0 {
			return "", false, nil
		}
	}
	return common, true, nil
}

// validHead reports whether a HEAD file is one git accepts: a symbolic
// link into refs/, "ref: refs/...", or an object name in hexadecimal.
func validHead(name string, ss *stamps) bool {
	fi, err := os.Lstat(name)
	if err != nil {
		// No entry (or none that can be looked at): stat cannot find
		// one either. It is stamped as ss.file stamps a missing path,
		// without asking the kernel twice.
		ss.ancestor(name)
		return false
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		ss.file(name)
		t, err := os.Readlink(name)
		return err == nil && strings.HasPrefix(t, "refs/")
	}
	b, exists, err := ss.readFile(name)
	if !exists || err != nil {
		return false
	}
	if len(b) < 4 {
		return false
	}
	if r, ok := bytes.CutPrefix(b, []byte("ref:")); ok {
		if bytes.HasPrefix(bytes.TrimLeft(r, " \t\n\r"), []byte("refs/")) {
			return true
		}
	}
	// A detached HEAD: git reads the first 40 (or 64) hexadecimal digits
	// and ignores what follows.
	if len(b) < 40 {
		return false
	}
	for _, c := range b[:40] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
