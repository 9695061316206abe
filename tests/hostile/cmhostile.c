// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmhostile: a CM peer that sends whatever it is told to.
 *
 * A userspace program over libibumad that owns the CM MAD class (0x07,
 * version 2) on one port of a guest without ib_cm, and speaks to pdcm in
 * the other guest: it completes handshakes of its own (so that it knows
 * live comm IDs and QPNs), forges messages against them, floods, storms
 * and fuzzes, and logs every answer.  RoCE only: every MAD carries a GRH
 * to the peer's RoCE v2 GID (::ffff:PEER_IPV4).
 *
 *   cmhostile -d DEV -p PORT -g PEER_IPV4 [-s SRC_IPV4] [-v] < script
 *
 * The script has one command per line (Documentation/robustness.rst):
 *
 *   connect N SID [rtu=0|1] [qpn=BASE]   N handshakes of our own
 *   forge TYPE [wrong=local|none] [field=V ...]
 *                 TYPE (rej|dreq|rtu|mra|drep|rep) against every conn:
 *                 right remote comm ID (pdcm's), wrong sender comm ID
 *   dreq          a legitimate DREQ on every established conn
 *   rej           a legitimate REJ on every conn with a REP and no RTU
 *   wait SID SECS handshakes to SID until one gets a REP (a barrier)
 *   answer_dreq 0|1   whether pdcm's DREQs get our DREP (default 1)
 *   serve SECS [cross=1]   answer pdcm's REQs with REPs for SECS; with
 *                 cross=1 its DREQs get our DREQ instead of a DREP
 *   crossed SECS  after pdcm's DREQs (unanswered), our own DREQs: count
 *                 the DREPs and the DREQs that still come
 *   send TYPE [field=V ...]   one MAD, fields as given
 *   flood N SID [probe_sid=SID] [probe_every=K] [after_sid=SID]
 *                 N REQs, each a new comm ID and QPN, never answered;
 *                 with probe_sid, a full handshake to it every K REQs
 *                 and one after the last, timed; with after_sid, then
 *                 one more to after_sid (the flooded listen itself),
 *                 its REQ sent again every 250 ms as a CM retries it,
 *                 timed from the first
 *   storm N SID   per established conn, N REQs (each sent 4 times) from
 *                 its QPN with new comm IDs
 *   reuse SID     REQ, take the REJ, REQ again from the same QP: the
 *                 second REJ must not be STALE_CONN
 *   fuzz N SEED SID   N MADs mutated field by field from valid ones
 *   drain MS      receive for MS milliseconds
 *   stats         counts of what was sent and received, by type
 *
 * Results are "key=value" lines on stdout; the scenario checks them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <infiniband/umad.h>

#define MAD_SIZE	256
#define HDR		24		/* the MAD header; fields count after it */
#define CM_CLASS	0x07
#define CM_VERSION	2
#define METHOD_SEND	0x03
#define GSI_QKEY	0x80010000u
#define MAX_CONNS	4096

enum {
	A_REQ = 0x10, A_MRA, A_REJ, A_REP, A_RTU, A_DREQ, A_DREP,
	A_SIDR_REQ, A_SIDR_REP, A_LAP, A_APR,
	A_FIRST = A_REQ, A_LAST = A_APR,
};

static const char *const attr_names[] = {
	"req", "mra", "rej", "rep", "rtu", "dreq", "drep", "sidr_req",
	"sidr_rep", "lap", "apr",
};

/* one field: byte offset after the header, first bit (0 = MSB), width */
struct field {
	uint8_t attr;
	const char *name;
	uint16_t byte;
	uint8_t bit;
	uint8_t width;
};

#define F(a, n, o, b, w) { A_##a, n, o, b, w }
/* a REQ path at @o (primary 52, alternate 96), prefix @p */
#define PATH(p, o)							\
	F(REQ, p "local_lid", (o), 0, 16),				\
	F(REQ, p "remote_lid", (o) + 2, 0, 16),				\
	F(REQ, p "local_gid_hi", (o) + 4, 0, 64),			\
	F(REQ, p "local_gid_lo", (o) + 12, 0, 64),			\
	F(REQ, p "remote_gid_hi", (o) + 20, 0, 64),			\
	F(REQ, p "remote_gid_lo", (o) + 28, 0, 64),			\
	F(REQ, p "flow_label", (o) + 36, 0, 20),			\
	F(REQ, p "packet_rate", (o) + 39, 2, 6),			\
	F(REQ, p "traffic_class", (o) + 40, 0, 8),			\
	F(REQ, p "hop_limit", (o) + 41, 0, 8),				\
	F(REQ, p "sl", (o) + 42, 0, 4),					\
	F(REQ, p "subnet_local", (o) + 42, 4, 1),			\
	F(REQ, p "local_ack_timeout", (o) + 43, 0, 5)

/* IBA Vol. 1 ch. 12, Tables 106-120 (pdcm's cm/wire.c has the same) */
static const struct field fields[] = {
	F(REQ, "local_comm_id", 0, 0, 32), F(REQ, "vendor_id", 5, 0, 24),
	F(REQ, "service_id", 8, 0, 64), F(REQ, "local_ca_guid", 16, 0, 64),
	F(REQ, "rsvd24", 24, 0, 32),
	F(REQ, "local_qkey", 28, 0, 32), F(REQ, "local_qpn", 32, 0, 24),
	F(REQ, "responder_resources", 35, 0, 8), F(REQ, "local_eecn", 36, 0, 24),
	F(REQ, "initiator_depth", 39, 0, 8), F(REQ, "remote_eecn", 40, 0, 24),
	F(REQ, "remote_cm_response_timeout", 43, 0, 5),
	F(REQ, "transport_type", 43, 5, 2), F(REQ, "flow_control", 43, 7, 1),
	F(REQ, "starting_psn", 44, 0, 24),
	F(REQ, "local_cm_response_timeout", 47, 0, 5),
	F(REQ, "retry_count", 47, 5, 3), F(REQ, "pkey", 48, 0, 16),
	F(REQ, "path_mtu", 50, 0, 4), F(REQ, "rdc_exists", 50, 4, 1),
	F(REQ, "rnr_retry_count", 50, 5, 3), F(REQ, "max_cm_retries", 51, 0, 4),
	F(REQ, "srq", 51, 4, 1), F(REQ, "ext_transport_type", 51, 5, 3),
	PATH("p_", 52), PATH("a_", 96),
	F(REQ, "sap_supported", 139, 5, 1), F(REQ, "rsvd139", 139, 6, 2),
	F(REQ, "pdata0", 140, 0, 64), F(REQ, "pdata_dst", 172, 0, 32),

	F(MRA, "local_comm_id", 0, 0, 32), F(MRA, "remote_comm_id", 4, 0, 32),
	F(MRA, "msg_mraed", 8, 0, 2), F(MRA, "rsvd8", 8, 2, 6),
	F(MRA, "service_timeout", 9, 0, 5), F(MRA, "rsvd9", 9, 5, 3),

	F(REJ, "local_comm_id", 0, 0, 32), F(REJ, "remote_comm_id", 4, 0, 32),
	F(REJ, "msg_rejected", 8, 0, 2), F(REJ, "rsvd8", 8, 2, 6),
	F(REJ, "ari_len", 9, 0, 7), F(REJ, "rsvd9", 9, 7, 1),
	F(REJ, "reason", 10, 0, 16), F(REJ, "ari0", 12, 0, 64),

	F(REP, "local_comm_id", 0, 0, 32), F(REP, "remote_comm_id", 4, 0, 32),
	F(REP, "local_qkey", 8, 0, 32), F(REP, "local_qpn", 12, 0, 24),
	F(REP, "local_eecn", 16, 0, 24), F(REP, "starting_psn", 20, 0, 24),
	F(REP, "responder_resources", 24, 0, 8),
	F(REP, "initiator_depth", 25, 0, 8), F(REP, "target_ack_delay", 26, 0, 5),
	F(REP, "failover_accepted", 26, 5, 2), F(REP, "flow_control", 26, 7, 1),
	F(REP, "rnr_retry_count", 27, 0, 3), F(REP, "srq", 27, 3, 1),
	F(REP, "rsvd27", 27, 4, 4), F(REP, "local_ca_guid", 28, 0, 64),

	F(RTU, "local_comm_id", 0, 0, 32), F(RTU, "remote_comm_id", 4, 0, 32),

	F(DREQ, "local_comm_id", 0, 0, 32), F(DREQ, "remote_comm_id", 4, 0, 32),
	F(DREQ, "remote_qpn", 8, 0, 24), F(DREQ, "rsvd11", 11, 0, 8),

	F(DREP, "local_comm_id", 0, 0, 32), F(DREP, "remote_comm_id", 4, 0, 32),

	F(SIDR_REQ, "request_id", 0, 0, 32), F(SIDR_REQ, "pkey", 4, 0, 16),
	F(SIDR_REQ, "rsvd6", 6, 0, 16), F(SIDR_REQ, "service_id", 8, 0, 64),

	F(SIDR_REP, "request_id", 0, 0, 32), F(SIDR_REP, "status", 4, 0, 8),
	F(SIDR_REP, "info_len", 5, 0, 8), F(SIDR_REP, "qpn", 8, 0, 24),
	F(SIDR_REP, "service_id", 12, 0, 64), F(SIDR_REP, "qkey", 20, 0, 32),
};

/* MAD header fields (attr 0: offsets from the start of the MAD) */
static const struct field hdr_fields[] = {
	{ 0, "base_version", 0, 0, 8 }, { 0, "mgmt_class", 1, 0, 8 },
	{ 0, "class_version", 2, 0, 8 }, { 0, "method", 3, 0, 8 },
	{ 0, "status", 4, 0, 16 }, { 0, "class_specific", 6, 0, 16 },
	{ 0, "tid", 8, 0, 64 }, { 0, "attr_id", 16, 0, 16 },
	{ 0, "rsvd18", 18, 0, 16 }, { 0, "attr_mod", 20, 0, 32 },
};

#define NFIELDS		(sizeof(fields) / sizeof(fields[0]))
#define NHDR		(sizeof(hdr_fields) / sizeof(hdr_fields[0]))

struct conn {
	uint32_t ours, theirs;		/* our comm ID, pdcm's */
	uint32_t qpn, their_qpn;
	uint64_t tid;
	int state;			/* 0 REQ sent, 1 REP seen, 2 RTU sent, 3 gone */
	int dreqs;			/* DREQs received on it */
	struct timespec t0;
};

enum { C_REQ, C_REP, C_EST, C_GONE };

static int portid, agent, verbose, answer_dreq = 1;
static int passive, cross;		/* serve: answer REQs; cross DREQs */
static unsigned long dreq_first;
static unsigned long dreq_after;	/* DREQs received after our own */
static uint8_t peer_gid[16], our_gid[16];
static uint32_t peer_ip, our_ip;
static uint64_t our_guid;
static int gid_index;
static struct conn conns[MAX_CONNS];
static int nconns;
static unsigned long sent[256], rcvd[256], rej_by_reason[64];
static uint32_t next_id, next_qpn = 0x100;
static uint64_t rng = 88172645463325252ull;
static void *rbuf;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(1);
}

