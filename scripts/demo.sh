#!/usr/bin/env bash
# The demo: builds the plugin and the harness, starts a Flink 2.2 session cluster on 127.0.0.1 with the plugin
# (dashboard :8081, SQL Gateway :8083, Insight :9250-9260), runs a checkpointing streaming job (RocksDB,
# incremental) and a trickle of short SQL queries through the gateway on the interactive client (its jar on the
# gateway's classpath, execution.target = remote-interactive, its figures on the gateway's plugin at 9261-9270,
# gathered by the hub), and prints the URLs. Ctrl-C stops everything it started. The panel is built with the
# machine's Node (npm ci on first use). Options: --duration <seconds>, --work-dir <dir>, --no-plugin, --no-client.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven
require_node

echo "Building the Flink jars, the plugin, the interactive client and the harness (mvn package, tests skipped) ..."
mvn -q -B -DskipTests package -pl flink-dist-local,metrics-plugin,interactive-client,flink-harness -am

classpath_file=flink-harness/target/demo-classpath.txt
mvn -q -B -pl flink-harness dependency:build-classpath -Dmdep.includeScope=runtime \
  -Dmdep.outputFile="$PWD/$classpath_file"

# exec: Ctrl-C reaches the demo's JVM directly, whose shutdown hook stops the Flink processes.
exec java -Xmx256m -cp "flink-harness/target/classes:$(cat "$classpath_file")" \
  io.flinkinsight.harness.demo.InsightDemo \
  --work-dir flink-harness/target/demo \
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar \
  "$@"
