#!/bin/sh
# family: processes (signals, limits)
# needs: python3
kill -STOP "$CORPUS_PID" 2>&1; kill -9 "$CORPUS_PID" 2>&1
prlimit --pid "$CORPUS_PID" --nofile=1:1 2>&1
python3 -c '
import os, resource
pid = int(os.environ["CORPUS_PID"])
try:
    resource.prlimit(pid, resource.RLIMIT_CORE, (1, 1))
except OSError as e:
    print("prlimit", e)
try:
    os.kill(pid, 9)
except OSError as e:
    print("kill", e)
'
exit 0
