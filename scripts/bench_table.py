#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The table of `make bench-conn` from its guests' consoles.

Reads the "bench_conn: key=value ..." lines the bench_conn scenarios
write (tests/vm/scenarios/bench_conn_lib.sh), one console log per setup
(one guest; for the two-guest run "CLIENT.log:SERVER.log"), and prints, per setup
and N, each CM's median with the round-to-round range [min..max], and the
ratio pdcm/ib_cm: of the medians, and its range over the rounds (each
round's pdcm run against the same round's ib_cm run).
Documentation/performance.rst explains the columns.
"""
import re
import statistics
import sys

LINE = re.compile(r"bench_conn: (.*)$")
DROPS = re.compile(r"bench_conn_drops: (.*)$")
STEPS = ["create_id", "resolve_addr", "resolve_route", "create_qp",
         "connect", "disconnect", "destroy"]
COUNTS = ["req_sent", "req_rcvd", "req_lost", "cm_drops", "req_retries",
          "rep_retries", "dreq_retries", "req_dups", "rep_dups", "mra",
          "rej", "errors"]
CMS = ["stock", "pdcm", "native", "pdcm1024", "pdcm0", "pdcm3k", "pdcmlo"]
NAMES = {"stock": "ib_cm", "pdcm": "pdcm", "native": "native",
         "pdcm1024": "pdcm, listen_backlog=0",
         "pdcm0": "pdcm, early_mra_pct=0",
         "pdcm3k": "pdcm, max_pending_reqs=3072",
         "pdcmlo": "pdcm, wq_highpri=0"}


def kv_fields(text):
    """The key=value words of a console line, numbers as floats."""
    d = {}
    for kv in text.split():
        k, _, v = kv.partition("=")
        try:
            d[k] = float(v)
        except ValueError:
            d[k] = v
    return d


def parse(paths, loopback):
    runs, mems, srv, drops = [], [], [], []
    for line in lines(paths):
        m = DROPS.search(line)
        if m:
            drops.append(kv_fields(m.group(1)))
            continue
        m = LINE.search(line)
        if not m:
            continue
        d = kv_fields(m.group(1))
        if "cm" not in d:
            continue    # a note ("cmtime server died; restarting it")
        if d.get("side") == "server":
            srv.append(d)
        elif "mem" in d:
            mems.append(d)
        else:
            if d.get("connect"):
                d["cps"] = d["n"] * 1000.0 / d["connect"]
            if loopback and num(d.get("req_sent")) and \
                    num(d.get("req_rcvd")):
                # both ends count on one port in one guest: what the
                # CM sent and never received was lost below it
                d["req_lost"] = d["req_sent"] - d["req_rcvd"]
            runs.append(d)
    return runs, mems, srv, drops


def lines(paths):
    for path in paths.split(":"):
        with open(path, errors="replace") as f:
            yield from f


def fmt(v):
    if not num(v):
        return "-" if v is None else str(v)
    if abs(v) >= 100 or v == int(v):
        return "%d" % round(v)
    if abs(v) >= 10:
        return "%.1f" % v
    return "%.2f" % v


def num(v):
    return isinstance(v, float)


def cell(vals):
    vals = [v for v in vals if num(v)]
    if not vals:
        return "-"
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt(med)
    return "%s [%s..%s]" % (fmt(med), fmt(min(vals)), fmt(max(vals)))


def ratio(a, b):
    """pdcm/ib_cm of the medians, and the range of the per-round ratios."""
    ma = [v for v in a.values() if num(v)]
    mb = [v for v in b.values() if num(v)]
    if not ma or not mb:
        return "-"
    mda, mdb = statistics.median(ma), statistics.median(mb)
    if mdb == 0:
        return "-" if mda == 0 else "inf"
    per = [a[r] / b[r] for r in a if r in b and num(a[r]) and num(b[r])
           and b[r]]
    s = "%.2f" % (mda / mdb)
    if len(per) > 1:
        s += " [%.2f..%.2f]" % (min(per), max(per))
    return s


def drop_lines(drops):
    """pdcm's drops by message and reason, per CM and N (round medians)."""
    keys = sorted({k for d in drops for k in d
                   if k not in ("cm", "round", "n")})
    if not keys:
        return
    print()
    print("pdcm's drops during the cmtime runs (pdcm_drop tracepoint), "
          "median over the rounds:")
    for cm in CMS:
        for n in sorted({int(d["n"]) for d in drops if d["cm"] == cm}):
            ds = [d for d in drops if d["cm"] == cm and int(d["n"]) == n]
            cells = []
            for k in keys:
                vals = [d.get(k, 0.0) for d in ds]
                med = statistics.median(vals)
                if med:
                    cells.append("%s %s" % (k, fmt(float(med))))
            print("  %-28s N=%-6d %s" % (NAMES[cm], n,
                                         ", ".join(cells) or "none"))


