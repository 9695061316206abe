// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "pdcm_sdp": the SDP shim (ulp/sdp) through the fake
 * transport of fake.h: Hello and Hello Ack codec, listen conflicts and
 * dispatch by address, malformed Hellos (REJ 28, counted), and the
 * accept, reject, connect and disconnect flows.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <rdma/pdcm_sdp.h>

#include "../../cm/compat.h"
#include "fake.h"

MODULE_IMPORT_NS(PDCM_NS(PDCM_SDP));

#define SDP_MAX_EV	16

enum sdp_action {
	SDP_ACT_NONE,
	SDP_ACT_ACCEPT,
	SDP_ACT_REJECT,
	SDP_ACT_FAIL,		/* return non-zero */
	SDP_ACT_CLOSE,		/* pdcm_sdp_close() in the handler */
};

struct sdp_ev {
	struct pdcm_sdp_conn *conn;
	enum pdcm_sdp_event_type type;
	int status;
	void *context;
	struct pdcm_sdp_conn_info info;
};

static struct {
	struct sdp_ev ev[SDP_MAX_EV];
	unsigned int nev;
	enum sdp_action action;
} sdp_rec;

static const struct pdcm_sdp_accept_param sdp_acc = {
	.qp_num = 0x00beef,
	.starting_psn = 0x0a0b0c,
	.hah = { .bufs = 15, .ext_max_adverts = 1, .actrcvsz = 65536 + 16 },
};

static int sdp_handler(struct pdcm_sdp_conn *conn,
		       const struct pdcm_sdp_event *ev)
{
	struct sdp_ev *e;

	if (sdp_rec.nev < SDP_MAX_EV) {
		e = &sdp_rec.ev[sdp_rec.nev++];
		e->conn = conn;
		e->type = ev->type;
		e->status = ev->status;
		e->context = pdcm_sdp_context(conn);
		e->info = *ev->info;
	}
	if (ev->type != PDCM_SDP_CONNECT_REQUEST)
		return 0;
	switch (sdp_rec.action) {
	case SDP_ACT_ACCEPT:
		return pdcm_sdp_accept(conn, &sdp_acc);
	case SDP_ACT_REJECT:
		pdcm_sdp_reject(conn);
		return 0;
	case SDP_ACT_FAIL:
		return -ECONNREFUSED;
	case SDP_ACT_CLOSE:
		pdcm_sdp_close(conn);
		return 0;
	default:
		return 0;
	}
}

static struct sockaddr_storage sdp_sa4(const char *ip, u16 port)
{
	struct sockaddr_storage ss = {};
	struct sockaddr_in *sin = (void *)&ss;

	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	in4_pton(ip, -1, (u8 *)&sin->sin_addr, -1, NULL);
	return ss;
}

static struct sockaddr_storage sdp_sa6(const char *ip, u16 port)
{
	struct sockaddr_storage ss = {};
	struct sockaddr_in6 *sin6 = (void *)&ss;

	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	in6_pton(ip, -1, (u8 *)&sin6->sin6_addr, -1, NULL);
	return ss;
}

#define SA(ss)	((struct sockaddr *)&(ss))

/* An address from text: IPv6 if it has a colon. */
static void sdp_sa(struct sockaddr_storage *ss, const char *ip, u16 port)
{
	*ss = strchr(ip, ':') ? sdp_sa6(ip, port) : sdp_sa4(ip, port);
}

/*
 * Helpers take addresses as text and are kept out of line: sockaddr
 * temporaries in every caller would overflow the frame under KASAN.
 */
static noinline struct pdcm_sdp_listener *
sdp_listen(struct fake *f, const char *ip, u16 port, u32 flags, void *ctx)
{
	struct pdcm_sdp_listen_param p = {
		.device = f->ibdev,
		.flags = flags,
		.handler = sdp_handler,
		.context = ctx,
	};
	struct sockaddr_storage addr;

	sdp_sa(&addr, ip, port);
	p.addr = SA(addr);
	return pdcm_sdp_listen(&p);
}

static noinline void sdp_hello(u8 *buf, const char *src, u16 sport,
			       const char *dst, u16 dport)
{
	struct pdcm_sdp_hello h = {
		.bufs = 7,
		.max_adverts = 3,
		.desremrcvsz = 0x11000,
		.localrcvsz = 0x12000,
	};

	sdp_sa(&h.src, src, sport);
	sdp_sa(&h.dst, dst, dport);
	WARN_ON(pdcm_sdp_hh_build(buf, PDCM_SDP_HELLO_SIZE, &h));
}

