package confine

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// privateDirs are replaced by an empty file system of the command's own:
// what other programs keep there (sockets, temporary files, the session
// bus, a terminal multiplexer's server) is out of its sight, and what it
// leaves there is gone when it ends.
var privateDirs = [...]string{"/tmp", "/var/tmp", "/run", "/dev/shm"}

// bind is one bind mount of the view: Src (a path of the real file
// system) appears at Dst.
type bind struct{ Src, Dst string }

// view is the file system a confined command sees, resolved on the real
// file system: every path in it is a real path (no symbolic link in it),
// so that bubblewrap mounts exactly what was checked.
type view struct {
	readable      []string          // nil: all of "/", read-only; else only these, read-only
	links         []bind            // with readable: symbolic links to recreate (Src: the link's text, Dst: where)
	writable      []bind            // Sandbox, Writable (Src == Dst) and Private (Src: the private copy)
	hiddenDirs    []string          // shown as empty, read-only directories
	hiddenFile    []string          // shown as an empty, read-only file (a copy: see shown_linux.go)
	hiddenMissing []string          // Hidden paths missing at the start, as named (see readRulesFor)
	hiddenVia     map[string]string // hidden paths that a link inside a hidden directory leads to: the link
	present       *presence         // what the listings of the directories holding Hidden paths show
	reads         <-chan *readRules // the reading rules, being worked out (nil: none)
	closed        []string          // hidden paths closed to the user already, left as they are (closedToUser)
	pins          []string          // directories inside writable places that cannot be renamed or removed
	readOnly      []string          // paths inside writable places that stay read-only
	sockets       []string          // UNIX sockets of outside processes, masked
	program       string            // the program, shown read-only when it would be out of sight
	chdir         string
	created       []placeholder     // made for missing ReadOnly paths, outermost first
	shown         map[string]string // readOnly paths covered by a file with this content (Policy.Shown)
}

