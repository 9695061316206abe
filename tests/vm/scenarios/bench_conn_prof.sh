# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `BENCH_PROFILE=1 make bench-conn`: where the time of a cmtime run goes,
# on the stock ib_cm and on pdcm's drop-in.  perf (copied into the guest)
# samples the whole guest on its software clock (TCG has no PMU) during
# one cmtime client run of N (the first of pdcmvm.bench_n) over rxe
# loopback; the flat profile by symbol and by module goes to the console
# as "bench_prof: CM ..." lines.
. /pdcm/scenarios/bench_conn_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin bench_conn_prof
N=${BC_NS%% *}
for cm in stock pdcm; do
	check "${cm}_up" bc_up $cm
	bc_server_start
	check "${cm}_warmup" bc_warmup "$VM_IP"
	check "${cm}_perf_record" perf record -a -F 499 -o /tmp/perf.$cm -- \
		cmtime -s "$VM_IP" -p $BC_PORT -c "$N"
	bc_server_stop
	for s in dso sym; do
		perf report -i /tmp/perf.$cm --stdio --sort $s --percent-limit 0.4 2>/dev/null |
			grep -v '^#' | grep -v '^$' | head -n 60 |
			while IFS= read -r l; do kmsg "bench_prof: $cm $s $l"; done
	done
	sleep 1
	check "${cm}_down" retry 30 bc_down $cm
done
suite_end
