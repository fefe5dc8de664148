package repotrust

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// What the object store holds that git commands print: the names of the
// entries of every tree in it, reachable or not (git log -p, git show,
// git cat-file --batch-all-objects print any of them). Names, not full
// paths: a protected pattern is matched against the entry names, which is
// a superset of the paths it could match, and so never misses one.
//
// Loose objects are inflated and their trees read; packs are read through
// their version 2 index, delta chains resolved. The work is bounded: a
// store with more objects or tree bytes than storeBudget allows, a pack
// without a readable version 2 index, or an object that cannot be
// inflated makes the names unknown, and the caller treats them as holding
// a protected name.

// storeBudget bounds the reading of a store.
type storeBudget struct {
	objects   int   // objects examined, loose and packed
	treeBytes int64 // bytes of tree objects inflated
}

const (
	maxStoreObjects   = 2_000_000
	maxStoreTreeBytes = 256 << 20
	maxTreeNames      = 200_000
	maxPackBytes      = 4 << 30
)

var errStoreTooLarge = errors.New("the object store is larger than is checked")

// packMemo remembers the names read from packs, which rarely change while
// loose objects come and go: lookup returns a pack's names when its index
// and pack files have the stamps given, and keep records them.
type packMemo interface {
	lookup(idx, pack stamp) ([]string, bool)
	keep(idx, pack stamp, names []string)
}

// storeNames collects the entry names of every tree in the object store
// under objects (a common directory's objects/), recording in ss the
// directories and files whose change would change the answer. The names
// of a pack are taken from memo when it knows them (nil: none).
func storeNames(objects string, hashLen int, ss *stamps, memo packMemo) (map[string]struct{}, error) {
	names := map[string]struct{}{}
	var budget storeBudget
	if st := ss.file(objects); !st.exists || st.mode&modeTypeMask != modeDir {
		return names, nil // no store: git finds no objects
	}
	ents, err := os.ReadDir(objects)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		n := e.Name()
		if len(n) != 2 || !isHex(n) {
			continue
		}
		if err := looseDir(filepath.Join(objects, n), n, hashLen, names, &budget, ss); err != nil {
			return nil, err
		}
	}
	packDir := filepath.Join(objects, "pack")
	if st := ss.file(packDir); st.exists {
		pents, err := os.ReadDir(packDir)
		if err != nil {
			return nil, err
		}
		for _, e := range pents {
			n := e.Name()
			if !strings.HasSuffix(n, ".pack") {
				continue
			}
			base := filepath.Join(packDir, strings.TrimSuffix(n, ".pack"))
			idxSt, packSt := ss.file(base+".idx"), ss.file(base+".pack")
			if memo != nil {
				if known, ok := memo.lookup(idxSt, packSt); ok {
					for _, k := range known {
						names[k] = struct{}{}
					}
					if len(names) > maxTreeNames {
						return nil, errStoreTooLarge
					}
					continue
				}
			}
			own := map[string]struct{}{}
			if err := packNames(base, hashLen, own, &budget, ss); err != nil {
				return nil, errors.New(n + ": " + err.Error())
			}
			list := make([]string, 0, len(own))
			for k := range own {
				list = append(list, k)
				names[k] = struct{}{}
			}
			if len(names) > maxTreeNames {
				return nil, errStoreTooLarge
			}
			if fresh := (&stamps{list: []stamp{idxSt, packSt}}); memo != nil && idxSt.exists && packSt.exists && !fresh.racy(time.Now()) {
				memo.keep(idxSt, packSt, list)
			}
		}
	}
	return names, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// looseDir reads the loose objects of one objects/XX directory.
