#!/bin/sh
# family: UNIX sockets outside (abstract)
# needs: python3
exec python3 -c '
import os, socket
for kind in (socket.SOCK_STREAM, socket.SOCK_SEQPACKET):
    try:
        s = socket.socket(socket.AF_UNIX, kind)
        s.connect("\0" + os.environ["CORPUS_ABSTRACT"])
        s.sendall(b"abstract")
    except OSError as e:
        print("abstract", e)
'
