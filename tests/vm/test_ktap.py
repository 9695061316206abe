#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Host-side tests of tests/vm/ktap.py: the console reader must fail every
broken guest it is shown, or a green `make check` would mean nothing."""
import glob
import os
import re
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


# What GOOD's guest declares (tests/vm/expected's form, parsed).
DECLARED = {'kunit': {'pdcm_demo': 2}}

# A shell scenario's guest: the KUnit suites, then kunit.sh's own suite.
LOADED = GOOD.replace('[    8.200000] pdcm-vm: end', """\
[    8.110000]     # Subtest: kunit_load
[    8.110001]     ok 1 rxe0_added
[    8.110002]     ok 2 modprobe_pdcm_kunit
[    8.110003]     ok 3 rmmod_all
[    8.110004]     1..3
[    8.110005] ok 2 kunit_load
[    8.200000] pdcm-vm: end""")
LOADED_DECLARED = {'kunit': {'pdcm_demo': 2, 'kunit_load': 3}}

HERE = os.path.dirname(os.path.abspath(__file__))


def slurp(path):
    with open(path) as f:
        return f.read()


def on_console(text, fn):
    """fn(path) of a temporary console log holding text"""
    with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
        f.write(text)
    try:
        return fn(f.name)
    finally:
        os.unlink(f.name)


def run(text, scenario=None, expected=None):
    return on_console(text, lambda path: {
        name: (status, diag) for name, status, diag in
        ktap.parse(path, 'g', scenario, DECLARED if expected is None else expected)})


class KtapReader(unittest.TestCase):
    def test_counts_each_case(self):
        r = run(GOOD)
        self.assertEqual(r['pdcm_demo.first'][0], 'PASS')
        self.assertEqual(r['pdcm_demo.second'][0], 'FAIL')
        self.assertEqual(r['pdcm_demo.third'][0], 'SKIP')
        self.assertEqual(r['g.completed'][0], 'PASS')
        self.assertEqual(r['g.console_clean'][0], 'PASS')
        self.assertEqual(r['g.declared'][0], 'PASS')
        self.assertEqual(len(r), 6)

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
                      'unreferenced object 0xffff888003a1c000 (size 64):',
                      'tsc: PIT calibration deviates from HPET: 539921 2439655',
                      "clocksource: timekeeping watchdog on CPU0: Marking clocksource"
                      " 'tsc' as unstable because the skew is too large:"):
            with self.subTest(splat=splat):
                r = run(GOOD.replace('Linux version 6.1.192', splat))
                self.assertEqual(r['g.console_clean'][0], 'FAIL')

    def test_splat_says_where(self):
        # a boot crash's FAIL line must place it: CI prints only a part
        # of the output, not the guest's console
        oops = (GOOD.split('[    7.900000]')[0] +
                '[    2.1] Oops: general protection fault, maybe for address 0x10: 0000 [#1]\n'
                '[    2.1] CPU: 0 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.57\n'
                '[    2.1] RIP: 0010:kmem_cache_alloc_noprof+0x9a/0x2f0\n'
                '[    2.1] Code: 48 8b 50 08\n'
                '[    2.1] Call Trace:\n'
                '[    2.1]  <TASK>\n'
                '[    2.1]  ? die_addr+0x3c/0x60\n'
                '[    2.1]  alloc_inode+0x1c/0xa0\n'
                '[    2.1]  </TASK>\n'
                '[    2.2] Kernel panic - not syncing: Fatal exception\n')
        diag = run(oops)['g.console_clean'][1]
        for line in ('Oops: general protection fault, maybe for address 0x10: 0000 [#1]',
                     'RIP: 0010:kmem_cache_alloc_noprof+0x9a/0x2f0',
                     'CPU: 0 UID: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.57',
                     ' ? die_addr+0x3c/0x60', ' alloc_inode+0x1c/0xa0'):
            self.assertIn(line, diag)
        self.assertNotIn('Code: 48 8b 50 08', diag)

    def test_boot_crash_only_before_init(self):
        # booted again by check.sh: a splat with no begin marker only
        def crash(text):
            return on_console(text, ktap.boot_crash)
        early = ('[    0.1] Linux version 6.12\n'
                 '[    2.1] Oops: general protection fault, maybe for address 0x10\n'
                 '[    2.2] Kernel panic - not syncing: Fatal exception\n')
        self.assertEqual(crash(early), 'Oops: general protection fault, maybe for address 0x10')
        # a crash once /init ran is pdcm's to answer for: never retried
        late = GOOD.replace('[    8.000004]', '[    8.0] Oops: general protection fault\n[    8.000004]')
        self.assertEqual(run(late)['g.console_clean'][0], 'FAIL')
        self.assertIsNone(crash(late))
        # a guest that hung before /init, or booted fine, is not a crash
        self.assertIsNone(crash('[    0.1] Linux version 6.12\n'))
        self.assertIsNone(crash(GOOD))

    def test_suite_failing_outside_cases_fails(self):
        text = GOOD.replace('not ok 2 second', 'ok 2 second')
        self.assertEqual(run(text)['g.completed'][0], 'FAIL')



class Declarations(unittest.TestCase):
    """Each guest runs what tests/vm/expected declares, or fails."""

    def test_declared_suites_pass(self):
        r = run(LOADED, 'kunit', LOADED_DECLARED)
        self.assertEqual(r['g.declared'], ('PASS', []))
        self.assertEqual(r['g.completed'][0], 'PASS')

    # one guest, two scenarios in turn (tests/vm/init's "A+B")
    GROUP = ('[ 1.0] pdcm-vm: begin scenario=one+two kernel=6.1 kind=stock\n'
             '[ 1.1] KTAP version 1\n'
             '[ 1.2] pdcm-vm: scenario one\n'
             '[ 1.3]     # Subtest: one\n'
             '[ 1.4]     ok 1 a\n'
             '[ 1.5]     1..1\n'
             '[ 1.6] ok 1 one\n'
             '[ 1.7] pdcm-vm: scenario two\n'
             '[ 1.8]     # Subtest: two\n'
             '[ 1.9]     ok 1 b\n'
             '[ 2.0]     ok 2 c\n'
             '[ 2.1]     1..2\n'
             '[ 2.2] ok 1 two\n'
             '[ 2.3] pdcm-vm: end scenario=one+two\n')
    GROUP_DECLARED = {'one': {'one': 1}, 'two': {'two': 2}}

    def test_group_reports_each_scenario(self):
        r = run(self.GROUP, 'one+two', self.GROUP_DECLARED)
        self.assertEqual(r['g.declared'], ('PASS', []))
        self.assertEqual(r['g.completed'], ('PASS', []))
        self.assertEqual([r[c][0] for c in ('one.a', 'two.b', 'two.c')], ['PASS'] * 3)

    def test_group_missing_a_scenario_fails(self):
        # the second scenario stopped early: one case fewer than declared
        r = run(self.GROUP.replace('[ 2.0]     ok 2 c\n', '').replace('1..2', '1..1'),
                'one+two', self.GROUP_DECLARED)
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('suite two: 1 results not skipped, declared at least 2', r['g.declared'][1])
        r = run(self.GROUP, 'one+two', {'one': {'one': 1}})
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('scenario "two" is not declared in tests/vm/expected', r['g.declared'][1])

    def test_group_sharing_a_suite_fails(self):
        r = run(self.GROUP, 'one+two', {'one': {'one': 1}, 'two': {'one': 1, 'two': 2}})
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('suite one is declared by two scenarios of "one+two"', r['g.declared'][1])

    def test_group_reset_failure_fails(self):
        # tests/vm/lib.sh's vm_reset could not unload a module between two
        text = self.GROUP.replace('[ 1.7] pdcm-vm: scenario two\n',
                                  '[ 1.65] pdcm-vm: between scenarios: still loaded: ib_pdcm\n'
                                  '[ 1.7] pdcm-vm: scenario two\n')
        r = run(text, 'one+two', self.GROUP_DECLARED)
        self.assertEqual(r['g.completed'][0], 'FAIL')
        self.assertIn('pdcm-vm: between scenarios: still loaded: ib_pdcm', r['g.completed'][1])

    def test_group_barrier_timeout_fails(self):
        # tests/vm/lib.sh's vm_barrier: the pair's peer never came
        text = self.GROUP.replace('[ 1.7] pdcm-vm: scenario two\n',
                                  '[ 1.65] pdcm-vm: between scenarios: the peer 10.0.0.2'
                                  ' never reached barrier 1\n[ 1.7] pdcm-vm: scenario two\n')
        r = run(text, 'one+two', self.GROUP_DECLARED)
        self.assertEqual(r['g.completed'][0], 'FAIL')
        self.assertIn('pdcm-vm: between scenarios: the peer 10.0.0.2 never reached barrier 1',
                      r['g.completed'][1])

    def test_missing_scenario_file_fails(self):
        # what init prints when /pdcm/scenarios/NAME.sh is not there
        text = ('[ 1.0] pdcm-vm: begin scenario=ulp_gone kernel=6.1 kind=stock\n'
                '[ 1.1] KTAP version 1\n'
                "[ 1.2] pdcm-vm: no scenario 'ulp_gone' (fails the guest)\n"
                '[ 1.3] pdcm-vm: end scenario=ulp_gone\n')
        r = run(text, 'ulp_gone', {'ulp_gone': {'ulp_gone': 20}})
        self.assertEqual(r['g.completed'][0], 'FAIL')
        self.assertIn("pdcm-vm: no scenario 'ulp_gone' (fails the guest)",
                      r['g.completed'][1])
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('declared suite ulp_gone reported no result', r['g.declared'][1])

    def test_renamed_kunit_suite_fails(self):
        r = run(LOADED.replace('pdcm_demo', 'pdcm_demo2'), 'kunit', LOADED_DECLARED)
        self.assertEqual(r['g.completed'][0], 'PASS')  # the log itself is whole
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('declared suite pdcm_demo reported no result', r['g.declared'][1])
        self.assertIn('suite pdcm_demo2 ran but is not declared for "kunit"',
                      r['g.declared'][1])

    def test_short_suite_fails(self):
        r = run(LOADED, 'kunit', {'kunit': {'pdcm_demo': 2, 'kunit_load': 4}})
        self.assertEqual(r['g.completed'][0], 'PASS')
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('suite kunit_load: 3 results not skipped, declared at least 4',
                      r['g.declared'][1])

    def test_skipped_cases_do_not_count(self):
        # pdcm_demo has 3 results, one of them a skip: 2 ran
        r = run(LOADED, 'kunit', {'kunit': {'pdcm_demo': 3, 'kunit_load': 3}})
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('suite pdcm_demo: 2 results not skipped, declared at least 3',
                      r['g.declared'][1])
        text = LOADED.replace('    not ok 2 second', '    ok 2 second # SKIP gone')
        r = run(text, 'kunit', LOADED_DECLARED)
        self.assertEqual(r['g.declared'][0], 'FAIL')

    def test_more_cases_than_declared_pass(self):
        r = run(LOADED, 'kunit', {'kunit': {'pdcm_demo': 1, 'kunit_load': 1}})
        self.assertEqual(r['g.declared'][0], 'PASS')

    def test_module_that_never_loaded_fails(self):
        # modprobe failed before any suite ran: only kunit.sh's suite is there
        text = LOADED.split('[    8.000000]')[0] + """\
