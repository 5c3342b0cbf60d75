#!/usr/bin/env python3
"""Runs a command and prints its peak resident memory, in KiB, as the last line of standard error.

Usage: max-rss.py COMMAND [ARGUMENT...]; exits with the command's status. The peak is the
kernel's (getrusage of the one child this process waits for), so nothing else running counts.
"""
import resource
import subprocess
import sys

completed = subprocess.run(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"max-rss-kib: {peak}", file=sys.stderr)
sys.exit(completed.returncode if completed.returncode >= 0 else 128 - completed.returncode)
