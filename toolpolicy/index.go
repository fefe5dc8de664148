package toolpolicy

import (
	"math/bits"
	"sort"
)

// index is the merged, read-only form of every layer of a policy, built
// once. Each layer owns one bit; a lookup ORs together the allow bits and
// the deny bits of every pattern that matches the name.
type index struct {
	full     uint64 // one bit per layer
	noAllow  uint64 // layers without an allow list (they do not restrict)
	anyAllow bool   // some layer has an allow list
	allAllow uint64 // layers whose allow list holds "*"
	allDeny  uint64 // layers whose deny list holds "*"
	exact    map[string]masks
	wild     *wildIndex // nil when no layer has a wildcard
	// verdict holds the final answer for every name in exact (and any
	// catalogue names added later), so that a known name costs one map
	// lookup. Other names can only be matched by "*" and wildcards.
	verdict map[string]bool
}

// masks are the layer bits in which a name is allowed or denied. grant
// holds the layers whose allow list matches a tool that grants this one
// (a related-tool grant, decided layer by layer).
type masks struct {
	allow, deny uint64
	grant       uint64
}

// allowed decides for a canonical name. It does not allocate.
func (x *index) allowed(name string) bool {
	if v, ok := x.verdict[name]; ok {
		return v
	}
	if x.allDeny != 0 {
		return false
	}
	a := x.allAllow
	if x.wild != nil {
		wa, wd := x.wild.match(name)
		if wd != 0 {
			return false
		}
		a |= wa
	}
	return (a | x.noAllow) == x.full
}

// compute decides for a canonical name from the masks; it is what verdict
// caches.
func (x *index) compute(name string) bool {
	a, d := x.allAllow, x.allDeny
	if m, ok := x.exact[name]; ok {
		a |= m.allow | m.grant
		d |= m.deny
	}
	if d != 0 {
		return false
	}
	if x.wild != nil {
		wa, wd := x.wild.match(name)
		a |= wa
		d |= wd
	}
	return d == 0 && (a|x.noAllow) == x.full
}

// direct returns the layer bits in which a canonical name is matched by an
// allow or a deny pattern, without related-tool grants.
func (x *index) direct(name string) masks {
	m := masks{allow: x.allAllow, deny: x.allDeny}
	if e, ok := x.exact[name]; ok {
		m.allow |= e.allow
		m.deny |= e.deny
	}
	if x.wild != nil {
		wa, wd := x.wild.match(name)
		m.allow |= wa
		m.deny |= wd
	}
	return m
}

// buildIndex merges compiled layers. related maps a granted tool to the
// tools that grant it.
func buildIndex(layers []compiledLayer, related map[string][]string) index {
	x := index{exact: map[string]masks{}}
	wb := newWildBuilder()
	for i, l := range layers {
		bit := uint64(1) << i
		x.full |= bit
		if l.allow == nil {
			x.noAllow |= bit
		} else {
			x.anyAllow = true
		}
		add := func(ps []pattern, deny bool) {
			for _, p := range ps {
				switch p.kind {
				case patAll:
					if deny {
						x.allDeny |= bit
					} else {
						x.allAllow |= bit
					}
				case patWildcard:
					wb.add(p.src, p.wild, bit, deny)
				default:
					for _, n := range p.names {
						m := x.exact[n]
						if deny {
							m.deny |= bit
						} else {
							m.allow |= bit
						}
						x.exact[n] = m
					}
				}
			}
		}
		add(l.deny, true)
		add(l.allow, false)
	}
	x.wild = wb.build()
	// Related-tool grants, layer by layer: a layer whose allow list matches
	// a granter lets the granted tool pass that layer, as if it listed it.
	// A granter that some layer denies grants nothing, and the granted
	// tool's own deny bits still apply in compute, so a grant never
	// overrides a deny. Grant bits are computed from direct matches only
	// and all before any is stored, so grants do not chain.
	grants := map[string]uint64{}
	for granted, granters := range related {
		for _, g := range granters {
			if m := x.direct(g); m.deny == 0 {
				grants[granted] |= m.allow
			}
		}
	}
	for t, bits := range grants {
		if bits == 0 {
			continue
		}
		m := x.exact[t]
		m.grant = bits
		x.exact[t] = m
	}
	x.verdict = make(map[string]bool, len(x.exact))
	for name := range x.exact {
		x.verdict[name] = x.anyAllow && x.compute(name)
	}
	return x
}

