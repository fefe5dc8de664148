package repotrust

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
)

// IndexEntry is one path of a git index: a file staged for the next
// commit (tracked), or a submodule (a gitlink).
type IndexEntry struct {
	// Path is relative to the top of the work tree, slash-separated.
	Path string
	// Mode is the entry's mode: 0100644, 0100755, 0120000 (a symbolic
	// link), 0160000 (a gitlink).
	Mode uint32
	// Stage is 0, or 1 to 3 for the sides of a conflict.
	Stage uint8
	// ID is the object name of the staged content.
	ID []byte
}

// Gitlink reports whether the entry is a submodule.
func (e IndexEntry) Gitlink() bool { return e.Mode&0o170000 == 0o160000 }

// maxIndexEntries bounds the index read: a larger one is not understood.
const maxIndexEntries = 1 << 20

// nameMask is the part of an entry's flags that holds its path's length;
// a path of nameMask bytes or more is stored with that value and ends at
// its NUL.
const nameMask = 0xfff

// indexFile is one index file as read: its entries, and where a split
// index's other half is.
type indexFile struct {
	entries []IndexEntry
	// link is the content of a split index's "link" extension (the shared
	// index's object name, then the deletion and replacement bitmaps), nil
	// for a whole index.
	link []byte
}

// parseIndex reads the entries of a git index file (versions 2, 3 and 4)
// that holds them all. An index that needs another file to be complete (a
// split index's "link" extension) is not understood here: readIndex
// follows it.
func parseIndex(b []byte, hashLen int) ([]IndexEntry, error) {
	f, err := parseIndexFile(b, hashLen)
	if err != nil {
		return nil, err
	}
	if f.link != nil {
		return nil, errors.New("a split index (the rest of its entries are in a shared index file)")
	}
	return f.entries, nil
}

