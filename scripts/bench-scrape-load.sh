#!/usr/bin/env bash
# Scrape load on a real cluster: 64 scrapers (half on the JobManager's /metrics, half on the TaskManager's) for 60 s
# against a JobManager and a TaskManager started by the harness with the plugin (the primary Flink version), each
# scraping again as soon as it has read the body. Prints scrapes, errors and p50/p99/max latency per process as a
# Markdown table. Runs under the shared cluster lock (/tmp/flink-cluster.lock) when flock is there.
# Options: --scrapers n, --seconds n.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven

echo "Building the Flink jars, the plugin and the harness (mvn package, tests skipped) ..." >&2
mvn -q -B -ntp -DskipTests package -pl flink-dist-local,metrics-plugin,flink-harness -am >&2

classpath=$(harness_classpath)

run=(java -Xmx512m -cp "$classpath"
  io.flinkinsight.harness.bench.ScrapeLoadBenchmark
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar
  --work-dir "flink-harness/target/bench-scrape-load/$(date +%s)"
  "$@")
exec_under_cluster_lock "${run[@]}"
