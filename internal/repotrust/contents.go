package repotrust

import (
	"path/filepath"
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
