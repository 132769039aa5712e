"""Run a command and report its wall time and peak memory as JSON.

Usage: python3 measure.py NAME OUT.json -- COMMAND ARGS...

Peak memory is sampled every 0.2 s from /proc as the sum of the resident
set sizes (VmRSS) of the command and all its descendants (kernel, go build,
cell processes), and the largest single process's peak as the kernel
reports it (getrusage of the waited children).
"""
import json
import os
import resource
import subprocess
import sys
import threading
import time


def tree_rss_kib(root):
    kids = {}
    rss = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open(f"/proc/{p}/status") as f:
                ppid, vm = None, 0
                for line in f:
                    if line.startswith("PPid:"):
                        ppid = int(line.split()[1])
                    elif line.startswith("VmRSS:"):
                        vm = int(line.split()[1])
        except OSError:
            continue
        rss[int(p)] = vm
        kids.setdefault(ppid, []).append(int(p))
    total, todo = 0, [root]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(kids.get(p, []))
    return total


def main():
    name, out = sys.argv[1], sys.argv[2]
    cmd = sys.argv[sys.argv.index("--") + 1:]
    t0 = time.time()
    proc = subprocess.Popen(cmd)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss_kib(proc.pid))
            done.wait(0.2)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    rc = proc.wait()
    done.set()
    th.join()
    wall = time.time() - t0
    maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    rec = {"name": name, "rc": rc, "wall_s": round(wall, 1),
           "peak_tree_rss_mib": round(peak[0] / 1024, 1),
           "peak_single_process_rss_mib": round(maxrss / 1024, 1)}
    with open(out, "a") as f:
        f.write(json.dumps(rec) + "\n")
    print("measure:", json.dumps(rec), flush=True)
    sys.exit(rc)


if __name__ == "__main__":
    main()
