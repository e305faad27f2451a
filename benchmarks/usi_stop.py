#!/usr/bin/env python3
"""usi_stop.py - what a GUI gets after `stop`: Zuko 21 (mate 27 found within a second,
exact 25 out of reach) with `go mate infinite`, stop after each W seconds; prints how
long the answer took after the stop and whether it is a line or a timeout.
  python3 benchmarks/usi_stop.py [TSUMEGEN] [W ...]   (defaults bin/tsumegen 3 10 30)"""
import queue
import subprocess
import sys
import threading
import time

exe = sys.argv[1] if len(sys.argv) > 1 else "bin/tsumegen"
waits = [float(x) for x in sys.argv[2:]] or [3, 10, 30]
z21 = "3l+R4/1l1g5/2k1n4/1p+p2s3/4+r+B3/1G1s+p4/9/2N2+p3/9 b BGS2NPgs2l13p 1"
for w in waits:
    p = subprocess.Popen([exe, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    q = queue.Queue()
    threading.Thread(target=lambda: [q.put(l.rstrip()) for l in p.stdout] + [q.put(None)], daemon=True).start()
    p.stdin.write("setoption name USI_Hash value 256\nisready\nposition sfen %s\ngo mate infinite\n" % z21)
    p.stdin.flush()
    time.sleep(w)
    t = time.time()
    p.stdin.write("stop\n")
    p.stdin.flush()
    line = None
    while True:
        line = q.get()
        if line is None or line.startswith("checkmate"):
            break
    dt = time.time() - t
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    moves = line.split()[1:] if line else []
    what = "no answer" if not line else "timeout" if moves == ["timeout"] else "line of %d plies" % len(moves)
    print("stop after %4.0f s: answer %.2f s later, %s" % (w, dt, what))
