package repotrust

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"hash"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// What a repository can make git print as file contents, for the caller
// to hold against its protected paths: the index's paths (Facts.Index:
// git diff, git diff --cached, git grep --cached print tracked and staged
// files) and the entry names of every tree in the object store
// (StoreNames: git log -p, git show, git diff REV, git cat-file print
// anything in history, reachable or not).
//
// "In history" is learnt from names only, which is cheap and sound: a
// protected path that was ever committed, or written as a tree (a stash),
// left a tree entry with its name, and a pattern is matched against every
// entry name of every tree, a superset of the paths it could match. A
// blob that no tree names (staged, then unstaged before any commit) is
// not found: its content is printed only by a command that names the
// object, which the caller decides on its own.

// storeEntry is the cached reading of one object store.
type storeEntry struct {
	names  map[string]struct{}
	err    error
	stamps []stamp
}

// storeCache caches StoreNames per objects directory, and the names of
// each pack by the stamps of its index and pack files (so that a new
// loose object does not make every pack be read again).
type storeCache struct {
	mu      sync.Mutex
	entries map[string]*storeEntry
	packs   map[[2]stamp][]string
}

// maxPackEntries bounds the packs remembered; when full it starts over.
const maxPackEntries = 1024

func (s *storeCache) lookup(idx, pack stamp) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names, ok := s.packs[[2]stamp{idx, pack}]
	return names, ok
}

func (s *storeCache) keep(idx, pack stamp, names []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.packs == nil || len(s.packs) >= maxPackEntries {
		s.packs = map[[2]stamp][]string{}
	}
	s.packs[[2]stamp{idx, pack}] = names
}

// StoreNames returns the entry names of every tree in the object store of
// the repository f describes (from the cache while no loose-object
// directory, pack or pack index changed), or an error saying why they are
// not known: a store too large to read, a pack or object not understood.
// The caller must take an error as "a protected name may be there". The
// map must not be changed.
func (c *Cache) StoreNames(f *Facts) (map[string]struct{}, error) {
	if !f.Found || f.Common == "" {
		return map[string]struct{}{}, nil
	}
	key := filepath.Join(f.Common, "objects")
	c.stores.mu.Lock()
	e := c.stores.entries[key]
	c.stores.mu.Unlock()
	if e != nil && !stampsChanged(e.stamps) {
		return e.names, e.err
	}
	var ss stamps
	hashLen := f.HashLen
	if hashLen == 0 {
		hashLen = 20
	}
	names, err := storeNames(key, hashLen, &ss, &c.stores)
	e = &storeEntry{names: names, err: err, stamps: ss.list}
	if now := c.clock(); !ss.racy(now) {
		c.stores.mu.Lock()
		if c.stores.entries == nil || len(c.stores.entries) >= maxEntries {
			c.stores.entries = map[string]*storeEntry{}
		}
		c.stores.entries[key] = e
		c.stores.mu.Unlock()
	}
	return names, err
}

func stampsChanged(list []stamp) bool {
	for i := range list {
		if list[i].changed() {
			return true
		}
	}
	return false
}

// maxCompared bounds the size of a work-tree file hashed to be compared
// with the index.
const maxCompared = 1 << 20

// UnchangedInWorkTree reports whether git diff (the index against the work
// tree) prints nothing of the entry: a regular file whose bytes hash to
// the staged object name, at stage 0. Since git compares what its
// conversions make of the file, the bytes must leave them nothing to do:
// no CR (end-of-line conversion), no "$Id" (the ident attribute), and no
// attributes file on the way (the .gitattributes of the work tree's top
// and of each directory down to the file, info/attributes, the user's
// git/attributes) may name a filter, ident or a working-tree encoding. Anything else is "may
// change".
func (f *Facts) UnchangedInWorkTree(e IndexEntry) bool {
	if e.Stage != 0 || e.Mode&0o170000 != 0o100000 || f.WorkTree == "" {
		return false
	}
	p := filepath.Join(f.WorkTree, filepath.FromSlash(e.Path))
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCompared {
		return false
	}
	b, err := os.ReadFile(p)
	if err != nil || int64(len(b)) != fi.Size() || bytes.IndexByte(b, '\r') >= 0 || bytes.Contains(b, []byte("$Id")) {
		return false
	}
	var h hash.Hash = sha1.New()
	if f.HashLen == 32 {
		h = sha256.New()
	}
	h.Write([]byte("blob " + strconv.Itoa(len(b)) + "\x00"))
	h.Write(b)
	if !bytes.Equal(h.Sum(nil), e.ID) {
		return false
	}
	attrs := []string{filepath.Join(f.Common, "info", "attributes")}
	// The user's attributes file, which git reads too.
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		attrs = append(attrs, filepath.Join(x, "git", "attributes"))
	} else if h := os.Getenv("HOME"); h != "" {
		attrs = append(attrs, filepath.Join(h, ".config", "git", "attributes"))
	}
	dir := f.WorkTree
	attrs = append(attrs, filepath.Join(dir, ".gitattributes"))
	for _, el := range strings.Split(path.Dir(e.Path), "/") {
		if el == "." {
			break
		}
		dir = filepath.Join(dir, el)
		attrs = append(attrs, filepath.Join(dir, ".gitattributes"))
	}
	for _, a := range attrs {
		b, err := os.ReadFile(a)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil || bytes.Contains(b, []byte("filter")) || bytes.Contains(b, []byte("ident")) || bytes.Contains(b, []byte("encoding")) {
			return false
		}
	}
	return true
}
