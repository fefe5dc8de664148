#!/bin/bash
# family: network (TCP to the machine's loopback)
# needs: bash python3
host=${CORPUS_TCP%:*} port=${CORPUS_TCP#*:}
(exec 3<>"/dev/tcp/$host/$port" && echo tcp >&3) 2>&1
python3 -c '
import os, socket
h, p = os.environ["CORPUS_TCP"].split(":")
for a in ((h, int(p)), ("localhost", int(p))):
    try:
        socket.create_connection(a, timeout=2).sendall(b"tcp")
    except OSError as e:
        print("tcp", a, e)
'
