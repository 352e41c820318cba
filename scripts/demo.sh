#!/usr/bin/env bash
# The demo: builds the plugin and the harness, starts a Flink session cluster on 127.0.0.1 with the plugin
# (dashboard :8081, SQL Gateway :8083, Insight :9250-9260), runs a checkpointing streaming job (RocksDB,
# incremental), two copies of a keyed aggregation (RocksDB incremental, one with the changelog state backend on;
# the demo prints the compare view's URL for them) and a trickle of short SQL queries through the gateway on the interactive client (its jar on the
# gateway's classpath, execution.target = remote-interactive, its figures on the gateway's plugin at 9261-9270,
# gathered by the hub), and prints the URLs. Ctrl-C stops everything it started. The panel is built with the
# machine's Node (npm ci on first use). Options: --duration <seconds>, --work-dir <dir>, --no-plugin, --no-client,
# --flink-version <version> (default: the primary version, the root pom's flink.version; the others are the
# submodules of flink-dist-local, e.g. 1.20.3).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven
require_node

# Another version's jars come from its own flink-dist-local submodule (resolved once, then from ~/.m2).
dist_modules=flink-dist-local
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ "${args[i]}" == "--flink-version" && $((i + 1)) -lt ${#args[@]} ]]; then
    version="${args[i + 1]}"
    if [[ -f "flink-dist-local/flink-$version/pom.xml" ]]; then
      dist_modules="$dist_modules,flink-dist-local/flink-$version"
    fi
  fi
done

echo "Building the Flink jars, the plugin, the interactive client and the harness (mvn package, tests skipped) ..."
mvn -q -B -DskipTests package -pl "$dist_modules",metrics-plugin,interactive-client,flink-harness -am

classpath=$(harness_classpath)

# exec: Ctrl-C reaches the demo's JVM directly, whose shutdown hook stops the Flink processes.
exec java -Xmx256m -cp "$classpath" \
  io.flinkinsight.harness.demo.InsightDemo \
  --work-dir flink-harness/target/demo \
  --plugin-jar metrics-plugin/target/metrics-plugin-0.1.0-SNAPSHOT.jar \
  "$@"
