package sandboxauth

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// Confined commands of one sandbox may run at the same time (a dev server
// in the background, the tests beside it), and the quarantine must not be
// fooled by one of them: a run whose "before" were taken while another
// run's command was changing the sandbox would take that command's work
// for the user's. So the runs that overlap form a group, with one
// baseline: the "before" taken by the run that began the group, while no
// other run of the sandbox was active. A run that begins while others are
// active joins their group and is judged against its baseline, not
// against what it saw itself. Every run, when it ends, quarantines what
// the sandbox holds against the group's baseline (what any run of the
// group left, the still-running ones' included); the last one to end
// closes the group, and the next run begins a new one.
//
// The group lives in confinement's record directory (confine.RecordDir,
// out of every confined command's reach), so that runs of several
// processes (each `sandboxauth run` is one) share it:
//
//   - "runs.lock" (one for every sandbox) is locked exclusively (flock)
//     while a run joins or leaves: joining, leaving and judging are one
//     at a time;
//   - "sandbox" names the group's sandbox while the group lasts: a run of
//     a sandbox that holds another's, or lies in it (a run of the
//     project beside one of a directory of it), waits until that other
//     group has ended, since each judges its tree against a baseline of
//     its own;
//   - "runs" is locked shared by each run of the group from its policy's
//     making until its AfterExit: a run that can lock it exclusively is
//     alone;
//   - "baseline" holds the group's baseline (JSON), written by the run
//     that began the group and removed by the last to end. One found by
//     a run that begins a group is what a group left that ended without
//     its last judging (its host was killed): it is judged first.
//
// A policy that is never run stays in its group until it is garbage
// collected (its lock's file is closed then) or the process exits: the
// group's baseline lasts as long, and what the user changes meanwhile in
// git's files of the project's nested repositories counts as the
// commands'.

// runGroup is a run's membership of its sandbox's group.
type runGroup struct {
	sandbox                     string // resolved
	lock, runs, baseline, place string // the record files
	lockFile                    *os.File
	member                      *os.File // the shared lock on runs, while a member
}

// enterRunGroup takes the groups' lock for a run of p's sandbox (a
// resolved path; held until joined or left). It fails when the record
// directory cannot be had.
func enterRunGroup(p confine.Policy, sandbox string) (*runGroup, error) {
	runs, err := confine.SandboxRecord(p, "runs")
	if err != nil {
		return nil, err
	}
	// The sandbox's other records, named as SandboxRecord names them
	// (NAME-KEY: see overlapping), without finding the directory again.
	dir, key := filepath.Dir(runs), strings.TrimPrefix(filepath.Base(runs), "runs-")
	g := &runGroup{sandbox: sandbox, runs: runs, baseline: filepath.Join(dir, "baseline-"+key),
		place: filepath.Join(dir, "sandbox-"+key), lock: filepath.Join(dir, "runs.lock")}
	f, err := lockFile(g.lock, unix.LOCK_EX)
	if err != nil {
		return nil, err
	}
	g.lockFile = f
	return g, nil
}

// overlapping returns the runs record of an active group of another
// sandbox that holds this one or lies in it, or "". Its runs change
// this sandbox too, under a baseline of their own: this run must wait
// for them to end.
func (g *runGroup) overlapping() string {
	runs, _ := overlappingGroup(filepath.Dir(g.place), g.place, g.sandbox)
	return runs
}

// ConfinementWaitsFor returns the sandbox of the active group of confined
// runs that a run of sandbox would wait for before it starts (one that
// holds sandbox or lies in it: each group judges its tree against a
// baseline of its own), or "" when none is active. It does not wait, and
// a group may begin or end right after: it is for telling a person why a
// run does not start yet (sandboxauth run says so).
func ConfinementWaitsFor(sandbox string) string {
	real, err := pathres.Resolve(filepath.Clean(sandbox))
	if err != nil {
		return ""
	}
	runs, err := confine.SandboxRecord(confine.Policy{Sandbox: real}, "runs")
	if err != nil {
		return ""
	}
	dir, key := filepath.Dir(runs), strings.TrimPrefix(filepath.Base(runs), "runs-")
	_, other := overlappingGroup(dir, filepath.Join(dir, "sandbox-"+key), real)
	return other
}