// resolveView resolves p into the view cmd runs in. It creates what the
// view needs on the real file system: private copies, missing Private
// directories, and placeholders for missing ReadOnly paths (recorded in
// v.created, whether or not an error follows).
func resolveView(cmd *exec.Cmd, p *Policy) (v *view, err error) {
	v = &view{}
	sandbox, err := pathres.Resolve(filepath.Clean(p.Sandbox))
	if err != nil {
		return v, fmt.Errorf("confine: Policy.Sandbox: %w", err)
	}
	if sandbox == "/" {
		return v, fmt.Errorf("confine: Policy.Sandbox %q is the root directory, which would make the whole file system writable: %w", p.Sandbox, ErrUnsafePolicy)
	}
	if link := linkBelowTop(filepath.Clean(p.Sandbox)); link != "" {
		return v, fmt.Errorf("confine: Policy.Sandbox %s is reached through the symbolic link %s, which an earlier command could have planted to make another directory writable; name the real directory, %s: %w", p.Sandbox, link, sandbox, ErrUnsafePolicy)
	}
	homes := userHomes()
	if err := checkSandbox(p.Sandbox, sandbox, homes, p.ReadOnly, p.ReadOnlyReasons); err != nil {
		return v, err
	}
	v.writable = append(v.writable, bind{sandbox, sandbox})

	// Hidden first: writable entries may not lie beneath them. The
	// copies left beside a hidden path (NAME~, NAME.bak, .NAME.swp) are
	// hidden with it: the listings that rule out the missing paths show
	// them.
	present := newPresence(p.Hidden)
	v.present = present
	for _, h := range append(slices.Clone(p.Hidden), present.backups(p.Hidden)...) {
		if present.missing(h) {
			v.hiddenMissing = append(v.hiddenMissing, h)
			continue
		}
		real, fi, ok := existing(h)
		if !ok {
			v.hiddenMissing = append(v.hiddenMissing, h)
			continue
		}
		if closedToUser(real, fi) {
			v.closed = append(v.closed, real)
		}
		if fi.IsDir() {
			if pathres.Within(real, sandbox) {
				return v, fmt.Errorf("confine: the sandbox %s lies in the hidden directory %s: the command would not see it; confine a directory outside the hidden ones: %w", sandbox, real, ErrUnsafePolicy)
			}
			v.hiddenDirs = append(v.hiddenDirs, real)
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 && fi.Mode().IsRegular() {
			return v, fmt.Errorf("confine: the hidden file %s has %d names (hard links): the command could read it under another; remove the other links (find -samefile): %w", real, st.Nlink, ErrUnsafePolicy)
		}
		v.hiddenFile = append(v.hiddenFile, real)
	}
	// What the links inside the hidden directories lead to.
	if err := v.hideLinkTargets(sandbox, homes, append(slices.Clone(p.Writable), p.Private...)); err != nil {
		return v, err
	}
	hidden := append(slices.Clone(v.hiddenDirs), v.hiddenFile...)

	for _, w := range p.Writable {
		real, _, ok := existing(w)
		if !ok {
			continue
		}
		if err := v.checkWritable("Writable", w, real, sandbox, homes, hidden); err != nil {
			return v, err
		}
		v.writable = append(v.writable, bind{real, real})
	}
	if len(p.Private) > 0 {
		root := p.PrivateRoot
		if root == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				return v, fmt.Errorf("confine: no user cache directory to keep private copies in (%v); set Policy.PrivateRoot", err)
			}
			root = filepath.Join(cache, "sandboxauth", "private")
		}
		for _, d := range p.Private {
			if err := os.MkdirAll(d, 0o700); err != nil {
				return v, fmt.Errorf("confine: Policy.Private %q: %w", d, err)
			}
			real, _, ok := existing(d)
			if !ok {
				return v, fmt.Errorf("confine: Policy.Private %q cannot be resolved", d)
			}
			if err := v.checkWritable("Private", d, real, sandbox, homes, hidden); err != nil {
				return v, err
			}
			copyDir := privateCopyDir(root, sandbox, real)
			if err := os.MkdirAll(copyDir, 0o700); err != nil {
				return v, fmt.Errorf("confine: the private copy of %s: %w", d, err)
			}
			v.writable = append(v.writable, bind{copyDir, real})
		}
	}

	if p.Readable == nil {
		// The reading rules (see readRulesFor) need the hidden paths and
		// the writable places, known now: they are worked out on another
		// processor while the rest of the view is (openSources takes
		// them). What the view gains below lies inside the writable
		// places, which the rules leave alone.
		snapshot := &view{hiddenDirs: slices.Clone(v.hiddenDirs), hiddenFile: slices.Clone(v.hiddenFile),
			hiddenMissing: slices.Clone(v.hiddenMissing), closed: slices.Clone(v.closed), writable: slices.Clone(v.writable),
			present: v.present}
		reads := make(chan *readRules, 1)
		v.reads = reads
		go func() { reads <- readRulesFor(snapshot) }()
	}
	for _, r := range p.ReadOnly {
		r = filepath.Clean(r)
		content, isFile := p.Placeholders[r]
		shown, cover := p.Shown[r]
		if cover {
			content, isFile = shown, true
		}
		made := len(v.created)
		if err := v.addReadOnly(r, content, isFile); err != nil {
			return v, err
		}
		switch {
		case !cover:
		case slices.Contains(v.readOnly, r) && !slices.ContainsFunc(v.created[made:], func(ph placeholder) bool { return filepath.Join(ph.root, ph.rel) == r }):
			// An existing file (a placeholder made now holds the content).
			if err := v.cover(r, shown); err != nil {
				return v, err
			}
		case v.writableRoot(r) == "":
			// Outside the writable places (read-only already): an
			// existing file is covered all the same, a missing one
			// cannot be shown.
			if real, fi, ok := existing(r); ok && real == r && fi.Mode().IsRegular() {
				if err := v.cover(r, shown); err != nil {
					return v, err
				}
			}
		}
	}
	// A missing hidden path that got a placeholder (being read-only too)
	// is hidden: what the user writes into the placeholder while the
	// command runs stays out of the command's sight. A file is covered by
	// a copy of the placeholder's content (the command reads what it
	// would read in the placeholder, as a program does that takes an
	// empty .npmrc for none), a directory by an empty one.
	for _, ph := range v.created {
		path := filepath.Join(ph.root, ph.rel)
		if !slices.Contains(p.Hidden, path) {
			continue
		}
		if !ph.isFile {
			v.hiddenDirs = append(v.hiddenDirs, path)
			continue
		}
		if v.shown == nil {
			v.shown = map[string]string{}
		}
		if _, ok := v.shown[path]; !ok {
			v.shown[path] = ph.content
		}
	}
	// What the user's home links into the writable places (a dotfiles
	// project's .bashrc, nvim directory, ~/.local/bin program) runs
	// whenever the user's shell or editor starts: read-only.
	var places []string
	for _, w := range v.writable {
		places = append(places, w.Dst)
	}
	for _, r := range homeLinksInto(places, homes) {
		// A link to a whole writable place (~/current -> the project) is a
		// way to it, not something the user's programs run.
		if !slices.Contains(p.ReadOnly, r) && !slices.Contains(places, r) {
			if err := v.addReadOnly(r, "", false); err != nil {
				return v, err
			}
		}
	}

	if p.Readable != nil {
		v.readable = []string{}
		for _, r := range append(slices.Clone(p.Readable), systemReadable()...) {
			real, _, ok := existing(r)
			if !ok {
				continue
			}
			v.readable = append(v.readable, real)
			// A system directory that is a link (/bin -> usr/bin) must
			// still be found by its own name.
			if fi, err := os.Lstat(r); err == nil && fi.Mode()&fs.ModeSymlink != 0 && filepath.Dir(r) == "/" {
				if target, err := os.Readlink(r); err == nil {
					v.links = append(v.links, bind{target, r})
				}
			}
		}
	}
	if real, _, ok := existing(cmd.Path); ok && !v.visible(real) {
		v.program = real
	}
	v.chdir = cmd.Dir
	if v.chdir == "" {
		if v.chdir, err = os.Getwd(); err != nil {
			return v, fmt.Errorf("confine: the working directory: %w", err)
		}
	}
	if real, _, ok := existing(v.chdir); !ok || !v.visible(real) {
		return v, fmt.Errorf("confine: the working directory %s is out of the command's sight (the command sees its own /tmp, /var/tmp and /run, and no hidden path); set cmd.Dir to a directory in the sandbox", v.chdir)
	}
	if unixSocketsFor(connectGuardable()) == unixNoDatagrams {
		// The helper refuses a connect to a socket outside the writable
		// places, with or without Network: only those inside them are
		// masked.
		v.sockets = v.outsideSockets(listeningSockets(), func(p string) bool { return v.writableRoot(p) != "" })
	}
	// With connected pairs only, nothing can connect: nothing to mask.
	return v, nil
}

