package programs

import "strings"

// archives: listing the contents of tar, zip, 7z and jar archives, and
// creating archives and compressed files inside the sandbox. Extraction
// writes wherever the archive says, so it is never safe; creation is safe
// when every output is a checked write (tar -c's -f archive, zip's
// archive, gzip's FILE.gz), every input is a checked read, and no link is
// followed out of the sandbox (tar without -h, zip -r only with -y, gzip
// without -f). tar options that run programs or reach other hosts are
// unsafe.
func archives() []*Spec {
	unzipList := func(mode, reason string) *Spec {
		// Info-ZIP negates an option with a second dash (--l, -l-), so a
		// later option could turn listing off: none is accepted after the
		// mode.
		return &Spec{ReadOnly: true, Command: "unzip", Prefix: []string{mode}, Syntax: GNU, Reason: reason}
	}
	return append([]*Spec{
		{
			// ReadOnly: tar --create's archive is a Write file, which makes
			// that form a writer (ReadOnlyArgv).
			ReadOnly: true, Command: "tar", Syntax: GNU, OldStyle: true, Operands: Text, Check: tarCheck,
			Reason: "lists an archive",
			Options: join(
				opts("-t,--list -v,--verbose -z,--gzip,--gunzip,--ungzip -j,--bzip2 -J,--xz --zstd --lzma --lzip --lzop -Z,--compress,--uncompress -a,--auto-compress --wildcards --no-wildcards --wildcards-match-slash --no-wildcards-match-slash --anchored --no-anchored --ignore-case --no-ignore-case --exclude= --exclude-vcs --exclude-backups --exclude-caches --force-local --numeric-owner --utc --full-time -R,--block-number --quoting-style= --quote-chars= --no-quote-chars= --show-transformed-names --show-stored-names --strip-components= --transform= --xform= --occurrence[=] -b,--blocking-factor= --record-size= -B,--read-full-records -i,--ignore-zeros --no-recursion --recursion --null --no-null --verbatim-files-from --no-verbatim-files-from --unquote --no-unquote -l,--check-links --totals[=] -w,--interactive --confirmation --warning= -H,--format= -o --old-archive,--portability --posix --checkpoint[=] --sparse -S --seek -n --no-seek --help --usage --version --show-defaults"),
				opts("-f,--file=R -T,--files-from=L -X,--exclude-from=R -C,--directory=R"),
				opts("-c,--create"),
				unsafe("writes files (extracts, appends or deletes)", "-x,--extract,--get -r,--append -u,--update -A,--catenate,--concatenate --delete -d,--diff,--compare -k,--keep-old-files --remove-files -O,--to-stdout --overwrite"),
				unsafe("runs a program", "--checkpoint-action= --to-command= -I,--use-compress-program= --rsh-command= -F,--info-script,--new-volume-script= --rmt-command="),
				unsafe("writes state files", "--index-file= --volno-file= -g,--listed-incremental= -G,--incremental -M,--multi-volume -V,--label="),
			),
		},
		unzipList("-l", "lists an archive"),
		unzipList("-v", "lists an archive verbosely"),
		unzipList("-Z", "lists an archive (zipinfo mode)"),
		unzipList("-Z1", "lists the names in an archive (zipinfo mode)"),
		unzipList("-t", "tests an archive without extracting"),
		unzipList("-tq", "tests an archive without extracting"),
		{ReadOnly: true, Command: "zipinfo", Syntax: POSIX, Reason: "lists an archive", Options: opts("-1 -2 -s -m -l -v -h -M -t -T -U -z -C")},
	}, archiveMore()...)
}

