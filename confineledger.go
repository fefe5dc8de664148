package sandboxauth

import (
	"bufio"
	"fmt"
	"os"

	"github.com/sandboxauth/sandboxauth/confine"
)

// quarantineLedger is the record of what the quarantine moved aside in one
// sandbox: the identities of git directories and .git files and links. A
// confined command could rename them back, in a later run or in one that
// ran beside the run that moved them (which saw them, before its command
// started, as if they were the user's); the deep scan takes any identity
// in the ledger for new, wherever it lies. The file lives in
// confinement's record directory (confine.RecordDir), out of every
// confined command's reach. A nil ledger records nothing and knows
// nothing (the record directory could not be made).
type quarantineLedger struct {
	path string
}

// openLedger returns the ledger of p's sandbox.
func openLedger(p confine.Policy) *quarantineLedger {
	path, err := confine.SandboxRecord(p, "quarantined")
	if err != nil {
		return nil
	}
	return &quarantineLedger{path: path}
}

// read returns the identities recorded so far.
func (l *quarantineLedger) read() map[fileID]bool {
	ids := map[fileID]bool{}
	if l == nil {
		return ids
	}
	f, err := os.Open(l.path)
	if err != nil {
		return ids
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var id fileID
		if n, _ := fmt.Sscanf(sc.Text(), "%d %d %d %d", &id.dev, &id.ino, &id.birth.sec, &id.birth.nsec); n == 4 {
			ids[id] = true
		}
	}
	return ids
}

// add records id (one line, appended: concurrent runs add theirs too).
func (l *quarantineLedger) add(id fileID) {
	if l == nil {
		return
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = fmt.Fprintf(f, "%d %d %d %d\n", id.dev, id.ino, id.birth.sec, id.birth.nsec)
}
