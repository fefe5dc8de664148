package sandboxauth

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/classify"
	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// ProtectConfinement returns p with the protected paths ps of its sandbox
// kept from the confined command, the same list the tools obey:
//
//   - a write-protected path becomes read-only (confine.Policy.ReadOnly):
//     every existing match in the sandbox, and, for a pattern without
//     wildcards, its path at the top of the sandbox even if it does not
//     exist yet, so that the command cannot create it;
//   - a read-protected path that exists is hidden (confine.Policy.Hidden).
//
// A repository's directory (.git, at the top or below, and the git
// directory a .git file names, for worktrees and submodules) is not made
// read-only whole, which would stop git add and git commit: its files that
// make git run programs or read other repositories are (config,
// config.worktree, hooks, the hooks directory core.hooksPath names,
// commondir, modules, worktrees, objects/info/alternates).
//
// A directory that git takes for a git directory by its contents (HEAD,
// and objects and refs or a commondir file: a bare repository) is kept
// like a nested repository. Below the top, a repository's missing files
// get no placeholder (each would be a mount); they are watched, and the
// quarantine (see quarantineNew) moves them aside if they appear. git's
// state of an operation stopped half-way (rebase-merge, rebase-apply,
// sequencer) is digested before the run and moved aside after it when
// it changed: a confined command can work in a stopped rebase, but the
// user's next `git rebase --continue` never runs steps it wrote.
//
// What the user's own git configuration (~/.gitconfig and the others
// git reads in every repository) makes git read or run from the sandbox
// is read-only too: the files it includes, its hooks and template
// directories (see globalGitConfig).
//
// Confined runs of one sandbox may overlap (a dev server in the
// background, the tests beside it). The runs that overlap share one
// baseline, taken by the first while no other was active, and each run
// that ends quarantines the sandbox against it, so that no run takes
// another's work for the user's (see confinegroup.go). A policy made by
// ProtectConfinement belongs to its sandbox's group from then until its
// AfterExit has run: run it.
//
// The quarantine (see quarantineNew) runs once the command has ended:
// while it runs, what it has made is in place, and the user's git run
// meanwhile (an editor's, a shell prompt's) obeys a repository the command
// made and recorded as a submodule, its core.fsmonitor included. This is
// not prevented (the index must stay writable for git add); see "What is
// not enforced" in package confine.
//
// Matches below the top are found by a walk of every directory of the
// sandbox down to three levels, that skips dependency and build
// directories (node_modules, vendor, target, ...): it runs before every
// command; a pattern with a wildcard and a slash is followed from the top
// however deep it goes (.vagrant/machines/*/*/private_key). Git directories deeper than that (a repository, or a
// directory turned into a git directory, anywhere) are found after the
// run by a scan of every directory, which moves aside what git would obey
// in them (configuration, hooks, redirections, legacy remotes) when it
// changed while the command ran (see confinedeep.go): git started in such
// a directory by the user's terminal or editor obeys it. The same scan
// digests the matches of write-protected patterns at every depth (outside
// git directories and the directories the walk skips) and moves aside
// those that are new or changed after the run: cargo, rustup, npm, mise
// and editors read them in whatever directory they run in. Patterns that match at any depth still protect, through
// the tools, what the walk does not reach. p.Sandbox must
// be set. The lists of p are copied, not changed.
func ProtectConfinement(p confine.Policy, ps []ProtectedPath) (confine.Policy, error) {
	rules, err := compileProtected(ps)
	if err != nil {
		return p, err
	}
	return protectConfinement(p, rules), nil
}

// protectConfinement is ProtectConfinement for compiled rules.
func protectConfinement(p confine.Policy, rules []classify.Protected) confine.Policy {
	p.ReadOnly = slices.Clone(p.ReadOnly)
	p.Hidden = slices.Clone(p.Hidden)
	placeholders := make(map[string]string, len(p.Placeholders)+2)
	for k, v := range p.Placeholders {
		placeholders[k] = v
	}
	p.Placeholders = placeholders
	p.Shown = maps.Clone(p.Shown)
	p.ReadOnlyReasons = maps.Clone(p.ReadOnlyReasons)
	if p.Sandbox == "" || len(rules) == 0 {
		return p
	}
	sandbox, err := pathres.Resolve(filepath.Clean(p.Sandbox))
	if err != nil {
		return p
	}
	// A sandbox inside a protected directory of a project that holds it
	// (repo/.git/hooks, ~/.claude, a .vscode) would let the command write
	// what the patterns protect: confinement refuses a sandbox inside a
	// read-only path.
	p.ReadOnly = append(p.ReadOnly, protectedAncestors(sandbox, rules)...)
	// The run joins its sandbox's group of runs (see confinegroup.go)
	// before it looks at the sandbox, so that no other run joins or
	// leaves (and judges) while it does.
	// A sandbox confinement refuses joins no group: no run starts, and
	// none may wait for this one; nor does one without a record directory.
	var group *runGroup
	if confine.CheckSandbox(p) == nil {
		if group, err = enterRunGroup(p, sandbox); err != nil {
			group = nil
		}
	}
	var base *beforeRun // the group's baseline, when the run joins one
	for group != nil {
		if other := group.overlapping(); other != "" {
			// Runs of a sandbox that holds this one or lies in it.
			if group.waitFor(other) != nil {
				group = nil
			}
			continue
		}
		if group.alone() {
			break
		}
		if base, err = group.load(); err == nil {
			break
		}
		// Joined runs whose baseline cannot be read: wait for them.
		if group.waitAlone() != nil {
			group = nil
		}
	}
	if group != nil && base == nil {
		// A group that ended without its last judging.
		if left, err := group.load(); err == nil {
			left.attachRecords(p)
			quarantineNew(sandbox, rules, left, &p, false)
			group.removeBaseline()
		}
	}
	// File systems stamp change times from a coarse clock, which may lag
	// behind this one by a tick (4 to 10 ms); a command starts well after
	// this (bubblewrap alone takes milliseconds), so what it changes is
	// stamped after since. What the user changed in the 100 ms before
	// counts as the command's (and may be moved aside).
	since := time.Now().Add(-100 * time.Millisecond).UnixNano()
	c := newConfinePaths(sandbox, rules, &p)
	c.top()
	c.enclosingWorkTree()
	c.walk()
	c.yarnNamedFiles()
	c.nestedGitlinks()
	if c.indexUnknown {
		c.deepRepositories()
		c.nestedGitlinks()
	}
	if c.gitWriteProtected() {
		c.globalGitConfig()
	}
	c.gitExcludePlaceholders()
	if group != nil && confine.CheckSandbox(p) != nil {
		// The policy as the walk made it is one confinement refuses (an
		// unreadable .yarnrc.yml at the top makes the sandbox read-only):
		// no command runs, so the run neither begins the group nor joins
		// it, or its baseline would stay behind and a later run would
		// judge the user's own changes against it.
		group.unlock()
		group = nil
	}
	was := base
	if was == nil {
		was = c.baseline(since)
		if group != nil && group.save(was) != nil {
			group.unlock() // judged alone, as if no other run could join
			group = nil
		}
	}
	if c.gitWriteProtected() {
		was.attachRecords(p)
	}
	if group != nil {
		if group.join() != nil {
			if base == nil {
				group.removeBaseline() // the group this run began
			}
			group.unlock()
			group = nil
		} else {
			group.unlock()
		}
	}
	prev, prevHeld := p.AfterExit, p.MountsHeld
	policy := p
	held := false // confinement's word on the run's mounts (see userSaved)
	p.MountsHeld = func(h bool) {
		if prevHeld != nil {
			prevHeld(h)
		}
		held = h
	}
	p.AfterExit = func() {
		if prev != nil {
			prev()
		}
		judge := func() { quarantineNew(sandbox, rules, was, &policy, held) }
		if group == nil {
			judge()
			return
		}
		group.leave(judge)
	}
	return p
}