[    8.100000] pdcm-vm: suites: \n[    8.110000]     # Subtest: kunit_load
[    8.110001]     ok 1 rxe0_added
[    8.110002]     # modprobe_pdcm_kunit: exit status 1
[    8.110003]     not ok 2 modprobe_pdcm_kunit
[    8.110004]     not ok 3 rmmod_all
[    8.110005]     1..3
[    8.110006] not ok 1 kunit_load
[    8.200000] pdcm-vm: end scenario=kunit
"""
        r = run(text, 'kunit', LOADED_DECLARED)
        self.assertEqual(r['kunit_load.modprobe_pdcm_kunit'][0], 'FAIL')
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('declared suite pdcm_demo reported no result', r['g.declared'][1])

    def test_module_that_failed_after_its_suites_fails(self):
        # the suites ran while the module was coming up, then its init failed
        text = LOADED.replace('ok 2 modprobe_pdcm_kunit', 'not ok 2 modprobe_pdcm_kunit') \
                     .replace('ok 2 kunit_load', 'not ok 2 kunit_load')
        r = run(text, 'kunit', LOADED_DECLARED)
        self.assertEqual(r['kunit_load.modprobe_pdcm_kunit'][0], 'FAIL')
        self.assertEqual(r['g.declared'][0], 'PASS')

    def test_undeclared_scenario_fails(self):
        r = run(GOOD, 'kunit', {'other': {'pdcm_demo': 3}})
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertIn('scenario "kunit" is not declared in tests/vm/expected', r['g.declared'][1])

    def test_booted_other_scenario_fails(self):
        r = run(GOOD, 'ulp_rc', {'kunit': {'pdcm_demo': 3}, 'ulp_rc': {'pdcm_demo': 3}})
        self.assertEqual(r['g.declared'][0], 'FAIL')

    def test_suite_reported_twice_fails(self):
        again = GOOD.split('[    8.000000]')[1].split('[    8.100000]')[0]
        text = GOOD.replace('[    8.100000]', '[    8.050000]' + again + '[    8.100000]')
        r = run(text, 'kunit')
        self.assertEqual(r['g.completed'][0], 'FAIL')

    def test_no_guest_output_fails(self):
        r = run('', 'kunit')
        self.assertEqual(r['g.declared'][0], 'FAIL')
        self.assertEqual(r['g.completed'][0], 'FAIL')

    def test_bad_declaration_refused(self):
        for line in ('ulp_rc', 'ulp_rc ulp_rc', 'ulp_rc ulp_rc:0', 'ulp_rc a:1 a:2',
                     'ulp_rc a:1\nulp_rc b:1'):
            with self.subTest(line=line):
                with tempfile.NamedTemporaryFile('w', delete=False) as f:
                    f.write(line + '\n')
                try:
                    with self.assertRaises(ValueError):
                        ktap.read_expected(f.name)
                finally:
                    os.unlink(f.name)


class DeclarationFile(unittest.TestCase):
    """tests/vm/expected and tests/vm/scenarios/ agree, file by file: a
    scenario deleted, added or whose suites were renamed fails here on the
    host, before any guest boots."""

    @classmethod
    def setUpClass(cls):
        cls.expected = ktap.read_expected()
        cls.files = {os.path.basename(p)[:-3]: p
                     for p in glob.glob(os.path.join(HERE, 'scenarios', '*.sh'))
                     if not p.endswith('_lib.sh')}

    def test_every_scenario_file_declared(self):
        self.assertEqual(sorted(set(self.files) - set(self.expected)), [])

    def test_every_declared_scenario_has_a_file(self):
        self.assertEqual(sorted(set(self.expected) - set(self.files)), [])

    def test_shell_suites_match_their_files(self):
        for name, path in self.files.items():
            text = slurp(path)
            named = set(re.findall(r'^\s*suite_begin (\w+)', text, re.M))
            named |= set(re.findall(r"^\s*st_setup (\w+)", text, re.M))
            if not named:
                continue
            with self.subTest(scenario=name):
                shell = {s for s in self.expected[name] if not s.startswith('pdcm_')}
                self.assertEqual(sorted(named), sorted(shell))

    def test_kunit_suites_match_the_sources(self):
        # each suite declared with exactly its number of KUNIT_CASEs: a
        # case deleted from a suite's table must be undeclared on purpose
        cases = {}
        for p in glob.glob(os.path.join(HERE, '..', 'kunit', '*_test.c')):
            text = slurp(p)
            for name in re.findall(r'\.name\s*=\s*"(pdcm_\w+)"', text):
                cases[name] = len(re.findall(r'^\s*KUNIT_CASE', text, re.M))
        declared = {s: n for s, n in self.expected['kunit'].items() if s.startswith('pdcm_')}
        self.assertEqual(declared, cases)


if __name__ == '__main__':
    unittest.main()
