#!/usr/bin/env python3
"""Helpers of Benchmarks/run-import-benchmarks (standard library only; any python3 runs them).

    harness.py compare STREAKCAL.json PYTHON.json --result R.json    per-day totals: MATCH or DIFFER
    harness.py peak --result R.json [--cap-mb N] [--stdout F] -- CMD...
                                        max RSS of CMD via /usr/bin/time -f %M, stopped above the cap
    harness.py time --result R.json --runs N [--warmup N] [--prepare CMD] [--interleave] --name NAME CMD ...
                                        hyperfine's stand-in: repeated runs, hyperfine-style JSON
    harness.py machine                  one line: date, CPU, cores, memory, load
    harness.py table --results DIR [--strict]    the figures and the targets, as Markdown
    harness.py shapes-table --results DIR [--strict]    issue 14's targets, shape by shape
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import signal
import shlex
import statistics
import subprocess
import sys
import time

# Issue 5's targets.
TARGET_VS_LIBICAL = 0.25  # streakcal report time / libical whole-document parse time, at most
TARGET_VS_PYTHON = 80.0  # Python icalendar time / streakcal report time, at least
TARGET_RSS_MB = 64.0  # peak RSS on the 1 GiB calendar, at most
TARGET_FLAT = 1.5  # "flat": peak RSS on the largest file at most this times the peak on 10 MiB
TARGET_RECURRENCE = 20.0  # recurring-ical-events time / streakcal time, at least
TARGET_BATCH = 1.7  # --jobs 2 throughput / --jobs 1 throughput, at least

# Issue 14's targets, on every shape (run-shape-benchmarks).
SHAPE_VS_LIBICAL = 0.20  # streakcal report time / libical whole-document parse time, at most
SHAPE_VS_PYTHON = 100.0  # Python time / streakcal report time, at least
SHAPE_RSS_MB = 48.0  # peak RSS of report at any size, at most
SHAPE_BATCH = 1.8  # --jobs 2 throughput / --jobs 1 throughput, at least


# --------------------------------------------------------------------------------------------
# compare


def load_streakcal(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    days = {d["date"]: [d["points"], d["sessions"]] for d in report["days"] if d["sessions"] or d["points"]}
    return report, days


def compare(args) -> int:
    result = {"streakcal": args.streakcal, "python": args.python}
    try:
        report, ours = load_streakcal(args.streakcal)
        with open(args.python, encoding="utf-8") as f:
            reference = json.load(f)
    except (OSError, ValueError, KeyError) as error:
        result.update(verdict="DIFFER", detail=f"cannot read the totals: {error}")
    else:
        theirs = reference["days"]
        differing = [day for day in sorted(set(ours) | set(theirs)) if ours.get(day) != theirs.get(day)]
        window_ok = (report.get("from"), report.get("to")) == (reference["from"], reference["to"])
        points = sum(p for p, _ in ours.values())
        sessions = sum(s for _, s in ours.values())
        result.update(days=len(ours), points=points, sessions=sessions,
                      diagnostics=len(report.get("diagnostics", [])), differing_days=len(differing))
        if differing or not window_ok:
            shown = "; ".join(f"{day}: streakcal {ours.get(day, [0, 0])[0]}/{ours.get(day, [0, 0])[1]}"
                              f" vs python {theirs.get(day, [0, 0])[0]}/{theirs.get(day, [0, 0])[1]}"
                              for day in differing[:4])
            if not window_ok:
                shown = (f"window {report.get('from')}..{report.get('to')} vs "
                         f"{reference['from']}..{reference['to']}; " + shown)
            result.update(verdict="DIFFER", detail=f"{len(differing)} of {len(set(ours) | set(theirs))} "
                          f"days differ (points/sessions): {shown}")
        else:
            result.update(verdict="MATCH", detail=f"{len(ours)} days, {points:,} points, {sessions:,} sessions")
    with open(args.result, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    print(f"{result['verdict']}: {result['detail']}")
    return 0 if result["verdict"] == "MATCH" else 1


# --------------------------------------------------------------------------------------------
# peak


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def peak(args) -> int:
    """Runs CMD under /usr/bin/time -f '%e %M'. A watchdog stops it (SIGKILL) when its resident
    set passes --cap-mb, so that a non-streaming build cannot take the machine down on a 1 GiB
    input; the result then says so and the peak is at least the cap."""
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    time_file = args.result + ".time"
    stdout = open(args.stdout, "wb") if args.stdout else subprocess.DEVNULL
    stderr = open(args.stderr, "wb") if args.stderr else subprocess.DEVNULL
    started = time.monotonic()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%e %M", "-o", time_file, *command],
                               stdout=stdout, stderr=stderr)
    stopped = False
    watched = 0
    while process.poll() is None:
        for child in _children(process.pid):
            rss = _rss_kb(child)
            watched = max(watched, rss)
            if args.cap_mb and rss > args.cap_mb * 1024:
                stopped = True
                try:
                    os.kill(child, signal.SIGKILL)
                except OSError:
                    pass
        time.sleep(0.02)
    wall = time.monotonic() - started
    seconds, max_rss_kb = None, None
    try:
        with open(time_file) as f:
            lines = [line for line in f.read().splitlines() if line.strip()]
        seconds, max_rss_kb = lines[-1].split()
        seconds, max_rss_kb = float(seconds), int(max_rss_kb)
    except (OSError, ValueError, IndexError):
        seconds, max_rss_kb = wall, watched
    finally:
        if os.path.exists(time_file):
            os.remove(time_file)
    # /usr/bin/time exits with the command's status (128+n for a signal).
    result = {"command": command, "exit": process.returncode, "seconds": seconds,
              "max_rss_kb": max_rss_kb, "stopped_at_cap": stopped, "cap_mb": args.cap_mb}
    with open(args.result, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    note = f" (stopped at the {args.cap_mb} MB cap)" if stopped else ""
    print(f"{max_rss_kb / 1024:.1f} MB peak, {seconds:.2f} s, exit {process.returncode}{note}")
    return 0


# --------------------------------------------------------------------------------------------
# time (when hyperfine is missing)


def _spawn_parts(command: str):
    """A command line as argv and its redirections (`> file`, `2>&1`), to run it without a shell:
    a shell's start-up would be timed with it. `None` when it uses more of the shell than that."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    argv, stdout, stderr_to_stdout = [], None, False
    index = 0
    while index < len(words):
        word = words[index]
        if word == ">" and index + 1 < len(words):
            stdout = words[index + 1]
            index += 2
            continue
        if word == "2>&1":
            stderr_to_stdout = True
        elif any(c in word for c in "|;&<>$`") and word not in argv:
            return None
        else:
            argv.append(word)
        index += 1
    return argv, stdout, stderr_to_stdout