/* ---- bit fields, big-endian, bit 0 the most significant ---- */

static uint64_t get_bits(const uint8_t *p, unsigned int pos, unsigned int w)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < w; i++) {
		unsigned int b = pos + i;

		v = v << 1 | ((p[b / 8] >> (7 - b % 8)) & 1);
	}
	return v;
}

static void set_bits(uint8_t *p, unsigned int pos, unsigned int w, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < w; i++) {
		unsigned int b = pos + w - 1 - i;
		uint8_t m = 1 << (7 - b % 8);

		if (v >> i & 1)
			p[b / 8] |= m;
		else
			p[b / 8] &= ~m;
	}
}

static const struct field *find_field(int attr, const char *name)
{
	unsigned int i;

	for (i = 0; i < NHDR; i++)
		if (!strcmp(hdr_fields[i].name, name))
			return &hdr_fields[i];
	for (i = 0; i < NFIELDS; i++)
		if (fields[i].attr == attr && !strcmp(fields[i].name, name))
			return &fields[i];
	return NULL;
}

static void fset(uint8_t *mad, const struct field *f, uint64_t v)
{
	/* header fields are kept at their absolute offsets */
	set_bits(f->attr ? mad + HDR : mad, f->byte * 8 + f->bit, f->width, v);
}

static uint64_t fget(const uint8_t *mad, const struct field *f)
{
	return get_bits(f->attr ? mad + HDR : mad, f->byte * 8 + f->bit, f->width);
}