/* The peer sends a REQ with @hello to SDP port @port. */
static void sdp_rx_req(struct fake *f, u32 comm, u16 port, const u8 *hello)
{
	struct pdcm_msg *m = kunit_kzalloc(f->test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(f->test, m);
	fake_mk_req(f, m, comm, 0x100 + comm % 256,
		    PDCM_SDP_SERVICE_ID | port, hello, PDCM_SDP_HELLO_SIZE);
	fake_rx(f, m);
	kunit_kfree(f->test, m);
}

static int sdp_init(struct kunit *test)
{
	memset(&sdp_rec, 0, sizeof(sdp_rec));
	return fake_init(test);
}

/* ---- codec ------------------------------------------------------------ */

static void sdp_hh_layout(struct kunit *test)
{
	struct pdcm_sdp_hello h;
	u8 b[PDCM_SDP_HELLO_SIZE];
	const struct sockaddr_in *sin;

	memset(b, 0xcc, sizeof(b));
	sdp_hello(b, "10.0.0.2", 0xeb09, "10.0.0.1", 7174);
	KUNIT_EXPECT_EQ(test, b[0], PDCM_SDP_MID_HELLO);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(b + 2), 7);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 4), 92U);
	KUNIT_EXPECT_EQ(test, b[16], 0x22);
	KUNIT_EXPECT_EQ(test, b[17], 0x40);
	KUNIT_EXPECT_EQ(test, b[19], 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 20), 0x11000U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 24), 0x12000U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(b + 28), 0xeb09);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 44), 0x0a000002U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 60), 0x0a000001U);
	KUNIT_EXPECT_EQ(test, b[91], 0);	/* reserved, not left 0xcc */

	KUNIT_ASSERT_EQ(test, pdcm_sdp_hh_parse(b, sizeof(b),
						pdcm_sdp_service_id(7174), &h), 0);
	KUNIT_EXPECT_EQ(test, h.bufs, 7);
	KUNIT_EXPECT_EQ(test, h.max_adverts, 3);
	KUNIT_EXPECT_EQ(test, h.localrcvsz, 0x12000U);
	sin = (void *)&h.src;
	KUNIT_EXPECT_EQ(test, sin->sin_family, AF_INET);
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 0xeb09);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), 0x0a000002U);
	sin = (void *)&h.dst;
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 7174);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), 0x0a000001U);

	/* IPv6: whole 16-byte fields at 32 and 48 */
	sdp_hello(b, "fd00::2", 1, "fd00::1", 9);
	KUNIT_EXPECT_EQ(test, b[17], 0x60);
	KUNIT_EXPECT_EQ(test, b[32], 0xfd);
	KUNIT_EXPECT_EQ(test, b[47], 2);
	KUNIT_EXPECT_EQ(test, b[48], 0xfd);
	KUNIT_EXPECT_EQ(test, b[63], 1);
	KUNIT_ASSERT_EQ(test, pdcm_sdp_hh_parse(b, sizeof(b),
						pdcm_sdp_service_id(9), &h), 0);
	KUNIT_EXPECT_EQ(test, h.dst.ss_family, AF_INET6);

	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_build(b, 91, &h), -EMSGSIZE);
}

