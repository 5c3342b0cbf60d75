#!/usr/bin/env python3
"""Deterministic generator of the import benchmark's calendars (issue 5). Standard library only.

    generate.py plain --events 100000 --out plain.ics       # 100,000 timed VEVENTs (about 28 MB)
    generate.py plain --bytes 1GiB --out big.ics             # as many events as fill about 1 GiB
    generate.py recurrence --series 1000 --out rec.ics       # 1,000 recurring events over 10 years
    generate.py batch --files 1000 --events 50 --out DIR     # 1,000 small calendars in a folder tree

Every workload takes --seed (default 1): the same arguments give the same bytes (and
--keep-if-current, which skips the work when OUT already holds exactly that). Files are written
as they are generated, a bounded batch of events at a time, so a 1 GiB calendar needs no more memory
than a small one. Each run writes a sidecar `OUT.json` (for batch: `DIR/manifest.json`) with the
arguments, the counts, the bytes and the window the events fall in, and prints it.

Workloads (all valid RFC 5545: CRLF line ends, lines folded at 75 octets, UID and DTSTAMP on every
VEVENT, ASCII only):

plain       timed VEVENTs: UID, DTSTAMP, DTSTART in UTC, DTEND or DURATION (half each), SUMMARY, a
            DESCRIPTION of 64-112 characters folded over 2 lines, X-POINTS 5-60. Starts are
            random instants from 06:00 to 21:59 UTC over 2015-01-01..2024-12-31 (so a report's
            window is the same ten years for every size); about 280 bytes per event.
recurrence  --series recurring VEVENTs over the same ten years: RRULE FREQ=DAILY (INTERVAL 1-7),
            WEEKLY (BYDAY of 1-3 days, INTERVAL 1-2) or MONTHLY (BYMONTHDAY, or BYDAY=nWD), ending
            by COUNT, by UNTIL or not at all; 1-5 EXDATEs on 60% of them; RECURRENCE-ID overrides
            (moved hours or a day later, other points) on 10%, written after all the masters.
            DTSTART in TZID=Europe/Berlin (40%), TZID=America/New_York (40%) or UTC (20%) at
            06:00-21:45 local (never in a DST gap or overlap); VTIMEZONEs for both zones, Berlin's
            before the events and New York's after them (a VTIMEZONE may follow its users).
batch       --files calendars of --events plain events each (each file its own seed), in a tree
            DIR/group-GG/member-MM/calendar-NNNN.ics, ten per folder; events of 2024 only (so
            one --from/--to window fits every file).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import re
import shutil
import sys

CRLF = "\r\n"
FIRST_DAY = dt.date(2015, 1, 1)
LAST_DAY = dt.date(2024, 12, 31)
DTSTAMP = "20250101T000000Z"
PRODID = "-//StreakCal//Import benchmark generator//EN"
# Events are written in batches of this many, so memory does not grow with the file.
BATCH = 2000

WORDS = (
    "practice scales arpeggios sight reading etude sonata allegro adagio tempo metronome "
    "intervals chords voicing rhythm dynamics phrasing breathing posture warm-up cool-down "
    "review notes lesson homework repertoire recital memory slow fast clean hands together "
    "left right pedal legato staccato accents crescendo diminuendo bars section coda").split()


def fold(line: str) -> str:
    """An ASCII content line folded at 75 octets (RFC 5545 3.1), with its CRLF."""
    if len(line) <= 75:
        return line + CRLF
    parts = [line[:75]]
    rest = line[75:]
    while rest:
        parts.append(" " + rest[:74])
        rest = rest[74:]
    return CRLF.join(parts) + CRLF


def escape_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def calendar_header(name: str) -> str:
    return ("BEGIN:VCALENDAR" + CRLF + "VERSION:2.0" + CRLF + "PRODID:" + PRODID + CRLF
            + "CALSCALE:GREGORIAN" + CRLF + fold("X-WR-CALNAME:" + name))


CALENDAR_TRAILER = "END:VCALENDAR" + CRLF


def parse_size(text: str) -> int:
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMG]i?B|B)?\s*", text, re.IGNORECASE)
    if not match:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 10MiB, 100MB, 1GiB, 5000000)")
    number = float(match.group(1))
    unit = (match.group(2) or "B").upper()
    factor = {"B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9,
              "KIB": 2**10, "MIB": 2**20, "GIB": 2**30}[unit]
    return int(number * factor)


class Writer:
    """A file written in batches, counting its bytes (everything is ASCII)."""

    def __init__(self, path: str):
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, exist_ok=True)
        self.path = path
        self.temporary = path + ".partial"
        self.file = open(self.temporary, "w", encoding="ascii", newline="", buffering=1 << 20)
        self.bytes = 0
        self.pending: list[str] = []

    def add(self, text: str):
        self.pending.append(text)
        self.bytes += len(text)
        if len(self.pending) >= BATCH:
            self.flush()

    def flush(self):
        if self.pending:
            self.file.write("".join(self.pending))
            self.pending.clear()

    def close(self):
        self.flush()
        self.file.close()
        os.replace(self.temporary, self.path)


# --------------------------------------------------------------------------------------------
# Plain timed events


class PlainEvents:
    """Timed VEVENTs with UTC starts over [first, last], as event texts."""

    def __init__(self, rng: random.Random, first: dt.date, last: dt.date, uid_prefix: str, pool=512):
        self.rng = rng
        self.uid_prefix = uid_prefix
        days = (last - first).days + 1
        self.days = days
        # One more day: an event late in the evening may end after midnight.
        self.day_text = [(first + dt.timedelta(days=k)).strftime("%Y%m%d") for k in range(days + 1)]
        # A pool of folded DESCRIPTION lines; the pool is drawn from the same seeded generator.
        self.descriptions = []
        for _ in range(pool):
            length = rng.randrange(64, 113)  # always longer than one 75-octet line
            words = []
            size = 0
            while size < length:
                word = rng.choice(WORDS)
                words.append(word)
                size += len(word) + 1
            text = " ".join(words)[:length].rstrip()
            comma = text.find(" ", 20)
            if comma > 0:  # an escaped comma, as exporters write them
                text = text[:comma] + "," + text[comma:]
            self.descriptions.append(fold("DESCRIPTION:" + escape_text(text)))
        self.summaries = ["Practice", "Scales", "Theory", "Ear training", "Repertoire", "Lesson",
                          "Sight reading", "Technique", "Recital prep", "Improvisation"]
        self.lengths = (15, 20, 25, 30, 45, 60, 75, 90, 120)

    def event(self, number: int) -> str:
        rng = self.rng
        day = rng.randrange(self.days)
        start = rng.randrange(6 * 60, 22 * 60)  # minutes after midnight UTC
        length = rng.choice(self.lengths)
        points = rng.randrange(5, 61)
        start_text = f"{self.day_text[day]}T{start // 60:02d}{start % 60:02d}00Z"
        if rng.random() < 0.5:
            end = start + length
            end_day = day + end // 1440
            end %= 1440
            end_line = f"DTEND:{self.day_text[end_day]}T{end // 60:02d}{end % 60:02d}00Z\r\n"
        else:
            hours, minutes = divmod(length, 60)
            end_line = "DURATION:PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "") + CRLF
        return ("BEGIN:VEVENT\r\n"
                f"UID:{self.uid_prefix}{number:08d}@bench.streakcal.example\r\n"
                f"DTSTAMP:{DTSTAMP}\r\n"
                f"DTSTART:{start_text}\r\n"
                + end_line
                + f"SUMMARY:{rng.choice(self.summaries)} #{number}\r\n"
                + self.descriptions[rng.randrange(len(self.descriptions))]
                + f"X-POINTS:{points}\r\n"
                "END:VEVENT\r\n")


def write_plain(path: str, seed: int, events: int | None, target_bytes: int | None,
                first=FIRST_DAY, last=LAST_DAY, uid_prefix="ev-", name="Import benchmark") -> dict:
    rng = random.Random(seed)
    source = PlainEvents(rng, first, last, uid_prefix, pool=min(512, max(16, events or 512)))
    out = Writer(path)
    out.add(calendar_header(name))
    count = 0
    if events is not None:
        for number in range(events):
            out.add(source.event(number))
        count = events
    else:
        goal = target_bytes - len(CALENDAR_TRAILER)
        while out.bytes < goal:
            out.add(source.event(count))
            count += 1
    out.add(CALENDAR_TRAILER)
    out.close()
    return {"events": count, "bytes": out.bytes, "from": first.isoformat(), "to": last.isoformat()}


# --------------------------------------------------------------------------------------------
# Recurring events

VTIMEZONE = {
    "Europe/Berlin": (
        "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
        "BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\n"
        "DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\n"
        "BEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\n"
        "DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\n"
        "END:VTIMEZONE\r\n"),
    "America/New_York": (
        "BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"
        "BEGIN:DAYLIGHT\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\n"
        "DTSTART:20070311T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\n"
        "BEGIN:STANDARD\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nTZNAME:EST\r\n"
        "DTSTART:20071104T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nEND:STANDARD\r\n"
        "END:VTIMEZONE\r\n"),
}
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date | None:
    """The n-th (1-4, or -1 for the last) given weekday of a month."""
    if n > 0:
        first = dt.date(year, month, 1)
        day = first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
        return day if day.month == month else None
    following = dt.date(year + month // 12, month % 12 + 1, 1)
    last = following - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def instances(rule: dict, start: dt.date, limit: int, stop: dt.date):
    """The first dates of a series (at most `limit`, none after `stop`), for the rules generated
    here only; used to put EXDATEs and RECURRENCE-IDs on real instances."""
    found = []
    kind, interval = rule["freq"], rule["interval"]
    if kind == "DAILY":
        day = start
        while len(found) < limit and day <= stop:
            found.append(day)
            day += dt.timedelta(days=interval)
    elif kind == "WEEKLY":
        week = start - dt.timedelta(days=start.weekday())  # WKST=MO
        while len(found) < limit and week <= stop:
            for weekday in sorted(rule["byday"]):
                day = week + dt.timedelta(days=weekday)
                if start <= day <= stop and len(found) < limit:
                    found.append(day)
            week += dt.timedelta(weeks=interval)
    else:  # MONTHLY
        year, month = start.year, start.month
        while len(found) < limit:
            if "bymonthday" in rule:
                day = dt.date(year, month, rule["bymonthday"])
            else:
                day = nth_weekday(year, month, rule["weekday"], rule["ordinal"])
            if day is not None:
                if day > stop:
                    break
                if day >= start:
                    found.append(day)
            month += interval
            year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return found


def write_recurrence(path: str, seed: int, series: int, first=FIRST_DAY, last=LAST_DAY) -> dict:
    rng = random.Random(seed)
    out = Writer(path)
    out.add(calendar_header("Import benchmark: recurring events"))
    out.add(VTIMEZONE["Europe/Berlin"])
    overrides = []
    counts = {"DAILY": 0, "WEEKLY": 0, "MONTHLY": 0, "exdates": 0, "overrides": 0,
              "COUNT": 0, "UNTIL": 0, "open": 0}
    span = (last - first).days
    for number in range(series):
        zone = rng.choices(["Europe/Berlin", "America/New_York", "UTC"], [40, 40, 20])[0]
        kind = rng.choices(["DAILY", "WEEKLY", "MONTHLY"], [25, 50, 25])[0]
        counts[kind] += 1
        start = first + dt.timedelta(days=rng.randrange(span - 60))
        minute = rng.randrange(6 * 4, 22 * 4) * 15  # 06:00-21:45 local
        rule = {"freq": kind, "interval": 1}
        text = "FREQ=" + kind
        if kind == "DAILY":
            rule["interval"] = rng.choice((1, 1, 1, 2, 3, 7))
        elif kind == "WEEKLY":
            rule["interval"] = rng.choice((1, 1, 1, 2))
            days = set(rng.sample(range(7), rng.choice((1, 1, 2, 3))))
            rule["byday"] = days
            start += dt.timedelta(days=(min(days) - start.weekday()) % 7)  # in step with BYDAY
            text += ";BYDAY=" + ",".join(WEEKDAYS[d] for d in sorted(days))
        else:
            rule["interval"] = rng.choice((1, 1, 1, 2, 3))
            if rng.random() < 0.5:
                rule["bymonthday"] = rng.randrange(1, 29)
                text += f";BYMONTHDAY={rule['bymonthday']}"
            else:
                rule["weekday"] = rng.randrange(7)
                rule["ordinal"] = rng.choice((1, 2, 3, 4, -1))
                text += f";BYDAY={rule['ordinal']}{WEEKDAYS[rule['weekday']]}"
            # The first matching day on or after the drawn one (it starts the INTERVAL counting).
            start = instances({**rule, "interval": 1}, start, 1, last + dt.timedelta(days=400))[0]
        if rule["interval"] > 1:
            text += f";INTERVAL={rule['interval']}"
        ending = rng.choices(["open", "COUNT", "UNTIL"], [40, 30, 30])[0]
        counts[ending] += 1
        stop = last
        limit = 400
        if ending == "COUNT":
            limit = rng.randrange(10, 501)
            text += f";COUNT={limit}"
        elif ending == "UNTIL":
            stop = min(last, start + dt.timedelta(days=rng.randrange(90, 5 * 366)))
            text += f";UNTIL={stop:%Y%m%d}T235959Z"
        # Only the first instances are candidates for EXDATEs and overrides: enough, and cheap.
        # Not the UNTIL day itself: a late local time on it may already be after UNTIL in UTC.
        candidates = instances(rule, start, min(limit, 400), stop - dt.timedelta(days=1))
        candidates = [day for day in candidates if day != start]
        hour, minutes = divmod(minute, 60)

        def stamp(day: dt.date, h=hour, m=minutes) -> str:
            return f"{day:%Y%m%d}T{h:02d}{m:02d}00" + ("Z" if zone == "UTC" else "")

        def prop(name: str, value: str) -> str:
            return f"{name};TZID={zone}:{value}" if zone != "UTC" else f"{name}:{value}"

        uid = f"series-{number:05d}@bench.streakcal.example"
        length = rng.choice((20, 30, 45, 60, 90))
        points = rng.randrange(5, 61)
        lines = ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{DTSTAMP}", prop("DTSTART", stamp(start))]
        if rng.random() < 0.5:
            end = hour * 60 + minutes + length
            lines.append(prop("DTEND", stamp(start + dt.timedelta(days=end // 1440), (end % 1440) // 60, end % 60)))
        else:
            lines.append(f"DURATION:PT{length}M")
        lines.append("RRULE:" + text)
        picked = rng.sample(candidates, min(len(candidates), rng.randrange(1, 6) + 3)) if candidates else []
        exdates = picked[:rng.randrange(1, 6)] if rng.random() < 0.6 else []
        moved = [day for day in picked if day not in exdates]
        if exdates:
            counts["exdates"] += len(exdates)
            if rng.random() < 0.5:
                lines.append(prop("EXDATE", ",".join(stamp(day) for day in sorted(exdates))))
            else:
                lines += [prop("EXDATE", stamp(day)) for day in sorted(exdates)]
        lines.append(f"SUMMARY:Recurring practice {number}")
        lines.append(f"DESCRIPTION:{kind.lower()} series {number}\\, {rng.choice(WORDS)} and {rng.choice(WORDS)}")
        lines.append(f"X-POINTS:{points}")
        lines.append("END:VEVENT")
        out.add("".join(fold(line) for line in lines))
        if moved and rng.random() < 0.10:
            for day in moved[:rng.randrange(1, 4)]:
                counts["overrides"] += 1
                if rng.random() < 0.3:
                    new_day, new_minute = day + dt.timedelta(days=1), minute
                else:
                    new_day = day
                    new_minute = min(max(minute + rng.choice((-180, -60, 60, 120)), 5 * 60), 22 * 60)
                new_start = stamp(new_day, new_minute // 60, new_minute % 60)
                overrides.append("".join(fold(line) for line in [
                    "BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{DTSTAMP}", prop("RECURRENCE-ID", stamp(day)),
                    prop("DTSTART", new_start), f"DURATION:PT{length + 15}M", "SEQUENCE:1",
                    f"SUMMARY:Recurring practice {number} (moved)", f"X-POINTS:{rng.randrange(61, 120)}",
                    "END:VEVENT"]))
    rng.shuffle(overrides)
    for text in overrides:
        out.add(text)
    out.add(VTIMEZONE["America/New_York"])
    out.add(CALENDAR_TRAILER)
    out.close()
    return {"series": series, **counts, "bytes": out.bytes, "from": first.isoformat(), "to": last.isoformat()}


# --------------------------------------------------------------------------------------------
# Many small calendars


def write_batch(directory: str, seed: int, files: int, events: int) -> dict:
    total_bytes = 0
    paths = []
    for number in range(files):
        group, member = number // 100, (number // 10) % 10
        relative = os.path.join(f"group-{group:02d}", f"member-{member:02d}", f"calendar-{number:04d}.ics")
        year = LAST_DAY.year
        info = write_plain(os.path.join(directory, relative), seed * 100_003 + number, events, None,
                           dt.date(year, 1, 1), dt.date(year, 12, 31), uid_prefix=f"c{number:04d}-",
                           name=f"Member calendar {number}")
        total_bytes += info["bytes"]
        paths.append(relative)
    return {"files": files, "events_per_file": events, "bytes": total_bytes}


# --------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="workload", required=True)
    plain = sub.add_parser("plain", help="timed VEVENTs, by count or by size")
    size = plain.add_mutually_exclusive_group(required=True)
    size.add_argument("--events", type=int, help="number of VEVENTs")
    size.add_argument("--bytes", type=parse_size, help="target size (10MiB, 1GiB, 28MB, ...)")
    recurrence = sub.add_parser("recurrence", help="recurring events over ten years")
    recurrence.add_argument("--series", type=int, default=1000)
    batch = sub.add_parser("batch", help="many small calendars in a folder tree")
    batch.add_argument("--files", type=int, default=1000)
    batch.add_argument("--events", type=int, default=50)
    for command in (plain, recurrence, batch):
        command.add_argument("--seed", type=int, default=1)
        command.add_argument("--out", required=True, help="output file (batch: folder)")
        command.add_argument("--keep-if-current", action="store_true",
                             help="do nothing when OUT and its sidecar exist and were written by this "
                             "very generator with the same arguments")
    args = parser.parse_args(argv)
    with open(os.path.abspath(__file__), "rb") as f:
        generator = hashlib.sha256(f.read()).hexdigest()[:16]
    arguments = {k: v for k, v in vars(args).items() if k not in ("workload", "out", "keep_if_current")}
    sidecar = args.out + ".json" if args.workload != "batch" else os.path.join(args.out, "manifest.json")
    if args.keep_if_current and os.path.exists(args.out) and os.path.exists(sidecar):
        try:
            with open(sidecar, encoding="utf-8") as f:
                previous = json.load(f)
        except (OSError, ValueError):
            previous = {}
        if previous.get("generator") == generator and previous.get("arguments") == arguments \
                and previous.get("workload") == args.workload:
            print(json.dumps({**previous, "reused": True}, sort_keys=True))
            return 0

    if os.path.exists(sidecar):
        os.remove(sidecar)  # no stale sidecar if this run is interrupted
    if args.workload == "plain":
        info = write_plain(args.out, args.seed, args.events, args.bytes)
    elif args.workload == "recurrence":
        info = write_recurrence(args.out, args.seed, args.series)
    else:
        if os.path.isdir(args.out):
            shutil.rmtree(args.out)  # no calendars left over from a larger --files
        info = write_batch(args.out, args.seed, args.files, args.events)
    record = {"workload": args.workload, "arguments": arguments, "generator": generator, **info}
    with open(sidecar, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(record, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