// baseline returns what the quarantine needs to know of the sandbox from
// before a command runs, c having walked it.
func (c *confinePaths) baseline(since int64) *beforeRun {
	was := &beforeRun{ids: map[fileID]bool{}, gitDirs: map[fileID]bool{}, watch: c.watch, states: c.states, since: since, readOnly: slices.Clone(c.policy.ReadOnly)}
	if c.gitWriteProtected() {
		was.deep = c.scanDeep(scanBefore)
	}
	for _, path := range append(slices.Collect(maps.Keys(c.seen)), c.policy.ReadOnly...) {
		if id, ok := identify(path); ok {
			was.ids[id] = true
		}
	}
	for dir := range c.gitDirs {
		if id, ok := identify(dir); ok {
			was.gitDirs[id] = true
		}
	}
	for _, p := range pathShadows(c.sandbox) {
		if id, ok := identify(p); ok {
			was.ids[id] = true
		}
	}
	for _, r := range c.policy.ReadOnly {
		if base := filepath.Base(r); base != "config" && base != "config.worktree" {
			continue
		}
		id, ok := identify(r)
		if !ok {
			continue
		}
		if b, err := readGitConfig(r); err == nil {
			if was.configs == nil {
				was.configs = map[string]configState{}
			}
			was.configs[r] = configState{id: id, digest: repotrust.RiskySettingsDigest(b)}
		}
	}
	return was
}

// configState is what the quarantine knows of a read-only git
// configuration from before the run: its identity, and a digest of what
// in it git obeys (repotrust.RiskySettingsDigest).
type configState struct {
	id     fileID
	digest string
}

// beforeRun is what the quarantine knows of the sandbox from before the
// command ran.
type beforeRun struct {
	// ids are the identities of the protected matches, repositories' .git
	// and read-only paths that existed.
	ids map[fileID]bool
	// gitDirs are the identities of the directories that were git
	// directories by their contents (bare repositories).
	gitDirs map[fileID]bool
	// watch are files of known repositories' git directories that git
	// would obey and that were missing.
	watch []string
	// states are the digests of the sequencer state that existed.
	states map[string]string
	// deep is what the scan of every directory found (see
	// confinedeep.go), when git's files are write-protected.
	deep *deepScan
	// private are the private copies of the policy's Private places,
	// which outlive the run (see quarantinePrivate).
	private []string
	// ledger records what the quarantine moved aside in the sandbox (see
	// quarantineLedger).
	ledger *quarantineLedger
	// since is the time the quarantine's walk counts changes from.
	since int64
	// readOnly are the read-only paths of the run that took this
	// baseline (see quarantineNew).
	readOnly []string
	// configs are the read-only git configurations (config,
	// config.worktree) that existed (see quarantineNew).
	configs map[string]configState
}

// attachRecords gives b what it keeps of p's sandbox outside the
// baseline itself: the private copies and the ledger.
func (b *beforeRun) attachRecords(p confine.Policy) {
	b.private, _ = confine.PrivateCopies(p)
	b.ledger = openLedger(p)
}

// sequencerState are the directories of a git directory in which git
// keeps an operation stopped half-way (an interactive rebase, git am, a
// series of cherry-picks); the user's `git rebase --continue` runs their
// next steps, exec lines included.
var sequencerState = [...]string{"rebase-merge", "rebase-apply", "sequencer"}

// quarantineSuffix is added to the name of what a confined command left
// that would make programs run code later and no mount could stop.
const quarantineSuffix = ".sandboxauth-quarantine"

