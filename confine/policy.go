package confine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrUnavailable is wrapped by every error that says this machine cannot
// enforce what a Policy asks (no bubblewrap, no user namespaces, a kernel
// without a needed feature, an operating system other than Linux). When
// Start returns it, nothing was started.
var ErrUnavailable = errors.New("confinement unavailable")

// ErrUnsafePolicy is wrapped by the errors of a Policy that would leave a
// way out of the sandbox: a writable entry inside the sandbox or under a
// hidden path, or a read-only path reached through a symbolic link the
// command could replace. Nothing was started.
var ErrUnsafePolicy = errors.New("unsafe confinement policy")

// Policy says what a confined command may do. The zero value is not valid:
// Sandbox must be set.
type Policy struct {
	// Sandbox is the absolute path of the directory beneath which the
	// command may create, write, rename and delete files. It must exist and
	// may not be "/".
	Sandbox string

	// Writable lists more absolute paths the command may write beneath,
	// shared with the rest of the system: what it writes there stays, and
	// other programs see it. An entry may name a file. Entries that do not
	// exist are skipped. An entry inside Sandbox, under a Hidden path, or
	// that contains the user's home directory is refused (ErrUnsafePolicy).
	Writable []string

	// Private lists directories (caches that other builds trust, such as
	// Go's build cache) that the command may write through a copy of its
	// own: in its view each is replaced by a directory kept for this
	// Sandbox under PrivateRoot, empty the first time and kept from one run
	// to the next. What it writes there is never seen outside confinement.
	Private []string

	// PrivateRoot is where the private copies are kept; empty means
	// sandboxauth/private in the user's cache directory.
	PrivateRoot string

	// ReadOnly lists paths beneath Sandbox or Writable that stay read-only
	// to the command, whether or not they exist yet: it can neither
	// change, replace, delete nor create them. (Files that make other
	// programs run code later: .git/config, .git/hooks, editor and agent
	// settings.) For one that does not exist, an empty directory is
	// created in its place while the command runs and removed when the
	// last confined command of the sandbox has ended. A path reached
	// through a symbolic link inside a writable place is refused
	// (ErrUnsafePolicy): the command could replace the link.
	ReadOnly []string

	// ReadOnlyReasons gives, for ReadOnly paths, why each is kept, in
	// words for the person who can change it (what makes it run code, and
	// how to keep it from being kept whole). It changes nothing of the
	// confinement: it is said in the error when a kept path covers the
	// sandbox itself, which confinement refuses.
	ReadOnlyReasons map[string]string

	// Placeholders gives, for ReadOnly paths that may be missing, the
	// contents of a file to put in their place instead of an empty
	// directory: for a path that a program reads when it exists, a
	// placeholder the program takes as it takes the path's absence (git
	// reads a commondir of "." as none).
	Placeholders map[string]string

	// Shown gives, for ReadOnly paths that are files, the content the
	// command reads there instead of the file's own. An existing file is
	// covered, in the command's view only, by a read-only file holding
	// that content; the real file is not changed. A missing one gets a
	// placeholder holding it (as with Placeholders, which Shown overrides)
	// inside the writable places, and is left missing outside them.
	// sandboxauth shows git a .git/info/exclude that also names the
	// sandbox's placeholders, so that `git add -A` does not stage them.
	Shown map[string]string

	// Hidden lists paths the command cannot read: a directory shows empty;
	// a file shows empty outside the writable places (a program reading
	// ~/.npmrc as settings takes it for none) and, inside them, as a
	// device that cannot be opened (git refuses to stage it); neither can
	// be written. Missing entries are
	// skipped, but for a ReadOnly one: the command sees a copy of its
	// placeholder's content (a file) or an empty directory, never what
	// is written into the placeholder while it runs. The copies left
	// beside a hidden path are hidden with it (NAME~, NAME.~1~, #NAME#,
	// .NAME.swp, .NAME.un~, .NAME.kate-swp, NAME.bak, NAME.backup.N, NAME.old,
	// NAME.orig, NAME.dpkg-old, NAME-, NAME,v, "NAME (copy)", "NAME (1)",
	// "NAME copy", "Copy of NAME", NAME.tar.gz, NAME.zip, ...; not
	// NAME.example or NAME.pub), and so is
	// what a symbolic link inside an existing hidden directory leads to
	// (four levels down, 512 entries a directory, two links deep): a link
	// there to the root, a home or a directory holding the sandbox, or
	// a Writable or Private entry overlapping what a link leads to, is
	// refused (ErrUnsafePolicy), and so is a sandbox inside a hidden
	// directory. DefaultPolicy hides the user's credentials.
	Hidden []string

	// HiddenEnv lists environment variables the command does not get:
	// exact names, or patterns with one '*' at the start or the end
	// ("*_TOKEN", "AWS_*"). Matching ignores case. DefaultPolicy hides
	// the usual names of credentials (see CredentialEnv).
	HiddenEnv []string

	// HiddenEnvUserinfo lists environment variables (patterns as in
	// HiddenEnv) that the command gets without the user names and
	// passwords of the URLs in their values: "scheme://user:pw@host/..."
	// becomes "scheme://host/...", and a proxy variable (a name ending in
	// PROXY, any case) without a scheme, "user:pw@proxy:3128", becomes
	// "proxy:3128". The variable and the rest of its value are kept, so
	// that a command allowed the network still goes through the proxy
	// HTTPS_PROXY names; a proxy that wants a password then refuses it
	// (407), as it refuses anyone who does not know the password.
	// DefaultPolicy lists every variable ("*"): a password inside a URL
	// is a credential under any name.
	HiddenEnvUserinfo []string

	// Readable restricts reads when non-nil: the command then sees only
	// Sandbox, Writable, Private, Readable, the program it runs and the
	// system directories a program needs to start (/usr, /bin, /sbin,
	// /lib*, /etc, /opt); the rest of the file system is absent. nil
	// shows the whole file system, read-only, less Hidden.
	Readable []string

	// AfterExit, when set, is called once the command and everything it
	// started have ended, before cmd.Wait returns: the caller's last look
	// at what the command left in its sandbox (sandboxauth's
	// ProtectConfinement moves aside protected files it created where no
	// mount could stop it). By then the sandbox is as confinement found
	// it (the placeholders of missing read-only paths are gone, device
	// nodes and terminals put back), so a caller whose AfterExit has
	// returned may exit at once. It runs on the thread that started the
	// command and must not block for long.
	AfterExit func()

	// MountsHeld, when set, is called once the command and everything it
	// started have ended, just before AfterExit, with whether every mount
	// that keeps a path inside the writable places (the ReadOnly paths
	// there and their placeholders, the Hidden and Shown ones, the pins)
	// held in the command's view until nothing of the command was left.
	// When true, the command wrote nothing at or below those paths: what
	// is there now was put there from outside its view (by the user, while
	// it ran). False when a mount was detached (a rename or removal
	// outside, which also stops the command), or the sandbox ended without
	// the helper's word (a kill from outside): then what lies there may
	// be the command's.
	MountsHeld func(held bool)

	// Network gives the command the machine's network. When false, it has
	// a network of its own with only a loopback interface: servers it
	// starts on 127.0.0.1 or ::1 and their clients in the same command
	// work; nothing outside is reachable, DNS included.
	Network bool
}

