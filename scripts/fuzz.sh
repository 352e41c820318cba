#!/usr/bin/env bash
# Fuzzes the request target, the dashboard proxy's allowlist and the JSON endpoints' query parsing with Jazzer
# (metrics-plugin's TargetFuzzTest) for a while, then stops: scripts/fuzz.sh [duration], e.g. 90s, 10m, 2h
# (default 5m; a bare number is seconds).
#
# Plain `mvn test` only replays the committed inputs (src/test/resources/io/flinkinsight/plugin/http/
# TargetFuzzTestInputs/requestTarget/). Here JAZZER_FUZZ=1 makes Jazzer fuzz: libFuzzer prints its progress
# (#executions, exec/s, coverage) as it goes. A finding fails the run and its input is written into that inputs
# folder, so `mvn test` replays it from then on: fix the bug, then commit the input with the fix. The corpus the
# fuzzer grows is kept in metrics-plugin/.cifuzz-corpus/ (not committed) and resumed by the next run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

duration="${1:-5m}"
if [[ "$duration" =~ ^[0-9]+$ ]]; then
  duration="${duration}s"
fi
if [[ ! "$duration" =~ ^[0-9]+[smhd]$ ]]; then
  echo "usage: $0 [duration like 60s, 5m, 1h]" >&2
  exit 2
fi

echo "Fuzzing TargetFuzzTest for $duration"
JAZZER_FUZZ=1 mvn -B -ntp -pl metrics-plugin test \
  -Dtest=TargetFuzzTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Djazzer.max_duration="$duration"
