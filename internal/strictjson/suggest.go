package strictjson

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// closestKey returns the known key of n that key most likely misspells
// (letters swapped, added, dropped or changed, or another case), or ""
// when none is near enough or two are equally near. Rejected keys are
// never suggested.
func closestKey(n *Node, key string) string {
	lower := []rune(strings.ToLower(key))
	best, bestDist, tie := "", 0, false
	for _, k := range slices.Sorted(maps.Keys(n.Fields)) {
		if n.Fields[k].Reject != "" {
			continue
		}
		d := editDistance(lower, []rune(strings.ToLower(k)))
		// One edit in three letters at most: "nam" is "name", "x" is not "n".
		if d*3 > len(lower) {
			continue
		}
		switch {
		case best == "" || d < bestDist:
			best, bestDist, tie = k, d, false
		case d == bestDist:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of two neighbouring letters that turn a into b.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// unknownField is the error for a key the schema of n does not have: the
// key it most likely misspells first, then every known key.
func unknownField(n *Node, key string) error {
	if k := closestKey(n, key); k != "" {
		return fmt.Errorf("unknown field %q: did you mean %q? (known fields: %s)", key, k, KnownKeys(n))
	}
	return fmt.Errorf("unknown field %q (known fields: %s)", key, KnownKeys(n))
}

// foundQuoted describes tok, a value found where kind was expected, and
// when it is a string that would be right without its quotes ("true"
// where a boolean goes, "30" where a number goes) says to drop them.
func foundQuoted(kind Kind, tok json.Token) string {
	s, ok := tok.(string)
	if !ok {
		return Describe(tok)
	}
	fits := false
	switch kind {
	case Bool:
		fits = s == "true" || s == "false"
	case Number:
		fits = json.Valid([]byte(s)) && strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789.-+eE", r) }) < 0
	}
	if !fits {
		return Describe(tok)
	}
	return fmt.Sprintf("the string %s: write %s without the quotes", strconv.Quote(s), s)
}

// suchAs is " such as EXAMPLE" for a node with an example, else "".
func suchAs(n *Node) string {
	if n.Example == "" {
		return ""
	}
	return " such as " + n.Example
}