// parseIndexFile reads one git index file (versions 2, 3 and 4) as git's
// do_read_index does: a "DIRC" header, fixed-size entries with a path
// whose length the flags give (version 4: prefix-compressed), padding to
// eight bytes before version 4, then extensions. hashLen is the object
// format's hash length (20 for SHA-1, 32 for SHA-256).
//
// What git could read otherwise than this reader is refused, so that the
// entries returned are the ones git sees: a path whose length in the
// flags disagrees with its NUL; sparse directory entries (whose files
// are not listed); an extension git requires (a signature not starting
// with A to Z) other than "link"; and an end-of-entries (EOIE) or
// entry-offset table (IEOT) extension, with which git reads entries and
// extensions from the offsets they give, that disagrees with the entries
// as read in sequence. Entries without a path are the replacements of a
// split index and are refused in a whole one.
func parseIndexFile(b []byte, hashLen int) (indexFile, error) {
	var out indexFile
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return out, errors.New("not a git index (no DIRC header)")
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return out, errors.New("index version " + strconv.FormatUint(uint64(version), 10) + " is not understood")
	}
	count := binary.BigEndian.Uint32(b[8:12])
	if count > maxIndexEntries {
		return out, errors.New("the index holds more entries than are checked")
	}
	fixed := 40 + hashLen + 2 // times, ids, sizes; the object name; flags
	entries := make([]IndexEntry, 0, count)
	offsets := make([]int, 0, count) // where each entry starts
	fresh := make([]bool, 0, count)  // whether its path owes nothing to the previous one
	off := 12
	prev := ""
	unnamed := 0
	for i := uint32(0); i < count; i++ {
		if off+fixed > len(b) {
			return out, errors.New("the index is truncated")
		}
		offsets = append(offsets, off)
		e := b[off:]
		mode := binary.BigEndian.Uint32(e[24:28])
		flags := binary.BigEndian.Uint16(e[40+hashLen:])
		nameLen := int(flags & nameMask)
		head := fixed
		if flags&0x4000 != 0 { // extended flags, version 3 and later
			if version < 3 {
				return out, errors.New("an extended entry in a version 2 index")
			}
			head += 2
			if off+head > len(b) {
				return out, errors.New("the index is truncated")
			}
		}
		var name string
		if version == 4 {
			strip, n := offsetVarint(e[head:])
			if n <= 0 || strip > uint64(len(prev)) {
				return out, errors.New("a path's prefix length is not understood")
			}
			kept := len(prev) - int(strip)
			rest := e[head+n:]
			end := bytes.IndexByte(rest, 0)
			if end < 0 {
				return out, errors.New("the index is truncated")
			}
			if nameLen != nameMask && nameLen != kept+end {
				return out, errors.New("an entry's path length disagrees with its path")
			}
			name = prev[:kept] + string(rest[:end])
			fresh = append(fresh, kept == 0)
			off += head + n + end + 1
		} else {
			rest := e[head:]
			end := bytes.IndexByte(rest, 0)
			if end < 0 {
				return out, errors.New("the index is truncated")
			}
			if nameLen != nameMask && nameLen != end {
				return out, errors.New("an entry's path length disagrees with its path")
			}
			name = string(rest[:end])
			fresh = append(fresh, true)
			// The entry, its path and at least one NUL, padded to eight.
			off += (head + end + 8) &^ 7
		}
		if off > len(b) {
			return out, errors.New("the index is truncated")
		}
		if name == "" {
			if len(entries) != unnamed {
				return out, errors.New("an entry without a path after entries with one")
			}
			unnamed++
		}
		if mode&0o170000 == 0o040000 {
			return out, errors.New("a sparse index (directory entries hide the paths under them)")
		}
		entries = append(entries, IndexEntry{Path: name, Mode: mode, Stage: uint8(flags >> 12 & 3), ID: append([]byte(nil), e[40:40+hashLen]...)})
		prev = name
	}
	// git reads the extensions from where an EOIE extension, found at a
	// fixed distance from the end, says they start.
	if eoie := len(b) - hashLen - 32; eoie >= 12 && string(b[eoie:eoie+4]) == "EOIE" && binary.BigEndian.Uint32(b[eoie+4:]) == 24 {
		if int(binary.BigEndian.Uint32(b[eoie+8:])) != off {
			return out, errors.New("the index's end-of-entries extension names another offset than its entries' end")
		}
	}
	// Extensions: a four-byte signature and a length each, then the
	// trailing hash.
	ieot := false
	for off+8 <= len(b)-hashLen {
		sig := b[off : off+4]
		size := int(binary.BigEndian.Uint32(b[off+4 : off+8]))
		if size < 0 || off+8+size > len(b) {
			return out, errors.New("an index extension is truncated")
		}
		data := b[off+8 : off+8+size]
		switch {
		case string(sig) == "link":
			if out.link != nil {
				return out, errors.New("two link extensions")
			}
			out.link = data
		case string(sig) == "sdir":
			return out, errors.New("a sparse index (directory entries hide the paths under them)")
		case string(sig) == "IEOT" && !ieot:
			ieot = true
			if err := checkOffsetTable(data, offsets, fresh); err != nil {
				return out, err
			}
		case sig[0] < 'A' || sig[0] > 'Z':
			return out, errors.New("the index uses the required extension " + strconv.Quote(string(sig)) + ", which is not understood")
		}
		off += 8 + size
	}
	if unnamed > 0 && out.link == nil {
		return out, errors.New("an entry without a path")
	}
	out.entries = entries
	return out, nil
}