// linkBelowTop returns the first component of the absolute, clean path p
// below the top level that is a symbolic link, or "". Links at the top
// level (/home to /usr/home, say) are the system's; one deeper may have
// been made by a confined command of an enclosing sandbox.
func linkBelowTop(p string) string {
	cur := "/"
	for i, elem := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		cur = filepath.Join(cur, elem)
		fi, err := os.Lstat(cur)
		if err != nil {
			return ""
		}
		if i > 0 && fi.Mode()&fs.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}

// existing resolves p and stats the result; ok is false when p does not
// exist (or cannot be resolved).
func existing(p string) (real string, fi fs.FileInfo, ok bool) {
	// Most paths asked about do not exist (a list of places credentials
	// may be): one lstat, which follows the links before the last
	// element, says so before the full resolution.
	if _, err := os.Lstat(p); err != nil {
		return "", nil, false
	}
	real, err := pathres.Resolve(filepath.Clean(p))
	if err != nil {
		return "", nil, false
	}
	fi, err = os.Lstat(real)
	if err != nil {
		return "", nil, false
	}
	return real, fi, true
}

// checkWritable refuses a writable entry (given as orig, resolved to real)
// that would undo the sandbox: one inside it (a command could replace it
// with a link so that the next run's policy makes something else
// writable), the home directory or one of its ancestors, or anything under
// a hidden path.
func (v *view) checkWritable(field, orig, real, sandbox string, homes, hidden []string) error {
	for _, home := range homes {
		if pathres.Within(real, home) {
			return fmt.Errorf("confine: Policy.%s %q would make the home directory %s writable: %w", field, orig, home, ErrUnsafePolicy)
		}
	}
	switch {
	case pathres.Within(sandbox, real) || pathres.Within(sandbox, filepath.Clean(orig)):
		return fmt.Errorf("confine: Policy.%s %q lies inside the sandbox %s, where the command itself could replace it: %w", field, orig, sandbox, ErrUnsafePolicy)
	case real == "/":
		return fmt.Errorf("confine: Policy.%s %q would make the whole file system writable: %w", field, orig, ErrUnsafePolicy)
	}
	for _, h := range hidden {
		if !pathres.Within(h, real) && !pathres.Within(real, h) {
			continue
		}
		if link, ok := v.hiddenVia[h]; ok {
			return fmt.Errorf("confine: Policy.%s %q overlaps %s, which is hidden as what the symbolic link %s inside a hidden directory leads to; move the credential out of %s, or drop the entry: %w", field, orig, h, link, real, ErrUnsafePolicy)
		}
		return fmt.Errorf("confine: Policy.%s %q overlaps the hidden path %s: %w", field, orig, h, ErrUnsafePolicy)
	}
	return nil
}

