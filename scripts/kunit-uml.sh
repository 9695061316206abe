#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The KUnit suites the upstream way: pdcm linked into a copy of Debian's
# linux-source-LINE as drivers/infiniband/ulp/pdcm, built in (IB_PDCM=y,
# IB_PDCM_KUNIT_TEST=y) and run by tools/testing/kunit/kunit.py on UML.
#
#   kunit-uml.sh [LINE]        LINE 6.12 (default) or 7.3 (make check's), or 6.1
#                              (7.3's source comes through the trixie build
#                              root's apt: common.sh, source_tarball)
#   kunit-uml.sh LINE build    the build alone (kunit.py build), no output
#                              but kunit.py's (stderr): make check starts
#                              it beside the KUnit kernel's build, and
#                              its run later finds the kernel built
#
#   source  $PDCM_CACHE/uml-src-<ver>/linux-source-LINE: `cp -al` of the
#           pristine tree (hard links); the two files that gain pdcm's
#           entries are rewritten as new files, so the pristine tree is never
#           touched (checked every run).  pdcm itself is an rsync copy of the
#           checkout minus .git and everything .gitignore names (in-place
#           `make` leaves .o/.cmd files, which an O= build must not see),
#           refreshed by content (--checksum, no -t): a changed file gets a
#           new mtime, so make rebuilds it even when the checkout's mtime
#           went backwards (another PDCM_UML_CHECKOUT, a restored file).
#   build   $PDCM_CACHE/uml-build-<ver>-<hash of the kunitconfig files:
#           tests/vm/uml.kunitconfig, uml-LINE.kunitconfig if there is one>;
#           pdcm edits rebuild incrementally.
#
# stdout: one line per case of every pdcm_* suite (PASS/FAIL/SKIP suite.case),
# plus uml.console_clean, then "counts: P F S".  kunit.py's own output goes
# to stderr.  Exit status 1 if anything failed.
#
# PDCM_UML_KASAN=1 builds with KASAN as well (tests/vm/uml-kasan.kunitconfig;
# its own build directory).  PDCM_UML_CHECKOUT=/dir runs another pdcm tree
# (e.g. a `git archive` snapshot) instead of $PDCM_TOP; PDCM_UML_TIMEOUT
# bounds the test run (s).
set -uo pipefail
. "$(dirname "$0")/common.sh"

line=${1:-6.12}
mode=${2:-run}
checkout=${PDCM_UML_CHECKOUT:-$PDCM_TOP}
kcfgs=("$PDCM_TOP/tests/vm/uml.kunitconfig")
# what only LINE's UML has (6.1's UML cannot preempt: no DEBUG_ATOMIC_SLEEP)
[ ! -f "$PDCM_TOP/tests/vm/uml-$line.kunitconfig" ] ||
	kcfgs+=("$PDCM_TOP/tests/vm/uml-$line.kunitconfig")
[ "${PDCM_UML_KASAN:-0}" = 0 ] || kcfgs+=("$PDCM_TOP/tests/vm/uml-kasan.kunitconfig")
timeout=${PDCM_UML_TIMEOUT:-300}

# Failures before any test ran are still reported as a case and a counts line.
fail() {
	log "error: $2"
	echo "FAIL $1"
	echo "    $2"
	[ -s "${kout:-}" ] && grep -E 'error:|ERROR:|No rule|undefined reference|Missing:' "$kout" | head -n 20 | sed 's/^/    /'
	echo "counts: 0 1 0"
	exit 1
}

ver=$(source_version "$line") || fail uml.source "linux-source-$line is not installed"
key=$(cat "${kcfgs[@]}" | sha256sum | cut -c1-12)
pristine=$(pristine_source "$line") || fail uml.source "cannot unpack linux-source-$line"
top=$PDCM_CACHE/uml-src-$ver
tree=$top/linux-source-$line
build=$PDCM_CACHE/uml-build-$ver-$key
edited="drivers/infiniband/Kconfig drivers/infiniband/ulp/Makefile"

mkdir -p "$PDCM_CACHE"
exec 9>"$PDCM_CACHE/uml-$ver.lock"
flock 9

# rewrite FILE: stdin becomes FILE's content as a new inode (never write
# through the hard link into the pristine tree).
rewrite() {
	cat >"$1.pdcm-new" && mv -f "$1.pdcm-new" "$1"
}

