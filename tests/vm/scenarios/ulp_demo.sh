# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make demo` with the test ULP: three listeners on one port (two
# addresses and a wildcard), connections to each address, and a table of
# which listener took which REQ and what each connection moved.  Lines
# prefixed "pdcm-demo:" are what scripts/demo.sh shows the user.
. /pdcm/scenarios/ulp_lib.sh

demo() { kmsg "pdcm-demo: $*"; }
PORT=7000

net_up
rxe_add rxe0 eth0
for a in 11 12 13; do
	ip addr add 10.0.0.$a/24 dev eth0
done
suite_begin ulp_demo
ulp_setup
check gids_ready wait_for "rxe_has_gids $VM_IP 10.0.0.11 10.0.0.12 10.0.0.13" 10
res0=$(rdma_res)
demo "rdma devices: $(rdma link show | tr '\n' ';')"
demo "eth0: $(ip -4 -o addr show dev eth0 | awk '{print $4}' | tr '\n' ' ')"
check listen_a ulp listen A tcp:$PORT 10.0.0.11
check listen_b ulp listen B tcp:$PORT 10.0.0.12
check listen_w ulp listen W tcp:$PORT any
demo ""
demo "three listeners on TCP port $PORT (service ID $(ulp_get 'listener A ' sid)),"
demo "told apart by the destination address in the RDMA CM header:"
demo "    A  10.0.0.11"
demo "    B  10.0.0.12"
demo "    W  any address"
demo ""
for d in 10.0.0.11 10.0.0.12 10.0.0.13 "$VM_IP"; do
	check "connect_$d" ulp connect 2 tcp:$PORT "$d" 4 1024 timewait=0
done
check none_failed sh -c "! grep '^run ' $ULP/results | grep -v ' failed=0 '"

demo "connection  destination  listener  REQ->REP  echoed  result"
awk '/^conn / {
	for (i = 4; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	printf "%-11s %-12s %-9s %6d us %6d B  %s\n", $2 "." $3, f["dst"],
	       f["listener"], f["setup_us"], f["verified"], f["result"]
}' "$ULP/conns" | while IFS= read -r l; do demo "$l"; done
demo ""
demo "listener  address    REQs  established  bytes verified"
awk '/^listener / {
	for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	printf "%-9s %-10s %4d  %11d  %14d\n", $2, f["addr"], f["reqs"],
	       f["established"], f["bytes"]
}' "$ULP/results" | while IFS= read -r l; do demo "$l"; done
check a_took_its_own ulp_is "listener A " reqs 2
check b_took_its_own ulp_is "listener B " reqs 2
check w_took_the_rest ulp_is "listener W " reqs 4

demo ""
if ls -d /sys/class/infiniband/rxe0/ports/1/cm_* >/dev/null 2>&1; then
	demo "CM port counters (/sys/class/infiniband/rxe0/ports/1/cm_*):"
	for g in /sys/class/infiniband/rxe0/ports/1/cm_*; do
		c=$(cd "$g" && for f in *; do printf '%s=%s ' "$f" "$(cat "$f")"; done)
		demo "    ${g##*/}: $c"
	done
else
	demo "pdcm's ports (/sys/kernel/debug/pdcm/ports):"
	while IFS= read -r l; do demo "    $l"; done </sys/kernel/debug/pdcm/ports
fi
ulp_teardown "$res0"
suite_end
