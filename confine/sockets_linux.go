package confine

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// listeningSockets returns the paths of the pathname UNIX sockets bound in
// the calling process's network namespace, as /proc/net/unix lists them
// (abstract sockets, whose names start with '@', are left out: a network
// namespace of its own, or Landlock's scoping, keeps a confined command
// from them).
func listeningSockets() []string {
	b, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Scan() // the header
	for sc.Scan() {
		// Num RefCount Protocol Flags Type St Inode [Path]
		f := strings.Fields(sc.Text())
		if len(f) < 8 {
			continue
		}
		p := strings.Join(f[7:], " ")
		if !strings.HasPrefix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// outsideSockets returns, of the socket paths given, the real paths of
// those that exist, are sockets, and would be reachable by the command
// (reachable says so of a real path): they are masked in its view. Each
// mask is a mount, and a mount onto a socket that went away meanwhile
// (its program ended) fails the start, so only the sockets the command
// could reach otherwise are masked. Connecting to a socket needs no more than
// seeing it, so a socket of an outside program (a session bus, a
// container engine, a terminal multiplexer, an editor's server) in a
// readable or writable place would otherwise let the command ask that
// program to act for it, unconfined.
func (v *view) outsideSockets(paths []string, reachable func(string) bool) []string {
	var out []string
	for _, p := range paths {
		real, err := pathres.Resolve(filepath.Clean(p))
		if err != nil {
			continue
		}
		fi, err := os.Lstat(real)
		if err != nil || fi.Mode().Type() != fs.ModeSocket || !reachable(real) {
			continue
		}
		out = append(out, real)
	}
	return out
}