if [ ! -f "$tree/.pdcm-linked" ]; then
	log "linking $tree (hard links to $pristine)"
	rm -rf "$top.tmp"
	mkdir -p "$top.tmp"
	cp -al "$pristine" "$top.tmp/linux-source-$line" || fail uml.source "cp -al failed"
	t=$top.tmp/linux-source-$line
	(cd "$pristine" && sha256sum $edited) >"$t/.pdcm-pristine.sha256"
	# after the last ULP's Kconfig (opa_vnic's up to 6.12; 7.x has none)
	awk 'FNR == NR { if (/^source "drivers\/infiniband\/ulp\//) last = FNR; next }
		{ print } FNR == last { print "source \"drivers/infiniband/ulp/pdcm/Kconfig\""; n++ }
		END { exit n != 1 }' "$t/drivers/infiniband/Kconfig" "$t/drivers/infiniband/Kconfig" |
		rewrite "$t/drivers/infiniband/Kconfig" || fail uml.source "cannot add pdcm to drivers/infiniband/Kconfig"
	{ cat "$t/drivers/infiniband/ulp/Makefile"; printf 'obj-$(CONFIG_IB_PDCM)\t\t\t+= pdcm/\n'; } |
		rewrite "$t/drivers/infiniband/ulp/Makefile" || fail uml.source "cannot add pdcm to drivers/infiniband/ulp/Makefile"
	touch "$t/.pdcm-linked"
	rm -rf "$top"
	mv "$top.tmp" "$top"
fi

# The pristine tree must be exactly what it was, and the edited files must
# not share its inodes.
(cd "$pristine" && sha256sum --quiet -c "$tree/.pdcm-pristine.sha256") >&2 ||
	fail uml.source "the pristine tree $pristine was modified: remove $PDCM_CACHE/src-$ver and $top"
for f in $edited; do
	[ "$(stat -c %i "$pristine/$f")" != "$(stat -c %i "$tree/$f")" ] ||
		fail uml.source "$tree/$f is still a hard link to the pristine tree"
done

rsync -rl --checksum --delete --delete-excluded --exclude=/.git --filter=':- .gitignore' \
	"$checkout/" "$tree/drivers/infiniband/ulp/pdcm/" || fail uml.source "rsync of $checkout failed"

# kunit.py's arguments for this kernel, the same to build and to run
kargs=(--arch=um "${kcfgs[@]/#/--kunitconfig=}" --build_dir="$build" --jobs="$JOBS")
if [ "$mode" = build ]; then
	mkdir -p "$build"
	t0=$SECONDS
	(cd "$tree" && python3 tools/testing/kunit/kunit.py build "${kargs[@]}") >&2
	rc=$?
	log "kunit.py build: exit $rc after $((SECONDS - t0)) s"
	exit "$rc"
fi

json=$build/pdcm-results.json kout=$build/pdcm-kunit.out
mkdir -p "$build"
rm -f "$json" "$kout"
t0=$SECONDS
log "kunit.py run --arch=um in $build"
(cd "$tree" && python3 tools/testing/kunit/kunit.py run "${kargs[@]}" \
	--timeout="$timeout" --json="$json" 'pdcm*') 2>&1 | tee "$kout" >&2
rc=${PIPESTATUS[0]}
log "kunit.py: exit $rc after $((SECONDS - t0)) s"
[ -s "$json" ] || fail uml.build "kunit.py produced no results: build or config failed ($kout)"

python3 - "$json" "$build/test.log" "$rc" "$PDCM_TOP/tests/vm" <<'EOF'
import json
import re
import sys

path, log, rc, vmdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.dont_write_bytecode = True
sys.path.insert(0, vmdir)
from ktap import BAD, TS, read_expected  # the same rules as the qemu guests


def status_of(group):
    # A parameterised case is a group of its parameters: it fails if one
    # fails (or crashed: ERROR), skips if all skip.
    st = [c['status'] for c in group['test_cases']] + \
         [status_of(g) for g in group['sub_groups']]
    if any(s not in ('PASS', 'SKIP') for s in st):
        return 'FAIL'
    if st and all(s == 'SKIP' for s in st):
        return 'SKIP'
    return 'PASS'


def suites(group):
    for g in group['sub_groups']:
        if g['name'].startswith('pdcm_'):
            yield g
        else:
            yield from suites(g)


