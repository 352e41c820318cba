#!/usr/bin/env python3
"""Parses a Prometheus text exposition with prometheus_client, a parser independent of ours.

Reads the body from stdin; prints one line per family (name, type, sample count) and exits 1 on a parse error,
2 on a duplicate series. The integration tests use it beside promtool.
"""
import sys

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    text = sys.stdin.read()
    seen = set()
    families = 0
    try:
        for family in text_string_to_metric_families(text):
            families += 1
            for sample in family.samples:
                key = (sample.name, tuple(sorted(sample.labels.items())))
                if key in seen:
                    print(f"duplicate series {sample.name}{sample.labels}", file=sys.stderr)
                    return 2
                seen.add(key)
            print(f"{family.name}\t{family.type}\t{len(family.samples)}")
    except Exception as e:  # the parser raises ValueError and friends on malformed input
        print(f"parse error: {e}", file=sys.stderr)
        return 1
    print(f"# families={families} series={len(seen)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