// quarantineNew moves aside what the command created where no mount could
// stop it, found by the same bounded walk as before it started: files and
// directories matching a write-protected pattern below the top or by
// wildcard, repositories below the top or behind the top index's gitlinks
// (whose configuration and hooks git would obey, a submodule's in the
// parent's git status included), directories turned into git directories
// (their HEAD), files that redirect git or hold its configuration in the
// git directories of the repositories known before (was.watch), and git's
// state of an operation stopped half-way that is new or changed. What was
// there before is known by its identity (device, inode, birth time), not
// its name, so that a concurrent run cannot pass off a new file under an
// old name; a placeholder at one of the policy's read-only paths is left
// alone. When the top index is not understood after the run, the search
// for repositories goes through the whole sandbox, depth and skipped
// directories included (see deepRepositories). Each is renamed to a new
// name ending in ".sandboxauth-quarantine" (".N" after it when taken),
// through descriptors opened beneath the sandbox with no symbolic link on
// the way. held is confinement's word that every mount of the run's view
// held to its end (confine.Policy.MountsHeld): what lies at or below a
// kept top path is then the user's (see userSaved), and stays.
func quarantineNew(sandbox string, rules []classify.Protected, was *beforeRun, p *confine.Policy, held bool) {
	after := newConfinePaths(sandbox, rules, &confine.Policy{Placeholders: map[string]string{}})
	after.since = was.since
	after.walk()
	var paths []string
	var asideIDs map[string]fileID // what to note in the ledger once moved aside
	if after.gitWriteProtected() {
		after.gitlinkRepositories()
		after.nestedGitlinks()
		if after.indexUnknown {
			after.deepRepositories()
			after.nestedGitlinks()
		}
		// What the policy kept read-only did not change by the command's
		// hand, whatever its change time says.
		var deep []string
		if was.deep != nil {
			now := after.scanDeep(scanAfter)
			// A git directory put to sleep now could be woken by a run
			// that began before this one ended.
			for _, id := range now.partial {
				was.ledger.add(id)
			}
			deep, asideIDs = deepQuarantine(was.deep, now, was.since, was.ledger.read())
			deep = append(deep, strayLinks(now, was.private, was.since)...)
			deep = append(deep, protectedChanged(was.deep, now)...)
		}
		// The sequencer state of the repositories known before is
		// judged by its digest (below), not by its change time. A path
		// is taken for unchanged by the command only when it was
		// read-only both to this run and to the run that took the
		// baseline: in a group, another run's command (in a view where
		// it is not a mount) can rename a file over this run's
		// read-only path, which unmounts it in this run's view.
		readOnly := p.ReadOnly
		if was.readOnly != nil {
			readOnly = slices.DeleteFunc(slices.Clone(p.ReadOnly), func(r string) bool { return !slices.Contains(was.readOnly, r) })
		}
		judged := append(readOnly, slices.Collect(maps.Keys(was.states))...)
		paths = slices.DeleteFunc(deep, func(q string) bool {
			return slices.ContainsFunc(judged, func(r string) bool { return pathres.Within(r, q) })
		})
	}
	// A read-only git configuration replaced while the command ran (a
	// rename over it outside, the user's git config, detaches its mount
	// in the command's view, and the command may write the new file before
	// its first process stops it): what git obeys in it must be as before.
	for path, st := range was.configs {
		id, ok := identify(path)
		if !ok || id == st.id {
			continue
		}
		if b, err := readGitConfig(path); err != nil || repotrust.RiskySettingsDigest(b) != st.digest {
			paths = append(paths, path)
		}
	}
	for path := range after.seen {
		if id, ok := identify(path); ok && !was.ids[id] {
			paths = append(paths, path)
		}
	}
	// A program put on PATH inside the sandbox under the name of one
	// found later on it (see confinepathdirs.go), new or changed.
	for _, path := range pathShadows(sandbox) {
		id, ok := identify(path)
		changed := ok && (!was.ids[id] || changeTime(path) >= was.since)
		// A link kept as it was may lead to a file of the project that
		// changed (node_modules/.bin/npm -> ../npm/bin/npm-cli.js).
		if real, err := pathres.Resolve(path); err == nil && real != path && pathres.Within(sandbox, real) && changeTime(real) >= was.since {
			changed = true
		}
		if changed {
			paths = append(paths, path)
		}
	}
	for dir := range after.gitDirs {
		if id, ok := identify(dir); ok && !was.gitDirs[id] {
			// Without a HEAD, git takes it for a directory again.
			paths = append(paths, filepath.Join(dir, "HEAD"))
		}
	}
	for _, path := range was.watch {
		if _, err := os.Lstat(path); err == nil {
			paths = append(paths, path)
		}
	}
	for path, digest := range was.states {
		if _, err := os.Lstat(path); err != nil {
			continue // finished or abandoned: nothing is left to run
		}
		if now, ok := stateDigest(path); !ok || now != digest {
			paths = append(paths, path)
		}
	}
	if held {
		saved := userSaved(sandbox, rules, p.ReadOnly, was.readOnly)
		paths = slices.DeleteFunc(paths, func(q string) bool {
			return slices.ContainsFunc(saved, func(r string) bool { return pathres.Within(r, q) })
		})
	}
	slices.Sort(paths) // a parent before what lies below it
	paths = slices.Compact(paths)
	var moved []string
	for _, path := range paths {
		if slices.ContainsFunc(moved, func(m string) bool { return strings.HasPrefix(path, m+"/") }) {
			continue
		}
		if isPlaceholder(path, p) {
			continue
		}
		if quarantine(sandbox, path) {
			moved = append(moved, path)
			if id, ok := asideIDs[path]; ok {
				was.ledger.add(id)
			}
		}
	}
	for _, dir := range was.private {
		quarantinePrivate(dir, rules)
	}
}

// userSaved returns the top paths of the sandbox whose content no command
// of the run's group could have made, when every mount of the run's view
// held to its end: the write-protected literal paths at the top (and the
// directories kept in their place, see topHoldOf) that were read-only
// both to this run (readOnly) and to the run that took the group's
// baseline (baseline; nil for a baseline that does not say). Every run of
// the same rules keeps them so, the walk's bounds notwithstanding (see
// top), and a placeholder among them is a mount point, which the command
// can neither write into, rename, link into nor replace. So a file the
// user saves into a missing .vscode/ or .claude/ while a command runs
// (an editor's workspace settings, an agent's permissions), or over the
// placeholder of a missing .npmrc in place, is the user's and stays where
// it was saved. A rename or removal outside detaches the mount, stops the
// command and makes the run's mounts not held: what is there may then be
// the command's, and is judged as any new path.
func userSaved(sandbox string, rules []classify.Protected, readOnly, baseline []string) []string {
	var out []string
	for i := range rules {
		r := &rules[i]
		rel, literal := topPath(r)
		if !r.Write || !literal || rel == ".git" || strings.HasPrefix(rel, ".git/") {
			continue
		}
		kept := filepath.Join(sandbox, filepath.FromSlash(rel))
		if _, dir := topHoldOf(rel); dir != "" {
			kept = filepath.Join(sandbox, filepath.FromSlash(dir))
		}
		if slices.Contains(readOnly, kept) && (baseline == nil || slices.Contains(baseline, kept)) {
			out = append(out, kept)
		}
	}
	return out
}