static void put(uint8_t *mad, int attr, const char *name, uint64_t v)
{
	const struct field *f = find_field(attr, name);

	if (!f)
		die("no field %s in attr 0x%x\n", name, attr);
	fset(mad, f, v);
}

static uint64_t get(const uint8_t *mad, int attr, const char *name)
{
	const struct field *f = find_field(attr, name);

	if (!f)
		die("no field %s in attr 0x%x\n", name, attr);
	return fget(mad, f);
}

static int attr_of(const char *s)
{
	int i;

	for (i = 0; i <= A_LAST - A_FIRST; i++)
		if (!strcasecmp(s, attr_names[i]))
			return A_FIRST + i;
	die("unknown message type %s\n", s);
	return 0;
}

static const char *attr_name(int a)
{
	return a >= A_FIRST && a <= A_LAST ? attr_names[a - A_FIRST] : "other";
}

/* ---- building messages ---- */

static void hdr(uint8_t *mad, int attr, uint64_t tid)
{
	memset(mad, 0, MAD_SIZE);
	mad[0] = 1;
	mad[1] = CM_CLASS;
	mad[2] = CM_VERSION;
	mad[3] = METHOD_SEND;
	set_bits(mad, 64, 64, tid);
	set_bits(mad, 128, 16, attr);
}

static uint64_t new_tid(void)
{
	return rnd() & 0xffffffffull;
}

static uint32_t new_id(void)
{
	return next_id++ ?: next_id++;
}

/* An RDMA CM header (IPv4) as the first 36 bytes of REQ private data */
static void cma_hdr(uint8_t *pd, uint16_t sport)
{
	pd[0] = 0;
	pd[1] = 0x40;
	pd[2] = sport >> 8;
	pd[3] = sport;
	memcpy(pd + 16, &our_ip, 4);
	memcpy(pd + 32, &peer_ip, 4);
}

static void gid_fields(uint8_t *mad, const char *which, const uint8_t *gid)
{
	char n[32];
	uint64_t hi = 0, lo = 0;
	int i;

	for (i = 0; i < 8; i++) {
		hi = hi << 8 | gid[i];
		lo = lo << 8 | gid[8 + i];
	}
	snprintf(n, sizeof(n), "p_%s_gid_hi", which);
	put(mad, A_REQ, n, hi);
	snprintf(n, sizeof(n), "p_%s_gid_lo", which);
	put(mad, A_REQ, n, lo);
}

/* A REQ as rdma_cm's rping sends it (tests/kunit/captures/rping_req.hex) */
static void build_req(uint8_t *mad, uint64_t tid, uint32_t id, uint64_t sid,
		      uint32_t qpn)
{
	hdr(mad, A_REQ, tid);
	put(mad, A_REQ, "local_comm_id", id);
	put(mad, A_REQ, "service_id", sid);
	put(mad, A_REQ, "local_ca_guid", our_guid);
	put(mad, A_REQ, "local_qpn", qpn);
	put(mad, A_REQ, "responder_resources", 1);
	put(mad, A_REQ, "initiator_depth", 1);
	put(mad, A_REQ, "remote_cm_response_timeout", 20);
	put(mad, A_REQ, "starting_psn", rnd() & 0xffffff);
	put(mad, A_REQ, "local_cm_response_timeout", 20);
	put(mad, A_REQ, "retry_count", 7);
	put(mad, A_REQ, "pkey", 0xffff);
	put(mad, A_REQ, "path_mtu", 3);
	put(mad, A_REQ, "rnr_retry_count", 7);
	put(mad, A_REQ, "max_cm_retries", 15);
	put(mad, A_REQ, "p_local_lid", 0xffff);
	put(mad, A_REQ, "p_remote_lid", 0xffff);
	gid_fields(mad, "local", our_gid);
	gid_fields(mad, "remote", peer_gid);
	put(mad, A_REQ, "p_hop_limit", 64);
	put(mad, A_REQ, "p_local_ack_timeout", 19);
	cma_hdr(mad + HDR + 140, 0x8000 | (id & 0x7fff));
}

static void build_pair(uint8_t *mad, int attr, uint64_t tid, uint32_t local,
		       uint32_t remote)
{
	hdr(mad, attr, tid);
	put(mad, attr, attr == A_SIDR_REQ || attr == A_SIDR_REP ?
	    "request_id" : "local_comm_id", local);
	if (attr != A_SIDR_REQ && attr != A_SIDR_REP && attr != A_REQ)
		put(mad, attr, "remote_comm_id", remote);
}

