#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The table of `make bench-storm` from its two guests' consoles.

Reads the "bench_storm: side=host|target cm=... round=... phase=nvme|m2o
key=value ..." lines of tests/vm/scenarios/bench_storm_lib.sh and prints,
per phase, each CM's median over the rounds and the ratio pdcm/ib_cm of
the medians.  Documentation/performance.rst ("Connect storms") explains
the rows.

    bench_storm_table.py HOST_CONSOLE TARGET_CONSOLE
"""
import re
import statistics
import sys

from bench_table import kv_fields

LINE = re.compile(r"bench_storm: (.*)$")
DROPS = re.compile(r"bench_conn_drops: cm=(\S+) round=(\S+) n=(\S+) (.*)$")
NAMES = {"stock": "ib_cm", "pdcm": "pdcm (drop-in)"}
# (label, side, key): the rows of each phase
ROWS = {
    "nvme": [
        ("connections", "host", "connections"),
        ("all connected, ms", "host", "all_ms"),
        ("median connect, ms", "host", "p50_ms"),
        ("failed connects", "host", "failed"),
        ("controllers, all queues", "host", "full"),
        ("disconnect-all, ms", "host", "disconnect_ms"),
        ("host: REQs sent", "host", "req_sent"),
        ("host: REQ retries", "host", "req_retries"),
        ("host: REP dups", "host", "rep_dups"),
        ("target: REQs rcvd", "target", "req_rcvd"),
        ("target: REQ dups", "target", "req_dups"),
        ("target: REP retries", "target", "rep_retries"),
        ("target: MRAs sent", "target", "mra"),
        ("target: REJs sent", "target", "rej"),
        ("target: CM drops", "target", "cm_drops"),
    ],
    "m2o": [
        ("connections", "host", "connections"),
        ("all clients done, ms", "host", "all_ms"),
        ("slowest connect step, ms", "host", "connect_max_ms"),
        ("failed clients", "host", "failed"),
        ("host: REQs sent", "host", "req_sent"),
        ("host: REQ retries", "host", "req_retries"),
        ("host: DREQ retries", "host", "dreq_retries"),
        ("target: REQs rcvd", "target", "req_rcvd"),
        ("target: REQ dups", "target", "req_dups"),
        ("target: REP retries", "target", "rep_retries"),
        ("target: MRAs sent", "target", "mra"),
        ("target: REJs sent", "target", "rej"),
        ("target: CM drops", "target", "cm_drops"),
    ],
}
TITLES = {"nvme": "NVMe over RDMA: K nvme connects at once, Q I/O queues each",
          "m2o": "many-to-one: P cmtime clients at once, C connections each"}



def parse(paths):
    """{(phase, side, cm): [fields of each round]}"""
    runs = {}
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                m = LINE.search(line)
                if not m:
                    continue
                d = kv_fields(m.group(1))
                if not {"side", "cm", "phase"} <= d.keys():
                    continue
                runs.setdefault((d["phase"], d["side"], d["cm"]), []).append(d)
    return runs


def fmt(v):
    if v is None:
        return "-"
    return f"{v:.0f}" if abs(v) >= 10 or v == int(v) else f"{v:.2f}"


def table(runs, phase):
    cms = [c for c in NAMES if any(k[0] == phase and k[2] == c for k in runs)]
    if not cms:
        return []
    host = runs.get((phase, "host", cms[0]), [{}])[0]
    head = TITLES[phase]
    for k in ("k", "q", "queue_args", "p", "c"):
        if k in host:
            head += f"; {k}={fmt(host[k]) if isinstance(host[k], float) else host[k]}"
    rounds = max(len(v) for k, v in runs.items() if k[0] == phase)
    out = [f"== {head} ({rounds} round(s), median)", ""]
    row = "{:<26}" + "{:>18}" * (len(cms) + 1)
    out.append(row.format(phase, *[NAMES[c] for c in cms], "pdcm/ib_cm"))
    for label, side, key in ROWS[phase]:
        vals = []
        for c in cms:
            xs = [r[key] for r in runs.get((phase, side, c), [])
                  if isinstance(r.get(key), float)]
            vals.append(statistics.median(xs) if xs else None)
        ratio = "-"
        if "stock" in cms and "pdcm" in cms:
            a, b = vals[cms.index("stock")], vals[cms.index("pdcm")]
            if a and b is not None:
                ratio = f"{b / a:.2f}"
            elif a == 0 and b:
                ratio = "inf"
        out.append(row.format(label, *[fmt(v) for v in vals], ratio))
    out.append("")
    return out


def drops(paths):
    """pdcm's drops (its pdcm_drop tracepoint) per phase, side and round"""
    out = []
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                m = DROPS.search(line)
                if m:
                    what = m.group(4).strip() or "none"
                    out.append(f"  {m.group(1):<6} round {m.group(2)}  "
                               f"{m.group(3):<12} {what}")
    if not out:
        return []
    return ["pdcm's drops by message and reason (pdcm_drop tracepoint):"] + out


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    runs = parse(argv[1:])
    lines = table(runs, "nvme") + table(runs, "m2o")
    if not lines:
        sys.exit("bench_storm_table.py: no bench_storm lines")
    lines += drops(argv[1:])
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv)
