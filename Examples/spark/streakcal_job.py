"""StreakCal on Apache Spark: one streak report per calendar, for as many calendars as a cluster holds.

The job lists calendars (a folder of .ics files on a local disk, HDFS or S3, or a table of
(id, ics text) rows), pipes each partition through `streakcal batch --jsonl` (one process per
partition, the calendars streamed through its standard input), and writes every calendar's record
as JSON Lines and as Parquet, and a summary.json in `streakcal batch`'s shape.

    spark-submit --master local[2] --files /usr/local/bin/streakcal Examples/spark/streakcal_job.py \
        --input calendars/ --output out/ -- --format json --tz UTC --to 2024-12-31

Everything after `--` goes to `streakcal batch --jsonl` as report options (format, zone, window,
rules, ...). The records are the `batch --jsonl` contract (`id`, `line`, `name`, `report` (exactly
the bytes `streakcal batch` writes for the calendar), `diagnostics`, `error`, `errorCode` and the figures of
summary.json) with `index` in front: the calendar's place among the job's inputs sorted by `id`,
a key unique over the whole output. An input's `id` is its path relative to the folder the inputs
share (`alice.ics`, `team/bob.ics`); see the README beside this file.

The stages, in order: check the output folder (an earlier run's output is replaced, anything else
refused), list the calendars (on the driver: names and sizes, never contents), pipe them
(`pipe_partition`, on the executors), then read the records back for Parquet and the summary.
By bytes, a calendar is read on an executor (Spark's binaryFile source, or `binaryFiles` for a
large one) and streamed to streakcal a chunk at a time, so no task holds more than the calendar
it sends, and the driver none.
"""

from __future__ import annotations

import argparse
import base64
import collections
import glob
import itertools
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from typing import Iterable, Iterator
from urllib.parse import unquote, urlparse

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

# The Parquet table's schema: the records' keys (`batch --jsonl`'s, and the job's `index`), as
# Spark's JSON reader takes them (`id` as text, whether a string or a number). The README shows it
# as `printSchema()` prints it; scripts/check-spark holds the two equal.
STREAK = "struct<end: string, length: bigint, start: string>"
RECORD_SCHEMA = (
    f"index bigint, id string, line bigint, name string, error string, errorCode string, report string, "
    f"diagnostics array<struct<code: string, column: bigint, file: string, line: bigint, message: string, "
    f"severity: string, sourceLine: string>>, sessions bigint, points bigint, unit string, zone string, "
    f"days bigint, daysMet bigint, currentStreak {STREAK}, longestStreak {STREAK}"
)

# What one line of `batch --jsonl` may hold: 512 MiB (a longer line gets an error record). A
# calendar sent by bytes takes 4/3 of its size in base64, so bytes mode sends at most 384 MiB.
LINE_LIMIT = 512 * 1024 * 1024
BYTES_LIMIT = LINE_LIMIT // 4 * 3 - 64 * 1024
# By bytes, files up to this size are read by Spark's binaryFile source, larger ones by binaryFiles.
SMALL_FILE = 8 * 1024 * 1024

# The names an earlier run leaves in --output (`summary/` is where older versions of the job put
# the summary on HDFS and S3); a folder holding anything else is not replaced.
OUTPUT_NAMES = ("summary.json", "summary", "records.parquet", "records")