func looseDir(dir, prefix string, hashLen int, names map[string]struct{}, budget *storeBudget, ss *stamps) error {
	ss.file(dir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if len(e.Name()) != 2*hashLen-2 || !isHex(e.Name()) {
			continue // temporary files and others git does not read as objects
		}
		if budget.objects++; budget.objects > maxStoreObjects {
			return errStoreTooLarge
		}
		p := filepath.Join(dir, e.Name())
		if err := looseObject(p, hashLen, names, budget); err != nil {
			return errors.New("the loose object " + prefix + e.Name() + " " + err.Error())
		}
	}
	return nil
}

// looseObject reads one loose object: a zlib stream of "TYPE SIZE\x00"
// and the body.
func looseObject(p string, hashLen int, names map[string]struct{}, budget *storeBudget) error {
	f, err := os.Open(p)
	if err != nil {
		return errors.New("cannot be read: " + err.Error())
	}
	defer f.Close()
	z, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return errors.New("cannot be inflated")
	}
	defer z.Close()
	br := bufio.NewReader(z)
	hdr, err := br.ReadString(0)
	if err != nil || len(hdr) > 32 {
		return errors.New("has no header")
	}
	typ, sizeText, ok := strings.Cut(strings.TrimSuffix(hdr, "\x00"), " ")
	if !ok {
		return errors.New("has no header")
	}
	if typ != "tree" {
		return nil
	}
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || size < 0 {
		return errors.New("has a bad size")
	}
	if budget.treeBytes += size; budget.treeBytes > maxStoreTreeBytes {
		return errStoreTooLarge
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(br, body); err != nil {
		return errors.New("is truncated")
	}
	return treeNames(body, hashLen, names)
}

// treeNames adds the entry names of a tree object's body: entries of
// "MODE NAME\x00" and a binary object name.
func treeNames(body []byte, hashLen int, names map[string]struct{}) error {
	for len(body) > 0 {
		sp := bytes.IndexByte(body, ' ')
		if sp < 0 {
			return errors.New("holds a tree that is not understood")
		}
		rest := body[sp+1:]
		nul := bytes.IndexByte(rest, 0)
		if nul < 0 || len(rest) < nul+1+hashLen {
			return errors.New("holds a tree that is not understood")
		}
		if _, ok := names[string(rest[:nul])]; !ok {
			if len(names) >= maxTreeNames {
				return errStoreTooLarge
			}
			names[string(rest[:nul])] = struct{}{}
		}
		body = rest[nul+1+hashLen:]
	}
	return nil
}

// Pack object types.
const (
	packTree     = 2
	packOfsDelta = 6
	packRefDelta = 7
)

// pack is one pack file being read: its object offsets (from the index,
// sorted by object name), and what is known of each object by offset.
type pack struct {
	f       *os.File
	size    int64
	hashLen int
	names   []byte  // the index's object names, sorted
	offsets []int64 // offsets[i] of names[i]
	types   map[int64]int
	bodies  map[int64][]byte // resolved tree bodies, bases of deltas
	budget  *storeBudget
}

// packNames reads the trees of the pack base.pack through base.idx.
func packNames(base string, hashLen int, names map[string]struct{}, budget *storeBudget, ss *stamps) error {
	idx, exists, err := readWhole(base+".idx", ss, 64<<20)
	if err != nil || !exists {
		return errors.New("its index cannot be read")
	}
	st := ss.file(base + ".pack")
	if !st.exists || st.size > maxPackBytes {
		return errStoreTooLarge
	}
	f, err := os.Open(base + ".pack")
	if err != nil {
		return err
	}
	defer f.Close()
	p := &pack{f: f, size: st.size, hashLen: hashLen, types: map[int64]int{}, bodies: map[int64][]byte{}, budget: budget}
	if err := p.readIndex(idx); err != nil {
		return err
	}
	for _, off := range p.offsets {
		if budget.objects++; budget.objects > maxStoreObjects {
			return errStoreTooLarge
		}
		typ, err := p.typeAt(off, 0)
		if err != nil {
			return err
		}
		if typ != packTree {
			continue
		}
		body, err := p.bodyAt(off, 0)
		if err != nil {
			return err
		}
		if err := treeNames(body, hashLen, names); err != nil {
			return err
		}
	}
	return nil
}

