#!/usr/bin/env bash
# Series churn from short queries, with a real Prometheus: for each setup a fresh cluster (JobManager, TaskManager, SQL
# Gateway on the stock `remote` executor, separate JVMs on 127.0.0.1) and a real Prometheus (Debian's package
# `prometheus`, installed if missing) scraping the JobManager's and the TaskManager's /metrics every 1 s; a warm-up,
# then N short queries through the gateway (the demo's source, wordcount and join over 1-row tables) from C sessions;
# reports the series Prometheus created (prometheus_tsdb_head_series_created_total) per 1,000 queries for Flink's own
# PrometheusReporter (flink-metrics-prometheus of the same Flink version, in plugins/), the Insight plugin with
# scrape.job-series.min-age: 0 (Flink's behaviour) and the Insight plugin with its defaults. Flink's reporter has no
# bind-address option: during its run it listens on all interfaces (ports 19330-19349). Runs under the shared cluster
# lock (/tmp/flink-cluster.lock) when flock is there. Writes the Markdown to flink-harness/target/bench-series-churn.md.
# Options: --queries 1000 --concurrency 4 --warmup 30 --gateway-client jdbc|rest --setups flink,insight-0,insight
# --work-dir dir --output file.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven
apt_install prometheus prometheus

echo "Building the Flink jars, the plugin and the harness (mvn package, tests skipped) ..." >&2
mvn -q -B -ntp -DskipTests package -pl flink-dist-local,metrics-plugin,flink-harness -am >&2

classpath=$(harness_classpath)

run=(java -Xmx512m -cp "$classpath"
  io.flinkinsight.harness.bench.SeriesChurnBenchmark
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar
  "$@")
exec_under_cluster_lock "${run[@]}"
