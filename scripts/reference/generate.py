#!/usr/bin/env python3
"""Seeded generator of valid RFC 5545 calendars for scripts/reference-compare.

Each calendar comes with a sidecar (a dict, written as JSON next to the .ics by --out) that says
how to report it: zone, day start, points mode and window, plus the features of every event
(keyed by UID; each event's SUMMARY is its UID, so `streakcal sessions` lines name it).

    generate.py --seed 7 --count 20 --out /tmp/gen     # writes gen-7-0000.ics/.json, ...

The output depends only on (seed, index): Random(f"{seed}:{index}") drives everything and no
clock or environment is read. Only the standard library and python-dateutil (a dependency of
icalendar) are used; dateutil expands the rules here only to pick EXDATE, RDATE and
RECURRENCE-ID values that hit (or miss) instances.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

UTC = dt.timezone.utc
EVENT_ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney"]
REPORT_ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney",
                "Asia/Kolkata", "America/St_Johns", "Pacific/Auckland"]
# Day starts outside 02:00-03:00 local, where DST gaps of these zones lie: a wall time in a gap
# moves by the gap, and with a day start inside it the day would depend on how the gap is read.
DAY_STARTS = ["00:00", "00:00", "04:00", "04:00", "01:00", "05:30", "06:00"]
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

# VTIMEZONEs with today's rules; windows start in 2010, when these rules already held, so each
# block agrees with the IANA zone of the same name over the generated dates.
VTIMEZONE_RULES = {
    "Europe/Berlin": [
        ("DAYLIGHT", "19700329T020000", "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "+0100", "+0200", "CEST"),
        ("STANDARD", "19701025T030000", "FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "+0200", "+0100", "CET"),
    ],
    "America/New_York": [
        ("DAYLIGHT", "20070311T020000", "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "-0500", "-0400", "EDT"),
        ("STANDARD", "20071104T020000", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "-0400", "-0500", "EST"),
    ],
    "Australia/Sydney": [
        ("STANDARD", "20080406T030000", "FREQ=YEARLY;BYMONTH=4;BYDAY=1SU", "+1100", "+1000", "AEST"),
        ("DAYLIGHT", "20081005T020000", "FREQ=YEARLY;BYMONTH=10;BYDAY=1SU", "+1000", "+1100", "AEDT"),
    ],
}
CUSTOM_TZID = {"Europe/Berlin": "Custom Central European",
               "America/New_York": "Custom Eastern",
               "Australia/Sydney": "Custom Sydney"}
WINDOWS_TZID = {"Europe/Berlin": "W. Europe Standard Time",
                "America/New_York": "Eastern Standard Time",
                "Australia/Sydney": "AUS Eastern Standard Time"}


# --------------------------------------------------------------------------------------------
# Formatting


def fold(line: str) -> list[str]:
    """Fold one content line into physical lines of at most 75 octets (RFC 5545 section 3.1),
    never inside a UTF-8 sequence."""
    out, current, limit = [], b"", 75
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > limit:
            out.append(current.decode("utf-8"))
            current, limit = b" ", 75
        current += encoded
    out.append(current.decode("utf-8"))
    return out


def fmt_dt(value: dt.datetime) -> str:
    return value.strftime("%Y%m%dT%H%M%S")


def fmt_date(value: dt.date) -> str:
    return value.strftime("%Y%m%d")


def instant(wall: dt.datetime, zone: str) -> dt.datetime:
    """RFC 5545 section 3.3.5: gap times take the offset before the gap, overlap times the
    first occurrence (fold=0)."""
    return wall.replace(tzinfo=ZoneInfo(zone), fold=0).astimezone(UTC)


def transitions(zone: str, year: int):
    """DST transitions of `zone` in `year`: (kind, first wall time affected, end) where kind is
    'gap' (wall times [start, end) do not exist) or 'overlap' (they occur twice)."""
    tz = ZoneInfo(zone)
    result = []
    day = dt.datetime(year, 1, 1, tzinfo=UTC)
    while day.year == year:
        nxt = day + dt.timedelta(days=1)
        if day.astimezone(tz).utcoffset() != nxt.astimezone(tz).utcoffset():
            lo, hi = day, nxt
            while hi - lo > dt.timedelta(minutes=1):
                mid = lo + (hi - lo) / 2
                if mid.astimezone(tz).utcoffset() == lo.astimezone(tz).utcoffset():
                    lo = mid
                else:
                    hi = mid
            before, after = lo.astimezone(tz).utcoffset(), hi.astimezone(tz).utcoffset()
            moment = hi.replace(second=0, microsecond=0)
            wall = (moment + before).replace(tzinfo=None)
            if after > before:
                result.append(("gap", wall, wall + (after - before)))
            else:
                result.append(("overlap", wall - (before - after), wall))
        day = nxt
    return result


def dst_kind(wall: dt.datetime, zone: str) -> str | None:
    """'gap' if the wall time does not exist in `zone`, 'overlap' if it occurs twice."""
    tz = ZoneInfo(zone)
    first, second = wall.replace(tzinfo=tz, fold=0), wall.replace(tzinfo=tz, fold=1)
    if first.utcoffset() == second.utcoffset():
        return None
    back = first.astimezone(UTC).astimezone(tz).replace(tzinfo=None)
    return "gap" if back != wall else "overlap"


# --------------------------------------------------------------------------------------------
# Calendar model


class Event:
    def __init__(self, uid: str):
        self.uid = uid
        self.features: list[str] = []
        self.lines: list[str] = []
        self.overrides: list[list[str]] = []
        self.points: list[str] = []  # the X-POINTS line (or none), copied into overrides
        self.status: list[str] = []  # the STATUS line (or none), copied into overrides

    def tag(self, *features: str):
        for feature in features:
            if feature not in self.features:
                self.features.append(feature)


class Generator:
    def __init__(self, seed: int, index: int):
        self.seed, self.index = seed, index
        self.rng = random.Random(f"{seed}:{index}")
        r = self.rng
        self.tz = r.choice(REPORT_ZONES)
        self.day_start = r.choice(DAY_STARTS)
        self.points = r.choices(["x-points", "minutes", "count"], [6, 3, 1])[0]
        year = r.randint(2010, 2030)
        self.first = dt.date(year, 1, 1) + dt.timedelta(days=r.randint(0, 364))
        self.last = self.first + dt.timedelta(days=r.randint(45, 420))
        self.with_vtimezones = r.random() < 0.7
        self.used_zones: set[str] = set()  # IANA zones referenced by TZID
        self.custom_zones: dict[str, str] = {}  # custom TZID -> rules of this IANA zone
        self.events: list[Event] = []

    # ---- values ------------------------------------------------------------------------------

    def random_day(self, lo_offset: int, hi_offset: int) -> dt.date:
        span = (self.last - self.first).days
        return self.first + dt.timedelta(days=self.rng.randint(lo_offset, span + hi_offset))

    def random_time(self) -> dt.time:
        r = self.rng
        hour = r.choice([r.randint(0, 23), r.randint(6, 21), r.randint(22, 23), r.randint(0, 4)])
        return dt.time(hour, r.choice([0, 0, 15, 30, 45, r.randint(0, 59)]), r.choice([0, 0, 0, 30]))

    def zone_mode(self, event: Event) -> tuple[str, str | None]:
        """How the event's times are written: (mode, IANA zone or None)."""
        r = self.rng
        mode = r.choices(["date", "utc", "tzid", "custom", "windows", "floating"],
                         [22, 20, 30, 8, 5, 15])[0]
        zone = r.choice(EVENT_ZONES) if mode in ("tzid", "custom", "windows") else None
        if mode == "tzid":
            self.used_zones.add(zone)
            event.tag("tzid-iana" + ("-vtimezone" if self.with_vtimezones else "-no-vtimezone"))
        elif mode == "custom":
            self.custom_zones[CUSTOM_TZID[zone]] = zone
            event.tag("tzid-custom-vtimezone")
        elif mode == "windows":
            self.custom_zones[WINDOWS_TZID[zone]] = zone
            event.tag("tzid-windows-name-vtimezone")
        else:
            event.tag({"date": "all-day", "utc": "utc", "floating": "floating"}[mode])
        if mode != "date":
            event.tag("timed")
        return mode, zone

    def tzid_of(self, mode: str, zone: str | None) -> str | None:
        if mode == "tzid":
            return zone
        if mode == "custom":
            return CUSTOM_TZID[zone]
        if mode == "windows":
            return WINDOWS_TZID[zone]
        return None

    def wall_zone(self, mode: str, zone: str | None) -> str:
        """The zone in which the event's wall-clock times are read."""
        if mode in ("tzid", "custom", "windows"):
            return zone
        if mode == "floating":
            return self.tz
        return "UTC"

    def prop(self, name: str, value, mode: str, zone: str | None, params: str = "") -> str:
        """A DATE or DATE-TIME property in the event's form. `value` is a date (all-day) or a
        wall-clock datetime in the event's zone."""
        if mode == "date" or (isinstance(value, dt.date) and not isinstance(value, dt.datetime)):
            return f"{name};VALUE=DATE{params}:{fmt_date(value)}"
        if mode == "utc":
            return f"{name}{params}:{fmt_dt(value)}Z"
        if mode == "floating":
            return f"{name}{params}:{fmt_dt(value)}"
        return f"{name};TZID={self.tzid_of(mode, zone)}{params}:{fmt_dt(value)}"

    def dst_start(self, wall_zone: str, near: dt.date) -> tuple[str, dt.datetime] | None:
        """A wall time inside a DST gap or overlap of `wall_zone`, in the window's years."""
        found = []
        for year in (near.year, near.year + 1):
            found += transitions(wall_zone, year)
        if not found:
            return None
        kind, start, end = self.rng.choice(found)
        minutes = int((end - start).total_seconds() // 60)
        return kind, start + dt.timedelta(minutes=self.rng.randrange(0, max(minutes, 1)))

    def points_lines(self, event: Event) -> list[str]:
        r = self.rng
        roll = r.random()
        if roll < 0.07:
            event.tag("xpoints-invalid")
            return ["X-POINTS:" + r.choice(["abc", "-5", "1.5", "", "12 pts", "ten", "1e3", "0x10"])]
        if roll < 0.12:
            event.tag("xpoints-missing")
            return []
        if roll < 0.17:
            event.tag("xpoints-spaces")
            return [f"X-POINTS: {r.randint(0, 150)} "]
        return [f"X-POINTS:{r.randint(0, 150)}"]

    # ---- events ------------------------------------------------------------------------------

    def end_lines(self, event: Event, mode, zone, start):
        """DTEND, DURATION or nothing; returns (lines, wall-clock duration or None, nominal)."""
        r = self.rng
        choice = r.choices(["dtend", "duration", "none"], [5, 4, 1])[0]
        if mode == "date":
            days = r.choice([1, 1, 1, 2, 3, 7])
            if choice == "dtend":
                event.tag("end-dtend")
                return [self.prop("DTEND", start + dt.timedelta(days=days), mode, zone)], dt.timedelta(days=days)
            if choice == "duration":
                event.tag("end-duration")
                text = "P1W" if days == 7 else f"P{days}D"
                return [f"DURATION:{text}"], dt.timedelta(days=days)
            event.tag("end-none")
            return [], dt.timedelta(days=1)
        if start.hour >= 22 and r.random() < 0.7:
            minutes = r.randint(90, 240)
            event.tag("cross-midnight")
        else:
            minutes = r.choice([15, 30, 45, 60, 90, 120, r.randint(1, 600)])
        length = dt.timedelta(minutes=minutes)
        wall_zone = self.wall_zone(mode, zone)
        while instant(start + length, wall_zone) <= instant(start, wall_zone):
            length += dt.timedelta(minutes=60)  # a start in a DST gap: keep DTEND after DTSTART
        if choice == "dtend":
            event.tag("end-dtend")
            end_wall = start + length
            if mode == "utc" or r.random() < 0.85:
                return [self.prop("DTEND", end_wall, mode, zone)], length
            # DTEND written in UTC while DTSTART has a TZID or is floating is not allowed for
            # floating starts; for TZID starts it is fine.
            if mode in ("tzid", "custom", "windows"):
                event.tag("dtend-utc-for-tzid")
                end = instant(start, self.wall_zone(mode, zone)) + length
                return [f"DTEND:{fmt_dt(end.replace(tzinfo=None))}Z"], length
            return [self.prop("DTEND", end_wall, mode, zone)], length
        if choice == "duration":
            event.tag("end-duration")
            if r.random() < 0.2:
                event.tag("duration-days")
                days = r.choice([1, 1, 2])
                hours = r.choice([0, 0, 1, 2])
                text = f"P{days}D" + (f"T{hours}H" if hours else "")
                return [f"DURATION:{text}"], None
            h, m = divmod(minutes, 60)
            text = "PT" + (f"{h}H" if h else "") + (f"{m}M" if m or not h else "")
            return [f"DURATION:{text}"], length
        event.tag("end-none")
        return [], None

    def no_days_after_gap(self, event: Event, starts, wall_zone: str):
        """A DURATION with days on a start in a DST gap: RFC 5545 does not say whether the day
        is added to the wall time as written (02:30 + P1D = 02:30 next day) or as read (03:30,
        section 3.3.5). Such calendars are not generated: the duration becomes hours."""
        if "duration-days" not in event.features:
            return
        if any(dst_kind(s, wall_zone) == "gap" for s in starts):
            event.lines = [l if not l.startswith("DURATION:") else "DURATION:PT2H" for l in event.lines]
            event.features.remove("duration-days")

    def single_event(self, event: Event):
        r = self.rng
        mode, zone = self.zone_mode(event)
        day = self.random_day(-3, 2)
        if mode == "date":
            start = day
        else:
            start = dt.datetime.combine(day, self.random_time())
            if mode != "utc" and r.random() < 0.25:
                edge = self.dst_start(self.wall_zone(mode, zone), day)
                if edge:
                    start = edge[1]
            elif r.random() < 0.1:
                start = start.replace(hour=23, minute=r.choice([0, 30, 45, 59]))
            kind = dst_kind(start, self.wall_zone(mode, zone))
            if kind:
                event.tag("dst-" + kind + "-start")
        event.lines.append(self.prop("DTSTART", start, mode, zone))
        ends, _ = self.end_lines(event, mode, zone, start)
        event.lines += ends
        if mode != "date":
            self.no_days_after_gap(event, [start], self.wall_zone(mode, zone))
        return mode, zone, start

    def make_rule(self, event: Event, all_day: bool) -> str:
        r = self.rng
        freq = r.choices(["DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY"],
                         [25, 30, 25, 12, 3 if not all_day else 0])[0]
        parts = [f"FREQ={freq}"]
        event.tag("rrule", "freq-" + freq.lower())
        if r.random() < 0.35:
            interval = r.randint(2, 4 if freq != "HOURLY" else 7)
            parts.append(f"INTERVAL={interval}")
            event.tag("interval")
        if freq == "DAILY" and r.random() < 0.2:
            parts.append("BYDAY=" + ",".join(sorted(r.sample(WEEKDAYS, r.randint(2, 5)), key=WEEKDAYS.index)))
            event.tag("byday")
        elif freq == "WEEKLY":
            if r.random() < 0.6:
                parts.append("BYDAY=" + ",".join(sorted(r.sample(WEEKDAYS, r.randint(1, 3)), key=WEEKDAYS.index)))
                event.tag("byday")
            if r.random() < 0.3:
                parts.append("WKST=" + r.choice(["MO", "SU", "SA", "WE"]))
                event.tag("wkst")
        elif freq == "MONTHLY":
            kind = r.choice(["plain", "bymonthday", "bymonthday-negative", "byday-ordinal", "bysetpos"])
            if kind == "bymonthday":
                parts.append("BYMONTHDAY=" + ",".join(str(d) for d in sorted(r.sample(range(1, 32), r.randint(1, 2)))))
                event.tag("bymonthday")
            elif kind == "bymonthday-negative":
                parts.append("BYMONTHDAY=" + r.choice(["-1", "-2", "-1,15", "1,-1"]))
                event.tag("bymonthday-negative")
            elif kind == "byday-ordinal":
                parts.append("BYDAY=" + r.choice(["1MO", "2MO", "-1FR", "3WE", "-2SU", "1SA,-1SA", "4TH"]))
                event.tag("byday-ordinal")
            elif kind == "bysetpos":
                parts.append("BYDAY=MO,TU,WE,TH,FR;BYSETPOS=" + r.choice(["1", "-1", "2", "1,-1"]))
                event.tag("bysetpos")
        elif freq == "YEARLY":
            kind = r.choice(["plain", "bymonth-bymonthday", "bymonth-byday", "bymonth-bysetpos"])
            if kind == "bymonth-bymonthday":
                parts.append(f"BYMONTH={r.randint(1, 12)};BYMONTHDAY={r.choice([1, 10, 28, 31, -1])}")
                event.tag("bymonth", "bymonthday")
            elif kind == "bymonth-byday":
                parts.append(f"BYMONTH={r.choice(['3', '11', '5,9', '1,4,7,10'])};BYDAY={r.choice(['2MO', '-1FR', '1SU', '4TH'])}")
                event.tag("bymonth", "byday-ordinal")
            elif kind == "bymonth-bysetpos":
                parts.append(f"BYMONTH={r.randint(1, 12)};BYDAY=SA,SU;BYSETPOS={r.choice(['1', '-1'])}")
                event.tag("bymonth", "bysetpos")
        return ";".join(parts)

    def recurring_event(self, event: Event):
        r = self.rng
        mode, zone = self.zone_mode(event)
        all_day = mode == "date"
        wall_zone = self.wall_zone(mode, zone)
        saved = list(event.features)
        for _ in range(20):
            event.features = list(saved)
            rule = self.make_rule(event, all_day)
            day = self.random_day(-60, -5)
            if all_day:
                seed = dt.datetime.combine(day, dt.time())
            else:
                seed = dt.datetime.combine(day, self.random_time())
                if mode != "utc" and r.random() < 0.3 and "HOURLY" not in rule:
                    edge = self.dst_start(wall_zone, day)
                    if edge:
                        kind, edge_wall = edge
                        # Start a few periods before the transition so a later instance hits it.
                        back = {"DAILY": r.randint(0, 6), "WEEKLY": 7 * r.randint(0, 3)}.get(rule.split(";")[0][5:], 0)
                        seed = edge_wall - dt.timedelta(days=back)
            try:
                starts = list(_take(rrulestr(rule, dtstart=seed), 1))
            except ValueError:
                starts = []
            if starts and starts[0].date() <= self.last:
                break
        else:
            event.features = saved
            event.tag("single")
            return self.single_event(event)
        start = starts[0]
        if "freq-hourly" in event.features and mode != "utc":
            # HOURLY across a DST switch is not settled by RFC 5545 (hours of wall clock or of
            # elapsed time); keep HOURLY series away from switches.
            switches = [lo for year in (start.year - 1, start.year, start.year + 1)
                        for _, lo, _ in transitions(wall_zone, year)]
            while any(-86400 < (lo - start).total_seconds() < 20 * 86400 for lo in switches):
                start -= dt.timedelta(days=7)
            start = list(_take(rrulestr(rule, dtstart=start), 1))[0]
        if not all_day and dst_kind(start, wall_zone) == "gap":
            event.tag("dst-gap-dtstart")
        dtstart_value = start.date() if all_day else start
        event.lines.append(self.prop("DTSTART", dtstart_value, mode, zone))
        ends, length = self.end_lines(event, mode, zone, start)
        event.lines += ends
        # All instances (wall clock), to choose COUNT/UNTIL, EXDATE, RDATE, RECURRENCE-ID.
        horizon = dt.datetime.combine(self.last + dt.timedelta(days=40), dt.time())
        instances = [i for i in _take(rrulestr(rule, dtstart=start), 500) if i <= horizon]
        bound = r.choices(["count", "until", "none"], [4, 4, 2])[0]
        if "freq-hourly" in event.features:
            bound = "count"  # at most 60 instances: about two weeks, away from DST switches
        if bound == "count" and instances:
            count = r.randint(1, min(len(instances) + 3, 60))
            rule += f";COUNT={count}"
            instances = instances[:count]
            event.tag("count")
        elif bound == "until" and instances:
            k = r.randrange(0, min(len(instances), 60))
            until_wall = instances[k]
            if r.random() < 0.5:
                until_wall += dt.timedelta(minutes=r.randint(1, 600))
                event.tag("until-between")
            else:
                event.tag("until-on-instance")
            if all_day:
                until_day = until_wall.date()
                rule += f";UNTIL={fmt_date(until_day)}"
                instances = [i for i in instances if i.date() <= until_day]
                event.tag("until-date")
            elif mode == "floating":
                rule += f";UNTIL={fmt_dt(until_wall)}"
                instances = [i for i in instances if i <= until_wall]
                event.tag("until-floating")
            else:
                until = instant(until_wall, wall_zone)
                rule += f";UNTIL={fmt_dt(until.replace(tzinfo=None))}Z"
                instances = [i for i in instances if instant(i, wall_zone) <= until]
                event.tag("until-utc")
        event.lines.append("RRULE:" + rule)
        if not instances:
            return mode, zone, start
        if mode != "date":
            self.no_days_after_gap(event, [start] + instances, wall_zone)
        self.exdates(event, mode, zone, wall_zone, instances, rule)
        self.rdates(event, mode, zone, instances, rule)
        self.overrides(event, mode, zone, wall_zone, instances, length)
        for i in instances:
            kind = dst_kind(i, wall_zone) if mode != "date" else None
            if kind and self.first - dt.timedelta(days=3) <= i.date() <= self.last + dt.timedelta(days=3):
                event.tag("dst-" + kind + "-instance")
        if length is not None and mode != "date":
            # Instances whose wall-clock span crosses a DST switch: their exact length differs
            # from the first instance's wall-clock length.
            for i in instances:
                if instant(i + length, wall_zone) - instant(i, wall_zone) != length:
                    event.tag("instance-spans-dst")
                    break
        return mode, zone, start

    def exdates(self, event, mode, zone, wall_zone, instances, rule):
        r = self.rng
        if r.random() > 0.4:
            return
        picks = sorted(r.sample(instances, min(len(instances), r.randint(1, 3))))
        event.excluded = set(picks)
        form = r.choices(["same", "utc", "other-tzid", "date"], [6, 2, 2, 2])[0]
        one_per_day = len({i.date() for i in instances}) == len(instances)
        if mode == "date" or form == "same" or (form == "date" and not one_per_day) \
                or (form in ("utc", "other-tzid") and mode in ("floating", "utc")):
            value = ",".join(fmt_date(p.date()) if mode == "date" else self.prop("X", p, mode, zone).split(":", 1)[1] for p in picks)
            head = self.prop("EXDATE", picks[0].date() if mode == "date" else picks[0], mode, zone).split(":", 1)[0]
            event.lines.append(f"{head}:{value}")
            event.tag("exdate")
        elif form == "utc":
            values = ",".join(fmt_dt(instant(p, wall_zone).replace(tzinfo=None)) + "Z" for p in picks)
            event.lines.append("EXDATE:" + values)
            event.tag("exdate", "exdate-utc-for-tzid")
        elif form == "other-tzid":
            other = r.choice([z for z in EVENT_ZONES if z != wall_zone])
            values = []
            for p in picks:
                wall = instant(p, wall_zone).astimezone(ZoneInfo(other)).replace(tzinfo=None)
                if instant(wall, other) != instant(p, wall_zone):
                    continue  # lands in the other zone's overlap or gap: skip this one
                values.append(fmt_dt(wall))
            if values:
                self.used_zones.add(other)
                event.lines.append(f"EXDATE;TZID={other}:" + ",".join(values))
                event.tag("exdate", "exdate-other-tzid")
        else:
            event.lines.append("EXDATE;VALUE=DATE:" + ",".join(fmt_date(p.date()) for p in picks))
            event.tag("exdate", "exdate-date-on-timed")
            event.excluded_dates = {p.date() for p in picks}

    def rdates(self, event, mode, zone, instances, rule):
        r = self.rng
        if r.random() > 0.3:
            return
        existing = set(instances)
        extra = []
        for _ in range(r.randint(1, 3)):
            base = r.choice(instances)
            if mode == "date":
                candidate = base + dt.timedelta(days=r.randint(1, 5))
            else:
                candidate = base + dt.timedelta(hours=r.choice([3, 5, -4, 26, 49]), minutes=r.choice([0, 20]))
            excluded_dates = getattr(event, "excluded_dates", set())
            if candidate not in existing and candidate.date() not in excluded_dates:
                extra.append(candidate)
                existing.add(candidate)
        if not extra:
            return
        extra.sort()
        if mode == "date":
            event.lines.append("RDATE;VALUE=DATE:" + ",".join(fmt_date(e.date()) for e in extra))
            event.tag("rdate", "rdate-date")
        else:
            head = self.prop("RDATE", extra[0], mode, zone).split(":", 1)[0]
            event.lines.append(head + ":" + ",".join(self.prop("X", e, mode, zone).split(":", 1)[1] for e in extra))
            event.tag("rdate", "rdate-datetime")

    def overrides(self, event, mode, zone, wall_zone, instances, length):
        r = self.rng
        if r.random() > 0.4:
            return
        excluded = getattr(event, "excluded", set())
        excluded_dates = getattr(event, "excluded_dates", set())
        candidates = [i for i in instances if i not in excluded and i.date() not in excluded_dates]
        if not candidates:
            return
        picks = sorted(r.sample(candidates, min(len(candidates), r.randint(1, 3))))
        this_and_future = r.random() < 0.15 and len(picks) >= 1
        if this_and_future:
            picks = picks[:1]
            # Nothing after a THISANDFUTURE override but the instances it moves.
            if any(i > picks[0] for i in excluded) or any(l.startswith("RDATE") for l in event.lines):
                this_and_future = False
        for n, pick in enumerate(picks):
            kind = r.choice(["moved-time", "moved-day", "points", "cancelled", "same"])
            if this_and_future:
                kind = r.choice(["moved-time", "points"])
            if kind == "moved-time" and mode == "date":
                kind = "moved-day"
            lines = ["BEGIN:VEVENT", f"UID:{event.uid}", "DTSTAMP:20240101T000000Z"]
            rid = pick.date() if mode == "date" else pick
            rid_line = self.prop("RECURRENCE-ID", rid, mode, zone, ";RANGE=THISANDFUTURE" if this_and_future else "")
            lines.append(rid_line)
            new_start = pick
            if kind == "moved-time" and mode != "date":
                new_start = pick + dt.timedelta(minutes=r.choice([-300, -90, 45, 120, 600, 1000]))
            elif kind == "moved-day":
                new_start = pick + dt.timedelta(days=r.choice([-2, -1, 1, 3]))
            value = new_start.date() if mode == "date" else new_start
            lines.append(self.prop("DTSTART", value, mode, zone))
            master_end = [l for l in event.lines if l.startswith(("DTEND", "DURATION"))]
            if master_end and master_end[0].startswith("DURATION"):
                lines.append(master_end[0])
            elif master_end and length is not None:
                end = (new_start + length)
                lines.append(self.prop("DTEND", end.date() if mode == "date" else end, mode, zone))
            lines.append(f"SUMMARY:{event.uid}")
            if kind == "points":
                lines.append(f"X-POINTS:{r.randint(0, 150)}")
            else:
                lines += event.points
            if kind == "cancelled":
                lines.append("STATUS:CANCELLED")
            else:
                lines += event.status
            lines.append("END:VEVENT")
            event.overrides.append(lines)
            event.tag("override", "override-" + kind)
            if this_and_future:
                event.tag("thisandfuture")

    def rdate_only_event(self, event: Event):
        r = self.rng
        mode, zone, start = self.single_event(event)
        extra = []
        for _ in range(r.randint(1, 4)):
            if mode == "date":
                extra.append(start + dt.timedelta(days=r.randint(1, 90)))
            else:
                extra.append(start + dt.timedelta(days=r.randint(1, 90), hours=r.randint(-5, 5)))
        extra = sorted(set(extra))
        head = self.prop("RDATE", extra[0], mode, zone).split(":", 1)[0]
        event.lines.append(head + ":" + ",".join(self.prop("X", e, mode, zone).split(":", 1)[1] for e in extra))
        event.tag("rdate", "rdate-only", "rdate-date" if mode == "date" else "rdate-datetime")

    # ---- calendar ----------------------------------------------------------------------------

    def build(self):
        r = self.rng
        for k in range(r.randint(3, 9)):
            event = Event(f"g{self.seed}-{self.index}-e{k}")
            event.points = self.points_lines(event)
            if r.random() < 0.06:
                event.status = ["STATUS:CANCELLED"]
                event.tag("cancelled")
            elif r.random() < 0.1:
                event.status = ["STATUS:" + r.choice(["CONFIRMED", "TENTATIVE"])]
            kind = r.choices(["single", "recurring", "rdate-only"], [45, 50, 5])[0]
            if kind == "single":
                event.tag("single")
                self.single_event(event)
            elif kind == "recurring":
                self.recurring_event(event)
            else:
                self.rdate_only_event(event)
            event.lines += event.points + event.status
            if r.random() < 0.15:
                event.lines.append("DESCRIPTION:" + long_text(r))
                event.tag("long-folded-line")
            self.events.append(event)
        lines = ["BEGIN:VCALENDAR", "VERSION:2.0",
                 f"PRODID:-//StreakCal//reference generator seed {self.seed}//EN"]
        if r.random() < 0.1:
            lines.append("X-WR-TIMEZONE:" + r.choice(EVENT_ZONES))
        zone_blocks = []
        if self.with_vtimezones:
            zone_blocks += [vtimezone(z, z) for z in sorted(self.used_zones)]
        zone_blocks += [vtimezone(tzid, z) for tzid, z in sorted(self.custom_zones.items())]
        event_blocks = []
        for event in self.events:
            block = ["BEGIN:VEVENT", f"UID:{event.uid}", "DTSTAMP:20240101T000000Z",
                     f"SUMMARY:{event.uid}"] + event.lines + ["END:VEVENT"]
            event_blocks.append(block)
            event_blocks += event.overrides
        r.shuffle(event_blocks)
        if r.random() < 0.2:  # VTIMEZONEs after the events that use them
            blocks = event_blocks + zone_blocks
        else:
            blocks = zone_blocks + event_blocks
        for block in blocks:
            lines += block
        lines.append("END:VCALENDAR")
        text = "".join(physical + "\r\n" for line in lines for physical in fold(line))
        meta = {
            "seed": self.seed, "index": self.index, "tz": self.tz, "day_start": self.day_start,
            "points": self.points, "from": self.first.isoformat(), "to": self.last.isoformat(),
            "vtimezones": self.with_vtimezones,
            "events": {e.uid: e.features for e in self.events},
        }
        return text.encode("utf-8"), meta


def long_text(r: random.Random) -> str:
    words = ["Übung", "naïve", "façade", "日本語", "emoji 🏃", "commas\\, escaped", "Zürich",
             "plain", "words", "that", "make", "a", "long", "line"]
    return " ".join(r.choice(words) for _ in range(r.randint(15, 40)))


def vtimezone(tzid: str, zone: str) -> list[str]:
    lines = ["BEGIN:VTIMEZONE", f"TZID:{tzid}"]
    for kind, start, rule, offset_from, offset_to, name in VTIMEZONE_RULES[zone]:
        lines += [f"BEGIN:{kind}", f"DTSTART:{start}", f"RRULE:{rule}",
                  f"TZOFFSETFROM:{offset_from}", f"TZOFFSETTO:{offset_to}", f"TZNAME:{name}",
                  f"END:{kind}"]
    lines.append("END:VTIMEZONE")
    return lines


def _take(iterable, n):
    for k, item in enumerate(iterable):
        if k >= n:
            return
        yield item


def generate(seed: int, index: int):
    """(ics bytes, sidecar dict) for calendar `index` of `seed`."""
    return Generator(seed, index).build()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for index in range(args.count):
        data, meta = generate(args.seed, index)
        base = os.path.join(args.out, f"gen-{args.seed}-{index:04d}")
        with open(base + ".ics", "wb") as f:
            f.write(data)
        with open(base + ".json", "w") as f:
            json.dump(meta, f, indent=1)
    print(f"wrote {args.count} calendars to {args.out}")


if __name__ == "__main__":
    main()
