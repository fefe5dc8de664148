package repotrust

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// Reading single objects by name, to learn what HEAD's tree holds at the
// protected paths (git diff --cached prints a protected file only where
// the index and HEAD differ on it).

// objectReader reads objects of one store, loose or packed.
type objectReader struct {
	objects string
	hashLen int
	budget  storeBudget
	packs   []*pack
	opened  bool
}

func (r *objectReader) close() {
	for _, p := range r.packs {
		p.f.Close()
	}
}

var errNoObject = errors.New("an object is not in the store")

// read returns an object's type name and body.
func (r *objectReader) read(id []byte) (string, []byte, error) {
	if len(id) != r.hashLen {
		return "", nil, errNoObject
	}
	h := hex.EncodeToString(id)
	if typ, body, err := r.loose(filepath.Join(r.objects, h[:2], h[2:])); err == nil {
		return typ, body, nil
	} else if !os.IsNotExist(err) {
		return "", nil, err
	}
	if err := r.openPacks(); err != nil {
		return "", nil, err
	}
	for _, p := range r.packs {
		off, ok := p.find(id)
		if !ok {
			continue
		}
		typ, err := p.typeAt(off, 0)
		if err != nil {
			return "", nil, err
		}
		body, err := p.bodyAt(off, 0)
		if err != nil {
			return "", nil, err
		}
		switch typ {
		case 1:
			return "commit", body, nil
		case 2:
			return "tree", body, nil
		case 3:
			return "blob", body, nil
		case 4:
			return "tag", body, nil
		}
		return "", nil, errors.New("an object type is not understood")
	}
	return "", nil, errNoObject
}

// loose reads a loose object; a missing one is an os.IsNotExist error.
func (r *objectReader) loose(p string) (string, []byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	z, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return "", nil, errors.New("a loose object cannot be inflated")
	}
	defer z.Close()
	br := bufio.NewReader(z)
	hdr, err := br.ReadString(0)
	if err != nil || len(hdr) > 32 {
		return "", nil, errors.New("a loose object has no header")
	}
	typ, sizeText, _ := strings.Cut(strings.TrimSuffix(hdr, "\x00"), " ")
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || size < 0 || size > maxStoreTreeBytes {
		return "", nil, errors.New("a loose object has a bad size")
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(br, body); err != nil {
		return "", nil, errors.New("a loose object is truncated")
	}
	return typ, body, nil
}

func (r *objectReader) openPacks() error {
	if r.opened {
		return nil
	}
	r.opened = true
	ents, err := os.ReadDir(filepath.Join(r.objects, "pack"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".pack") {
			continue
		}
		base := filepath.Join(r.objects, "pack", strings.TrimSuffix(e.Name(), ".pack"))
		idx, err := os.ReadFile(base + ".idx")
		if err != nil {
			return errors.New(e.Name() + ": its index cannot be read")
		}
		f, err := os.Open(base + ".pack")
		if err != nil {
			return err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return err
		}
		p := &pack{f: f, size: fi.Size(), hashLen: r.hashLen, types: map[int64]int{}, bodies: map[int64][]byte{}, budget: &r.budget}
		r.packs = append(r.packs, p)
		if err := p.readIndex(idx); err != nil {
			return errors.New(e.Name() + ": " + err.Error())
		}
	}
	return nil
}