def _run_timed(command: str) -> tuple[float, int]:
    """Runs a command once; its wall time (spawn to exit) and exit status."""
    parts = _spawn_parts(command)
    if parts is None:
        started = time.perf_counter()
        code = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        return time.perf_counter() - started, code
    argv, stdout, stderr_to_stdout = parts
    out = open(stdout, "wb") if stdout else subprocess.DEVNULL
    try:
        started = time.perf_counter()
        code = subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT if stderr_to_stdout else subprocess.DEVNULL).returncode
        elapsed = time.perf_counter() - started
    finally:
        if stdout:
            out.close()
    return elapsed, code


def timing_interleaved(args) -> int:
    """`timing`, the commands taking turns: each round runs every command once, in turn, the order
    reversed every other round (A B, B A, ...), so that a slow spell of the machine weighs on each
    command alike rather than on the runs of one."""
    times = [[] for _ in args.command]
    codes = [[] for _ in args.command]
    for round_index in range(args.warmup + args.runs):
        order = list(range(len(args.command)))
        if round_index % 2:
            order.reverse()
        for index in order:
            if args.prepare:
                subprocess.run(args.prepare, shell=True, check=True)
            elapsed, code = _run_timed(args.command[index])
            if code != 0:
                print(f"harness time: '{args.command[index]}' exited with {code}", file=sys.stderr)
                return 1
            if round_index >= args.warmup:
                times[index].append(elapsed)
                codes[index].append(code)
    results = []
    for name, command_times, command_codes in zip(args.name, times, codes):
        results.append({"command": name, "mean": statistics.mean(command_times), "median": statistics.median(command_times),
                        "min": min(command_times), "max": max(command_times), "times": command_times,
                        "exit_codes": command_codes})
        print(f"{name}: median {statistics.median(command_times):.3f} s of {len(command_times)} "
              f"(min {min(command_times):.3f}, max {max(command_times):.3f}), interleaved")
    with open(args.result, "w", encoding="utf-8") as f:
        json.dump({"results": results, "tool": "harness.py time --interleave"}, f, indent=1)
    return 0


