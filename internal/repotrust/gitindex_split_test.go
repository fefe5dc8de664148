package repotrust

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lsFilesStage returns "mode path" for each entry git ls-files --stage
// lists: the index as git assembles it.
func lsFilesStage(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(runGit(t, dir, "ls-files", "--stage")), "\n") {
		if line == "" {
			continue
		}
		meta, path, _ := strings.Cut(line, "\t")
		out = append(out, strings.Fields(meta)[0]+" "+path)
	}
	sort.Strings(out)
	return out
}

// readIndexFiles reads the index of dir's .git as IndexGitlinks does and
// returns "mode path" for each entry.
func readIndexFiles(t *testing.T, dir string) ([]string, error) {
	t.Helper()
	entries, err := readIndex(filepath.Join(dir, ".git"), 20, func(path string) ([]byte, bool, error) {
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			return nil, false, nil
		}
		return b, err == nil, err
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		out = append(out, strconv.FormatUint(uint64(e.Mode), 8)+" "+e.Path)
	}
	sort.Strings(out)
	return out, nil
}

// nestedCommit makes a repository at dir with one commit and returns the
// commit's name.
func nestedCommit(t *testing.T, dir string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	runGit(t, dir, "init", "-q")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "x")
	return strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
}

// TestReadIndexSplit: a split index (git update-index --split-index) is
// read with the shared index it names, as git assembles them; a gitlink
// is found wherever it lies: added after the split (an entry of the split
// index), recorded before it (an entry of the shared index), or replacing
// an entry of the shared index (an entry without a path in the split
// index, its path from the shared one). Deleted entries go.
func TestReadIndexSplit(t *testing.T) {
	needGit(t)
	cases := []struct {
		name    string
		version string
		steps   func(t *testing.T, sb string)
		links   []string
	}{
		{"gitlink added after the split", "", func(t *testing.T, sb string) {
			runGit(t, sb, "update-index", "--split-index")
			id := nestedCommit(t, sb+"/a/b/c/d/evil")
			runGit(t, sb, "update-index", "--add", "--cacheinfo", "160000,"+id+",a/b/c/d/evil")
		}, []string{"a/b/c/d/evil"}},
		{"gitlink in the shared index", "", func(t *testing.T, sb string) {
			id := nestedCommit(t, sb+"/deep/evil")
			runGit(t, sb, "update-index", "--add", "--cacheinfo", "160000,"+id+",deep/evil")
			runGit(t, sb, "update-index", "--split-index")
		}, []string{"deep/evil"}},
		{"gitlink replacing an entry of the shared index", "", func(t *testing.T, sb string) {
			writeFile(t, sb+"/a/b/c/d/evil", "x\n", 0o644)
			runGit(t, sb, "add", "a")
			runGit(t, sb, "update-index", "--split-index")
			require.NoError(t, os.Remove(sb+"/a/b/c/d/evil"))
			id := nestedCommit(t, sb+"/a/b/c/d/evil")
			runGit(t, sb, "update-index", "--cacheinfo", "160000,"+id+",a/b/c/d/evil")
		}, []string{"a/b/c/d/evil"}},
		{"gitlink replacing an entry of the shared index, version 4", "4", func(t *testing.T, sb string) {
			writeFile(t, sb+"/x/evil", "x\n", 0o644)
			writeFile(t, sb+"/x/other", "x\n", 0o644)
			runGit(t, sb, "add", "x")
			runGit(t, sb, "update-index", "--split-index")
			require.NoError(t, os.Remove(sb+"/x/evil"))
			id := nestedCommit(t, sb+"/x/evil")
			runGit(t, sb, "update-index", "--cacheinfo", "160000,"+id+",x/evil")
			writeFile(t, sb+"/x/other", "y\n", 0o644)
			runGit(t, sb, "add", "x/other")
		}, []string{"x/evil"}},
		{"shared gitlink deleted in the split index", "", func(t *testing.T, sb string) {
			id := nestedCommit(t, sb+"/gone")
			runGit(t, sb, "update-index", "--add", "--cacheinfo", "160000,"+id+",gone")
			runGit(t, sb, "update-index", "--split-index")
			runGit(t, sb, "update-index", "--force-remove", "gone")
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sb := newRepo(t)
			if tc.version != "" {
				runGit(t, sb, "update-index", "--index-version", tc.version)
			}
			tc.steps(t, sb)
			matches, _ := filepath.Glob(sb + "/.git/sharedindex.*")
			require.NotEmpty(t, matches, "no shared index was made")
			b, err := os.ReadFile(sb + "/.git/index")
			require.NoError(t, err)
			_, err = parseIndex(b, 20)
			require.Error(t, err, "parseIndex reads one whole index only")

			got, err := readIndexFiles(t, sb)
			require.NoError(t, err)
			assert.Equal(t, lsFilesStage(t, sb), got)
			links, err := IndexGitlinks(sb+"/.git", 20)
			require.NoError(t, err)
			assert.Equal(t, tc.links, links)
		})
	}
}