// quarantinePrivate moves aside, in the private copy dir (a cache that
// confined commands write and that outlives their runs), whatever git
// would take for a repository: a link the command leaves in the project
// would lead the user's git there, and no cache holds one.
func quarantinePrivate(dir string, rules []classify.Protected) {
	s := newConfinePaths(dir, rules, &confine.Policy{Placeholders: map[string]string{}}).scanDeep(scanPrivate)
	var paths []string
	for _, g := range s.gitDirs {
		if filepath.Base(g) == ".git" {
			paths = append(paths, g)
		} else {
			paths = append(paths, filepath.Join(g, "HEAD"))
		}
	}
	for _, ptr := range s.pointers {
		paths = append(paths, ptr.path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		quarantine(dir, path)
	}
}

// fileID is a file's identity: its device, inode and, where the file
// system records it, its birth time. The birth time tells a new file from
// an old one whose inode number it reuses (ext4 hands a freed inode out
// again at once): without it, a command could remove a file that was
// there before (one of another run's placeholders, say) and make a
// repository that the quarantine would take for that file.
type fileID struct {
	dev, ino uint64
	birth    birthTime
}

// birthTime is when a file was made, as the file system records it (zero
// where it does not).
type birthTime struct {
	sec  int64
	nsec uint32
}

// isPlaceholder reports whether path is one of p's read-only paths
// holding what confinement puts there while it does not exist: an empty
// directory, or a file with the placeholder's content.
func isPlaceholder(path string, p *confine.Policy) bool {
	if !slices.Contains(p.ReadOnly, path) {
		return false
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	if content, ok := p.Placeholders[path]; ok {
		b, err := readSmallFile(path)
		return err == nil && fi.Mode().IsRegular() && string(b) == content
	}
	if !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(path)
	return err == nil && len(entries) == 0
}

// readSmallFile reads a project file of at most 1 MiB as an untrusted
// one: the command could have planted a link to /dev/zero or a pipe.
func readSmallFile(path string) ([]byte, error) {
	return repotrust.ReadUntrusted(path, 1<<20)
}

// confinePaths gathers the confinement's paths for one sandbox.
type confinePaths struct {
	sandbox string
	rules   []classify.Protected
	policy  *confine.Policy
	seen    map[string]bool // the walk's write-protected matches and repositories' .git
	// gitDirs are the directories found to be git directories by their
	// contents (bare repositories, stubs naming a common directory).
	gitDirs map[string]bool
	// watch are files of the git directories of repositories below the
	// top that git would obey and that are missing: not kept by a mount
	// (a placeholder in each would cost a mount each), moved aside by the
	// quarantine if they appear.
	watch []string
	// states are the digests of git's sequencer state that exists.
	states map[string]string
	// indexUnknown says that the index of the top repository or of a
	// repository below it was not understood, so that its gitlinks are
	// not known.
	indexUnknown bool
	// repos are the work tree and git directory of each repository
	// found below the top; the first reposDone have had their gitlinks
	// followed (nestedGitlinks).
	repos     [][2]string
	reposDone int
	// since is, for the quarantine's walk, a time (in nanoseconds) a
	// little before the policy was made: directories changed after it are
	// not counted in the walk's bound (see changedSince).
	since int64
}

func newConfinePaths(sandbox string, rules []classify.Protected, p *confine.Policy) *confinePaths {
	return &confinePaths{sandbox: sandbox, rules: rules, policy: p, seen: map[string]bool{}, gitDirs: map[string]bool{}, states: map[string]string{}}
}

// gitWriteProtected reports whether the rules protect a repository's
// configuration from writes: then its dangerous files are kept read-only.
// protectedAncestors returns the directories that hold sandbox (itself
// included) and that a write-protected pattern matches, with any of the
// directories above them taken for the top of a project: the sandbox lies
// in a git directory, an editor's or an agent's settings directory.
func protectedAncestors(sandbox string, rules []classify.Protected) []string {
	parts := strings.Split(strings.TrimPrefix(sandbox, "/"), "/")
	var out []string
	for j := 1; j <= len(parts); j++ {
		lower := strings.ToLower(parts[j-1])
		for i := 0; i < j; i++ {
			rel := strings.Join(parts[i:j], "/")
			if slices.ContainsFunc(rules, func(r classify.Protected) bool {
				return r.Write && r.MatchesLastLower(lower) && r.Match(rel)
			}) {
				out = append(out, "/"+strings.Join(parts[:j], "/"))
				break
			}
		}
	}
	return out
}

// writeProtectedMatch reports whether a write-protected pattern matches
// the entry name, at rel in the sandbox.
func (c *confinePaths) writeProtectedMatch(name, rel string) bool {
	lower := strings.ToLower(name)
	for i := range c.rules {
		r := &c.rules[i]
		if r.Write && r.MatchesLastLower(lower) && r.Match(rel) {
			return true
		}
	}
	return false
}

func (c *confinePaths) gitWriteProtected() bool {
	for i := range c.rules {
		if c.rules[i].Write && c.rules[i].Match(".git/config") {
			return true
		}
	}
	return false
}

// top adds the literal patterns' paths at the top of the sandbox, existing
// or not, and the top repository's files.
func (c *confinePaths) top() {
	for i := range c.rules {
		r := &c.rules[i]
		rel, literal := topPath(r)
		if !literal || rel == ".git" || strings.HasPrefix(rel, ".git/") {
			continue
		}
		abs := filepath.Join(c.sandbox, filepath.FromSlash(rel))
		if r.Write {
			c.holdTop(rel)
		}
		if r.Read {
			if _, err := os.Lstat(abs); err != nil && r.Write && !slices.Contains(c.policy.Hidden, abs) {
				// Missing, it gets a placeholder, hidden like the file
				// (see confine.Policy.Hidden): what the user writes into
				// it while the command runs stays out of its sight.
				c.policy.Hidden = append(c.policy.Hidden, abs)
			} else {
				c.hide(abs)
			}
		}
	}
	if c.gitWriteProtected() {
		c.repository(c.sandbox, true)
		c.gitlinkRepositories()
	} else if fi, err := os.Lstat(filepath.Join(c.sandbox, ".git")); err == nil && fi.IsDir() {
		// Even with the configuration left writable, a stopped rebase
		// must not gain steps.
		c.sequencer(filepath.Join(c.sandbox, ".git"))
	}
}

// topPath is classify.Protected.AtTop with the pattern's own letter
// case: the name a program opens (.Rprofile), which a placeholder must
// take on a file system that tells cases apart; AtTop's lower-cased form
// would put .rprofile beside it and leave the name free.
func topPath(r *classify.Protected) (rel string, literal bool) {
	rel, literal = r.AtTop()
	given := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(r.Pattern), "./"), "**/"), "/")
	if strings.EqualFold(given, rel) {
		rel = given
	}
	return rel, literal
}

// topHold is how a write-protected literal path at the top of the
// sandbox is kept read-only, and what stands in its place while it is
// missing (see confine.Policy.Placeholders).
type topHold int

const (
	// alone: the path itself is kept read-only; a missing one gets an
	// empty directory, which most programs pass over and in which nothing
	// can be made. rustup reads an empty rust-toolchain as an error and
	// pyenv an empty .python-version as the system's Python, while both
	// pass over a directory.
	alone topHold = iota
	// asEmptyFile: the path itself is kept read-only; a missing one gets
	// an empty file, because the programs that read it take an empty file
	// as no configuration and fail on a directory. yarn stops on a
	// directory .npmrc or .yarnrc, pnpm on a directory
	// pnpm-workspace.yaml; mise, yarn's later versions and bun read TOML
	// or YAML the same way, and vim and Emacs an editor's settings file; a
	// program loading a missing .env would get "is a directory". git add
	// does not stage the placeholders: see gitExcludePlaceholders.
	asEmptyFile
	// asVCSName: the path lies in a version control system's directory
	// (.hg/hgrc); while that directory is missing, or a regular file, its
	// own name is kept read-only as an empty file. A directory .hg beside
	// .git would be a second repository to the Go command, which stamps
	// what it builds with the repository of its directory and refuses
	// ("multiple VCS detected"); Mercurial and Go look for a directory and
	// pass a file over, and no repository can be made in its place. A
	// regular file there is the placeholder of a run of the same sandbox
	// still running, which a run beginning now keeps as its own.
	asVCSName
	// withHolder: the directory holding the path is kept read-only whole.
	// cargo reads .cargo/config before .cargo/config.toml, so that a
	// placeholder for the first would hide the second (and make cargo warn
	// that both exist). Nothing else in a project's .cargo is written by
	// cargo; a missing .cargo gets an empty directory, which cargo reads as
	// no configuration.
	withHolder
)

