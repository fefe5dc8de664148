package sandboxauth

import (
	"strconv"
	"unicode/utf8"
)

// nameMax is the longest name of a directory entry (NAME_MAX) on Linux's
// file systems.
const nameMax = 255

// quarantineNames returns the names to try, in order, for base moved
// aside: base with quarantineSuffix, then with ".1" to ".9" after it,
// then with random (hex) after it when given. A name that would be longer
// than nameMax keeps as much of the start of base as fits (cut at a
// character's boundary, followed by "~" to show the cut): the file's
// origin stays recognisable and the name stays one the file system takes,
// so that a long name cannot keep a file from being moved aside.
func quarantineNames(base, random string) []string {
	names := make([]string, 0, 11)
	for i := 0; i < 10; i++ {
		tail := quarantineSuffix
		if i > 0 {
			tail += "." + strconv.Itoa(i)
		}
		names = append(names, quarantineName(base, tail))
	}
	if random != "" {
		names = append(names, quarantineName(base, quarantineSuffix+"."+random))
	}
	return names
}

// quarantineName returns base followed by tail, base cut short (and
// marked with "~") when the whole would be longer than nameMax.
func quarantineName(base, tail string) string {
	if len(base)+len(tail) <= nameMax {
		return base + tail
	}
	keep := nameMax - len(tail) - len("~")
	if keep < 0 {
		keep = 0
	}
	if keep > len(base) {
		keep = len(base)
	}
	for keep > 0 && !utf8.RuneStart(base[keep]) {
		keep--
	}
	return base[:keep] + "~" + tail
}
