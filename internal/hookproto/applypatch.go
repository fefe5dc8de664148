package hookproto

import "strings"

// Markers of the apply_patch format Codex sends as tool_input.command of
// its apply_patch tool (the format is described in openai/codex,
// codex-rs/apply-patch: a "*** Begin Patch" line, file sections, a
// "*** End Patch" line).
const (
	patchBegin  = "*** Begin Patch"
	patchEnd    = "*** End Patch"
	patchAdd    = "*** Add File: "
	patchUpdate = "*** Update File: "
	patchDelete = "*** Delete File: "
	patchMove   = "*** Move to: "
	patchEOF    = "*** End of File"
)

// PatchFiles returns every file an apply_patch body names (added, updated,
// deleted, and the destinations of moves), in order, as written. A body
// that is not a well-formed patch, that names no file, or that holds a
// "***" line the format does not define is an error matching
// ErrMalformed: a file the hook did not see must not be written.
//
// Codex trims a line before it reads it as a file header, and ends an Add
// File section at the first line that does not begin with "+": so
// " *** Add File: x" after added lines is a header to it. Every line
// whose trimmed text begins with "***" is therefore read as a header here,
// wherever it stands (added and removed lines begin with "+" or "-", so
// they never do). A context line of an Update File section that looks like
// a header is thus read as one too: the hook then checks a file more,
// never one less.
func PatchFiles(patch string) ([]string, error) {
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	// Drop blank lines around the patch, and a heredoc wrapper
	// (apply_patch <<'EOF' ... EOF), which Codex also accepts.
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > 2 && strings.HasPrefix(lines[0], "apply_patch") && strings.Contains(lines[0], "<<") {
		lines = lines[1 : len(lines)-1]
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != patchBegin || strings.TrimSpace(lines[len(lines)-1]) != patchEnd {
		return nil, malformed("apply_patch: the patch must start with %q and end with %q", patchBegin, patchEnd)
	}
	var files []string
	lastUpdate := false // the previous line was an Update File header
	for i, raw := range lines[1 : len(lines)-1] {
		line := strings.TrimSpace(raw)
		if !strings.HasPrefix(line, "***") {
			lastUpdate = false
			continue
		}
		var name string
		switch {
		case strings.HasPrefix(line, patchAdd):
			name = line[len(patchAdd):]
		case strings.HasPrefix(line, patchUpdate):
			name = line[len(patchUpdate):]
		case strings.HasPrefix(line, patchDelete):
			name = line[len(patchDelete):]
		case strings.HasPrefix(line, patchMove):
			if !lastUpdate {
				return nil, malformed("apply_patch: line %d: %q does not follow an Update File header", i+2, line)
			}
			name = line[len(patchMove):]
		case line == patchEOF:
			continue
		default:
			return nil, malformed("apply_patch: line %d: %q is not a header the patch format defines", i+2, line)
		}
		lastUpdate = strings.HasPrefix(line, patchUpdate)
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, malformed("apply_patch: line %d: %q names no file", i+2, line)
		}
		files = append(files, name)
	}
	if len(files) == 0 {
		return nil, malformed("apply_patch: the patch names no file")
	}
	return files, nil
}
