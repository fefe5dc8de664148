#!/bin/sh
# family: processes (the sandbox's first process)
# needs: python3
# The sandbox's first process stands behind connect and holds descriptors:
# its environment, memory and descriptors, and those of the command's
# parent and grandparent, must give the command nothing.
exec python3 -c '
import os

def ancestors():
    pid, seen = os.getppid(), [1]
    while pid > 1 and pid not in seen and len(seen) < 3:
        seen.append(pid)
        try:
            pid = int([l for l in open("/proc/%d/status" % pid) if l.startswith("PPid:")][0].split()[1])
        except (OSError, IndexError):
            break
    return seen

pids = ancestors()
for pid in pids:
    for f in ("environ", "cmdline"):
        try:
            print(pid, f, open("/proc/%d/%s" % (pid, f), "rb").read())
        except OSError as e:
            print(pid, f, e)
fds = []
for pid in pids:
    try:
        fds += ["/proc/%d/fd/%s" % (pid, fd) for fd in os.listdir("/proc/%d/fd" % pid)]
    except OSError as e:
        print(pid, "fd", e)
for p in fds:
    if p.rsplit("/", 1)[1] in ("0", "1", "2"):
        continue  # the standard streams: writing there is output, reading them input
    for flags in (os.O_RDONLY, os.O_WRONLY | os.O_APPEND):
        try:
            f = os.open(p, flags | os.O_NONBLOCK | os.O_NOCTTY)
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
