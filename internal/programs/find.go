package programs

import "sync"

// find and fd: they walk trees and print names. They read no file
// contents, so their starting points are Read operands (checked as paths,
// not searched for protected files); actions that run commands, delete or
// write are unsafe, and so is following links.
func finders() []*Spec {
	return []*Spec{
		{
			ReadOnly: true, Command: "find", Syntax: Find, Reason: "lists files; no action that runs, deletes or writes",
			Options: join(
				opts("-H -P -D= -O"),
				opts("-name= -iname= -path= -ipath= -wholename= -iwholename= -regex= -iregex= -regextype= -lname= -ilname= -type= -xtype= -size= -mtime= -mmin= -atime= -amin= -ctime= -cmin= -used= -empty -perm= -user= -group= -uid= -gid= -nouser -nogroup -links= -inum= -maxdepth= -mindepth= -depth -d -mount -xdev -noleaf -prune -quit -true -false -print -print0 -printf= -ls -readable -writable -executable -not -and -or -a -o -daystart -ignore_readdir_race -noignore_readdir_race -fstype= -context= -help --help -version --version -warn -nowarn"),
				opts("-newer=R -anewer=R -cnewer=R -samefile=R"),
				unsafe("follows symbolic links while walking a tree, which may lead out of the sandbox", "-L -follow"),
				unsafe("runs a command for each file", "-exec= -execdir= -ok= -okdir="),
				unsafe("deletes files", "-delete"),
				unsafe("writes a file", "-fprint=W -fprint0=W -fls=W -fprintf=W"),
				unsafe("reads a list of starting points from a file, which are never checked", "-files0-from="),
			),
		},
		{
			ReadOnly: true, Command: "fd", Syntax: Clap, First: Text, Reason: "lists files; no command per match, no links followed",
			Options: join(
				opts("-H,--hidden -I,--no-ignore --no-ignore-vcs --no-ignore-parent -u,--unrestricted -s,--case-sensitive -i,--ignore-case -g,--glob --regex -F,--fixed-strings --and= -a,--absolute-path -l,--list-details -p,--full-path -0,--print0 -d,--max-depth= --min-depth= --exact-depth= -E,--exclude= --prune -t,--type= -e,--extension= -S,--size= --changed-within= --changed-before= --newer= --older= -o,--owner= --format= -c,--color= --hyperlink[=] -j,--threads= --max-results= -1 -q,--quiet --show-errors --path-separator= --strip-cwd-prefix[=] --one-file-system -h,--help -V,--version"),
				opts("--base-directory=R --search-path=R --ignore-file=I"),
				unsafe("follows symbolic links while walking a tree, which may lead out of the sandbox", "-L,--follow"),
				unsafe("runs a command for each match", "-x,--exec= -X,--exec-batch= --batch-size="),
			),
		},
	}
}

// findNames are find and its clones, which read find's expression. It is built on first use.
var findNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"find": true, "gfind": true, "bfs": true}
})

// IsFind reports whether name (a base name) is find or a clone of it.
func IsFind(name string) bool { return findNames()[name] }

// FindExecAction reports whether arg is one of find's actions that run a
// command given in the following arguments, up to a lone ";" (or "+"):
// that ";" is find's argument, not shell syntax.
func FindExecAction(arg string) bool {
	switch arg {
	case "-exec", "-execdir", "-ok", "-okdir":
		return true
	}
	return false
}
