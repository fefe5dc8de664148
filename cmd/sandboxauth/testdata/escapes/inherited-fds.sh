#!/bin/sh
# family: descriptors (inherited from the caller)
# needs: python3
ls -l /proc/self/fd 2>&1
echo pwned-fd >&4 2>&1
exec python3 -c '
import os
for fd in range(3, 64):
    try:
        os.write(fd, b"pwned")
    except OSError:
        pass
    try:
        f = os.open("victim.txt", os.O_WRONLY | os.O_APPEND, dir_fd=fd)
        os.write(f, b"pwned-dirfd")
    except OSError:
        pass
    try:
        os.open("pwned-dirfd", os.O_WRONLY | os.O_CREAT, dir_fd=fd)
    except OSError:
        pass
'
