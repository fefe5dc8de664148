#!/bin/sh
# family: network (netlink to outside processes)
# needs: python3
exec python3 -c '
import os, socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 2)  # NETLINK_USERSOCK
try:
    s.sendto(b"\x14\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00netl", (int(os.environ["CORPUS_NETLINK"]), 0))
except OSError as e:
    print("netlink", e)
'
