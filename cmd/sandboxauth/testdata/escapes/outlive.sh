#!/bin/sh
# family: processes (outliving the run)
setsid sh -c 'sleep 4; touch "$CORPUS_VICTIM/pwned-late"' </dev/null >/dev/null 2>&1 &
nohup sleep 30 </dev/null >/dev/null 2>&1 &
(trap '' HUP TERM; sleep 30) </dev/null >/dev/null 2>&1 &
exit 0
