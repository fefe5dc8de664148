package repotrust

import (
	"encoding/binary"
	"testing"
)

// FuzzParseIndex: the index reader never panics, and every entry it
// returns has a path.
func FuzzParseIndex(f *testing.F) {
	entry := func(name string, mode uint32, flags uint16) []byte {
		e := make([]byte, 62)
		binary.BigEndian.PutUint32(e[24:], mode)
		binary.BigEndian.PutUint16(e[60:], flags|uint16(len(name)))
		e = append(e, name...)
		for n := len(e); n%8 != 0 || n == len(e); n++ {
			e = append(e, 0)
			if len(e)%8 == 0 {
				break
			}
		}
		return e
	}
	hdr := func(v, n uint32) []byte {
		b := []byte("DIRC\x00\x00\x00\x00\x00\x00\x00\x00")
		binary.BigEndian.PutUint32(b[4:], v)
		binary.BigEndian.PutUint32(b[8:], n)
		return b
	}
	v2 := append(hdr(2, 2), entry(".env", 0o100644, 0)...)
	v2 = append(v2, entry("m", 0o160000, 0)...)
	f.Add(append(v2, make([]byte, 20)...))
	f.Add(append(append(hdr(2, 1), entry("a", 0o040000, 0)...), "sdir\x00\x00\x00\x00"...))
	f.Add(append(hdr(4, 2), make([]byte, 62)...))
	f.Add(append(append(hdr(3, 1), entry("x", 0o100644, 0x4000)...), 0, 0))
	f.Add(append(append(hdr(2, 1), entry("a", 0o100644, 0)...), "link\x00\x00\x00\x14"...))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, h := range []int{20, 32} {
			entries, err := parseIndex(b, h)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if e.Path == "" {
					t.Fatalf("an entry without a path")
				}
			}
		}
	})
}

// FuzzApplyDelta: applying a delta never panics and yields exactly the
// size the delta declares.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello world"), []byte{11, 5, 0x91, 0, 5})
	f.Add([]byte("abc"), []byte{3, 4, 0x90, 3, 1, 'd'})
	f.Add([]byte(""), []byte{0, 2, 2, 'h', 'i'})
	f.Add([]byte("x"), []byte{1, 1, 0})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta)
		if err != nil {
			return
		}
		_ = out
	})
}

// FuzzTreeNames: the tree reader never panics, and only adds names.
func FuzzTreeNames(f *testing.F) {
	f.Add([]byte("100644 .env\x00aaaaaaaaaaaaaaaaaaaa40000 d\x00bbbbbbbbbbbbbbbbbbbb"))
	f.Add([]byte("100644 x"))
	f.Fuzz(func(t *testing.T, b []byte) {
		names := map[string]struct{}{}
		_ = treeNames(b, 20, names)
		for n := range names {
			if len(n) > len(b) {
				t.Fatalf("a name longer than the tree: %q", n)
			}
		}
	})
}

// FuzzReadIndex: reading a split index with its shared index never
// panics, and every entry it returns has a path.
func FuzzReadIndex(f *testing.F) {
	hdr := func(v, n uint32) []byte {
		b := []byte("DIRC\x00\x00\x00\x00\x00\x00\x00\x00")
		binary.BigEndian.PutUint32(b[4:], v)
		binary.BigEndian.PutUint32(b[8:], n)
		return b
	}
	entry := func(name string, mode uint32) []byte {
		e := make([]byte, 62)
		binary.BigEndian.PutUint32(e[24:], mode)
		binary.BigEndian.PutUint16(e[60:], uint16(len(name)))
		e = append(e, name...)
		return append(e, make([]byte, 8-len(e)%8)...)
	}
	bitmap := func(words ...uint64) []byte {
		b := binary.BigEndian.AppendUint32(nil, 64)
		b = binary.BigEndian.AppendUint32(b, uint32(len(words)))
		for _, w := range words {
			b = binary.BigEndian.AppendUint64(b, w)
		}
		return binary.BigEndian.AppendUint32(b, 0)
	}
	link := append(make([]byte, 20), 1)
	link = append(append(link, bitmap(0)...), bitmap(1<<33, 1)...)
	split := append(hdr(2, 1), entry("", 0o160000)...)
	split = append(split, "link"...)
	split = binary.BigEndian.AppendUint32(split, uint32(len(link)))
	split = append(append(split, link...), make([]byte, 20)...)
	shared := append(append(hdr(2, 1), entry("a/b/c/d/evil", 0o100644)...), make([]byte, 20)...)
	f.Add(split, shared)
	f.Add(append(append(hdr(2, 1), entry("x", 0o160000)...), make([]byte, 20)...), shared)
	f.Add(split, split)
	f.Fuzz(func(t *testing.T, index, sharedIndex []byte) {
		entries, err := readIndex("/g", 20, func(path string) ([]byte, bool, error) {
			if path == "/g/index" {
				return index, true, nil
			}
			return sharedIndex, true, nil
		})
		if err != nil {
			return
		}
		for _, e := range entries {
			if e.Path == "" {
				t.Fatalf("an entry without a path")
			}
		}
	})
}

// FuzzEwahBits: decoding a bitmap never panics, takes no more bytes than
// it has, and names positions in increasing order below the bound.
func FuzzEwahBits(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x03\x00\x00\x00\x02\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00"))
	f.Add([]byte("\x00\x00\x00\x00\x00\x00\x00\x01\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		bits, n, err := ewahBits(b)
		if err != nil {
			return
		}
		if n > len(b) {
			t.Fatalf("took %d bytes of %d", n, len(b))
		}
		for i, p := range bits {
			if p >= maxBitmapBits || i > 0 && p <= bits[i-1] {
				t.Fatalf("position %d out of order or bound", p)
			}
		}
	})
}
