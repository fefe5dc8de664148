package repotrust

import (
	"bytes"
	"path/filepath"
)

// storedFileLimit bounds the work-tree files StoredFiles compares.
const storedFileLimit = 1 << 20

// StoredFiles returns, with their content as read, those of the files
// rels (slash-separated, relative
// to workTree, the work tree of the git directory gitDir, whose common
// directory is common) that hold exactly what their index entry names: a
// blob that the repository's object store holds, with the same bytes.
// Their content is readable to whoever can read the store (git show
// :PATH), so hiding the file itself keeps nothing secret. A file that
// differs from its entry (a tracked .env with local secrets), is larger
// than 1 MiB or not a regular file, an entry not at stage 0 or not a
// regular file, and any index or object not understood leave the path
// out: it is then not known to be stored.
func StoredFiles(gitDir, common string, hashLen int, workTree string, rels []string) map[string][]byte {
	if len(rels) == 0 {
		return nil
	}
	entries, err := readIndexUntrusted(gitDir, hashLen)
	if err != nil {
		return nil
	}
	want := map[string]bool{}
	for _, r := range rels {
		want[r] = true
	}
	r := &objectReader{objects: filepath.Join(common, "objects"), hashLen: hashLen}
	defer r.close()
	out := map[string][]byte{}
	for _, e := range entries {
		if !want[e.Path] || e.Stage != 0 || (e.Mode != 0o100644 && e.Mode != 0o100755) {
			continue
		}
		want[e.Path] = false // an entry twice is not understood: the first decides
		own, err := ReadUntrusted(filepath.Join(workTree, filepath.FromSlash(e.Path)), storedFileLimit)
		if err != nil {
			continue
		}
		typ, body, err := r.read(e.ID)
		if err != nil || typ != "blob" || !bytes.Equal(body, own) {
			continue
		}
		out[e.Path] = own
	}
	return out
}
