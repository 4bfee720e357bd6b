#!/usr/bin/env python3
"""Runs a command, passing its output through, and fails unless it exits
with the expected status (lit's `not` only tells zero from non-zero).

usage: expect-exit.py STATUS COMMAND [ARG...]
"""
import subprocess
import sys

want = int(sys.argv[1])
r = subprocess.run(sys.argv[2:], capture_output=True, text=True)
sys.stdout.write(r.stdout)
sys.stdout.write(r.stderr)
if r.returncode != want:
    sys.stdout.write("expect-exit.py: exit status %d, expected %d\n" % (r.returncode, want))
    sys.exit(1)