// wildPat is one distinct wildcard with the layer bits it allows and
// denies in.
type wildPat struct {
	w     wildcard
	allow uint64
	deny  uint64
}

// wildIndex finds the wildcards matching a name without scanning them all:
// a wildcard with a literal prefix sits in a trie of prefixes, one with
// only a literal suffix in a trie of reversed suffixes, and one with
// neither ("*ab*") in a gram table keyed by a piece of one of its middle
// literals (four bytes if a literal is that long, else two, else one),
// the piece chosen to keep buckets small. Candidates are then checked
// segment by segment.
type wildIndex struct {
	pats   []wildPat
	prefix trie
	suffix trie
	grams  []gramTable // only the tables in use, longest grams first
}

// match returns the allow and deny bits of every wildcard matching name.
func (wi *wildIndex) match(name string) (allow, deny uint64) {
	visit := func(ids []int32) {
		for _, id := range ids {
			p := &wi.pats[id]
			if p.w.match(name) {
				allow |= p.allow
				deny |= p.deny
			}
		}
	}
	if len(wi.prefix.nodes) > 1 {
		n := &wi.prefix.nodes[0]
		for i := 0; ; i++ {
			visit(wi.prefix.pats[n.patStart:n.patEnd])
			if i == len(name) {
				break
			}
			c, ok := n.child(name[i])
			if !ok {
				break
			}
			n = &wi.prefix.nodes[c]
		}
	}
	if len(wi.suffix.nodes) > 1 {
		n := &wi.suffix.nodes[0]
		for i := len(name); ; i-- {
			visit(wi.suffix.pats[n.patStart:n.patEnd])
			if i == 0 {
				break
			}
			c, ok := n.child(name[i-1])
			if !ok {
				break
			}
			n = &wi.suffix.nodes[c]
		}
	}
	for gi := range wi.grams {
		g := &wi.grams[gi]
		for i := 0; i+g.n <= len(name); i++ {
			if g.first&(1<<uint(alphaIndex[name[i]])) == 0 {
				continue
			}
			k := g.key(name, i)
			visit(g.pats[g.start[k]:g.start[k+1]])
		}
	}
	return allow, deny
}

// gramTable buckets wildcards by a gram (a run of n bytes) of one of
// their middle literals. Bucket k holds pats[start[k]:start[k+1]].
type gramTable struct {
	n     int    // gram length: 1, 2 or 4
	shift uint   // n == 4: hash shift (32 - log2(buckets))
	first uint64 // alphabet bits of the first byte of every key in use
	start []int32
	pats  []int32
}

// key returns the bucket of the gram of name at i.
func (g *gramTable) key(name string, i int) int {
	switch g.n {
	case 1:
		return int(alphaIndex[name[i]])
	case 2:
		return int(alphaIndex[name[i]])*alphabetSize + int(alphaIndex[name[i+1]])
	default:
		v := uint32(alphaIndex[name[i]])
		v = v*uint32(alphabetSize) + uint32(alphaIndex[name[i+1]])
		v = v*uint32(alphabetSize) + uint32(alphaIndex[name[i+2]])
		v = v*uint32(alphabetSize) + uint32(alphaIndex[name[i+3]])
		return int((v * 2654435761) >> g.shift)
	}
}

// trie is a read-only byte trie over the name alphabet, stored flat: the
// children of a node are contiguous, in alphabet order, starting at first,
// and a 40-bit set tells which exist.
type trie struct {
	nodes []trieNode
	pats  []int32
}

type trieNode struct {
	children         uint64
	first            int32
	patStart, patEnd int32
}

// child returns the index of the child for byte c.
func (n *trieNode) child(c byte) (int32, bool) {
	a := alphaIndex[c]
	if a < 0 {
		return 0, false
	}
	bit := uint64(1) << uint(a)
	if n.children&bit == 0 {
		return 0, false
	}
	return n.first + int32(bits.OnesCount64(n.children&(bit-1))), true
}

// wildBuilder collects distinct wildcards before the index is laid out.
type wildBuilder struct {
	byText map[string]int32
	pats   []wildPat
}

func newWildBuilder() *wildBuilder { return &wildBuilder{byText: map[string]int32{}} }

