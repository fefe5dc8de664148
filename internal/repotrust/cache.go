package repotrust

import (
	"sync"
	"time"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// RacyWindow: facts gathered from a file whose change time is this close
// to the moment they were gathered are not kept. File times come from the
// kernel's coarse clock (one tick, at most 10 ms, behind), so a second
// change within the same tick could leave every stamp as it was; past two
// ticks any change shows. A file system whose times have no sub-second
// part (the change time a whole second) gets CoarseRacyWindow instead.
const (
	RacyWindow       = 50 * time.Millisecond
	CoarseRacyWindow = 2 * time.Second
)

// maxEntries bounds the cache; when full it starts over.
const maxEntries = 256

// Cache keeps the facts of the repositories seen, one entry per working
// directory, sandbox and git environment. An entry is used again only
// while every path it consulted has the same stamp (device, inode, mode,
// size, modification and change time), a missing path still missing.
// Safe for concurrent use; the zero value is ready.
type Cache struct {
	mu      sync.RWMutex
	entries map[cacheKey]*cacheEntry
	now     func() time.Time
	stores  storeCache // the tree names of each object store
}

// clock returns the time the cache's clock tells.
func (c *Cache) clock() time.Time {
	c.mu.RLock()
	now := c.now
	c.mu.RUnlock()
	if now == nil {
		return time.Now()
	}
	return now()
}

type cacheKey struct {
	cwd, sandbox string
	env          envSnapshot
}

type cacheEntry struct {
	facts  *Facts
	stamps []stamp
}

// SetClock replaces time.Now for deciding whether a file changed too
// recently for its facts to be kept (tests move the clock forward).
func (c *Cache) SetClock(now func() time.Time) {
	c.mu.Lock()
	c.now = now
	c.mu.Unlock()
}

// Site is where a git command runs: its working directory and the
// sandbox (both absolute and clean), and the environment git runs with
// (nil for none).
type Site struct {
	Cwd, Sandbox string
	Env          Env
}

// Facts returns the facts of the repository git finds from site, from
// the cache when nothing it consulted changed. fresh reports whether they
// were gathered now.
func (c *Cache) Facts(site Site) (f *Facts, fresh bool) {
	key := cacheKey{cwd: site.Cwd, sandbox: site.Sandbox, env: snapshot(site.Env)}
	c.mu.RLock()
	e := c.entries[key]
	now := c.now
	c.mu.RUnlock()
	if e != nil && !e.changed() {
		return e.facts, false
	}
	if now == nil {
		now = time.Now
	}
	start := now()
	var ss stamps
	f = gatherAt(site, key.env, &ss)
	if ss.racy(start) {
		return f, true
	}
	c.mu.Lock()
	if c.entries == nil || len(c.entries) >= maxEntries {
		c.entries = map[cacheKey]*cacheEntry{}
	}
	c.entries[key] = &cacheEntry{facts: f, stamps: ss.list}
	c.mu.Unlock()
	return f, true
}

func gatherAt(site Site, env envSnapshot, ss *stamps) *Facts {
	root, err := pathres.NewRoot(site.Sandbox)
	if err != nil {
		return &Facts{Found: true, Problems: []Problem{{Where: site.Sandbox, Why: "the sandbox cannot be resolved: " + err.Error()}}}
	}
	return gather(site.Cwd, root, env, ss)
}

func (e *cacheEntry) changed() bool {
	for i := range e.stamps {
		if e.stamps[i].changed() {
			return true
		}
	}
	return false
}
