#!/usr/bin/env bash
# Checkpoint memory: 50 jobs x 30 vertices at parallelism 4, 1000 checkpoints each with per-subtask spans (built with
# Flink's span builder), into a checkpoint store bounded by counts only and then into the stores with their default
# budget; reports heap used after full GCs beside the stores' own estimates. Prints a markdown table.
# Optional arguments: [jobs] [vertices] [checkpoints] [parallelism], e.g. `scripts/bench-checkpoint-memory.sh 10 30 500`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
require_java_and_maven

echo "building metrics-plugin and benchmarks ..." >&2
mvn -B -q -ntp -pl benchmarks -am package -DskipTests >&2
classpath="benchmarks/target/classes:$(cat benchmarks/target/benchmarks.classpath)"

# A fixed heap so heap-used readings after System.gc() are not disturbed by resizing; BENCH_JVM_OPTS overrides it.
jvm_opts=${BENCH_JVM_OPTS:--Xms1g -Xmx1g -XX:+UseG1GC}

echo "Machine: $(nproc) cores, $(java -version 2>&1 | head -1), $(date -u '+%Y-%m-%d %H:%M UTC'); JVM: $jvm_opts"
echo
# shellcheck disable=SC2086 # the options are meant to split
java $jvm_opts -cp "$classpath" io.flinkinsight.benchmarks.checkpoints.CheckpointMemoryBenchmark "$@"
