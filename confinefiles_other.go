//go:build !linux

package sandboxauth

import (
	"errors"
	"os"
)

// Elsewhere than on Linux nothing runs confined (confine.Start refuses),
// so the quarantine never acts; its file operations find nothing and move
// nothing.

// errNoQuarantine is what the quarantine's walk gets elsewhere than on
// Linux.
var errNoQuarantine = errors.New("the quarantine's file operations need Linux")

// identify finds no identity.
func identify(path string) (fileID, bool) { return fileID{}, false }

// changeTime finds none.
func changeTime(path string) int64 { return 0 }

// quarantine moves nothing aside.
func quarantine(sandbox, path string) bool { return false }

// readDir reads nothing.
func (c *confinePaths) readDir(dir string) ([]os.DirEntry, error) { return nil, errNoQuarantine }

// scanDeep finds nothing.
func (c *confinePaths) scanDeep(mode scanMode) *deepScan { return newDeepScan() }
