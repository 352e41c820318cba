#!/usr/bin/env bash
# Regenerates screenshots/ from a real cluster: runs the demo (the primary Flink version with the plugin, the streaming
# job and the short queries), lets history build up, then drives the panel in Debian's Chromium with the e2e script, which saves
# overview, jobs, a job's checkpoints, client and hub-unreachable views, and the Insight entry in Flink's dashboard. Stops the demo it started.
# Environment: HISTORY_SECONDS (default 150) of workload before the shots.
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
(cd web-extension && INSIGHT_URL="$hub" SCREENSHOT_DIR="$PWD/../screenshots" node e2e/flink-tab.e2e.mjs)
(cd web-extension && INSIGHT_URL="$hub" SCREENSHOT_DIR="$PWD/../screenshots" node e2e/panel.e2e.mjs)
echo "screenshots written to screenshots/"
