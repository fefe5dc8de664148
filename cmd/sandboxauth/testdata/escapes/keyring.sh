#!/bin/sh
# family: IPC (the kernel keyring)
# needs: python3
exec python3 -c '
import ctypes, ctypes.util
libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
SYS_keyctl = {"x86_64": 250, "aarch64": 219}.get(__import__("platform").machine())
if SYS_keyctl is None:
    raise SystemExit("unknown architecture")
buf = ctypes.create_string_buffer(65536)
for ring in (-4, -3, -5):  # user, session, user-session keyrings
    n = libc.syscall(SYS_keyctl, 11, ring, buf, 65536)  # KEYCTL_READ of a keyring: its key ids
    print("keyring", ring, n, ctypes.get_errno())
    if n > 0:
        ids = [int.from_bytes(buf.raw[i:i+4], "little") for i in range(0, min(n, 65536), 4)]
        for k in ids:
            b2 = ctypes.create_string_buffer(4096)
            m = libc.syscall(SYS_keyctl, 11, k, b2, 4096)  # KEYCTL_READ
            if m > 0:
                print("key", b2.raw[:m])
        libc.syscall(SYS_keyctl, 7, ring)  # KEYCTL_CLEAR
'
