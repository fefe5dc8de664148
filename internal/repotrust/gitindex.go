package repotrust

import (
	"bytes"
	"encoding/binary"
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

// parseIndex reads the entries of a git index file (versions 2, 3 and 4),
// as git's read_index does: a "DIRC" header, fixed-size entries with a
// NUL-terminated (version 4: prefix-compressed) path, padding to eight
// bytes before version 4. hashLen is the object format's hash length (20
// for SHA-1, 32 for SHA-256). An index that needs another file to be
// complete (a split index's "link" extension) or that holds sparse
// directory entries (whose files are not listed) is not understood: git
// reads paths from it that the entries do not show.
func parseIndex(b []byte, hashLen int) ([]IndexEntry, error) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, errors.New("not a git index (no DIRC header)")
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, errors.New("index version " + strconv.FormatUint(uint64(version), 10) + " is not understood")
	}
	count := binary.BigEndian.Uint32(b[8:12])
	if count > maxIndexEntries {
		return nil, errors.New("the index holds more entries than are checked")
	}
	fixed := 40 + hashLen + 2 // times, ids, sizes; the object name; flags
	entries := make([]IndexEntry, 0, count)
	off := 12
	prev := ""
	for i := uint32(0); i < count; i++ {
		if off+fixed > len(b) {
			return nil, errors.New("the index is truncated")
		}
		e := b[off:]
		mode := binary.BigEndian.Uint32(e[24:28])
		flags := binary.BigEndian.Uint16(e[40+hashLen:])
		head := fixed
		if flags&0x4000 != 0 { // extended flags, version 3 and later
			if version < 3 {
				return nil, errors.New("an extended entry in a version 2 index")
			}
			head += 2
			if off+head > len(b) {
				return nil, errors.New("the index is truncated")
			}
		}
		var name string
		if version == 4 {
			strip, n := offsetVarint(e[head:])
			if n <= 0 || strip > uint64(len(prev)) {
				return nil, errors.New("a path's prefix length is not understood")
			}
			rest := e[head+n:]
			end := bytes.IndexByte(rest, 0)
			if end < 0 {
				return nil, errors.New("the index is truncated")
			}
			name = prev[:len(prev)-int(strip)] + string(rest[:end])
			off += head + n + end + 1
		} else {
			rest := e[head:]
			end := bytes.IndexByte(rest, 0)
			if end < 0 {
				return nil, errors.New("the index is truncated")
			}
			name = string(rest[:end])
			// The entry, its path and at least one NUL, padded to eight.
			off += (head + end + 8) &^ 7
		}
		if name == "" {
			return nil, errors.New("an entry without a path")
		}
		if mode&0o170000 == 0o040000 {
			return nil, errors.New("a sparse index (directory entries hide the paths under them)")
		}
		entries = append(entries, IndexEntry{Path: name, Mode: mode, Stage: uint8(flags >> 12 & 3), ID: append([]byte(nil), e[40:40+hashLen]...)})
		prev = name
	}
	// Extensions: a four-byte signature and a length each, then the
	// trailing hash.
	for off+8 <= len(b)-hashLen {
		sig := string(b[off : off+4])
		size := int(binary.BigEndian.Uint32(b[off+4 : off+8]))
		switch sig {
		case "link":
			return nil, errors.New("a split index (the rest of its entries are in a shared index file)")
		case "sdir":
			return nil, errors.New("a sparse index (directory entries hide the paths under them)")
		}
		if size < 0 || off+8+size > len(b) {
			return nil, errors.New("an index extension is truncated")
		}
		off += 8 + size
	}
	return entries, nil
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

// IndexGitlinks returns the paths (slash-separated, relative to the top of
// the work tree) of the gitlinks in the index of the git directory gitDir:
// the submodules git status enters. hashLen is the object format's hash
// length. A missing index holds none; one that cannot be read or is not
// understood is an error.
func IndexGitlinks(gitDir string, hashLen int) ([]string, error) {
	b, err := ReadUntrusted(filepath.Join(gitDir, "index"), maxIndexSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries, err := parseIndex(b, hashLen)
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