/* A valid message of @attr for @c (NULL: made-up IDs) */
static void build_valid(uint8_t *mad, int attr, const struct conn *c,
			uint64_t sid)
{
	uint32_t ours = c ? c->ours : new_id(), theirs = c ? c->theirs : rnd();
	uint64_t tid = c ? c->tid : new_tid();

	switch (attr) {
	case A_REQ:
		build_req(mad, tid, ours, sid, c ? c->qpn : next_qpn++);
		return;
	case A_SIDR_REQ:
		build_pair(mad, attr, tid, ours, 0);
		put(mad, attr, "pkey", 0xffff);
		put(mad, attr, "service_id", sid);
		cma_hdr(mad + HDR + 16, 0x8000 | (ours & 0x7fff));
		return;
	default:
		build_pair(mad, attr, tid, ours, theirs);
	}
	switch (attr) {
	case A_MRA:
		put(mad, attr, "msg_mraed", 1);
		put(mad, attr, "service_timeout", 20);
		break;
	case A_REJ:
		put(mad, attr, "msg_rejected", 2);
		put(mad, attr, "reason", 28);
		break;
	case A_REP:
		put(mad, attr, "local_qpn", c ? c->qpn : next_qpn++);
		put(mad, attr, "starting_psn", rnd() & 0xffffff);
		put(mad, attr, "target_ack_delay", 15);
		put(mad, attr, "rnr_retry_count", 7);
		put(mad, attr, "local_ca_guid", our_guid);
		break;
	case A_DREQ:
		put(mad, attr, "remote_qpn", c ? c->their_qpn : rnd() & 0xffffff);
		break;
	case A_SIDR_REP:
		put(mad, attr, "qpn", next_qpn++);
		put(mad, attr, "qkey", 0x01234567);
		put(mad, attr, "service_id", sid);
		break;
	}
}

/* ---- the port ---- */

static unsigned long refused;		/* fuzz: MADs ib_umad would not send */
static unsigned long ah_waits;	/* sends that waited for the peer's MAC */
static int fuzzing;

static void send_mad(const uint8_t *mad, int len)
{
	static void *umad;
	struct ib_user_mad *u;
	int attr = get_bits(mad, 128, 16), tries, waits = 0;

	if (!umad)
		umad = umad_alloc(1, umad_size() + MAD_SIZE);
	u = umad;
	memset(u, 0, umad_size() + MAD_SIZE);
	memcpy(umad_get_mad(umad), mad, len);
	u->addr.qpn = htonl(1);
	u->addr.qkey = htonl(GSI_QKEY);
	u->addr.lid = htons(0xffff);
	u->addr.grh_present = 1;
	u->addr.gid_index = gid_index;
	u->addr.hop_limit = 64;
	memcpy(u->addr.gid, peer_gid, 16);
	u->addr.pkey_index = 0;
	/*
	 * ib_umad refuses (EINVAL) a request whose TID is still in its send
	 * queue: let the queue drain a little and try again.
	 */
	for (tries = 0; umad_send(portid, agent, umad, len, 0, 0) < 0; tries++) {
		/*
		 * A fuzzed header ib_umad or the MAD layer will not send
		 * (a base version, a response method ...): counted, skipped.
		 */
		if (errno == EINVAL && fuzzing && tries == 20) {
			refused++;
			return;
		}
		/*
		 * ETIMEDOUT: ib_umad could not make the address handle,
		 * the peer's MAC not resolved in time (its ARP answer is
		 * late when a KASAN guest is swamped by the flood): wait
		 * for it, up to 30 s.
		 */
		if (errno == ETIMEDOUT && waits < 300) {
			waits++;
			ah_waits++;
			tries--;	/* not one of the EINVAL tries */
			usleep(100000);
			continue;
		}
		if (errno != EINVAL || tries == 1000)
			die("umad_send: %s\n", strerror(errno));
		usleep(100);
	}
	sent[attr & 0xff]++;
	if (verbose)
		fprintf(stderr, "tx %s\n", attr_name(attr));
}

static void answer(const uint8_t *mad);
static struct conn *conn_new(void);

/* serve: pdcm's REQ gets our REP */
static void serve_req(const uint8_t *req)
{
	uint32_t theirs = get(req, A_REQ, "local_comm_id");
	struct conn *c;
	uint8_t m[MAD_SIZE];
	int i;

	for (i = 0; i < nconns; i++)	/* a retried REQ: the REP again */
		if (conns[i].theirs == theirs && conns[i].state == C_REP)
			break;
	c = i < nconns ? &conns[i] : conn_new();
	c->theirs = theirs;
	c->their_qpn = get(req, A_REQ, "local_qpn");
	c->tid = get_bits(req, 64, 64);
	c->state = C_REP;
	build_valid(m, A_REP, c, 0);
	send_mad(m, MAD_SIZE);
}

/* Receive for up to @ms (0: what is there); returns the MADs taken. */
static int drain(int ms)
{
	double end = now_ms() + ms;
	int n = 0;

	for (;;) {
		int len = MAD_SIZE, left = ms ? (int)(end - now_ms()) : 0;

		if (left < 0)
			left = 0;
		if (umad_recv(portid, rbuf, &len, left) < 0) {
			if (ms && now_ms() < end)
				continue;
			return n;
		}
		n++;
		answer(umad_get_mad(rbuf));
	}
}

static struct conn *conn_by_ours(uint32_t id)
{
	int i;

	for (i = 0; i < nconns; i++)
		if (conns[i].ours == id)
			return &conns[i];
	return NULL;
}

