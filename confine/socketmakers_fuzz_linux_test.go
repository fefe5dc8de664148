package confine

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// diagMessage is one netlink message of a UNIX socket dump, as the kernel
// sends it: a struct unix_diag_msg for the socket of inode sock, with a
// UNIX_DIAG_VFS attribute (dev, ino) when vfs is set.
func diagMessage(seq, sock uint32, vfs bool, dev, ino uint32) []byte {
	ne := binary.NativeEndian
	body := make([]byte, unixDiagMsgLen)
	body[0], body[1], body[2] = unix.AF_UNIX, unix.SOCK_STREAM, tcpListen
	ne.PutUint32(body[4:], sock)
	if vfs {
		attr := make([]byte, nlattrHdrLen+unixDiagVFSLen)
		ne.PutUint16(attr[0:], uint16(len(attr)))
		ne.PutUint16(attr[2:], unixDiagVFS)
		ne.PutUint32(attr[4:], ino)
		ne.PutUint32(attr[8:], dev)
		// An attribute before it, of another kind (UNIX_DIAG_NAME, 3
		// bytes and padding).
		name := []byte{7, 0, 0, 0, 'a', '.', 's', 0}
		body = append(append(body, name...), attr...)
	}
	return netlinkMessage(seq, sockDiagByFamily, 0, body)
}

// netlinkMessage is a netlink message of kind, flags and seq around body,
// padded to 4 bytes.
func netlinkMessage(seq uint32, kind, flags uint16, body []byte) []byte {
	ne := binary.NativeEndian
	m := make([]byte, nlmsgHdrLen, nlmsgHdrLen+len(body)+3)
	ne.PutUint32(m[0:], uint32(nlmsgHdrLen+len(body)))
	ne.PutUint16(m[4:], kind)
	ne.PutUint16(m[6:], flags)
	ne.PutUint32(m[8:], seq)
	m = append(m, body...)
	for len(m)%4 != 0 {
		m = append(m, 0)
	}
	return m
}

// done is the NLMSG_DONE message ending a dump, with status.
func doneMessage(seq uint32, status int32) []byte {
	b := make([]byte, 4)
	binary.NativeEndian.PutUint32(b, uint32(status))
	return netlinkMessage(seq, unix.NLMSG_DONE, unix.NLM_F_MULTI, b)
}

// TestParseDiagBatch: the dump's datagrams are read as the kernel writes
// them, and whatever does not parse fails (the guard then refuses).
func TestParseDiagBatch(t *testing.T) {
	const seq, dev, ino = 1, 254 << 20, 4242
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	for _, tc := range []struct {
		name        string
		batch       []byte
		found       []uint32
		done, fails bool
		interrupted bool
	}{
		{"the socket bound to the file, then the end", cat(diagMessage(seq, 7, true, dev, ino+1), diagMessage(seq, 8, true, dev, ino), diagMessage(seq, 9, false, 0, 0), doneMessage(seq, 0)), []uint32{8}, true, false, false},
		{"another device", cat(diagMessage(seq, 8, true, dev+1, ino), doneMessage(seq, 0)), nil, true, false, false},
		{"not done yet", diagMessage(seq, 8, true, dev, ino), []uint32{8}, false, false, false},
		{"interrupted", cat(netlinkMessage(seq, unix.NLMSG_DONE, unix.NLM_F_DUMP_INTR, make([]byte, 4))), nil, true, false, true},
		{"the dump failed", doneMessage(seq, -int32(unix.ENOENT)), nil, false, true, false},
		{"an error message", netlinkMessage(seq, unix.NLMSG_ERROR, 0, []byte{0xfe, 0xff, 0xff, 0xff}), nil, false, true, false},
		{"another sequence", diagMessage(seq+1, 8, true, dev, ino), nil, false, true, false},
		{"another kind", netlinkMessage(seq, 99, 0, nil), nil, false, true, false},
		{"a cut message", diagMessage(seq, 8, true, dev, ino)[:20], nil, false, true, false},
		{"a cut header", []byte{1, 2, 3}, nil, false, true, false},
		{"a short VFS attribute", netlinkMessage(seq, sockDiagByFamily, 0, append(make([]byte, unixDiagMsgLen), 6, 0, unixDiagVFS, 0, 1, 2)), nil, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "a short VFS attribute" {
				tc.batch[nlmsgHdrLen] = unix.AF_UNIX
			}
			found, done, interrupted, err := parseDiagBatch(tc.batch, seq, dev, ino, nil)
			if tc.fails {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			var socks []uint32
			for _, l := range found {
				socks = append(socks, l.socketIno)
			}
			assert.Equal(t, tc.found, socks)
			assert.Equal(t, tc.done, done)
			assert.Equal(t, tc.interrupted, interrupted)
		})
	}
}

// FuzzParseDiagBatch: no datagram makes the parser fail other than by an
// error, and a listener is found only when a message carries the file's
// device and inode.
func FuzzParseDiagBatch(f *testing.F) {
	const seq, dev, ino = 1, 254 << 20, 4242
	f.Add(append(diagMessage(seq, 8, true, dev, ino), doneMessage(seq, 0)...))
	f.Add(diagMessage(seq, 8, false, 0, 0))
	f.Add(doneMessage(seq, -int32(unix.EINVAL)))
	f.Add(netlinkMessage(seq, sockDiagByFamily, 0, []byte{unix.AF_UNIX}))
	f.Fuzz(func(t *testing.T, batch []byte) {
		found, _, _, err := parseDiagBatch(batch, seq, dev, ino, nil)
		if err != nil && found != nil {
			t.Fatalf("%q: listeners found with an error", batch)
		}
		for range found {
			var want [8]byte
			binary.NativeEndian.PutUint32(want[0:], ino)
			binary.NativeEndian.PutUint32(want[4:], dev)
			if !bytes.Contains(batch, want[:]) {
				t.Fatalf("%q: a listener found where no message names the file", batch)
			}
		}
	})
}
