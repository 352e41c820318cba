#!/usr/bin/env python3
"""The REST requests the interactive client sent to the JobManager, per query and by kind.

Reads a harness cluster directory (sql-gateway.log and jobmanager.log) written with
-Dinsight.log.debug=io.flinkinsight.client.transport.KeepAliveRestClient, e.g. by

  flock /tmp/flink-cluster.lock mvn -B -ntp -o -pl integration-tests -am verify -Dtest=none \
    -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
    '-Dit.test=InteractiveClientOnInsightClusterITCase#aShortQueryCostsTheJobManagerABoundedNumberOfRequestsAfterWarmUp' \
    -Dinsight.log.debug=io.flinkinsight.client.transport.KeepAliveRestClient
  scripts/requests-per-query.py integration-tests/target/clusters/interactive-client-* --skip 15

Kinds: P submission (POST /jobs), C collect poll (POST /jobs/:id/coordinators/:uid), E end and result
(GET /jobs/:id/execution-result), S status (GET /jobs/:id/status). Per query, one line: the requests in order with
their time after the submission (ms), and the job's events from the JobManager's log: ACC accepted (the client's
log), RUN running, SINK the collect sink told its address, FIN finished. --skip leaves out the first queries (warm-up),
--count takes that many after them (for a whole test class: test 3 of InteractiveClientOnInsightClusterITCase is
--skip 96 --count 30, after the 9 queries of test 1 and the 72 of test 2 and the 15 of its own warm-up).
"""
import argparse
import collections
import datetime
import re

STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}")


def stamp(line):
    return datetime.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()


def client_requests(path):
    """Per job id, in submission order: submission time, acceptance time, [(kind, seconds after submission)]."""
    jobs = collections.OrderedDict()
    pending = None
    now = 0.0
    with open(path, errors="replace") as log:
        for line in log:
            if STAMP.match(line):
                now = stamp(line)
            named = re.search(r"' \(([0-9a-f]{32})\)\.$", line.rstrip())
            if named and "Successfully" not in line:
                pending = named.group(1)  # "Submitting job '<name>' (<id>)." ends the (multi-line) name
                continue
            accepted = re.search(r"\(([0-9a-f]{32})\) to 'http", line)
            if accepted and accepted.group(1) in jobs:
                jobs[accepted.group(1)]["accepted"] = now
            if "Sending request" not in line:
                continue
            url = re.search(r" to \S+?(/v\d+/\S*)", line).group(1)
            if re.fullmatch(r"/v\d+/jobs", url):
                jobs[pending] = {"submitted": now, "requests": [("P", 0.0)]}
                continue
            match = re.search(r"/jobs/([0-9a-f]{32})(/\S*)?", url)
            if not match:
                continue
            rest = match.group(2) or ""
            kind = "C" if "/coordinators/" in rest else {"/execution-result": "E", "/status": "S"}.get(rest, rest)
            job = jobs.setdefault(match.group(1), {"submitted": now, "requests": []})
            job["requests"].append((kind, now - job["submitted"]))
    return jobs


def job_events(path, jobs):
    """Per job id: [(event, time)] from the JobManager's log."""
    events = collections.defaultdict(list)
    now = 0.0
    with open(path, errors="replace") as log:
        for line in log:
            if STAMP.match(line):
                now = stamp(line)
            switched = re.search(r"\(([0-9a-f]{32})\) switched from state \w+ to (RUNNING|FINISHED)", line)
            if switched and not any(e == switched.group(2)[:3] for e, _ in events[switched.group(1)]):
                events[switched.group(1)].append((switched.group(2)[:3], now))
            elif "Received sink socket server address" in line:
                # the job submitted last before it (queries of one session run one after another)
                latest = None
                for job_id, job in jobs.items():
                    if job["submitted"] <= now:
                        latest = job_id
                if latest:
                    events[latest].append(("SINK", now))
    return events


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cluster_dir")
    parser.add_argument("--skip", type=int, default=0, help="queries to leave out first (warm-up)")
    parser.add_argument("--count", type=int, default=None, help="queries to take after those (default: all)")
    args = parser.parse_args()
    jobs = client_requests(args.cluster_dir + "/sql-gateway.log")
    events = job_events(args.cluster_dir + "/jobmanager.log", jobs)
    kinds = collections.Counter()
    seen_after_end = []
    measured = list(jobs)[args.skip:]
    if args.count is not None:
        measured = measured[:args.count]
    for job_id in measured:
        job = jobs[job_id]
        kinds.update(kind for kind, _ in job["requests"])
        marks = sorted(events[job_id] + ([("ACC", job["accepted"])] if "accepted" in job else []), key=lambda e: e[1])
        finished = [t for e, t in marks if e == "FIN"]
        ends = [t for kind, t in job["requests"] if kind == "E"]
        if finished and ends:
            seen_after_end.append((job["submitted"] + ends[-1] - finished[0]) * 1000)
        print(job_id[:8], len(job["requests"]), "|",
              " ".join("%s@%d" % (e, (t - job["submitted"]) * 1000) for e, t in marks), "|",
              " ".join("%s%d" % (kind, t * 1000) for kind, t in job["requests"]))
    total = sum(kinds.values())
    count = max(len(measured), 1)
    print("%d queries, %d requests, %.2f per query: %s" % (
        len(measured), total, total / count,
        ", ".join("%s %.2f" % (kind, n / count) for kind, n in sorted(kinds.items()))))
    if seen_after_end:
        seen_after_end.sort()
        print("last end request sent after the job's FINISHED: p50 %.0f ms, mean %.0f ms" % (
            seen_after_end[len(seen_after_end) // 2], sum(seen_after_end) / len(seen_after_end)))


if __name__ == "__main__":
    main()
