#!/usr/bin/env bash
# Runs every test: unit tests, then the integration tests on a real Flink 2.2 session cluster (JobManager,
# TaskManager and SQL Gateway as separate JVMs on 127.0.0.1) with the built plugin in plugins/insight/.
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
