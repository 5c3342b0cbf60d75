"""The reference side of scripts/reference-compare: per-day totals from Python's
icalendar + recurring-ical-events, computed with the semantics of
`streakcal report --format json` (see README.md beside this file).

Nothing here knows StreakCal's code; the only shared thing is the contract.
"""

from __future__ import annotations

import copy
import datetime as dt
import re
import signal
import warnings
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
from icalendar.timezone import tzp

UTC = dt.timezone.utc
ONE_DAY = dt.timedelta(days=1)
# The window is expanded this much on each side, then trimmed by the day each session counts on.
MARGIN = dt.timedelta(days=2)
# A reference expansion that takes longer than this is given up (the file is skipped).
REFERENCE_SECONDS = 6
_BEGIN_VEVENT = re.compile(rb"^BEGIN:VEVENT[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)


class ReferenceCannotRead(Exception):
    """The reference cannot parse or expand the input; the reason is the message."""


@dataclass
class Occurrence:
    uid: str
    summary: str
    start: dt.date | dt.datetime  # as recurring-ical-events returns it
    end: dt.date | dt.datetime | None
    x_points: object  # the raw X-POINTS value (None when absent)
    source: object = None  # the VEVENT it comes from
    vtimezones: dict = field(default_factory=dict)  # IANA-named VTIMEZONEs of its calendar
    flags: set = field(default_factory=set)  # reference defects that touch it
    phantom: bool = False  # only in the id-collision check, not a reference session

    @property
    def key(self):
        start = self.start
        if isinstance(start, dt.datetime) and start.tzinfo is not None:
            start = start.astimezone(UTC)
        return (self.uid, start)


@dataclass
class ReferenceCalendar:
    occurrences: list[Occurrence]
    earliest: dt.date | None  # earliest DTSTART (wall date) over all VEVENTs
    latest: dt.date | None
    n_vevent: int
    notes: list[str] = field(default_factory=list)
    window: tuple[dt.date, dt.date] | None = None
    phantoms: list[Occurrence] = field(default_factory=list)  # see "id-collision"
    corrected: list[Occurrence] = field(default_factory=list)  # the sessions by RFC 5545


# --------------------------------------------------------------------------------------------
# Reading


def normalize_transport(data: bytes) -> bytes:
    """Byte-level transport fixes before icalendar sees the bytes (no iCalendar semantics):
    UTF-16/UTF-8 byte order marks and CR-only line ends, which icalendar does not read."""
    if data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        data = data.decode("utf-16").encode("utf-8")
    elif data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\r" in data and b"\n" not in data:
        data = data.replace(b"\r", b"\r\n")
    return data


class _Timeout(Exception):
    pass


def _alarm(signum, frame):  # noqa: ARG001
    raise _Timeout()


def _wall_date(value) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    return value


def read_and_expand(data: bytes, window) -> ReferenceCalendar:
    """Parse `data` and expand its VEVENTs over `window` (first and last day, inclusive) plus
    MARGIN on each side. `window` may be a function of (earliest, latest DTSTART date) that
    returns the window; with None, nothing is expanded. Raises ReferenceCannotRead."""
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(REFERENCE_SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _read_and_expand(data, window)
    except _Timeout:
        raise ReferenceCannotRead(f"expansion took more than {REFERENCE_SECONDS} s") from None
    except ReferenceCannotRead:
        raise
    except RecursionError:
        raise ReferenceCannotRead("RecursionError") from None
    except Exception as error:  # noqa: BLE001 - any reference failure means "cannot read"
        text = str(error).replace("\n", " ")
        if len(text) > 160:
            text = text[:157] + "..."
        raise ReferenceCannotRead(f"{type(error).__name__}: {text}") from None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _read_and_expand(data: bytes, window) -> ReferenceCalendar:
    # icalendar caches VTIMEZONEs by TZID in a process-wide cache: start every input afresh,
    # so that one file's custom zone never leaks into the next.
    tzp.use_zoneinfo()
    data = normalize_transport(data)
    unfolded = re.sub(rb"\r?\n[ \t]", b"", data)
    n_vevent_lines = len(_BEGIN_VEVENT.findall(unfolded))
    components = icalendar.Calendar.from_ical(data, multiple=True)
    calendars = []
    loose = icalendar.Calendar()
    for component in components:
        if component.name == "VCALENDAR":
            calendars.append(component)
        else:  # a bare VEVENT (or VTIMEZONE) without VCALENDAR around it
            loose.add_component(component)
    if loose.subcomponents:
        calendars.append(loose)
    events = [event for calendar in calendars for event in calendar.walk("VEVENT")]
    if len(events) < n_vevent_lines:
        raise ReferenceCannotRead(
            f"icalendar parsed {len(events)} of {n_vevent_lines} VEVENTs")
    for calendar in calendars:
        for component in calendar.walk():
            if component.errors:
                prop, message = component.errors[0]
                message = str(message).replace("\n", " ")[:140]
                raise ReferenceCannotRead(
                    f"icalendar error in {component.name}"
                    f"{' ' + prop if prop else ''}: {message}")
    notes = []
    _check_uids(calendars, notes)
    starts = []
    for calendar in calendars:
        for event in list(calendar.walk("VEVENT")):
            if "DTSTART" not in event:
                # No start, no session (RFC 5545 allows this only with METHOD); leave it out so
                # that recurring-ical-events does not fail on it.
                _remove(calendar, event)
                notes.append(f"VEVENT {event.get('UID', '?')} without DTSTART left out")
                continue
            if isinstance(event["DTSTART"], list):
                raise ReferenceCannotRead(
                    f"VEVENT {event.get('UID', '?')} has {len(event['DTSTART'])} DTSTARTs")
            starts.append(_wall_date(event["DTSTART"].dt))
            for value in _rdate_values(event):
                starts.append(_wall_date(value))
    for calendar in calendars:
        for event in calendar.walk("VEVENT"):
            _no_negative_span(event, notes)
    earliest = min(starts) if starts else None
    latest = max(starts) if starts else None
    if callable(window):
        window = window(earliest, latest) if starts else None
    result = ReferenceCalendar([], earliest, latest, len(events), notes, window)
    if window is None or not starts:
        return result
    for calendar in calendars:
        for event in calendar.walk("VEVENT"):
            if "EXRULE" in event:
                _exrule_as_exdates(event, window[1] + MARGIN + ONE_DAY, notes)
    first = window[0] - MARGIN if window[0] > dt.date(1, 1, 3) else window[0]
    last = window[1] + MARGIN + ONE_DAY
    for calendar in calendars:
        # X-WR-TIMEZONE is not RFC 5545: floating times stay floating (section 3.3.5), so the
        # calendar is expanded without recurring-ical-events' X-WR-TIMEZONE step.
        if "X-WR-TIMEZONE" in calendar:
            del calendar["X-WR-TIMEZONE"]
        zones_to_fix = bool(calendar.walk("VTIMEZONE"))
        fixed_calendar = copy.deepcopy(calendar) if zones_to_fix else None
        sources = _Sources(calendar)
        found = _expand(calendar, first, last, sources)
        result.occurrences += found
        corrected = found
        if _has_aware_ids(calendar) or zones_to_fix:
            # The same expansion with ids that are instants (RFC 5545 3.8.4.4, 3.8.5.1), and
            # then also with the zones RFC 5545 means (see _fix_zones): what differs is what a
            # reference defect decides; the last is what streakcal is held to on those days.
            with _instant_ids():
                by_ids = _expand(calendar, first, last, sources)
            _mark(found, by_ids, result, lambda o: "id-collision")
            corrected = by_ids
            if zones_to_fix:
                fixed_sources = _Sources(fixed_calendar)
                if _fix_zones(fixed_calendar, fixed_sources.vtimezones):
                    with _instant_ids():
                        corrected = _expand(fixed_calendar, first, last, fixed_sources)
                    _mark(by_ids, corrected, result, _zone_flag_of)
        result.corrected += corrected
    return result


def _mark(before: list[Occurrence], after: list[Occurrence], result, flag_of):
    """Flags the sessions that one expansion has and the other has not."""
    before_keys = Counter(o.key for o in before)
    after_keys = Counter(o.key for o in after)
    for occurrence in before:
        if before_keys[occurrence.key] > after_keys[occurrence.key]:
            occurrence.flags.add(flag_of(occurrence))
    for occurrence in after:
        if after_keys[occurrence.key] > before_keys[occurrence.key]:
            occurrence.flags.add(flag_of(occurrence))
            if not occurrence.phantom and occurrence not in result.occurrences:
                ghost = copy.copy(occurrence)
                ghost.phantom = True
                ghost.flags = set(occurrence.flags)
                result.phantoms.append(ghost)


def _zone_flag_of(occurrence) -> str:
    tz = getattr(occurrence.start, "tzinfo", None)
    if isinstance(tz, GapFixed):
        return tz.flag
    return _zone_flag(occurrence.start, occurrence.vtimezones)


class GapFixed(dt.tzinfo):
    """A zone from a VTIMEZONE (a dateutil tzical zone) that reads wall times in a DST gap
    with the offset before the gap, as RFC 5545 section 3.3.5 says (dateutil uses the one
    after it). `flag` says which reference defect it corrects."""

    def __init__(self, base: dt.tzinfo, flag: str):
        self.base, self.flag = base, flag

    def _offset(self, value: dt.datetime) -> dt.timedelta:
        naive = value.replace(tzinfo=None)
        aware = naive.replace(tzinfo=self.base, fold=value.fold)
        back = aware.astimezone(UTC).astimezone(self.base).replace(tzinfo=None)
        if back != naive:  # in a gap
            aware = (naive - dt.timedelta(hours=3)).replace(tzinfo=self.base)
        return aware.utcoffset()

    def utcoffset(self, value):
        return None if value is None else self._offset(value)

    def dst(self, value):
        return None if value is None else self.base.dst(value.replace(tzinfo=self.base))

    def tzname(self, value):
        return None if value is None else self.base.tzname(value.replace(tzinfo=self.base))

    def fromutc(self, value):
        return self.base.fromutc(value.replace(tzinfo=self.base)).replace(tzinfo=self)


def _fix_zones(calendar, vtimezones: dict) -> bool:
    """Puts the zones RFC 5545 means into the VEVENTs' date-times: the calendar's own VTIMEZONE
    where icalendar took the IANA zone of the same name (section 3.2.19), and gap times read
    with the offset before the gap (section 3.3.5). True if anything changed."""
    replaced: dict[int, dt.tzinfo] = {}

    def fixed(value):
        if isinstance(value, tuple):
            return tuple(fixed(v) for v in value)
        tz = getattr(value, "tzinfo", None)
        if not isinstance(value, dt.datetime) or tz is None:
            return value
        if id(tz) not in replaced:
            if isinstance(tz, ZoneInfo):
                replaced[id(tz)] = (GapFixed(vtimezones[tz.key], "vtimezone-ignored")
                                    if tz.key in vtimezones and tz.key != "UTC" else tz)
            elif isinstance(tz, (dt.timezone, GapFixed)):
                replaced[id(tz)] = tz
            else:
                replaced[id(tz)] = GapFixed(tz, "vtimezone-gap")
        return value.replace(tzinfo=replaced[id(tz)])

    changed = False
    for event in calendar.walk("VEVENT"):
        for name in ("DTSTART", "DTEND", "RDATE", "EXDATE", "RECURRENCE-ID"):
            for prop in _values(event.get(name)):
                for value in getattr(prop, "dts", [prop]):
                    old = getattr(value, "dt", None)
                    new = fixed(old)
                    if new is not old:
                        value.dt = new
                        changed = changed or any(
                            isinstance(getattr(v, "tzinfo", None), GapFixed)
                            for v in (new if isinstance(new, tuple) else (new,)))
    return changed


def _expand(calendar, first, last, sources) -> list[Occurrence]:
    found = []
    for component in recurring_ical_events.of(calendar).between(first, last):
        status = str(component.get("STATUS", "")).strip().upper()
        if status == "CANCELLED":
            continue
        start = component["DTSTART"].dt
        end = component["DTEND"].dt if "DTEND" in component else None
        uid = str(component.get("UID", ""))
        found.append(Occurrence(
            uid=uid, summary=str(component.get("SUMMARY", "")), start=start, end=end,
            x_points=component.get("X-POINTS"), source=sources.find(uid, start),
            vtimezones=sources.vtimezones))
    return found


def _has_aware_ids(calendar) -> bool:
    for event in calendar.walk("VEVENT"):
        for name in ("EXDATE", "RECURRENCE-ID"):
            for prop in _values(event.get(name)):
                for value in getattr(prop, "dts", [prop]):
                    v = getattr(value, "dt", None)
                    if isinstance(v, dt.datetime) and v.tzinfo is not None:
                        return True
    return False


class _instant_ids:
    """recurring-ical-events identifies an instance by its UTC time and by its wall-clock time
    alike (util.to_recurrence_ids), so an EXDATE or RECURRENCE-ID whose UTC time equals another
    instance's wall-clock time also hits that one. Within this context they are instants."""

    def __enter__(self):
        import recurring_ical_events.adapters.component as component_module
        import recurring_ical_events.series.rrule as rrule_module
        from recurring_ical_events import util
        self.modules = [component_module, rrule_module]
        self.original = util.to_recurrence_ids

        def instant_ids(time):
            if isinstance(time, dt.datetime) and time.tzinfo is not None:
                return (time.astimezone(UTC).replace(tzinfo=None),)
            return self.original(time)
        for module in self.modules:
            module.to_recurrence_ids = instant_ids

    def __exit__(self, *exc):
        for module in self.modules:
            module.to_recurrence_ids = self.original


class _Sources:
    """The VEVENT an occurrence comes from (an override with that start, else the master), and
    the calendar's VTIMEZONEs named like IANA zones."""

    def __init__(self, calendar):
        self.by_uid = defaultdict(list)
        for event in calendar.walk("VEVENT"):
            self.by_uid[str(event.get("UID", ""))].append(event)
        self.vtimezones = {}
        for zone in calendar.walk("VTIMEZONE"):
            tzid = str(zone.get("TZID", "")).strip("/")
            try:
                ZoneInfo(tzid)
            except Exception:  # noqa: BLE001 - not an IANA name: icalendar uses the VTIMEZONE
                continue
            try:
                self.vtimezones[tzid] = zone.to_tz(tzp, lookup_tzid=False)
            except Exception:  # noqa: BLE001
                continue

    def find(self, uid, start):
        candidates = self.by_uid.get(uid, [])
        for event in candidates:
            if "RECURRENCE-ID" in event and _same_time(event["DTSTART"].dt, start):
                return event
        for event in candidates:
            if "RECURRENCE-ID" not in event:
                return event
        return candidates[0] if candidates else None


def _same_time(a, b) -> bool:
    if isinstance(a, dt.datetime) != isinstance(b, dt.datetime):
        return False
    if isinstance(a, dt.datetime) and (a.tzinfo is None) != (b.tzinfo is None):
        return False
    return a == b


# iTIP methods whose VCALENDAR is a message about events, not a publication of them (RFC 5546
# section 1.4): a REPLY carries an attendee's answer, a CANCEL withdraws, and so on.
MESSAGE_METHODS = {"REPLY", "REFRESH", "CANCEL", "COUNTER", "DECLINECOUNTER"}


def _revision(event, position):
    """What orders copies of one event (RFC 5545 3.8.7.4, RFC 5546 2.1.5): SEQUENCE, then DTSTAMP,
    then LAST-MODIFIED (as written, a missing one lowest), then the position in the file."""
    def stamp(name):
        value = event.get(name)
        if value is None:
            return dt.datetime.min
        value = getattr(value, "dt", value)
        if isinstance(value, dt.datetime):
            return value.replace(tzinfo=None)
        if isinstance(value, dt.date):
            return dt.datetime(value.year, value.month, value.day)
        return dt.datetime.min
    try:
        sequence = int(str(event.get("SEQUENCE", "0")).strip() or "0")
    except ValueError:
        sequence = 0
    return (sequence, stamp("DTSTAMP"), stamp("LAST-MODIFIED"), position)


def _copy_key(event):
    uid = str(event.get("UID", "")).strip()
    if not uid:
        return None
    rid = event.get("RECURRENCE-ID")
    if rid is None:
        return (uid, None)
    return (uid, rid.to_ical().decode(errors="replace"), str(rid.params.get("TZID", "")))


def _check_uids(calendars, notes):
    """recurring-ical-events groups a calendar's VEVENTs by UID: one master (the highest
    SEQUENCE) and its RECURRENCE-ID overrides. What RFC 5545 and RFC 5546 say beyond that is
    applied here, or the input is skipped where the reference cannot follow:
    - a VCALENDAR that is an iTIP message (METHOD REPLY, CANCEL, ...; RFC 5546 section 1.4)
      publishes no events: its VEVENTs are left out; a CANCEL of an event the file also holds
      would remove it, which the reference has no step for: the file is skipped;
    - copies of one event (the same UID and RECURRENCE-ID, RFC 5545 section 3.8.4.7) count once:
      the highest SEQUENCE, then the latest DTSTAMP, then LAST-MODIFIED, then the last copy
      (RFC 5545 section 3.8.7.4, RFC 5546 section 2.1.5); the others are left out;
    - a UID in several VCALENDARs (each its own iCalendar object, RFC 5545 section 3.4) with
      overrides, cancellations or start-less VEVENTs: an iTIP message stream, whose messages
      act on each other (RFC 5546), which recurring-ical-events does not combine: skipped."""
    published = []
    cancelled: set[str] = set()
    for calendar in calendars:
        method = str(calendar.get("METHOD", "")).strip().upper()
        if method in MESSAGE_METHODS:
            for event in list(calendar.walk("VEVENT")):
                if method == "CANCEL":
                    cancelled.add(str(event.get("UID", "")).strip())
                _remove(calendar, event)
            notes.append(f"a METHOD:{method} VCALENDAR: its events are iTIP messages, left out")
        else:
            published.append(calendar)
    copies: dict = defaultdict(list)
    position = 0
    for number, calendar in enumerate(published):
        for event in calendar.walk("VEVENT"):
            key = _copy_key(event)
            if key is not None:
                copies[key].append((_revision(event, position), number, calendar, event))
            position += 1
    for key, found in copies.items():
        if key[0] in cancelled:
            raise ReferenceCannotRead(
                f"UID {key[0][:60]} cancelled by a METHOD:CANCEL VCALENDAR of the same file")
        if len(found) < 2:
            continue
        winner = max(found, key=lambda item: item[0])
        for item in found:
            if item is not winner:
                _remove(item[2], item[3])
        notes.append(f"{len(found)} copies of UID {key[0][:60]}: the latest counts once")
    seen_in: dict[str, set[int]] = defaultdict(set)
    acting: set[str] = set()
    for number, calendar in enumerate(published):
        for event in calendar.walk("VEVENT"):
            uid = str(event.get("UID", "")).strip()
            if not uid:
                continue
            seen_in[uid].add(number)
            if "RECURRENCE-ID" in event or "DTSTART" not in event:
                acting.add(uid)
            if str(event.get("STATUS", "")).strip().upper() == "CANCELLED":
                acting.add(uid)
    for uid, where in seen_in.items():
        if len(where) > 1 and uid in acting:
            raise ReferenceCannotRead(
                f"UID {uid[:60]} in {len(where)} VCALENDARs with overrides or cancellations "
                "(an iTIP message stream; RFC 5545 does not define how they combine)")


def _no_negative_span(event, notes):
    """recurring-ical-events swaps DTSTART and the end when the end comes first, so the session
    would start at DTEND. DTSTART is the start (RFC 5545 section 3.8.2.4) and the contract gives
    such a session 0 minutes: the end is set to the start."""
    from recurring_ical_events.adapters.event import EventAdapter
    from recurring_ical_events.util import make_comparable
    adapter = EventAdapter(event)
    start, end = make_comparable((adapter.raw_start, adapter.raw_end))
    if start > end:
        if "DURATION" in event:
            del event["DURATION"]
        event["DTEND"] = event["DTSTART"]
        notes.append(f"VEVENT {event.get('UID', '?')} ends before it starts: read with no length")


EXRULE_LIMIT = 200_000


def _exrule_as_exdates(event, stop: dt.date, notes):
    """recurring-ical-events ignores EXRULE (RFC 2445 section 4.8.5.2; deprecated by RFC 5545
    Appendix A.3 but part of the contract). Its instances, computed with dateutil as
    recurring-ical-events computes RRULE instances, are added as EXDATE values up to `stop`."""
    from dateutil.rrule import rrulestr
    from icalendar.prop import vDDDLists
    start = event["DTSTART"].dt
    all_day = not isinstance(start, dt.datetime)
    first = dt.datetime.combine(start, dt.time()) if all_day else start
    last = dt.datetime.combine(stop, dt.time())
    if first.tzinfo is not None:
        last = last.replace(tzinfo=first.tzinfo)
    values = []
    for rule in _values(event.get("EXRULE")):
        text = rule.to_ical().decode()
        until = re.search(r"UNTIL=([0-9TZ]+)", text)
        if until:  # UNTIL in the form dateutil wants for this DTSTART
            value = until.group(1)
            if first.tzinfo is not None and not value.endswith("Z"):
                value = (value + "T000000")[:15] + "Z"
            elif first.tzinfo is None and value.endswith("Z"):
                value = value[:-1]
            text = text.replace(until.group(0), "UNTIL=" + value)
        for instance in rrulestr(text, dtstart=first, cache=False).xafter(first, inc=True):
            if instance > last:
                break
            values.append(instance.date() if all_day else instance)
            if len(values) > EXRULE_LIMIT:
                raise ReferenceCannotRead(f"EXRULE with more than {EXRULE_LIMIT} instances")
    if values:
        existing = _values(event.get("EXDATE"))
        event["EXDATE"] = existing + [vDDDLists(values)]
        notes.append(f"VEVENT {event.get('UID', '?')}: EXRULE read as {len(values)} EXDATEs")


def _values(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _rdate_values(event):
    """RDATE values that are dates or date-times (period starts included), for the window."""
    result = []
    for rdate in _values(event.get("RDATE")):
        for value in getattr(rdate, "dts", []):
            value = getattr(value, "dt", None)
            if isinstance(value, tuple):
                value = value[0]
            if isinstance(value, dt.date):
                result.append(value)
    return result


def _remove(calendar, event):
    for parent in calendar.walk():
        if event in parent.subcomponents:
            parent.subcomponents.remove(event)
            return


# --------------------------------------------------------------------------------------------
# Scoring


@dataclass(frozen=True)
class ReportOptions:
    tz: str
    day_start: str = "00:00"  # HH:MM
    points: str = "x-points"  # x-points | minutes | count

    @property
    def label(self) -> str:
        parts = [self.tz]
        if self.day_start != "00:00":
            parts.append(f"day-start {self.day_start}")
        if self.points != "x-points":
            parts.append(self.points)
        return ", ".join(parts)


def day_start_delta(day_start: str) -> dt.timedelta:
    hours, minutes = day_start.split(":")
    return dt.timedelta(hours=int(hours), minutes=int(minutes))


def to_instant(value: dt.datetime, zone: ZoneInfo) -> dt.datetime:
    """A DATE-TIME as the reference reads it, as an instant: floating times are wall-clock
    times in the report zone; nonexistent wall times take the offset before the gap, ambiguous
    ones the first occurrence (fold=0, RFC 5545 section 3.3.5)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone, fold=0)
    return value.astimezone(UTC)


def rfc_instant(value: dt.datetime, zone: ZoneInfo, vtimezones: dict) -> dt.datetime:
    """The same DATE-TIME as RFC 5545 reads it, where the reference does not: a TZID named like
    an IANA zone that the calendar defines with a VTIMEZONE of its own (section 3.2.19: the
    VTIMEZONE defines it; icalendar uses the IANA zone), and wall times in a gap of a
    VTIMEZONE-defined zone (section 3.3.5: offset before the gap; dateutil uses the one after)."""
    tz = value.tzinfo
    if tz is None or isinstance(tz, ZoneInfo) and tz.key not in vtimezones:
        return to_instant(value, zone)
    if isinstance(tz, ZoneInfo):
        value = value.replace(tzinfo=vtimezones[tz.key])
        tz = value.tzinfo
    from dateutil import tz as dateutil_tz
    try:
        exists = dateutil_tz.datetime_exists(value)
    except Exception:  # noqa: BLE001
        exists = True
    if exists:
        return value.astimezone(UTC)
    before = (value - dt.timedelta(hours=3)).utcoffset()
    return (value.replace(tzinfo=None) - before).replace(tzinfo=UTC)


def day_of_instant(instant: dt.datetime, zone: ZoneInfo, shift: dt.timedelta) -> dt.date:
    local = instant.astimezone(zone).replace(tzinfo=None)
    return (local - shift).date()


def session_day(start, zone: ZoneInfo, shift: dt.timedelta) -> dt.date:
    """The day a session counts on: DATE starts on their date; times on the report zone's
    local date after subtracting the day start (wall clock: 00:00-03:59 is the previous day
    with 04:00)."""
    if not isinstance(start, dt.datetime):
        return start
    return day_of_instant(to_instant(start, zone), zone, shift)


_POINTS = re.compile(r"^ *([0-9]+) *$")


def x_points(raw) -> int:
    """X-POINTS: a non-negative integer, surrounding spaces allowed; anything else is 0."""
    if raw is None:
        return 0
    if isinstance(raw, list):
        raw = raw[0]
    match = _POINTS.match(str(raw))
    return int(match.group(1)) if match else 0


def minutes(occurrence: Occurrence, zone: ZoneInfo) -> int:
    """Whole minutes from the reference's start to its end (0 if negative)."""
    start, end = occurrence.start, occurrence.end
    if end is None:
        return 1440 if not isinstance(start, dt.datetime) else 0
    if not isinstance(start, dt.datetime) and not isinstance(end, dt.datetime):
        seconds = (end - start).days * 86400
    else:
        if not isinstance(start, dt.datetime):
            start = dt.datetime.combine(start, dt.time())
        if not isinstance(end, dt.datetime):
            end = dt.datetime.combine(end, dt.time())
        seconds = (to_instant(end, zone) - to_instant(start, zone)).total_seconds()
    return max(0, int(seconds // 60))


def rfc_minutes(occurrence: Occurrence, zone: ZoneInfo) -> int | None:
    """Minutes by RFC 5545 where they can differ from the reference's: DURATION hours,
    minutes and seconds are exact, days and weeks nominal (3.3.6, 3.8.2.5); a series whose
    length is given by DTEND has the first instance's exact length in every instance
    (3.8.5.3); icalendar and recurring-ical-events add both on the wall clock. None when
    not a timed session with a plain source."""
    source, start = occurrence.source, occurrence.start
    if source is None or not isinstance(start, dt.datetime):
        return None
    for rdate in _values(source.get("RDATE")):
        for value in getattr(rdate, "dts", []):
            period = getattr(value, "dt", None)
            if isinstance(period, tuple) and _same_time(period[0], start):
                return None  # an RDATE PERIOD gives this instance its own end
    vtz = occurrence.vtimezones
    begin = rfc_instant(start, zone, vtz)
    duration = source.get("DURATION")
    if duration is not None:
        length = getattr(duration, "dt", None)
        if not isinstance(length, dt.timedelta) or length < dt.timedelta(0):
            return None
        days = dt.timedelta(days=length.days)
        end = rfc_instant(start + days, zone, vtz) + (length - days)  # wall-clock days
    elif "DTEND" in source:
        first, last = source["DTSTART"].dt, source["DTEND"].dt
        if not isinstance(first, dt.datetime) or not isinstance(last, dt.datetime):
            return None
        end = begin + (rfc_instant(last, zone, vtz) - rfc_instant(first, zone, vtz))
    else:
        end = begin
    return max(0, int((end - begin).total_seconds() // 60))


def points_of(occurrence: Occurrence, options: ReportOptions, zone: ZoneInfo) -> int:
    if options.points == "count":
        return 1
    if options.points == "minutes":
        # StreakCal's rule, not the RFC's: an all-day event marks a day (a vacation, a trip) and
        # is no time spent, so it counts no minutes (issue 46.3).
        if not isinstance(occurrence.start, dt.datetime):
            return 0
        return minutes(occurrence, zone)
    return x_points(occurrence.x_points)


@dataclass
class Score:
    totals: dict  # date -> (points, sessions): the reference's
    by_uid: dict  # date -> {uid: [points, sessions]}
    flags: dict  # date -> {(reference defect, uid)}
    corrected: dict  # date -> (points, sessions) with the reference's defects corrected
    corrected_by_uid: dict


def score(reference: ReferenceCalendar, options: ReportOptions,
          window: tuple[dt.date, dt.date]) -> Score:
    """The reference's per-day totals for the days of the window with sessions, per UID too;
    the days where a known reference defect (rfc_instant, rfc_minutes, _instant_ids) touches a
    session, on the reference's day and on RFC 5545's; and the totals with those defects
    corrected, against which streakcal is held on those days."""
    zone = ZoneInfo(options.tz)
    shift = day_start_delta(options.day_start)
    flags: dict[dt.date, set] = defaultdict(set)
    for occurrence in reference.occurrences + reference.phantoms:
        start = occurrence.start
        day = session_day(start, zone, shift)
        days = {day}
        marks = set(occurrence.flags)
        if isinstance(start, dt.datetime):
            # A start the reference reads at another instant than RFC 5545: the session may
            # be on another day, and EXDATE and RECURRENCE-ID may hit or miss it wrongly.
            rfc_start = rfc_instant(start, zone, occurrence.vtimezones)
            if rfc_start != to_instant(start, zone):
                days.add(day_of_instant(rfc_start, zone, shift))
                marks.add(_zone_flag(start, occurrence.vtimezones))
        if options.points == "minutes" and not occurrence.phantom:
            expected = rfc_minutes(occurrence, zone)
            if expected is not None and expected != minutes(occurrence, zone):
                marks.add(_zone_flag(start, occurrence.vtimezones) if _zone_differs(occurrence, zone)
                          else "wallclock-duration")
        for flag_day in days:
            for mark in marks:
                flags[flag_day].add((mark, occurrence.uid))

    def add_up(occurrences, corrected: bool):
        totals = defaultdict(lambda: [0, 0])
        by_uid = defaultdict(lambda: defaultdict(lambda: [0, 0]))
        for occurrence in occurrences:
            start = occurrence.start
            if corrected and isinstance(start, dt.datetime):
                day = day_of_instant(rfc_instant(start, zone, occurrence.vtimezones), zone, shift)
            else:
                day = session_day(start, zone, shift)
            if not window[0] <= day <= window[1]:
                continue
            points = points_of(occurrence, options, zone)
            if corrected and options.points == "minutes":
                expected = rfc_minutes(occurrence, zone)
                points = points if expected is None else expected
            totals[day][0] += points
            totals[day][1] += 1
            by_uid[day][occurrence.uid][0] += points
            by_uid[day][occurrence.uid][1] += 1
        return {d: tuple(v) for d, v in totals.items()}, by_uid

    totals, by_uid = add_up(reference.occurrences, False)
    corrected, corrected_by_uid = add_up(reference.corrected, True)
    return Score(totals, by_uid, flags, corrected, corrected_by_uid)


def _zone_flag(start, vtimezones) -> str:
    tz = getattr(start, "tzinfo", None)
    return "vtimezone-ignored" if isinstance(tz, ZoneInfo) and tz.key in vtimezones else "vtimezone-gap"


def _zone_differs(occurrence: Occurrence, zone: ZoneInfo) -> bool:
    for value in (occurrence.start, occurrence.end):
        if isinstance(value, dt.datetime) and \
                rfc_instant(value, zone, occurrence.vtimezones) != to_instant(value, zone):
            return True
    return False
