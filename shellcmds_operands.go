package sandboxauth

import "strings"

// operandSpec says which arguments of a program name files. Arguments that
// name files are checked against the sandbox; patterns, scripts and other
// text are not. A program without a spec has every operand and every flag
// value checked, which is the conservative choice.
type operandSpec struct {
	// shortValue lists the short options (getopt style) that take a value,
	// attached (-fFILE) or as the next argument.
	shortValue string
	// shortText lists those of shortValue whose value is text, not a file.
	shortText string
	// longValue lists the long options that take their value as the next
	// argument when written without "=".
	longValue []string
	// longText lists the long options (or single-dash long options for
	// find-style programs) whose value is text, not a file.
	longText []string
	// firstIsText: the first operand is a pattern, script or program
	// (grep, sed, awk, jq), unless one of givenText was given.
	firstIsText bool
	givenText   []string
	// noPaths: no operand names a file (echo, expr, basename...).
	noPaths bool
	// writes: the program may write the files it names; such files must not
	// lie in a .git directory, whose hooks and config later git commands
	// run.
	writes bool
	// assignOperands: operands of the form name=value are variable
	// assignments, not files (awk).
	assignOperands bool
	// longPair lists long options that take two arguments (jq --arg NAME
	// VALUE); the value says whether the second one is text too.
	longPair map[string]bool
}

var grepSpec = &operandSpec{
	shortValue: "efmABCdDX",
	shortText:  "emABCdDX",
	longValue: []string{"--regexp", "--file", "--max-count", "--after-context", "--before-context",
		"--context", "--include", "--exclude", "--exclude-from", "--exclude-dir", "--label",
		"--binary-files", "--devices", "--directories", "--group-separator"},
	longText: []string{"--regexp", "--max-count", "--after-context", "--before-context", "--context",
		"--include", "--exclude", "--exclude-dir", "--label", "--binary-files", "--devices",
		"--directories", "--group-separator", "--color", "--colour"},
	firstIsText: true,
	givenText:   []string{"-e", "-f", "--regexp", "--file"},
}