def parse_arguments(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    if "--" in argv:
        index = argv.index("--")
        argv, report_options = argv[:index], argv[index + 1:]
    else:
        report_options = []
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", action="append", default=[],
                        help="a folder of .ics files (searched at any depth), a file, or a glob; local, hdfs:// or s3a://. Repeatable.")
    parser.add_argument("--table", help="instead of --input: a table of calendars with columns id and ics (Parquet, or JSON Lines with --table-format json)")
    parser.add_argument("--table-format", default="parquet", choices=["parquet", "json", "csv"])
    parser.add_argument("--output", required=True,
                        help="the output folder: records/ (JSON Lines), records.parquet/ and summary.json; an earlier run's output there is replaced")
    parser.add_argument("--binary", default="streakcal",
                        help="the streakcal executable on the executors: a name shipped with --files (default), or a path they all see")
    parser.add_argument("--send", choices=["auto", "path", "bytes"], default="auto",
                        help="how calendars reach streakcal: their path (executors read local files themselves), or their "
                             "bytes (read by Spark on the executors, for HDFS and S3); auto: path for local inputs, bytes otherwise")
    parser.add_argument("--partitions", type=int, default=0,
                        help="partitions of the calendars (default: Spark's choice; by bytes, at least this many)")
    parser.add_argument("--small-file-limit", type=int, default=SMALL_FILE, metavar="BYTES",
                        help="by bytes: files up to this size are read many to a task by Spark's binaryFile source, larger ones "
                             f"by binaryFiles, a file at a time (default {SMALL_FILE})")
    parser.add_argument("--jobs", type=int, default=1, help="calendars each streakcal process works on at once (default 1: one task per core)")
    args = parser.parse_args(argv)
    if bool(args.input) == bool(args.table):
        parser.error("give --input (folders or files) or --table, not both")
    if any(option == "--order" or option.startswith("--order=") for option in report_options):
        parser.error("leave --order out: the job matches each record to its calendar by the order of the lines")
    return args, report_options


def fail(message: str) -> None:
    """Stops the job before any work, with a message and exit status 2."""
    print(f"streakcal_job.py: {message}", file=sys.stderr)
    raise SystemExit(2)


def is_local(uri: str) -> bool:
    return urlparse(uri).scheme in ("", "file")


def local_path(uri: str) -> str:
    """`file:/a/b.ics` (as Spark names local files) as `/a/b.ics`."""
    return re.sub(r"^file:(//)?(?=/)", "", uri)


def relative_to(root: str, location: str) -> str:
    """The id of a calendar: its location below the inputs' shared folder."""
    if root and location.startswith(root.rstrip("/") + "/"):
        return location[len(root.rstrip("/")) + 1:]
    return location


def shared_folder(folders: list[str]) -> str:
    """The deepest folder that holds all of `folders` (absolute paths, or URIs as Hadoop names
    them), "/"-separated: `/data/a` and `/data/b/c` share `/data`; "" when they share no more than
    a scheme (`hdfs://a/x` and `hdfs://b/y`, or `s3a://...` and `hdfs://...`)."""
    parts = [folder.rstrip("/").split("/") for folder in folders]
    shared = []
    for components in zip(*parts):
        if len(set(components)) != 1:
            break
        shared.append(components[0])
    if not shared:
        return ""
    joined = "/".join(shared)
    if joined == "":
        return "/"
    if joined == "file:":
        # Local files share at least the file system's root (`file:/tmp/a` and `file:/work/b`, as
        # Hadoop names them, have no authority to differ in): ids as path mode gives them.
        return "file:/"
    return "" if re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:/?", joined) else joined


# Output: an earlier run's is replaced, anything else refused (checked before any work).

class OutputFolder:
    """--output through Hadoop's file system API, as Spark's writers resolve it (a path without a
    scheme is on the cluster's default file system: the local disk in local mode, else HDFS)."""

    def __init__(self, spark: SparkSession, uri: str):
        self.uri = uri
        self.jvm = spark._jvm
        path = self.jvm.org.apache.hadoop.fs.Path(uri)
        self.fs = path.getFileSystem(spark._jsc.hadoopConfiguration())
        self.path = self.fs.makeQualified(path)
        self.local = self.fs.getUri().getScheme() == "file"

    def child(self, name: str):
        return self.jvm.org.apache.hadoop.fs.Path(self.path, name)

    def earlier_run(self) -> list[str]:
        """The names of an earlier run's output in the folder, to replace; stops the job if the
        folder holds anything else (or is a file)."""
        if not self.fs.exists(self.path):
            return []
        if not self.fs.getFileStatus(self.path).isDirectory():
            fail(f"--output {self.uri} is a file, not a folder")
        names = sorted(status.getPath().getName() for status in self.fs.listStatus(self.path))
        foreign = [name for name in names if name not in OUTPUT_NAMES and not name.startswith(".summary-")]
        if foreign:
            shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            fail(f"--output {self.uri} holds {shown}, which this job does not write: give a new or empty folder, "
                 f"or the output of an earlier run (records/, records.parquet/, summary.json), which is replaced")
        return names

    def remove(self, names: list[str]) -> None:
        """Removes an earlier run's output, summary.json first (an output without one is incomplete)."""
        for name in sorted(names, key=lambda name: OUTPUT_NAMES.index(name) if name in OUTPUT_NAMES else -1):
            self.fs.delete(self.child(name), True)

    def summary_file(self) -> tuple[int, str]:
        """A temporary file to write the summary into: beside summary.json on a local disk (to be
        renamed into place), else in the system's temporary folder (to be copied)."""
        folder = self.path.toUri().getPath() if self.local else None
        if folder:
            os.makedirs(folder, exist_ok=True)
        return tempfile.mkstemp(prefix=".summary-", suffix=".json", dir=folder)

    def put_summary(self, local_file: str) -> None:
        if self.local:
            os.replace(local_file, os.path.join(self.path.toUri().getPath(), "summary.json"))
        else:
            self.fs.copyFromLocalFile(True, True, self.jvm.org.apache.hadoop.fs.Path("file://" + local_file),
                                      self.child("summary.json"))


