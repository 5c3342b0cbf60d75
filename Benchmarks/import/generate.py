#!/usr/bin/env python3
"""Deterministic generator of the import benchmark's calendars (issues 5 and 14). Standard library only.

    generate.py plain --events 100000 --out plain.ics       # 100,000 timed VEVENTs (about 28 MB)
    generate.py plain --bytes 1GiB --out big.ics             # as many events as fill about 1 GiB
    generate.py recurrence --series 1000 --out rec.ics       # 1,000 recurring events over 10 years
    generate.py batch --files 1000 --events 50 --out DIR     # 1,000 small calendars in a folder tree
    generate.py rich --bytes 28MB --out rich.ics             # a shape (rich, zones, recurring, google,
                                                             #   apple, outlook), by size or --events
    generate.py batch --shape google --files 500 --bytes 40KB --out DIR   # many calendars of a shape

Every workload takes --seed (default 1): the same arguments give the same bytes (and
--keep-if-current, which skips the work when OUT already holds exactly that). Files are written
as they are generated, a bounded batch of events at a time, so a 1 GiB calendar needs no more memory
than a small one. Each run writes a sidecar `OUT.json` (for batch: `DIR/manifest.json`) with the
arguments, the counts, the bytes and the window the events fall in, and prints it.

All output is valid RFC 5545: CRLF line ends, lines folded at 75 octets (never inside a UTF-8
character), UID and DTSTAMP on every VEVENT, parameter values quoted where `paramtext` does not
allow them, EXDATEs and RECURRENCE-IDs on real instances. One departure on purpose: the `zones`
shape (and `recurring`'s Asia/Tokyo series) names IANA and Windows zones that no VTIMEZONE of the
file defines, as real calendars do, where section 3.2.19 asks for a VTIMEZONE for every TZID.

Workloads of issue 5 (ASCII only):

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
            one --from/--to window fits every file). With --shape, calendars of that shape
            (--events or --bytes each).

Shapes of issue 14 (UTF-8; the same ten years; local times 06:00-22:00, away from DST switches;
each class's docstring below says what it holds):

rich        UTC events with DESCRIPTIONs of realistic length (some pages long), LOCATION,
            ORGANIZER, ATTENDEEs, CATEGORIES, URL, X- properties, 1-2 VALARMs; X-POINTS.
zones       IANA zones without VTIMEZONE, Windows zone names, custom TZIDs defined by VTIMEZONEs
            before and after their users, UTC, floating and all-day events; X-POINTS.
recurring   series over the decade with EXDATEs, RDATEs and many RECURRENCE-ID overrides; X-POINTS.
google, apple, outlook
            exports as each vendor writes them (header, VTIMEZONEs and where they stand, property
            order, X- properties, UIDs, folding, recurring series with overrides); no X-POINTS:
            report them with --points minutes (the sidecar's "points" says which).
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
    """A file written in batches as UTF-8, counting its bytes."""

    def __init__(self, path: str):
        directory = os.path.dirname(os.path.abspath(path))
        os.makedirs(directory, exist_ok=True)
        self.path = path
        self.temporary = path + ".partial"
        self.file = open(self.temporary, "wb", buffering=1 << 20)
        self.bytes = 0
        self.pending: list[bytes] = []

    def add(self, text: str):
        data = text.encode("utf-8")
        self.pending.append(data)
        self.bytes += len(data)
        if len(self.pending) >= BATCH:
            self.flush()

    def flush(self):
        if self.pending:
            self.file.write(b"".join(self.pending))
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
    elif kind == "YEARLY":  # on DTSTART's month and day
        year = start.year
        while len(found) < limit:
            day = dt.date(year, start.month, start.day)
            if day > stop:
                break
            found.append(day)
            year += interval
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


def draw_monthly(rng: random.Random, rule: dict, text: str, start: dt.date, last: dt.date) -> tuple[str, dt.date]:
    """A MONTHLY rule's INTERVAL and BYMONTHDAY or BYDAY=nWD, drawn into `rule` and appended to `text`;
    returns the text and the first matching day on or after `start` (it starts the INTERVAL counting)."""
    rule["interval"] = rng.choice((1, 1, 1, 2, 3))
    if rng.random() < 0.5:
        rule["bymonthday"] = rng.randrange(1, 29)
        text += f";BYMONTHDAY={rule['bymonthday']}"
    else:
        rule["weekday"] = rng.randrange(7)
        rule["ordinal"] = rng.choice((1, 2, 3, 4, -1))
        text += f";BYDAY={rule['ordinal']}{WEEKDAYS[rule['weekday']]}"
    return text, instances({**rule, "interval": 1}, start, 1, last + dt.timedelta(days=400))[0]


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
            text, start = draw_monthly(rng, rule, text, start, last)
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
# Shapes: calendars whose property mixes differ from `plain` (issue 14)
#
# Each shape is a header, a stream of units (one VEVENT, or a recurring series with its
# overrides) and what follows them (overrides kept back, VTIMEZONEs after their users). The facts
# about the vendors' exports (property order, X- properties, VTIMEZONE blocks and where they
# stand, UID forms, folding) are taken from real exports; no real export is copied.


def fold_text(line: str) -> str:
    """A content line folded at 75 octets (RFC 5545 3.1), never inside a UTF-8 character, with its CRLF."""
    if line.isascii():
        return fold(line)
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line + CRLF
    parts = []
    start, limit = 0, 75
    while start < len(data):
        end = min(start + limit, len(data))
        while end < len(data) and data[end] & 0xC0 == 0x80:
            end -= 1
        parts.append(data[start:end].decode("utf-8"))
        start, limit = end, 74
    return (CRLF + " ").join(parts) + CRLF


def folded(lines) -> str:
    return "".join(fold_text(line) for line in lines)


# Zone rules (observance, DTSTART, RRULE or None, TZOFFSETFROM, TZOFFSETTO, TZNAME) that hold over
# 2015-2024 (and agree with the IANA zone of the same name there).
IANA_RULES = {
    "Europe/Berlin": [
        ("DAYLIGHT", "19700329T020000", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "+0100", "+0200", "CEST"),
        ("STANDARD", "19701025T030000", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "+0200", "+0100", "CET")],
    "Europe/London": [
        ("DAYLIGHT", "19810329T010000", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "+0000", "+0100", "BST"),
        ("STANDARD", "19961027T020000", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "+0100", "+0000", "GMT")],
    "America/New_York": [
        ("DAYLIGHT", "20070311T020000", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "-0500", "-0400", "EDT"),
        ("STANDARD", "20071104T020000", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "-0400", "-0500", "EST")],
    "America/Los_Angeles": [
        ("DAYLIGHT", "20070311T020000", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "-0800", "-0700", "PDT"),
        ("STANDARD", "20071104T020000", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "-0700", "-0800", "PST")],
    "Asia/Tokyo": [("STANDARD", "19700101T000000", None, "+0900", "+0900", "JST")],
}
# Outlook's blocks for Windows zone names: onsets from 1601, BYDAY before BYMONTH.
WINDOWS_RULES = {
    "W. Europe Standard Time": [
        ("STANDARD", "16011028T030000", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "+0200", "+0100", None),
        ("DAYLIGHT", "16010325T020000", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "+0100", "+0200", None)],
    "Pacific Standard Time": [
        ("STANDARD", "16011104T020000", "FREQ=YEARLY;BYDAY=1SU;BYMONTH=11", "-0700", "-0800", None),
        ("DAYLIGHT", "16010311T020000", "FREQ=YEARLY;BYDAY=2SU;BYMONTH=3", "-0800", "-0700", None)],
    "GMT Standard Time": [
        ("STANDARD", "16011028T020000", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "+0100", "+0000", None),
        ("DAYLIGHT", "16010325T010000", "FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "+0000", "+0100", None)],
}
# TZIDs no IANA or Windows name matches, each defined by a VTIMEZONE of the `zones` shape: the first
# four stand before the events, the others after them. Transitions fall at 01:00-03:00 local.
CUSTOM_RULES = {
    "Customized Time Zone": [  # as Outlook names a zone whose rules were edited: ends on the 4th Sunday
        ("STANDARD", "16010101T030000", "FREQ=YEARLY;INTERVAL=1;BYDAY=4SU;BYMONTH=10", "+0200", "+0100", None),
        ("DAYLIGHT", "16010101T020000", "FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3", "+0100", "+0200", None)],
    "Studio Time (Berlin)": IANA_RULES["Europe/Berlin"],
    "Lab +0530": [("STANDARD", "19700101T000000", None, "+0530", "+0530", "LAB")],
    "Tokyo Office": [("STANDARD", "19700101T000000", None, "+0900", "+0900", "JST")],
    "Custom Eastern": IANA_RULES["America/New_York"],
    "Sydney Rehearsal Room": [
        ("STANDARD", "20080406T030000", "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "+1100", "+1000", "AEST"),
        ("DAYLIGHT", "20081005T020000", "FREQ=YEARLY;BYMONTH=10;BYDAY=1SU", "+1000", "+1100", "AEDT")],
    "Camp Halifax": [
        ("DAYLIGHT", "20070311T020000", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "-0400", "-0300", "ADT"),
        ("STANDARD", "20071104T020000", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "-0300", "-0400", "AST")],
    "Office (UTC-03:00)": [("STANDARD", "19700101T000000", None, "-0300", "-0300", "-03")],
}
CUSTOM_BEFORE = ["Customized Time Zone", "Studio Time (Berlin)", "Lab +0530", "Tokyo Office"]
CUSTOM_AFTER = ["Custom Eastern", "Sydney Rehearsal Room", "Camp Halifax", "Office (UTC-03:00)"]
# IANA zones whose rules did not change over 2015-2024 (no VTIMEZONE in the file).
IANA_ZONES = [
    "Europe/Berlin", "Europe/London", "Europe/Paris", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam",
    "Europe/Stockholm", "Europe/Warsaw", "Europe/Athens", "Europe/Helsinki", "Europe/Zurich", "Europe/Lisbon",
    "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
    "America/Anchorage", "America/Toronto", "America/Vancouver", "America/Bogota", "America/Lima",
    "Asia/Tokyo", "Asia/Shanghai", "Asia/Kolkata", "Asia/Dubai", "Asia/Singapore", "Asia/Seoul",
    "Asia/Jerusalem", "Australia/Sydney", "Australia/Perth", "Australia/Adelaide", "Pacific/Auckland",
    "Africa/Johannesburg", "Africa/Lagos", "Africa/Nairobi"]
# Windows zone names (no VTIMEZONE in the file), read as CLDR's zone for each.
WINDOWS_ZONES = [
    "W. Europe Standard Time", "Romance Standard Time", "Central European Standard Time", "GMT Standard Time",
    "FLE Standard Time", "Eastern Standard Time", "Central Standard Time", "Mountain Standard Time",
    "US Mountain Standard Time", "Pacific Standard Time", "Atlantic Standard Time", "Tokyo Standard Time",
    "China Standard Time", "India Standard Time", "Korea Standard Time", "Singapore Standard Time",
    "Arabian Standard Time", "AUS Eastern Standard Time", "Cen. Australia Standard Time",
    "New Zealand Standard Time", "South Africa Standard Time", "Israel Standard Time"]


def tzid_parameter(tzid: str) -> str:
    """`TZID=...` for a parameter list, quoted when the name has a character `paramtext` excludes."""
    return f'TZID="{tzid}"' if any(c in tzid for c in ':;,') else f"TZID={tzid}"


def vtimezone_lines(tzid: str, rules, style: str) -> list[str]:
    """A VTIMEZONE as a vendor writes it: `google` (X-LIC-LOCATION, offsets first), `apple` (offsets
    around the rule), `outlook` (DTSTART and RRULE first, no TZNAME) or `plain`."""
    lines = ["BEGIN:VTIMEZONE", f"TZID:{tzid}"]
    if style == "google":
        lines.append(f"X-LIC-LOCATION:{tzid}")
    for kind, start, rule, offset_from, offset_to, name in rules:
        lines.append(f"BEGIN:{kind}")
        rule_lines = [f"RRULE:{rule}"] if rule else []
        name_lines = [f"TZNAME:{name}"] if name else []
        if style == "google":
            lines += [f"TZOFFSETFROM:{offset_from}", f"TZOFFSETTO:{offset_to}", *name_lines, f"DTSTART:{start}",
                      *rule_lines]
        elif style == "apple":
            lines += [f"TZOFFSETFROM:{offset_from}", *rule_lines, f"DTSTART:{start}", *name_lines,
                      f"TZOFFSETTO:{offset_to}"]
        elif style == "outlook":
            lines += [f"DTSTART:{start}", *rule_lines, f"TZOFFSETFROM:{offset_from}", f"TZOFFSETTO:{offset_to}"]
        else:
            lines += [f"TZOFFSETFROM:{offset_from}", f"TZOFFSETTO:{offset_to}", *name_lines, f"DTSTART:{start}",
                      *rule_lines]
        lines.append(f"END:{kind}")
    lines.append("END:VTIMEZONE")
    return lines


# Words and names: English, German, French, Spanish, Russian, Japanese, so that text has non-ASCII
# UTF-8 of two and three octets.
TEXT_WORDS = (
    "practice scales arpeggios sight reading etude sonata allegro adagio tempo metronome intervals "
    "chords voicing rhythm dynamics phrasing breathing posture warm-up review notes lesson homework "
    "repertoire recital memory slow fast clean hands together pedal legato staccato accents crescendo "
    "bars section coda the and with for before after slowly twice again then "
    "Übung Tonleitern Fingersatz Gehörbildung größer Klänge Stück schön Geläufigkeit "
    "répétition été déjà élève leçon café naïve pièce "
    "canción año mañana lección "
    "упражнение гаммы темп урок "
    "練習 音階 リズム 和音 テンポ").split()
SHAPE_SUMMARIES = [
    "Piano practice", "Scales & arpeggios", "Übung: Tonleitern", "Répétition générale", "Lesson with Zoë",
    "Ear training", "Sight reading", "Gehörbildung", "練習（音階）", "Практика", "Recital prep",
    "Étude op. 10, no. 3", "Theory; harmony", "Chamber music – trio", "Improvisation", "Technique",
    "Choir rehearsal", "Jam session", "Mañana: ensayo", "Metronome work"]
PEOPLE = [
    ("Anna", "Müller"), ("Jürgen", "Groß"), ("Zoë", "Martin"), ("Chloé", "Dubois"), ("Søren", "Nielsen"),
    ("Ming", "Li"), ("Olivia", "Smith"), ("Noah", "Johnson"), ("Aiko", "Tanaka"), ("Mateo", "García"),
    ("Ирина", "Петрова"), ("Liam", "O'Brien"), ("Fatima", "Khan"), ("Lukas", "Schäfer"), ("Emma", "Brown"),
    ("Hiroshi", "Sato"), ("Léa", "Bernard"), ("Pablo", "Núñez"), ("Ava", "Wilson"), ("Jonas", "Weiß")]
PLACES = [
    "Studio 3, Musikschule Köln", "Room 101; Conservatoire", "Home", "Salle Pleyel, Paris",
    "Gemeindehaus, Lindenstraße 12, 50674 Köln", "Online", "Carnegie Hall, 881 7th Ave, New York, NY 10019",
    "東京オペラシティ", "Café Müller", "Escuela de Música, Calle Mayor 5, Madrid"]


def email(first: str, last: str, domain="example.org") -> str:
    local = "".join(c for c in f"{first}.{last}".lower() if c.isascii() and (c.isalnum() or c == "."))
    return f"{local or 'guest'}@{domain}"


def sentence_text(rng: random.Random, length: int) -> str:
    """Text of about `length` characters in sentences, with line breaks (escaped as \\n later)."""
    out, size = [], 0
    while size < length:
        words = [rng.choice(TEXT_WORDS) for _ in range(rng.randrange(4, 14))]
        sentence = " ".join(words)
        sentence = sentence[0].upper() + sentence[1:] + rng.choice((".", ".", ".", "!", ";", ":", ","))
        if rng.random() < 0.12:
            sentence += "\n"
        elif rng.random() < 0.05:
            sentence += "\n\n- "
        out.append(sentence)
        size += len(sentence) + 1
    return " ".join(out)[:length].rstrip()


def description_length(rng: random.Random) -> int:
    """Lengths as notes run: many short, some paragraphs, a few pasted pages."""
    draw = rng.random()
    if draw < 0.40:
        return rng.randrange(10, 80)
    if draw < 0.80:
        return rng.randrange(80, 600)
    if draw < 0.995:
        return rng.randrange(600, 4000)
    return rng.randrange(8000, 40000)  # a pasted e-mail or score notes: hundreds of folded lines


def uid_hex(rng: random.Random, bits=128) -> str:
    return f"{rng.getrandbits(bits):0{bits // 4}x}"


def apple_uid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032X}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def google_uid(rng: random.Random) -> str:
    alphabet = "0123456789abcdefghijklmnopqrstuv"
    value = rng.getrandbits(130)
    return "".join(alphabet[(value >> (5 * k)) & 31] for k in range(26)) + "@google.com"


def outlook_uid(rng: random.Random) -> str:
    return ("040000008200E00074C5B7101A82E00800000000" + f"{rng.getrandbits(64):016X}"
            + "00000000000000001000000" + f"{rng.getrandbits(128):032X}")


def utc_text(day: dt.date, minute: int) -> str:
    return f"{day:%Y%m%d}T{minute // 60:02d}{minute % 60:02d}00Z"


def wall_text(day: dt.date, minute: int) -> str:
    return f"{day:%Y%m%d}T{minute // 60:02d}{minute % 60:02d}00"


def stamp_before(day: dt.date, rng: random.Random, days=60) -> str:
    when = day - dt.timedelta(days=rng.randrange(1, days))
    return f"{when:%Y%m%d}T{rng.randrange(24):02d}{rng.randrange(60):02d}{rng.randrange(60):02d}Z"


def minutes_text(length: int) -> str:
    hours, minutes = divmod(length, 60)
    return "PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")


class SeriesPlan:
    """A recurring series over [first, last]: its rule, its first day and time, its EXDATEs, RDATEs and
    overrides, all on real instances (or, for RDATEs, on days that are none)."""

    def __init__(self, rng: random.Random, first: dt.date, last: dt.date, kinds, lifetimes, minute: int,
                 overrides: tuple[int, int], exdates: tuple[int, int], rdates: tuple[int, int], all_day=False):
        span = (last - first).days
        kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        start = first + dt.timedelta(days=rng.randrange(max(1, span - 20)))
        rule = {"freq": kind, "interval": 1}
        text = "FREQ=" + kind
        period = 1
        if kind == "DAILY":
            rule["interval"] = rng.choice((1, 1, 1, 2, 3))
            period = rule["interval"]
        elif kind == "WEEKLY":
            rule["interval"] = rng.choice((1, 1, 1, 2))
            days = set(rng.sample(range(7), rng.choice((1, 1, 1, 2, 3))))
            rule["byday"] = days
            start += dt.timedelta(days=(min(days) - start.weekday()) % 7)
            text += ";BYDAY=" + ",".join(WEEKDAYS[d] for d in sorted(days))
            period = 7 * rule["interval"] / len(days)
        elif kind == "MONTHLY":
            text, start = draw_monthly(rng, rule, text, start, last)
            period = 30.4 * rule["interval"]
        else:  # YEARLY, on the start's month and day (never February 29)
            if start.month == 2 and start.day == 29:
                start -= dt.timedelta(days=1)
            period = 365.25
        if rule["interval"] > 1:
            text += f";INTERVAL={rule['interval']}"
        lifetime = rng.randrange(*lifetimes[kind])
        ending = rng.choices(["open", "COUNT", "UNTIL"], [20, 30, 50])[0]
        stop, limit = last, 100_000
        if ending == "COUNT":
            limit = max(2, int(lifetime / period))
            text += f";COUNT={limit}"
        elif ending == "UNTIL":
            stop = min(last, start + dt.timedelta(days=lifetime))
            text += f";UNTIL={stop:%Y%m%d}" if all_day else f";UNTIL={stop:%Y%m%d}T235959Z"
        self.kind, self.rule, self.rule_text, self.start, self.minute = kind, rule, text, start, minute
        self.all_day = all_day
        # Candidates for EXDATEs and overrides: the first 400 instances, not the first (DTSTART) nor
        # the UNTIL day (a late local time there may already be after UNTIL in UTC).
        every = instances(rule, start, min(limit, 402), stop)
        candidates = [day for day in every if day != start and day < stop][:400]
        wanted_ex = rng.randrange(*exdates) if exdates[1] > 0 else 0
        wanted_ov = rng.randrange(*overrides) if overrides[1] > 0 else 0
        picked = rng.sample(candidates, min(len(candidates) * 2 // 3, wanted_ex + wanted_ov))
        self.exdates = sorted(picked[:min(wanted_ex, len(picked) // 3 + (1 if picked else 0))])
        self.moved = sorted(set(picked) - set(self.exdates))
        extra_days = []
        if wanted_rd := (rng.randrange(*rdates) if rdates[1] > 0 else 0):
            taken = set(every)
            for day in rng.sample(candidates, min(len(candidates), wanted_rd)):
                extra = day + dt.timedelta(days=1)
                if extra not in taken and extra <= last and (kind != "DAILY" or rule["interval"] > 1):
                    extra_days.append(extra)
                    taken.add(extra)
        self.rdates = sorted(extra_days)

    def override_start(self, rng: random.Random, day: dt.date) -> tuple[dt.date, int]:
        """Where an override moves an instance: another hour the same day, or the next day."""
        if rng.random() < 0.3:
            return day + dt.timedelta(days=1), self.minute
        minute = min(max(self.minute + rng.choice((-180, -120, -60, -30, 30, 60, 90, 120)), 6 * 60), 21 * 60 + 45)
        return day, minute


class Shape:
    """A calendar's make-up: header, units (an event, or a series with its overrides), and what follows."""

    points = "x-points"  # or "minutes": how `--points` counts this shape (vendors' exports have no X-POINTS)
    python_mode = "plain"  # or "recurrence": python_totals.py's mode for this shape

    def __init__(self, rng: random.Random, first: dt.date, last: dt.date, name: str):
        self.rng, self.first, self.last, self.name = rng, first, last, name
        self.days = (last - first).days + 1
        self.counts = {"events": 0}
        # Units written later (overrides kept back): (units to wait, text).
        self.later: list[list] = []

    def count(self, key: str, by: int = 1):
        self.counts[key] = self.counts.get(key, 0) + by

    def header(self) -> str:
        raise NotImplementedError

    def unit(self) -> str:
        raise NotImplementedError

    def after_events(self) -> str:
        """What stands after the events (VTIMEZONEs after their users)."""
        return ""

    def next_text(self) -> str:
        """The next unit's text, with the kept-back texts whose turn has come."""
        text = self.unit()
        due = [entry for entry in self.later if entry[0] <= 0]
        for entry in self.later:
            entry[0] -= 1
        if due:
            self.later = [entry for entry in self.later if entry[0] > 0]
            text += "".join(entry[1] for entry in due)
        return text

    def pending_bytes(self) -> int:
        return sum(len(entry[1].encode("utf-8")) for entry in self.later)

    def trailer(self) -> str:
        return "".join(entry[1] for entry in self.later) + self.after_events() + CALENDAR_TRAILER


