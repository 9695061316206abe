#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What the summary line of a `make check` counted, by source.

usage: breakdown.py CHECK_OUTPUT [LOGS_DIR]

CHECK_OUTPUT is the saved output of scripts/check.sh (its PASS/FAIL/SKIP
lines); LOGS_DIR (default build/logs) holds each guest's .result file,
from which the guest cases are attributed.  Prints one line per source:
the harness self-tests, style gates, host-side steps, each KUnit suite
and each scenario (cases per run, the guests that ran it, of which how
many are repeats on the KUnit kernel, on 6.12 and across the two), the
per-guest health cases, the
setup and teardown steps among the scenario cases, and the total, which
must equal the summary line.
"""
import glob
import os
import re
import sys

# Scenario cases that bring the guest up or take it down (ulp_lib.sh,
# shim_lib.sh) rather than test a behaviour.
SETUP = {'load_ib_pdcm', 'port_claimed', 'load_pdcm_ulp', 'load_shim_test',
         'gids_for_all_addresses', 'close', 'nothing_live',
         'rdma_resources_back', 'rmmod_pdcm_ulp', 'rmmod_shim_test',
         'nothing_left_at_unload', 'rmmod_shims', 'pdcm_holds_no_id',
         'rmmod_ib_pdcm'}
HEALTH = ('completed', 'declared', 'console_clean')
# Guests that repeat a scenario of 6.1's stock guests elsewhere, by name.
REPEATS = (('kunit_', 'on the 6.1 KUnit kernel'), ('k612_', 'on 6.12'),
           ('cross_', 'across 6.1 and 6.12'))
LINE = re.compile(r'^(PASS|FAIL|SKIP) (\S+)')


def lines(path):
    try:
        with open(path, errors='replace') as f:
            return [m.groups() for m in map(LINE.match, f) if m]
    except OSError:
        return []


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    logs = sys.argv[2] if len(sys.argv) == 3 else 'build/logs'
    out = lines(sys.argv[1])

    rows = []           # (source, cases, detail)
    repeats = {}        # REPEATS prefix: cases
    suites = {}         # suite: {guest: cases}
    health = setup = attributed = 0
    for path in sorted(glob.glob(os.path.join(logs, '*.result'))):
        guest = os.path.basename(path)[:-len('.result')]
        for _, name in lines(path):
            attributed += 1
            if name.startswith(guest + '.') and name[len(guest) + 1:] in HEALTH:
                health += 1
                continue
            suite, _, case = name.partition('.')
            g = suites.setdefault(suite, {})
            g[guest] = g.get(guest, 0) + 1
            setup += case in SETUP
    uml = [l for p in sorted(glob.glob(os.path.join(logs, '*uml.out')))
           for l in lines(p)]
    dkms = [l for p in sorted(glob.glob(os.path.join(logs, '*dkms.out')))
            for l in lines(p)]
    attributed += len(uml) + len(dkms)
    host = {}
    for _, name in out:
        key = name.split('.', 1)[0]
        host[key] = host.get(key, 0) + 1
    for key, what in (('host', 'harness self-tests'), ('style', 'style gates'),
                      ('build', 'module builds')):
        rows.append((what, host.get(key, 0), ''))
    rows.append(('UML (kunit.py: the KUnit suites of 6.12)', len(uml), ''))
    rows.append(('packaging (install, DKMS)', len(dkms), ''))
    for suite in sorted(suites):
        g = suites[suite]
        detail = ', '.join(f'{k} {v}' for k, v in sorted(g.items()))
        for prefix, where in REPEATS:
            rep = sum(v for k, v in g.items() if k.startswith(prefix))
            if rep:
                detail += f'; {rep} {where}'
                repeats[prefix] = repeats.get(prefix, 0) + rep
        rows.append((suite, sum(g.values()), detail))
    rows.append(('guest health (3 per guest)', health, ''))
    known = sum(r[1] for r in rows)
    rows.append(('other', len(out) - known, ''))
    for what, n, detail in rows:
        print(f'{what:40} {n:6}  {detail}'.rstrip())
    for prefix, where in REPEATS:
        print(f'{"repeated " + where:40} {repeats.get(prefix, 0):6}')
    print(f'{"total":40} {len(out):6}  of which {setup} scenario setup/teardown steps')


if __name__ == '__main__':
    main()