/* Every way a Hello is refused; parse reads only what it is given. */
static void sdp_hh_malformed(struct kunit *test)
{
	__be64 sid = pdcm_sdp_service_id(1);
	struct pdcm_sdp_hello h;
	u8 good[PDCM_SDP_HELLO_SIZE];
	u8 *b;

	sdp_hello(good, "10.0.0.2", 5, "10.0.0.1", 1);
	b = kunit_kmalloc(test, PDCM_SDP_HH_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	/* exactly the addresses: fine, and KASAN sees any read past them */
	memcpy(b, good, PDCM_SDP_HH_SIZE);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(b, PDCM_SDP_HH_SIZE, sid, &h), 0);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(b, PDCM_SDP_HH_SIZE - 1, sid,
						&h), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(NULL, 92, sid, &h), -EMSGSIZE);

	memcpy(b, good, PDCM_SDP_HH_SIZE);
	put_unaligned_be32(PDCM_SDP_HH_SIZE - 1, b + 4);	/* BSDH len */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(b, PDCM_SDP_HH_SIZE, sid, &h),
			-EMSGSIZE);
	memcpy(b, good, PDCM_SDP_HH_SIZE);
	b[16] = 0x12;					/* major 1 */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(b, PDCM_SDP_HH_SIZE, sid, &h),
			-EPROTO);
	memcpy(b, good, PDCM_SDP_HH_SIZE);
	b[0] = PDCM_SDP_MID_HELLO_ACK;			/* not a Hello */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(b, PDCM_SDP_HH_SIZE, sid, &h),
			-EPROTO);
	memcpy(b, good, PDCM_SDP_HH_SIZE);
	b[17] = 0x50;					/* IPv5 */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(b, PDCM_SDP_HH_SIZE, sid, &h),
			-EAFNOSUPPORT);
	memcpy(b, good, PDCM_SDP_HH_SIZE);
	b[19] = 0;					/* no adverts */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hh_parse(b, PDCM_SDP_HH_SIZE, sid, &h),
			-EINVAL);
}

static void sdp_hah_codec(struct kunit *test)
{
	struct pdcm_sdp_hello_ack a;
	u8 b[PDCM_SDP_HELLO_ACK_SIZE];
	u8 *s;

	KUNIT_ASSERT_EQ(test, pdcm_sdp_hah_build(b, sizeof(b), &sdp_acc.hah), 0);
	KUNIT_EXPECT_EQ(test, b[0], PDCM_SDP_MID_HELLO_ACK);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(b + 2), 15);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 4), 196U);
	KUNIT_EXPECT_EQ(test, b[16], 0x22);
	KUNIT_EXPECT_EQ(test, b[19], 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(b + 20), 65536U + 16);
	KUNIT_ASSERT_EQ(test, pdcm_sdp_hah_parse(b, sizeof(b), &a), 0);
	KUNIT_EXPECT_EQ(test, a.bufs, 15);
	KUNIT_EXPECT_EQ(test, a.actrcvsz, 65536U + 16);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hah_build(b, 195, &a), -EMSGSIZE);

	s = kunit_kmalloc(test, 24, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	memcpy(s, b, 24);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hah_parse(s, 24, &a), 0);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hah_parse(s, 23, &a), -EMSGSIZE);
	s[16] = 0x32;
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hah_parse(s, 24, &a), -EPROTO);
	s[16] = 0x22;
	s[0] = PDCM_SDP_MID_HELLO;
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hah_parse(s, 24, &a), -EPROTO);
}

/* ---- listen ----------------------------------------------------------- */

static void sdp_listen_conflicts(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_sdp_listener *l[6], *e;
	unsigned int i;

	l[0] = sdp_listen(f, "10.0.0.1", 5001, 0, NULL);
	l[1] = sdp_listen(f, "10.0.0.2", 5001, 0, NULL);
	l[2] = sdp_listen(f, "0.0.0.0", 5001, 0, NULL);
	l[3] = sdp_listen(f, "::", 5001, 0, NULL);
	l[4] = sdp_listen(f, "::", 5001, PDCM_SDP_LISTEN_V6ONLY, NULL);
	l[5] = sdp_listen(f, "fd00::1", 5001, 0, NULL);
	for (i = 0; i < ARRAY_SIZE(l); i++)
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(l[i]), "listen %u: %ld", i,
				       PTR_ERR(l[i]));

	/* the same address and port twice */
	e = sdp_listen(f, "10.0.0.1", 5001, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EADDRINUSE);
	e = sdp_listen(f, "0.0.0.0", 5001, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EADDRINUSE);
	e = sdp_listen(f, "::", 5001, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EADDRINUSE);
	/* another port is another service ID */
	e = sdp_listen(f, "10.0.0.1", 5002, 0, NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(e));
	pdcm_sdp_listener_destroy(IS_ERR(e) ? NULL : e);
	/* bad parameters */
	e = sdp_listen(f, "10.0.0.1", 0, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EINVAL);
	e = sdp_listen(f, "10.0.0.1", 1, 0x80, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EINVAL);
	for (i = 0; i < ARRAY_SIZE(l); i++)
		if (!IS_ERR(l[i]))
			pdcm_sdp_listener_destroy(l[i]);
	/* gone: the address is free again */
	e = sdp_listen(f, "10.0.0.1", 5001, 0, NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(e));
	pdcm_sdp_listener_destroy(IS_ERR(e) ? NULL : e);
}