# Diagnostics and order from the console (test.log): suites at indent 0,
# cases at 4, parameters at 8; a failed case gets the lines printed since the
# previous case result.
try:
    lines = open(log, errors='replace').read().splitlines()
except OSError:
    lines = ['no console log']
RESULT = re.compile(r'^(not ok|ok) \d+ (?:- )?([^#]*?)\s*(?:#.*)?$')
NOISE = re.compile(r'^(KTAP version \d+|1\.\.\d+|# Subtest: .*|# \S+: pass:\d+ .*)$')
order, diag, suite, buf = {}, {}, None, []
for line in lines:
    line = TS.sub('', line)
    indent = len(line) - len(line.lstrip(' '))
    body = line.strip()
    if indent == 4 and body.startswith('# Subtest:'):
        suite, buf = body.split(':', 1)[1].strip(), []
        continue
    if suite is None:
        continue
    m = RESULT.match(body)
    if m and indent == 0:
        suite = None
    elif m and indent == 4:
        name = f'{suite}.{m.group(2)}'
        order.setdefault(name, len(order))
        if m.group(1) == 'not ok':
            diag[name] = buf
        buf = []
    elif not m and body and not NOISE.match(body):
        buf.append(body)

with open(path) as f:
    root = json.load(f)
cases = []
for s in suites(root):
    for i, c in enumerate(s['test_cases'], 1):
        st = c['status'] if c['status'] in ('PASS', 'SKIP') else 'FAIL'
        # A case the kernel never reported (it crashed) has no name.
        cases.append((f"{s['name']}.{c['name'] or f'missing_{i}'}", st))
    for g in s['sub_groups']:
        cases.append((f"{s['name']}.{g['name']}", status_of(g)))
cases.sort(key=lambda c: order.get(c[0], len(order)))
if not cases:
    cases.append(('uml.pdcm_suites_ran', 'FAIL'))
elif rc and not any(st == 'FAIL' for _, st in cases):
    cases.append(('uml.run', 'FAIL'))      # kunit.py failed for another reason

# The whole UML console: pdcm's init ran at boot, built in.  UML's virt-pci
# always warns once when no virtio device ID is configured; that block is
# expected and skipped (6.1 names um_pci_init in its trace; 6.12 prints the
# freed __init function as an address, so its message is matched too).
bad, block = [], []
for line in lines:
    if 'cut here' in line:
        block = [line]
        continue
    if block:
        block.append(line)
        if 'end trace' in line:
            if not any('um_pci_init' in l or 'No virtio device ID configured' in l
                       for l in block):
                bad += [l for l in block if BAD.search(l)] or block[:3]
            block = []
        continue
    if BAD.search(line):
        bad.append(line)
bad += [l for l in block if BAD.search(l)]
cases.append(('uml.console_clean', 'FAIL' if bad else 'PASS'))
diag['uml.console_clean'] = bad[:30]

# The KUnit suites tests/vm/expected declares for the kunit guest, each
# with at least its declared number of cases, and no other pdcm suite.
try:
    # pdcm_ibcm tests the ib_cm drop-in, which is out of tree only (in a
    # kernel tree the in-tree ib_cm exports the same symbols)
    want = {s: n for s, n in read_expected()['kunit'].items()
            if s.startswith('pdcm_') and s != 'pdcm_ibcm'}
    ran = {}
    for s in suites(root):
        ran[s['name']] = len(s['test_cases']) + len(s['sub_groups'])
    problems = [f'declared suite {s} did not run' for s in want if s not in ran]
    problems += [f'suite {s}: {ran[s]} cases, declared at least {n}'
                 for s, n in want.items() if s in ran and ran[s] < n]
    problems += [f'suite {s} ran but is not declared' for s in ran if s not in want]
except (OSError, KeyError, ValueError) as e:
    problems = [f'declarations unreadable: {e}']
cases.append(('uml.declared', 'FAIL' if problems else 'PASS'))
diag['uml.declared'] = problems

counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
for name, st in cases:
    counts[st] += 1
    print(f'{st} {name}')
    for d in (diag.get(name, []) if st == 'FAIL' else []):
        print(f'    {d}')
print(f"counts: {counts['PASS']} {counts['FAIL']} {counts['SKIP']}")
sys.exit(1 if counts['FAIL'] else 0)
EOF
