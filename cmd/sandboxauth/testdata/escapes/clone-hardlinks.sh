#!/bin/sh
# family: hard links (a local clone's objects)
# needs: git
git clone -q "$CORPUS_ORIGIN" clone 2>&1
git clone -q --local "$CORPUS_ORIGIN" clone2 2>&1
for f in clone/.git/objects/*/* clone2/.git/objects/*/*; do
  chmod u+w "$f" 2>&1; printf 'x' >> "$f" 2>&1
done
ln "$CORPUS_VICTIM/victim.txt" hardlink.txt 2>&1 && echo pwned >> hardlink.txt
exit 0