// TestReadIndexOffsets: an index that git may read with threads (an
// end-of-entries extension and an entry offset table, which real git
// writes when configured to) is read when the tables agree with the
// entries, in both versions.
func TestReadIndexOffsets(t *testing.T) {
	needGit(t)
	for _, v := range []string{"2", "4"} {
		sb := newRepo(t)
		for _, n := range []string{"d/one", "d/two", "e/three"} {
			writeFile(t, sb+"/"+n, n, 0o644)
		}
		runGit(t, sb, "add", ".")
		other := map[string]string{"2": "4", "4": "2"}[v]
		runGit(t, sb, "update-index", "--index-version", other) // so that the next one writes
		runGit(t, sb, "-c", "index.threads=4", "-c", "index.recordEndOfIndexEntries=true", "-c", "index.recordOffsetTable=true",
			"update-index", "--index-version", v)
		b, err := os.ReadFile(sb + "/.git/index")
		require.NoError(t, err)
		require.Contains(t, string(b), "IEOT", "version %s: git wrote no offset table", v)
		require.Contains(t, string(b), "EOIE", "version %s: git wrote no end-of-entries extension", v)
		got, err := readIndexFiles(t, sb)
		require.NoError(t, err, "version %s", v)
		assert.Equal(t, lsFilesStage(t, sb), got, "version %s", v)
	}
}

// TestReadIndexRefusals: what git would read otherwise than the reader,
// or refuse, is not understood.
func TestReadIndexRefusals(t *testing.T) {
	needGit(t)
	split := func(t *testing.T) string {
		sb := newRepo(t)
		writeFile(t, sb+"/b.txt", "b\n", 0o644)
		runGit(t, sb, "add", "b.txt")
		runGit(t, sb, "update-index", "--split-index")
		writeFile(t, sb+"/c.txt", "c\n", 0o644)
		runGit(t, sb, "add", "c.txt")
		return sb
	}
	index := func(t *testing.T, sb string) []byte {
		b, err := os.ReadFile(sb + "/.git/index")
		require.NoError(t, err)
		return b
	}
	cases := []struct {
		name string
		make func(t *testing.T) string
	}{
		{"the shared index is missing", func(t *testing.T) string {
			sb := split(t)
			m, _ := filepath.Glob(sb + "/.git/sharedindex.*")
			for _, f := range m {
				require.NoError(t, os.Remove(f))
			}
			return sb
		}},
		{"the shared index is itself split", func(t *testing.T) string {
			sb := split(t)
			m, _ := filepath.Glob(sb + "/.git/sharedindex.*")
			require.NotEmpty(t, m)
			for _, f := range m {
				require.NoError(t, os.WriteFile(f, index(t, sb), 0o644))
			}
			return sb
		}},
		{"a path length that disagrees with the path", func(t *testing.T) string {
			sb := newRepo(t)
			b := index(t, sb)
			// The first entry's flags: its path is a.txt (5 bytes).
			flags := binary.BigEndian.Uint16(b[12+60:])
			binary.BigEndian.PutUint16(b[12+60:], flags&^0xfff|9)
			require.NoError(t, os.WriteFile(sb+"/.git/index", b, 0o644))
			return sb
		}},
		{"a required extension not understood", func(t *testing.T) string {
			sb := newRepo(t)
			b := index(t, sb)
			b = append(b[:len(b)-20:len(b)-20], append([]byte("zzzz\x00\x00\x00\x00"), b[len(b)-20:]...)...)
			require.NoError(t, os.WriteFile(sb+"/.git/index", b, 0o644))
			return sb
		}},
		{"an end-of-entries offset elsewhere", func(t *testing.T) string {
			sb := newRepo(t)
			runGit(t, sb, "update-index", "--index-version", "4")
			runGit(t, sb, "-c", "index.threads=4", "-c", "index.recordEndOfIndexEntries=true", "update-index", "--index-version", "2")
			b := index(t, sb)
			eoie := len(b) - 20 - 32
			require.Equal(t, "EOIE", string(b[eoie:eoie+4]))
			binary.BigEndian.PutUint32(b[eoie+8:], binary.BigEndian.Uint32(b[eoie+8:])+8)
			require.NoError(t, os.WriteFile(sb+"/.git/index", b, 0o644))
			return sb
		}},
		{"an entry offset table that disagrees", func(t *testing.T) string {
			sb := newRepo(t)
			writeFile(t, sb+"/b.txt", "b\n", 0o644)
			runGit(t, sb, "add", "b.txt")
			runGit(t, sb, "update-index", "--index-version", "4")
			runGit(t, sb, "-c", "index.threads=4", "-c", "index.recordOffsetTable=true", "update-index", "--index-version", "2")
			b := index(t, sb)
			i := strings.Index(string(b), "IEOT")
			require.Positive(t, i)
			// The second block's offset.
			binary.BigEndian.PutUint32(b[i+8+4+8:], binary.BigEndian.Uint32(b[i+8+4+8:])+8)
			require.NoError(t, os.WriteFile(sb+"/.git/index", b, 0o644))
			return sb
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sb := tc.make(t)
			_, err := readIndexFiles(t, sb)
			assert.Error(t, err)
			_, err = IndexGitlinks(sb+"/.git", 20)
			assert.Error(t, err)
		})
	}
}

