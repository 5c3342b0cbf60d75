#!/usr/bin/env python3
"""Shows one day of one input from both sides: the reference's sessions (UID, start, points)
and `streakcal sessions --on DAY`. For looking into a difference that compare.py reported.

    .build-reference/venv/bin/python scripts/reference/explain.py FILE --on 2024-01-02 \\
        [--tz UTC] [--day-start 00:00] [--points x-points] [--binary .build/debug/streakcal]
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import subprocess
import sys
from zoneinfo import ZoneInfo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the repository

import reference as ref  # noqa: E402


def main():
    root = os.path.dirname(os.path.dirname(HERE))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file")
    parser.add_argument("--on", required=True)
    parser.add_argument("--tz", default="UTC")
    parser.add_argument("--day-start", default="00:00")
    parser.add_argument("--points", default="x-points", choices=["x-points", "minutes", "count"])
    parser.add_argument("--binary", default=os.path.join(root, ".build/debug/streakcal"))
    args = parser.parse_args()
    day = dt.date.fromisoformat(args.on)
    options = ref.ReportOptions(args.tz, args.day_start, args.points)
    zone = ZoneInfo(args.tz)
    shift = ref.day_start_delta(args.day_start)
    with open(args.file, "rb") as f:
        data = f.read()
    print(f"reference ({options.label}):")
    try:
        calendar = ref.read_and_expand(data, (day, day))
    except ref.ReferenceCannotRead as error:
        print(f"  cannot read it: {error}")
    else:
        for note in calendar.notes:
            print(f"  note: {note}")
        for occurrence in sorted(calendar.occurrences, key=lambda o: str(o.start)):
            if ref.session_day(occurrence.start, zone, shift) != day:
                continue
            points = ref.points_of(occurrence, options, zone)
            print(f"  {occurrence.start} -> {occurrence.end}  {points} points  "
                  f"UID {occurrence.uid}  {occurrence.summary[:50]}")
    print("streakcal:")
    command = [args.binary, "sessions", args.file, "--on", args.on, "--tz", args.tz,
               "--day-start", args.day_start, "--points", args.points]
    process = subprocess.run(command, capture_output=True, text=True, errors="replace")
    for line in process.stdout.splitlines():
        print("  " + line)
    if process.returncode:
        print(f"  (exit {process.returncode}) " + process.stderr.strip().splitlines()[-1:][0]
              if process.stderr.strip() else f"  (exit {process.returncode})")


if __name__ == "__main__":
    main()
