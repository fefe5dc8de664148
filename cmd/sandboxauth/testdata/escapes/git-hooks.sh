#!/bin/sh
# family: deferred execution (git hooks)
# needs: git
# later: .git/hooks
for h in pre-commit commit-msg post-commit post-checkout reference-transaction fsmonitor-watchman; do
  printf '#!/bin/sh\ntouch %s/pwned-%s\n' "$CORPUS_VICTIM" "$h" > ".git/hooks/$h" && chmod +x ".git/hooks/$h"
done
mv .git/hooks .git/hooks.old 2>&1; mkdir -p .git/hooks 2>&1
mkdir -p myhooks && printf '#!/bin/sh\ntouch %s/pwned-hookspath\n' "$CORPUS_VICTIM" > myhooks/pre-commit && chmod +x myhooks/pre-commit
git config core.hooksPath myhooks 2>&1
exit 0
