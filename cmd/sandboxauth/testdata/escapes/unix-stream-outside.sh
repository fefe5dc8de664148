#!/bin/sh
# family: UNIX sockets outside (pathname, stream)
# needs: python3
ln -s "$CORPUS_UNIX" link.sock
exec python3 -c '
import os, socket
target = os.environ["CORPUS_UNIX"]
for path in (target, "link.sock", "/proc/self/root" + target, "/proc/1/root" + target):
    for kind in (socket.SOCK_STREAM, socket.SOCK_SEQPACKET):
        try:
            s = socket.socket(socket.AF_UNIX, kind)
            s.connect(path)
            s.sendall(b"unix")
        except OSError as e:
            print("unix", path, e)
'
