package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFamilies reads real command lines with each family's specs. Verdicts:
// "ok" (understood and harmless), "unknown" (a word the spec does not know:
// asked about) and "unsafe" (understood, and it does something unsafe).
func TestFamilies(t *testing.T) {
	tests := []formCase{
		// builtins and coreutils
		{"printf %s x", 0, "ok", nil},
		{"printf -v PATH %s /tmp", 0, "unsafe", nil},
		{"date +%s", 0, "ok", nil},
		{"date 010100002030", 0, "unsafe", nil},
		{"date -d yesterday +%F", 0, "ok", nil},
		{"hostname -f", 0, "ok", nil},
		{"hostname evil", 0, "unknown", nil},
		{"uniq -c a.txt", 0, "ok", []Arg{{"a.txt", Read}}},
		{"uniq a.txt out.txt", 0, "unknown", nil},
		{"strings -n 8 bin", 0, "ok", []Arg{{"bin", Read}}},
		{"strings @args", 0, "unsafe", nil},
		{"sha256sum -c sums", 0, "unsafe", nil},
		{"du -sh .", 0, "ok", []Arg{{".", Read}}},
		{"du -L .", 0, "unsafe", nil},
		{"tr a-z A-Z", 0, "ok", []Arg{}},
		{"basename /etc/passwd .x", 0, "ok", []Arg{}},
		// fileutils
		{"rm a.txt", 0, "ok", []Arg{{"a.txt", Write}}},
		{"rm -rf build", 0, "unsafe", nil},
		{"rm --recurs build", 0, "unsafe", nil},
		{"cp -t dst a b", 0, "ok", []Arg{{"dst", Write}, {"a", Write}, {"b", Write}}},
		{"cp -L a b", 0, "unsafe", nil},
		{"mv --backup=t a b", 0, "unsafe", nil},
		{"touch -r ref new", 0, "ok", []Arg{{"ref", Read}, {"new", Write}}},
		{"diff -u a b", 0, "ok", []Arg{{"a", Read}, {"b", Read}}},
		{"diff -r a b", 0, "unsafe", nil},
		{"ls -la --color=auto", 0, "ok", []Arg{}},
		{"tree -L 2 -o out", 0, "unsafe", nil},
		// find and fd
		{"find . -name *.go -type f -print", 0, "ok", []Arg{{".", Read}}},
		{"find . -newer ref -o -name x", 0, "ok", []Arg{{"ref", Read}, {".", Read}}},
		{"find . -exec rm {} ;", 0, "unsafe", nil},
		{"find . -delete", 0, "unsafe", nil},
		{"find -L .", 0, "unsafe", nil},
		{"find . -newermt 2020", 0, "unknown", nil},
		{"fd -e go . src", 0, "ok", []Arg{{"src", Read}}},
		{"fd -x rm", 0, "unsafe", nil},
		// sed, awk, jq
		{"sed -n 1,5p a.txt", 0, "ok", []Arg{{"a.txt", Read}}},
		{"sed -e s/a/b/ -e 1d a.txt", 0, "ok", []Arg{{"a.txt", Read}}},
		{"sed s/a/b/w/tmp/x a.txt", 0, "unsafe", nil},
		{"sed -ne 1e/bin/sh a.txt", 0, "unsafe", nil},
		{"sed -i s/a/b/ a.txt", 0, "unsafe", nil},
		{"sed --in-pl=.bak s/a/b/ a.txt", 0, "unsafe", nil},
		{"awk -F: {print$1} a.txt", 0, "ok", []Arg{{"a.txt", Read}}},
		{"awk {system(\"id\")}", 0, "unsafe", nil},
		{"gawk -e {print} -f x.awk", 0, "unsafe", nil},
		{"jq -r .name package.json", 0, "ok", []Arg{{"package.json", Read}}},
		{"jq --arg k v .[$k] a.json", 0, "ok", []Arg{{"a.json", Read}}},
		{"jq --rawfile k secret.txt . a.json", 0, "ok", []Arg{{"secret.txt", Read}, {"a.json", Read}}},
		{"jq env.HOME", 0, "unsafe", nil},
		{"jq -n $ENV", 0, "unsafe", nil},
		{"jq .env a.json", 0, "ok", nil},
		{"jq -L /tmp import \"x\" as x; .", 0, "unsafe", nil},
		// archives
		{"tar -tzf a.tgz", 0, "ok", []Arg{{"a.tgz", Read}}},
		{"tar tvf a.tar", 0, "ok", []Arg{{"a.tar", Read}}},
		{"tar tf a.tar -C /etc", 0, "ok", []Arg{{"a.tar", Read}, {"/etc", Read}}},
		{"tar xf a.tar", 0, "unsafe", nil},
		{"tar -tf host:a.tar", 0, "unsafe", nil},
		{"tar -tf host:a.tar --force-local", 0, "ok", nil},
		{"tar -tf a.tar --to-command=sh", 0, "unsafe", nil},
		{"tar -cf a.tar .", 0, "ok", []Arg{{"a.tar", Write}, {".", ReadTree}}},
		{"unzip -l a.zip", 1, "ok", []Arg{{"a.zip", Read}}},
		{"unzip -l a.zip -d /tmp", 1, "unknown", nil},
		// git
		{"git status -sb", 1, "ok", nil},
		{"git log --oneline -20", 1, "ok", nil},
		{"git log --format=%G? -1", 1, "unsafe", nil},
		{"git log --show-sig", 1, "unsafe", nil},
		{"git log --ext-diff", 1, "unsafe", nil},
		{"git diff --output=/tmp/x", 1, "unsafe", nil},
		{"git diff --no-index a b", 1, "unsafe", nil},
		{"git diff --stat HEAD~1", 1, "ok", nil},
		{"git shortlog -sn", 1, "ok", nil},
		{"git branch -a", 1, "ok", nil},
		{"git branch feature", 1, "unsafe", nil},
		{"git branch -D feature", 1, "unsafe", nil},
		{"git branch --list feat*", 1, "ok", nil},
		{"git tag -l v*", 1, "ok", nil},
		{"git tag v1.0", 1, "unsafe", nil},
		{"git reflog", 1, "ok", nil},
		{"git reflog expire --all", 1, "unsafe", nil},
		{"git config user.name", 1, "ok", nil},
		{"git config user.name evil", 1, "unsafe", nil},
		{"git config --get core.editor", 1, "ok", nil},
		{"git config --list", 1, "unsafe", nil},
		{"git config --list --local", 1, "ok", nil},
		{"git config --global --list", 1, "unsafe", nil},
		{"git config --get credential.helper", 1, "unsafe", nil},
		{"git config get user.email", 2, "ok", nil},
		{"git add -p", 1, "unsafe", nil},
		{"git add -A", 1, "ok", nil},
		{"git grep -n KEY", 1, "ok", []Arg{{".", ReadTree}}},
		{"git grep -O KEY", 1, "unsafe", nil},
		{"git help -w log", 1, "unsafe", nil},
		{"git blame --contents /etc/passwd a.go", 1, "unsafe", nil},
		// go
		{"go test ./... -run TestX -count=1", 1, "ok", nil},
		{"go test -exec sh ./...", 1, "unsafe", nil},
		{"go test -toolexec=x ./...", 1, "unsafe", nil},
		{"go test ./... -args -foo", 1, "ok", nil},
		{"go build -o bin/app ./cmd/app", 1, "ok", []Arg{{"bin/app", Write}}},
		{"go build -ldflags=-X ./...", 1, "unsafe", nil},
		{"go vet -vettool=/x ./...", 1, "unsafe", nil},
		{"go list -m -u all", 1, "unsafe", nil},
		{"go env GOPATH", 1, "ok", nil},
		{"go env -w GOPROXY=x", 1, "unsafe", nil},
		{"gofmt -l .", 0, "ok", []Arg{{".", Read}}},
		{"gofmt -w .", 0, "unsafe", nil},
		// rust
		{"cargo test --workspace", 1, "ok", nil},
		{"cargo build --config build.rustc-wrapper=x", 1, "unsafe", nil},
		{"cargo clippy -- -D warnings", 1, "ok", nil},
		{"cargo fmt --check", 1, "ok", nil},
		{"cargo fmt -- --check", 1, "ok", nil},
		{"cargo fmt", 1, "ok", nil}, // rewrites sources: project code (TestRunsProjectCode)
		{"cargo fmt -- --emit files", 1, "unknown", nil},
		{"rustfmt --check src/main.rs", 0, "ok", []Arg{{"src/main.rs", Read}}},
		{"rustfmt src/main.rs", 0, "unsafe", nil},
		// node, python
		{"npm ls --depth=0", 1, "ok", nil},
		{"npm ls -g", 1, "unsafe", nil},
		{"tsc --noEmit -p tsconfig.json", 1, "ok", []Arg{{"tsconfig.json", Read}}},
		{"tsc --noEmit --watch", 1, "unsafe", nil},
		{"pytest -x -q tests", 0, "ok", []Arg{{"tests", Read}}},
		{"pytest -p evil", 0, "unsafe", nil},
		{"pytest --cov=src", 0, "unknown", nil},
		{"pip list --outdated", 1, "unsafe", nil},
		{"pip list --format=json", 1, "ok", nil},
		{"ruff check --fix .", 1, "ok", nil}, // ruff is project code either way
		{"ruff format --check .", 1, "ok", nil},
		{"ruff format .", 1, "ok", nil},
		{"ruff check --watch .", 1, "unsafe", nil},
		{"go fmt ./...", 1, "ok", nil},
		{"go fmt -mod=mod ./...", 1, "unsafe", nil},
		{"go fmt /etc/x", 1, "unsafe", nil},
		// system views
		{"systemctl status nginx --no-pager", 1, "ok", nil},
		{"systemctl status --zz", 1, "unknown", nil},
		{"crontab -l", 1, "ok", nil},
		{"crontab -l -u root", 1, "unsafe", nil},
		{"docker logs -f web", 1, "unsafe", nil},
		{"docker ps -a --format {{.Names}}", 1, "ok", nil},
		{"pgrep -fl node", 0, "ok", nil},
		{"brew list --versions", 1, "ok", nil},
	}
	checkForms(t, tests)
}

// TestReadOnlyArgv: a form is read-only only when its spec says so, it
// reads the argv without a problem, and names no file to write.
func TestReadOnlyArgv(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"cat a.txt", true},
		{"git log --oneline", true},
		{"git status", true},
		{"git -C sub --no-pager log --oneline", true},
		{"git -c core.pager=x log", false},
		{"git --git-dir=/x status", false},
		{"git add .", false},
		{"git branch feature", false},
		{"touch a", false},
		{"sort -o x a", false},
		{"go vet ./...", false}, // project code: cgo directives run programs
		{"cargo fmt --check", true},
		{"cargo fmt", false}, // rewrites sources
		{"go test ./...", false},
		{"go build -o bin/x .", false},
		{"cargo tree", false}, // project code: resolving fetches
		{"cargo build", false},
		{"python3 -m unittest discover", false},
		{"tar -tf a.tar", true},
		{"tar -xf a.tar", false},
		{"nosuchprogram x", false},
		{"ls --zz-unknown", false},
	}
	for _, tt := range tests {
		w := strings.Fields(tt.line)
		assert.Equal(t, tt.want, ReadOnlyArgv(w[0], w[1:]), tt.line)
	}
}