/* What pdcm said: counted, and applied to our connections. */
static void answer(const uint8_t *mad)
{
	int attr = get_bits(mad, 128, 16);
	struct conn *c;

	rcvd[attr & 0xff]++;
	if (verbose)
		fprintf(stderr, "rx %s\n", attr_name(attr));
	if (attr < A_FIRST || attr > A_LAST || attr == A_SIDR_REQ ||
	    attr == A_SIDR_REP)
		return;
	if (attr == A_REJ) {
		unsigned int r = get(mad, A_REJ, "reason");

		rej_by_reason[r < 64 ? r : 63]++;
	}
	if (attr == A_REQ) {
		if (passive)
			serve_req(mad);
		return;
	}
	c = conn_by_ours(get(mad, attr, "remote_comm_id"));
	if (!c)
		return;
	switch (attr) {
	case A_REP:
		if (c->state == C_REQ) {
			c->theirs = get(mad, A_REP, "local_comm_id");
			c->their_qpn = get(mad, A_REP, "local_qpn");
			c->state = C_REP;
		}
		break;
	case A_REJ:
		c->state = C_GONE;
		break;
	case A_RTU:
		if (c->state == C_REP)
			c->state = C_EST;
		break;
	case A_DREQ:
		c->dreqs++;
		if (c->state == C_GONE)
			dreq_after++;
		if (c->state == C_EST && cross) {
			/* no DREP: our own DREQ crosses pdcm's */
			uint8_t m[MAD_SIZE];

			dreq_first++;
			c->tid = new_tid();
			build_valid(m, A_DREQ, c, 0);
			send_mad(m, MAD_SIZE);
			c->state = C_GONE;
			break;
		}
		/* answer it (unless told to lose the DREP): the peer leaves */
		if (c->state == C_EST && answer_dreq) {
			uint8_t m[MAD_SIZE];

			build_pair(m, A_DREP, get_bits(mad, 64, 64), c->ours,
				   c->theirs);
			send_mad(m, MAD_SIZE);
			c->state = C_GONE;
		}
		break;
	case A_DREP:
		c->state = C_GONE;
		break;
	}
}

static void send_rtu(struct conn *c)
{
	uint8_t m[MAD_SIZE];

	build_pair(m, A_RTU, c->tid, c->ours, c->theirs);
	send_mad(m, MAD_SIZE);
	c->state = C_EST;
}

static struct conn *conn_new(void)
{
	struct conn *c;

	if (nconns == MAX_CONNS)
		die("too many connections\n");
	c = &conns[nconns++];
	memset(c, 0, sizeof(*c));
	c->ours = new_id();
	c->qpn = next_qpn++;
	c->tid = new_tid();
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	return c;
}

/* One full handshake; returns REQ-to-REP milliseconds, or -1. */
static double handshake(uint64_t sid, int rtu, int timeout_ms)
{
	uint8_t m[MAD_SIZE];
	struct conn *c = conn_new();
	double t0 = now_ms();

	build_req(m, c->tid, c->ours, sid, c->qpn);
	send_mad(m, MAD_SIZE);
	while (c->state == C_REQ && now_ms() - t0 < timeout_ms)
		drain(10);
	if (c->state != C_REP)
		return -1;
	if (rtu)
		send_rtu(c);
	return now_ms() - t0;
}

/*
 * handshake(), but the REQ is sent again every @every_ms until the REP
 * comes (a peer's CM retrying): the time from the first send, or -1.
 */
static double handshake_resend(uint64_t sid, int timeout_ms, int every_ms)
{
	uint8_t m[MAD_SIZE];
	struct conn *c = conn_new();
	double t0 = now_ms(), sent = t0;

	build_req(m, c->tid, c->ours, sid, c->qpn);
	send_mad(m, MAD_SIZE);
	while (c->state == C_REQ && now_ms() - t0 < timeout_ms) {
		drain(10);
		if (c->state == C_REQ && now_ms() - sent >= every_ms) {
			send_mad(m, MAD_SIZE);
			sent = now_ms();
		}
	}
	if (c->state != C_REP)
		return -1;
	send_rtu(c);
	return now_ms() - t0;
}

/* ---- commands ---- */

static uint64_t num(const char *s)
{
	if (!strncmp(s, "tcp:", 4))
		return 0x0000000001060000ull | strtoul(s + 4, NULL, 0);
	if (!strncmp(s, "udp:", 4))
		return 0x0000000001110000ull | strtoul(s + 4, NULL, 0);
	return strtoull(s, NULL, 0);
}

/* key=value words: message fields, or options picked out by name */
static const char *opt(int argc, char **argv, const char *key)
{
	size_t k = strlen(key);
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], key, k) && argv[i][k] == '=')
			return argv[i] + k + 1;
	return NULL;
}

static void apply_fields(uint8_t *mad, int attr, int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const struct field *f;

		if (!eq)
			continue;
		*eq = 0;
		f = find_field(attr, argv[i]);
		if (f)
			fset(mad, f, num(eq + 1));
		*eq = '=';
	}
}

static void cmd_connect(int argc, char **argv)
{
	const char *r = opt(argc, argv, "rtu");
	int n, i, ok = 0, rtu = !r || atoi(r);
	double worst = 0;
	uint64_t sid;

	if (argc < 3)
		die("connect N SID\n");
	n = atoi(argv[1]);
	sid = num(argv[2]);
	for (i = 0; i < n; i++) {
		double t = handshake(sid, rtu, 5000);

		if (t >= 0) {
			ok++;
			if (t > worst)
				worst = t;
		}
	}
	drain(200);
	printf("connect n=%d ok=%d worst_ms=%.0f\n", n, ok, worst);
}

/*
 * forge TYPE: for every conn we hold, TYPE with pdcm's comm ID of it (the
 * perfect guess) and a wrong sender comm ID (wrong=local, the default) or
 * the right one (wrong=none).
 */
static void cmd_forge(int argc, char **argv)
{
	const char *w = opt(argc, argv, "wrong");
	int attr = attr_of(argv[1]), i, n = 0;
	uint8_t m[MAD_SIZE];

	for (i = 0; i < nconns; i++) {
		struct conn c = conns[i];

		if (c.state == C_GONE || c.state == C_REQ)
			continue;
		if (!w || strcmp(w, "none"))
			c.ours ^= 0x5a5a0000 | (rnd() & 0xffff) | 1;
		build_valid(m, attr, &c, 0);
		apply_fields(m, attr, argc - 2, argv + 2);
		send_mad(m, MAD_SIZE);
		n++;
	}
	drain(300);
	printf("forge %s sent=%d\n", attr_name(attr), n);
}