/* Several listeners on one port: each Hello reaches the most specific. */
static void sdp_dispatch(struct kunit *test)
{
	struct fake *f = FAKE(test);
	static int a1, a2, any4, any;
	struct pdcm_sdp_listener *l[4];
	const struct sockaddr_in *sin;
	u8 b[PDCM_SDP_HELLO_SIZE];
	unsigned int i;

	l[0] = sdp_listen(f, "10.0.0.1", 6000, 0, &a1);
	l[1] = sdp_listen(f, "10.0.0.2", 6000, 0, &a2);
	l[2] = sdp_listen(f, "0.0.0.0", 6000, 0, &any4);
	l[3] = sdp_listen(f, "::", 6000, 0, &any);
	for (i = 0; i < ARRAY_SIZE(l); i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR(l[i]));

	sdp_hello(b, "10.0.0.9", 40001, "10.0.0.2", 6000);
	sdp_rx_req(f, f->peer_comm, 6000, b);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 1U);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[0].context, (void *)&a2);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].type, PDCM_SDP_CONNECT_REQUEST);
	sdp_hello(b, "10.0.0.9", 40002, "10.0.0.1", 6000);
	sdp_rx_req(f, f->peer_comm + 1, 6000, b);
	sdp_hello(b, "10.0.0.9", 40003, "10.0.0.3", 6000);
	sdp_rx_req(f, f->peer_comm + 2, 6000, b);
	sdp_hello(b, "fd00::9", 40004, "fd00::1", 6000);
	sdp_rx_req(f, f->peer_comm + 3, 6000, b);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 4U);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[1].context, (void *)&a1);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[2].context, (void *)&any4);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[3].context, (void *)&any);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);

	/* what the wildcard learnt */
	sin = (void *)&sdp_rec.ev[2].info.local;
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), 0x0a000003U);
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 6000);
	sin = (void *)&sdp_rec.ev[2].info.peer;
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), 0x0a000009U);
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 40003);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].info.peer_bufs, 7);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].info.peer_max_adverts, 3);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].info.peer_desremrcvsz, 0x11000U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].info.peer_rcvsz, 0x12000U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].info.remote_qpn,
			0x100 + (f->peer_comm + 2) % 256);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].info.remote_psn, 0x123456U);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[2].info.device, f->ibdev);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].info.port, 1U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[3].info.local.ss_family, AF_INET6);

	/* the dual-stack :: takes IPv4 once the IPv4 wildcard is gone */
	pdcm_sdp_listener_destroy(l[2]);
	sdp_hello(b, "10.0.0.9", 40005, "10.0.0.3", 6000);
	sdp_rx_req(f, f->peer_comm + 4, 6000, b);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 5U);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[4].context, (void *)&any);

	/* pending requests outlive their listeners; closing sends REJ 28 */
	pdcm_sdp_listener_destroy(l[0]);
	pdcm_sdp_listener_destroy(l[1]);
	pdcm_sdp_listener_destroy(l[3]);
	for (i = 0; i < sdp_rec.nev; i++)
		pdcm_sdp_close(sdp_rec.ev[i].conn);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 5U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);
}

