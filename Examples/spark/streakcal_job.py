"""StreakCal on Apache Spark: one streak report per calendar, for as many calendars as a cluster holds.

The job reads calendars (a folder of .ics files on a local disk, HDFS or S3, or a table of
(id, ics text) rows), pipes each partition through `streakcal batch --jsonl` (one process per
partition, the calendars streamed through its standard input), and writes every calendar's record
as JSON Lines and as Parquet, and a summary of the whole run.

    spark-submit --master local[2] --files /usr/local/bin/streakcal Examples/spark/streakcal_job.py \
        --input calendars/ --output out/ -- --format json --tz UTC --to 2024-12-31

Everything after `--` goes to `streakcal batch --jsonl` as report options (format, zone, window,
rules, ...); with `--send path`, the job adds a `--root` for each input folder, as streakcal reads
a `path` only under the folders given so. The records are the `batch --jsonl` contract: `id`, `line`, `name`, `report` (the
report, exactly the bytes `streakcal batch` writes for the calendar), `diagnostics`, `error` and
the figures of summary.json; see the README beside this file.

The calendars never pass through Python: the requests are built as DataFrames, piped by the JVM's
`RDD.pipe`, written as text and read back with Spark's JSON reader, so Python costs nothing per
calendar.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shlex
import stat
import sys
from urllib.parse import urlparse

from pyspark import SparkFiles
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

# The records' schema, as Spark's JSON reader takes it (`id` as text, whether a string or a number).
STREAK = "struct<end: string, length: bigint, start: string>"
RECORD_SCHEMA = (
    f"id string, line bigint, name string, error string, report string, "
    f"diagnostics array<struct<code: string, column: bigint, file: string, line: bigint, message: string, "
    f"severity: string, sourceLine: string>>, sessions bigint, points bigint, days bigint, daysMet bigint, "
    f"currentStreak {STREAK}, longestStreak {STREAK}"
)


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
    parser.add_argument("--output", required=True, help="the output folder: records/ (JSON Lines), records.parquet/ and summary.json")
    parser.add_argument("--binary", default="streakcal",
                        help="the streakcal executable on the executors: a name shipped with --files (default), or a path they all see")
    parser.add_argument("--send", choices=["auto", "path", "bytes"], default="auto",
                        help="how calendars reach streakcal: their path (executors read local files themselves), or their "
                             "bytes (base64, for HDFS and S3); auto: path for local inputs, bytes otherwise")
    parser.add_argument("--partitions", type=int, default=0, help="partitions of the calendars (default: Spark's choice)")
    parser.add_argument("--jobs", type=int, default=1, help="calendars each streakcal process works on at once (default 1: one task per core)")
    args = parser.parse_args(argv)
    if bool(args.input) == bool(args.table):
        parser.error("give --input (folders or files) or --table, not both")
    return args, report_options


def is_local(uri: str) -> bool:
    return urlparse(uri).scheme in ("", "file")


def local_path(uri: str) -> str:
    """`file:/a/b.ics` (as Spark names local files) as `/a/b.ics`."""
    parsed = urlparse(uri)
    return parsed.path if parsed.scheme == "file" else uri


def without_file_scheme(column):
    """A path column with a leading `file:` or `file://` taken off (other schemes kept)."""
    return F.regexp_replace(column, "^file:(//)?", "")


def requests(spark: SparkSession, args: argparse.Namespace) -> tuple[DataFrame, list[str]]:
    """A one-column DataFrame (`value`) of `batch --jsonl` request lines, one per calendar, and the
    folders `path` requests name files in (for `--root`: streakcal reads a path only under them)."""
    if args.table:
        frame = spark.read.format(args.table_format).option("header", "true").load(args.table)
        return frame.select(F.to_json(F.struct(F.col("id").cast("string").alias("id"), F.col("ics").cast("string").alias("ics"))).alias("value")), []
    send = args.send
    if send == "auto":
        send = "path" if all(is_local(uri) for uri in args.input) else "bytes"
    if not all(is_local(uri) for uri in args.input):
        if send == "path":
            raise SystemExit("--send path needs local inputs (executors read the files themselves); HDFS and S3 need --send bytes")
        # Listed and read by Spark's binaryFile source, on the executors: at any depth, without the
        # names that start with "." or "_"; Spark's file sources pass over empty files.
        files = (spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(args.input)
                 .where(F.lower(F.col("path")).endswith(".ics")))
        return files.select(F.to_json(F.struct(
            without_file_scheme(F.col("path")).alias("id"), F.base64(F.col("content")).alias("icsBase64"))).alias("value")), []
    files = local_calendars([local_path(uri) for uri in args.input])
    if send == "path":
        # Only the paths travel: each executor reads its files itself (local disks, NFS), and only
        # under the folders the job was given (`--root`), whatever a request names.
        listed = spark.createDataFrame([(path,) for path, _ in files], "path string")
        return listed.select(F.to_json(F.struct(F.col("path").alias("id"), F.col("path"))).alias("value")), \
            local_roots([local_path(uri) for uri in args.input])
    # The bytes travel, base64: Spark reads the files; empty ones, which its binaryFile source
    # passes over, are sent as empty.
    empty = spark.createDataFrame([(path,) for path, size in files if size == 0], "id string").select(
        F.to_json(F.struct(F.col("id"), F.lit("").alias("icsBase64"))).alias("value"))
    full = [path for path, size in files if size > 0]
    if not full:
        return empty, []
    contents = spark.read.format("binaryFile").load(full).select(
        F.to_json(F.struct(without_file_scheme(F.col("path")).alias("id"), F.base64(F.col("content")).alias("icsBase64"))).alias("value"))
    return contents.unionByName(empty), []


def local_roots(inputs: list[str]) -> list[str]:
    """The folders of local inputs (folders, files, globs), as absolute paths: a folder itself, a
    file's folder."""
    roots: set[str] = set()
    for pattern in inputs:
        for match in sorted(glob.glob(pattern)) or [pattern]:
            folder = match if os.path.isdir(match) else os.path.dirname(match) or "."
            roots.add(os.path.abspath(folder))
    return sorted(roots)


