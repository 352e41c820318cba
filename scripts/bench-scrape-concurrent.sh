#!/usr/bin/env bash
# Concurrent scrapes under a direct-memory cap: 8 scrapers at once against 200k operator metrics registered into
# Flink Insight's reporter and into Flink's PrometheusReporter, each in a JVM with -XX:MaxDirectMemorySize=64m
# (as a TaskManager's direct memory is sized by Flink). Every scrape must answer 200 with the whole body; prints
# time and allocation per scrape and the direct buffer pool's peak (BufferPoolMXBean "direct") as a markdown table.
# Extra arguments go to JMH, e.g. `scripts/bench-scrape-concurrent.sh -p reporter=insight -i 2`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
require_java_and_maven

out=benchmarks/target/bench-scrape-concurrent
mkdir -p "$out"

echo "building metrics-plugin and benchmarks ..." >&2
mvn -B -q -ntp -pl benchmarks -am package -DskipTests >&2
classpath="benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# A reporter that fails under the cap (an error in its fork) leaves its row out; the log says why.
java -cp "$classpath" org.openjdk.jmh.Main ConcurrentScrapeBenchmark \
  -prof gc -prof io.flinkinsight.benchmarks.scrape.ScrapeAllocationProfiler \
  -prof io.flinkinsight.benchmarks.scrape.DirectMemoryProfiler \
  -rf json -rff "$out/result.json" "$@" 2>&1 | tee "$out/jmh.log" >&2 || true

echo
echo "Machine: $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)), $(java -version 2>&1 | head -1), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "Load average (1/5/15 min) before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Scrapers: JMH threads (8, or what -t says), each with its own kept-alive connection; ms/scrape is what one scraper waits."
grep -aoE '\[(insight|flink), [0-9]+ metrics\] first scrape: .*|OutOfMemoryError: .*|[A-Za-z.]*Exception: .*' "$out/jmh.log" | sort -u | head -20 || true
echo
java -cp "$classpath" io.flinkinsight.benchmarks.scrape.ScrapeReport "$out/result.json"
