#!/usr/bin/env python3
"""Runs tlc with its output going to a fifo and checks the fifo survives."""
import os
import stat
import subprocess
import sys
import tempfile
import threading

tlc, example = sys.argv[1:3]
cases = [("compile", [tlc, example, "-o", "{fifo}"]),
         ("header", [tlc, example, "-o", os.devnull, "--header={fifo}"]),
         ("explain-partition", [tlc, "explain-partition", "-o", "{fifo}"]),
         ("explain-partition FILE", [tlc, "explain-partition", example, "-o", "{fifo}"])]
with tempfile.TemporaryDirectory() as tmp:
    for name, cmd in cases:
        fifo = os.path.join(tmp, name.replace(" ", "_") + ".fifo")
        os.mkfifo(fifo)
        got = []

        def reader():
            with open(fifo, "rb") as f:
                got.append(len(f.read()))

        t = threading.Thread(target=reader)
        t.start()
        r = subprocess.run([c.replace("{fifo}", fifo) for c in cmd], capture_output=True, text=True)
        if not got:  # tlc never opened the fifo: unblock the reader
            with open(fifo, "wb"):
                pass
        t.join(timeout=30)
        ok = stat.S_ISFIFO(os.stat(fifo).st_mode) and r.returncode == 0
        print(f"{name}: {'still a fifo' if ok else 'REPLACED or failed (rc %d)' % r.returncode}, "
              f"{got[0] if got else 0} bytes read")