// overlappingGroup returns the runs record and the sandbox of an active
// group, recorded in dir, of another sandbox than the one whose record is
// place, that holds sandbox or lies in it; "" when there is none.
func overlappingGroup(dir, place, sandbox string) (runs, other string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", ""
	}
	for _, e := range entries {
		key, ok := strings.CutPrefix(e.Name(), "sandbox-")
		if !ok || filepath.Join(dir, e.Name()) == place {
			continue
		}
		b, err := repotrust.ReadUntrusted(filepath.Join(dir, e.Name()), 1<<16)
		if err != nil {
			continue
		}
		other := string(b)
		if !pathres.Within(other, sandbox) && !pathres.Within(sandbox, other) {
			continue
		}
		runs := filepath.Join(dir, "runs-"+key)
		if f, err := lockFile(runs, unix.LOCK_EX|unix.LOCK_NB); err == nil {
			f.Close() // ended (without its last judging: its next run judges)
			continue
		}
		return runs, other
	}
	return "", ""
}

// waitFor waits, without the groups' lock, until the group whose runs
// record is runs has ended, and takes the lock again.
func (g *runGroup) waitFor(runs string) error {
	g.unlock()
	if f, err := lockFile(runs, unix.LOCK_EX); err == nil {
		f.Close()
	}
	l, err := lockFile(g.lock, unix.LOCK_EX)
	if err != nil {
		return err
	}
	g.lockFile = l
	return nil
}

// lockFile opens path (made when missing) and locks it with how.
func lockFile(path string, how int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// unlock lets the next run join or leave.
func (g *runGroup) unlock() {
	if g.lockFile != nil {
		g.lockFile.Close()
		g.lockFile = nil
	}
}

// alone reports whether no run of the sandbox is a member (this one
// included).
func (g *runGroup) alone() bool {
	f, err := lockFile(g.runs, unix.LOCK_EX|unix.LOCK_NB)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// join makes the run a member: from now on a run that begins joins.
func (g *runGroup) join() error {
	f, err := lockFile(g.runs, unix.LOCK_SH)
	if err != nil {
		return err
	}
	g.member = f
	return nil
}

// waitAlone waits, without the groups' lock, until the runs of the
// sandbox have ended, and takes the lock again.
func (g *runGroup) waitAlone() error { return g.waitFor(g.runs) }

// leave ends the run's membership, under the group's lock: judge (the
// quarantine against the group's baseline) runs first; the last run to
// leave removes the baseline.
func (g *runGroup) leave(judge func()) {
	l, err := lockFile(g.lock, unix.LOCK_EX)
	if err == nil {
		defer l.Close()
	}
	judge()
	if g.member != nil {
		g.member.Close()
		g.member = nil
	}
	if err == nil && g.alone() {
		os.Remove(g.baseline)
		os.Remove(g.place)
	}
}

// save writes was as the group's baseline, and where its sandbox is (for
// overlapping).
func (g *runGroup) save(was *beforeRun) error {
	if err := os.WriteFile(g.place, []byte(g.sandbox), 0o600); err != nil {
		return err
	}
	b, err := json.Marshal(recordOf(was))
	if err != nil {
		return err
	}
	tmp := g.baseline + ".new"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, g.baseline)
}

// load reads the group's baseline; errNoBaseline when there is none.
func (g *runGroup) load() (*beforeRun, error) {
	b, err := os.ReadFile(g.baseline)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoBaseline
	}
	if err != nil {
		return nil, err
	}
	var r baselineRecord
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return r.beforeRun(), nil
}

// errNoBaseline: the group has no baseline on record.
var errNoBaseline = errors.New("no baseline recorded")

// removeBaseline removes the group's baseline (after it was judged).
func (g *runGroup) removeBaseline() {
	os.Remove(g.baseline)
	os.Remove(g.place)
}

// baselineRecord is a beforeRun as the group's record holds it. The
// private copies and the ledger are the policy's, found again.
type baselineRecord struct {
	IDs      []idRecord        `json:"ids"`
	GitDirs  []idRecord        `json:"gitDirs"`
	Watch    []string          `json:"watch"`
	States   map[string]string `json:"states"`
	Deep     *deepRecord       `json:"deep,omitempty"`
	Since    int64             `json:"since"`
	ReadOnly []string          `json:"readOnly"`
	Configs  []configRecord    `json:"configs,omitempty"`
}

type configRecord struct {
	Path   string
	ID     idRecord
	Digest string
}

type idRecord struct {
	Dev, Ino uint64
	Sec      int64
	Nsec     uint32
}