class RichShape(Shape):
    """Events as a full-featured client writes them: DESCRIPTION of realistic length (a few pages
    long, folded over hundreds of lines; escapes; non-ASCII), LOCATION, ORGANIZER, 1-8 ATTENDEEs
    with parameters, CATEGORIES, URL, X- properties, 1-2 VALARMs; UTC times, X-POINTS."""

    def __init__(self, rng, first, last, name):
        super().__init__(rng, first, last, name)
        self.descriptions = [fold_text("DESCRIPTION:" + escape_text(sentence_text(rng, description_length(rng))))
                             for _ in range(1024)]
        self.attendees = []
        for _ in range(256):
            first_name, last_name = rng.choice(PEOPLE)
            role = rng.choice(("REQ-PARTICIPANT", "REQ-PARTICIPANT", "OPT-PARTICIPANT", "CHAIR"))
            status = rng.choice(("ACCEPTED", "ACCEPTED", "NEEDS-ACTION", "TENTATIVE", "DECLINED"))
            self.attendees.append(fold_text(
                f'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE={role};PARTSTAT={status};RSVP={rng.choice(("TRUE", "FALSE"))};'
                f'CN="{last_name}, {first_name}":mailto:{email(first_name, last_name)}'))
        self.lengths = (15, 20, 30, 45, 60, 75, 90, 120)

    def header(self):
        return calendar_header(self.name)

    def unit(self):
        rng = self.rng
        number = self.counts["events"]
        self.count("events")
        day = self.first + dt.timedelta(days=rng.randrange(self.days))
        start = rng.randrange(6 * 12, 22 * 12) * 5
        length = rng.choice(self.lengths)
        summary = rng.choice(SHAPE_SUMMARIES)
        if rng.random() < 0.5:
            end = start + length
            end_line = f"DTEND:{utc_text(day + dt.timedelta(days=end // 1440), end % 1440)}"
        else:
            end_line = f"DURATION:{minutes_text(length)}"
        status = rng.choices(("CONFIRMED", "TENTATIVE", "CANCELLED"), (90, 8, 2))[0]
        organizer = rng.choice(PEOPLE)
        head = [
            "BEGIN:VEVENT", f"UID:{uid_hex(rng, 64)}-{number}@rich.bench.streakcal.example", f"DTSTAMP:{DTSTAMP}",
            f"CREATED:{stamp_before(day, rng, 120)}", f"LAST-MODIFIED:{stamp_before(day, rng, 30)}",
            f"SEQUENCE:{rng.choice((0, 0, 1, 2, 3))}", f"DTSTART:{utc_text(day, start)}", end_line,
            f"SUMMARY:{escape_text(summary)}", f"LOCATION:{escape_text(rng.choice(PLACES))}"]
        tail = [
            f'ORGANIZER;CN="{organizer[1]}, {organizer[0]}":mailto:{email(*organizer)}',
            f"CATEGORIES:{rng.choice(('Practice', 'Lesson', 'Rehearsal'))},{rng.choice(('Piano', 'Voice', 'Strings', 'Theory'))}",
            f"URL:https://music.example.org/plans/{number}?view=week&lang=de", "CLASS:PUBLIC", f"STATUS:{status}",
            "TRANSP:OPAQUE", f"PRIORITY:{rng.choice((0, 1, 5, 9))}", f"X-POINTS:{rng.randrange(5, 61)}",
            f"X-MOZ-GENERATION:{rng.randrange(1, 9)}",
            f"X-STREAKCAL-BENCH-NOTE;X-SOURCE=rich;LANGUAGE=de:Stück {number % 97}"]
        alarms = ["BEGIN:VALARM", "ACTION:DISPLAY", f"DESCRIPTION:Reminder: {escape_text(summary)}",
                  f"TRIGGER;RELATED=START:-PT{rng.choice((5, 10, 15, 30))}M", "END:VALARM"]
        if rng.random() < 0.4:
            first_name, last_name = rng.choice(PEOPLE)
            alarms += ["BEGIN:VALARM", "ACTION:EMAIL", f"ATTENDEE:mailto:{email(first_name, last_name)}",
                       f"SUMMARY:{escape_text(summary)}", "DESCRIPTION:Tomorrow\\, don't forget the scores",
                       "TRIGGER:-P1D", "END:VALARM"]
        attendees = "".join(rng.choice(self.attendees) for _ in range(rng.randrange(1, 9)))
        self.count("attendees", attendees.count("ATTENDEE;"))
        return (folded(head) + self.descriptions[rng.randrange(len(self.descriptions))] + attendees
                + folded(tail) + folded(alarms) + "END:VEVENT\r\n")


