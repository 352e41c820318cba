#!/usr/bin/env bash
# Regenerates screenshots/ from a real cluster: runs the demo (the primary Flink version with the plugin, the streaming
# job, the RocksDB/changelog pair and the short queries), lets history build up, then drives the panel in Debian's
# Chromium with the e2e scripts, which save overview, jobs, a job's checkpoints, client, statements (with a statement's
# query timelines) and hub-unreachable views, the Insight entry in Flink's dashboard, and the compare view of the pair.
# Stops the demo it started.
# Environment: HISTORY_SECONDS (default 150) of workload before the shots; SHOTS=compare makes only the compare view's.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh
require_java_and_maven
require_node
require_chromium

mkdir -p target
log=target/screenshots-demo.log
bash scripts/demo.sh --duration $(( ${HISTORY_SECONDS:-150} + 300 )) >"$log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true' EXIT

hub=""
for _ in $(seq 1 600); do
  hub=$(sed -n 's#^Insight panel (hub): *\(http://[^ ]*\)/$#\1#p' "$log" | head -n 1)
  [ -n "$hub" ] && break
  kill -0 "$demo" 2>/dev/null || { cat "$log" >&2; echo "the demo exited" >&2; exit 1; }
  sleep 1
done
[ -n "$hub" ] || { tail -n 40 "$log" >&2; echo "no hub URL from the demo within 10 minutes" >&2; exit 1; }
echo "hub at $hub; letting the workload run ${HISTORY_SECONDS:-150} s ..."
sleep "${HISTORY_SECONDS:-150}"

mkdir -p screenshots
pair=$(sed -n 's#^Compare the pair: .*/\#/compare?jobs=\([0-9a-f,]*\)$#\1#p' "$log" | head -n 1)
(cd web-extension && INSIGHT_URL="$hub" COMPARE_JOBS="$pair" SCREENSHOT_DIR="$PWD/../screenshots" node e2e/compare.e2e.mjs)
if [ "${SHOTS:-all}" != compare ]; then
  (cd web-extension && INSIGHT_URL="$hub" SCREENSHOT_DIR="$PWD/../screenshots" node e2e/flink-tab.e2e.mjs)
  (cd web-extension && INSIGHT_URL="$hub" SCREENSHOT_DIR="$PWD/../screenshots" node e2e/panel.e2e.mjs)
fi
echo "screenshots written to screenshots/"
