#!/bin/sh
# family: processes (the sandbox's first process)
# needs: python3
# The sandbox's first process stands behind connect and holds descriptors:
# its environment, memory and descriptors must give the command nothing.
for f in environ cmdline status; do tr '\0' '\n' < /proc/1/$f 2>&1; done
ls -l /proc/1/fd /proc/1/cwd /proc/1/root 2>&1
exec python3 -c '
import os
for fd in os.listdir("/proc/1/fd") if os.access("/proc/1/fd", os.R_OK) else []:
    p = "/proc/1/fd/" + fd
    for flags in (os.O_RDONLY, os.O_WRONLY | os.O_APPEND):
        try:
            f = os.open(p, flags)
            if flags == os.O_RDONLY:
                print(p, os.read(f, 200))
            else:
                os.write(f, b"pwned")
        except OSError as e:
            print(p, e)
for target in ("/proc/1/root" + os.environ["CORPUS_VICTIM"] + "/victim.txt", "/proc/1/cwd/../../victim/victim.txt"):
    try:
        with open(target, "a") as f:
            f.write("pwned")
    except OSError as e:
        print(target, e)
try:
    with open("/proc/1/mem", "rb") as m:
        for line in open("/proc/1/maps"):
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            if "rw" in line.split()[1]:
                m.seek(lo)
                print(m.read(min(hi - lo, 1 << 20)))
except (OSError, ValueError) as e:
    print("mem", e)
'