// topHoldOf says how the write-protected literal path rel at the top of
// the sandbox (slash-separated, with the pattern's letter case) is kept,
// and for asVCSName and withHolder, the directory (relative to the
// sandbox) that is kept in its place.
func topHoldOf(rel string) (hold topHold, dir string) {
	switch rel {
	case ".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml", "pnpm-workspace.yaml", ".env",
		".tool-versions", "mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml",
		".vimrc", ".gvimrc", ".exrc", ".nvimrc", ".nvim.lua", ".lvimrc", ".dir-locals.el", ".dir-locals-2.el":
		return asEmptyFile, ""
	case ".hg/hgrc":
		return asVCSName, ".hg"
	case ".cargo/config", ".cargo/config.toml":
		return withHolder, ".cargo"
	}
	return alone, ""
}

// noRepository reports whether p, a version control system's directory,
// is missing or a regular file: the placeholder of a run of the same
// sandbox still running (which a run beginning now keeps as its own) or
// a file that the system passes over.
func noRepository(p string) bool {
	fi, err := os.Lstat(p)
	return errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode().IsRegular())
}

// holdTop keeps the write-protected literal path rel at the top of the
// sandbox read-only, as topHoldOf says, with its placeholder while it is
// missing.
func (c *confinePaths) holdTop(rel string) {
	abs := filepath.Join(c.sandbox, filepath.FromSlash(rel))
	hold, dir := topHoldOf(rel)
	if hold == asVCSName && !noRepository(filepath.Join(c.sandbox, dir)) {
		hold = alone // a repository, or a link, kept as it is
	}
	switch hold {
	case withHolder:
		c.readOnly(filepath.Join(c.sandbox, dir))
	case asVCSName:
		c.readOnly(filepath.Join(c.sandbox, dir))
		c.policy.Placeholders[filepath.Join(c.sandbox, dir)] = ""
	default:
		c.readOnly(abs)
		if hold == asEmptyFile {
			c.policy.Placeholders[abs] = ""
		}
	}
}

// gitlinkRepositories keeps read-only the repositories of the top
// repository's gitlinks (the submodules its git status enters), however
// deep they lie, and counts them as seen. An index that is not understood
// (see repotrust.IndexGitlinks) sets indexUnknown: any repository of the
// sandbox may then be one git status enters (see deepRepositories).
func (c *confinePaths) gitlinkRepositories() {
	if gitdir, ok := workTreeGitDir(c.sandbox); ok {
		c.gitlinksOf(c.sandbox, gitdir)
	}
}

// workTreeGitDir returns the git directory of the work tree dir, as git
// finds it: dir/.git when that is a directory or a link to one, or the
// directory a .git file names ("gitdir: PATH", relative to dir), as
// --separate-git-dir, worktrees and submodules make it.
func workTreeGitDir(dir string) (string, bool) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Stat(dotgit)
	switch {
	case err != nil:
		return "", false
	case fi.IsDir():
		return dotgit, true
	case !fi.Mode().IsRegular():
		return "", false
	}
	target, ok := gitFileTarget(dir)
	if !ok {
		return "", false
	}
	if fi, err := os.Stat(target); err != nil || !fi.IsDir() {
		return "", false
	}
	return target, true
}

// gitFileTarget returns the git directory that the .git file of the work
// tree dir names ("gitdir: PATH", a relative PATH taken from dir).
func gitFileTarget(dir string) (string, bool) {
	b, err := readSmallFile(filepath.Join(dir, ".git"))
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	target, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", false
	}
	if target = strings.TrimSpace(target); !filepath.IsAbs(target) {
		target = filepath.Join(dir, target)
	}
	return target, true
}

// nestedGitlinks does for the repositories found below the top what
// gitlinkRepositories does for the top one: git status run in a nested
// repository (or entering it as a submodule) enters its own gitlinks,
// which may lie deeper than the walk. The repositories found that way
// are followed in turn.
func (c *confinePaths) nestedGitlinks() {
	for ; c.reposDone < len(c.repos); c.reposDone++ {
		r := c.repos[c.reposDone]
		c.gitlinksOf(r[0], r[1])
	}
}

// gitlinksOf keeps read-only the repositories of the gitlinks in the
// index of the git directory gitdir, whose work tree is workTree, and
// counts them as seen; an index not understood sets indexUnknown.
func (c *confinePaths) gitlinksOf(workTree, gitdir string) {
	hashLen := objectIDLength(commonDir(gitdir))
	links, err := repotrust.IndexGitlinks(gitdir, hashLen)
	if err != nil {
		c.indexUnknown = true
		return
	}
	for _, l := range links {
		dir := filepath.Join(workTree, filepath.FromSlash(l))
		if !pathres.Within(c.sandbox, dir) || dir == c.sandbox {
			continue
		}
		dotgit := filepath.Join(dir, ".git")
		if _, err := os.Lstat(dotgit); err == nil && !c.seen[dotgit] {
			c.repository(dir, false)
			c.seen[dotgit] = true
		}
	}
}

// commonDir returns the common directory of the git directory gitdir:
// the one its commondir file names, or itself.
func commonDir(gitdir string) string {
	b, err := readSmallFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return gitdir
	}
	cd := strings.TrimSpace(string(b))
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitdir, cd)
	}
	return filepath.Clean(cd)
}

// The walk below the top is bounded by depth, since it runs before every
// confined command: it reads every directory down to walkDepth levels
// below the top, breadth first, skipping walkSkip. It has no bound on the
// number of directories it reads: the command can make directories at no
// cost, and any order a count could stop in is one it could fill with
// its own (300 empty ones sorted before apps/, and apps/web/.env went
// unseen by the next run). Its answer depends on the sandbox's depth
// alone. The price is a read of each of those directories (a few
// microseconds each; the deep scan reads every directory of the sandbox
// twice anyway, see confinedeep.go): a monorepo with 5,000 directories
// within three levels, dependency and build directories not counted,
// pays some 15 ms more per confined run than one with 256.
//
// walkDirs bounds the searches that look only for repositories outside
// the walk (in skipped directories, see repositoriesIn) and the walk of
// an enclosing work tree's top (hideTopSecrets).
const (
	walkDepth = 3
	walkDirs  = 256
)

// changedSince reports whether the directory dir was made, renamed or
// changed (its change time) since c.since, when set: the quarantine's
// search for repositories in skipped directories does not count those in
// walkDirs, so that a command cannot use up the search with directories of
// its making (or old ones it moved ahead) and hide what it left behind
// them. Directories it did not touch are counted as before the run, in the
// same order.
func (c *confinePaths) changedSince(dir string) bool {
	if c.since == 0 {
		return false
	}
	var st unix.Stat_t
	if err := unix.Lstat(dir, &st); err != nil {
		return false
	}
	return st.Ctim.Nano() >= c.since
}

// walkSkip are directories whose contents the walk does not look at:
// dependencies and build output, large and rebuilt by tools. It is built on first use.
var walkSkip = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"node_modules": true, "vendor": true, "target": true, "dist": true, "build": true,
		".venv": true, "venv": true, "__pycache__": true, ".tox": true, ".mypy_cache": true,
		".pytest_cache": true, ".next": true, ".nuxt": true, ".gradle": true, ".cache": true,
	}
})