/* Malformed Hellos get REJ 28 and are counted; nothing reaches the ULP. */
static void sdp_malformed_rej(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_sdp_stats s0, s1;
	struct pdcm_sdp_listener *l;
	u8 good[PDCM_SDP_HELLO_SIZE], b[PDCM_SDP_HELLO_SIZE];
	static const struct {
		unsigned int off;
		u8 val;
	} bad[] = {
		{ 16, 0x12 },	/* major version 1: matches no compare */
		{ 16, 0x32 },	/* major version 3 */
		{ 17, 0x50 },	/* IP version 5 */
		{ 17, 0x00 },	/* IP version 0 */
		{ 0, 0xff },	/* not a Hello: matches the listener */
		{ 7, 10 },	/* BSDH len 10: truncated, matches it too */
		{ 19, 0 },	/* no adverts */
	};
	unsigned int i;

	l = sdp_listen(f, "10.0.0.1", 6100, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	sdp_hello(good, "10.0.0.9", 40001, "10.0.0.1", 6100);
	pdcm_sdp_get_stats(&s0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(b, good, sizeof(b));
		if (bad[i].off == 7)
			put_unaligned_be32(bad[i].val, b + 4);
		else
			b[bad[i].off] = bad[i].val;
		sdp_rx_req(f, f->peer_comm + i, 6100, b);
		KUNIT_ASSERT_EQ_MSG(test, f->nsent, i + 1, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, fake_last(f)->msg.hdr.attr_id,
				    PDCM_ATTR_REJ, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, fake_last(f)->msg.rej.reason,
				    PDCM_REJ_CONSUMER_DEFINED, "case %u", i);
		KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.remote_comm_id,
				f->peer_comm + i);
	}
	KUNIT_EXPECT_EQ(test, sdp_rec.nev, 0U);
	pdcm_sdp_get_stats(&s1);
	KUNIT_EXPECT_EQ(test, s1.malformed - s0.malformed, ARRAY_SIZE(bad));
	KUNIT_EXPECT_EQ(test, s1.requests - s0.requests, ARRAY_SIZE(bad));

	/* well-formed, but nobody listens on that address or port: REJ 8 */
	sdp_hello(b, "10.0.0.9", 40001, "10.0.0.7", 6100);
	sdp_rx_req(f, f->peer_comm + 20, 6100, b);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_INVALID_SERVICE_ID);
	sdp_hello(b, "10.0.0.9", 40001, "10.0.0.1", 6101);
	sdp_rx_req(f, f->peer_comm + 21, 6101, b);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_INVALID_SERVICE_ID);
	pdcm_sdp_get_stats(&s1);
	KUNIT_EXPECT_EQ(test, s1.no_listener - s0.no_listener, 2ULL);
	KUNIT_EXPECT_EQ(test, s1.malformed - s0.malformed, ARRAY_SIZE(bad));
	KUNIT_EXPECT_EQ(test, sdp_rec.nev, 0U);
	pdcm_sdp_listener_destroy(l);
}

/* ---- passive flows ---------------------------------------------------- */

static void sdp_accept_flow(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_sdp_hello_ack a;
	struct pdcm_sdp_listener *l;
	struct pdcm_sdp_stats s0, s1;
	struct pdcm_sdp_conn *c;
	u8 b[PDCM_SDP_HELLO_SIZE];
	struct ib_qp_attr qa = {};
	struct fake_sent *s;
	struct pdcm_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	int mask;

	KUNIT_ASSERT_NOT_NULL(test, m);
	pdcm_sdp_get_stats(&s0);
	l = sdp_listen(f, "10.0.0.1", 6200, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	sdp_hello(b, "10.0.0.9", 40001, "10.0.0.1", 6200);
	sdp_rx_req(f, f->peer_comm, 6200, b);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 1U);
	c = sdp_rec.ev[0].conn;
	/* RTR from the request, then accept outside the handler */
	qa.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, pdcm_sdp_init_qp_attr(c, &qa, &mask), 0);
	KUNIT_EXPECT_EQ(test, qa.dest_qp_num, sdp_rec.ev[0].info.remote_qpn);
	KUNIT_ASSERT_EQ(test, pdcm_sdp_accept(c, &sdp_acc), 0);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_accept(c, &sdp_acc), -EINVAL);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REP);
	KUNIT_EXPECT_EQ(test, s->msg.rep.local_qpn, 0x00beefU);
	KUNIT_EXPECT_EQ(test, s->msg.rep.starting_psn, 0x0a0b0cU);
	KUNIT_EXPECT_EQ(test, s->msg.rep.private_data_len,
			PDCM_SDP_HELLO_ACK_SIZE);
	KUNIT_ASSERT_EQ(test, pdcm_sdp_hah_parse(s->msg.rep.private_data,
						 s->msg.rep.private_data_len,
						 &a), 0);
	KUNIT_EXPECT_EQ(test, a.bufs, 15);
	KUNIT_EXPECT_EQ(test, a.actrcvsz, 65536U + 16);

	/* RTU: connected; the peer's DREQ: DREP, disconnected */
	fake_mk(m, PDCM_ATTR_RTU, s, f->peer_comm);
	fake_rx(f, m);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[1].type, PDCM_SDP_CONNECTED);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[1].conn, c);
	fake_mk(m, PDCM_ATTR_DREQ, s, f->peer_comm);
	fake_rx(f, m);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 3U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[2].type, PDCM_SDP_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_DREP);
	KUNIT_EXPECT_EQ(test, f->nsent, 2U);

	pdcm_sdp_close(c);
	pdcm_sdp_listener_destroy(l);
	pdcm_sdp_get_stats(&s1);
	KUNIT_EXPECT_EQ(test, s1.accepted - s0.accepted, 1ULL);
}