func (b *wildBuilder) add(text string, w wildcard, bit uint64, deny bool) {
	id, ok := b.byText[text]
	if !ok {
		id = int32(len(b.pats))
		b.byText[text] = id
		b.pats = append(b.pats, wildPat{w: w})
	}
	if deny {
		b.pats[id].deny |= bit
	} else {
		b.pats[id].allow |= bit
	}
}

func (b *wildBuilder) build() *wildIndex {
	if len(b.pats) == 0 {
		return nil
	}
	wi := &wildIndex{pats: b.pats}
	pre, suf := newTrieBuilder(), newTrieBuilder()
	var infix [3][]int32 // by gram table: 4, 2, 1 bytes
	for id, p := range b.pats {
		switch {
		case p.w.prefix != "":
			pre.insert(p.w.prefix, int32(id))
		case p.w.suffix != "":
			suf.insert(reverse(p.w.suffix), int32(id))
		default:
			longest := 0
			for _, m := range p.w.middle {
				longest = max(longest, len(m))
			}
			switch {
			case longest >= 4:
				infix[0] = append(infix[0], int32(id))
			case longest >= 2:
				infix[1] = append(infix[1], int32(id))
			default:
				infix[2] = append(infix[2], int32(id))
			}
		}
	}
	wi.prefix = pre.layout()
	wi.suffix = suf.layout()
	for ti, n := range [3]int{4, 2, 1} {
		if len(infix[ti]) > 0 {
			wi.grams = append(wi.grams, buildGramTable(n, infix[ti], b.pats))
		}
	}
	return wi
}

// buildGramTable puts each wildcard in the least full bucket among the
// grams of length n of its middle literals.
func buildGramTable(n int, ids []int32, pats []wildPat) gramTable {
	g := gramTable{n: n}
	buckets := 1
	switch n {
	case 1:
		buckets = alphabetSize
	case 2:
		buckets = alphabetSize * alphabetSize
	default:
		bitsNeeded := 4
		for 1<<bitsNeeded < 2*len(ids) {
			bitsNeeded++
		}
		buckets = 1 << bitsNeeded
		g.shift = uint(32 - bitsNeeded)
	}
	lists := make([][]int32, buckets)
	for _, id := range ids {
		best, bestLen, bestFirst := -1, 0, 0
		for _, m := range pats[id].w.middle {
			for i := 0; i+n <= len(m); i++ {
				k := g.key(m, i)
				if best < 0 || len(lists[k]) < bestLen {
					best, bestLen, bestFirst = k, len(lists[k]), int(alphaIndex[m[i]])
				}
			}
		}
		lists[best] = append(lists[best], id)
		g.first |= 1 << uint(bestFirst)
	}
	g.start = make([]int32, buckets+1)
	for k, l := range lists {
		g.start[k+1] = g.start[k] + int32(len(l))
		g.pats = append(g.pats, l...)
	}
	return g
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// trieBuilder is the mutable form of a trie.
type trieBuilder struct{ root *bnode }

type bnode struct {
	kids map[int8]*bnode
	pats []int32
}

func newTrieBuilder() *trieBuilder { return &trieBuilder{root: &bnode{}} }

func (t *trieBuilder) insert(key string, id int32) {
	n := t.root
	for i := 0; i < len(key); i++ {
		a := alphaIndex[key[i]]
		if n.kids == nil {
			n.kids = map[int8]*bnode{}
		}
		c, ok := n.kids[a]
		if !ok {
			c = &bnode{}
			n.kids[a] = c
		}
		n = c
	}
	n.pats = append(n.pats, id)
}

// layout flattens the trie breadth first, so that each node's children are
// contiguous and in alphabet order.
func (t *trieBuilder) layout() trie {
	var out trie
	queue := []*bnode{t.root}
	out.nodes = append(out.nodes, trieNode{})
	for qi := 0; qi < len(queue); qi++ {
		b := queue[qi]
		n := trieNode{patStart: int32(len(out.pats))}
		out.pats = append(out.pats, b.pats...)
		n.patEnd = int32(len(out.pats))
		keys := make([]int, 0, len(b.kids))
		for k := range b.kids {
			keys = append(keys, int(k))
		}
		sort.Ints(keys)
		n.first = int32(len(queue))
		for _, k := range keys {
			n.children |= 1 << uint(k)
			queue = append(queue, b.kids[int8(k)])
			out.nodes = append(out.nodes, trieNode{})
		}
		out.nodes[qi] = n
	}
	return out
}