// tarCheck accepts tar only in its listing mode, and only with a local
// archive: tar reaches an archive named HOST:FILE over the network (rmt)
// unless --force-local is given.
func tarCheck(p *Parsed) *Problem {
	switch {
	case p.Has("-t") && p.Has("-c"):
		return &Problem{Unknown: true, Rule: "tar with two modes", Reason: "tar takes one of --list and --create"}
	case p.Has("-c"):
		if problem := tarCreate(p); problem != nil {
			return problem
		}
	case !p.Has("-t"):
		return &Problem{Rule: "tar without --list or --create", Reason: "only listing an archive (tar -t) or creating one in the sandbox (tar -c -f FILE) is safe; extracting writes files, and a person decides"}
	}
	if p.Has("--force-local") {
		return nil
	}
	for _, f := range p.Values("-f") {
		if i := strings.IndexByte(f, ':'); i > 0 && !strings.Contains(f[:i], "/") {
			return &Problem{Rule: "tar archive on another host", Reason: "an archive named HOST:FILE is reached over the network (rmt)"}
		}
	}
	return nil
}

// tarCreate checks tar -c: the archive is named with -f (a write, checked
// as one), the operands are the trees tar reads, hidden files included,
// links are stored as links (tar without -h), and nothing changes the
// directory the later operands are read from (-C) or reads names from a
// file (-T). With -f - the archive goes to standard output.
func tarCreate(p *Parsed) *Problem {
	if p.Has("-C", "-T") {
		return &Problem{Rule: "tar --create with -C or -T", Reason: "-C changes the directory the later names are read from and -T reads the names from a file, so the files tar reads are not the operands; a person decides"}
	}
	archives := p.Values("-f")
	if len(archives) != 1 {
		return &Problem{Rule: "tar --create without one -f archive", Reason: "tar --create writes to the archive -f names (or a default device); name exactly one archive with -f"}
	}
	if len(p.Operands) == 0 {
		return &Problem{Unknown: true, Rule: "tar --create without files", Reason: "tar --create needs the files to archive"}
	}
	for i := range p.Files {
		if p.Files[i].Role == Read && p.Files[i].Word == archives[0] {
			p.Files[i].Role = Write
		}
	}
	for _, o := range p.Operands {
		p.Files = append(p.Files, Arg{Word: o, Role: ReadTree})
	}
	p.Hidden = true
	return nil
}

// archiveMore: 7-Zip and jar listings, gzip and zip.
func archiveMore() []*Spec {
	var out []*Spec
	for _, name := range []string{"7z", "7za", "7zz", "7zr"} {
		// 7-Zip reads switches anywhere and values attached; -i and -x
		// read list files (@file). Only the archive is accepted after l.
		out = append(out, &Spec{ReadOnly: true, Command: name, Prefix: words("l"), Syntax: GoFlag, MaxOperands: 1, Check: sevenZipArchive,
			Options: opts("-slt -ba -sccUTF-8"), Reason: "lists an archive"})
	}
	for _, mode := range []string{"tf", "-tf", "tvf", "-tvf"} {
		// jar expands @argfiles and passes -J options to the JVM: every
		// operand must be a plain word; the first is the archive.
		out = append(out, &Spec{ReadOnly: true, Command: "jar", Prefix: words(mode), Syntax: GoFlag, First: Read, Operands: Text, Check: plainOperands,
			Reason: "lists a Java archive"})
	}
	gz := join(
		opts("-c,--stdout,--to-stdout -d,--decompress,--uncompress -k,--keep -l,--list -n,--no-name -N,--name -q,--quiet -t,--test -v,--verbose -1,--fast -2 -3 -4 -5 -6 -7 -8 -9,--best --rsyncable --synchronous -h,--help -V,--version -L,--license"),
		unsafe("follows links and overwrites files", "-f,--force"),
		unsafe("compresses whole trees in place", "-r,--recursive"),
		unsafe("changes the names of the files it writes", "-S,--suffix="),
	)
	out = append(out,
		&Spec{Command: "gzip", Syntax: GNU, Options: gz, Check: gzipFiles(false), Reason: "compresses files in the sandbox into FILE.gz"},
		&Spec{Command: "gunzip", Syntax: GNU, Options: gz, Check: gzipFiles(true), Reason: "decompresses FILE.gz files in the sandbox"},
		&Spec{Command: "zip", Syntax: Exact, First: Write, Check: zipCheck, Reason: "creates a zip archive in the sandbox; links are stored as links",
			Options: join(
				recursive("-r,--recurse-paths"),
				opts("-y,--symlinks -q,--quiet -v,--verbose -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -j,--junk-paths -D,--no-dir-entries -X,--no-extra -o,--latest-time -x,--exclude= -i,--include="),
				unsafe("runs a program", "-T,--test -TT,--unzip-command="),
				unsafe("removes the files it archives", "-m,--move"),
			)},
	)
	return out
}

