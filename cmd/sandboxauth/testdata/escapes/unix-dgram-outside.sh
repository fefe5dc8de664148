#!/bin/sh
# family: UNIX sockets outside (pathname, datagram)
# needs: python3
exec python3 -c '
import os, socket
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.sendto(b"dgram", os.environ["CORPUS_UNIXGRAM"])
except OSError as e:
    print("dgram", e)
'