// CheckSandbox reports, without starting anything, whether Start would
// refuse p's sandbox as a place whose files the user's programs obey or
// run: the home directory or a directory above it, a place in or holding
// ~/.config, ~/.local, ~/.cache (and the places the XDG variables name), a
// place in a directory on PATH, or a place inside one of p's ReadOnly
// paths. The error wraps
// ErrUnsafePolicy and says why; other checks of Start (links, writable
// entries) are not made. A host that would rewrite a command to run
// confined asks it first, so as not to hand the user a command that
// fails.
func CheckSandbox(p Policy) error {
	real, err := pathres.Resolve(filepath.Clean(p.Sandbox))
	if err != nil {
		return fmt.Errorf("confine: Policy.Sandbox: %w", err)
	}
	if real == "/" {
		return fmt.Errorf("confine: Policy.Sandbox %q is the root directory, which would make the whole file system writable: %w", p.Sandbox, ErrUnsafePolicy)
	}
	return checkSandbox(p.Sandbox, real, userHomes(), p.ReadOnly, p.ReadOnlyReasons)
}

// checkSandbox refuses a sandbox (given as orig, resolved to real) whose
// files the user's programs obey or run: one that holds a home directory
// (shell start-up files, settings, ~/.local/bin), one inside the places
// of settingsPlaces (~/.config, ~/.local, ~/.cache, a directory on PATH),
// and one inside a ReadOnly path (a protected directory of a project
// that holds it: .git/hooks, .vscode, an agent's settings directory,
// which ProtectConfinement keeps read-only), in words that say why the
// path is kept when reasons does.
func checkSandbox(orig, real string, homes, readOnly []string, reasons map[string]string) error {
	for _, home := range homes {
		if pathres.Within(real, home) {
			return fmt.Errorf("confine: Policy.Sandbox %s holds the home directory %s: a command confined there could change the user's shell start-up files, settings and programs; confine a project directory instead: %w", orig, home, ErrUnsafePolicy)
		}
	}
	settings, caches := settingsPlaces(homes)
	for i, place := range append(settings, caches...) {
		if r, err := pathres.Resolve(place); err == nil {
			place = r
		}
		switch {
		case pathres.Within(place, real):
			return fmt.Errorf("confine: Policy.Sandbox %s lies in %s, where programs keep settings, caches, toolchains and code they run; confine a project directory instead: %w", orig, place, ErrUnsafePolicy)
		case i < len(settings) && pathres.Within(real, place):
			return fmt.Errorf("confine: Policy.Sandbox %s holds %s, where programs keep settings and code they run; confine a project directory instead: %w", orig, place, ErrUnsafePolicy)
		}
	}
	for _, place := range pathPlaces(homes) {
		if r, err := pathres.Resolve(place); err == nil {
			place = r
		}
		if pathres.Within(place, real) {
			return fmt.Errorf("confine: Policy.Sandbox %s lies in %s, a directory on PATH, where programs the user runs by name live; confine a project directory instead: %w", orig, place, ErrUnsafePolicy)
		}
	}
	for _, r := range readOnly {
		r = filepath.Clean(r)
		why := reasons[r]
		if rr, err := pathres.Resolve(r); err == nil {
			r = rr
		}
		switch {
		case r == real && why != "":
			return fmt.Errorf("confine: Policy.Sandbox %s is itself kept read-only, so nothing can run in it: %s: %w", orig, why, ErrUnsafePolicy)
		case r == real:
			return fmt.Errorf("confine: Policy.Sandbox %s is itself kept read-only (Policy.ReadOnly: a protected directory, whose files programs run: git's hooks, an editor's or an agent's settings); confine the project that holds it instead: %w", orig, ErrUnsafePolicy)
		case pathres.Within(r, real):
			return fmt.Errorf("confine: Policy.Sandbox %s lies in %s, which is kept read-only because programs run what it holds (git's hooks, an editor's or an agent's settings); confine the project that holds it instead: %w", orig, r, ErrUnsafePolicy)
		}
	}
	return nil
}

