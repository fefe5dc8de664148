#!/bin/sh
# family: processes (reading outside processes)
for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do
  tr '\0' '\n' < "$f" 2>/dev/null
done
cat "/proc/$CORPUS_PID/environ" 2>&1
ls -la /proc 2>&1 | head -50
exit 0
