#!/usr/bin/env bash
# History memory: fills the plugin's SeriesStore with 10k operator series for 1 h at 5 s (counters growing, gauges
# with noise, rates, constants, occasional NaN) and reports heap used after full GCs before and after, per sample,
# beside the store's own estimatedBytes(). Prints a markdown table.
# Optional arguments: [series] [retentionMinutes] [resolutionSeconds], e.g. `scripts/bench-history-memory.sh 20000`.
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
java $jvm_opts -cp "$classpath" io.flinkinsight.benchmarks.history.HistoryMemoryBenchmark "$@"
