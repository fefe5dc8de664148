// Package userdb finds users' home directories in the system's user
// database: /etc/passwd, and getent, which consults every source the
// name service switch lists (a directory service's users are not in
// /etc/passwd).
//
// It does not use os/user, whose cgo implementation would link the C
// library into every program that imports it: a dynamically linked program
// starts more slowly, which a hook started for every tool call pays each
// time.
package userdb

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// HomeOfName returns the home directory of the user called name, as git
// finds it for a path that begins "~name/" (getpwnam): from getent first,
// which knows every source, and from /etc/passwd where getent is missing.
// It reports false when no source knows the name, the name cannot be a
// user's, or the home directory is not absolute (git cannot expand such a
// path either).
func HomeOfName(name string) (string, bool) {
	if !validName(name) {
		return "", false
	}
	if out, found, ok := getent(name); found {
		if !ok {
			return "", false // exit status 2: the name is unknown to every source
		}
		return passwdHome(bytes.NewReader(out), fieldName, name)
	}
	return fromFile(fieldName, name)
}

// HomeOfUID returns the home directory of the user with the id uid: from
// /etc/passwd first (no process start in the common case), else from
// getent.
func HomeOfUID(uid int) (string, bool) {
	key := strconv.Itoa(uid)
	if h, ok := fromFile(fieldUID, key); ok {
		return h, true
	}
	if out, found, ok := getent(key); found && ok {
		return passwdHome(bytes.NewReader(out), fieldUID, key)
	}
	return "", false
}

// The fields of a passwd entry a lookup matches.
const (
	fieldName = 0
	fieldUID  = 2
)

// lookupTimeout bounds a getent call: a name service that does not answer
// leaves the user unknown.
const lookupTimeout = 5 * time.Second

// getent runs getent passwd KEY: found is false where there is no getent,
// ok false when it failed (the key is unknown).
func getent(key string) (out []byte, found, ok bool) {
	for _, g := range []string{"/usr/bin/getent", "/bin/getent"} {
		if _, err := os.Stat(g); err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, g, "passwd", "--", key).Output()
		return out, true, err == nil
	}
	return nil, false, false
}

// fromFile looks the key up in /etc/passwd.
func fromFile(field int, key string) (string, bool) {
	f, err := os.Open("/etc/passwd")
	if err != nil {
		return "", false
	}
	defer f.Close()
	return passwdHome(f, field, key)
}

// validName reports whether name can be a user's name in a passwd entry:
// not empty, no field separator, line break or NUL, and not an option to
// getent.
func validName(name string) bool {
	return name != "" && !strings.HasPrefix(name, "-") && !strings.ContainsAny(name, ":\n\x00")
}

// passwdHome returns the home directory (the sixth field) of the first
// entry of the passwd-format text r whose field (the name's or the user
// id's) is key, when it is absolute (by user id, the first entry with an
// absolute one).
func passwdHome(r io.Reader, field int, key string) (string, bool) {
	s := bufio.NewScanner(r)
	for s.Scan() {
		fields := strings.Split(s.Text(), ":")
		if len(fields) < 7 || fields[field] != key {
			continue
		}
		if !filepath.IsAbs(fields[5]) {
			if field == fieldUID {
				continue // another entry of the same id may name one
			}
			return "", false
		}
		return fields[5], true
	}
	return "", false
}
