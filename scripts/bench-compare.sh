#!/usr/bin/env bash
# The demo's RocksDB/changelog pair side by side on this machine: runs the demo (scripts/demo.sh), lets the pair run
# RUN_SECONDS (default 660: at least 10 minutes of checkpoints), then prints /api/v1/compare for the pair as a Markdown
# table (scripts/lib/compare-table.mjs) with the machine it ran on. The JSON is left in target/bench-compare.json.
# Arguments go to the demo, e.g. --flink-version 2.2.0.
# Stops the demo it started. Needs the ports of the demo (8081, 8083, 9250-9270) free.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
require_java_and_maven
require_node

run=${RUN_SECONDS:-660}
mkdir -p target
log=target/bench-compare-demo.log
bash scripts/demo.sh --duration $(( run + 120 )) "$@" >"$log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true' EXIT

api=""
for _ in $(seq 1 600); do
  api=$(sed -n 's#^  the same as JSON: *\(http://[^ ]*\)$#\1#p' "$log" | head -n 1)
  [ -n "$api" ] && break
  kill -0 "$demo" 2>/dev/null || { cat "$log" >&2; echo "the demo exited" >&2; exit 1; }
  sleep 1
done
[ -n "$api" ] || { tail -n 40 "$log" >&2; echo "no compare URL from the demo within 10 minutes" >&2; exit 1; }
echo "pair running; comparing after ${run} s: $api"
sleep "$run"
curl -fsS "$api" > target/bench-compare.json
echo "Machine: $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)), $(free -g | awk '/^Mem:/ {print $2}') GB RAM, $(java -version 2>&1 | head -1), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
node scripts/lib/compare-table.mjs < target/bench-compare.json