# Listing: on the driver, names and sizes only.

class Listing:
    """The calendars of a job, sorted by id: `ids[i]` is the calendar whose record has index i,
    found at `locations[i]`. Ids are relative to `root`, the folder the inputs share; `skipped`
    entries were passed over, with why (as `batch` lists them)."""

    def __init__(self, ids: list[str], root: str, locations: list[str] | None = None, skipped: list[dict] | None = None):
        self.ids = ids
        self.root = root
        self.locations = locations if locations is not None else ids
        self.skipped = skipped or []

    def index_of(self) -> dict[str, int]:
        return {ident: index for index, ident in enumerate(self.ids)}


def local_roots(inputs: list[str]) -> list[str]:
    """The folders of local inputs (folders, files, globs), as absolute paths: a folder itself, a
    file's folder."""
    roots: set[str] = set()
    for pattern in inputs:
        for match in sorted(glob.glob(pattern)) or [pattern]:
            folder = match if os.path.isdir(match) else os.path.dirname(match) or "."
            roots.add(os.path.abspath(folder))
    return sorted(roots)


def not_regular(path: str) -> str | None:
    """Why an entry is no file to read (as `streakcal batch` lists it under `skipped`), or None."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return "a dangling link" if os.path.islink(path) else "cannot be read"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    return "not a regular file"


def local_calendars(inputs: list[str]) -> Listing:
    """Every .ics file (any case) of local inputs (folders at any depth, files, globs), listed on
    the driver: names that start with "." or "_" are passed over, as Hadoop's listings do; empty
    files are kept. Ids are relative to the folder the inputs share."""
    found: set[str] = set()
    skipped: dict[str, str] = {}

    def add(path: str) -> None:
        reason = not_regular(path)
        if reason:
            skipped[path] = reason
        else:
            found.add(path)
    for pattern in inputs:
        for match in sorted(glob.glob(pattern)) or [pattern]:
            if not os.path.isdir(match):
                if os.path.lexists(match):
                    add(os.path.abspath(match))
                continue
            for root, folders, names in os.walk(match, followlinks=True):
                folders[:] = [name for name in folders if not name.startswith((".", "_"))]
                for name in names:
                    if name.lower().endswith(".ics") and not name.startswith((".", "_")):
                        add(os.path.abspath(os.path.join(root, name)))
    root = shared_folder(local_roots(inputs))
    return Listing(sorted(relative_to(root, path) for path in found), root,
                   skipped=[{"input": relative_to(root, path), "reason": reason} for path, reason in sorted(skipped.items())])


class HadoopCalendars:
    """Every .ics file (any case) of inputs on any file system Hadoop reads, listed by Spark's
    file index (at any depth, names that start with "." or "_" passed over, empty files kept), and
    the figures bytes mode plans with: how many files and bytes, the files over `small_file`, and
    of these every one larger than bytes mode sends, or else the `largest` largest. Only
    the files' status is read here, no content. Locations are as Hadoop names files
    (`file:/data/a.ics`, `hdfs://namenode:8020/data/a.ics`); ids are relative to the folder the
    inputs share."""

    def __init__(self, spark: SparkSession, inputs: list[str], largest: int, small_file: int):
        self.frame = (spark.read.format("binaryFile").option("recursiveFileLookup", "true")
                      .option("pathGlobFilter", "*.[iI][cC][sS]").load(inputs))
        # One string through Py4J (a call per file would take minutes for a million); the index
        # gives URIs (percent-encoded), Spark's readers the files' own names.
        joined = spark._jvm.org.apache.hadoop.util.StringUtils.join("\u0000", self.frame._jdf.inputFiles())
        locations = sorted({hadoop_name(uri) for uri in joined.split("\u0000") if uri})
        # The sizes, in one pass over the files' status, a task per core (the scan alone would make
        # a task of every 32 small files: 20,000 files, 645 tasks, 20 s).
        status = self.frame.select("path", "length").coalesce(spark.sparkContext.defaultParallelism)
        limit = min(small_file, BYTES_LIMIT)
        figures = status.agg(F.count("*").alias("files"), F.sum("length").alias("bytes"),
                             F.collect_list(F.when(F.col("length") > limit, F.struct("length", "path"))).alias("large")).collect()[0]
        self.read_files, self.bytes = figures.files, figures.bytes or 0
        large = sorted(((row.path, row.length) for row in figures.large), key=lambda file: (-file[1], file[0]))
        self.large = [path for path, size in large if size > small_file]
        too_large = [(path, size) for path, size in large if size > BYTES_LIMIT]
        self.biggest = too_large or [(path, size) for path, size in large if size > small_file][:largest]
        # Spark's file readers pass over empty files: those are the listed ones they do not read.
        self.empty = []
        if self.read_files < len(locations):
            read = set(status.select(F.concat_ws("\u0000", F.collect_list("path"))).collect()[0][0].split("\u0000"))
            self.empty = [location for location in locations if location not in read]
        conf = spark._jsc.hadoopConfiguration()
        listed = set(locations)
        roots = []
        for uri in inputs:
            path = spark._jvm.org.apache.hadoop.fs.Path(uri)
            qualified = path.getFileSystem(conf).makeQualified(path).toString()
            components = qualified.split("/")
            wild = next((i for i, part in enumerate(components) if re.search(r"[*?\[{\\]", part)), None)
            if wild is not None:
                qualified = "/".join(components[:wild])
            elif qualified in listed:
                qualified = qualified.rsplit("/", 1)[0]
            roots.append(qualified)
        root = shared_folder(roots)
        self.listing = Listing([relative_to(root, location) for location in locations], root, locations)


def hadoop_name(uri: str) -> str:
    """A file index's URI (`file:///a/b%20c.ics`) as Hadoop's Path names the file (`file:/a/b c.ics`)."""
    name = unquote(uri)
    return "file:/" + name[len("file:///"):] if name.startswith("file:///") else name


def binary_files_argument(locations: list[str], listed: list[str]) -> str:
    """`binaryFiles`' argument for exactly these files: comma-separated, each a Hadoop glob that
    matches its own file. Hadoop reads every input path as a glob and splits the list at commas
    outside braces, so `\\ * ? [ ]` are escaped and `, { }` (which no escape gets past the
    comma splitting) become `?`; a name that `?` would confuse with another of the `listed` files
    stops the job before any work."""
    by_length: dict[int, list[str]] = collections.defaultdict(list)
    for location in listed:
        by_length[len(location)].append(location)
    patterns = []
    for location in locations:
        escaped = re.sub(r"([\\*?\[\]])", r"\\\1", location)
        if re.search(r"[,{}]", location):
            escaped = re.sub(r"[,{}]", "?", escaped)
            matcher = re.compile("".join("[^/]" if ch in ",{}" else re.escape(ch) for ch in location))
            clash = [other for other in by_length[len(location)] if other != location and matcher.fullmatch(other)]
            if clash:
                fail(f"cannot send {location} by bytes beside {clash[0]}: Hadoop reads input paths as globs, and their "
                     f"names differ only where one has ',', '{{' or '}}'; rename one, or send them by path")
        patterns.append(escaped)
    return ",".join(patterns)


# The pipe: on the executors, one `streakcal batch --jsonl` a partition.

def executor_binary(binary: str) -> str:
    """The streakcal executable on this executor: a path as given; a name shipped with --files
    (Spark does not keep its mode, so it is made executable); else a name on PATH."""
    if os.sep in binary:
        return os.path.abspath(binary)  # streakcal may run in another folder (by path)
    shipped = SparkFiles.get(binary)
    if os.path.exists(shipped):
        mode = os.stat(shipped).st_mode
        if mode & stat.S_IXUSR == 0:
            try:
                os.chmod(shipped, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            except OSError:
                pass
        return os.path.abspath(shipped)
    return shutil.which(binary) or binary


def pipe_partition(command: list[str], cwd: str | None, requests: Iterator[tuple[int, Iterable[bytes]]]) -> Iterator[bytes]:
    """Pipes a partition's requests through one `streakcal batch --jsonl`, streaming: each request
    is the calendar's index and its line in pieces (a calendar's base64 a chunk at a time), and
    each record comes back with `"index":N` put in front. Records come in input order (the job
    leaves `--order` at `input`), so the Nth record is the Nth request's. No process is started for
    an empty partition."""
    first = next(requests, None)
    if first is None:
        return
    process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    pending: collections.deque[int] = collections.deque()
    failure: list[BaseException] = []

    def send() -> None:
        try:
            for index, pieces in itertools.chain([first], requests):
                pending.append(index)
                for piece in pieces:
                    process.stdin.write(piece)
                process.stdin.write(b"\n")
        except BrokenPipeError:
            pass  # streakcal stopped: its exit status tells why
        except BaseException as error:  # reading the partition failed: the task fails with it
            failure.append(error)
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    for line in process.stdout:
        if not pending or not line.startswith(b"{"):
            process.kill()
            raise RuntimeError(f"streakcal wrote a record the job did not ask for: {line[:200]!r}")
        yield b'{"index":%d,' % pending.popleft() + line[1:].rstrip(b"\n")
    sender.join()
    status = process.wait()
    if failure:
        raise failure[0]
    if status != 0:
        raise RuntimeError(f"{command[0]} exited with status {status} (its standard error is in the executor's log)")
    if pending:
        raise RuntimeError(f"streakcal wrote no record for {len(pending)} of the partition's calendars")


def path_request(ident: str) -> list[bytes]:
    # The executors read the file themselves, at its path relative to the inputs' shared folder
    # (their working folder), only under the input folders (`--root`).
    return [json.dumps({"id": ident, "path": ident}).encode("ascii")]


def bytes_request(ident: str, content: bytes) -> Iterator[bytes]:
    # The line `{"id": ..., "icsBase64": "..."}`, its base64 3 MiB of the file at a time (base64 of
    # a multiple of 3 bytes has no padding, so the pieces join into the whole file's encoding).
    yield json.dumps({"id": ident})[:-1].encode("ascii") + b',"icsBase64":"'
    view = memoryview(content)
    step = 3 * 1024 * 1024
    for start in range(0, len(view), step):
        yield base64.b64encode(view[start:start + step])
    yield b'"}'


def text_request(ident: str, text: str | None) -> list[bytes]:
    return [json.dumps({"id": ident, "ics": text}, ensure_ascii=False).encode("utf-8")]


# The summary: `streakcal batch`'s summary.json, its entries made from the records.

def summary_entry(record: dict) -> dict:
    """A record as an entry of `files` in `batch`'s summary.json: every key the record carries
    but the report and the job's own (`index`, `line`), diagnostics counted by severity, `input`
    the id; `output` null (the report is in the record) and `elapsedSeconds` null (not timed)."""
    entry = {key: value for key, value in record.items() if key not in ("report", "line", "index")}
    counts = {"errors": 0, "notes": 0, "warnings": 0}
    for diagnostic in record.get("diagnostics") or []:
        key = f"{diagnostic.get('severity')}s"
        counts[key] = counts.get(key, 0) + 1
    entry["diagnostics"] = counts
    entry["input"] = record.get("id")
    entry.setdefault("output", None)
    entry.setdefault("elapsedSeconds", None)
    return entry


def summary_entries(lines: Iterator[bytes]) -> Iterator[tuple[int, str]]:
    """(index, entry as JSON) for each record. A report is most of its record (about 40 KB of
    JSON-escaped JSON or CSV, which Python decodes at 60 MB/s) and the summary needs none of it,
    so it is cut out before the record is parsed: it runs from `,"report":` to `,"KEY":` of the key
    after it (the keys' order is the first record's). Inside a JSON string every quote is escaped,
    so neither can be part of another value. (Cutting it out in the JVM instead, with
    `locate`/`substring`, took three times as long.)"""
    following = None
    for line in lines:
        start = line.find(b',"report":')
        if following is None:
            keys = [key for key, _ in json.loads(line, object_pairs_hook=lambda pairs: pairs)]
            after = keys[keys.index("report") + 1:] if "report" in keys else []
            following = f',"{after[0]}":'.encode("utf-8") if after else b""
        end = (line.find(following, start) if following else len(line) - 1) if start >= 0 else -1
        record = json.loads(line[:start] + line[end:] if start >= 0 and end > start else line)
        yield record["index"], json.dumps(summary_entry(record), ensure_ascii=False, indent=2, sort_keys=True)


class Totals:
    """`totals` as `batch` counts them: files, failed, sessions, days met, and points by unit
    (`points` their sum when every calendar counts the same unit, else null)."""

    def __init__(self):
        self.files = self.failed = self.sessions = self.days_met = 0
        self.points: dict[str | None, int] = {}

    def add(self, entry: dict) -> None:
        self.files += 1
        self.failed += entry.get("error") is not None
        self.sessions += entry.get("sessions") or 0
        self.days_met += entry.get("daysMet") or 0
        if entry.get("points") is not None:
            unit = entry.get("unit")
            self.points[unit] = self.points.get(unit, 0) + entry["points"]

    def json(self) -> dict:
        totals = {"daysMet": self.days_met, "failed": self.failed, "files": self.files, "sessions": self.sessions}
        units = [unit for unit in ("points", "minutes", "sessions") if unit in self.points]
        totals["points"] = sum(self.points.values()) if len(self.points) <= 1 else None
        if None not in self.points:
            totals["pointsByUnit"] = {unit: self.points[unit] for unit in units}
        return totals


def report_format(report_options: list[str]) -> str:
    """The reports' format, as summary.json names it: `--format`'s, else batch's default (text)."""
    found = "text"
    for position, option in enumerate(report_options):
        if option == "--format" and position + 1 < len(report_options):
            found = report_options[position + 1]
        elif option.startswith("--format="):
            found = option.split("=", 1)[1]
    return found


