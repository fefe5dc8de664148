#!/bin/sh
# family: UNIX sockets and netlink with the network given (--net)
# net: on
# needs: python3
# With the network, the command shares the machine's network namespace:
# outside programs' UNIX sockets (by path, datagram, abstract name) and
# netlink ports must still be out of reach.
exec python3 -c '
import os, socket
tries = [
    (socket.AF_UNIX, socket.SOCK_STREAM, os.environ["CORPUS_UNIX"]),
    (socket.AF_UNIX, socket.SOCK_STREAM, "\0" + os.environ["CORPUS_ABSTRACT"]),
]
for fam, kind, addr in tries:
    try:
        s = socket.socket(fam, kind)
        s.connect(addr)
        s.sendall(b"net-ipc")
    except OSError as e:
        print("connect", repr(addr), e)
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.sendto(b"net-dgram", os.environ["CORPUS_UNIXGRAM"])
except OSError as e:
    print("dgram", e)
try:
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 2)
    s.sendto(b"\x14\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00netl", (int(os.environ["CORPUS_NETLINK"]), 0))
except OSError as e:
    print("netlink", e)
'