static void cmd_dreq(void)
{
	uint8_t m[MAD_SIZE];
	static char sent_to[MAX_CONNS];
	int i, n = 0, gone = 0;

	for (i = 0; i < nconns; i++) {
		struct conn *c = &conns[i];

		sent_to[i] = c->state == C_EST;
		if (!sent_to[i])
			continue;
		c->tid = new_tid();
		build_valid(m, A_DREQ, c, 0);
		send_mad(m, MAD_SIZE);
		n++;
	}
	drain(2000);
	for (i = 0; i < nconns; i++)
		gone += sent_to[i] && conns[i].state == C_GONE;
	printf("dreq sent=%d answered=%d\n", n, gone);
}

/*
 * crossed SECS: wait until pdcm has sent a DREQ on each established conn
 * (we never answer them: set answer_dreq=0 first, the DREPs are "lost"),
 * then send our own DREQ on each, and for SECS count the DREPs we get and
 * the DREQs pdcm still sends.
 */
static int crossed_dreqd(void)
{
	int i, n = 0;

	for (i = 0; i < nconns; i++)
		n += conns[i].state == C_EST && conns[i].dreqs > 0;
	return n;
}

static void cmd_crossed(char **argv)
{
	unsigned long p0 = rcvd[A_DREP];
	int secs = atoi(argv[1]), i, est = 0;
	double end = now_ms() + secs * 1e3;
	uint8_t m[MAD_SIZE];

	/*
	 * Per conn, not by a count taken now: pdcm may have sent the first
	 * DREQs while the previous command was still draining.
	 */
	for (i = 0; i < nconns; i++)
		est += conns[i].state == C_EST;
	while (crossed_dreqd() < est && now_ms() < end)
		drain(10);
	printf("crossed established=%d dreqs_first=%d\n", est, crossed_dreqd());
	dreq_after = 0;
	for (i = 0; i < nconns; i++) {
		struct conn *c = &conns[i];

		if (c->state != C_EST)
			continue;
		c->tid = new_tid();
		build_valid(m, A_DREQ, c, 0);
		send_mad(m, MAD_SIZE);
		c->state = C_GONE;
	}
	drain(secs * 1000);
	printf("crossed_end dreps=%lu dreqs_after=%lu\n", rcvd[A_DREP] - p0, dreq_after);
}

/*
 * serve SECS [cross=1]: for SECS, answer pdcm's REQs with REPs; with
 * cross=1 a DREQ of pdcm's is not answered: our own DREQ crosses it.
 */
static void cmd_serve(int argc, char **argv)
{
	const char *x = opt(argc, argv, "cross");
	unsigned long p0 = rcvd[A_DREP], q0 = rcvd[A_REQ];
	int i, est = 0, first = nconns;

	passive = 1;
	cross = x && atoi(x);
	dreq_first = dreq_after = 0;
	drain(atoi(argv[1]) * 1000);
	passive = cross = 0;
	for (i = first; i < nconns; i++)
		est += conns[i].state == C_EST || conns[i].state == C_GONE;
	printf("serve reqs=%lu connected=%d dreqs_first=%lu dreqs_after=%lu dreps=%lu\n",
	       rcvd[A_REQ] - q0, est, dreq_first, dreq_after, rcvd[A_DREP] - p0);
}

/* A legitimate REJ (of the REP) on every conn that has a REP and no RTU */
static void cmd_rej(void)
{
	uint8_t m[MAD_SIZE];
	int i, n = 0;

	for (i = 0; i < nconns; i++) {
		struct conn *c = &conns[i];

		if (c->state != C_REP)
			continue;
		build_valid(m, A_REJ, c, 0);
		put(m, A_REJ, "msg_rejected", 1);
		send_mad(m, MAD_SIZE);
		c->state = C_GONE;
		n++;
	}
	drain(300);
	printf("rej sent=%d\n", n);
}

/*
 * wait SID SECS: a handshake to SID every 200 ms until one is answered
 * with a REP (pdcm answers REJ 8 while nothing listens): the other
 * guest's barrier.  The connection it makes stays established.
 */
static void cmd_wait(char **argv)
{
	double end = now_ms() + atoi(argv[2]) * 1e3;
	uint64_t sid = num(argv[1]);
	int tries = 0;

	while (now_ms() < end) {
		tries++;
		if (handshake(sid, 1, 1000) >= 0) {
			drain(100);
			printf("wait ok=1 tries=%d\n", tries);
			return;
		}
		conns[nconns - 1].state = C_GONE;
		drain(200);
	}
	printf("wait ok=0 tries=%d\n", tries);
}

static void cmd_send(int argc, char **argv)
{
	int attr = attr_of(argv[1]);
	uint8_t m[MAD_SIZE];
	const char *len = opt(argc, argv, "len");

	build_valid(m, attr, NULL, 0);
	apply_fields(m, attr, argc - 2, argv + 2);
	send_mad(m, len ? atoi(len) : MAD_SIZE);
	drain(100);
}

static void cmd_flood(int argc, char **argv)
{
	const char *ps = opt(argc, argv, "probe_sid");
	const char *pe = opt(argc, argv, "probe_every");
	const char *as = opt(argc, argv, "after_sid");
	int n = atoi(argv[1]), every = pe ? atoi(pe) : 0, i, probes = 0, bad = 0;
	uint64_t sid = num(argv[2]);
	double t0 = now_ms(), worst = 0, last;
	uint8_t m[MAD_SIZE];

	for (i = 0; i < n; i++) {
		build_req(m, new_tid(), new_id(), sid, next_qpn++ & 0xffffff);
		send_mad(m, MAD_SIZE);
		drain(0);
		if (ps && every && i && i % every == 0) {
			double t = handshake(num(ps), 1, 5000);

			probes++;
			if (t < 0)
				bad++;
			else if (t > worst)
				worst = t;
		}
	}
	printf("flood n=%d secs=%.1f rate=%.0f\n", n, (now_ms() - t0) / 1e3,
	       n * 1e3 / (now_ms() - t0));
	last = ps ? handshake(num(ps), 1, 5000) : 0;
	printf("flood_probes n=%d failed=%d worst_ms=%.0f after_ms=%.0f\n",
	       probes, bad, worst, last);
	if (as)
		printf("flood_after sid=%s ms=%.0f\n", as,
		       handshake_resend(num(as), 10000, 250));
}