// systemReadable returns the directories a Policy with Readable set shows
// every command: the system's programs, libraries and configuration. It
// is a fresh copy.
func systemReadable() []string {
	return []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"}
}

// check validates p and cmd before anything is opened.
func (p *Policy) check(cmd *exec.Cmd) error {
	if cmd == nil {
		return errors.New("confine: cmd is nil")
	}
	if cmd.Process != nil {
		return errors.New("confine: the command was already started")
	}
	if cmd.Err != nil {
		return cmd.Err
	}
	if p.Sandbox == "" {
		return errors.New("confine: Policy.Sandbox is empty; name the directory the command may write beneath")
	}
	if err := checkPath("Sandbox", p.Sandbox); err != nil {
		return err
	}
	if filepath.Clean(p.Sandbox) == "/" {
		return fmt.Errorf("confine: Policy.Sandbox is \"/\", which would make the whole file system writable: %w", ErrUnsafePolicy)
	}
	fi, err := os.Stat(p.Sandbox)
	if err != nil {
		return fmt.Errorf("confine: Policy.Sandbox: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("confine: Policy.Sandbox %q is not a directory", p.Sandbox)
	}
	lists := []struct {
		field string
		paths []string
	}{{"Writable", p.Writable}, {"Private", p.Private}, {"ReadOnly", p.ReadOnly}, {"Hidden", p.Hidden}, {"Readable", p.Readable}}
	for _, l := range lists {
		for i, w := range l.paths {
			if err := checkPath(fmt.Sprintf("%s[%d]", l.field, i), w); err != nil {
				return err
			}
		}
	}
	if p.PrivateRoot != "" {
		if err := checkPath("PrivateRoot", p.PrivateRoot); err != nil {
			return err
		}
	}
	return nil
}

func checkPath(field, p string) error {
	if p == "" || !filepath.IsAbs(p) || strings.IndexByte(p, 0) >= 0 {
		return fmt.Errorf("confine: Policy.%s %q must be an absolute path", field, p)
	}
	return nil
}