def timing(args) -> int:
    if args.interleave:
        return timing_interleaved(args)
    results = []
    for name, command in zip(args.name, args.command):
        times, codes = [], []
        for run in range(args.warmup + args.runs):
            if args.prepare:
                subprocess.run(args.prepare, shell=True, check=True)
            started = time.perf_counter()
            code = subprocess.run(command, shell=True, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode
            elapsed = time.perf_counter() - started
            if code != 0:
                print(f"harness time: '{command}' exited with {code}", file=sys.stderr)
                return 1
            if run >= args.warmup:
                times.append(elapsed)
                codes.append(code)
        results.append({"command": name, "mean": statistics.mean(times), "median": statistics.median(times),
                        "min": min(times), "max": max(times), "times": times, "exit_codes": codes})
        print(f"{name}: median {statistics.median(times):.3f} s of {len(times)} "
              f"(min {min(times):.3f}, max {max(times):.3f})")
    with open(args.result, "w", encoding="utf-8") as f:
        json.dump({"results": results, "tool": "harness.py time"}, f, indent=1)
    return 0


# --------------------------------------------------------------------------------------------
# machine


def machine_line() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = "?"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    uname = os.uname()
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{now}; {cores} cores ({model}), {memory} memory, {uname.sysname} {uname.release} "
            f"{uname.machine}; load average {load}")


# --------------------------------------------------------------------------------------------
# table


def _load(directory, name):
    path = os.path.join(directory, name)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _median(hyperfine, name):
    if not hyperfine:
        return None
    for result in hyperfine["results"]:
        if result["command"] == name:
            return result
    return None


def _machine_lines(context) -> list:
    """The table's preamble: the machine, its load at the end, the versions, a blank line."""
    out = [f"Machine: {context.get('machine', machine_line())}"]
    after = context.get("machine_after", "")
    if "load average" in after:
        out.append(f"  at the end: {after.split('; ')[0]}; load average {after.rsplit('load average ', 1)[1]}")
    out += [f"  {line}" for line in context.get("versions", [])]
    out.append("")
    return out


def _secs(result) -> str:
    if result is None:
        return "not measured"
    runs = len(result.get("times", [])) or 1
    if result.get("stopped"):
        return f"≥ {result['median']:.3f} s (stopped at the cap)"
    if runs == 1:
        return f"{result['median']:.3f} s (1 run)"
    return f"{result['median']:.3f} s (median of {runs}, {result['min']:.2f}-{result['max']:.2f})"


def _mb(kb) -> float:
    return kb / 1024