/* Accepted from the handler; closed by the handler; rejected by it. */
static void sdp_handler_actions(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_sdp_stats s0, s1;
	struct pdcm_sdp_listener *l;
	u8 b[PDCM_SDP_HELLO_SIZE];

	pdcm_sdp_get_stats(&s0);
	l = sdp_listen(f, "fd00::1", 6300, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	sdp_hello(b, "fd00::9", 40001, "fd00::1", 6300);

	sdp_rec.action = SDP_ACT_ACCEPT;
	sdp_rx_req(f, f->peer_comm, 6300, b);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REP);

	sdp_rec.action = SDP_ACT_REJECT;
	sdp_rx_req(f, f->peer_comm + 1, 6300, b);
	KUNIT_ASSERT_EQ(test, f->nsent, 2U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);

	sdp_rec.action = SDP_ACT_CLOSE;
	sdp_rx_req(f, f->peer_comm + 2, 6300, b);
	KUNIT_ASSERT_EQ(test, f->nsent, 3U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);

	sdp_rec.action = SDP_ACT_FAIL;
	sdp_rx_req(f, f->peer_comm + 3, 6300, b);
	KUNIT_ASSERT_EQ(test, f->nsent, 4U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, sdp_rec.nev, 4U);

	pdcm_sdp_close(sdp_rec.ev[0].conn);	/* REP_SENT: REJ */
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 4U);
	pdcm_sdp_listener_destroy(l);
	pdcm_sdp_get_stats(&s1);
	KUNIT_EXPECT_EQ(test, s1.rejected - s0.rejected, 1ULL);
	KUNIT_EXPECT_EQ(test, s1.accepted - s0.accepted, 1ULL);
}

/* ---- active flows ----------------------------------------------------- */

static struct pdcm_sdp_conn *sdp_connect(struct fake *f, void *ctx)
{
	struct sockaddr_storage src = sdp_sa4("10.0.0.2", 40100);
	struct sockaddr_storage dst = sdp_sa4("10.0.0.1", 6400);
	struct pdcm_sdp_connect_param p = {
		.device = f->ibdev,
		.port = 1,
		.path = &f->path,
		.src = SA(src),
		.dst = SA(dst),
		.qp_num = 0xabcdef,
		.starting_psn = 0x13579b,
		.hello = { .bufs = 9, .max_adverts = 1, .desremrcvsz = 4096,
			   .localrcvsz = 8192 },
		.handler = sdp_handler,
		.context = ctx,
	};

	return pdcm_sdp_connect(&p);
}

static void sdp_connect_flow(struct kunit *test)
{
	struct fake *f = FAKE(test);
	u8 hah[PDCM_SDP_HELLO_ACK_SIZE];
	const struct sockaddr_in *sin;
	struct pdcm_sdp_hello h;
	struct pdcm_sdp_conn *c;
	struct fake_sent *req;
	struct pdcm_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	static int ctx;

	KUNIT_ASSERT_NOT_NULL(test, m);
	c = sdp_connect(f, &ctx);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	req = fake_last(f);
	KUNIT_ASSERT_EQ(test, req->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test, req->msg.req.service_id, 0x10000ULL | 6400);
	KUNIT_EXPECT_EQ(test, req->msg.req.local_qpn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, req->msg.req.starting_psn, 0x13579bU);
	KUNIT_EXPECT_EQ(test, req->msg.req.private_data_len, 92);
	KUNIT_ASSERT_EQ(test, pdcm_sdp_hh_parse(req->msg.req.private_data, 92,
						pdcm_sdp_service_id(6400), &h),
			0);
	KUNIT_EXPECT_EQ(test, h.bufs, 9);
	KUNIT_EXPECT_EQ(test, h.localrcvsz, 8192U);
	sin = (void *)&h.src;
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 40100);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), 0x0a000002U);
	sin = (void *)&h.dst;
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr), 0x0a000001U);

	/* the Hello Ack: connected, RTU sent after the handler */
	pdcm_sdp_hah_build(hah, sizeof(hah), &sdp_acc.hah);
	fake_mk_rep(f, m, req, f->peer_comm, 0xc0ffee, hah, sizeof(hah));
	fake_rx(f, m);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].type, PDCM_SDP_CONNECTED);
	KUNIT_EXPECT_PTR_EQ(test, sdp_rec.ev[0].context, (void *)&ctx);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].info.peer_bufs, 15);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].info.peer_rcvsz, 65536U + 16);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].info.remote_qpn, 0xc0ffeeU);
	sin = (void *)&sdp_rec.ev[0].info.peer;
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 6400);
	KUNIT_ASSERT_EQ(test, f->nsent, 2U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_RTU);

	/* our disconnect: DREQ; the DREP: disconnected */
	KUNIT_ASSERT_EQ(test, pdcm_sdp_disconnect(c), 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_DREQ);
	fake_mk(m, PDCM_ATTR_DREP, req, f->peer_comm);
	fake_rx(f, m);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[1].type, PDCM_SDP_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[1].status, 0);
	pdcm_sdp_close(c);
}