class ZonesShape(Shape):
    """Times in many zones: IANA names without a VTIMEZONE, Windows names, TZIDs only a VTIMEZONE of
    the file defines (four before their users, four after them), UTC, floating times and all-day
    events (VALUE=DATE, one or more days, DTEND, DURATION or none); X-POINTS."""

    def __init__(self, rng, first, last, name):
        super().__init__(rng, first, last, name)
        self.descriptions = [fold_text("DESCRIPTION:" + escape_text(sentence_text(rng, rng.randrange(20, 140))))
                             for _ in range(512)]
        self.lengths = (15, 20, 30, 45, 60, 90, 120)

    def header(self):
        return calendar_header(self.name) + "".join(
            folded(vtimezone_lines(tzid, CUSTOM_RULES[tzid], "plain")) for tzid in CUSTOM_BEFORE)

    def after_events(self):
        return "".join(folded(vtimezone_lines(tzid, CUSTOM_RULES[tzid], "plain")) for tzid in CUSTOM_AFTER)

    def unit(self):
        rng = self.rng
        number = self.counts["events"]
        self.count("events")
        day = self.first + dt.timedelta(days=rng.randrange(self.days))
        start = rng.randrange(6 * 4, 22 * 4) * 15  # local, away from the DST switches at 01:00-03:00
        length = rng.choice(self.lengths)
        kind = rng.choices(("iana", "windows", "custom", "utc", "floating", "all-day"), (25, 20, 20, 10, 10, 15))[0]
        self.count(kind)
        end = start + length
        end_day = day + dt.timedelta(days=end // 1440)
        if kind in ("iana", "windows", "custom"):
            tzid = rng.choice(IANA_ZONES if kind == "iana" else WINDOWS_ZONES if kind == "windows"
                              else CUSTOM_BEFORE + CUSTOM_AFTER)
            times = [f"DTSTART;{tzid_parameter(tzid)}:{wall_text(day, start)}",
                     f"DTEND;{tzid_parameter(tzid)}:{wall_text(end_day, end % 1440)}" if rng.random() < 0.7
                     else f"DURATION:{minutes_text(length)}"]
        elif kind == "utc":
            times = [f"DTSTART:{utc_text(day, start)}", f"DTEND:{utc_text(end_day, end % 1440)}"]
        elif kind == "floating":
            times = [f"DTSTART:{wall_text(day, start)}", f"DTEND:{wall_text(end_day, end % 1440)}"]
        else:
            times = [f"DTSTART;VALUE=DATE:{day:%Y%m%d}"]
            ending = rng.choices(("one", "several", "none", "duration"), (60, 15, 15, 10))[0]
            if ending == "one":
                times.append(f"DTEND;VALUE=DATE:{day + dt.timedelta(days=1):%Y%m%d}")
            elif ending == "several":
                times.append(f"DTEND;VALUE=DATE:{day + dt.timedelta(days=rng.randrange(2, 5)):%Y%m%d}")
            elif ending == "duration":
                times.append("DURATION:P1D")
        lines = ["BEGIN:VEVENT", f"UID:zone-{number:08d}@bench.streakcal.example", f"DTSTAMP:{DTSTAMP}", *times,
                 f"SUMMARY:{escape_text(rng.choice(SHAPE_SUMMARIES))} #{number}"]
        return (folded(lines) + self.descriptions[rng.randrange(len(self.descriptions))]
                + f"X-POINTS:{rng.randrange(5, 61)}\r\nEND:VEVENT\r\n")


class RecurringShape(Shape):
    """A decade of recurring series: RRULE (DAILY, WEEKLY, MONTHLY, YEARLY; COUNT, UNTIL or open),
    EXDATEs (one line or several), RDATEs, and many RECURRENCE-ID overrides per series (moved,
    other points, some cancelled): most right after their master, some before it, some written
    far on (1,000 units later). Zones: Europe/Berlin (VTIMEZONE first), America/New_York
    (VTIMEZONE last), Asia/Tokyo (no VTIMEZONE), UTC. X-POINTS."""

    python_mode = "recurrence"
    kinds = (("DAILY", 15), ("WEEKLY", 40), ("MONTHLY", 25), ("YEARLY", 20))
    lifetimes = {"DAILY": (14, 180), "WEEKLY": (90, 1460), "MONTHLY": (365, 3650), "YEARLY": (3650, 3651)}

    def header(self):
        return calendar_header(self.name) + folded(vtimezone_lines("Europe/Berlin", IANA_RULES["Europe/Berlin"], "plain"))

    def after_events(self):
        return folded(vtimezone_lines("America/New_York", IANA_RULES["America/New_York"], "plain"))

    def unit(self):
        rng = self.rng
        number = self.counts.get("series", 0)
        self.count("series")
        zone = rng.choices(("Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"), (40, 30, 10, 20))[0]
        minute = rng.randrange(6 * 4, 22 * 4) * 15
        plan = SeriesPlan(rng, self.first, self.last, self.kinds, self.lifetimes, minute,
                          overrides=(5, 41), exdates=(0, 13), rdates=(0, 5) if rng.random() < 0.4 else (0, 0))
        self.count(plan.kind)

        def when(day, at=None):
            at = plan.minute if at is None else at
            return utc_text(day, at) if zone == "UTC" else wall_text(day, at)

        def prop(name, value):
            return f"{name}:{value}" if zone == "UTC" else f"{name};TZID={zone}:{value}"

        uid = f"series-{number:07d}-{uid_hex(rng, 32)}@recurring.bench.streakcal.example"
        length = rng.choice((20, 30, 45, 60, 90))
        end = plan.minute + length
        lines = ["BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{DTSTAMP}", f"CREATED:{stamp_before(plan.start, rng, 30)}",
                 "SEQUENCE:0", prop("DTSTART", when(plan.start))]
        if rng.random() < 0.5:
            lines.append(prop("DTEND", when(plan.start + dt.timedelta(days=end // 1440), end % 1440)))
        else:
            lines.append(f"DURATION:{minutes_text(length)}")
        lines.append("RRULE:" + plan.rule_text)
        if plan.exdates:
            self.count("exdates", len(plan.exdates))
            if rng.random() < 0.5:
                lines.append(prop("EXDATE", ",".join(when(day) for day in plan.exdates)))
            else:
                lines += [prop("EXDATE", when(day)) for day in plan.exdates]
        if plan.rdates:
            self.count("rdates", len(plan.rdates))
            lines.append(prop("RDATE", ",".join(when(day) for day in plan.rdates)))
        summary = rng.choice(SHAPE_SUMMARIES)
        lines += [f"SUMMARY:{escape_text(summary)}",
                  f"DESCRIPTION:{escape_text(sentence_text(rng, rng.randrange(20, 300)))}",
                  f"LOCATION:{escape_text(rng.choice(PLACES))}", "STATUS:CONFIRMED", f"X-POINTS:{rng.randrange(5, 61)}",
                  "END:VEVENT"]
        master = folded(lines)
        self.count("events")
        overrides = []
        for day in plan.moved:
            new_day, new_minute = plan.override_start(rng, day)
            cancelled = rng.random() < 0.1
            new_end = new_minute + length + rng.choice((0, 0, 15, 30))
            overrides.append(folded([
                "BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{DTSTAMP}", prop("RECURRENCE-ID", when(day)),
                prop("DTSTART", when(new_day, new_minute)),
                prop("DTEND", when(new_day + dt.timedelta(days=new_end // 1440), new_end % 1440)),
                f"SEQUENCE:{rng.randrange(1, 4)}", f"SUMMARY:{escape_text(summary)} (moved)",
                f"STATUS:{'CANCELLED' if cancelled else 'CONFIRMED'}", f"X-POINTS:{rng.randrange(5, 120)}",
                "END:VEVENT"]))
        self.count("overrides", len(overrides))
        self.count("events", len(overrides))
        placement = rng.choices(("after", "before", "far"), (75, 10, 15))[0]
        if placement == "far" and overrides:
            self.later.append([1000, "".join(overrides)])
            return master
        if placement == "before":
            return "".join(overrides) + master
        return master + "".join(overrides)


class VendorShape(Shape):
    """What the three vendor shapes share: mostly single events, some series with overrides."""

    points = "minutes"
    python_mode = "recurrence"
    series_share = 0.06
    kinds = (("DAILY", 10), ("WEEKLY", 70), ("MONTHLY", 12), ("YEARLY", 8))
    lifetimes = {"DAILY": (5, 60), "WEEKLY": (30, 365), "MONTHLY": (180, 1095), "YEARLY": (3650, 3651)}
    lengths = (15, 30, 30, 45, 60, 60, 90, 120)

    def __init__(self, rng, first, last, name):
        super().__init__(rng, first, last, name)
        self.raw_descriptions = [sentence_text(rng, description_length(rng)) for _ in range(512)]
        self.descriptions = [escape_text(text) for text in self.raw_descriptions]
        self.meeting_notes = [escape_text(self.meeting_text(rng)) for _ in range(64)]

    @staticmethod
    def meeting_text(rng: random.Random) -> str:
        code = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(10))
        return (f"{sentence_text(rng, rng.randrange(40, 200))}\n\n-::~:~::~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~"
                f":~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~::~:~::-\nJoin with Google Meet: https://meet.google.com/"
                f"{code[:3]}-{code[3:7]}-{code[7:]}\nOr dial: (DE) +49 30 300195{rng.randrange(100, 999)} PIN: "
                f"{rng.randrange(10**8, 10**9)}#\nMore phone numbers: https://tel.meet/{code}?pin={rng.randrange(10**9)}"
                "\n\nLearn more about Meet at: https://support.google.com/a/users/answer/9282720\n\nPlease do not "
                "edit this section.\n-::~:~::~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~:~"
                ":~:~:~:~:~:~:~:~:~::~:~::-")

    def unit(self):
        rng = self.rng
        if rng.random() < self.series_share:
            return self.series()
        self.count("events")
        day = self.first + dt.timedelta(days=rng.randrange(self.days))
        if rng.random() < 0.12:
            self.count("all-day")
            span = rng.choices((1, 2, 3), (85, 10, 5))[0]
            return self.event(day, None, 0, None, span)
        zone = rng.choices(self.zones, self.zone_weights)[0]
        return self.event(day, rng.randrange(7 * 4, 21 * 4) * 15, rng.choice(self.lengths), zone)

    def series(self):
        rng = self.rng
        self.count("series")
        all_day = rng.random() < 0.15
        kinds = (("YEARLY", 1),) if all_day else self.kinds
        minute = None if all_day else rng.randrange(7 * 4, 21 * 4) * 15
        plan = SeriesPlan(rng, self.first, self.last, kinds, self.lifetimes, minute or 0,
                          overrides=(0, 0) if all_day or rng.random() < 0.6 else (1, 6),
                          exdates=(0, 0) if all_day or rng.random() < 0.5 else (1, 4), rdates=(0, 0), all_day=all_day)
        self.count(plan.kind)
        self.count("overrides", len(plan.moved))
        self.count("exdates", len(plan.exdates))
        self.count("events", 1 + len(plan.moved))
        zone = rng.choices(self.series_zones, self.series_zone_weights)[0]
        length = rng.choice(self.lengths)
        return self.series_text(plan, zone, length)

    # Times as this vendor writes them.
    def time_property(self, name: str, zone, day: dt.date, minute) -> str:
        if minute is None:
            return f"{name};VALUE=DATE:{day:%Y%m%d}"
        if zone == "UTC":
            return f"{name}:{utc_text(day, minute)}"
        return f"{name};TZID={zone}:{wall_text(day, minute)}"

    def times(self, zone, day, minute, length, span=1):
        if minute is None:
            return (self.time_property("DTSTART", zone, day, None),
                    self.time_property("DTEND", zone, day + dt.timedelta(days=span), None))
        end = minute + length
        return (self.time_property("DTSTART", zone, day, minute),
                self.time_property("DTEND", zone, day + dt.timedelta(days=end // 1440), end % 1440))

    def exdate_lines(self, plan, zone):
        return [self.time_property("EXDATE", zone, day, None if plan.all_day else plan.minute) for day in plan.exdates]


class GoogleShape(VendorShape):
    """Google Calendar's export: X-WR-CALNAME, X-WR-TIMEZONE and X-WR-CALDESC; a VTIMEZONE (with
    X-LIC-LOCATION) for each zone, first; single events in UTC, series in their TZID; properties in
    Google's order (DTSTART, DTEND, RRULE, EXDATE, DTSTAMP, UID, RECURRENCE-ID, ATTENDEEs, CREATED,
    DESCRIPTION, LAST-MODIFIED, LOCATION, SEQUENCE, STATUS, SUMMARY, TRANSP, VALARMs); UIDs of 26
    characters @google.com; Meet invitations in DESCRIPTION; overrides beside their master."""

    zones, zone_weights = ("UTC",), (1,)
    series_zones, series_zone_weights = ("Europe/Berlin", "America/New_York", "UTC"), (75, 15, 10)

    def header(self):
        return folded(["BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
                       "CALSCALE:GREGORIAN", "METHOD:PUBLISH", f"X-WR-CALNAME:{self.name}",
                       "X-WR-TIMEZONE:Europe/Berlin", "X-WR-CALDESC:Practice log\\, lessons and rehearsals"]
                      + vtimezone_lines("Europe/Berlin", IANA_RULES["Europe/Berlin"], "google")
                      + vtimezone_lines("America/New_York", IANA_RULES["America/New_York"], "google"))

    def body(self, uid, start, end, extra_head, summary, sequence, status="CONFIRMED", minute=None):
        rng = self.rng
        lines = [start, end, *extra_head[0], f"DTSTAMP:{DTSTAMP}", f"UID:{uid}", *extra_head[1]]
        if rng.random() < 0.3:
            organizer = rng.choice(PEOPLE)
            lines.append(f"ORGANIZER;CN={email(*organizer, 'gmail.com')}:mailto:{email(*organizer, 'gmail.com')}")
            for person in rng.sample(PEOPLE, rng.randrange(1, 6)):
                address = email(*person, "gmail.com")
                lines.append(f"ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT="
                             f"{rng.choice(('ACCEPTED', 'NEEDS-ACTION', 'DECLINED', 'TENTATIVE'))};CN={address};"
                             f"X-NUM-GUESTS=0:mailto:{address}")
            lines.append(f"X-GOOGLE-CONFERENCE:https://meet.google.com/{uid[:3]}-{uid[3:7]}-{uid[7:10]}")
            description = rng.choice(self.meeting_notes)
        else:
            description = rng.choice(self.descriptions) if rng.random() < 0.6 else ""
        created = stamp_before(self.first + dt.timedelta(days=self.days // 2), rng, 1000)
        lines += [f"CREATED:{created}", f"DESCRIPTION:{description}", f"LAST-MODIFIED:{created}",
                  f"LOCATION:{escape_text(rng.choice(PLACES)) if rng.random() < 0.4 else ''}", f"SEQUENCE:{sequence}",
                  f"STATUS:{status}", f"SUMMARY:{escape_text(summary)}",
                  f"TRANSP:{'TRANSPARENT' if minute is None else 'OPAQUE'}"]
        if minute is not None and rng.random() < 0.7:
            lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:This is an event reminder",
                      f"TRIGGER:-P0DT0H{rng.choice((10, 15, 30))}M0S", "END:VALARM"]
        lines.append("END:VEVENT")
        return folded(["BEGIN:VEVENT"] + lines)

    def event(self, day, minute, length, zone, span=1):
        start, end = self.times(zone, day, minute, length, span)
        status = "CANCELLED" if self.rng.random() < 0.01 else "CONFIRMED"
        return self.body(google_uid(self.rng), start, end, ([], []), self.rng.choice(SHAPE_SUMMARIES),
                         self.rng.choice((0, 0, 1)), status, minute)

    def series_text(self, plan, zone, length):
        rng = self.rng
        uid = google_uid(rng)
        minute = None if plan.all_day else plan.minute
        summary = rng.choice(SHAPE_SUMMARIES)
        start, end = self.times(zone, plan.start, minute, length)
        master = self.body(uid, start, end, (["RRULE:" + plan.rule_text] + self.exdate_lines(plan, zone), []),
                           summary, 0, minute=minute)
        overrides = []
        for day in plan.moved:
            new_day, new_minute = plan.override_start(rng, day)
            o_start, o_end = self.times(zone, new_day, new_minute, length)
            recurrence_id = self.time_property("RECURRENCE-ID", zone, day, plan.minute)
            overrides.append(self.body(uid, o_start, o_end, ([], [recurrence_id]), summary, 1,
                                       "CANCELLED" if rng.random() < 0.1 else "CONFIRMED", new_minute))
        if rng.random() < 0.5:
            return "".join(overrides) + master
        return master + "".join(overrides)


class AppleShape(VendorShape):
    """Apple Calendar (iCloud) export: METHOD, X-WR-CALNAME, X-APPLE-CALENDAR-COLOR, X-WR-TIMEZONE;
    timed events in their TZID (Europe/Berlin, America/New_York, America/Los_Angeles) with the
    VTIMEZONEs after the events, as iCloud writes them; properties in Apple's order (CREATED, UID,
    DTEND, RRULE, EXDATE, TRANSP, SUMMARY, LAST-MODIFIED, DTSTAMP, DTSTART, SEQUENCE, DESCRIPTION),
    X-APPLE-TRAVEL-ADVISORY-BEHAVIOR, X-APPLE-STRUCTURED-LOCATION (long, folded), alarms with
    X-WR-ALARMUID and ACKNOWLEDGED; upper-case UUIDs."""

    zones, zone_weights = ("Europe/Berlin", "America/New_York", "America/Los_Angeles"), (70, 15, 15)
    series_zones, series_zone_weights = zones, zone_weights

    def header(self):
        return folded(["BEGIN:VCALENDAR", "METHOD:PUBLISH", "VERSION:2.0", f"X-WR-CALNAME:{self.name}",
                       "PRODID:-//Apple Inc.//macOS 14.5//EN", "X-APPLE-CALENDAR-COLOR:#1BADF8",
                       "X-WR-TIMEZONE:Europe/Berlin", "CALSCALE:GREGORIAN"])

    def after_events(self):
        return "".join(folded(vtimezone_lines(zone, IANA_RULES[zone], "apple")) for zone in self.zones)

    def body(self, uid, start, end, rule_lines, recurrence_id, summary, sequence, minute, status=None):
        rng = self.rng
        created = stamp_before(self.first + dt.timedelta(days=self.days // 2), rng, 1000)
        lines = ["BEGIN:VEVENT", f"CREATED:{created}", f"UID:{uid}", end, *rule_lines, *recurrence_id,
                 f"TRANSP:{'TRANSPARENT' if minute is None else 'OPAQUE'}",
                 f"SUMMARY:{escape_text(summary)}", f"LAST-MODIFIED:{created}", f"DTSTAMP:{DTSTAMP}", start,
                 f"SEQUENCE:{sequence}"]
        if status:
            lines.append(f"STATUS:{status}")
        if rng.random() < 0.5:
            lines.append(f"DESCRIPTION:{rng.choice(self.descriptions)}")
        if rng.random() < 0.3:
            place = rng.choice(PLACES)
            lines += [f"LOCATION:{escape_text(place)}", "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC",
                      f'X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-ADDRESS="{place.replace(",", " ")}";'
                      f"X-APPLE-MAPKIT-HANDLE={uid_hex(rng, 256)}{uid_hex(rng, 128)};X-APPLE-RADIUS=70.58;"
                      f'X-APPLE-REFERENCEFRAME=1;X-TITLE="{place.split(",")[0]}":geo:50.9{rng.randrange(1000)},6.9{rng.randrange(1000)}']
        if minute is not None and rng.random() < 0.6:
            alarm = apple_uid(rng)
            lines += ["BEGIN:VALARM", f"X-WR-ALARMUID:{alarm}", f"UID:{alarm}", "TRIGGER:-PT15M",
                      "ATTACH;VALUE=URI:Chord", "ACTION:AUDIO", "X-APPLE-DEFAULT-ALARM:TRUE",
                      f"ACKNOWLEDGED:{stamp_before(self.first + dt.timedelta(days=self.days // 2), rng, 1000)}",
                      "END:VALARM"]
        lines.append("END:VEVENT")
        return folded(lines)

    def event(self, day, minute, length, zone, span=1):
        start, end = self.times(zone, day, minute, length, span)
        return self.body(apple_uid(self.rng), start, end, [], [], self.rng.choice(SHAPE_SUMMARIES),
                         self.rng.choice((0, 0, 1)), minute)

    def series_text(self, plan, zone, length):
        rng = self.rng
        uid = apple_uid(rng)
        minute = None if plan.all_day else plan.minute
        summary = rng.choice(SHAPE_SUMMARIES)
        start, end = self.times(zone, plan.start, minute, length)
        text = self.body(uid, start, end, ["RRULE:" + plan.rule_text] + self.exdate_lines(plan, zone), [],
                         summary, 0, minute)
        for day in plan.moved:
            new_day, new_minute = plan.override_start(rng, day)
            o_start, o_end = self.times(zone, new_day, new_minute, length)
            status = "CANCELLED" if rng.random() < 0.1 else None
            text += self.body(uid, o_start, o_end, [], [self.time_property("RECURRENCE-ID", zone, day, plan.minute)],
                              summary, 1, new_minute, status)
        return text


class OutlookShape(VendorShape):
    """Outlook's "Save as iCalendar": X-CALSTART/X-CALEND, X-WR-RELCALID, X-OWNER, X-MS-OLK-WKHR*;
    VTIMEZONEs of Windows zone names first (onsets from 1601); quoted TZIDs with spaces; properties
    in Outlook's order (CLASS, CREATED, DESCRIPTION, DTEND, DTSTAMP, DTSTART, LAST-MODIFIED,
    LOCATION, PRIORITY, SEQUENCE, SUMMARY;LANGUAGE, TRANSP, UID, X-ALT-DESC of HTML,
    X-MICROSOFT-CDO-*, X-MS-OLK-*, VALARM); UIDs of 112 hex digits (folded); EXDATEs on one line;
    overrides after their master."""

    zones, zone_weights = ("W. Europe Standard Time", "GMT Standard Time", "Pacific Standard Time"), (80, 10, 10)
    series_zones, series_zone_weights = zones, zone_weights

    def header(self):
        owner = "Anna Müller"
        return folded(["BEGIN:VCALENDAR", "PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0",
                       "METHOD:PUBLISH", f"X-CALSTART:{self.first:%Y%m%d}T000000Z",
                       f"X-CALEND:{self.last + dt.timedelta(days=1):%Y%m%d}T000000Z",
                       f"X-CLIPSTART:{self.first:%Y%m%d}T000000Z",
                       f"X-CLIPEND:{self.last + dt.timedelta(days=1):%Y%m%d}T000000Z",
                       "X-WR-RELCALID:{0000002E-6A2B-8C1D-3E4F-5A6B7C8D9E0F}", f"X-WR-CALNAME:{self.name}",
                       "X-PRIMARY-CALENDAR:TRUE", f"X-OWNER;CN={owner}:mailto:anna.mueller@example.org",
                       'X-MS-OLK-WKHRSTART;TZID="W. Europe Standard Time":080000',
                       'X-MS-OLK-WKHREND;TZID="W. Europe Standard Time":170000', "X-MS-OLK-WKHRDAYS:MO,TU,WE,TH,FR"]
                      + [line for zone in self.zones for line in vtimezone_lines(zone, WINDOWS_RULES[zone], "outlook")])

    def time_property(self, name, zone, day, minute):
        if minute is None:
            return f"{name};VALUE=DATE:{day:%Y%m%d}"
        return f'{name};TZID="{zone}":{wall_text(day, minute)}'

    def exdate_lines(self, plan, zone):
        if not plan.exdates:
            return []
        if plan.all_day:
            return [f"EXDATE;VALUE=DATE:{','.join(f'{day:%Y%m%d}' for day in plan.exdates)}"]
        return [f'EXDATE;TZID="{zone}":{",".join(wall_text(day, plan.minute) for day in plan.exdates)}']

    @staticmethod
    def html(text: str) -> str:
        paragraphs = "".join(f'\n<P DIR=LTR><SPAN LANG="de"><FONT FACE="Calibri">{part}</FONT></SPAN></P>'
                             for part in text.split("\n") if part)
        return ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2//EN">\n<HTML>\n<HEAD>\n<META NAME="Generator" '
                'CONTENT="MS Exchange Server version rmj.rmm.rup.rpr">\n<TITLE></TITLE>\n</HEAD>\n<BODY>\n'
                '<!-- Converted from text/rtf format -->\n' + paragraphs + '\n\n</BODY>\n</HTML>')

    def body(self, uid, start, end, rule_lines, recurrence_id, summary, sequence, minute, status=None):
        rng = self.rng
        created = stamp_before(self.first + dt.timedelta(days=self.days // 2), rng, 1000)
        raw = self.raw_descriptions[rng.randrange(len(self.raw_descriptions))] if rng.random() < 0.5 else ""
        lines = ["BEGIN:VEVENT", "CLASS:PUBLIC", f"CREATED:{created}", f"DESCRIPTION:{escape_text(raw)}\\n", end,
                 f"DTSTAMP:{DTSTAMP}", start, *rule_lines, *recurrence_id, f"LAST-MODIFIED:{created}",
                 f"LOCATION:{escape_text(rng.choice(PLACES)) if rng.random() < 0.4 else ''}", "PRIORITY:5",
                 f"SEQUENCE:{sequence}"]
        if status:
            lines.append(f"STATUS:{status}")
        lines += [f"SUMMARY;LANGUAGE=de-de:{escape_text(summary)}",
                  f"TRANSP:{'TRANSPARENT' if minute is None else 'OPAQUE'}", f"UID:{uid}"]
        if raw:
            lines.append("X-ALT-DESC;FMTTYPE=text/html:" + escape_text(self.html(raw)))
        lines += ["X-MICROSOFT-CDO-BUSYSTATUS:" + ("FREE" if minute is None else "BUSY"),
                  "X-MICROSOFT-CDO-IMPORTANCE:1", "X-MICROSOFT-DISALLOW-COUNTER:FALSE",
                  "X-MS-OLK-AUTOFILLLOCATION:FALSE", "X-MS-OLK-CONFTYPE:0"]
        if minute is None:
            lines.append("X-MICROSOFT-CDO-ALLDAYEVENT:TRUE")
        elif rng.random() < 0.8:
            lines += ["BEGIN:VALARM", "TRIGGER:-PT15M", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "END:VALARM"]
        lines.append("END:VEVENT")
        return folded(lines)

    def event(self, day, minute, length, zone, span=1):
        start, end = self.times(zone, day, minute, length, span)
        return self.body(outlook_uid(self.rng), start, end, [], [], self.rng.choice(SHAPE_SUMMARIES),
                         0, minute)

    def series_text(self, plan, zone, length):
        rng = self.rng
        uid = outlook_uid(rng)
        minute = None if plan.all_day else plan.minute
        summary = rng.choice(SHAPE_SUMMARIES)
        start, end = self.times(zone, plan.start, minute, length)
        rule = plan.rule_text + ";WKST=MO" if plan.kind == "WEEKLY" else plan.rule_text
        text = self.body(uid, start, end, ["RRULE:" + rule] + self.exdate_lines(plan, zone), [], summary, 0, minute)
        for day in plan.moved:
            new_day, new_minute = plan.override_start(rng, day)
            o_start, o_end = self.times(zone, new_day, new_minute, length)
            status = "CANCELLED" if rng.random() < 0.1 else None
            text += self.body(uid, o_start, o_end, [], [self.time_property("RECURRENCE-ID", zone, day, plan.minute)],
                              summary, 1, new_minute, status)
        return text


SHAPES = {"rich": RichShape, "zones": ZonesShape, "recurring": RecurringShape,
          "google": GoogleShape, "apple": AppleShape, "outlook": OutlookShape}


def write_shape(path: str, shape_name: str, seed: int, events: int | None, target_bytes: int | None,
                first=FIRST_DAY, last=LAST_DAY, name=None) -> dict:
    """A calendar of a shape, by VEVENT count or by size."""
    rng = random.Random(seed)
    shape = SHAPES[shape_name](rng, first, last, name or f"Import benchmark: {shape_name}")
    out = Writer(path)
    out.add(shape.header())
    if events is not None:
        while shape.counts["events"] < events:
            out.add(shape.next_text())
    else:
        ending = len((shape.after_events() + CALENDAR_TRAILER).encode("utf-8"))
        while out.bytes + shape.pending_bytes() + ending < target_bytes:
            out.add(shape.next_text())
    out.add(shape.trailer())
    out.close()
    return {"shape": shape_name, **shape.counts, "bytes": out.bytes, "from": first.isoformat(), "to": last.isoformat(),
            "points": shape.points, "python_mode": shape.python_mode}


# --------------------------------------------------------------------------------------------
# Many small calendars


def write_batch(directory: str, seed: int, files: int, events: int | None, shape: str = "plain",
                file_bytes: int | None = None) -> dict:
    """`files` calendars in a folder tree, each of `events` events (or about `file_bytes` bytes) of
    a shape, all in LAST_DAY's year."""
    total_bytes = 0
    counts: dict[str, int] = {}
    year = LAST_DAY.year
    for number in range(files):
        group, member = number // 100, (number // 10) % 10
        relative = os.path.join(f"group-{group:02d}", f"member-{member:02d}", f"calendar-{number:04d}.ics")
        path = os.path.join(directory, relative)
        if shape == "plain":
            info = write_plain(path, seed * 100_003 + number, events, file_bytes, dt.date(year, 1, 1),
                               dt.date(year, 12, 31), uid_prefix=f"c{number:04d}-", name=f"Member calendar {number}")
        else:
            info = write_shape(path, shape, seed * 100_003 + number, events, file_bytes, dt.date(year, 1, 1),
                               dt.date(year, 12, 31), name=f"Member calendar {number}")
        total_bytes += info["bytes"]
        for key in ("events", "series", "overrides"):
            if key in info:
                counts[key] = counts.get(key, 0) + info[key]
    result = {"files": files, "shape": shape, "bytes": total_bytes, **counts}
    if events is not None:
        result["events_per_file"] = events
    else:
        result["bytes_per_file"] = file_bytes
    return result


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
    batch.add_argument("--shape", choices=["plain", *SHAPES], default="plain", help="what each calendar holds")
    per_file = batch.add_mutually_exclusive_group()
    per_file.add_argument("--events", type=int, help="VEVENTs per calendar (default 50)")
    per_file.add_argument("--bytes", type=parse_size, help="size of each calendar instead")
    shapes = {}
    for shape, kind in SHAPES.items():
        shapes[shape] = sub.add_parser(shape, help=kind.__doc__.split(":")[0].split(".")[0].strip().lower())
        shape_size = shapes[shape].add_mutually_exclusive_group(required=True)
        shape_size.add_argument("--events", type=int, help="number of VEVENTs (a series and its overrides count each)")
        shape_size.add_argument("--bytes", type=parse_size, help="target size (10MiB, 1GiB, 28MB, ...)")
    for command in (plain, recurrence, batch, *shapes.values()):
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
    elif args.workload in SHAPES:
        info = write_shape(args.out, args.workload, args.seed, args.events, args.bytes)
    else:
        if os.path.isdir(args.out):
            shutil.rmtree(args.out)  # no calendars left over from a larger --files
        events = 50 if args.events is None and args.bytes is None else args.events
        info = write_batch(args.out, args.seed, args.files, events, args.shape, args.bytes)
    record = {"workload": args.workload, "arguments": arguments, "generator": generator, **info}
    with open(sidecar, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(record, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
