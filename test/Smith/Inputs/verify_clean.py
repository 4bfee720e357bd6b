"""Fails (listing them) on the tlc-verify errors of a log other than the one
known false positive of verify-unaligned-launcher.tl: "launcher
'NAME_unaligned' is not extern "C"" (a static twin launcher).

usage: verify_clean.py LOG"""
import re
import sys

known = re.compile(r"error: launcher '\w+_unaligned' is not extern \"C\"$")
errors = [line for line in open(sys.argv[1]) if "error" in line and not known.search(line.rstrip())]
sys.stdout.write("".join(errors))
sys.exit(1 if errors else 0)
