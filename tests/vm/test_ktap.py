#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Host-side tests of tests/vm/ktap.py: the console reader must fail every
broken guest it is shown, or a green `make check` would mean nothing."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402

GOOD = """\
[    1.000000] Linux version 6.1.192
[    7.900000] pdcm-vm: begin scenario=kunit kernel=6.1.192 kind=kunit
[    7.900001] KTAP version 1
[    8.000000]     KTAP version 1
[    8.000001]     # Subtest: pdcm_demo
[    8.000002]     1..3
[    8.000003]     ok 1 first
[    8.000004]     # second: EXPECTATION FAILED at x.c:1
[    8.000005]     not ok 2 second
[    8.000006]     ok 3 third # SKIP no rxe0 ib_device
[    8.000007] not ok 1 pdcm_demo
[    8.100000] pdcm-vm: suites: pdcm_demo
[    8.200000] pdcm-vm: end scenario=kunit
"""


def run(text):
    with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
        f.write(text)
    try:
        return {name: (status, diag) for name, status, diag in ktap.parse(f.name, 'g')}
    finally:
        os.unlink(f.name)


class KtapReader(unittest.TestCase):
    def test_counts_each_case(self):
        r = run(GOOD)
        self.assertEqual(r['pdcm_demo.first'][0], 'PASS')
        self.assertEqual(r['pdcm_demo.second'][0], 'FAIL')
        self.assertEqual(r['pdcm_demo.third'][0], 'SKIP')
        self.assertEqual(r['g.completed'][0], 'PASS')
        self.assertEqual(r['g.console_clean'][0], 'PASS')
        self.assertEqual(len(r), 5)

    def test_failure_keeps_diagnostics(self):
        self.assertIn('# second: EXPECTATION FAILED at x.c:1', run(GOOD)['pdcm_demo.second'][1])

    def test_missing_end_marker_fails(self):
        r = run(GOOD.replace('pdcm-vm: end', 'something else'))
        self.assertEqual(r['g.completed'][0], 'FAIL')

    def test_never_reached_init_fails(self):
        r = run('[    0.1] Linux version\n[    0.2] Kernel panic - not syncing\n')
        self.assertEqual(r['g.completed'][0], 'FAIL')
        self.assertEqual(r['g.console_clean'][0], 'FAIL')

    def test_truncated_suite_fails(self):
        cut = GOOD.split('[    8.000006]')[0] + '[    8.2] pdcm-vm: end\n'
        self.assertEqual(run(cut)['g.completed'][0], 'FAIL')

    def test_plan_mismatch_fails(self):
        r = run(GOOD.replace('1..3', '1..4'))
        self.assertEqual(r['g.completed'][0], 'FAIL')

    def test_registered_suite_without_result_fails(self):
        r = run(GOOD.replace('suites: pdcm_demo', 'suites: pdcm_demo pdcm_other'))
        self.assertEqual(r['g.completed'][0], 'FAIL')

    def test_splats_fail_the_console(self):
        for splat in ('BUG: KASAN: slab-use-after-free in x',
                      'WARNING: CPU: 0 PID: 1 at kernel/x.c:1 f+0x1/0x2',
                      'WARNING: possible circular locking dependency detected',
                      'BUG: sleeping function called from invalid context',
                      'rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:',
                      'unreferenced object 0xffff888003a1c000 (size 64):'):
            with self.subTest(splat=splat):
                r = run(GOOD.replace('Linux version 6.1.192', splat))
                self.assertEqual(r['g.console_clean'][0], 'FAIL')

    def test_suite_failing_outside_cases_fails(self):
        text = GOOD.replace('not ok 2 second', 'ok 2 second')
        self.assertEqual(run(text)['g.completed'][0], 'FAIL')


if __name__ == '__main__':
    unittest.main()
