#!/usr/bin/env bash
# Per-record overhead of the plugin: the CPU-bound chained-maps job (fromSequence -> 10 chained maps -> discarding sink,
# parallelism 1) on a real Flink cluster (the primary version) with the plugin (and a 1 Hz scraper on /metrics) vs
# without it, interleaved rounds, ratio of median throughputs (target >= 0.99). Prints a Markdown table and writes it to
# workloads/target/bench-overhead.md. Options: --rounds n, --records n, --warmup-records n, --output file,
# --scrape false (the plugin without the 1 Hz scraper, to tell its own cost from the scrapes').
# Defaults: 5 rounds of 200M records (after a 20M warm-up); every run starts a fresh cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven

echo "Building the Flink jars, the plugin, the harness and the workload jar (mvn package, tests skipped) ..."
mvn -q -B -DskipTests package -pl flink-dist-local,metrics-plugin,flink-harness,workloads -am

classpath=$(harness_classpath)

exec java -Xmx256m -cp "$classpath" \
  io.flinkinsight.harness.bench.OverheadBenchmark \
  --workload-jar workloads/target/workloads-0.1.0-SNAPSHOT.jar \
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar \
  --work-dir workloads/target/bench-overhead \
  "$@"
