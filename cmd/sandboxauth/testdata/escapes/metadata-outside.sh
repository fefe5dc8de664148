#!/bin/sh
# family: metadata outside the sandbox
# needs: python3
v=$CORPUS_VICTIM
chmod 777 "$v" "$v/victim.txt" 2>&1
touch -d 2001-01-01 "$v/victim.txt" 2>&1
chown nobody "$v/victim.txt" 2>&1
python3 -c '
import os
v = os.environ["CORPUS_VICTIM"]
for f in (v, v + "/victim.txt"):
    for op in (lambda: os.setxattr(f, "user.pwned", b"1"), lambda: os.setxattr(f, "security.capability", b"\x01\x00\x00\x02" + b"\x00" * 16), lambda: os.utime(f, (1, 1))):
        try:
            op()
        except OSError as e:
            print("meta", f, e)
'
exit 0