// writableRoot returns the writable place (its real path) that p lies
// beneath, or "".
func (v *view) writableRoot(p string) string {
	best := ""
	for _, w := range v.writable {
		if pathres.Within(w.Dst, p) && len(w.Dst) > len(best) {
			best = w.Dst
		}
	}
	return best
}

// visible reports whether the real path p is in the command's sight.
func (v *view) visible(p string) bool {
	if v.writableRoot(p) != "" {
		return true
	}
	for _, d := range privateDirs {
		if pathres.Within(d, p) {
			return false
		}
	}
	for _, h := range v.hiddenDirs {
		if pathres.Within(h, p) {
			return false
		}
	}
	if v.readable == nil {
		return true
	}
	for _, r := range v.readable {
		if pathres.Within(r, p) {
			return true
		}
	}
	return false
}

// addReadOnly keeps r read-only in the view. r need not exist. Every
// directory between the writable place that holds r and r is pinned, so
// that the command cannot rename it away and put another in its place; a
// missing one gets a placeholder (for r itself, a file holding content
// when isFile). A symbolic link on the way is refused: the command could
// replace the link itself. The way is walked with descriptors, each
// opened beneath the previous with no symbolic link allowed, so that a
// concurrent command cannot turn a checked directory into a link and
// have a placeholder made elsewhere. A path in a Private place is left
// alone: the command sees a copy there, not the path.
func (v *view) addReadOnly(r, content string, isFile bool) error {
	root := v.writableRoot(r)
	if root == "" {
		// Outside every writable place: read-only already, unless a
		// writable place is reached through a link, which the resolved
		// form tells.
		real, err := pathres.Resolve(r)
		if err != nil || real == r || v.writableRoot(real) == "" {
			return nil
		}
		r, root = real, v.writableRoot(real)
	}
	if v.private(root) {
		return nil
	}
	if r == root {
		return fmt.Errorf("confine: Policy.ReadOnly %q is a whole writable place: %w", r, ErrUnsafePolicy)
	}
	cur, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("confine: opening %s: %w", root, err)
	}
	defer func() { unix.Close(cur) }()
	rel := strings.Split(strings.TrimPrefix(r, root+"/"), "/")
	curPath := root
	for i, elem := range rel {
		path := filepath.Join(curPath, elem)
		last := i == len(rel)-1
		var st unix.Stat_t
		err := unix.Fstatat(cur, elem, &st, unix.AT_SYMLINK_NOFOLLOW)
		switch {
		case errors.Is(err, unix.ENOENT):
			ph := placeholder{root: root, rel: strings.Join(rel[:i+1], "/"), isFile: last && isFile, content: content}
			if err := ph.makeAt(cur, elem); err != nil {
				return fmt.Errorf("confine: making a placeholder for the read-only path %s: %w", path, err)
			}
			if err := unix.Fstatat(cur, elem, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				return fmt.Errorf("confine: the placeholder %s: %w", path, err)
			}
			ph.dev, ph.ino = uint64(st.Dev), st.Ino
			v.created = append(v.created, ph)
		case err != nil:
			return fmt.Errorf("confine: the read-only path %s: %w", path, err)
		}
		mode := st.Mode & unix.S_IFMT
		if mode == unix.S_IFLNK {
			return fmt.Errorf("confine: %s is a symbolic link inside the writable place %s, which the command could replace to get past the read-only path %s; make it a real directory or file, or drop the path from the protected ones: %w", path, root, r, ErrUnsafePolicy)
		}
		if last {
			if !slices.Contains(v.readOnly, path) {
				v.readOnly = append(v.readOnly, path)
			}
			return nil
		}
		if mode != unix.S_IFDIR {
			return nil // a file where a directory is expected: nothing can be created below it
		}
		next, err := pathres.Openat2(cur, elem, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err != nil {
			return fmt.Errorf("confine: %s changed while the command was being started: %v: %w", path, err, ErrUnsafePolicy)
		}
		unix.Close(cur)
		cur, curPath = next, path
		if !slices.Contains(v.pins, path) {
			v.pins = append(v.pins, path)
		}
	}
	return nil
}

// private reports whether the writable place root is a Private one (its
// source is a private copy).
func (v *view) private(root string) bool {
	for _, b := range v.writable {
		if b.Dst == root {
			return b.Src != b.Dst
		}
	}
	return false
}

// digest is a short, stable name for a path.
func digest(p string) string {
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:8])
}