var operandSpecs = map[string]*operandSpec{
	"grep":  grepSpec,
	"egrep": grepSpec,
	"fgrep": grepSpec,
	"rg": {
		shortValue: "efgjmMtTABCErd",
		shortText:  "egjmMtTABCEr",
		longValue: []string{"--regexp", "--file", "--glob", "--iglob", "--type", "--type-not",
			"--type-add", "--type-clear", "--max-count", "--max-columns", "--max-depth",
			"--max-filesize", "--threads", "--encoding", "--replace", "--context", "--after-context",
			"--before-context", "--colors", "--context-separator", "--field-match-separator",
			"--field-context-separator", "--path-separator", "--sort", "--sortr", "--ignore-file",
			"--engine", "--dfa-size-limit", "--regex-size-limit", "--pre", "--pre-glob",
			"--hyperlink-format", "--hostname-bin", "--generate", "--color"},
		longText: []string{"--regexp", "--glob", "--iglob", "--type", "--type-not", "--type-add",
			"--type-clear", "--max-count", "--max-columns", "--max-depth", "--max-filesize",
			"--threads", "--encoding", "--replace", "--context", "--after-context", "--before-context",
			"--colors", "--context-separator", "--field-match-separator", "--field-context-separator",
			"--path-separator", "--sort", "--sortr", "--engine", "--dfa-size-limit",
			"--regex-size-limit", "--hyperlink-format", "--generate", "--color"},
		firstIsText: true,
		givenText:   []string{"-e", "-f", "--regexp", "--file", "--files", "--type-list"},
	},
	"git": {
		shortValue: "SGe",
		shortText:  "SGe",
		longText: []string{"--format", "--pretty", "--grep", "--author", "--committer", "--since",
			"--until", "--after", "--before", "--message", "--date", "--decorate", "--abbrev",
			"--max-count", "--skip", "--color", "--word-diff-regex", "--diff-filter", "--stat",
			"--sort", "--points-at", "--contains", "--merged", "--no-merged", "--no-contains",
			"--exclude", "--glob", "--branches", "--tags", "--remotes", "--unified",
			"--short", "--abbrev-ref", "--oneline", "--type", "--pickaxe-regex",
			"--find-renames", "--find-copies", "--break-rewrites", "--dirstat", "--submodule",
			"--word-diff", "--color-moved", "--show-current", "--ignore-submodules", "--encoding"},
	},
	"sed": {
		shortValue:  "efl",
		shortText:   "el",
		longValue:   []string{"--expression", "--file", "--line-length"},
		longText:    []string{"--expression", "--line-length"},
		firstIsText: true,
		givenText:   []string{"-e", "-f", "--expression", "--file"},
	},
	"awk":  awkSpec,
	"gawk": awkSpec,
	"mawk": awkSpec,
	"nawk": awkSpec,
	"jq": {
		shortValue:  "fL",
		longValue:   []string{"--from-file", "--indent"},
		longText:    []string{"--indent"},
		longPair:    map[string]bool{"--arg": true, "--argjson": true, "--slurpfile": false, "--rawfile": false},
		firstIsText: true,
		givenText:   []string{"-f", "--from-file"},
	},
	"yq": {firstIsText: true},
	"find": {
		longText: []string{"-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-wholename",
			"-iwholename", "-lname", "-ilname", "-type", "-xtype", "-maxdepth", "-mindepth", "-size",
			"-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-perm", "-user", "-group",
			"-uid", "-gid", "-printf", "-links", "-inum", "-fstype", "-regextype", "-used",
			"-context", "-newermt"},
	},
	"fd": {
		shortValue:  "edtEjScx",
		shortText:   "edtEjSc",
		longValue:   []string{"--extension", "--max-depth", "--min-depth", "--type", "--exclude", "--threads", "--size", "--changed-within", "--changed-before", "--owner", "--color"},
		longText:    []string{"--extension", "--max-depth", "--min-depth", "--type", "--exclude", "--threads", "--size", "--changed-within", "--changed-before", "--owner", "--color"},
		firstIsText: true,
	},
	"cut":       {shortValue: "bcdf", shortText: "bcdf", longText: []string{"--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"}},
	"sort":      {shortValue: "kto", shortText: "kt", longText: []string{"--key", "--field-separator", "--buffer-size", "--parallel"}},
	"head":      {shortValue: "nc", shortText: "nc", longText: []string{"--lines", "--bytes"}},
	"tail":      {shortValue: "ncs", shortText: "ncs", longText: []string{"--lines", "--bytes", "--sleep-interval", "--pid"}},
	"ls":        {shortValue: "ITw", shortText: "ITw", longText: []string{"--ignore", "--hide", "--format", "--sort", "--time", "--time-style", "--color", "--width", "--tabsize", "--block-size", "--indicator-style", "--quoting-style"}},
	"tr":        {noPaths: true},
	"echo":      {noPaths: true},
	"printf":    {noPaths: true},
	"expr":      {noPaths: true},
	"seq":       {noPaths: true},
	"sleep":     {noPaths: true},
	"basename":  {noPaths: true},
	"dirname":   {noPaths: true},
	"true":      {noPaths: true},
	"false":     {noPaths: true},
	"factor":    {noPaths: true},
	"numfmt":    {noPaths: true},
	"printenv":  {noPaths: true},
	"which":     {noPaths: true},
	"whereis":   {noPaths: true},
	"type":      {noPaths: true},
	"command":   {noPaths: true},
	"uname":     {noPaths: true},
	"whoami":    {noPaths: true},
	"id":        {noPaths: true},
	"groups":    {noPaths: true},
	"getconf":   {noPaths: true},
	"locale":    {noPaths: true},
	"cal":       {noPaths: true},
	"date":      {shortValue: "dfrs", shortText: "ds", longText: []string{"--date", "--set", "--iso-8601", "--rfc-3339"}},
	"tee":       {writes: true},
	"touch":     {writes: true, shortValue: "dtr", shortText: "dt", longText: []string{"--date"}},
	"mkdir":     {writes: true, shortValue: "m", shortText: "m", longText: []string{"--mode"}},
	"uniq":      {writes: true, shortValue: "fsw", shortText: "fsw"},
	"xxd":       {writes: true, shortValue: "cgls", shortText: "cgls"},
	"go":        {writes: true},
	"gofmt":     {writes: true},
	"goimports": {writes: true},
	"rm":        {writes: true},
	"cp":        {writes: true, shortValue: "tS", shortText: "S", longText: []string{"--suffix", "--backup", "--preserve", "--no-preserve", "--reflink", "--sparse", "--update"}},
	"mv":        {writes: true, shortValue: "tS", shortText: "S", longText: []string{"--suffix", "--backup", "--update"}},
	"cargo":     {writes: true},
	"wc":        {},
	"diff":      {shortValue: "UCFIDLSx", shortText: "UCFIDLS", longText: []string{"--unified", "--context", "--label", "--ignore-matching-lines", "--show-function-line", "--starting-file", "--exclude", "--color", "--palette"}},
	"du":        {shortValue: "dBt", shortText: "dBt", longText: []string{"--max-depth", "--block-size", "--threshold", "--exclude", "--time-style"}},
	"tree":      {shortValue: "LPIo", shortText: "LPI"},
	"stat":      {shortValue: "cf", shortText: "c", longText: []string{"--format", "--printf"}},
}

