package sandboxauth

import (
	"path"
	"path/filepath"
	"strings"
)

// anchoredMatches adds the existing matches at the top of the sandbox of
// the patterns with more than one element and a wildcard, however deep
// they lie: the walk reads three levels, and a pattern such as
// .vagrant/machines/*/*/private_key names files five levels down. Only
// the directories the pattern's elements name are read (each element
// matched without regard to letter case, as the patterns are), so the
// cost follows the pattern, not the sandbox. Literal patterns are named
// by top, and the matches below the top by the walk.
func (c *confinePaths) anchoredMatches() {
	for i := range c.rules {
		r := &c.rules[i]
		rel, literal := r.AtTop()
		if literal || !strings.Contains(rel, "/") {
			continue
		}
		elems := strings.Split(rel, "/")
		dirs := []string{""}
		for depth, elem := range elems {
			var next []string
			for _, d := range dirs {
				entries, err := c.readDir(filepath.Join(c.sandbox, filepath.FromSlash(d)))
				if err != nil {
					continue
				}
				for _, e := range entries {
					name := e.Name()
					if depth == len(elems)-1 {
						// The rule's own test: a copies rule matches
						// the copies of what the element names.
						if !r.MatchesLast(name) {
							continue
						}
					} else if ok, _ := path.Match(elem, strings.ToLower(name)); !ok {
						continue
					}
					if depth < len(elems)-1 && !e.IsDir() {
						continue // a link or a file leads nowhere the pattern names
					}
					next = append(next, path.Join(d, name))
				}
			}
			dirs = next
		}
		for _, m := range dirs {
			if !r.Match(m) {
				continue
			}
			abs := filepath.Join(c.sandbox, filepath.FromSlash(m))
			if r.Write {
				c.readOnly(abs)
				c.seen[abs] = true
			}
			if r.Read {
				c.hide(abs)
			}
		}
	}
}
