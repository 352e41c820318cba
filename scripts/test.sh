#!/usr/bin/env bash
# Runs every test: unit tests, then the integration tests on a real Flink session cluster of the primary version
# (JobManager, TaskManager and SQL Gateway as separate JVMs on 127.0.0.1) with the built plugin in plugins/insight/,
# and a smoke test on each older version (FlinkVersionsSmokeITCase). -Dinsight.flink.version=<version> runs the
# integration tests on another version.
# Installs what it needs on a fresh machine first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/prerequisites.sh

require_java_and_maven
require_node
require_chromium
require_promtool
require_python_parser "$PWD/.venv"

mvn -B -ntp verify -Dinsight.python="$PWD/.venv/bin/python" "$@"
