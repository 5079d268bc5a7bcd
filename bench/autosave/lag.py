#!/usr/bin/env python3
"""Persist-lag quantiles of one run: the difference of two /q/metrics scrapes of
exam_answer_persist_lag_seconds (Prometheus histogram), like histogram_quantile() over the run.
Usage: lag.py before.txt after.txt  ->  prints "p50 p99 count" (seconds)."""
import re
import sys


def buckets(path):
    out = {}
    pattern = re.compile(r'^exam_answer_persist_lag_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\}\s+(\S+)')
    with open(path) as f:
        for line in f:
            m = pattern.match(line)
            if m:
                le = float('inf') if m.group(1) == '+Inf' else float(m.group(1))
                out[le] = out.get(le, 0.0) + float(m.group(2))
    return out


def quantile(q, cumulative):
    total = cumulative[-1][1] if cumulative else 0
    if total <= 0:
        return float('nan')
    rank = q * total
    prev_le, prev_count = 0.0, 0.0
    for le, count in cumulative:
        if count >= rank:
            if le == float('inf'):
                return prev_le
            return prev_le + (le - prev_le) * ((rank - prev_count) / max(count - prev_count, 1e-9))
        prev_le, prev_count = le, count
    return prev_le


before, after = buckets(sys.argv[1]), buckets(sys.argv[2])
delta = sorted((le, after[le] - before.get(le, 0.0)) for le in after)
count = delta[-1][1] if delta else 0
print(f"{quantile(0.5, delta):.3f} {quantile(0.99, delta):.3f} {int(count)}")
