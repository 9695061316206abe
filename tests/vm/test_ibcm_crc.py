#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Host-side tests of scripts/ibcm-crc.sh, the gate of the ib_cm drop-in:
it must fail a build that exports a name the kernel's ib_cm does not, lacks
one it does, or differs in CRC, export type or namespace; and on a kernel
without MODVERSIONS it must compare names and say that it had no CRCs."""
import os
import subprocess
import tempfile
import unittest

GATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                    'scripts', 'ibcm-crc.sh')
KMOD = 'drivers/infiniband/core/ib_cm'
BMOD = '/build/compat/ib_cm'

# 6.1's names with made-up CRCs; 7.3 has ib_prepare_cm_mra instead of
# ib_send_cm_mra.
NAMES = ['ibcm_reject_msg', 'ib_create_cm_id', 'ib_destroy_cm_id', 'ib_cm_listen',
         'ib_cm_insert_listen', 'ib_send_cm_req', 'ib_send_cm_rep', 'ib_send_cm_rtu',
         'ib_send_cm_dreq', 'ib_send_cm_drep', 'ib_send_cm_rej', 'ib_send_cm_mra',
         'ib_send_cm_sidr_req', 'ib_send_cm_sidr_rep', 'ib_cm_notify',
         'ib_cm_init_qp_attr']
NAMES_73 = [n if n != 'ib_send_cm_mra' else 'ib_prepare_cm_mra' for n in NAMES]


def symvers(module, names, crc=lambda i: '0x%08x' % (0x1000 + i), ns=''):
    """Module.symvers lines: CRC, symbol, module, export type, namespace."""
    return ''.join('%s\t%s\t%s\tEXPORT_SYMBOL\t%s\n' % (crc(i), n, module, ns)
                   for i, n in enumerate(names))


# other modules' lines, which the gate must ignore
OTHERS = ('0x12345678\tib_register_client\tdrivers/infiniband/core/ib_core\t'
          'EXPORT_SYMBOL\t\n'
          '0x00000001\tpdcm_create_id\t/build/cm/ib_pdcm\tEXPORT_SYMBOL_GPL\tPDCM\n')


class Gate(unittest.TestCase):
    def run_gate(self, kernel, built, config=None):
        with tempfile.TemporaryDirectory() as d:
            kdir = os.path.join(d, 'kdir')
            os.mkdir(kdir)
            with open(os.path.join(kdir, 'Module.symvers'), 'w') as f:
                f.write(OTHERS + kernel)
            if config is not None:
                with open(os.path.join(kdir, '.config'), 'w') as f:
                    f.write(config)
            b = os.path.join(d, 'Module.symvers')
            with open(b, 'w') as f:
                f.write(built + OTHERS)
            p = subprocess.run(['bash', GATE, b, kdir], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True)
        return p.returncode, p.stdout

    def test_same_names_and_crcs_pass(self):
        rc, out = self.run_gate(symvers(KMOD, NAMES), symvers(BMOD, NAMES))
        self.assertEqual(rc, 0, out)
        self.assertIn('16/16 CRCs match', out)
        self.assertNotIn('no CRCs', out)

    def test_missing_name_fails(self):
        rc, out = self.run_gate(symvers(KMOD, NAMES), symvers(BMOD, NAMES[:-1]))
        self.assertEqual(rc, 1, out)
        self.assertIn('MISSING  ib_cm_init_qp_attr', out)

    def test_extra_name_fails(self):
        rc, out = self.run_gate(symvers(KMOD, NAMES),
                                symvers(BMOD, NAMES + ['ib_send_cm_lap']))
        self.assertEqual(rc, 1, out)
        self.assertIn('EXTRA    ib_send_cm_lap', out)

    def test_crc_difference_fails(self):
        rc, out = self.run_gate(symvers(KMOD, NAMES),
                                symvers(BMOD, NAMES, crc=lambda i: '0x%08x' % (0x1000 + i + (i == 3))))
        self.assertEqual(rc, 1, out)
        self.assertIn('DIFFERS  ib_cm_listen', out)
        self.assertIn('15/16 CRCs match', out)

    def test_namespace_fails(self):
        rc, out = self.run_gate(symvers(KMOD, NAMES), symvers(BMOD, NAMES, ns='PDCM'))
        self.assertEqual(rc, 1, out)
        self.assertIn('0/16', out)

    def test_no_modversions_compares_names_and_says_so(self):
        zero = lambda i: '0x00000000'  # noqa: E731
        rc, out = self.run_gate(symvers(KMOD, NAMES_73, crc=zero),
                                symvers(BMOD, NAMES_73, crc=zero),
                                config='# CONFIG_MODVERSIONS is not set\n')
        self.assertEqual(rc, 0, out)
        self.assertIn('16/16 names match, no CRCs (kernel without MODVERSIONS)', out)
        self.assertNotIn('CRCs match', out)

    # 6.1's ib_send_cm_mra on 7.3: the one name that changed
    def test_no_modversions_still_fails_on_the_old_mra(self):
        zero = lambda i: '0x00000000'  # noqa: E731
        rc, out = self.run_gate(symvers(KMOD, NAMES_73, crc=zero),
                                symvers(BMOD, NAMES, crc=zero))
        self.assertEqual(rc, 1, out)
        self.assertIn('MISSING  ib_prepare_cm_mra', out)
        self.assertIn('EXTRA    ib_send_cm_mra', out)
        self.assertIn('no CRCs', out)

    def test_no_kernel_exports_is_an_error(self):
        rc, out = self.run_gate('', symvers(BMOD, NAMES))
        self.assertEqual(rc, 2, out)


if __name__ == '__main__':
    unittest.main()