def table(args) -> int:
    d = args.results
    context = _load(d, "context.json") or {}
    inputs = context.get("inputs", {})
    rows = []  # (target, measured, goal, ratio, verdict)
    verdicts = []

    def verdict(ok):
        text = "PASS" if ok else "FAIL"
        verdicts.append(text)
        return text

    def size(name):
        info = inputs.get(name) or {}
        if "bytes" not in info:
            return name
        return f"{info['bytes'] / 1e6:,.1f} MB, {info.get('events', info.get('series', 0)):,} events"

    # 1, 2: the 100,000-event calendar.
    plain = _load(d, "plain-speed.json")
    python_plain = _load(d, "plain-python.json")
    s = _median(plain, "streakcal report")
    c = _median(plain, "libical whole-document parse")
    p = _median(python_plain, "python icalendar")
    if s and c:
        ratio = s["median"] / c["median"]
        rows.append((f"`report` vs libical parse ({size('plain')})",
                     f"streakcal {s['median']:.3f} s, libical {c['median']:.3f} s",
                     f"≤ {TARGET_VS_LIBICAL}×", f"{ratio:.2f}×", verdict(ratio <= TARGET_VS_LIBICAL)))
    if s and p:
        ratio = p["median"] / s["median"]
        rows.append(("`report` vs Python icalendar (same file)",
                     f"streakcal {s['median']:.3f} s, Python {p['median']:.2f} s",
                     f"≥ {TARGET_VS_PYTHON:g}× faster", f"{ratio:.1f}× faster", verdict(ratio >= TARGET_VS_PYTHON)))
    # 3, 4: memory.
    rss = []
    for label in ("10MiB", "100MiB", "1GiB"):
        r = _load(d, f"rss-{label}.json")
        if r:
            rss.append((label, r))
    if rss:
        shown = ", ".join(f"{label.replace('MiB', ' MiB').replace('GiB', ' GiB')}: "
                          f"{'≥ ' if r['stopped_at_cap'] else ''}{_mb(r['max_rss_kb']):.0f} MB"
                          + (" (stopped at cap)" if r["stopped_at_cap"] else "")
                          + ("" if r["exit"] == 0 or r["stopped_at_cap"] else f" (exit {r['exit']})")
                          for label, r in rss)
        big = dict(rss).get("1GiB")
        if big:
            ok = _mb(big["max_rss_kb"]) <= TARGET_RSS_MB and big["exit"] == 0 and not big["stopped_at_cap"]
            rows.append(("peak RSS of `report` on 1 GiB", f"{'≥ ' if big['stopped_at_cap'] else ''}"
                         f"{_mb(big['max_rss_kb']):.0f} MB", f"≤ {TARGET_RSS_MB:g} MB",
                         f"{_mb(big['max_rss_kb']) / TARGET_RSS_MB:.1f}× the limit", verdict(ok)))
        else:
            rows.append(("peak RSS of `report` on 1 GiB", "not measured (--quick)", f"≤ {TARGET_RSS_MB:g} MB",
                         "", "n/a"))
        small, largest = rss[0][1], rss[-1][1]
        if len(rss) > 1:
            growth = largest["max_rss_kb"] / small["max_rss_kb"]
            ok = growth <= TARGET_FLAT and not largest["stopped_at_cap"] and largest["exit"] == 0
            rows.append((f"peak RSS flat, 10 MiB → {rss[-1][0].replace('MiB', ' MiB').replace('GiB', ' GiB')}",
                         shown, f"≤ {TARGET_FLAT}× growth", f"{'≥ ' if largest['stopped_at_cap'] else ''}"
                         f"{growth:.1f}×", verdict(ok)))
    # 5: recurrence.
    rec = _load(d, "recurrence-speed.json")
    python_rec = _load(d, "recurrence-python.json")
    s = _median(rec, "streakcal report")
    p = _median(python_rec, "python recurring-ical-events")
    if s and p:
        ratio = p["median"] / s["median"]
        rows.append((f"recurrence ({(inputs.get('recurrence') or {}).get('series', 0):,} series, 10 years)",
                     f"streakcal {s['median']:.3f} s, recurring-ical-events {p['median']:.2f} s",
                     f"≥ {TARGET_RECURRENCE:g}× faster", f"{ratio:.1f}× faster", verdict(ratio >= TARGET_RECURRENCE)))
    # 6: batch.
    batch = _load(d, "batch.json")
    batch_state = _load(d, "batch-state.json") or {"state": "not measured"}
    files = (inputs.get("batch") or {}).get("files", 0)
    one, two = _median(batch, "batch --jobs 1"), _median(batch, "batch --jobs 2")
    if batch_state.get("state") == "measured" and one and two:
        ratio = one["median"] / two["median"]
        rows.append((f"`batch` {files:,} calendars, --jobs 2 vs 1",
                     f"jobs 1: {one['median']:.2f} s ({files / one['median']:,.0f} files/s), "
                     f"jobs 2: {two['median']:.2f} s ({files / two['median']:,.0f} files/s)",
                     f"≥ {TARGET_BATCH}× throughput", f"{ratio:.2f}×", verdict(ratio >= TARGET_BATCH)))
    else:
        rows.append((f"`batch` {files:,} calendars, --jobs 2 vs 1", batch_state.get("detail", batch_state["state"]),
                     f"≥ {TARGET_BATCH}× throughput", "", batch_state["state"]))
    # Same work?
    checks = []
    for name, label in (("compare-plain.json", "per-day totals, plain (streakcal vs icalendar)"),
                        ("compare-recurrence.json", "per-day totals, recurrence (streakcal vs recurring-ical-events)")):
        r = _load(d, name)
        if r:
            checks.append((label, r))

    out = _machine_lines(context)
    out.append("| target | measured | goal | ratio | result |")
    out.append("| --- | --- | --- | --- | --- |")
    for row in rows:
        out.append("| " + " | ".join(row) + " |")
    for label, r in checks:
        out.append(f"| {label} | {r['detail']} | identical | | {r['verdict']} |")
    out.append("")
    out.append("All measurements:")
    out.append("")
    out.append("| what | input | wall time | max RSS |")
    out.append("| --- | --- | --- | --- |")
    details = [
        ("streakcal report --format json", "plain", _median(plain, "streakcal report"), _load(d, "rss-plain-streakcal.json")),
        ("libical-parse (whole document)", "plain", _median(plain, "libical whole-document parse"), _load(d, "rss-plain-libical.json")),
        ("python_totals.py plain (icalendar)", "plain", _median(python_plain, "python icalendar"), _load(d, "rss-plain-python.json")),
        ("streakcal report --format json", "recurrence", _median(rec, "streakcal report"), _load(d, "rss-recurrence-streakcal.json")),
        ("python_totals.py recurrence", "recurrence", _median(python_rec, "python recurring-ical-events"), _load(d, "rss-recurrence-python.json")),
    ]
    for label in ("10MiB", "100MiB", "1GiB"):
        for who, name in (("streakcal report --format json", f"rss-{label}.json"),
                          ("libical-parse (whole document)", f"rss-{label}-libical.json")):
            r = _load(d, name)
            if r:
                details.append((who, f"size-{label}", {"median": r["seconds"], "min": r["seconds"],
                                                        "max": r["seconds"], "times": [r["seconds"]],
                                                        "stopped": r["stopped_at_cap"]}, r))
    if batch_state.get("state") == "measured":
        details.append(("streakcal batch --jobs 1", "batch", one, None))
        details.append(("streakcal batch --jobs 2", "batch", two, None))
    for who, input_name, timing_result, memory in details:
        if timing_result is None and memory is None:
            continue
        info = inputs.get(input_name, {})
        where = input_name
        if "bytes" in info:
            where = f"{input_name} ({info['bytes'] / 1e6:,.1f} MB)"
        rss_text = ""
        if memory:
            rss_text = (f"{'≥ ' if memory['stopped_at_cap'] else ''}{_mb(memory['max_rss_kb']):,.0f} MB"
                        + (" (stopped at cap)" if memory["stopped_at_cap"] else ""))
        out.append(f"| {who} | {where} | {_secs(timing_result) if timing_result else ''} | {rss_text} |")
    out.append("")
    failed = verdicts.count("FAIL")
    differ = [label for label, r in checks if r["verdict"] != "MATCH"]
    out.append(f"Targets: {verdicts.count('PASS')} PASS, {failed} FAIL"
               + (f"; totals DIFFER: {', '.join(differ)}" if differ else "; totals MATCH"))
    text = "\n".join(out) + "\n"
    with open(os.path.join(d, "table.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(d, "summary.json"), "w", encoding="utf-8") as f:
        json.dump({"rows": [dict(zip(("target", "measured", "goal", "ratio", "result"), r)) for r in rows],
                   "totals": {label: r for label, r in checks}, "context": context}, f, indent=1)
    sys.stdout.write(text)
    if differ:
        return 1
    return 1 if args.strict and failed else 0


# --------------------------------------------------------------------------------------------
# shapes-table


def shapes_table(args) -> int:
    d = args.results
    context = _load(d, "context.json") or {}
    shapes = context.get("shapes", [])
    sizes = context.get("sizes", [])
    inputs = context.get("inputs", {})
    verdicts = []
    differ = []

    def verdict(ok):
        text = "PASS" if ok else "FAIL"
        verdicts.append(text)
        return text

    rows = []
    details = []
    summary = {}
    for shape in shapes:
        info = inputs.get(f"{shape}-28MB") or {}
        shape_context = _load(d, f"{shape}-context.json") or {}
        load = shape_context.get("loadavg", [None])[0]
        what = (f"{info.get('events', 0):,} events, {info.get('bytes', 0) / 1e6:.1f} MB"
                + (f", {info['series']:,} series" if info.get("series") else ""))
        speed = _load(d, f"{shape}-speed.json")
        s, c = _median(speed, "streakcal report"), _median(speed, "libical whole-document parse")
        p = _median(_load(d, f"{shape}-python.json"), "python")
        row = {"shape": shape, "input": what, "points": shape_context.get("points"), "load": load}
        if s and c:
            ratio = s["median"] / c["median"]
            row["libical"] = (f"{s['median']:.3f} s vs {c['median']:.3f} s: {ratio:.2f}×", verdict(ratio <= SHAPE_VS_LIBICAL))
            row["libical_ratio"] = ratio
        else:
            row["libical"] = ("not measured", "n/a")
        expanded = _median(speed, "libical parse and expansion")
        if s and expanded:
            row["expanded"] = f"{expanded['median']:.3f} s: {s['median'] / expanded['median']:.2f}×"
            row["expanded_ratio"] = s["median"] / expanded["median"]
        if s and p:
            ratio = p["median"] / s["median"]
            row["python"] = (f"{p['median']:.1f} s: {ratio:,.0f}×", verdict(ratio >= SHAPE_VS_PYTHON))
            row["python_ratio"] = ratio
        else:
            row["python"] = ("not measured", "n/a")
        peaks = []
        worst_ok = True
        for size in sizes:
            r = _load(d, f"{shape}-rss-{size}.json")
            if not r:
                continue
            ok = r["exit"] == 0 and not r["stopped_at_cap"] and _mb(r["max_rss_kb"]) <= SHAPE_RSS_MB
            worst_ok = worst_ok and ok
            peaks.append(f"{'≥ ' if r['stopped_at_cap'] else ''}{_mb(r['max_rss_kb']):.0f}"
                         + ("" if r["exit"] == 0 or r["stopped_at_cap"] else f" (exit {r['exit']})"))
        row["rss"] = (" / ".join(peaks) + " MB", verdict(worst_ok)) if peaks else ("not measured", "n/a")
        libical_rss = _load(d, f"{shape}-rss-libical.json")
        state = _load(d, f"{shape}-batch-state.json") or {"state": "not measured", "detail": ""}
        batch = _load(d, f"{shape}-batch.json")
        one, two = _median(batch, "batch --jobs 1"), _median(batch, "batch --jobs 2")
        if state.get("state") == "measured" and one and two:
            ratio = one["median"] / two["median"]
            row["batch"] = (f"{one['median']:.2f} s / {two['median']:.2f} s: {ratio:.2f}×", verdict(ratio >= SHAPE_BATCH))
            row["batch_ratio"] = ratio
        else:
            row["batch"] = (state.get("detail") or state["state"], "n/a")
        compared = _load(d, f"{shape}-compare.json")
        if compared:
            row["totals"] = f"{compared['verdict']} ({compared['detail']})"
            if compared["verdict"] != "MATCH":
                differ.append(shape)
        else:
            row["totals"] = "not compared"
        rows.append(row)
        details.append((shape, what, s, c, expanded, p, libical_rss, one, two, load))
        summary[shape] = row

    out = _machine_lines(context)
    sizes_text = " / ".join(size.replace("MB", " MB").replace("GiB", " GiB") for size in sizes)
    out.append(f"| shape | input (28 MB) | `report` vs libical's parse (≤ {SHAPE_VS_LIBICAL:.2f}×) | | "
               f"vs Python (≥ {SHAPE_VS_PYTHON:g}×) | | peak RSS {sizes_text} (≤ {SHAPE_RSS_MB:g} MB) | | "
               f"`batch` jobs 1 / jobs 2 (≥ {SHAPE_BATCH}×) | | per-day totals |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        cells = [row["shape"] + (f" (`--points {row['points']}`)" if row.get("points") == "minutes" else ""), row["input"]]
        for key in ("libical", "python", "rss", "batch"):
            cells += [row[key][0], row[key][1]]
        cells.append(row["totals"])
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("All measurements (medians; min-max of the timed runs):")
    out.append("")
    out.append("| shape | load at start | streakcal report | libical parse | libical parse and expansion | libical's peak RSS | Python | batch --jobs 1 | batch --jobs 2 |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for shape, what, s, c, expanded, p, libical_rss, one, two, load in details:
        out.append("| " + " | ".join([
            shape, f"{load:.2f}" if load is not None else "", _secs(s) if s else "", _secs(c) if c else "",
            (_secs(expanded) + f"; streakcal {s['median'] / expanded['median']:.2f}× of it") if s and expanded else "",
            f"{_mb(libical_rss['max_rss_kb']):,.0f} MB" if libical_rss else "", _secs(p) if p else "",
            _secs(one) if one else "", _secs(two) if two else ""]) + " |")
    out.append("")
    failed = verdicts.count("FAIL")
    out.append(f"Targets: {verdicts.count('PASS')} PASS, {failed} FAIL"
               + (f"; totals DIFFER: {', '.join(differ)}" if differ else "; totals MATCH"))
    text = "\n".join(out) + "\n"
    with open(os.path.join(d, "table.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(d, "summary.json"), "w", encoding="utf-8") as f:
        json.dump({"shapes": summary, "context": context}, f, indent=1)
    sys.stdout.write(text)
    if differ:
        return 1
    return 1 if args.strict and failed else 0


# --------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    c = sub.add_parser("compare")
    c.add_argument("streakcal")
    c.add_argument("python")
    c.add_argument("--result", required=True)
    p = sub.add_parser("peak")
    p.add_argument("--result", required=True)
    p.add_argument("--cap-mb", type=int, default=0)
    p.add_argument("--stdout")
    p.add_argument("--stderr")
    p.add_argument("command", nargs=argparse.REMAINDER)
    t = sub.add_parser("time")
    t.add_argument("--result", required=True)
    t.add_argument("--runs", type=int, default=5)
    t.add_argument("--warmup", type=int, default=0)
    t.add_argument("--prepare")
    t.add_argument("--interleave", action="store_true")
    t.add_argument("--name", action="append", required=True)
    t.add_argument("command", nargs="+")
    sub.add_parser("machine")
    tb = sub.add_parser("table")
    tb.add_argument("--results", required=True)
    tb.add_argument("--strict", action="store_true")
    st = sub.add_parser("shapes-table")
    st.add_argument("--results", required=True)
    st.add_argument("--strict", action="store_true")
    args = parser.parse_args(argv)
    if args.what == "compare":
        return compare(args)
    if args.what == "peak":
        return peak(args)
    if args.what == "time":
        if len(args.name) != len(args.command):
            parser.error("one --name per command")
        return timing(args)
    if args.what == "machine":
        print(machine_line())
        return 0
    if args.what == "shapes-table":
        return shapes_table(args)
    return table(args)


if __name__ == "__main__":
    sys.exit(main())
