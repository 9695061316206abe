# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# kDAPL against the in-tree CM, the pdcm side (B, 10.0.0.2; the other half
# is shim_kdapl_peer, which runs rdma-core's tools on the stock ib_cm and
# rdma_cm).
# (a) A PSP on conn_qual 7471 (rdma_cm's TCP port 7471) of the IA
#     10.0.0.2, in echo mode, takes the CR of A's rdma_client: the CR
#     carries B's address and A's address and source port, parsed from
#     the RDMA CM header; rdma_client's 16 bytes come back to it, and its
#     DREQ ends the connection.  A wildcard PSP on the same conn_qual gets
#     nothing.  A sends the source port its rdma_cm used (from its trace)
#     over TCP, so the CR's port is checked exactly.
# (b) An EP of that IA connects to A's rdma_server (conn_qual 7471), sends
#     16 bytes, receives 16 and is disconnected by the server.
. /pdcm/scenarios/shim_lib.sh
. /pdcm/scenarios/interop_lib.sh

PORT_FILE=/tmp/a_port

# dat_ok ARGS...: one dat_connect whose connection ended well
dat_ok() {
	st dat_connect "$@" || return 1
	st_is "dat_conn $(st_last dat_conn) " result ok
}

has_line() {
	grep -q -- "$1" "$ST/results" && return 0
	echo "no line '$1'"
	grep '^cr\|^sp\|^pep' "$ST/results"
	return 1
}

nc -l -p 9471 >"$PORT_FILE" 2>/dev/null &
st_setup shim_kdapl_pdcm "$VM_IP"
check ia_own_address st ia I "$VM_IP"
check ia_wildcard st ia W 0.0.0.0
# the address PSP first: a CR to 10.0.0.2 never sees the wildcard alone
check psp_own_address st psp PC I 7471 mode=echo msgs=1 size=16
check psp_wildcard st psp PW W 7471 mode=echo msgs=1 size=16
check_err psp_same_ia_conn_qual_refused "Address already in use" st psp PC2 I 7471
check refusal_is_conn_qual_in_use has_line "^sp PC2 refused err=-98 dat_status=1"

# (a) rdma_client -s 10.0.0.2
check rdma_client_cr wait_for '[ "$(st_get "sp PC " crs)" = 1 ]' 120
check rdma_client_disconnected wait_for 'st_is "pep 1 " disconnected 1' 30
st_note "cr "
st_note "sp "
st_note "pep "
check a_sent_its_port wait_for "[ -s $PORT_FILE ]" 30
aport=$(cat "$PORT_FILE")
kmsg "    # rdma_client's source port (A's rdma_cm trace): $aport"
check a_port_is_a_port sh -c "[ '$aport' -gt 0 ] && [ '$aport' -lt 65536 ]"
check cr_addresses_and_port has_line "^cr PC local=$VM_IP:7471 arrival=$VM_IP:7471 remote=$VM_PEER rport=$aport pdata= len=56\$"
check cr_accepted st_is "sp PC " accepted 1
check cr_not_rejected st_is "sp PC " rejected 0
check wildcard_psp_got_nothing st_is "sp PW " crs 0
check pep_on_pc st_is "pep 1 " sp PC
check pep_established st_is "pep 1 " established 1
check pep_not_failed st_is "pep 1 " failed 0
check pep_got_16_bytes st_is "pep 1 " rx_bytes 16
check pep_one_message st_is "pep 1 " rx 1/1
check pep_echoed_it st_is "pep 1 " tx 1
check pep_no_bad_receives st_is "pep 1 " rx_bad 0
check pep_no_bad_sends st_is "pep 1 " tx_bad 0
check_not only_one_pep grep -q '^pep 2 ' "$ST/results"

# (b) rdma_server -s 10.0.0.1: REJ 8 from A's ib_cm until it listens
check rdma_server_connect retry 60 dat_ok I "$VM_PEER" 7471 msgs=1 size=16 verify=0 remote=1 peer_disconnect=15 timeout=10
r="dat_conn $(st_last dat_conn) "
st_note "$r"
check rdma_server_16_bytes st_is "$r" rx_bytes 16
check rdma_server_one_message st_is "$r" rx 1/0/1
check rdma_server_took_ours st_is "$r" tx 1
check rdma_server_no_errors st_is "$r" bad 0
check rdma_server_disconnected_us st_is "$r" disconnect peer
st_teardown