// plainOperands refuses operands that the program reads as options,
// argument files or switches (jar's @file and -J, 7-Zip's switches after
// the archive).
func plainOperands(p *Parsed) *Problem {
	for _, o := range p.Operands {
		if o == "" || o[0] == '-' || o[0] == '@' {
			return &Problem{Unknown: true, Rule: "operand " + o, Reason: o + " is read as an option or a file of arguments here; a person decides"}
		}
	}
	return nil
}

// sevenZipArchive: 7-Zip expands wildcards in the archive's name itself
// (7z l '*' opens every file as an archive), so the one operand must be a
// plain name.
func sevenZipArchive(p *Parsed) *Problem {
	for _, o := range p.Operands {
		if strings.ContainsAny(o, "*?[") {
			return &Problem{Unknown: true, Rule: "7z archive name " + o, Reason: "7-Zip expands wildcards in the archive's name itself; name one archive plainly"}
		}
	}
	return plainOperands(p)
}

// gzipFiles checks what gzip writes: FILE.gz beside each FILE (and FILE
// itself, which gzip removes, unless -k), or FILE without .gz when
// decompressing (gunzip, gzip -d); with -c, -l or -t nothing is written.
// Decompressing with -N would take the name from the archive.
func gzipFiles(decompress bool) func(p *Parsed) *Problem {
	return func(p *Parsed) *Problem {
		decompress := decompress || p.Has("-d")
		if decompress && p.Has("-N") {
			return &Problem{Rule: "gzip -d -N", Reason: "-N takes the name of the file to write from the archive; a person decides"}
		}
		if len(p.Operands) == 0 || p.Has("-c", "-l", "-t") {
			return nil
		}
		keep := p.Has("-k")
		n := len(p.Files)
		for i := range n {
			f := &p.Files[i]
			if f.Role != Read || f.Word == "-" {
				continue
			}
			out := f.Word + ".gz"
			if decompress {
				var ok bool
				if out, ok = strings.CutSuffix(f.Word, ".gz"); !ok || out == "" || strings.HasSuffix(out, "/") {
					return &Problem{Unknown: true, Rule: "gzip -d " + f.Word, Reason: "only FILE.gz is understood as a name to decompress (the name written is FILE)"}
				}
			}
			if !keep {
				f.Role = Write // removed once compressed
			}
			p.Files = append(p.Files, Arg{Word: out, Role: Write})
		}
		return nil
	}
}

// zipCheck: zip's first operand is the archive, the others the files it
// reads. zip follows links unless -y (which stores links as links): with
// -r and without -y, every link in the trees is checked by the engine, and
// one that leads out of the sandbox or to a protected file is asked about.
// zip expands wildcards in names itself, so a name with one is asked
// about.
func zipCheck(p *Parsed) *Problem {
	if len(p.Operands) < 2 {
		return &Problem{Unknown: true, Rule: "zip without files", Reason: "zip needs the archive and the files to put in it (it would read names from standard input)"}
	}
	// zip -r without -y follows links: the engine checks where each
	// link in the trees leads (out of the sandbox, to a protected file).
	p.FollowsLinks = p.Has("-r") && !p.Has("-y")
	p.Hidden = true // zip takes dot files too
	for _, o := range p.Operands {
		if o == "-" || o == "-@" || strings.ContainsAny(o, "*?[") {
			return &Problem{Unknown: true, Rule: "zip name " + o, Reason: "zip reads standard input for - and expands wildcards in names itself; name the files plainly"}
		}
	}
	return nil
}
