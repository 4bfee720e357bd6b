"""Runs a command and succeeds only if it exits with the expected status.

usage: expect-exit.py STATUS COMMAND [ARGS...]

The command's stdin, stdout and stderr are passed through, so the output can
be piped into FileCheck. A command killed by a signal never matches. lit's
internal shell has no `$?`; this is how the cli-*.test files tell input
errors (status 1) from command-line misuse (status 2).
"""
import subprocess
import sys

want = int(sys.argv[1])
rc = subprocess.call(sys.argv[2:])
if rc != want:
    sys.stderr.write("expect-exit: exit status %d, expected %d\n" % (rc, want))
    sys.exit(1)
