#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Strict reader of a pdcm guest console log.

Counts every KTAP case between the guest's begin and end markers (KUnit
suites and shell scenarios alike), and adds three cases per guest of its own:
  <guest>.completed      the end marker is there, /init found the scenario
                         (each of them, for "A+B"; and could reset the
                         guest, and meet its pair's peer, between two),
                         and every suite that began
                         also ended, with as many results as its plan says;
  <guest>.declared       the suites that tests/vm/expected declares for the
                         guest's scenario all reported, each with at least
                         its declared number of results, and no other suite
                         did (a missing scenario file, a renamed or
                         unloaded KUnit suite, a scenario that stopped
                         early all fail here);
  <guest>.console_clean  no BUG, WARNING, lockdep, KASAN, RCU or hung-task
                         report anywhere on the console, and no clock the
                         kernel found wrong (TSC calibration, watchdog).
A crashed, hung or truncated guest therefore fails, never passes.

Prints one line per case (PASS/FAIL/SKIP), diagnostics for failures, and a
last line "counts: P F S" for the caller to add up.  Exit status is 1 if
anything failed.
"""
import os
import re
import sys

TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
# tests/vm/init's first line: /init runs
BEGIN = 'pdcm-vm: begin'
BAD = re.compile(r'BUG:|WARNING:|Oops|Kernel panic|general protection fault|'
                 r'Call Trace:|UBSAN:|KASAN:|ODEBUG:|unreferenced object|'
                 r'INFO: task|detected stall|possible circular|'
                 r'possible recursive|inconsistent lock state|'
                 r'suspicious RCU usage|sleeping function called|'
                 r'refcount_t:|list_add corruption|list_del corruption|'
                 r'disagrees about version|'
                 # a clock wrong by the guest's own measure: a TSC timed
                 # against a starved PIT (scripts/vm.sh, tsc_early_khz)
                 r'PIT calibration deviates|as unstable because the skew')
EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'expected')
RESULT = re.compile(r'^(not ok|ok) (\d+)(?: -)? ([^#]*?)\s*(?:#\s*(SKIP|skip)\b\s*(.*))?$')


def read_lines(path):
    with open(path, 'rb') as f:
        raw = f.read().decode('utf-8', 'replace')
    return [TS.sub('', l.rstrip('\r')) for l in raw.split('\n')]


def read_expected(path=EXPECTED):
    """The declarations: {scenario: {suite: minimum number of results}}.
    One line per scenario, "SCENARIO SUITE:MIN...", '#' starts a comment."""
    table = {}
    with open(path) as f:
        for no, line in enumerate(f, 1):
            words = line.split('#', 1)[0].split()
            if not words:
                continue
            if words[0] in table:
                raise ValueError(f'{path}:{no}: {words[0]} declared twice')
            suites = {}
            for w in words[1:]:
                name, _, n = w.partition(':')
                if not name or not n.isdigit() or int(n) < 1 or name in suites:
                    raise ValueError(f'{path}:{no}: bad declaration "{w}"')
                suites[name] = int(n)
            if not suites:
                raise ValueError(f'{path}:{no}: {words[0]} declares no suite')
            table[words[0]] = suites
    return table


def check_declared(scenario, finished, expected):
    """Problems of a guest's suites against its scenario's declaration;
    finished maps each suite that reported to its number of results that
    ran (ok or not ok; a skip does not count toward the minimum).  A
    guest that ran several scenarios in turn ("A+B", tests/vm/init) must
    report the suites of each."""
    want, problems = {}, []
    for part in scenario.split('+'):
        if part not in expected:
            problems.append(f'scenario "{part}" is not declared in tests/vm/expected')
            continue
        for name, n in expected[part].items():
            if name in want:
                problems.append(f'suite {name} is declared by two scenarios of "{scenario}"')
            want[name] = n
    if problems:
        return problems
    for name, n in want.items():
        if name not in finished:
            problems.append(f'declared suite {name} reported no result')
        elif finished[name] < n:
            problems.append(f'suite {name}: {finished[name]} results not skipped, '
                            f'declared at least {n}')
    for name in finished:
        if name not in want:
            problems.append(f'suite {name} ran but is not declared for "{scenario}"')
    return problems


def parse(path, guest, scenario=None, expected=None):
    """The guest's cases.  scenario: what the host booted it with (checked
    against the begin marker; None takes the marker's); expected: the
    declarations (None reads tests/vm/expected)."""
    lines = read_lines(path)
    cases, problems = [], []      # cases: (name, status, diag)
    began = ended = False
    suite = None                  # [name, results, plan, diag, wanted]
    finished_suites = {}          # name: number of results
    booted = None                 # the scenario in the begin marker
    wanted = []
    diag = []

    for line in lines:
        if BEGIN in line:
            began = True
            m = re.search(BEGIN + r' scenario=(\S*)', line)
            booted = m.group(1) if m else ''
            continue
        if not began:
            continue
        if 'pdcm-vm: end' in line:
            ended = True
            break
        if 'pdcm-vm: no scenario' in line or 'pdcm-vm: between scenarios:' in line:
            problems.append(line.strip())
            continue
        m = re.search(r'pdcm-vm: suites: (.*)', line)
        if m:
            wanted = m.group(1).split()
            continue
        indent = len(line) - len(line.lstrip(' '))
        body = line.strip()
        if indent == 4 and body.startswith('# Subtest:'):
            if suite:
                problems.append(f'suite {suite[0]} has no result line')
            suite = [body.split(':', 1)[1].strip(), 0, None, 0]
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
            suite[3] += status != 'SKIP'
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
            if suite[0] in finished_suites:
                problems.append(f'suite {suite[0]} reported twice')
            finished_suites[suite[0]] = finished_suites.get(suite[0], 0) + suite[3]
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

    if scenario is not None and booted is not None and scenario != booted:
        declared = [f'booted as "{booted}", expected "{scenario}"']
    elif scenario is None and booted is None:
        declared = ['no begin marker: the scenario is unknown']
    else:
        try:
            table = read_expected() if expected is None else expected
            declared = check_declared(scenario if scenario is not None else booted,
                                      finished_suites, table)
        except (OSError, ValueError) as e:
            declared = [f'declarations unreadable: {e}']
    cases.append((f'{guest}.declared', 'FAIL' if declared else 'PASS', declared))

    bad = [l for l in lines if BAD.search(l)]
    cases.append((f'{guest}.console_clean', 'FAIL' if bad else 'PASS',
                  (bad[:30] + where(lines)) if bad else []))
    return cases


FRAME = re.compile(r'^\s*(\? )?[A-Za-z_][\w.]*\+0x[0-9a-f]+/0x[0-9a-f]+')


def where(lines, frames=8):
    """Where the first splat happened, for its FAIL detail: the first
    'CPU:' and 'RIP:' lines and up to FRAMES lines of the first call
    trace (CI prints only a part of the output, so a boot crash must be
    placed by what the failure line itself says)."""
    out = []
    for tag in ('CPU: ', 'RIP: '):
        out += [l for l in lines if tag in l][:1]
    for i, l in enumerate(lines):
        if 'Call Trace:' in l:
            out += [f for f in lines[i + 1:i + 1 + 3 * frames]
                    if FRAME.search(f)][:frames]
            break
    return out


def boot_crash(path):
    """The first splat line of a guest that crashed before its /init ran
    (no begin marker), or None.  Nothing of pdcm's has run by then, so
    check.sh boots such a guest once more (and says so)."""
    lines = read_lines(path)
    if any(BEGIN in l for l in lines):
        return None
    return next((l for l in lines if BAD.search(l)), None)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--boot-crash':
        crash = boot_crash(sys.argv[2])
        if crash:
            print(crash)
        sys.exit(0 if crash else 1)
    if len(sys.argv) not in (3, 4):
        sys.exit('usage: ktap.py CONSOLE_LOG GUEST_NAME [SCENARIO] | --boot-crash CONSOLE_LOG')
    cases = parse(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
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
