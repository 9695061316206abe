#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The REQ dispatch table of `make bench` from its guest's console.

Reads the "bench_demux: key=value ..." lines of
tests/vm/scenarios/bench_demux.sh and prints, per listener count N, each
stack's median latency from the REQ's receive to its listener's handler
(the median over rounds of each round's median, with the range of the
round medians), its p90, and the ratio ib_cm+rdma_cm / pdcm of the medians
(above 1: pdcm dispatches faster).  Each stack's growth from the smallest
N to the largest is the figure the listen table is for: flat is the goal.
"""
import re
import statistics
import sys

from bench_table import kv_fields

LINE = re.compile(r"bench_demux: (.*)$")
NAMES = {"stock": "ib_cm + rdma_cm", "pdcm": "pdcm"}


def parse(path):
    runs = []
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.search(line)
            if not m:
                continue
            runs.append(kv_fields(m.group(1)))
    return runs


def main():
    runs = parse(sys.argv[1])
    if not runs:
        print("bench_demux: no results")
        return 1
    ns = sorted({int(r["n"]) for r in runs})
    med = {}
    print("REQ dispatch, MAD receive to the listener's handler, us "
          "(median of round medians [range]; p90)")
    print("%6s | %-28s | %-28s | %s" % ("N", NAMES["stock"], NAMES["pdcm"],
                                        "ib_cm/pdcm"))
    for n in ns:
        cells = []
        for cm in ("stock", "pdcm"):
            rs = [r for r in runs if r["cm"] == cm and int(r["n"]) == n
                  and "median_us" in r]
            if not rs:
                cells.append("%-28s" % "-")
                continue
            ms = [r["median_us"] for r in rs]
            p90 = statistics.median(r["p90_us"] for r in rs)
            med[cm, n] = statistics.median(ms)
            cells.append("%-28s" % ("%.0f [%.0f..%.0f]; %.0f" %
                                    (med[cm, n], min(ms), max(ms), p90)))
        ratio = ("%.2fx" % (med["stock", n] / med["pdcm", n])
                 if ("stock", n) in med and ("pdcm", n) in med else "-")
        print("%6d | %s | %s | %s" % (n, cells[0], cells[1], ratio))
    lo, hi = ns[0], ns[-1]
    for cm in ("stock", "pdcm"):
        if (cm, lo) in med and (cm, hi) in med:
            print("%s at N=%d over N=%d: %.2fx" %
                  (NAMES[cm], hi, lo, med[cm, hi] / med[cm, lo]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