// checkOffsetTable checks an IEOT extension against the entries' offsets
// as read in sequence: git, when it reads the index in threads, starts
// each block of entries at the offset the table gives, and in version 4
// starts the block's first path afresh.
func checkOffsetTable(data []byte, offsets []int, fresh []bool) error {
	bad := errors.New("the index's entry offset table disagrees with its entries")
	if len(data) < 4 || binary.BigEndian.Uint32(data) != 1 || (len(data)-4)%8 != 0 {
		return bad
	}
	next := 0
	for p := 4; p < len(data); p += 8 {
		at := int(binary.BigEndian.Uint32(data[p:]))
		nr := int(binary.BigEndian.Uint32(data[p+4:]))
		if next >= len(offsets) || offsets[next] != at || !fresh[next] || nr > len(offsets)-next {
			return bad
		}
		next += nr
	}
	if next != len(offsets) {
		return bad
	}
	return nil
}

// readIndex returns the entries git reads from the index of the git
// directory gitDir, as git's read_index_from assembles them: a whole
// index as it is; a split index (a "link" extension) merged with the
// shared index it names (gitDir/sharedindex.<name>), whose entries the
// replacement bitmap replaces in order by the split index's entries
// without a path (mode and object from the split entry, path from the
// shared one), less those the deletion bitmap names, plus the split
// index's other entries. read reads a file and reports whether it exists.
// A missing index holds no entries. Anything git would refuse or read
// otherwise (a shared index that is missing, itself split, or a bitmap
// naming an entry it does not have) is an error.
func readIndex(gitDir string, hashLen int, read func(path string) ([]byte, bool, error)) ([]IndexEntry, error) {
	name := filepath.Join(gitDir, "index")
	b, exists, err := read(name)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, nil
	}
	split, err := parseIndexFile(b, hashLen)
	if err != nil {
		return nil, err
	}
	if split.link == nil {
		return split.entries, nil
	}
	link := split.link
	if len(link) < hashLen {
		return nil, errors.New("the index's link extension is too short")
	}
	base := link[:hashLen]
	if bytes.Count(base, []byte{0}) == hashLen {
		// No shared index: the split index holds every entry.
		if len(split.entries) > 0 && split.entries[0].Path == "" {
			return nil, errors.New("an entry without a path in an index that shares none")
		}
		return split.entries, nil
	}
	var deleted, replaced []uint64
	if rest := link[hashLen:]; len(rest) > 0 {
		var n int
		if deleted, n, err = ewahBits(rest); err != nil {
			return nil, err
		}
		rest = rest[n:]
		if replaced, n, err = ewahBits(rest); err != nil {
			return nil, err
		}
		if n != len(rest) {
			return nil, errors.New("the index's link extension has bytes after its bitmaps")
		}
	}
	sharedName := filepath.Join(gitDir, "sharedindex."+hex.EncodeToString(base))
	sb, exists, err := read(sharedName)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, errors.New("the split index's shared index " + sharedName + " is missing")
	}
	shared, err := parseIndexFile(sb, hashLen)
	if err != nil {
		return nil, errors.New("the shared index " + sharedName + ": " + err.Error())
	}
	if shared.link != nil {
		return nil, errors.New("the shared index " + sharedName + " is itself split")
	}
	merged := append([]IndexEntry(nil), shared.entries...)
	if len(replaced) > len(split.entries) {
		return nil, errors.New("the split index replaces more entries than it holds")
	}
	for i, pos := range replaced {
		src := split.entries[i]
		if pos >= uint64(len(merged)) || src.Path != "" {
			return nil, errors.New("the split index's replacements do not match its shared index")
		}
		src.Path = merged[pos].Path
		merged[pos] = src
	}
	gone := make(map[uint64]bool, len(deleted))
	for _, pos := range deleted {
		if pos >= uint64(len(merged)) {
			return nil, errors.New("the split index deletes an entry its shared index does not have")
		}
		gone[pos] = true
	}
	out := make([]IndexEntry, 0, len(merged)+len(split.entries)-len(replaced))
	for i, e := range merged {
		if !gone[uint64(i)] {
			out = append(out, e)
		}
	}
	for _, e := range split.entries[len(replaced):] {
		if e.Path == "" {
			return nil, errors.New("an entry without a path that replaces none")
		}
		out = append(out, e)
	}
	return out, nil
}

