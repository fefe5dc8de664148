package programs

import "strings"

// archives: listing the contents of tar and zip archives. Extraction and
// creation write wherever the archive says, so only the listing modes are
// safe; tar options that run programs or reach other hosts are unsafe.
func archives() []*Spec {
	unzipList := func(mode, reason string) *Spec {
		// Info-ZIP negates an option with a second dash (--l, -l-), so a
		// later option could turn listing off: none is accepted after the
		// mode.
		return &Spec{ReadOnly: true, Command: "unzip", Prefix: []string{mode}, Syntax: GNU, Reason: reason}
	}
	return []*Spec{
		{
			ReadOnly: true, Command: "tar", Syntax: GNU, OldStyle: true, Operands: Text, Check: tarCheck,
			Reason: "lists an archive",
			Options: join(
				opts("-t,--list -v,--verbose -z,--gzip,--gunzip,--ungzip -j,--bzip2 -J,--xz --zstd --lzma --lzip --lzop -Z,--compress,--uncompress -a,--auto-compress --wildcards --no-wildcards --wildcards-match-slash --no-wildcards-match-slash --anchored --no-anchored --ignore-case --no-ignore-case --exclude= --exclude-vcs --exclude-backups --exclude-caches --force-local --numeric-owner --utc --full-time -R,--block-number --quoting-style= --quote-chars= --no-quote-chars= --show-transformed-names --show-stored-names --strip-components= --transform= --xform= --occurrence[=] -b,--blocking-factor= --record-size= -B,--read-full-records -i,--ignore-zeros --no-recursion --recursion --null --no-null --verbatim-files-from --no-verbatim-files-from --unquote --no-unquote -l,--check-links --totals[=] -w,--interactive --confirmation --warning= -H,--format= -o --old-archive,--portability --posix --checkpoint[=] --sparse -S --seek -n --no-seek --help --usage --version --show-defaults"),
				opts("-f,--file=R -T,--files-from=L -X,--exclude-from=R -C,--directory=R"),
				unsafe("writes files (extracts, creates, appends or deletes)", "-x,--extract,--get -c,--create -r,--append -u,--update -A,--catenate,--concatenate --delete -d,--diff,--compare -k,--keep-old-files --remove-files -O,--to-stdout --overwrite"),
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
	}
}

// tarCheck accepts tar only in its listing mode, and only with a local
// archive: tar reaches an archive named HOST:FILE over the network (rmt)
// unless --force-local is given.
func tarCheck(p *Parsed) *Problem {
	if !p.Has("-t") {
		return &Problem{Rule: "tar without --list", Reason: "only listing an archive (tar -t) is safe; extracting or creating writes files, and a person decides"}
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