// HeadFiles returns the object names of the files in HEAD's tree whose
// paths (slash-separated, from the top) match reports, or an error when
// they cannot be learnt (a HEAD, ref, commit or tree not understood, a ref
// store git may keep elsewhere). An unborn HEAD holds no file.
func HeadFiles(f *Facts, match func(path string) bool) (map[string][]byte, error) {
	out := map[string][]byte{}
	if !f.Found || f.GitDir == "" {
		return out, nil
	}
	id, unborn, err := resolveHead(f.GitDir, f.Common, f.HashLen)
	if err != nil || unborn {
		return out, err
	}
	r := &objectReader{objects: filepath.Join(f.Common, "objects"), hashLen: f.HashLen}
	defer r.close()
	typ, body, err := r.read(id)
	if err != nil {
		return nil, err
	}
	if typ != "commit" {
		return nil, errors.New("HEAD does not name a commit")
	}
	line, _, _ := bytes.Cut(body, []byte("\n"))
	treeHex, ok := bytes.CutPrefix(line, []byte("tree "))
	tree, err := hex.DecodeString(string(treeHex))
	if !ok || err != nil || len(tree) != f.HashLen {
		return nil, errors.New("HEAD's commit names no tree")
	}
	n := 0
	var walk func(id []byte, prefix string, depth int) error
	walk = func(id []byte, prefix string, depth int) error {
		if depth > 256 {
			return errors.New("HEAD's tree is deeper than is read")
		}
		typ, body, err := r.read(id)
		if err != nil {
			return err
		}
		if typ != "tree" {
			return errors.New("HEAD's tree names a " + typ + " as a tree")
		}
		for len(body) > 0 {
			sp := bytes.IndexByte(body, ' ')
			if sp < 0 {
				return errors.New("a tree is not understood")
			}
			mode := string(body[:sp])
			rest := body[sp+1:]
			nul := bytes.IndexByte(rest, 0)
			if nul < 0 || len(rest) < nul+1+f.HashLen {
				return errors.New("a tree is not understood")
			}
			name := string(rest[:nul])
			oid := rest[nul+1 : nul+1+f.HashLen]
			body = rest[nul+1+f.HashLen:]
			if n++; n > maxStoreObjects {
				return errStoreTooLarge
			}
			p := path.Join(prefix, name)
			switch mode {
			case "40000":
				if err := walk(oid, p, depth+1); err != nil {
					return err
				}
			case "160000": // a submodule's commit: not in this store
			default:
				if match(p) {
					out[p] = append([]byte(nil), oid...)
				}
			}
		}
		return nil
	}
	if err := walk(tree, "", 0); err != nil {
		return nil, err
	}
	return out, nil
}

// resolveHead returns the object name HEAD points at: a detached HEAD's
// own, or its branch's, from the loose ref file or packed-refs. A branch
// that does not exist yet is unborn.
func resolveHead(gitDir, common string, hashLen int) (id []byte, unborn bool, err error) {
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return nil, false, errors.New("HEAD cannot be read")
	}
	s := strings.TrimRight(string(b), "\n")
	for depth := 0; depth < 5; depth++ {
		ref, symbolic := strings.CutPrefix(s, "ref: ")
		if !symbolic {
			id, err := hex.DecodeString(s)
			if err != nil || len(id) != hashLen {
				return nil, false, errors.New("HEAD is not understood")
			}
			return id, false, nil
		}
		if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
			return nil, false, errors.New("HEAD names a ref not understood")
		}
		if rb, err := os.ReadFile(filepath.Join(common, ref)); err == nil {
			s = strings.TrimRight(string(rb), "\n")
			continue
		} else if !os.IsNotExist(err) {
			return nil, false, errors.New(ref + " cannot be read")
		}
		packed, err := os.ReadFile(filepath.Join(common, "packed-refs"))
		if err != nil && !os.IsNotExist(err) {
			return nil, false, errors.New("packed-refs cannot be read")
		}
		for _, l := range strings.Split(string(packed), "\n") {
			if h, name, ok := strings.Cut(l, " "); ok && name == ref {
				id, err := hex.DecodeString(h)
				if err != nil || len(id) != hashLen {
					return nil, false, errors.New("packed-refs is not understood")
				}
				return id, false, nil
			}
		}
		if _, err := os.Stat(filepath.Join(common, "reftable")); err == nil {
			return nil, false, errors.New("the refs are kept in a reftable, which is not read here")
		}
		return nil, true, nil
	}
	return nil, false, errors.New("HEAD's symbolic refs nest too deep")
}
