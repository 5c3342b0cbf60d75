#!/usr/bin/env python3
"""Per-day totals with Python's icalendar (and recurring-ical-events): the Python side of the import
benchmark (issue 5). Run it with the virtualenv that scripts/reference/python-env prints
(icalendar 7.3.0, recurring-ical-events 3.8.2).

    python_totals.py plain FILE --tz UTC --from 2015-01-01 --to 2024-12-31 [--out TOTALS.json]
    python_totals.py recurrence FILE --tz UTC --from 2015-01-01 --to 2024-12-31 [--points minutes]

The job is the one `streakcal report --format json --points x-points` (or `--points minutes`)
does, for these generated workloads: every VEVENT (plain: as written, no recurrence; recurrence:
expanded with recurring-ical-events over the window) is a session on the report zone's local date
of its start, worth its X-POINTS (a non-negative integer, surrounding spaces allowed, else 0) or,
with `--points minutes`, its length in whole minutes (end minus start as instants; DATE to DATE in
days of 1,440 minutes; no end: a day for a DATE, nothing for a time); STATUS:CANCELLED occurrences
do not count; days outside --from..--to are dropped. Floating times are wall times in the report
zone. Prints (or writes) {"from", "to", "timeZone", "days": {"YYYY-MM-DD": [points, sessions]}}
with only the days that have sessions, keys sorted.

`plain` refuses inputs with RRULE, RDATE or RECURRENCE-ID (it does not expand them, so its totals
would not be the same job); use `recurrence` for those. The recurrence mode expands from two days
before --from to three days after --to, so that any zone's local day is covered, then keeps the
days of the window (the same margin as scripts/reference).

This is deliberately the straightforward use of the libraries (the work a user's script would do),
not the corrections scripts/reference applies for edge cases the generated workloads avoid.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from collections import defaultdict
from zoneinfo import ZoneInfo

import icalendar

_POINTS = re.compile(r"^ *([0-9]+) *$")
MARGIN_BEFORE = dt.timedelta(days=2)
MARGIN_AFTER = dt.timedelta(days=3)


def x_points(raw) -> int:
    if raw is None:
        return 0
    if isinstance(raw, list):
        raw = raw[0]
    match = _POINTS.match(str(raw))
    return int(match.group(1)) if match else 0


def local_day(start, zone: ZoneInfo) -> dt.date:
    if not isinstance(start, dt.datetime):
        return start  # DATE: its own day in any zone
    if start.tzinfo is None:
        return start.date()  # floating: a wall time in the report zone
    return start.astimezone(zone).date()


def as_instant(value, zone: ZoneInfo):
    """A DATE-TIME as an aware instant (floating: a wall time in the report zone); a DATE as is."""
    if not isinstance(value, dt.datetime):
        return value
    return value.replace(tzinfo=zone) if value.tzinfo is None else value


def minutes(component, start, zone: ZoneInfo) -> int:
    """The session's length in whole minutes, as `--points minutes` counts it (never negative)."""
    if "DTEND" in component:
        end = component["DTEND"].dt
    elif "DURATION" in component:
        end = start + component["DURATION"].dt
    else:
        end = start + dt.timedelta(days=1) if not isinstance(start, dt.datetime) else start
    if not isinstance(start, dt.datetime) and not isinstance(end, dt.datetime):
        return max(0, (end - start).days * 1440)
    # Aware datetimes of one tzinfo subtract on the wall clock: compare them in UTC.
    first = as_instant(start, zone).astimezone(dt.timezone.utc)
    last = as_instant(end, zone).astimezone(dt.timezone.utc)
    return max(0, int((last - first).total_seconds()) // 60)


def cancelled(component) -> bool:
    return str(component.get("STATUS", "")).strip().upper() == "CANCELLED"


def plain_sessions(data: bytes):
    """(start, VEVENT) of every VEVENT, parsed with icalendar alone."""
    for calendar in icalendar.Calendar.from_ical(data, multiple=True):
        for event in calendar.walk("VEVENT"):
            for name in ("RRULE", "RDATE", "RECURRENCE-ID"):
                if name in event:
                    raise SystemExit(f"python_totals plain: VEVENT {event.get('UID')} has {name}; "
                                     "use the recurrence mode")
            if "DTSTART" not in event or cancelled(event):
                continue
            yield event["DTSTART"].dt, event


def recurring_sessions(data: bytes, first: dt.date, last: dt.date):
    """(start, occurrence) of every occurrence between the margins, by recurring-ical-events."""
    import recurring_ical_events
    for calendar in icalendar.Calendar.from_ical(data, multiple=True):
        # X-WR-TIMEZONE is not RFC 5545. recurring-ical-events moves a series with a UTC DTSTART
        # into that zone and repeats it on the zone's wall clock, so across a DST switch its
        # instances sit an hour off their RECURRENCE-IDs, and a moved instance is counted twice
        # (Google's exports name the zone and write UTC series). RFC 5545 3.3.5 and 3.8.5.3: a UTC
        # DTSTART recurs in UTC. scripts/reference/reference.py removes it for the same reason.
        if "X-WR-TIMEZONE" in calendar:
            del calendar["X-WR-TIMEZONE"]
        for occurrence in recurring_ical_events.of(calendar).between(
                first - MARGIN_BEFORE, last + MARGIN_AFTER):
            if cancelled(occurrence):
                continue
            yield occurrence["DTSTART"].dt, occurrence


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("plain", "recurrence"))
    parser.add_argument("file")
    parser.add_argument("--tz", default="UTC")
    parser.add_argument("--from", dest="first", required=True, type=dt.date.fromisoformat)
    parser.add_argument("--to", dest="last", required=True, type=dt.date.fromisoformat)
    parser.add_argument("--points", choices=("x-points", "minutes"), default="x-points",
                        help="what a session is worth: its X-POINTS (default) or its minutes")
    parser.add_argument("--out", help="write the totals here instead of standard output")
    args = parser.parse_args(argv)

    zone = ZoneInfo(args.tz)
    with open(args.file, "rb") as f:
        data = f.read()
    if args.mode == "plain":
        sessions = plain_sessions(data)
    else:
        sessions = recurring_sessions(data, args.first, args.last)
    totals = defaultdict(lambda: [0, 0])
    for start, component in sessions:
        day = local_day(start, zone)
        if args.first <= day <= args.last:
            total = totals[day.isoformat()]
            if args.points == "minutes":
                total[0] += minutes(component, start, zone)
            else:
                total[0] += x_points(component.get("X-POINTS"))
            total[1] += 1
    result = {"from": args.first.isoformat(), "to": args.last.isoformat(), "timeZone": args.tz,
              "days": dict(sorted(totals.items()))}
    text = json.dumps(result, separators=(",", ":")) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
