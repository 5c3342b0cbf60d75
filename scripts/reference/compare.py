#!/usr/bin/env python3
"""Compares `streakcal report --format json` with an independent reference (Python's icalendar +
recurring-ical-events) on per-day points and session counts. Run it through
scripts/reference-compare, which sets up the virtualenv; see README.md beside this file.

Inputs: the repository's Fixtures/*.ics, every file of the shared corpus that the reference can
read and expand, and calendars from generate.py. Prints one line per differing input and a
summary; exits 1 if any difference is not explained by known-differences.tsv or streakcal
crashed or timed out, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import concurrent.futures as futures
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the repository

import generate  # noqa: E402
import reference as ref  # noqa: E402

STREAKCAL_TIMEOUT = 20
FIRST_DAYS_SHOWN = 4
# For inputs where the reference finds no VEVENT: streakcal's window then starts at its own
# earliest session (none: just this day), so any session it finds shows up.
NO_EVENTS_TO = "2099-12-31"
# Fixtures and corpus: every input in UTC; inputs with events also in Berlin with a 04:00 day
# start, counting minutes (DST, day start, ends and durations).
RUN_UTC = ref.ReportOptions("UTC")
RUN_BERLIN = ref.ReportOptions("Europe/Berlin", "04:00", "minutes")
CATEGORIES = ("fixtures", "corpus", "generated")


# --------------------------------------------------------------------------------------------
# Known differences


@dataclass(eq=False)
class KnownDifference:
    input: str
    days: set[str] | None  # None: every day
    rfc: str
    explanation: str
    line: int
    used: int = 0

    def covers(self, day: str) -> bool:
        return self.days is None or day in self.days


def load_known(path: str) -> list[KnownDifference]:
    entries = []
    if not os.path.exists(path):
        return entries
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if cells[0] == "input":
                continue  # header
            if len(cells) != 4:
                print(f"{path}:{number}: expected 4 tab-separated columns, got {len(cells)}", file=sys.stderr)
                sys.exit(2)
            days = None if cells[1].strip() == "*" else {d.strip() for d in cells[1].split(",") if d.strip()}
            entries.append(KnownDifference(cells[0].strip(), days, cells[2].strip(), cells[3].strip(), number))
    return entries


# --------------------------------------------------------------------------------------------
# streakcal


@dataclass
class StreakcalResult:
    status: str  # ok | error (exit 1..127 with a message) | crash | timeout | bad-output
    days: dict[str, tuple[int, int]] = field(default_factory=dict)  # only days with sessions or points
    message: str = ""
    first: str = ""
    last: str = ""


def run_streakcal(binary: str, path: str, options: ref.ReportOptions,
                  window: tuple[dt.date, dt.date] | None) -> StreakcalResult:
    command = [binary, "report", path, "--format", "json", "--tz", options.tz,
               "--day-start", options.day_start, "--points", options.points,
               # The reference knows no "now": sessions after the day the comparison runs count
               # as done on both sides, so the result does not depend on that day (issue 46.2).
               "--count-planned"]
    if window:
        command += ["--from", window[0].isoformat(), "--to", window[1].isoformat()]
    else:
        command += ["--to", NO_EVENTS_TO]
    try:
        process = subprocess.run(command, capture_output=True, timeout=STREAKCAL_TIMEOUT,
                                 stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return StreakcalResult("timeout", message=f"streakcal timed out after {STREAKCAL_TIMEOUT} s")
    if process.returncode < 0 or process.returncode >= 128:
        signal_number = -process.returncode if process.returncode < 0 else process.returncode - 128
        return StreakcalResult("crash", message=f"streakcal was killed by signal {signal_number}")
    if process.returncode != 0:
        lines = process.stderr.decode("utf-8", "replace").strip().splitlines()
        message = next((l for l in lines if "error" in l.lower()), lines[-1] if lines else "")
        return StreakcalResult("error", message=f"streakcal exited {process.returncode}: {message[:200]}")
    try:
        report = json.loads(process.stdout)
        days = {}
        dates = []
        for day in report["days"]:
            dates.append(day["date"])
            if day["points"] or day["sessions"]:
                days[day["date"]] = (int(day["points"]), int(day["sessions"]))
    except (ValueError, KeyError, TypeError) as error:
        return StreakcalResult("bad-output", message=f"streakcal printed no valid report: {error}")
    result = StreakcalResult("ok", days, first=report.get("from", ""), last=report.get("to", ""))
    if window:
        expected = (window[1] - window[0]).days + 1
        if len(dates) != expected or (dates and (dates[0] != window[0].isoformat()
                                                 or dates[-1] != window[1].isoformat())):
            result.status = "bad-output"
            result.message = f"streakcal listed {len(dates)} days, not every day of {window[0]}..{window[1]}"
    return result


# --------------------------------------------------------------------------------------------
# Inputs


@dataclass
class Run:
    options: ref.ReportOptions
    window: tuple[dt.date, dt.date] | None
    reference: dict  # date -> (points, sessions)
    by_uid: dict
    flags: dict  # date -> {(reference defect, uid)}
    corrected: dict  # date -> (points, sessions), the reference with its known defects corrected
    corrected_by_uid: dict
    future: futures.Future | None = None
    result: StreakcalResult | None = None
    differing: list[str] = field(default_factory=list)  # ISO dates


@dataclass
class Input:
    category: str
    name: str  # as known-differences.tsv names it
    path: str
    meta: dict | None = None  # generated: the sidecar
    skipped: str = ""
    runs: list[Run] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    outcome: str = ""  # identical | differ | explained | failed | skipped
    explanation: list[str] = field(default_factory=list)
    event_diffs: dict = field(default_factory=dict)  # generated: uid -> differing days
    isolated_days: dict = field(default_factory=dict)  # generated: uid -> streakcal's days alone


def default_window(earliest: dt.date, latest: dt.date) -> tuple[dt.date, dt.date]:
    """From the day before the earliest DTSTART (a zone may move it back a day) to 400 days
    after the latest, at most ten years in all."""
    first = earliest - dt.timedelta(days=1) if earliest > dt.date(1, 1, 5) else earliest
    last = min(latest + dt.timedelta(days=400), first + dt.timedelta(days=3652))
    last = min(last, dt.date(9999, 12, 28) - ref.MARGIN)
    return first, last


def prepare(item: Input, pool: futures.Executor, binary: str):
    """Reference totals for each run of `item`, and the streakcal runs submitted to `pool`."""
    with open(item.path, "rb") as f:
        data = f.read()
    try:
        if item.meta:
            window = (dt.date.fromisoformat(item.meta["from"]), dt.date.fromisoformat(item.meta["to"]))
            calendar = ref.read_and_expand(data, window)
            runs = [ref.ReportOptions(item.meta["tz"], item.meta["day_start"], item.meta["points"])]
        else:
            calendar = ref.read_and_expand(data, default_window)
            window = calendar.window
            runs = [RUN_UTC] + ([RUN_BERLIN] if window else [])
    except ref.ReferenceCannotRead as error:
        item.skipped = str(error)
        item.outcome = "skipped"
        return
    item.notes = calendar.notes
    for options in runs:
        if window:
            s = ref.score(calendar, options, window)
        else:
            s = ref.Score({}, {}, {}, {}, {})

        def iso(d):
            return {day.isoformat(): value for day, value in d.items()}
        run = Run(options, window, iso(s.totals), iso(s.by_uid), iso(s.flags), iso(s.corrected),
                  iso(s.corrected_by_uid))
        run.future = pool.submit(run_streakcal, binary, item.path, options, window)
        item.runs.append(run)


def compare_runs(item: Input):
    for run in item.runs:
        run.result = run.future.result()
        run.future = None
        if run.result.status != "ok":
            continue
        days = set(run.reference) | set(run.result.days)
        run.differing = sorted(d for d in days
                               if run.reference.get(d, (0, 0)) != run.result.days.get(d, (0, 0)))


def describe_days(run: Run, days: list[str], limit: int | None = FIRST_DAYS_SHOWN) -> str:
    shown = days if limit is None else days[:limit]
    parts = []
    for day in shown:
        s = run.result.days.get(day, (0, 0))
        r = run.reference.get(day, (0, 0))
        parts.append(f"{day}: streakcal {s[0]}/{s[1]} vs reference {r[0]}/{r[1]}")
    more = "" if limit is None or len(days) <= limit else f"; ... ({len(days) - limit} more)"
    return "; ".join(parts) + more


# --------------------------------------------------------------------------------------------
# Generated calendars: which events differ


_UID = re.compile(r"^UID:(.*)$")


def split_by_uid(text: str) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """(header lines, VTIMEZONE lines, uid -> VEVENT lines) of a generated calendar."""
    unfolded = re.sub(r"\r\n[ \t]", "", text).split("\r\n")
    header, zones, events = [], [], defaultdict(list)
    block: list[str] | None = None
    kind = ""
    for line in unfolded:
        if block is None:
            if line in ("BEGIN:VEVENT", "BEGIN:VTIMEZONE"):
                block, kind = [line], line[6:]
            elif line and line != "END:VCALENDAR":
                header.append(line)
            continue
        block.append(line)
        if line == f"END:{kind}":
            if kind == "VTIMEZONE":
                zones += block
            else:
                uid = next(_UID.match(l).group(1) for l in block if _UID.match(l))
                events[uid] += block
            block = None
    return header, zones, events


def isolate(item: Input, workdir: str, pool: futures.Executor, binary: str):
    """Runs streakcal on each event of a differing generated calendar alone."""
    with open(item.path, encoding="utf-8", newline="") as f:
        header, zones, events = split_by_uid(f.read())
    item.isolated = {}
    run = item.runs[0]
    for uid, lines in events.items():
        path = os.path.join(workdir, f"{os.path.basename(item.path)[:-4]}.{uid}.ics")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write("\r\n".join(header + zones + lines + ["END:VCALENDAR"]) + "\r\n")
        item.isolated[uid] = pool.submit(run_streakcal, binary, path, run.options, run.window)


def attribute(item: Input):
    """uid -> differing days, from the isolated runs; also checks that they add up."""
    run = item.runs[0]
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for uid, future in item.isolated.items():
        result = future.result()
        if result.status != "ok":
            item.event_diffs[uid] = [f"({result.status}: {result.message})"]
            continue
        item.isolated_days[uid] = result.days
        for day, value in result.days.items():
            sums[day][0] += value[0]
            sums[day][1] += value[1]
        reference_days = {day: tuple(per_uid[uid]) for day, per_uid in run.by_uid.items() if uid in per_uid}
        differing = sorted(d for d in set(reference_days) | set(result.days)
                           if reference_days.get(d, (0, 0)) != result.days.get(d, (0, 0)))
        if differing:
            item.event_diffs[uid] = differing
    added_up = all(tuple(sums.get(d, (0, 0))) == run.result.days.get(d, (0, 0))
                   for d in set(sums) | set(run.result.days))
    item.additive = added_up
    del item.isolated


# --------------------------------------------------------------------------------------------
# Verdicts


def judge(item: Input, known: list[KnownDifference]):
    """identical, differ, explained (every differing day, or with the events run one by one
    every differing day of every differing event, is covered by known-differences.tsv), failed
    or skipped."""
    if item.outcome == "skipped":
        return
    failures = [r for r in item.runs if r.result.status in ("crash", "timeout", "bad-output")]
    if failures:
        item.outcome = "failed"
        return
    errors = [r for r in item.runs if r.result.status == "error"]
    if not errors and not any(r.differing for r in item.runs):
        item.outcome = "identical"
        return
    item.outcome = "differ"
    if errors:
        return
    by_flag = {k.input[4:]: k for k in known if k.input.startswith("ref:")}
    by_tag = {k.input[4:]: k for k in known if k.input.startswith("gen:")}
    own = [k for k in known if k.input == item.name]
    used: list[KnownDifference] = []

    def covered(run: Run, day: str, uid: str | None) -> bool:
        for entry in own:
            if entry.covers(day):
                used.append(entry)
                return True
        # A reference defect explains a day only where streakcal agrees with the reference
        # corrected for its defects.
        if uid is None:
            agrees = run.result.days.get(day, (0, 0)) == run.corrected.get(day, (0, 0))
        else:
            alone = item.isolated_days.get(uid, {})
            fixed = run.corrected_by_uid.get(day, {}).get(uid, (0, 0))
            agrees = alone.get(day, (0, 0)) == tuple(fixed)
        for flag, flag_uid in run.flags.get(day, ()):
            if agrees and flag in by_flag and (uid is None or flag_uid == uid):
                used.append(by_flag[flag])
                return True
        if uid is not None and item.meta:
            for tag in item.meta["events"].get(uid, []):
                if tag in by_tag:
                    used.append(by_tag[tag])
                    return True
        return False

    missing = []
    for run in item.runs:
        if item.category == "generated" and getattr(item, "additive", False):
            pairs = [(day, uid) for uid, days in item.event_diffs.items() for day in days]
            if not pairs or any(day.startswith("(") for day, _ in pairs):
                return
        else:
            pairs = [(day, None) for day in run.differing]
        missing += [day for day, uid in pairs if not covered(run, day, uid)]
    if missing:
        item.unexplained = sorted(set(missing))
        return
    item.outcome = "explained"
    for entry in dict.fromkeys(used):
        entry.used += 1
        item.explanation.append(f"known-differences.tsv:{entry.line} {entry.input} (RFC 5545 {entry.rfc})")


def report_lines(item: Input) -> list[str]:
    lines = []
    for run in item.runs:
        label = f"{item.category} {item.name} [{run.options.label}]"
        if run.result.status != "ok":
            lines.append(f"{'FAIL' if item.outcome == 'failed' else 'differ'} {label}: {run.result.message}")
        elif run.differing:
            tag = "explained" if item.outcome == "explained" else "differ"
            lines.append(f"{tag} {label}: {len(run.differing)} days differ: {describe_days(run, run.differing)}")
    if item.event_diffs:
        features = item.meta["events"]
        parts = []
        for uid, days in sorted(item.event_diffs.items()):
            parts.append(f"{uid} ({len(days)} days; {' '.join(features.get(uid, []))})")
        lines.append("    events that differ alone: " + "; ".join(parts))
        if not getattr(item, "additive", True):
            lines.append("    the events alone do not add up to the whole calendar's totals")
    for text in item.explanation:
        lines.append(f"    explained by {text}")
    if getattr(item, "unexplained", None) and item.outcome == "differ":
        days = item.unexplained
        lines.append(f"    not explained: {', '.join(days[:8])}{' ...' if len(days) > 8 else ''}")
    return lines


def write_keep(item: Input, keep: str):
    if item.outcome not in ("differ", "explained", "failed"):
        return
    folder = os.path.join(keep, "reports", item.category)
    os.makedirs(folder, exist_ok=True)
    name = item.name.replace("/", "__")
    with open(os.path.join(folder, name + ".diff.txt"), "w", encoding="utf-8") as f:
        f.write(f"input: {item.path}\n")
        for run in item.runs:
            f.write(f"\n[{run.options.label}] window {run.window[0] if run.window else '-'}"
                    f"..{run.window[1] if run.window else NO_EVENTS_TO}\n")
            if run.result.status != "ok":
                f.write(run.result.message + "\n")
                continue
            for day in run.differing:
                f.write(describe_days(run, [day], None) + "\n")
        for line in report_lines(item)[len(item.runs):]:
            f.write(line + "\n")


# --------------------------------------------------------------------------------------------
# Main


def collect_inputs(args) -> dict[str, list[Input]]:
    inputs: dict[str, list[Input]] = {c: [] for c in CATEGORIES}
    wanted = [args.only] if args.only else list(CATEGORIES)
    if "fixtures" in wanted:
        for name in sorted(os.listdir(args.fixtures)):
            if name.endswith(".ics"):
                inputs["fixtures"].append(Input("fixtures", f"Fixtures/{name}", os.path.join(args.fixtures, name)))
    if "corpus" in wanted:
        manifest = os.path.join(args.corpus, "MANIFEST.tsv")
        if os.path.exists(manifest):
            with open(manifest, encoding="utf-8") as f:
                rows = [line.split("\t")[0] for line in f.read().splitlines()[1:] if line.strip()]
        else:
            rows = sorted(os.path.relpath(os.path.join(d, n), args.corpus)
                          for d, _, names in os.walk(args.corpus) for n in names
                          if n not in ("README.md", "MANIFEST.tsv"))
        for rel in rows:
            inputs["corpus"].append(Input("corpus", rel, os.path.join(args.corpus, rel)))
    return inputs


def generated_inputs(args, folder: str) -> list[Input]:
    items = []
    os.makedirs(folder, exist_ok=True)
    for index in range(args.generated):
        data, meta = generate.generate(args.seed, index)
        base = os.path.join(folder, f"gen-{args.seed}-{index:04d}")
        with open(base + ".ics", "wb") as f:
            f.write(data)
        with open(base + ".json", "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1)
        items.append(Input("generated", os.path.basename(base), base + ".ics", meta))
    return items


def main(argv=None) -> int:
    root = os.path.dirname(os.path.dirname(HERE))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build/debug/streakcal"))
    parser.add_argument("--fixtures", nargs="?", const=os.path.join(root, "Fixtures"),
                        default=os.path.join(root, "Fixtures"), metavar="DIR")
    parser.add_argument("--corpus", default=os.path.join(root, "../shared/corpus"), metavar="DIR")
    parser.add_argument("--generated", type=int, default=600, metavar="N")
    parser.add_argument("--seed", type=int, default=1, metavar="S")
    parser.add_argument("--jobs", type=int, default=2, metavar="N")
    parser.add_argument("--only", choices=CATEGORIES)
    parser.add_argument("--keep", metavar="DIR")
    parser.add_argument("--known", default=os.path.join(HERE, "known-differences.tsv"))
    parser.add_argument("--attribute-limit", type=int, default=150, metavar="N",
                        help="differing generated calendars whose events are run one by one to "
                             "find the differing ones (always done where a gen: entry could "
                             "explain the difference); default 150")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.generated < 0:
        parser.error("--jobs must be positive and --generated not negative")
    if not (os.path.isfile(args.binary) and os.access(args.binary, os.X_OK)):
        parser.error(f"no executable streakcal at {args.binary} (run 'swift build' first)")
    wanted = [args.only] if args.only else list(CATEGORIES)
    if "fixtures" in wanted and not os.path.isdir(args.fixtures):
        parser.error(f"no fixtures folder at {args.fixtures}")
    if "corpus" in wanted and not os.path.isdir(args.corpus):
        parser.error(f"no corpus folder at {args.corpus}")
    binary = os.path.abspath(args.binary)
    known = load_known(args.known)
    started = time.monotonic()
    out = sys.stdout

    with tempfile.TemporaryDirectory(prefix="reference-compare-") as scratch:
        inputs = collect_inputs(args)
        if "generated" in wanted:
            folder = os.path.join(args.keep, "generated") if args.keep else os.path.join(scratch, "generated")
            inputs["generated"] = generated_inputs(args, folder)
        all_items = [item for c in CATEGORIES for item in inputs[c]]
        with futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for item in all_items:
                prepare(item, pool, binary)
            for item in all_items:
                if item.outcome != "skipped":
                    compare_runs(item)
            # Generated calendars that differ: run each event alone to find which ones differ.
            gen_tags = {k.input[4:] for k in known if k.input.startswith("gen:")}
            isolated_dir = os.path.join(scratch, "isolated")
            os.makedirs(isolated_dir)
            budget = args.attribute_limit
            for item in inputs["generated"]:
                run = item.runs[0] if item.runs else None
                if not run or run.result.status != "ok" or not run.differing:
                    continue
                needed = any(gen_tags & set(tags) for tags in item.meta["events"].values())
                if needed or budget > 0:
                    budget -= 0 if needed else 1
                    isolate(item, isolated_dir, pool, binary)
            for item in inputs["generated"]:
                if hasattr(item, "isolated"):
                    attribute(item)
        for item in all_items:
            judge(item, known)

    summary = []
    failed_any = unexplained_any = False
    for category in wanted:
        items = inputs[category]
        count = Counter(item.outcome for item in items)
        compared = len(items) - count["skipped"]
        differ = count["differ"] + count["explained"]
        text = (f"{category}: {compared} compared, {count['identical']} identical, {differ} differ "
                f"({count['explained']} explained), {count['skipped']} skipped")
        if count["failed"]:
            text += f", {count['failed']} failed"
        summary.append(text)
        failed_any |= bool(count["failed"])
        unexplained_any |= bool(count["differ"])
        for item in items:
            if item.outcome in ("differ", "failed") or (args.verbose and item.outcome == "explained"):
                for line in report_lines(item):
                    print(line, file=out)
            elif args.verbose and item.outcome == "skipped":
                print(f"skipped {category} {item.name}: reference cannot read it: {item.skipped}", file=out)
            if args.keep:
                write_keep(item, args.keep)
        if category == "corpus" and not args.verbose and count["skipped"]:
            reasons = Counter(_reason_kind(item.skipped) for item in items if item.outcome == "skipped")
            print(f"corpus skipped (reference cannot read it): "
                  + ", ".join(f"{n} {r}" for r, n in reasons.most_common()), file=out)
        if category == "generated":
            print_feature_table(items, out)
    for entry in known:
        ran = ("generated" in wanted) if entry.input.startswith("gen:") else (
            ("fixtures" in wanted) if entry.input.startswith("Fixtures/") else ("corpus" in wanted))
        if ran and not entry.used:
            print(f"note: known-differences.tsv:{entry.line} ({entry.input}) explained nothing in this run",
                  file=out)
    print(f"({time.monotonic() - started:.0f} s)", file=out)
    print("; ".join(summary), file=out)
    return 1 if failed_any or unexplained_any else 0


def _reason_kind(reason: str) -> str:
    """A skip reason without its particulars, to count alike ones together."""
    reason = re.sub(r"'.*", "", reason)
    reason = re.sub(r"UID \S+", "UID …", reason)
    reason = re.sub(r"VEVENT \S+ has", "VEVENT has", reason)
    reason = re.sub(r"\d+", "N", reason)
    return ": ".join(reason.split(": ")[:2]).strip(" :")


def print_feature_table(items: list[Input], out):
    """Which generator features the differing events have (over the calendars run event by
    event)."""
    attributed = [item for item in items if item.event_diffs or getattr(item, "additive", None) is not None]
    if not attributed:
        return
    total, differing = Counter(), Counter()
    for item in attributed:
        for uid, tags in item.meta["events"].items():
            for tag in tags:
                total[tag] += 1
                if uid in item.event_diffs:
                    differing[tag] += 1
    n_events = sum(len(item.meta["events"]) for item in attributed)
    n_diff = sum(len(item.event_diffs) for item in attributed)
    print(f"generated: {n_diff} of {n_events} events differ alone, in {len(attributed)} differing "
          f"calendars run event by event; by feature (differing/with feature):", file=out)
    rows = sorted((t for t in total if differing[t]), key=lambda t: (-differing[t] / total[t], -total[t]))
    if rows:
        print("    " + ", ".join(f"{t} {differing[t]}/{total[t]}" for t in rows), file=out)


if __name__ == "__main__":
    sys.exit(main())