def write_summary(spark: SparkSession, records_path: str, listing: Listing, report_options: list[str],
                  elapsed: float, output: OutputFolder) -> dict:
    """summary.json in `batch`'s shape, streamed: the entries come to the driver a partition at a
    time, in index order, and go straight into the file; its totals are returned."""
    # In index order without a sort's sampling pass: the indexes are 0..N-1, so a partition of
    # 50,000 entries is a range of them, sorted where it is.
    count = len(listing.ids)
    partitions = max(1, -(-count // 50_000))
    entries = (spark.sparkContext.textFile(records_path, use_unicode=False).mapPartitions(summary_entries)
               .partitionBy(partitions, lambda index: index * partitions // max(count, 1))
               .mapPartitions(lambda part: iter(sorted(part)), preservesPartitioning=True))
    totals = Totals()
    handle, name = output.summary_file()
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write('{\n  "complete": true,\n  "elapsedSeconds": %s,\n  "files": [' % round(elapsed, 3))
        count = 0
        for _, entry in entries.toLocalIterator():
            totals.add(json.loads(entry))
            out.write(("\n    " if count == 0 else ",\n    ") + entry.replace("\n", "\n    "))
            count += 1
        out.write("\n  ]," if count else "],")
        rest = {"format": report_format(report_options), "generator": "streakcal_job.py", "options": report_options,
                "remaining": 0, "skipped": listing.skipped, "stale": [], "staleRemoved": False, "totals": totals.json()}
        out.write(json.dumps(rest, ensure_ascii=False, indent=2, sort_keys=True)[1:] + "\n")
    umask = os.umask(0o022)
    os.umask(umask)
    os.chmod(name, 0o666 & ~umask)  # mkstemp's file is the owner's alone; summary.json is not
    output.put_summary(name)
    return totals.json()


def table_requests(spark: SparkSession, args: argparse.Namespace):
    """A table's rows as requests `{"id": ..., "ics": TEXT}`; ids must be there and unique."""
    frame = spark.read.format(args.table_format).option("header", "true").load(args.table).select(
        F.col("id").cast("string").alias("id"), F.col("ics").cast("string").alias("ics"))
    ids = [row.id for row in frame.select("id").collect()]
    if None in ids:
        fail(f"--table {args.table}: {ids.count(None)} rows have no id")
    repeated = sorted(ident for ident, count in collections.Counter(ids).items() if count > 1)
    if repeated:
        fail(f"--table {args.table}: {len(repeated)} ids are given more than once (the first: {repeated[0]!r}); "
             f"each calendar needs an id of its own, to match its record")
    listing = Listing(sorted(ids), "")
    if args.partitions:
        frame = frame.repartition(args.partitions)
    index_of = spark.sparkContext.broadcast(listing.index_of())
    return listing, [frame.rdd.map(lambda row: (index_of.value[row.id], text_request(row.id, row.ics)))]


def path_requests(spark: SparkSession, args: argparse.Namespace):
    """Local files by path: only the paths travel, and each executor reads its files itself (local
    disks, NFS), from the inputs' shared folder (its working folder) and only under the input
    folders (a `--root` each); the options with the roots."""
    inputs = [local_path(uri) for uri in args.input]
    listing = local_calendars(inputs)
    sc = spark.sparkContext
    slices = max(1, min(args.partitions or sc.defaultParallelism, len(listing.ids) or 1))
    requests = sc.parallelize(list(enumerate(listing.ids)), slices).map(lambda pair: (pair[0], path_request(pair[1])))
    return listing, [requests], [part for root in local_roots(inputs) for part in ("--root", root)]


def executor_memory(spark: SparkSession) -> tuple[int, int]:
    """The heap of an executor, in bytes, and how many tasks it runs at once: in local mode the
    driver's own (the tasks run in it), else spark.executor.memory and spark.executor.cores."""
    sc = spark.sparkContext
    conf = sc.getConf()
    if sc.master.startswith("local"):
        heap, slots = spark._jvm.java.lang.Runtime.getRuntime().maxMemory(), sc.defaultParallelism
    else:
        heap = spark._jvm.org.apache.spark.network.util.JavaUtils.byteStringAsBytes(conf.get("spark.executor.memory", "1g"))
        slots = int(conf.get("spark.executor.cores", "1"))
    return heap, max(1, slots // int(conf.get("spark.task.cpus", "1")))


def bytes_needed(sizes: list[int]) -> int:
    """The heap an executor needs to read these files at once, one a task: Spark holds a file
    twice while it reads it (`PortableDataStream.toArray`: the pieces, then the whole), the
    largest takes more (its arrays span heap regions), and Spark itself about 300 MiB. Measured:
    two 50 MB calendars at once in 1 GiB peak at 300 MiB; one of 380 MiB fails in 1 GiB."""
    if not sizes:
        return 0
    return 300 * 2**20 + int(2.5 * sizes[0]) + 2 * sum(sizes[1:])


def check_sizes(listing: Listing, biggest: list[tuple[str, int]], heap: int, slots: int) -> None:
    """Stops the job before any work when a calendar is larger than bytes mode sends, or when the
    largest calendars, read at once, would not fit in an executor's heap (the job would die of
    "Java heap space" half way), and says what it needs."""
    def shown(files):
        return ", ".join(f"{relative_to(listing.root, name)} ({size / 2**20:.1f} MiB)" for name, size in files[:5])
    too_large = [(name, size) for name, size in biggest if size > BYTES_LIMIT]
    if too_large:
        count = f"{len(too_large)} calendars are" if len(too_large) > 1 else "a calendar is"
        fail(f"{count} larger than bytes mode sends ({BYTES_LIMIT / 2**20:.1f} MiB: streakcal reads lines of at "
             f"most 512 MiB, and base64 takes 4/3 of the bytes): {shown(too_large)}; send {'them' if len(too_large) > 1 else 'it'} by path")
    needed = bytes_needed([size for _, size in biggest[:slots]])
    if needed > heap:
        mib = -(-needed // 2**28) * 256  # rounded up to a quarter of a GiB
        fail(f"bytes mode needs about {needed / 2**20:.0f} MiB of heap per executor to read its largest calendars "
             f"({shown(biggest[:slots])}) in the {slots} tasks an executor runs at once: Spark holds each file twice "
             f"while it reads it; executors have {heap / 2**20:.0f} MiB. Give them {mib}m (--driver-memory {mib}m "
             f"in local mode, else --conf spark.executor.memory={mib}m), or fewer cores each, or send these by path")


def bytes_requests(spark: SparkSession, args: argparse.Namespace):
    """Files on any file system by their bytes, read on the executors and streamed to streakcal as
    base64 a chunk at a time; the driver lists names and sizes only. Spark reads a file of up to
    --small-file-limit (8 MiB) with its binaryFile source (many to a task: partitions of about 128 MiB, or
    --partitions), a larger one with `binaryFiles` (which holds less of it at once, but copies a
    task's whole list of files for each file, so it would be slow for many small ones); an empty
    file, which Spark's readers pass over, is sent empty."""
    heap, slots = executor_memory(spark)
    found = HadoopCalendars(spark, args.input, slots, args.small_file_limit)
    listing = found.listing
    check_sizes(listing, found.biggest, heap, slots)
    sc = spark.sparkContext
    root, index_of = listing.root, sc.broadcast(listing.index_of())

    def request(pair):
        ident = relative_to(root, pair[0])
        return index_of.value[ident], bytes_request(ident, pair[1])
    parts = []
    if found.read_files > len(found.large):
        # A partition per 128 MiB, one per core at least, a multiple of the cores.
        cores = sc.defaultParallelism
        partitions = args.partitions or -(-max(cores, -(-found.bytes // 2**27)) // cores) * cores
        small = found.frame.where(F.col("length") <= args.small_file_limit).select("path", "content").coalesce(partitions)
        parts.append(small.rdd.map(lambda row: request((row.path, row.content))))
    if found.large:
        conf = sc._jsc.hadoopConfiguration()
        if conf.get("mapreduce.input.fileinputformat.list-status.num-threads") in (None, "1"):
            conf.set("mapreduce.input.fileinputformat.list-status.num-threads", "16")  # the files are named one by one
        parts.append(sc.binaryFiles(binary_files_argument(found.large, listing.locations)).map(request))
    if found.empty:
        parts.append(sc.parallelize(found.empty, 1).map(lambda location: request((location, b""))))
    return listing, parts


def main(argv: list[str]) -> int:
    started = time.monotonic()
    args, report_options = parse_arguments(argv)
    options = ["--jobs", str(max(1, args.jobs))] + report_options
    spark = SparkSession.builder.appName("streakcal").getOrCreate()
    output = OutputFolder(spark, args.output)
    earlier = output.earlier_run()
    cwd = None
    if args.table:
        listing, requests = table_requests(spark, args)
    else:
        send = args.send
        if send == "auto":
            send = "path" if all(is_local(uri) for uri in args.input) else "bytes"
        if send == "path" and not all(is_local(uri) for uri in args.input):
            fail("--send path needs local inputs (executors read the files themselves); HDFS and S3 need --send bytes")
        if send == "path":
            listing, requests, roots = path_requests(spark, args)
            options, cwd = roots + options, listing.root
        else:
            listing, requests = bytes_requests(spark, args)

    output.remove(earlier)
    records_path = output.child("records").toString()
    binary, command = args.binary, ["batch", "--jsonl"] + options
    # Each source of requests is piped where it is read (a union before would pickle the bytes
    # once more between stages), and the records, lines of text, are put together.
    records = [part.mapPartitions(lambda partition: pipe_partition([executor_binary(binary)] + command, cwd, partition))
               for part in requests]
    (spark.sparkContext.union(records) if records else spark.sparkContext.parallelize([], 1)).saveAsTextFile(records_path)
    parquet_path = output.child("records.parquet").toString()
    spark.read.schema(RECORD_SCHEMA).json(records_path).write.mode("overwrite").parquet(parquet_path)
    print("records.parquet:\n" + spark.read.parquet(parquet_path)._jdf.schema().treeString(), end="")
    totals = write_summary(spark, records_path, listing, report_options, time.monotonic() - started, output)
    print(json.dumps(totals, sort_keys=True))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
