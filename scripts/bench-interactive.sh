#!/usr/bin/env bash
# The short-query benchmark: how fast short queries run through the SQL Gateway on `remote-interactive` (the client
# reuse FLIP-407 proposed) against Flink's stock `remote` executor, on this machine. A gateway client (Flink's JDBC
# driver, and a client of the gateway's REST API polling every 10 ms) -> SQL Gateway -> session cluster, the three queries (source, wordcount, join over 1-row datagen tables, streaming mode) at
# concurrency 1, 8 and 32, the two executors interleaved in one run on one cluster. Prints p50/p99 E2E latency,
# QPS, the cluster-side job time of the same jobs and the CPU of JobManager, TaskManager and gateway, then the
# ratios against the interactive client's targets; writes the Markdown to flink-harness/target/bench-interactive.md.
# Options: --gateway-clients jdbc,rest --concurrency 1,8,32 --queries source,wordcount,join --seconds 20 --rounds 2
# --warmup 300 --set key=value (interactive sessions only; none by default: the client's defaults)
# --cluster-set key=value (config.yaml of the cluster, both executors) --cluster plain|olap --output file.
# --cluster olap runs Flink's OLAP production settings (olap_quickstart.md): ZooKeeper HA with two JobManagers, two
# TaskManagers, batch mode with pipelined shuffles, ZGC, the gateway's plan cache; plain (default) is one JobManager
# and one TaskManager in streaming mode. The report gives the CPU per query of gateway, JobManager(s), TaskManager(s).
# --profile records a JFR CPU profile of the JobManager, TaskManager and gateway in each measured block (recordings in
# the work dir) and writes which part of which process the CPU per query goes to beside the output
# (bench-interactive-profile.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven

echo "Building the Flink jars, the plugin, the interactive client and the harness (mvn package, tests skipped) ..."
mvn -q -B -DskipTests package -pl flink-dist-local,metrics-plugin,interactive-client,flink-harness -am

classpath=$(harness_classpath)

exec java -Xmx512m -cp "$classpath" \
  io.flinkinsight.harness.bench.InteractiveQueryBenchmark \
  --client-jar interactive-client/target/interactive-client-0.1.0-SNAPSHOT.jar \
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar \
  "$@"