/* Per established conn, @n REQs from its QPN with new comm IDs. */
static void cmd_storm(char **argv)
{
	int n = atoi(argv[1]), i, j, total = 0, targets = nconns;
	uint64_t sid = num(argv[2]);
	uint8_t m[MAD_SIZE];

	for (i = 0; i < targets; i++) {
		if (conns[i].state != C_EST)
			continue;
		for (j = 0; j < n; j++) {
			int k;

			/*
			 * and copies, 50 us apart: one lands while pdcm
			 * handles the first (found stale, being destroyed)
			 */
			build_req(m, new_tid(), new_id(), sid, conns[i].qpn);
			for (k = 0; k < 4; k++) {
				set_bits(m, 64, 64, new_tid());	/* ib_umad */
				send_mad(m, MAD_SIZE);
				usleep(50);
			}
			total += 4;
			drain(0);
		}
	}
	drain(1000);
	printf("storm sent=%d rej_stale=%lu dreq_rcvd=%lu\n", total,
	       rej_by_reason[10], rcvd[A_DREQ]);
}

/* REQ, its REJ, and the same QP's next REQ: must not be STALE_CONN. */
static void cmd_reuse(char **argv)
{
	uint64_t sid = num(argv[1]);
	unsigned long stale0 = rej_by_reason[10], rej0 = rcvd[A_REJ];
	uint8_t m[MAD_SIZE];
	struct conn *c = conn_new();
	double t0 = now_ms();

	build_req(m, c->tid, c->ours, sid, c->qpn);
	send_mad(m, MAD_SIZE);
	while (rcvd[A_REJ] == rej0 && now_ms() - t0 < 5000)
		drain(10);
	c->state = C_GONE;
	c->ours = new_id();
	c->tid = new_tid();
	build_req(m, c->tid, c->ours, sid, c->qpn);
	send_mad(m, MAD_SIZE);
	t0 = now_ms();
	while (rcvd[A_REJ] < rej0 + 2 && now_ms() - t0 < 5000)
		drain(10);
	printf("reuse rejs=%lu stale=%lu\n", rcvd[A_REJ] - rej0,
	       rej_by_reason[10] - stale0);
}

/* ---- the fuzzer ---- */

static uint64_t interesting(unsigned int w)
{
	uint64_t max = w == 64 ? ~0ull : (1ull << w) - 1;

	switch (rnd() % 6) {
	case 0: return 0;
	case 1: return max;
	case 2: return max - 1;
	case 3: return 1;
	case 4: return (rnd() & max) ^ (1ull << (rnd() % w));
	default: return rnd() & max;
	}
}

static void mutate(uint8_t *mad, int attr)
{
	const struct field *pick[64];
	unsigned int n = 0, i;

	switch (rnd() % 8) {
	case 0: {	/* a header field: class version, attr ID, method ... */
		const struct field *f = &hdr_fields[rnd() % NHDR];

		fset(mad, f, interesting(f->width));
		return;
	}
	case 1:		/* any byte after the header: reserved, private data */
		mad[HDR + rnd() % (MAD_SIZE - HDR)] ^= 1 << (rnd() % 8);
		return;
	case 2:		/* another message's attribute ID on this body */
		set_bits(mad, 128, 16, A_FIRST + rnd() % (A_LAST - A_FIRST + 1));
		return;
	default:	/* one field of the message, field by field */
		for (i = 0; i < NFIELDS && n < 64; i++)
			if (fields[i].attr == attr)
				pick[n++] = &fields[i];
		if (n) {
			const struct field *f = pick[rnd() % n];

			fset(mad, f, interesting(f->width));
		}
	}
}

static void cmd_fuzz(char **argv)
{
	static const int types[] = {
		A_REQ, A_REP, A_RTU, A_DREQ, A_DREP, A_REJ, A_MRA,
		A_SIDR_REQ, A_SIDR_REP,
	};
	int n = atoi(argv[1]), i, live = 0;
	uint64_t sid = num(argv[3]), usid = 0x0000000001110000ull | (sid & 0xffff);
	double t0;
	uint8_t m[MAD_SIZE];

	rng ^= strtoull(argv[2], NULL, 0) * 0x9e3779b97f4a7c15ull;
	/* live connections, whose comm IDs the mutated messages name */
	for (i = 0; i < 8; i++)
		live += handshake(sid, 1, 5000) >= 0;
	t0 = now_ms();
	fuzzing = 1;
	for (i = 0; i < n; i++) {
		int attr = types[rnd() % (sizeof(types) / sizeof(types[0]))];
		struct conn *c = nconns && rnd() % 4 ? &conns[rnd() % nconns] : NULL;
		int k, len = MAD_SIZE;

		build_valid(m, attr, c, attr == A_SIDR_REQ ? usid : sid);
		if (attr == A_REQ)	/* a bounded set of senders' comm IDs */
			put(m, A_REQ, "local_comm_id", 0x7700 + rnd() % 64);
		for (k = 1 + rnd() % 3; k; k--)
			mutate(m, attr);
		if (rnd() % 32 == 0)	/* short writes: the MAD layer pads them */
			len = HDR + rnd() % (MAD_SIZE - HDR);
		send_mad(m, len);
		drain(0);
		if (i % 50000 == 49999)
			fprintf(stderr, "fuzz: %d sent, %.0f s\n", i + 1,
				(now_ms() - t0) / 1e3);
	}
	fuzzing = 0;
	drain(2000);
	printf("fuzz n=%d live=%d refused=%lu ah_waits=%lu secs=%.1f rate=%.0f\n",
	       n, live, refused, ah_waits, (now_ms() - t0) / 1e3,
	       n * 1e3 / (now_ms() - t0));
}