// readIndex reads a version 2 pack index: magic, version, fan-out table,
// object names, CRCs, 31-bit offsets and the large offsets they point to.
func (p *pack) readIndex(b []byte) error {
	if len(b) < 8+256*4 || string(b[:4]) != "\xfftOc" || binary.BigEndian.Uint32(b[4:8]) != 2 {
		return errors.New("its index is not a version 2 pack index")
	}
	n := int(binary.BigEndian.Uint32(b[8+255*4:]))
	if n > maxStoreObjects {
		return errStoreTooLarge
	}
	namesAt := 8 + 256*4
	crcAt := namesAt + n*p.hashLen
	offAt := crcAt + n*4
	largeAt := offAt + n*4
	if largeAt > len(b) {
		return errors.New("its index is truncated")
	}
	p.names = b[namesAt:crcAt]
	p.offsets = make([]int64, n)
	for i := 0; i < n; i++ {
		o := binary.BigEndian.Uint32(b[offAt+4*i:])
		if o&0x80000000 == 0 {
			p.offsets[i] = int64(o)
			continue
		}
		j := largeAt + 8*int(o&0x7fffffff)
		if j+8 > len(b) {
			return errors.New("its index is truncated")
		}
		p.offsets[i] = int64(binary.BigEndian.Uint64(b[j:]))
	}
	for _, o := range p.offsets {
		if o < 12 || o >= p.size {
			return errors.New("its index names an offset outside the pack")
		}
	}
	return nil
}

// maxDeltaDepth bounds a delta chain (git's own default is 50; packs
// made with --depth may go deeper, up to 4095).
const maxDeltaDepth = 4096

// header reads the object header at off: its type, its inflated size, and
// for a delta the base's offset.
func (p *pack) header(off int64) (typ int, size int64, base int64, data int64, err error) {
	var buf [32 + 64]byte
	n, _ := p.f.ReadAt(buf[:], off)
	b := buf[:n]
	if len(b) == 0 {
		return 0, 0, 0, 0, errors.New("an object lies beyond the end of the pack")
	}
	c := b[0]
	typ = int(c>>4) & 7
	size = int64(c & 15)
	shift := uint(4)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || shift > 56 {
			return 0, 0, 0, 0, errors.New("an object header is not understood")
		}
		c = b[i]
		i++
		size |= int64(c&0x7f) << shift
		shift += 7
	}
	switch typ {
	case packOfsDelta:
		v, m := offsetVarint(b[i:])
		if m <= 0 || int64(v) >= off {
			return 0, 0, 0, 0, errors.New("a delta's base offset is not understood")
		}
		return typ, size, off - int64(v), off + int64(i+m), nil
	case packRefDelta:
		if i+p.hashLen > len(b) {
			return 0, 0, 0, 0, errors.New("an object header is truncated")
		}
		bo, ok := p.find(b[i : i+p.hashLen])
		if !ok {
			return 0, 0, 0, 0, errors.New("a delta's base is not in the pack")
		}
		return typ, size, bo, off + int64(i+p.hashLen), nil
	case 1, 2, 3, 4:
		return typ, size, 0, off + int64(i), nil
	}
	return 0, 0, 0, 0, errors.New("an object type is not understood")
}

// find returns the offset of the object named id.
func (p *pack) find(id []byte) (int64, bool) {
	n := len(p.offsets)
	i := sort.Search(n, func(i int) bool { return bytes.Compare(p.names[i*p.hashLen:(i+1)*p.hashLen], id) >= 0 })
	if i < n && bytes.Equal(p.names[i*p.hashLen:(i+1)*p.hashLen], id) {
		return p.offsets[i], true
	}
	return 0, false
}