// walk adds the existing matches below the top (and the top's glob
// matches, see anchoredMatches), and nested repositories.
func (c *confinePaths) walk() {
	git := c.gitWriteProtected()
	type dir struct {
		abs, rel string
		depth    int
	}
	c.anchoredMatches()
	queue := []dir{{c.sandbox, "", 0}}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := c.readDir(d.abs)
		if err != nil {
			continue
		}
		// A git directory's own directories (objects, refs) are git's:
		// not walked, as .git is not.
		gitDir := git && c.gitDirectoryAt(d.abs, entries)
		for _, e := range entries {
			name := e.Name()
			abs := filepath.Join(d.abs, name)
			rel := name
			if d.rel != "" {
				rel = d.rel + "/" + name
			}
			if name == ".git" {
				if git && d.rel != "" {
					c.repository(d.abs, false)
					c.seen[abs] = true
				}
				continue
			}
			matched := false
			lower := strings.ToLower(name)
			for i := range c.rules {
				r := &c.rules[i]
				if !r.MatchesLastLower(lower) || !r.Match(rel) {
					continue
				}
				matched = true
				if r.Write {
					c.readOnly(abs)
					c.seen[abs] = true
				}
				if r.Read {
					c.hide(abs)
				}
			}
			switch {
			case !e.IsDir() || matched || gitDir && d.rel != "":
			case walkSkip()[name]:
				if git {
					c.repositoriesIn(abs)
				}
			case d.depth < walkDepth:
				queue = append(queue, dir{abs, rel, d.depth + 1})
			}
		}
	}
}

// repositoriesIn finds repositories in a directory the walk skips
// (vendored or fetched checkouts in vendor, build/_deps, node_modules)
// and keeps their files read-only: it reads the directory and its
// subdirectories two levels down, walkDirs of them at most, and looks only
// for .git and git directories.
func (c *confinePaths) repositoriesIn(root string) {
	c.repositoriesBelow(root, 3, walkDirs)
}

// deepRepositories finds the repositories of the whole sandbox, at any
// depth, skipped directories included, and keeps their files read-only
// like those of gitlinks. It stands for the gitlinks when the top index
// is not understood (a sparse index, a format or extension the reader
// does not know, an index too large): git status may then enter any of
// them. Its cost grows with the sandbox (every directory is read, before
// the command and after it), and it is paid only while the index is not
// understood. A repository it finds after the run that was not known
// before is moved aside, even one the bounded walk did not reach before:
// with an index understood before the run and not after, that is a
// repository of the user's that lies deeper than the walk (rename it
// back after a look at its configuration).
func (c *confinePaths) deepRepositories() {
	c.repositoriesBelow(c.sandbox, -1, -1)
}

// repositoriesBelow finds .git and git directories in root and the
// directories below it, depth levels down at most and dirs directories
// read at most (negative: no bound), without following symbolic links.
func (c *confinePaths) repositoriesBelow(root string, depth, dirs int) {
	queue := []string{root}
	for read := 0; len(queue) > 0 && (dirs < 0 || read < dirs); {
		d := queue[0]
		queue = queue[1:]
		if !c.changedSince(d) {
			read++
		}
		entries, err := c.readDir(d)
		if err != nil {
			continue
		}
		if d != c.sandbox && c.gitDirectoryAt(d, entries) {
			continue
		}
		for _, e := range entries {
			abs := filepath.Join(d, e.Name())
			if e.Name() == ".git" {
				if d != c.sandbox {
					c.repository(d, false)
					c.seen[abs] = true
				}
				continue
			}
			if e.IsDir() && (depth < 0 || strings.Count(strings.TrimPrefix(abs, root), "/") < depth) {
				queue = append(queue, abs)
			}
		}
	}
}

// gitDirectoryAt reports whether the directory dir, whose entries are
// given, may be a git directory to git's discovery (is_git_directory): a
// HEAD, and objects and refs or a commondir file naming where they are.
// git run in it or below it (before it looks further up for the
// project's .git) would obey its config. The test is by names alone, a
// superset of what git accepts. Such a directory is counted in gitDirs
// and its files are kept like a nested repository's.
func (c *confinePaths) gitDirectoryAt(dir string, entries []os.DirEntry) bool {
	if !isGitDirectory(entries) {
		return false
	}
	c.gitDirs[dir] = true
	c.gitDirectory(dir, dir, false)
	return true
}

// repository keeps the files of the repository whose work tree is dir
// read-only. top says whether dir is the sandbox: there, missing files
// get placeholders too; below, only existing ones are protected.
func (c *confinePaths) repository(dir string, top bool) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	gitdir := dotgit
	switch {
	case err == nil && fi.Mode().IsRegular():
		// A worktree or a submodule's checkout: "gitdir: PATH".
		target, ok := gitFileTarget(dir)
		if !ok {
			return
		}
		gitdir = target
		c.readOnly(dotgit) // the pointer itself
	case err == nil && fi.IsDir():
	case errors.Is(err, fs.ErrNotExist) && top:
		// No repository yet: one created by the command would be the
		// user's repository from then on, its configuration included.
		c.readOnly(dotgit)
		return
	default:
		return
	}
	if !top {
		c.repos = append(c.repos, [2]string{dir, gitdir})
	}
	c.gitDirectory(dir, gitdir, top)
}