static void cmd_stats(void)
{
	int a;

	printf("sent");
	for (a = A_FIRST; a <= A_LAST; a++)
		printf(" %s=%lu", attr_name(a), sent[a]);
	printf("\nrcvd");
	for (a = A_FIRST; a <= A_LAST; a++)
		printf(" %s=%lu", attr_name(a), rcvd[a]);
	printf("\nrej_reasons");
	for (a = 0; a < 64; a++)
		if (rej_by_reason[a])
			printf(" %d=%lu", a, rej_by_reason[a]);
	printf("\n");
}

static void run(char *line)
{
	char *argv[32], *p = line, *w;
	int argc = 0;

	while ((w = strsep(&p, " \t\n")) && argc < 32)
		if (*w)
			argv[argc++] = w;
	if (!argc || argv[0][0] == '#')
		return;
	if (!strcmp(argv[0], "connect"))
		cmd_connect(argc, argv);
	else if (!strcmp(argv[0], "forge") && argc > 1)
		cmd_forge(argc, argv);
	else if (!strcmp(argv[0], "dreq"))
		cmd_dreq();
	else if (!strcmp(argv[0], "rej"))
		cmd_rej();
	else if (!strcmp(argv[0], "serve") && argc > 1)
		cmd_serve(argc, argv);
	else if (!strcmp(argv[0], "crossed") && argc > 1)
		cmd_crossed(argv);
	else if (!strcmp(argv[0], "answer_dreq") && argc > 1)
		answer_dreq = atoi(argv[1]);
	else if (!strcmp(argv[0], "wait") && argc > 2)
		cmd_wait(argv);
	else if (!strcmp(argv[0], "send") && argc > 1)
		cmd_send(argc, argv);
	else if (!strcmp(argv[0], "flood") && argc > 2)
		cmd_flood(argc, argv);
	else if (!strcmp(argv[0], "storm") && argc > 2)
		cmd_storm(argv);
	else if (!strcmp(argv[0], "reuse") && argc > 1)
		cmd_reuse(argv);
	else if (!strcmp(argv[0], "fuzz") && argc > 3)
		cmd_fuzz(argv);
	else if (!strcmp(argv[0], "drain") && argc > 1)
		printf("drain got=%d\n", drain(atoi(argv[1])));
	else if (!strcmp(argv[0], "stats"))
		cmd_stats();
	else
		die("bad command: %s\n", argv[0]);
	fflush(stdout);
}

/* The port's GID index whose GID is ::ffff:@ip and whose type is RoCE v2 */
static int find_gid(const char *dev, int port, uint32_t ip)
{
	char path[256], buf[64];
	int i;

	for (i = 0; i < 64; i++) {
		FILE *f;
		struct in6_addr a;

		snprintf(path, sizeof(path),
			 "/sys/class/infiniband/%s/ports/%d/gids/%d", dev, port, i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		buf[strcspn(buf, "\n")] = 0;
		if (inet_pton(AF_INET6, buf, &a) != 1 || memcmp(&a.s6_addr[12], &ip, 4) ||
		    a.s6_addr[10] != 0xff || a.s6_addr[11] != 0xff)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband/%s/ports/%d/gid_attrs/types/%d",
			 dev, port, i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && strstr(buf, "v2")) {
			fclose(f);
			memcpy(our_gid, a.s6_addr, 16);
			return i;
		}
		fclose(f);
	}
	return -1;
}

int main(int argc, char **argv)
{
	long mask[16 / sizeof(long)] = { 0 };
	const char *dev = "rxe0", *peer = NULL, *src = NULL;
	char line[1024];
	umad_port_t uport;
	int port = 1, c;

	while ((c = getopt(argc, argv, "d:p:g:s:v")) != -1) {
		switch (c) {
		case 'd': dev = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'g': peer = optarg; break;
		case 's': src = optarg; break;
		case 'v': verbose = 1; break;
		default: die("usage: cmhostile -d DEV -p PORT -g PEER_IPV4 -s SRC_IPV4\n");
		}
	}
	if (!peer || !src || inet_pton(AF_INET, peer, &peer_ip) != 1 ||
	    inet_pton(AF_INET, src, &our_ip) != 1)
		die("usage: cmhostile -d DEV -p PORT -g PEER_IPV4 -s SRC_IPV4\n");
	memset(peer_gid, 0, 16);
	peer_gid[10] = peer_gid[11] = 0xff;
	memcpy(peer_gid + 12, &peer_ip, 4);
	gid_index = find_gid(dev, port, our_ip);
	if (gid_index < 0)
		die("no RoCE v2 GID for %s on %s/%d\n", src, dev, port);
	if (umad_init() < 0)
		die("umad_init\n");
	if (umad_get_port(dev, port, &uport) < 0)
		die("umad_get_port %s/%d\n", dev, port);
	our_guid = be64toh(uport.port_guid);
	umad_release_port(&uport);
	portid = umad_open_port(dev, port);
	if (portid < 0)
		die("umad_open_port %s/%d: %d\n", dev, port, portid);
	mask[0] = 1L << METHOD_SEND;
	agent = umad_register(portid, CM_CLASS, CM_VERSION, 0, mask);
	if (agent < 0)
		die("umad_register: %d (is ib_cm loaded?)\n", agent);
	rbuf = umad_alloc(1, umad_size() + MAD_SIZE);
	rng ^= (uint64_t)time(NULL) << 20 ^ getpid();
	next_id = rnd() | 1;
	printf("ready gid_index=%d guid=0x%016llx\n", gid_index,
	       (unsigned long long)our_guid);
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin))
		run(line);
	cmd_stats();
	umad_close_port(portid);
	return 0;
}
