package pathres

import "path/filepath"

// Clean is filepath.Clean, answered without rewriting when p is already an
// absolute clean path: it then returns p itself after one scan, where
// filepath.Clean rebuilds it byte by byte to find that nothing changes.
// Every other input, relative or empty ones included, goes to
// filepath.Clean, so Clean(p) == filepath.Clean(p) for every p.
func Clean(p string) string {
	if isClean(p) {
		return p
	}
	return filepath.Clean(p)
}
