package programs

import "sync"

// search: programs that find files and text. Recursive readers say which
// trees they walk, so that a tree holding a protected file is not read
// without a person.
func search() []*Spec {
	grepOpts := join(
		opts("-E,--extended-regexp -F,--fixed-strings -G,--basic-regexp -P,--perl-regexp -e,--regexp= -i,--ignore-case -y --no-ignore-case -v,--invert-match -w,--word-regexp -x,--line-regexp -c,--count --color[=] --colour[=] -L,--files-without-match -l,--files-with-matches -m,--max-count= -o,--only-matching -q,--quiet,--silent -s,--no-messages -b,--byte-offset -H,--with-filename -h,--no-filename --label= -n,--line-number -T,--initial-tab -Z,--null -A,--after-context= -B,--before-context= -C,--context= -a,--text --binary-files= -D,--devices= --exclude= --exclude-dir= --include= -I -U,--binary -z,--null-data --line-buffered --no-group-separator --group-separator= --help -V,--version"),
		opts("-f,--file=R --exclude-from=R"),
		recursive("-r,--recursive"),
		recursiveIf("-d,--directories=", "recurse"),
		unsafe("follows symbolic links while walking a tree, which may lead out of the sandbox", "-R,--dereference-recursive"),
	)
	grep := func(name string) *Spec {
		return &Spec{
			ReadOnly: true, Command: name, Syntax: GNU, Numeric: true, Options: grepOpts,
			First: Text, FirstGiven: []string{"-e", "-f"}, DefaultTree: ".",
			Reason: "searches files",
		}
	}
	return []*Spec{
		grep("grep"), grep("egrep"), grep("fgrep"),
		{
			ReadOnly: true, Command: "rg", Syntax: Clap, Recursive: true, DefaultTree: ".",
			First: Text, FirstGiven: []string{"-e", "-f", "--files", "--type-list"},
			Reason:      "searches files; skips hidden and ignored files unless told",
			IgnoreFiles: []string{".gitignore", ".ignore", ".rgignore"},
			FileTypes:   rgTypes(),
			Options: join(
				opts("-i,--ignore-case -s,--case-sensitive -S,--smart-case -v,--invert-match -w,--word-regexp -x,--line-regexp -F,--fixed-strings -c,--count --count-matches -l,--files-with-matches --files-without-match -o,--only-matching -n,--line-number -N,--no-line-number -H,--with-filename -I,--no-filename --column --no-column -b,--byte-offset -A,--after-context= -B,--before-context= -C,--context= -m,--max-count= -M,--max-columns= --max-columns-preview -d,--max-depth= -T,--type-not= --type-list --glob-case-insensitive --color= --colors= -p,--pretty --heading --no-heading --vimgrep --json --stats --trim -0,--null --null-data -a,--text --binary --no-config -j,--threads= --sort= --sortr= --line-buffered --block-buffered -q,--quiet --no-messages --no-unicode -U,--multiline --multiline-dotall -P,--pcre2 --engine= --crlf --passthru -r,--replace= --context-separator= --field-match-separator= --field-context-separator= --path-separator= --one-file-system --max-filesize= --debug --trace -h,--help -V,--version --no-ignore-messages --ignore-file-case-insensitive --no-require-git --include-zero --no-encoding -E,--encoding= --mmap --no-mmap --dfa-size-limit= --regex-size-limit= --auto-hybrid-regex --no-pcre2-unicode"),
				hyphenValues("-e,--regexp="),
				opts("-f,--file=R --ignore-file=I -g,--glob=G --iglob=G -t,--type=F"),
				namesOnly("--files"),
				hidden("--hidden -. -u,--unrestricted --no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-global --no-ignore-parent --no-ignore-exclude --no-ignore-files"),
				unsafe("runs a preprocessor program on every file", "--pre= --pre-glob="),
				unsafe("runs decompression programs on compressed files", "-z,--search-zip"),
				unsafe("runs a program to find the host name", "--hostname-bin="),
				unsafe("follows symbolic links while walking a tree, which may lead out of the sandbox", "-L,--follow"),
				unsafe("defines file types from unchecked patterns", "--type-add= --type-clear="),
			),
		},
	}
}

// rgTypes are the globs of rg's most used built-in file types, as rg 13
// and 14 define them (the union of both): rg -t TYPE searches the files
// they match, hidden ones included. A type not listed here stands for
// every file. It is built on first use.
var rgTypes = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"go": "*.go", "py": "*.py,*.pyi", "rust": "*.rs",
		"js": "*.cjs,*.js,*.jsx,*.mjs,*.vue", "ts": "*.cts,*.mts,*.ts,*.tsx",
		"md": "*.markdown,*.md,*.mdown,*.mdwn,*.mkd,*.mkdn,*.mdx", "markdown": "*.markdown,*.md,*.mdown,*.mdwn,*.mkd,*.mkdn,*.mdx",
		"json": "*.json,*.sarif,composer.lock", "yaml": "*.yaml,*.yml", "toml": "*.toml,Cargo.lock",
		"c": "*.[chH],*.[chH].in,*.cats", "h": "*.h,*.hh,*.hpp",
		"cpp":  "*.[ChH],*.[ChH].in,*.[ch]pp,*.[ch]pp.in,*.[ch]xx,*.[ch]xx.in,*.cc,*.cc.in,*.hh,*.hh.in,*.inl",
		"java": "*.java,*.jsp,*.jspx,*.properties", "kotlin": "*.kt,*.kts", "swift": "*.swift",
		"html": "*.ejs,*.htm,*.html", "css": "*.css,*.scss", "sql": "*.psql,*.sql", "txt": "*.txt",
		"ruby": "*.gemspec,*.rb,*.rbw,.irbrc,Gemfile,Rakefile,config.ru",
		"sh":   "*.bash,*.bashrc,*.csh,*.cshrc,*.ksh,*.kshrc,*.sh,*.tcsh,*.zsh,.bash_login,.bash_logout,.bash_profile,.bashrc,.cshrc,.kshrc,.login,.logout,.profile,.tcshrc,.zlogin,.zlogout,.zprofile,.zshenv,.zshrc,bash_login,bash_logout,bash_profile,bashrc,profile,zlogin,zlogout,zprofile,zshenv,zshrc",
	}
})