def local_calendars(inputs: list[str]) -> list[tuple[str, int]]:
    """Every .ics file (any case) of local inputs (folders at any depth, files, globs), with its
    size, listed on the driver: names that start with "." or "_" are passed over, as Hadoop's
    listings do; empty files are kept."""
    found: set[tuple[str, int]] = set()
    for pattern in inputs:
        for match in sorted(glob.glob(pattern)) or [pattern]:
            if os.path.isfile(match):
                found.add((os.path.abspath(match), os.path.getsize(match)))
                continue
            for root, folders, names in os.walk(match, followlinks=True):
                folders[:] = [name for name in folders if not name.startswith((".", "_"))]
                for name in names:
                    if name.lower().endswith(".ics") and not name.startswith((".", "_")):
                        path = os.path.abspath(os.path.join(root, name))
                        if os.path.isfile(path):
                            found.add((path, os.path.getsize(path)))
    return sorted(found)


def pipe_command(spark: SparkSession, binary: str, options: list[str]) -> list[str]:
    """The command each partition is piped through. A binary shipped with --files is in the
    executors' working folder on a cluster (YARN, Kubernetes) and in SparkFiles' folder in local
    mode; Spark does not keep its mode, so it is made executable first."""
    arguments = ["batch", "--jsonl"] + options
    if os.path.sep in binary:
        return [binary] + arguments
    if spark.sparkContext.master.startswith("local"):
        shipped = SparkFiles.get(binary)
        if os.path.exists(shipped):
            mode = os.stat(shipped).st_mode
            os.chmod(shipped, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            return [shipped] + arguments
        return [binary] + arguments
    script = f"chmod +x ./{shlex.quote(binary)} 2>/dev/null; exec ./{shlex.quote(binary)} " + " ".join(shlex.quote(a) for a in arguments)
    return ["/bin/sh", "-c", script]


def main(argv: list[str]) -> int:
    args, report_options = parse_arguments(argv)
    options = ["--jobs", str(max(1, args.jobs))] + report_options
    spark = SparkSession.builder.appName("streakcal").getOrCreate()
    lines, roots = requests(spark, args)
    options = [part for root in roots for part in ("--root", root)] + options
    if args.partitions:
        lines = lines.repartition(args.partitions)
    # The JVM's RDD.pipe: one `streakcal batch --jsonl` per partition, lines in, records out.
    command = spark.sparkContext._jvm.java.util.ArrayList()
    for part in pipe_command(spark, args.binary, options):
        command.add(part)
    records_path = os.path.join(args.output, "records")
    as_strings = getattr(lines._jdf, "as")  # Dataset.as (a Python keyword): its one column, value, as strings
    as_strings(spark.sparkContext._jvm.org.apache.spark.sql.Encoders.STRING()).javaRDD().pipe(command).saveAsTextFile(records_path)
    frame = spark.read.schema(RECORD_SCHEMA).json(records_path)
    frame.write.mode("overwrite").parquet(os.path.join(args.output, "records.parquet"))
    totals = frame.agg(
        F.count("*").alias("files"),
        F.sum(F.when(F.col("error").isNotNull(), 1).otherwise(0)).alias("failed"),
        F.coalesce(F.sum("sessions"), F.lit(0)).alias("sessions"),
        F.coalesce(F.sum("points"), F.lit(0)).alias("points"),
        F.coalesce(F.sum("daysMet"), F.lit(0)).alias("daysMet"),
    ).collect()[0].asDict()
    summary = {"generator": "streakcal_job.py", "options": report_options, "totals": {k: int(v or 0) for k, v in totals.items()}}
    if is_local(args.output):
        with open(os.path.join(local_path(args.output), "summary.json"), "w", encoding="utf-8") as handle:
            json.dump(summary, handle, indent=2, sort_keys=True)
            handle.write("\n")
    else:
        spark.sparkContext.parallelize([json.dumps(summary, sort_keys=True)], 1).saveAsTextFile(os.path.join(args.output, "summary"))
    print(json.dumps(summary["totals"], sort_keys=True))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
