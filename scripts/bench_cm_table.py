#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The table of `make bench-cm` from its guest's console.

Reads the "bench_cm: key=value ..." lines of tests/vm/scenarios/bench_cm.sh
(one per run of softib_ibcm's bench mode) and prints, per N and
concurrency, each CM's median over the rounds and the ratio pdcm/ib_cm:
handshakes/s, p50 and p99 setup time, retransmissions, and (with perf)
the CM's CPU time per handshake; then the held pass's slab memory per
connection, and where the guest's CPU time went per handshake, by module.
Documentation/performance.rst explains the columns.
"""
import re
import statistics
import sys

from bench_table import kv_fields

LINE = re.compile(r"bench_cm: (.*)$")
CMS = ["stock", "pdcm"]
NAMES = {"stock": "ib_cm", "pdcm": "pdcm"}
# the modules each CM's own code is in (the drop-in is named ib_cm too)
CM_MODULES = {"stock": ["ib_cm"], "pdcm": ["ib_cm", "ib_pdcm"]}
# where the time goes: these modules, the rest of the kernel, the others
PARTS = [("CM modules", None), ("ib_core", ["ib_core"]),
         ("softib", ["softib"]), ("client", ["softib_ibcm"]),
         ("kernel", ["kernel"]), ("idle", ["idle"])]



def read(path):
    """The runs of one console log, as dicts."""
    runs = []
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.search(line)
            if m:
                runs.append(kv_fields(m.group(1)))
    return runs


def samples(r, mods):
    return sum(r.get("samples_" + m, 0) for m in mods)


def cpu_us(r, mods):
    """CPU microseconds per handshake in these modules (perf's samples)."""
    if "period_ns" not in r or not r.get("n"):
        return None
    return samples(r, mods) * r["period_ns"] / 1000.0 / r["n"]


def cm_cpu_us(r, cm):
    return cpu_us(r, CM_MODULES[cm])


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, digits=0):
    if v is None:
        return "-"
    if digits == 0:
        return f"{v:,.0f}"
    return f"{v:,.{digits}f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}x"


def row(cells):
    return "| " + " | ".join(cells) + " |"


def table(runs):
    out = []
    timed = [r for r in runs if r.get("hold") == 0]
    held = [r for r in runs if r.get("hold") == 1]
    keys = []
    for r in timed:
        k = (int(r["n"]), str(r["conc_word"]), int(r["conc"]))
        if k not in keys:
            keys.append(k)
    perf = any("period_ns" in r for r in timed)
    rounds = max((int(r["round"]) for r in runs), default=0)
    out.append(f"bench-cm: {rounds} round(s); medians; ratio = pdcm / ib_cm")
    head = ["N", "conc", "handshakes/s ib_cm", "pdcm", "ratio",
            "p50 ms ib_cm", "pdcm", "p99 ms ib_cm", "pdcm",
            "retrans. ib_cm", "pdcm"]
    if perf:
        head += ["CM CPU us/hs ib_cm", "pdcm", "ratio"]
    out.append(row(head))
    out.append(row(["---"] * len(head)))
    failed = []
    for n, cw, conc in keys:
        by = {}
        for cm in CMS:
            rs = [r for r in timed if r["cm"] == cm and int(r["n"]) == n
                  and int(r["conc"]) == conc]
            failed += [f"{cm} n={n} conc={conc} round={int(r['round'])}: "
                       f"{r.get('result')} ok={fmt(r.get('ok'))}"
                       for r in rs if r.get("result") != "ok"]
            by[cm] = {
                "hs": med(r.get("hs_per_s") for r in rs),
                "p50": med(r.get("p50_us", 0) / 1000 for r in rs),
                "p99": med(r.get("p99_us", 0) / 1000 for r in rs),
                "re": med(r.get("retries") for r in rs),
                "cpu": med(cm_cpu_us(r, cm) for r in rs),
            }
        s, p = by["stock"], by["pdcm"]
        cells = [fmt(n), "N" if cw == "N" else fmt(conc),
                 fmt(s["hs"]), fmt(p["hs"]), ratio(p["hs"], s["hs"]),
                 fmt(s["p50"], 2), fmt(p["p50"], 2),
                 fmt(s["p99"], 2), fmt(p["p99"], 2),
                 fmt(s["re"]), fmt(p["re"])]
        if perf:
            cells += [fmt(s["cpu"], 1), fmt(p["cpu"], 1),
                      ratio(p["cpu"], s["cpu"])]
        out.append(row(cells))
    if held:
        out.append("")
        out.append("held: N connections established at once (both ends in "
                   "the guest), the kernel's slab growth per connection")
        head = ["N", "bytes/conn ib_cm", "pdcm", "ratio"]
        out.append(row(head))
        out.append(row(["---"] * len(head)))
        for n in sorted({int(r["n"]) for r in held}):
            by = {cm: med(r["slab_held_bytes"] / r["n"] for r in held
                          if r["cm"] == cm and int(r["n"]) == n
                          and r.get("result") == "ok") for cm in CMS}
            out.append(row([fmt(n), fmt(by["stock"]), fmt(by["pdcm"]),
                            ratio(by["pdcm"], by["stock"])]))
    if perf:
        out.append("")
        out.append("where the guest's CPU time went, us per handshake "
                   "(perf cpu-clock samples, each charged to the innermost "
                   "RDMA module of its call chain)")
        head = ["N", "conc", "CM"] + [p for p, _ in PARTS] + ["other", "all"]
        out.append(row(head))
        out.append(row(["---"] * len(head)))
        for n, cw, conc in keys:
            for cm in CMS:
                rs = [r for r in timed if r["cm"] == cm and
                      int(r["n"]) == n and int(r["conc"]) == conc
                      and "period_ns" in r]
                if not rs:
                    continue
                cells = [fmt(n), "N" if cw == "N" else fmt(conc), NAMES[cm]]
                named = []
                for _, mods in PARTS:
                    mods = mods or CM_MODULES[cm]
                    named += mods
                    cells.append(fmt(med(cpu_us(r, mods) for r in rs), 1))
                allm = med(cpu_us(r, ["all"]) for r in rs)
                rest = med((cpu_us(r, ["all"]) or 0) - (cpu_us(r, named) or 0)
                           for r in rs)
                cells += [fmt(rest, 1), fmt(allm, 1)]
                out.append(row(cells))
    if failed:
        out.append("")
        out.append("runs that did not complete: " + "; ".join(failed))
    return "\n".join(out)


def main(argv):
    runs = []
    for path in argv[1:]:
        runs += read(path)
    if not runs:
        print("bench-cm: no bench_cm lines", file=sys.stderr)
        return 1
    print(table(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
