#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Strict reader of a pdcm guest console log.

Counts every KTAP case between the guest's begin and end markers (KUnit
suites and shell scenarios alike), and adds two cases per guest of its own:
  <guest>.completed      the end marker is there and every suite that began
                         also ended, with as many results as its plan says;
  <guest>.console_clean  no BUG, WARNING, lockdep, KASAN, RCU or hung-task
                         report anywhere on the console.
A crashed, hung or truncated guest therefore fails, never passes.

Prints one line per case (PASS/FAIL/SKIP), diagnostics for failures, and a
last line "counts: P F S" for the caller to add up.  Exit status is 1 if
anything failed.
"""
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
BAD = re.compile(r'BUG:|WARNING:|Oops|Kernel panic|general protection fault|'
                 r'Call Trace:|UBSAN:|KASAN:|ODEBUG:|unreferenced object|'
                 r'INFO: task|detected stall|possible circular|'
                 r'possible recursive|inconsistent lock state|'
                 r'suspicious RCU usage|sleeping function called|'
                 r'refcount_t:|list_add corruption|list_del corruption|'
                 r'disagrees about version')
RESULT = re.compile(r'^(not ok|ok) (\d+)(?: -)? ([^#]*?)\s*(?:#\s*(SKIP|skip)\b\s*(.*))?$')


def read_lines(path):
    with open(path, 'rb') as f:
        raw = f.read().decode('utf-8', 'replace')
    return [TS.sub('', l.rstrip('\r')) for l in raw.split('\n')]


def parse(path, guest):
    lines = read_lines(path)
    cases, problems = [], []      # cases: (name, status, diag)
    began = ended = False
    suite = None                  # [name, results, plan, diag, wanted]
    finished_suites = set()
    wanted = []
    diag = []

    for line in lines:
        if 'pdcm-vm: begin' in line:
            began = True
            continue
        if not began:
            continue
        if 'pdcm-vm: end' in line:
            ended = True
            break
        m = re.search(r'pdcm-vm: suites: (.*)', line)
        if m:
            wanted = m.group(1).split()
            continue
        indent = len(line) - len(line.lstrip(' '))
        body = line.strip()
        if indent == 4 and body.startswith('# Subtest:'):
            if suite:
                problems.append(f'suite {suite[0]} has no result line')
            suite = [body.split(':', 1)[1].strip(), 0, None]
            diag = []
            continue
        if suite is None:
            continue
        if indent == 4 and re.match(r'^1\.\.\d+$', body):
            suite[2] = int(body[3:])
            continue
        if indent >= 4 and body.startswith('#'):
            diag.append(body)
            continue
        m = RESULT.match(body)
        if not m:
            continue
        status = 'FAIL' if m.group(1) == 'not ok' else ('SKIP' if m.group(4) else 'PASS')
        name = m.group(3).strip()
        if indent == 4:
            suite[1] += 1
            cases.append((f'{suite[0]}.{name}', status, diag if status == 'FAIL' else []))
            diag = []
        elif indent == 0:
            if name != suite[0]:
                problems.append(f'suite result "{name}" closes suite "{suite[0]}"')
            if suite[2] is None:
                problems.append(f'suite {suite[0]}: no plan line')
            elif suite[2] != suite[1]:
                problems.append(f'suite {suite[0]}: plan 1..{suite[2]} but {suite[1]} results')
            if status == 'FAIL' and not any(c[0].startswith(suite[0] + '.') and c[1] == 'FAIL' for c in cases):
                problems.append(f'suite {suite[0]} failed outside its cases')
            finished_suites.add(suite[0])
            suite = None

    if not began:
        problems.append('no begin marker: the guest never reached /init')
    if began and not ended:
        problems.append('no end marker: the guest crashed, hung or was killed')
    if suite:
        problems.append(f'suite {suite[0]} never finished')
    for w in wanted:
        if w not in finished_suites:
            problems.append(f'suite {w} was registered but reported no result')
    cases.append((f'{guest}.completed', 'FAIL' if problems else 'PASS', problems))

    bad = [l for l in lines if BAD.search(l)]
    cases.append((f'{guest}.console_clean', 'FAIL' if bad else 'PASS', bad[:30]))
    return cases


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: ktap.py CONSOLE_LOG GUEST_NAME')
    cases = parse(sys.argv[1], sys.argv[2])
    counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
    for name, status, diag in cases:
        counts[status] += 1
        print(f'{status} {name}')
        for d in diag:
            print(f'    {d}')
    print(f'counts: {counts["PASS"]} {counts["FAIL"]} {counts["SKIP"]}')
    sys.exit(1 if counts['FAIL'] else 0)


if __name__ == '__main__':
    main()
