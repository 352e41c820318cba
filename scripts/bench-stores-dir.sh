#!/usr/bin/env bash
# History on disk: a cluster (JobManager, 3 TaskManagers, SQL Gateway) with the plugin writing its stores to a local
# stores.dir, the demo's checkpointing RocksDB job and a short query every 10 s, and a real Prometheus (Debian's
# package `prometheus`, installed if missing) scraping the JobManager's /metrics every 5 s (= history.resolution),
# keeping only the flink_jobmanager_* series. Reports the bytes written to the directory per hour, the CPU time of the
# writer thread (flink-insight-stores-dir) per hour and as a share of the JobManager's, and bytes per sample of the
# JobManager's series in the directory's files beside Prometheus's (a TSDB snapshot with its head, one block).
# Runs under the shared cluster lock (/tmp/flink-cluster.lock) when flock is there. Writes the Markdown to
# flink-harness/target/bench-stores-dir.md.
# Options: --minutes 60 --task-managers 3 --query-every-seconds 10 (0: none) --write-interval <duration>
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
  io.flinkinsight.harness.bench.StoresDirBenchmark
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar
  "$@")
exec_under_cluster_lock "${run[@]}"