// TestEwahBits: bitmaps as git writes them, and ones naming positions no
// index has.
func TestEwahBits(t *testing.T) {
	word := func(w uint64) []byte { return binary.BigEndian.AppendUint64(nil, w) }
	bitmap := func(bits uint32, words ...uint64) []byte {
		b := binary.BigEndian.AppendUint32(nil, bits)
		b = binary.BigEndian.AppendUint32(b, uint32(len(words)))
		for _, w := range words {
			b = append(b, word(w)...)
		}
		return binary.BigEndian.AppendUint32(b, 0)
	}
	cases := []struct {
		name string
		b    []byte
		bits []uint64
		ok   bool
	}{
		{"empty", bitmap(0, 0), nil, true},
		{"literal 0b111", bitmap(3, 1<<33, 7), []uint64{0, 1, 2}, true},
		{"a zero run then a literal", bitmap(130, 2<<1|1<<33, 1<<1), []uint64{129}, true},
		{"a run of ones", bitmap(128, 2<<1|1), seq(128), true},
		{"literal words beyond the bitmap", bitmap(64, 2<<33), nil, false},
		{"a run beyond any index", bitmap(0, 0xffffffff<<1|1), nil, false},
		{"truncated", bitmap(3, 1<<33, 7)[:12], nil, false},
	}
	for _, tc := range cases {
		bits, n, err := ewahBits(tc.b)
		if !tc.ok {
			assert.Error(t, err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		assert.Equal(t, len(tc.b), n, tc.name)
		assert.Equal(t, tc.bits, bits, tc.name)
	}
}

func seq(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i)
	}
	return out
}

// TestGitlinkInSplitIndex: the facts of a git command read a split index
// with its shared index: a gitlink that replaces an entry of the shared
// index is a submodule whose configuration is judged, and the split
// index itself is no problem.
func TestGitlinkInSplitIndex(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	writeFile(t, sb+"/m", "x\n", 0o644)
	runGit(t, sb, "add", "m")
	runGit(t, sb, "update-index", "--split-index")
	ok, reason := decideIn(t, sb, sb, nil, "status")
	require.True(t, ok, reason)
	require.NoError(t, os.Remove(sb+"/m"))
	id := nestedCommit(t, sb+"/m")
	runGit(t, sb, "update-index", "--cacheinfo", "160000,"+id+",m")
	ok, reason = decideIn(t, sb, sb, nil, "status")
	require.True(t, ok, reason)
	appendFile(t, sb+"/m/.git/config", "[core]\n\tfsmonitor = ./m.sh\n")
	ok, reason = decideIn(t, sb, sb, nil, "status")
	assert.False(t, ok)
	assert.Contains(t, reason, "core.fsmonitor")
}