// gitDirectory keeps the files of the git directory gitdir, of the
// repository whose work tree is dir, read-only: those that exist, and,
// at the top (top), those that do not yet exist too, through
// placeholders. Below the top, the missing ones are watched instead: the
// quarantine moves them aside if they appear. Its sequencer state is
// recorded (see sequencer).
func (c *confinePaths) gitDirectory(dir, gitdir string, top bool) {
	c.sequencer(gitdir)
	common := commonDir(gitdir)
	add := func(p, placeholder string, hasPlaceholder bool) {
		if _, err := os.Lstat(p); err != nil && !top {
			c.watchMissing(p)
			return
		}
		c.readOnly(p)
		if hasPlaceholder {
			c.policy.Placeholders[p] = placeholder
		}
	}
	add(filepath.Join(common, "config"), "", false)
	add(filepath.Join(common, "hooks"), "", false)
	// The git directories of submodules and linked worktrees: each kept
	// like a nested repository's, so that git can still write their
	// index, HEAD, refs and objects (a commit in a submodule); missing,
	// the directory that would hold them is read-only.
	for _, name := range []string{"modules", "worktrees"} {
		d := filepath.Join(common, name)
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			if gitdir == common { // a linked worktree's are its common directory's
				// The top repository's linked worktrees share its
				// configuration and are the user's: their missing files
				// (config.worktree, which git reads in the worktree
				// outside the sandbox while the command runs) get
				// placeholders as the top's do.
				c.gitDirectoriesIn(d, 4, top && name == "worktrees")
			}
		} else {
			add(d, "", false)
		}
	}
	// Remotes that the configuration does not define, in git's legacy
	// files (remotes/NAME, branches/NAME): the user's git push and fetch
	// would go where they say, a repository of the command's with hooks.
	add(filepath.Join(common, "remotes"), "", false)
	add(filepath.Join(common, "branches"), "", false)
	// Read by git when present: placeholders that git takes as absence.
	add(filepath.Join(gitdir, "commondir"), ".", gitdir == common)
	add(filepath.Join(common, "objects", "info", "alternates"), "", true)
	if top && gitdir != common {
		// The sandbox is a linked worktree: the repository's other work
		// trees (the main one, the other linked ones) hold the same
		// project's secrets.
		if filepath.Base(common) == ".git" {
			c.hideTopSecrets(filepath.Dir(common))
		}
		if entries, err := os.ReadDir(filepath.Join(common, "worktrees")); err == nil {
			for _, e := range entries {
				if p := filepath.Join(common, "worktrees", e.Name()); e.IsDir() && p != gitdir {
					c.otherWorkTree(p)
				}
			}
		}
	}
	if gitdir != common {
		add(filepath.Join(gitdir, "config.worktree"), "", true)
		// A linked worktree's record of where its work tree is: git
		// worktree repair writes a .git file wherever it names.
		add(filepath.Join(gitdir, "gitdir"), "", false)
		add(filepath.Join(gitdir, "locked"), "", false)
	} else {
		add(filepath.Join(common, "config.worktree"), "", true)
	}
	// The hooks directory and the files the configuration includes are
	// configuration too, read-only even before they exist: the command
	// could otherwise make them.
	cfg := readGitConfigPaths(filepath.Join(common, "config"))
	// Only inside the sandbox (outside, all is read-only already), and
	// with placeholders only for the top repository's own configuration:
	// a repository below the top may be the command's, naming what it
	// likes.
	named := func(p string) (string, bool) {
		p, ok := sandboxPath(c.sandbox, p)
		if !ok {
			return "", false
		}
		if _, err := os.Lstat(p); err != nil && !top {
			c.watchMissing(p)
			return "", false
		}
		return p, true
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		home = ""
	}
	c.repositoryPrograms(filepath.Join(common, "config"), dir, home, top)
	for _, hp := range expandGitPath(cfg.hooksPath, dir, home) {
		if hp, ok := named(hp); ok {
			c.readOnly(hp)
		}
	}
	var includes []string
	for _, inc := range cfg.includes {
		// Relative to the file that names it; ~ is the home directory.
		includes = append(includes, expandGitPath(inc, common, home)...)
	}
	for _, inc := range includes {
		if inc, ok := named(inc); ok {
			c.readOnly(inc)
			if _, err := os.Lstat(inc); err != nil {
				c.policy.Placeholders[inc] = "" // git reads an empty file as nothing
			}
		}
	}
}

// gitDirectoriesIn keeps the git directories found in dir (submodules'
// under .git/modules, whose names may hold slashes, and linked worktrees'
// under .git/worktrees), depth levels down at most, like those of nested
// repositories.
func (c *confinePaths) gitDirectoriesIn(dir string, depth int, top bool) {
	if depth == 0 {
		c.readOnly(dir) // deeper than submodule names go: kept whole
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		c.readOnly(dir)
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() {
			c.readOnly(p)
			continue
		}
		sub, err := os.ReadDir(p)
		if err != nil {
			c.readOnly(p)
			continue
		}
		if isGitDirectory(sub) {
			if !c.gitDirs[p] {
				c.gitDirs[p] = true
				c.gitDirectory(p, p, top)
				if top {
					c.otherWorkTree(p)
				}
			}
		} else {
			c.gitDirectoriesIn(p, depth-1, top)
		}
	}
}

// otherWorkTree hides the read-protected files at the top of the work
// tree of the top repository's linked worktree whose git directory is
// gitdir (named by its gitdir file) when it lies outside the sandbox:
// the same project's secrets (a .env the user keeps in each checkout),
// which the command would otherwise read there.
func (c *confinePaths) otherWorkTree(gitdir string) {
	b, err := readSmallFile(filepath.Join(gitdir, "gitdir"))
	if err != nil {
		return
	}
	dotgit := strings.TrimSpace(string(b))
	if !filepath.IsAbs(dotgit) {
		dotgit = filepath.Join(gitdir, dotgit)
	}
	c.hideTopSecrets(filepath.Dir(filepath.Clean(dotgit)))
}

// hideTopSecrets hides what a read-protected pattern matches in the
// directory tree (another work tree of the sandbox's repository, or the
// work tree that holds the sandbox: backend/.env as well as .env),
// walked as the sandbox is (walkDepth levels, walkDirs directories,
// walkSkip passed over), the sandbox itself passed over.
func (c *confinePaths) hideTopSecrets(tree string) {
	real, err := pathres.Resolve(tree)
	if err != nil || pathres.Within(c.sandbox, real) {
		return
	}
	type dir struct {
		rel   string
		depth int
	}
	queue, dirs := []dir{{"", 0}}, 0
	for len(queue) > 0 && dirs < walkDirs {
		d := queue[0]
		queue = queue[1:]
		dirs++
		entries, err := os.ReadDir(filepath.Join(real, d.rel))
		if err != nil {
			continue
		}
		for _, e := range entries {
			rel := path.Join(d.rel, e.Name())
			lower := strings.ToLower(e.Name())
			hidden := false
			for i := range c.rules {
				r := &c.rules[i]
				if r.Read && r.MatchesLastLower(lower) && r.Match(rel) {
					c.hide(filepath.Join(real, rel))
					hidden = true
					break
				}
			}
			if !hidden && e.IsDir() && d.depth < walkDepth && e.Name() != ".git" && !walkSkip()[e.Name()] && filepath.Join(real, rel) != c.sandbox {
				queue = append(queue, dir{rel, d.depth + 1})
			}
		}
	}
}

// enclosingWorkTree hides the read-protected files of the work tree that
// holds the sandbox (a project's directory made the sandbox: mono/.env,
// mono/services/web/.env for a sandbox mono/services/api).
func (c *confinePaths) enclosingWorkTree() {
	for d := filepath.Dir(c.sandbox); d != "/"; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			c.hideTopSecrets(d)
			return
		}
	}
}

// watchMissing records a missing file of a git directory below the top
// that git would obey: the quarantine moves it aside if it appears.
func (c *confinePaths) watchMissing(p string) {
	if pathres.Within(c.sandbox, p) && p != c.sandbox && !slices.Contains(c.watch, p) {
		c.watch = append(c.watch, p)
	}
}

// sequencer records git's state of an operation stopped half-way in the
// git directory gitdir (sequencerState): the digest of what exists, and
// what is missing as watched. A confined command can change it (git
// rebase --continue, git commit during a rebase are the user's own
// work), but the quarantine moves aside state that is new or whose
// content changed: the user's next `git rebase --continue` would run the
// lines the command wrote. A state too large to digest is kept read-only
// instead (a confined git rebase --continue then fails).
func (c *confinePaths) sequencer(gitdir string) {
	for _, d := range sequencerState {
		p := filepath.Join(gitdir, d)
		if _, err := os.Lstat(p); err != nil {
			c.watchMissing(p)
			continue
		}
		if !pathres.Within(c.sandbox, p) {
			continue // outside, everything is read-only
		}
		if digest, ok := stateDigest(p); ok {
			c.states[p] = digest
		} else {
			c.readOnly(p)
		}
	}
}

