"""StreakCal on Apache Spark: one streak report per calendar, for as many calendars as a cluster holds.

The job reads calendars (a folder of .ics files on a local disk, HDFS or S3, or a table of
(id, ics text) rows), pipes each partition through `streakcal batch --jsonl` (one process per
partition, the calendars streamed through its standard input), and writes every calendar's record
as JSON Lines and as Parquet, and a summary of the whole run.

    spark-submit --master local[2] --files /usr/local/bin/streakcal Examples/spark/streakcal_job.py \
        --input calendars/ --output out/ -- --format json --tz UTC --to 2024-12-31

Everything after `--` goes to `streakcal batch --jsonl` as report options (format, zone, window,
rules, ...). The records are the `batch --jsonl` contract: `id`, `line`, `name`, `report` (the
report, exactly the bytes `streakcal batch` writes for the calendar), `diagnostics`, `error` and
the figures of summary.json; see the README beside this file.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shlex
import stat
import subprocess
import sys
import threading
from urllib.parse import urlparse

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, LongType, StringType, StructField, StructType

RECORD_SCHEMA = StructType([
    StructField("id", StringType()),
    StructField("line", LongType()),
    StructField("name", StringType()),
    StructField("error", StringType()),
    StructField("report", StringType()),
    StructField("diagnostics", StringType()),  # the JSON array, as text
    StructField("sessions", LongType()),
    StructField("points", LongType()),
    StructField("days", LongType()),
    StructField("daysMet", LongType()),
    StructField("currentStreak", IntegerType()),
    StructField("longestStreak", IntegerType()),
])


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


def request_lines(spark: SparkSession, args: argparse.Namespace):
    """An RDD of `batch --jsonl` request lines, one per calendar."""
    if args.table:
        frame = spark.read.format(args.table_format).option("header", "true").load(args.table)
        return frame.select(F.col("id").cast("string"), F.col("ics").cast("string")).rdd.map(
            lambda row: json.dumps({"id": row[0], "ics": row[1]}))
    send = args.send
    if send == "auto":
        send = "path" if all(is_local(uri) for uri in args.input) else "bytes"
    files = list_calendars(spark, args.input)
    partitions = args.partitions or spark.sparkContext.defaultParallelism
    if send == "path":
        # Only the paths travel: each executor reads its files itself (local disks, NFS).
        return spark.sparkContext.parallelize([path for path, _ in files], partitions).map(
            lambda path: json.dumps({"id": local_path(path), "path": local_path(path)}))
    # The bytes travel, base64 (HDFS, S3): Spark reads the files; empty ones, which its binaryFile
    # source passes over, are sent as empty.
    empty = [path for path, size in files if size == 0]
    requests = spark.sparkContext.parallelize(empty, 1).map(lambda path: json.dumps({"id": local_path(path), "icsBase64": ""}))
    full = [path for path, size in files if size > 0]
    if full:
        contents = spark.read.format("binaryFile").load(full).select("path", "content").rdd.map(
            lambda row: json.dumps({"id": local_path(row[0]), "icsBase64": base64.b64encode(bytes(row[1])).decode("ascii")}))
        requests = requests.union(contents)
    return requests


def list_calendars(spark: SparkSession, inputs: list[str]) -> list[tuple[str, int]]:
    """Every .ics file (any case) of the inputs, at any depth, with its size, through Hadoop's
    file systems (local, HDFS, S3): names that start with "." or "_" are passed over, as Hadoop's
    own listings do; empty files are kept."""
    sc = spark.sparkContext
    jvm, conf = sc._jvm, sc._jsc.hadoopConfiguration()
    found: list[tuple[str, int]] = []
    for uri in inputs:
        root = jvm.org.apache.hadoop.fs.Path(uri)
        system = root.getFileSystem(conf)
        for status in system.globStatus(root) or []:
            if status.isFile():
                found.append((status.getPath().toString(), status.getLen()))
                continue
            base = status.getPath().toString().rstrip("/") + "/"
            listing = system.listFiles(status.getPath(), True)
            while listing.hasNext():
                entry = listing.next()
                path = entry.getPath().toString()
                below = path[len(base):] if path.startswith(base) else entry.getPath().getName()
                if any(part.startswith((".", "_")) for part in below.split("/")):
                    continue
                if path.lower().endswith(".ics"):
                    found.append((path, entry.getLen()))
    return sorted(set(found))


def executable(name: str) -> str:
    """The binary shipped with --files (made executable: Spark does not keep the mode), or `name` as given."""
    if os.path.sep not in name:
        shipped = SparkFiles.get(name)
        if os.path.exists(shipped):
            mode = os.stat(shipped).st_mode
            if not mode & stat.S_IXUSR:
                os.chmod(shipped, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            return shipped
    return name


def run_partition(binary: str, options: list[str]):
    """A function for mapPartitions: streams the partition's request lines through one
    `streakcal batch --jsonl` and yields its records as they come."""
    def run(lines):
        command = [executable(binary), "batch", "--jsonl"] + options
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        errors: list[bytes] = []

        def feed():
            try:
                for line in lines:
                    process.stdin.write(line.encode("utf-8") + b"\n")
            except BrokenPipeError:
                pass
            finally:
                try:
                    process.stdin.close()
                except BrokenPipeError:
                    pass

        def drain():
            errors.append(process.stderr.read())

        feeder = threading.Thread(target=feed, daemon=True)
        reader = threading.Thread(target=drain, daemon=True)
        feeder.start()
        reader.start()
        for line in process.stdout:
            yield line.decode("utf-8").rstrip("\n")
        feeder.join()
        reader.join()
        status = process.wait()
        if status != 0:
            raise RuntimeError(f"{' '.join(shlex.quote(part) for part in command)} exited with {status}: "
                               f"{b''.join(errors).decode('utf-8', 'replace')[-2000:]}")
    return run


def to_row(text: str) -> tuple:
    record = json.loads(text)
    current, longest = record.get("currentStreak"), record.get("longestStreak")
    ident = record.get("id")
    return (
        None if ident is None else str(ident), record["line"], record.get("name"), record.get("error"),
        record.get("report"), json.dumps(record.get("diagnostics", []), ensure_ascii=False),
        record.get("sessions"), record.get("points"), record.get("days"), record.get("daysMet"),
        current["length"] if current else None, longest["length"] if longest else None,
    )


def main(argv: list[str]) -> int:
    args, report_options = parse_arguments(argv)
    options = ["--jobs", str(max(1, args.jobs))] + report_options
    spark = SparkSession.builder.appName("streakcal").getOrCreate()
    requests = request_lines(spark, args)
    if args.partitions:
        requests = requests.repartition(args.partitions)
    records = requests.mapPartitions(run_partition(args.binary, options)).cache()
    records.saveAsTextFile(os.path.join(args.output, "records"))
    frame = spark.createDataFrame(records.map(to_row), RECORD_SCHEMA)
    frame.write.mode("overwrite").parquet(os.path.join(args.output, "records.parquet"))
    totals = frame.agg(
        F.count("*").alias("files"),
        F.sum(F.when(F.col("error").isNotNull(), 1).otherwise(0)).alias("failed"),
        F.coalesce(F.sum("sessions"), F.lit(0)).alias("sessions"),
        F.coalesce(F.sum("points"), F.lit(0)).alias("points"),
        F.coalesce(F.sum("daysMet"), F.lit(0)).alias("daysMet"),
    ).collect()[0].asDict()
    summary = {"generator": "streakcal_job.py", "options": report_options, "totals": {k: int(v) for k, v in totals.items()}}
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
