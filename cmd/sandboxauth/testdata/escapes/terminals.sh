#!/bin/sh
# family: terminals
# needs: python3
# stdin: terminal
echo pwned-tty > /dev/tty 2>&1
stty -echo 2>&1
exec python3 -c '
import fcntl, os, termios
for t in ("/proc/self/fd/0", "/dev/tty"):
    try:
        fd = 0 if t == "/proc/self/fd/0" else os.open(t, os.O_RDWR | os.O_NOCTTY)
        for c in b"pwned\n":
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([c]))
    except OSError as e:
        print("tty", t, e)
'