/* A Hello Ack of the wrong version: REJ 28, counted, an error event. */
static void sdp_connect_bad_hah(struct kunit *test)
{
	struct fake *f = FAKE(test);
	u8 hah[PDCM_SDP_HELLO_ACK_SIZE];
	struct pdcm_sdp_stats s0, s1;
	struct pdcm_sdp_conn *c;
	struct pdcm_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	pdcm_sdp_get_stats(&s0);
	c = sdp_connect(f, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	pdcm_sdp_hah_build(hah, sizeof(hah), &sdp_acc.hah);
	hah[16] = 0x11;
	fake_mk_rep(f, m, fake_last(f), f->peer_comm, 0xc0ffee, hah,
		    sizeof(hah));
	fake_rx(f, m);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].type, PDCM_SDP_ERROR);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].status, -EPROTO);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);
	pdcm_sdp_get_stats(&s1);
	KUNIT_EXPECT_EQ(test, s1.bad_hello_ack - s0.bad_hello_ack, 1ULL);
	pdcm_sdp_close(c);
}

/* Refused by the peer (REJ 8), and no answer at all. */
static void sdp_connect_rejected(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_sdp_conn *c;
	struct pdcm_msg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	c = sdp_connect(f, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	fake_mk(m, PDCM_ATTR_REJ, fake_last(f), f->peer_comm);
	m->rej.reason = PDCM_REJ_INVALID_SERVICE_ID;
	fake_rx(f, m);
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].type, PDCM_SDP_REJECTED);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[0].status, PDCM_REJ_INVALID_SERVICE_ID);
	pdcm_sdp_close(c);

	c = sdp_connect(f, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c));
	KUNIT_ASSERT_TRUE(test, fake_time_out(f));
	KUNIT_ASSERT_EQ(test, sdp_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[1].type, PDCM_SDP_ERROR);
	KUNIT_EXPECT_EQ(test, sdp_rec.ev[1].status, -ETIMEDOUT);
	pdcm_sdp_close(c);
}

static struct kunit_case pdcm_sdp_cases[] = {
	KUNIT_CASE(sdp_hh_layout),
	KUNIT_CASE(sdp_hh_malformed),
	KUNIT_CASE(sdp_hah_codec),
	KUNIT_CASE(sdp_listen_conflicts),
	KUNIT_CASE(sdp_dispatch),
	KUNIT_CASE(sdp_malformed_rej),
	KUNIT_CASE(sdp_accept_flow),
	KUNIT_CASE(sdp_handler_actions),
	KUNIT_CASE(sdp_connect_flow),
	KUNIT_CASE(sdp_connect_bad_hah),
	KUNIT_CASE(sdp_connect_rejected),
	{}
};

static struct kunit_suite pdcm_sdp_suite = {
	.name = "pdcm_sdp",
	.suite_init = fake_suite_init,
	.suite_exit = fake_suite_exit,
	.init = sdp_init,
	.exit = fake_exit,
	.test_cases = pdcm_sdp_cases,
};

kunit_test_suite(pdcm_sdp_suite);