type deepRecord struct {
	GitDirs    []pathRecord           `json:"gitDirs"`
	Pointers   []pathRecord           `json:"pointers"`
	ObeyedRecs map[string][][3]string `json:"obeyed"`
	Partial    []idRecord             `json:"partial"`
	Links      []linkRecord           `json:"links"`
	Unreadable []string               `json:"unreadable"`
	Protected  []protectedRecord      `json:"protected"`
}

type protectedRecord struct {
	Path   string
	ID     idRecord
	Digest string
	Whole  bool
}

type pathRecord struct {
	ID    idRecord
	Path  string
	Ctime int64
}

type linkRecord struct {
	Path, Target string
	Ctime        int64
}

func idOf(id fileID) idRecord {
	return idRecord{Dev: id.dev, Ino: id.ino, Sec: id.birth.sec, Nsec: id.birth.nsec}
}

func (r idRecord) fileID() fileID {
	return fileID{dev: r.Dev, ino: r.Ino, birth: birthTime{sec: r.Sec, nsec: r.Nsec}}
}

// recordOf returns was as recorded.
func recordOf(was *beforeRun) baselineRecord {
	r := baselineRecord{Watch: was.watch, States: was.states, Since: was.since, ReadOnly: was.readOnly}
	for id := range was.ids {
		r.IDs = append(r.IDs, idOf(id))
	}
	for id := range was.gitDirs {
		r.GitDirs = append(r.GitDirs, idOf(id))
	}
	for path, st := range was.configs {
		r.Configs = append(r.Configs, configRecord{Path: path, ID: idOf(st.id), Digest: st.digest})
	}
	if s := was.deep; s != nil {
		d := &deepRecord{ObeyedRecs: map[string][][3]string{}, Unreadable: s.unreadable}
		for id, path := range s.gitDirs {
			d.GitDirs = append(d.GitDirs, pathRecord{ID: idOf(id), Path: path})
		}
		for id, ptr := range s.pointers {
			d.Pointers = append(d.Pointers, pathRecord{ID: idOf(id), Path: ptr.path, Ctime: ptr.ctime})
		}
		for dir, entries := range s.obeyed {
			for _, e := range entries {
				d.ObeyedRecs[dir] = append(d.ObeyedRecs[dir], [3]string{e.key, e.path, e.digest})
			}
		}
		for _, id := range s.partial {
			d.Partial = append(d.Partial, idOf(id))
		}
		for _, l := range s.links {
			d.Links = append(d.Links, linkRecord{Path: l.path, Target: l.target, Ctime: l.ctime})
		}
		for path, m := range s.protected {
			d.Protected = append(d.Protected, protectedRecord{Path: path, ID: idOf(m.id), Digest: m.digest, Whole: m.whole})
		}
		r.Deep = d
	}
	return r
}

// beforeRun returns the recorded baseline (without private copies and
// ledger).
func (r baselineRecord) beforeRun() *beforeRun {
	was := &beforeRun{ids: map[fileID]bool{}, gitDirs: map[fileID]bool{}, watch: r.Watch, states: r.States, since: r.Since, readOnly: r.ReadOnly}
	if was.readOnly == nil {
		was.readOnly = []string{}
	}
	if was.states == nil {
		was.states = map[string]string{}
	}
	for _, id := range r.IDs {
		was.ids[id.fileID()] = true
	}
	for _, id := range r.GitDirs {
		was.gitDirs[id.fileID()] = true
	}
	for _, c := range r.Configs {
		if was.configs == nil {
			was.configs = map[string]configState{}
		}
		was.configs[c.Path] = configState{id: c.ID.fileID(), digest: c.Digest}
	}
	if d := r.Deep; d != nil {
		s := newDeepScan()
		s.unreadable = d.Unreadable
		for _, g := range d.GitDirs {
			s.gitDirs[g.ID.fileID()] = g.Path
		}
		for _, ptr := range d.Pointers {
			s.pointers[ptr.ID.fileID()] = pointer{path: ptr.Path, ctime: ptr.Ctime}
		}
		for dir, entries := range d.ObeyedRecs {
			for _, e := range entries {
				s.obeyed[dir] = append(s.obeyed[dir], obeyedEntry{key: e[0], path: e[1], digest: e[2]})
			}
		}
		for _, id := range d.Partial {
			s.partial = append(s.partial, id.fileID())
		}
		for _, l := range d.Links {
			s.links = append(s.links, link{path: l.Path, target: l.Target, ctime: l.Ctime})
		}
		for _, m := range d.Protected {
			s.protected[m.Path] = protectedMatch{id: m.ID.fileID(), digest: m.Digest, whole: m.Whole}
		}
		was.deep = s
	}
	return was
}