// Bounds of the sequencer state digested: beyond them, it is kept
// read-only.
const (
	stateEntries = 4096
	stateBytes   = 16 << 20
)

// stateDigest returns a digest of the tree at path: each entry's path,
// type, permission bits and content (a file's bytes, a link's target), in
// order, without following links. ok is false when it cannot be read
// whole within the bounds.
func stateDigest(path string) (digest string, ok bool) {
	h := sha256.New()
	entries, total := 0, int64(0)
	var visit func(p, rel string) bool
	visit = func(p, rel string) bool {
		fi, err := os.Lstat(p)
		if err != nil {
			return false
		}
		if entries++; entries > stateEntries {
			return false
		}
		fmt.Fprintf(h, "%q %o\n", rel, uint32(fi.Mode()))
		switch {
		case fi.Mode().IsRegular():
			if total += fi.Size(); total > stateBytes {
				return false
			}
			b, err := repotrust.ReadUntrusted(p, stateBytes)
			if err != nil {
				return false
			}
			fmt.Fprintf(h, "%d\n", len(b))
			h.Write(b)
		case fi.Mode()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return false
			}
			fmt.Fprintf(h, "%q\n", t)
		case fi.IsDir():
			names, err := os.ReadDir(p)
			if err != nil {
				return false
			}
			for _, e := range names { // sorted by name
				if !visit(filepath.Join(p, e.Name()), rel+"/"+e.Name()) {
					return false
				}
			}
		}
		return true
	}
	if !visit(path, ".") {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// gitConfigPaths are the paths a git configuration file names that make
// git run programs or read more configuration.
type gitConfigPaths struct {
	hooksPath string   // core.hooksPath
	includes  []string // include.path and includeIf.*.path
	sha256    bool     // extensions.objectFormat = sha256
}

// readGitConfigPaths reads them from the configuration file config as git
// reads it (repotrust.ParseGitConfig: a key on the header's line, quotes,
// escapes, continuations, comments). Text that reader refuses, git
// refuses too (it runs nothing with a configuration it cannot read);
// then the lines of the common form (key = value under [core],
// [include] and [includeIf "..."] headers) are read as well, so that
// nothing either reader finds is missed.
func readGitConfigPaths(config string) gitConfigPaths {
	var out gitConfigPaths
	b, err := readGitConfig(config)
	if err != nil {
		return out
	}
	setting := func(section, key, val string) {
		switch {
		case section == "core" && key == "hookspath":
			out.hooksPath = val
		case (section == "include" || section == "includeif") && key == "path":
			out.includes = append(out.includes, val)
		case section == "extensions" && key == "objectformat":
			out.sha256 = strings.EqualFold(val, "sha256")
		}
	}
	if repotrust.ParseGitConfig(config, b, func(s repotrust.Setting) error {
		// git's names: core.hooksPath and include.path have no
		// subsection ([core "x"] hooksPath is another key), includeIf's
		// path has one.
		if s.HasSubsection != (s.Section == "includeif") {
			return nil
		}
		setting(s.Section, s.Key, s.Value)
		return nil
	}) == nil {
		return out
	}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			head, rest, _ := strings.Cut(line, "]")
			name := strings.TrimSpace(strings.TrimPrefix(head, "["))
			if i := strings.IndexAny(name, " \t\"."); i >= 0 {
				name = name[:i]
			}
			section = strings.ToLower(name)
			if line = strings.TrimSpace(rest); line == "" {
				continue
			}
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.Contains(v[:i], `"`) {
			v = v[:i] // a comment after the value
		}
		v = strings.TrimSuffix(strings.TrimSpace(v), `\`)
		setting(section, strings.ToLower(strings.TrimSpace(k)), strings.Trim(strings.TrimSpace(v), `"`))
	}
	return out
}

// readGitConfig reads a git configuration file: larger than the other
// small files (a repository that tracks many branches has a section for
// each), bounded all the same.
func readGitConfig(path string) ([]byte, error) {
	return repotrust.ReadUntrusted(path, 64<<20)
}

// objectIDLength is the length in bytes of the object names of the
// repository whose common directory is common: 32 where its configuration
// chooses SHA-256, 20 otherwise.
func objectIDLength(common string) int {
	if readGitConfigPaths(filepath.Join(common, "config")).sha256 {
		return 32
	}
	return 20
}

// stored returns the content of p, a file of the top repository's work
// tree, when it holds exactly what the repository stores for it (see
// repotrust.StoredFiles).
func (c *confinePaths) stored(p string) (string, bool) {
	rel, ok := strings.CutPrefix(p, c.sandbox+"/")
	if !ok {
		return "", false
	}
	gitdir, ok := workTreeGitDir(c.sandbox)
	if !ok {
		return "", false
	}
	common := commonDir(gitdir)
	hashLen := objectIDLength(common)
	b, ok := repotrust.StoredFiles(gitdir, common, hashLen, c.sandbox, []string{filepath.ToSlash(rel)})[filepath.ToSlash(rel)]
	return string(b), ok
}

func (c *confinePaths) readOnly(p string) {
	if !slices.Contains(c.policy.ReadOnly, p) {
		c.policy.ReadOnly = append(c.policy.ReadOnly, p)
	}
}

// readOnlyBecause keeps p read-only as readOnly does, and says why, for
// the person who reads confinement's refusal when p is the sandbox
// itself (see confine.Policy.ReadOnlyReasons).
func (c *confinePaths) readOnlyBecause(p, why string) {
	c.readOnly(p)
	if c.policy.ReadOnlyReasons == nil {
		c.policy.ReadOnlyReasons = map[string]string{}
	}
	if _, said := c.policy.ReadOnlyReasons[p]; !said {
		c.policy.ReadOnlyReasons[p] = why
	}
}

// hide hides the existing path p. A file of the top repository that
// holds what the repository stores for it is shown instead as a read-only
// copy of that content (confine.Policy.Shown): the content is readable in
// .git's objects (git show :.env) anyway, git commit -a finds the file
// unchanged (a hidden file shows git an empty file, which it would
// commit), and what the user writes into the file while the command runs
// stays out of its sight. One with local changes stays hidden.
func (c *confinePaths) hide(p string) {
	if _, err := os.Lstat(p); err != nil {
		return
	}
	if content, ok := c.stored(p); ok {
		c.readOnly(p)
		if c.policy.Shown == nil {
			c.policy.Shown = map[string]string{}
		}
		c.policy.Shown[p] = content
		return
	}
	if !slices.Contains(c.policy.Hidden, p) {
		c.policy.Hidden = append(c.policy.Hidden, p)
	}
}