// typeAt returns the type of the object at off, following delta bases.
func (p *pack) typeAt(off int64, depth int) (int, error) {
	if t, ok := p.types[off]; ok {
		return t, nil
	}
	if depth > maxDeltaDepth {
		return 0, errors.New("a delta chain is deeper than is followed")
	}
	typ, _, base, _, err := p.header(off)
	if err != nil {
		return 0, err
	}
	if typ == packOfsDelta || typ == packRefDelta {
		if typ, err = p.typeAt(base, depth+1); err != nil {
			return 0, err
		}
	}
	p.types[off] = typ
	return typ, nil
}

// bodyAt returns the inflated body of the tree at off, applying deltas.
func (p *pack) bodyAt(off int64, depth int) ([]byte, error) {
	if b, ok := p.bodies[off]; ok {
		return b, nil
	}
	if depth > maxDeltaDepth {
		return nil, errors.New("a delta chain is deeper than is followed")
	}
	typ, size, base, data, err := p.header(off)
	if err != nil {
		return nil, err
	}
	if p.budget.treeBytes += size; p.budget.treeBytes > maxStoreTreeBytes {
		return nil, errStoreTooLarge
	}
	raw, err := p.inflate(data, size)
	if err != nil {
		return nil, err
	}
	body := raw
	if typ == packOfsDelta || typ == packRefDelta {
		b, err := p.bodyAt(base, depth+1)
		if err != nil {
			return nil, err
		}
		if body, err = applyDelta(b, raw); err != nil {
			return nil, err
		}
		if p.budget.treeBytes += int64(len(body)); p.budget.treeBytes > maxStoreTreeBytes {
			return nil, errStoreTooLarge
		}
	}
	p.bodies[off] = body
	return body, nil
}

// inflate reads size bytes of zlib data at off.
func (p *pack) inflate(off, size int64) ([]byte, error) {
	z, err := zlib.NewReader(bufio.NewReader(io.NewSectionReader(p.f, off, p.size-off)))
	if err != nil {
		return nil, errors.New("an object cannot be inflated")
	}
	defer z.Close()
	out := make([]byte, size)
	if _, err := io.ReadFull(z, out); err != nil {
		return nil, errors.New("an object is truncated")
	}
	return out, nil
}

// applyDelta applies a git delta (base size, result size, then copy and
// insert instructions) to base.
func applyDelta(base, delta []byte) ([]byte, error) {
	bad := errors.New("a delta is not understood")
	size := func() (int64, bool) {
		var v int64
		for shift := uint(0); len(delta) > 0 && shift < 63; shift += 7 {
			c := delta[0]
			delta = delta[1:]
			v |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	bs, ok1 := size()
	rs, ok2 := size()
	if !ok1 || !ok2 || bs != int64(len(base)) || rs > maxStoreTreeBytes {
		return nil, bad
	}
	out := make([]byte, 0, rs)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		if op&0x80 != 0 {
			var off, n int64
			for i := uint(0); i < 4; i++ {
				if op&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					off |= int64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := uint(0); i < 3; i++ {
				if op&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					n |= int64(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > int64(len(base)) || int64(len(out))+n > rs {
				return nil, bad
			}
			out = append(out, base[off:off+n]...)
		} else if op != 0 {
			n := int(op)
			if n > len(delta) || int64(len(out)+n) > rs {
				return nil, bad
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		} else {
			return nil, bad
		}
	}
	if int64(len(out)) != rs {
		return nil, bad
	}
	return out, nil
}

// readWhole reads a file of at most limit bytes, recording its stamp.
func readWhole(path string, ss *stamps, limit int64) ([]byte, bool, error) {
	st := ss.file(path)
	if !st.exists {
		return nil, false, nil
	}
	if st.mode&modeTypeMask != modeRegular {
		return nil, true, errNotRegular
	}
	if st.size > limit {
		return nil, true, errStoreTooLarge
	}
	b, err := os.ReadFile(path)
	return b, true, err
}
