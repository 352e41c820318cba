#!/usr/bin/env bash
# Scrape benchmark: one full GET /metrics (keep-alive, whole body read) for the same 10k and 100k operator metrics
# registered into Flink's PrometheusReporter (of the primary version) and into Flink Insight's reporter, with JMH (-prof gc plus a
# profiler that splits allocation between the scraping client and the server threads). Prints a markdown table.
# Extra arguments go to JMH, e.g. `scripts/bench-scrape.sh -p series=10000`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
require_java_and_maven

out=benchmarks/target/bench-scrape
mkdir -p "$out"

echo "building metrics-plugin and benchmarks ..." >&2
mvn -B -q -ntp -pl benchmarks -am package -DskipTests >&2
classpath="benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
java -cp "$classpath" org.openjdk.jmh.Main ScrapeBenchmark \
  -prof gc -prof io.flinkinsight.benchmarks.scrape.ScrapeAllocationProfiler \
  -rf json -rff "$out/result.json" "$@" | tee "$out/jmh.log" >&2

echo
echo "Machine: $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)), $(java -version 2>&1 | head -1), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "Load average (1/5/15 min) before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
java -cp "$classpath" io.flinkinsight.benchmarks.scrape.ScrapeReport "$out/result.json"