def table(title, runs, mems, srv, drops=()):
    ns = sorted({int(r["n"]) for r in runs})
    rounds = sorted({int(r["round"]) for r in runs})
    print("== %s: %d round(s); median [min..max] over the rounds" %
          (title, len(rounds)))
    w = [22, 24, 24, 20, 22, 22, 22, 22, 22]
    hdr = ["", "ib_cm", "pdcm (drop-in)", "pdcm/ib_cm", "pdcm native (ULP)",
           "drop-in, backlog 1024", "drop-in, no early MRA",
           "drop-in, 3072 REQs", "drop-in, normal prio"]
    for n in ns:
        print()
        print("".join(("N=%d" % n if i == 0 else h).ljust(w[i])
                      for i, h in enumerate(hdr)).rstrip())
        by = {cm: {int(r["round"]): r for r in runs
                   if r["cm"] == cm and int(r["n"]) == n} for cm in CMS}
        keys = [("connections/s", "cps")] + \
            [("%s ms" % s.replace("_", " "), s) for s in STEPS] + \
            [(k.replace("_", " "), k) for k in COUNTS]
        for label, k in keys:
            col = {cm: {rd: r.get(k) for rd, r in by[cm].items()}
                   for cm in CMS}
            if all(v is None for cm in CMS for v in col[cm].values()):
                continue
            row = [label, cell(col["stock"].values()),
                   cell(col["pdcm"].values()),
                   ratio(col["pdcm"], col["stock"]),
                   cell(col["native"].values()),
                   cell(col["pdcm1024"].values()),
                   cell(col["pdcm0"].values()),
                   cell(col["pdcm3k"].values()),
                   cell(col["pdcmlo"].values())]
            print("".join(c.ljust(w[i]) for i, c in enumerate(row)).rstrip())
    if mems:
        print()
        n = int(mems[0]["n"])
        print("memory, %d connections live (both ends in this guest), "
              "bytes per connection side:" % n)
        for label, k in [("CM modules' slab", "cm_per_side"),
                         ("all slab (whole stack)", "slab_per_side"),
                         ("live connections", "live"),
                         ("trace events lost", "lost")]:
            col = {cm: {int(m["round"]): m.get(k) for m in mems
                        if m["cm"] == cm} for cm in ("stock", "pdcm")}
            row = [label, cell(col["stock"].values()),
                   cell(col["pdcm"].values()),
                   ratio(col["pdcm"], col["stock"])
                   if k.endswith("side") else ""]
            print("".join(c.ljust(w[i]) for i, c in enumerate(row)).rstrip())
    if srv:
        print()
        print("server guest's counters, each CM's whole slot (all N):")
        for k in COUNTS[:-1]:
            col = {cm: {int(m["round"]): m.get(k) for m in srv
                        if m["cm"] == cm} for cm in ("stock", "pdcm")}
            row = [k.replace("_", " "), cell(col["stock"].values()),
                   cell(col["pdcm"].values()),
                   ratio(col["pdcm"], col["stock"])]
            print("".join(c.ljust(w[i]) for i, c in enumerate(row)).rstrip())
    drop_lines(list(drops))
    bad = [r for r in runs if r.get("rc") or r.get("errors")]
    for r in bad:
        print("!! %s round %d N=%d: rc=%s errors=%s" %
              (NAMES[r["cm"]], r["round"], r["n"], fmt(r.get("rc")),
               fmt(r.get("errors"))))
    print()


def main():
    titles = ["one guest, rxe loopback (both ends on one CM)",
              "two guests (server 10.0.0.1, client 10.0.0.2, both on the CM)"]
    for path in sys.argv[1:]:
        pair = ":" in path      # CLIENT.log:SERVER.log
        runs, mems, srv, drops = parse(path, not pair)
        if not runs:
            print("== %s: no measurements in %s" % (titles[pair], path))
            continue
        table(titles[pair], runs, mems, srv, drops)


if __name__ == "__main__":
    main()
