#!/bin/sh
# family: deferred execution (a cache variable pointing into the sandbox)
# runs: 2
# env: GOCACHE=$SB/gocache
# The first run swaps the cache directory for a link to the home; the next
# run must not make the home writable through it.
if [ ! -L gocache ]; then
  rm -rf gocache && ln -s "$HOME" gocache
else
  touch gocache/pwned-cache-link "$CORPUS_VICTIM/pwned-cache-link" 2>&1
fi
exit 0