// maxBitmapBits bounds the positions a split index's bitmap may name: no
// index holds more entries than maxIndexEntries.
const maxBitmapBits = maxIndexEntries

// ewahBits decodes one of git's EWAH bitmaps (ewah_read_mmap: its size in
// bits, its number of 64-bit words, the words, the position of the last
// run-length word; all big-endian) and returns the positions of its set
// bits in increasing order (ewah_each_bit) and the bytes it took. Each
// run-length word holds a bit for its run in bit 0, the run's length in
// words in bits 1 to 32 and the number of literal words after it in bits
// 33 to 63; a literal word's bit i is position 64 times its index plus i.
// A bitmap naming a position of maxBitmapBits or more is an error.
func ewahBits(b []byte) ([]uint64, int, error) {
	if len(b) < 8 {
		return nil, 0, errors.New("an index bitmap is truncated")
	}
	words := uint64(binary.BigEndian.Uint32(b[4:8]))
	end := 8 + words*8 + 4
	if end > uint64(len(b)) {
		return nil, 0, errors.New("an index bitmap is truncated")
	}
	w := func(i uint64) uint64 { return binary.BigEndian.Uint64(b[8+i*8:]) }
	tooMany := errors.New("an index bitmap names more entries than an index holds")
	var bits []uint64
	pos := uint64(0)
	for i := uint64(0); i < words; {
		rlw := w(i)
		i++
		run := ((rlw >> 1) & 0xffffffff) * 64
		if rlw&1 != 0 {
			if pos+run > maxBitmapBits {
				return nil, 0, tooMany
			}
			for k := uint64(0); k < run; k++ {
				bits = append(bits, pos+k)
			}
		}
		pos += run
		for lit := rlw >> 33; lit > 0; lit-- {
			if i >= words {
				// git reads past the words it was given: not understood.
				return nil, 0, errors.New("an index bitmap is truncated")
			}
			word := w(i)
			i++
			for c := uint64(0); c < 64; c++ {
				if word&(1<<c) != 0 {
					if pos+c >= maxBitmapBits {
						return nil, 0, tooMany
					}
					bits = append(bits, pos+c)
				}
			}
			pos += 64
		}
		if pos > maxBitmapBits*2 {
			return nil, 0, tooMany
		}
	}
	return bits, int(end), nil
}

// IndexGitlinks returns the paths (slash-separated, relative to the top of
// the work tree) of the gitlinks in the index of the git directory gitDir:
// the submodules git status enters. hashLen is the object format's hash
// length. A split index is read with its shared index. A missing index
// holds none; one that cannot be read or is not understood is an error.
func IndexGitlinks(gitDir string, hashLen int) ([]string, error) {
	entries, err := readIndexUntrusted(gitDir, hashLen)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Gitlink() {
			out = append(out, e.Path)
		}
	}
	return out, nil
}

// readIndexUntrusted reads the index of gitDir (see readIndex) from files
// a confined command could have planted (see ReadUntrusted).
func readIndexUntrusted(gitDir string, hashLen int) ([]IndexEntry, error) {
	return readIndex(gitDir, hashLen, func(path string) ([]byte, bool, error) {
		b, err := ReadUntrusted(path, maxIndexSize)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return b, err == nil, err
	})
}

// offsetVarint decodes git's offset varint (the prefix length of a
// version 4 index path, a pack's delta base offset): seven bits a byte,
// high bit set on all but the last, each continuation adding one. It
// returns the value and the bytes used, or n <= 0 when b ends first or the
// value overflows.
func offsetVarint(b []byte) (v uint64, n int) {
	for n < len(b) {
		c := b[n]
		n++
		if n > 1 {
			if v > (1<<56)-2 {
				return 0, -1
			}
			v = (v + 1) << 7
		}
		v |= uint64(c & 0x7f)
		if c&0x80 == 0 {
			return v, n
		}
	}
	return 0, 0
}
