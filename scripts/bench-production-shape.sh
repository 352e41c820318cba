#!/usr/bin/env bash
# The production-shaped cluster benchmark: JobManager, 3 TaskManagers and the SQL Gateway (with the interactive
# client), a checkpointing RocksDB job, many short queries through the gateway's REST API on `remote-interactive`
# while the panel's overview page is polled every 5 s. Prints, over time, the JobManager's heap after a full GC, the
# series of its /metrics and the bytes its stores hold; then checks: heap after a full GC within 20 MiB of the
# baseline, series back to the baseline, the stores within stores.max-bytes, a job started afterwards has
# history, every TaskManager's figures on the hub; and which classes the heap grew by. Exits 1 when a check fails.
# Writes the Markdown to flink-harness/target/bench-production-shape.md.
# Options: --queries 10000 --minutes 15 (whichever comes first) --concurrency 4 --sample-seconds 60
# --high-availability none|zookeeper --work-dir dir --output file.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven

echo "Building the Flink jars, the plugin, the interactive client and the harness (mvn package, tests skipped) ..."
mvn -q -B -DskipTests package -pl flink-dist-local,metrics-plugin,interactive-client,flink-harness -am

classpath=$(harness_classpath)

exec java -Xmx512m -cp "$classpath" \
  io.flinkinsight.harness.bench.ProductionShapeBenchmark \
  --client-jar interactive-client/target/interactive-client-0.1.0-SNAPSHOT.jar \
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar \
  "$@"
