# Installs what the demo and the tests need on a fresh Debian machine of this kind, and nothing that is there already.
# Sourced by scripts/demo.sh, scripts/test.sh and the benchmark scripts.

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
  # apt_install <command-to-check> <package>...
  local probe=$1; shift
  command -v "$probe" >/dev/null 2>&1 && return 0
  echo "installing $* (for $probe) with apt-get" >&2
  as_root apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 \
    || { as_root apt-get update >/dev/null && as_root apt-get install -y --no-install-recommends "$@" >/dev/null; }
}

require_java_and_maven() {
  command -v java >/dev/null || apt_install java openjdk-17-jdk-headless
  command -v mvn >/dev/null || apt_install mvn maven
  local v
  v=$(java -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')
  if [ "${v%%.*}" -lt 17 ]; then
    echo "Java 17 or newer is needed (found $v)" >&2
    return 1
  fi
}

# promtool (Debian package prometheus) checks the exposition format in the integration tests.
require_promtool() {
  apt_install promtool prometheus
}

# A private virtualenv with prometheus_client: the second, independent exposition parser.
require_python_parser() {
  local venv=$1
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import prometheus_client' 2>/dev/null; then
    command -v python3 >/dev/null || apt_install python3 python3 python3-venv
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check 'prometheus_client>=0.20,<1'
  fi
}

# Debian's Chromium for the browser tests, driven by playwright-core (no browser download).
require_chromium() {
  apt_install chromium chromium
}

require_node() {
  command -v node >/dev/null || apt_install node nodejs npm
  local major
  major=$(node -p 'process.versions.node.split(".")[0]')
  if [ "$major" -lt 20 ]; then
    echo "Node 20 or newer is needed (found $(node -v))" >&2
    return 1
  fi
}

# Prints the harness's run-time class path (its classes, then its dependencies) for `java -cp`, as flink-harness's
# package phase wrote it (every caller builds with `mvn package -pl ...,flink-harness -am` first).
harness_classpath() {
  local file=flink-harness/target/harness-classpath.txt
  [[ -f $file ]] || { echo "no $file: build first (mvn package -pl flink-harness -am)" >&2; return 1; }
  echo "flink-harness/target/classes:$(cat "$file")"
}

# Runs the command in place of this shell, under the shared cluster lock (/tmp/flink-cluster.lock) when flock is
# there, so benchmarks that start clusters do not run beside each other.
exec_under_cluster_lock() {
  if command -v flock >/dev/null; then
    exec flock /tmp/flink-cluster.lock "$@"
  fi
  exec "$@"
}
