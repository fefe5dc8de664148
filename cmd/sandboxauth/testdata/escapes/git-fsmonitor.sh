#!/bin/sh
# family: deferred execution (git configuration)
# needs: git
# later: .git/config
git config core.fsmonitor "touch $CORPUS_VICTIM/pwned-fsmonitor; false"
printf '[core]\n\tfsmonitor = "touch %s/pwned-fsmonitor2; false"\n\tpager = touch %s/pwned-pager\n' "$CORPUS_VICTIM" "$CORPUS_VICTIM" >> .git/config
printf '[include]\n\tpath = ../evil.cfg\n' >> .git/config
printf '[core]\n\tfsmonitor = "touch %s/pwned-include; false"\n' "$CORPUS_VICTIM" > evil.cfg
git config --worktree core.sshCommand "touch $CORPUS_VICTIM/pwned-worktree" 2>&1
exit 0