var awkSpec = &operandSpec{
	shortValue:     "fvFe",
	shortText:      "vF",
	longValue:      []string{"--file", "--assign", "--field-separator", "--source"},
	longText:       []string{"--assign", "--field-separator", "--source"},
	firstIsText:    true,
	givenText:      []string{"-f", "--file", "-e", "--source"},
	assignOperands: true,
}

var noSpec operandSpec

// walkOperands calls visit for every argument of args (argv[1:]) that may
// name a file, with the file part of the argument. It stops early when
// visit returns false and reports whether it ran to the end.
func walkOperands(spec *operandSpec, style flagStyle, args []string, visit func(string) bool) bool {
	if spec != nil && spec.noPaths {
		return true
	}
	sp := spec
	if sp == nil {
		sp = &noSpec
	}
	textFirst := sp.firstIsText
	if textFirst {
		for _, a := range args {
			if a == "--" {
				break
			}
			for _, g := range sp.givenText {
				if argHasFlag(style, a, g) {
					textFirst = false
				}
			}
		}
	}
	operands := 0
	endOfFlags := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if endOfFlags || len(a) < 2 || a[0] != '-' {
			operands++
			if textFirst && operands == 1 {
				continue
			}
			if sp.assignOperands && isAssignmentWord(a) {
				continue
			}
			if !visit(a) {
				return false
			}
			if j := strings.IndexByte(a, '='); j > 0 && j+1 < len(a) {
				if !visit(a[j+1:]) {
					return false
				}
			}
			continue
		}
		if a == "--" && style != styleSingleDash {
			endOfFlags = true
			continue
		}
		// An option. Find its name and value.
		if strings.HasPrefix(a, "--") || style != styleGNU {
			name, value, hasValue := a, "", false
			if j := strings.IndexAny(a, "= "); j >= 0 {
				name, value, hasValue = a[:j], a[j+1:], true
			}
			if style == styleGo && !strings.HasPrefix(name, "--") {
				name = "-" + name // compare Go flags in their -- form too
			}
			if second, ok := sp.longPair[name]; ok && !hasValue {
				if i+2 < len(args) {
					if !second && !visit(args[i+2]) {
						return false
					}
				}
				i += 2
				continue
			}
			text := containsFlag(sp.longText, name, style)
			if !hasValue && containsFlag(sp.longValue, name, style) && i+1 < len(args) {
				i++
				value, hasValue = args[i], true
			} else if !hasValue && text && style == styleSingleDash && i+1 < len(args) {
				i++
				continue // find's text predicates take the next argument
			}
			if hasValue && !text {
				if !visit(value) {
					return false
				}
			}
			continue
		}
		// getopt short options: a bundle, maybe ending in a value. For an
		// unknown program, any letter may take the rest as its value
		// (tar -T.env): check the text after the first letter as a path.
		if spec == nil && len(a) > 2 && !visit(a[2:]) {
			return false
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			if strings.IndexByte(sp.shortValue, c) < 0 {
				if spec == nil || strings.IndexByte("/~.", c) >= 0 {
					// Unknown program, or an odd bundle: check any
					// path-looking tail (-I../include, -o/tmp/x).
					if c == '/' || c == '~' || (c == '.' && k+1 < len(a) && a[k+1] == '.') {
						if !visit(a[k:]) {
							return false
						}
						break
					}
				}
				continue
			}
			value := a[k+1:]
			if value == "" && i+1 < len(args) {
				i++
				value = args[i]
			}
			if strings.IndexByte(sp.shortText, c) < 0 && value != "" {
				if !visit(value) {
					return false
				}
			}
			break
		}
	}
	return true
}

func containsFlag(list []string, name string, style flagStyle) bool {
	for _, f := range list {
		if f == name {
			return true
		}
		if style == styleGo && "-"+f == name {
			return true
		}
		if style == styleGNU && strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(f, name) {
			return true // abbreviation
		}
	}
	return false
}

func isAssignmentWord(a string) bool {
	j := strings.IndexByte(a, '=')
	if j <= 0 {
		return false
	}
	for i := 0; i < j; i++ {
		c := a[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || (i > 0 && '0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}
