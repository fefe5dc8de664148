#!/bin/sh
# Regenerates ../TRANSCRIPTS.md from the real binary:
#   cd cmd/sandboxauth && sh testdata/transcripts.sh
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)/sandboxauth
(cd "$here" && go build -o "$bin" .)
work=/tmp/project
rm -rf "$work" && mkdir -p "$work"
cp "$here/testdata/tools.json" "$work/tools.json"
out="$here/TRANSCRIPTS.md"

# show runs a shell command line in $work and records it with its output
# and exit status.
show() {
	printf '```console\n$ %s\n' "$1"
	(cd "$work" && PATH="$(dirname "$bin"):$PATH" sh -c "$1" 2>&1) && code=0 || code=$?
	printf '[exit %s]\n```\n\n' "$code"
}

{
	cat <<'MD'
# sandboxauth command transcripts

Produced by the real binary with `sh testdata/transcripts.sh` (in
`cmd/sandboxauth`), run in an empty directory `/tmp/project`, which is the
default sandbox. Exit status: 0 allowed, 1 a person would be asked, 2
refused or denied, 3 usage or input error.

## check: a safe command

MD
	show "sandboxauth check -- git status"
	echo "## check: a blocked command behind a wrapper"
	echo
	echo "The shell script is parsed and \`timeout\` is looked through; curl is blocked."
	echo
	show "sandboxauth check -- bash -c 'timeout 5 curl https://example.com'"
	echo "## check: a dangerous command"
	echo
	show "sandboxauth check -- rm -rf build"
	echo "## check: a deletion outside the sandbox"
	echo
	echo "The path outside is named first, and the sandbox policy refuses it outright."
	echo
	show "sandboxauth check -- bash -c 'rm -rf ~'"
	echo "## check: many commands from standard input"
	echo
	echo "One command per line in shell syntax; a line that is not a simple command of literal"
	echo "words is checked as \`bash -c LINE\`. The worst line under the sandbox policy sets the status."
	echo
	show "printf 'git log --oneline -5\ngo test ./...\nsed -i s/a/b/ main.go\ncat notes.txt | wc -l\nnice -n 5 wget https://example.com\n../../usr/bin/env\n' | sandboxauth check"
	echo "## check: JSON, and each command of a list on its own"
	echo
	echo "As the hook does, check classifies each command of a pipeline or list; --split-compound=false"
	echo "shows the library's default, where every pipeline and list is inscrutable."
	echo
	show "sandboxauth check --json -- sh -c 'git status && git diff --stat'"
	show "sandboxauth check --split-compound=false -- sh -c 'git status && git diff --stat'"
	echo "## defaults"
	echo
	show "sandboxauth defaults protected"
	echo "## tools"
	echo
	echo "With the sample configuration [testdata/tools.json](testdata/tools.json):"
	echo
	printf '```json\n'
	cat "$here/testdata/tools.json"
	printf '```\n\n'
	show "sandboxauth tools --config tools.json --agent reviewer read edit exec memory_get"
	show "sandboxauth tools --config tools.json --provider openai --model gpt-5 bash image"
	show "sandboxauth tools --config tools.json --subagent 1 sessions_spawn memory_search read"
	echo "A configuration error names the entry at fault:"
	echo
	show "echo '{\"tools\": {\"deny\": [\"exec\", \"group:fz\"]}}' > bad.json && sandboxauth tools --config bad.json"
	echo "## demo through a pipe"
	echo
	echo "Commands and y/n answers come from the same input, in order; piped input is echoed"
	echo "after each prompt. In a terminal the same session waits at each prompt."
	echo
	show "printf 'read notes.txt\nwrite /etc/hosts\nrun go test ./...\nrun make build\ny\nrun rm -rf build\nn\nrun timeout 5 curl https://example.com\nask write notes.txt\ny\n' | sandboxauth demo"
} >"$out"
rm -rf "$(dirname "$bin")" "$work"
echo "wrote $out"
