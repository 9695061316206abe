// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "pdcm_kdapl": the kDAPL shim (ulp/kdapl) through the fake
 * transport of fake.h: conn_qual mapping, DAT_CONN_QUAL_IN_USE verdicts,
 * CR contents, both demux models side by side, a shared backlog's
 * overflow (drop and REJ), RSP single use, and the accept, reject,
 * connect and disconnect flows.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/inet.h>
#include <linux/slab.h>
#include <rdma/pdcm_dat.h>

#include "fake.h"

MODULE_IMPORT_NS(PDCM_NS(PDCM_DAT));

#define DAT_MAX_EV	16
#define DAT_CQ		7174

struct dat_ev {
	enum pdcm_dat_event_number num;
	void *instance;
	struct pdcm_dat_sp *sp;
	struct pdcm_dat_cr *cr;
	struct pdcm_dat_ep *ep;
	u64 conn_qual;
	struct sockaddr_storage local;
	struct pdcm_dat_cr_param param;
	u8 pdata[8];
	size_t pdata_size;
	u16 reason;
};

static struct {
	struct dat_ev ev[DAT_MAX_EV];
	unsigned int nev;
	struct pdcm_dat_ep *accept_ep;	/* accept CRs in the upcall */
	bool reject;			/* reject CRs in the upcall */
} dat_rec;

static void dat_upcall(void *instance, const struct pdcm_dat_event *ev)
{
	struct dat_ev *e;

	if (dat_rec.nev >= DAT_MAX_EV)
		return;
	e = &dat_rec.ev[dat_rec.nev++];
	e->num = ev->event_number;
	e->instance = instance;
	if (ev->event_number == PDCM_DAT_CONNECTION_REQUEST_EVENT) {
		const struct pdcm_dat_cr_arrival_event_data *a = &ev->cr_arrival;

		e->sp = a->sp_handle;
		e->cr = a->cr_handle;
		e->conn_qual = a->conn_qual;
		memcpy(&e->local, a->local_ia_address_ptr,
		       sizeof(struct sockaddr_in6));
		e->param = *pdcm_dat_cr_query(a->cr_handle);
		if (dat_rec.accept_ep)
			pdcm_dat_cr_accept(a->cr_handle, dat_rec.accept_ep,
					   "rep", 3);
		else if (dat_rec.reject)
			pdcm_dat_cr_reject(a->cr_handle, "no", 2);
		return;
	}
	e->ep = ev->connect.ep_handle;
	e->reason = ev->connect.reason;
	e->pdata_size = ev->connect.private_data_size;
	if (ev->connect.private_data)
		memcpy(e->pdata, ev->connect.private_data,
		       min_t(size_t, sizeof(e->pdata),
			     ev->connect.private_data_size));
}

static struct sockaddr_storage dat_sa4(const char *ip, u16 port)
{
	struct sockaddr_storage ss = {};
	struct sockaddr_in *sin = (void *)&ss;

	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	in4_pton(ip, -1, (u8 *)&sin->sin_addr, -1, NULL);
	return ss;
}

#define SA(ss)	((struct sockaddr *)&(ss))

static u32 dat_ip(const struct sockaddr_storage *ss)
{
	return ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr);
}

static u16 dat_port(const struct sockaddr_storage *ss)
{
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

static struct pdcm_dat_ia *dat_ia(struct kunit *test, const char *ip)
{
	struct sockaddr_storage a = dat_sa4(ip, 0);
	struct pdcm_dat_ia *ia = pdcm_dat_ia_open(FAKE(test)->ibdev, 1, SA(a));

	KUNIT_ASSERT_FALSE(test, IS_ERR(ia));
	return ia;
}

static struct pdcm_dat_sp *dat_psp(struct pdcm_dat_ia *ia, u64 cq,
				   struct pdcm_backlog *g, u32 flags,
				   void *instance)
{
	struct pdcm_dat_sp_attr attr = {
		.conn_qual = cq,
		.evd = { .func = dat_upcall, .instance_data = instance },
		.backlog_group = g,
		.flags = flags,
	};

	return pdcm_dat_psp_create(ia, &attr);
}

static struct pdcm_dat_ep *dat_ep(struct pdcm_dat_ia *ia, u32 qpn)
{
	struct pdcm_dat_ep_attr attr = {
		.qp_num = qpn,
		.starting_psn = 0x0a0b0c,
		.responder_resources = 4,
		.initiator_depth = 4,
		.evd = { .func = dat_upcall, .instance_data = ia },
	};

	return pdcm_dat_ep_create(ia, &attr);
}

/* The peer connects from @src_ip:@sport to @dst_ip on @cq, as rdma_cm. */
static void dat_rx_req(struct fake *f, u32 comm, const char *src_ip,
		       u16 sport, const char *dst_ip, u64 cq,
		       const char *pdata)
{
	struct sockaddr_storage src = dat_sa4(src_ip, sport);
	struct sockaddr_storage dst = dat_sa4(dst_ip, 0);
	struct pdcm_msg *m = kunit_kzalloc(f->test, sizeof(*m), GFP_KERNEL);
	u8 b[92] = {};

	KUNIT_ASSERT_NOT_NULL(f->test, m);
	WARN_ON(pdcm_cma_hdr_build(b, sizeof(b), SA(src), SA(dst)));
	if (pdata)
		memcpy(b + PDCM_CMA_HDR_SIZE, pdata, strlen(pdata));
	fake_mk_req(f, m, comm, 0x200 + comm % 256,
		    be64_to_cpu(pdcm_dat_service_id(cq)), b, sizeof(b));
	fake_rx(f, m);
	kunit_kfree(f->test, m);
}

static int dat_init(struct kunit *test)
{
	memset(&dat_rec, 0, sizeof(dat_rec));
	return fake_init(test);
}

/* ---- mapping and verdicts --------------------------------------------- */

static void dat_conn_qual_map(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, pdcm_dat_conn_qual_port(7174), 7174);
	KUNIT_EXPECT_EQ(test, pdcm_dat_conn_qual_port(0xffff), 0xffff);
	/* 100000 % 32001 = 3997, + 33534 */
	KUNIT_EXPECT_EQ(test, pdcm_dat_conn_qual_port(100000), 37531);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(pdcm_dat_service_id(7174)),
			0x0000000001061c06ULL);
	KUNIT_EXPECT_EQ(test, pdcm_dat_status(-EADDRINUSE),
			PDCM_DAT_CONN_QUAL_IN_USE);
	KUNIT_EXPECT_EQ(test, pdcm_dat_status(-EBUSY),
			PDCM_DAT_CONN_QUAL_IN_USE);
	KUNIT_EXPECT_EQ(test, pdcm_dat_status(-ENOMEM),
			PDCM_DAT_INSUFFICIENT_RESOURCES);
	KUNIT_EXPECT_EQ(test, pdcm_dat_status(0), PDCM_DAT_SUCCESS);
}

static void dat_conn_qual_in_use(struct kunit *test)
{
	struct pdcm_dat_ia *ia1 = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_ia *ia1b = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_ia *ia2 = dat_ia(test, "10.0.0.2");
	struct pdcm_dat_ia *any = dat_ia(test, "0.0.0.0");
	struct pdcm_dat_sp *p[4], *e;
	struct pdcm_dat_sp_attr attr = {
		.conn_qual = DAT_CQ,
		.evd = { .func = dat_upcall },
	};
	unsigned int i;

	p[0] = dat_psp(ia1, DAT_CQ, NULL, 0, NULL);
	p[1] = dat_psp(ia2, DAT_CQ, NULL, 0, NULL);	/* other address */
	p[2] = dat_psp(any, DAT_CQ, NULL, 0, NULL);	/* wildcard beside */
	p[3] = dat_psp(ia1, 100000, NULL, 0, NULL);	/* port 37531 */
	for (i = 0; i < ARRAY_SIZE(p); i++)
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(p[i]), "psp %u: %ld", i,
				       PTR_ERR(p[i]));

	/* the same IA and conn_qual: DAT_CONN_QUAL_IN_USE */
	e = dat_psp(ia1, DAT_CQ, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, pdcm_dat_status(PTR_ERR(e)),
			PDCM_DAT_CONN_QUAL_IN_USE);
	/* ... also through a second IA of the same address */
	e = dat_psp(ia1b, DAT_CQ, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EADDRINUSE);
	/* ... also for an RSP */
	e = pdcm_dat_rsp_create(ia1, &attr, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EADDRINUSE);
	/* ... also for the wildcard */
	e = dat_psp(any, DAT_CQ, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EADDRINUSE);
	/* a conn_qual folding onto the same port is the same service ID */
	e = dat_psp(ia1, 37531, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EADDRINUSE);
	/* bad parameters */
	e = dat_psp(ia1, 0, NULL, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(e), -EINVAL);

	pdcm_dat_psp_free(p[0]);
	e = dat_psp(ia1, DAT_CQ, NULL, 0, NULL);	/* free again */
	KUNIT_EXPECT_FALSE(test, IS_ERR(e));
	pdcm_dat_psp_free(IS_ERR(e) ? NULL : e);
	for (i = 1; i < ARRAY_SIZE(p); i++)
		pdcm_dat_psp_free(p[i]);
	pdcm_dat_ia_close(ia1);
	pdcm_dat_ia_close(ia1b);
	pdcm_dat_ia_close(ia2);
	pdcm_dat_ia_close(any);
}

/* ---- CRs --------------------------------------------------------------- */

static void dat_cr_contents(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_dat_ia *any = dat_ia(test, "0.0.0.0");
	struct pdcm_dat_sp *psp = dat_psp(any, DAT_CQ, NULL, 0, any);
	struct fake_sent *s;
	struct dat_ev *e;

	KUNIT_ASSERT_FALSE(test, IS_ERR(psp));
	dat_rx_req(f, f->peer_comm, "10.0.0.9", 40001, "10.0.0.3", DAT_CQ,
		   "kdapl-hello");
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 1U);
	e = &dat_rec.ev[0];
	KUNIT_EXPECT_EQ(test, e->num, PDCM_DAT_CONNECTION_REQUEST_EVENT);
	KUNIT_EXPECT_PTR_EQ(test, e->sp, psp);
	KUNIT_EXPECT_PTR_EQ(test, e->instance, (void *)any);
	KUNIT_EXPECT_EQ(test, e->conn_qual, (u64)DAT_CQ);
	/* the wildcard IA learns the address the peer connected to */
	KUNIT_EXPECT_EQ(test, dat_ip(&e->local), 0x0a000003U);
	KUNIT_EXPECT_EQ(test, dat_port(&e->local), DAT_CQ);
	KUNIT_EXPECT_EQ(test, dat_ip(&e->param.local_ia_address), 0x0a000003U);
	KUNIT_EXPECT_EQ(test, dat_ip(&e->param.remote_ia_address), 0x0a000009U);
	KUNIT_EXPECT_EQ(test, e->param.remote_port_qual, 40001);
	KUNIT_EXPECT_EQ(test, e->param.private_data_size, 56U);
	KUNIT_EXPECT_EQ(test, memcmp(e->param.private_data, "kdapl-hello", 11),
			0);
	KUNIT_EXPECT_EQ(test, e->param.private_data[11], 0);
	KUNIT_EXPECT_EQ(test, e->param.remote_qpn,
			0x200 + f->peer_comm % 256);
	KUNIT_EXPECT_EQ(test, e->param.remote_psn, 0x123456U);
	KUNIT_EXPECT_NULL(test, e->param.local_ep_handle);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);

	/* reject later, with private data: REJ 28 */
	KUNIT_EXPECT_EQ(test, pdcm_dat_cr_reject(e->cr, "busy", 4), 0);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, memcmp(s->msg.rej.private_data, "busy", 4), 0);

	/* a header that is not RDMA CM's (version 1) matches no PSP: REJ 8 */
	{
		u8 b[92] = { 1, 0x40 };
		struct pdcm_msg m;

		fake_mk_req(f, &m, f->peer_comm + 1, 0x300,
			    be64_to_cpu(pdcm_dat_service_id(DAT_CQ)), b,
			    sizeof(b));
		fake_rx(f, &m);
		KUNIT_EXPECT_EQ(test, dat_rec.nev, 1U);
		KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
				PDCM_REJ_INVALID_SERVICE_ID);
	}
	pdcm_dat_psp_free(psp);
	pdcm_dat_ia_close(any);
}

/*
 * The two demux models side by side on one conn_qual:
 *  (a) one wildcard PSP per conn_qual: every CR reaches it and the
 *      consumer demuxes on the CR's local address;
 *  (b) one PSP per IA address: pdcm demuxes; the wildcard PSP stays as
 *      the fallback for the addresses no IA claims.
 */
static void dat_demux_models(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_dat_ia *any = dat_ia(test, "0.0.0.0");
	struct pdcm_dat_ia *ia1 = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_ia *ia2 = dat_ia(test, "10.0.0.2");
	struct pdcm_dat_sp *pa, *p1, *p2;
	unsigned int i;

	/* (a) alone */
	pa = dat_psp(any, DAT_CQ, NULL, 0, any);
	KUNIT_ASSERT_FALSE(test, IS_ERR(pa));
	dat_rx_req(f, f->peer_comm, "10.0.0.9", 40001, "10.0.0.1", DAT_CQ, NULL);
	dat_rx_req(f, f->peer_comm + 1, "10.0.0.9", 40002, "10.0.0.2", DAT_CQ,
		   NULL);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 2U);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[0].sp, pa);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[1].sp, pa);
	KUNIT_EXPECT_EQ(test, dat_ip(&dat_rec.ev[0].local), 0x0a000001U);
	KUNIT_EXPECT_EQ(test, dat_ip(&dat_rec.ev[1].local), 0x0a000002U);

	/* (b) added: the per-address PSPs take their addresses */
	p1 = dat_psp(ia1, DAT_CQ, NULL, 0, ia1);
	p2 = dat_psp(ia2, DAT_CQ, NULL, 0, ia2);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(p2));
	dat_rx_req(f, f->peer_comm + 2, "10.0.0.9", 40003, "10.0.0.1", DAT_CQ,
		   NULL);
	dat_rx_req(f, f->peer_comm + 3, "10.0.0.9", 40004, "10.0.0.2", DAT_CQ,
		   NULL);
	dat_rx_req(f, f->peer_comm + 4, "10.0.0.9", 40005, "10.0.0.3", DAT_CQ,
		   NULL);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 5U);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[2].sp, p1);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[2].instance, (void *)ia1);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[3].sp, p2);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[4].sp, pa);
	KUNIT_EXPECT_EQ(test, dat_ip(&dat_rec.ev[4].local), 0x0a000003U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);

	pdcm_dat_psp_free(pa);
	pdcm_dat_psp_free(p1);
	pdcm_dat_psp_free(p2);
	for (i = 0; i < dat_rec.nev; i++)
		pdcm_dat_cr_reject(dat_rec.ev[i].cr, NULL, 0);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 5U);
	pdcm_dat_ia_close(any);
	pdcm_dat_ia_close(ia1);
	pdcm_dat_ia_close(ia2);
}

/*
 * Model (b) with one backlog for all its PSPs: two CRs pending fill a
 * group of 2 whichever PSP they came to; the next is dropped (the peer's
 * CM retries) or, with PDCM_DAT_SP_REJ_ON_OVERFLOW, answered REJ 3.
 */
static void dat_shared_backlog(struct kunit *test, u32 flags)
{
	struct fake *f = FAKE(test);
	struct pdcm_dat_ia *ia1 = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_ia *ia2 = dat_ia(test, "10.0.0.2");
	struct pdcm_backlog *g = pdcm_backlog_create(2);
	long dropped = atomic_long_read(&f->port->cnt.backlog_dropped);
	long rejected = atomic_long_read(&f->port->cnt.backlog_rejected);
	struct pdcm_dat_sp *p1, *p2;
	unsigned int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, g);
	p1 = dat_psp(ia1, DAT_CQ, g, flags, ia1);
	p2 = dat_psp(ia2, DAT_CQ, g, flags, ia2);
	pdcm_backlog_put(g);		/* the PSPs hold it */
	KUNIT_ASSERT_FALSE(test, IS_ERR(p1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(p2));

	dat_rx_req(f, f->peer_comm, "10.0.0.9", 40001, "10.0.0.1", DAT_CQ, NULL);
	dat_rx_req(f, f->peer_comm + 1, "10.0.0.9", 40002, "10.0.0.2", DAT_CQ,
		   NULL);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 2U);
	/* the group is full: to either PSP */
	dat_rx_req(f, f->peer_comm + 2, "10.0.0.9", 40003, "10.0.0.1", DAT_CQ,
		   NULL);
	dat_rx_req(f, f->peer_comm + 3, "10.0.0.9", 40004, "10.0.0.2", DAT_CQ,
		   NULL);
	KUNIT_EXPECT_EQ(test, dat_rec.nev, 2U);
	if (flags & PDCM_DAT_SP_REJ_ON_OVERFLOW) {
		KUNIT_ASSERT_EQ(test, f->nsent, 2U);
		KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
				PDCM_REJ_NO_RESOURCES);
		KUNIT_EXPECT_TRUE(test, fake_last(f)->reply);
		KUNIT_EXPECT_EQ(test,
				atomic_long_read(&f->port->cnt.backlog_rejected) -
				rejected, 2);
	} else {
		KUNIT_EXPECT_EQ(test, f->nsent, 0U);
		KUNIT_EXPECT_EQ(test,
				atomic_long_read(&f->port->cnt.backlog_dropped) -
				dropped, 2);
	}

	/* answering one CR frees a slot for any PSP of the group */
	pdcm_dat_cr_reject(dat_rec.ev[0].cr, NULL, 0);
	dat_rx_req(f, f->peer_comm + 3, "10.0.0.9", 40004, "10.0.0.2", DAT_CQ,
		   NULL);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 3U);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[2].sp, p2);

	pdcm_dat_psp_free(p1);
	pdcm_dat_psp_free(p2);
	for (i = 1; i < dat_rec.nev; i++)
		pdcm_dat_cr_reject(dat_rec.ev[i].cr, NULL, 0);
	pdcm_dat_ia_close(ia1);
	pdcm_dat_ia_close(ia2);
}

static void dat_shared_backlog_drop(struct kunit *test)
{
	dat_shared_backlog(test, 0);
}

static void dat_shared_backlog_rej(struct kunit *test)
{
	dat_shared_backlog(test, PDCM_DAT_SP_REJ_ON_OVERFLOW);
}

/* An RSP reports one CR and is gone; its conn_qual is free after. */
static void dat_rsp_single_use(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_dat_ia *ia1 = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_ep *ep = dat_ep(ia1, 0x00beef);
	struct pdcm_dat_sp_attr attr = {
		.conn_qual = DAT_CQ,
		.evd = { .func = dat_upcall, .instance_data = ia1 },
	};
	struct pdcm_dat_sp *rsp, *psp;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ep));
	rsp = pdcm_dat_rsp_create(ia1, &attr, ep);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rsp));
	dat_rec.accept_ep = ep;
	dat_rx_req(f, f->peer_comm, "10.0.0.9", 40001, "10.0.0.1", DAT_CQ, NULL);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 1U);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[0].sp, rsp);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[0].param.local_ep_handle, ep);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REP);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rep.local_qpn, 0x00beefU);

	/* a second CR: refused, whether the RSP is still going or gone */
	dat_rx_req(f, f->peer_comm + 1, "10.0.0.9", 40002, "10.0.0.1", DAT_CQ,
		   NULL);
	KUNIT_EXPECT_EQ(test, dat_rec.nev, 1U);
	KUNIT_ASSERT_EQ(test, f->nsent, 2U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_INVALID_SERVICE_ID);
	pdcm_dat_ia_flush(ia1);
	dat_rx_req(f, f->peer_comm + 2, "10.0.0.9", 40003, "10.0.0.1", DAT_CQ,
		   NULL);
	KUNIT_EXPECT_EQ(test, dat_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_INVALID_SERVICE_ID);
	/* the conn_qual is free again */
	psp = dat_psp(ia1, DAT_CQ, NULL, 0, NULL);
	KUNIT_EXPECT_FALSE(test, IS_ERR(psp));
	pdcm_dat_psp_free(IS_ERR(psp) ? NULL : psp);

	/* an unused RSP can be freed */
	rsp = pdcm_dat_rsp_create(ia1, &attr, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(rsp));
	pdcm_dat_rsp_free(rsp);
	pdcm_dat_ep_free(ep);
	pdcm_dat_ia_close(ia1);
}

/* ---- flows ------------------------------------------------------------ */

static void dat_accept_flow(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_dat_ia *ia1 = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_sp *psp = dat_psp(ia1, DAT_CQ, NULL, 0, ia1);
	struct pdcm_dat_ep *ep = dat_ep(ia1, 0x00beef), *ep2;
	struct ib_qp_attr qa = {};
	struct fake_sent *rep;
	struct pdcm_msg m;
	int mask;

	KUNIT_ASSERT_FALSE(test, IS_ERR(psp));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ep));
	dat_rx_req(f, f->peer_comm, "10.0.0.9", 40001, "10.0.0.1", DAT_CQ, "x");
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 1U);
	qa.qp_state = IB_QPS_RTR;
	KUNIT_EXPECT_EQ(test, pdcm_dat_cr_init_qp_attr(dat_rec.ev[0].cr, &qa,
						       &mask), 0);
	KUNIT_EXPECT_EQ(test, qa.dest_qp_num, dat_rec.ev[0].param.remote_qpn);
	KUNIT_EXPECT_EQ(test, pdcm_dat_ep_init_qp_attr(ep, &qa, &mask),
			-ENOTCONN);
	KUNIT_ASSERT_EQ(test, pdcm_dat_cr_accept(dat_rec.ev[0].cr, ep, "ok", 2),
			0);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	rep = fake_last(f);
	KUNIT_ASSERT_EQ(test, rep->msg.hdr.attr_id, PDCM_ATTR_REP);
	KUNIT_EXPECT_EQ(test, rep->msg.rep.local_qpn, 0x00beefU);
	KUNIT_EXPECT_EQ(test, rep->msg.rep.private_data_len, 2);
	KUNIT_EXPECT_EQ(test, memcmp(rep->msg.rep.private_data, "ok", 2), 0);
	qa.qp_state = IB_QPS_RTS;
	KUNIT_EXPECT_EQ(test, pdcm_dat_ep_init_qp_attr(ep, &qa, &mask), 0);

	/* an EP takes one connection */
	dat_rx_req(f, f->peer_comm + 1, "10.0.0.9", 40002, "10.0.0.1", DAT_CQ,
		   NULL);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, pdcm_dat_cr_accept(dat_rec.ev[1].cr, ep, NULL, 0),
			-EISCONN);
	pdcm_dat_cr_reject(dat_rec.ev[1].cr, NULL, 0);

	fake_mk(&m, PDCM_ATTR_RTU, rep, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 3U);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[2].num,
			PDCM_DAT_CONNECTION_EVENT_ESTABLISHED);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[2].ep, ep);
	fake_mk(&m, PDCM_ATTR_DREQ, rep, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 4U);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[3].num,
			PDCM_DAT_CONNECTION_EVENT_DISCONNECTED);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_DREP);

	/* accepted and rejected from the upcall */
	ep2 = dat_ep(ia1, 0x00cafe);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ep2));
	dat_rec.accept_ep = ep2;
	dat_rx_req(f, f->peer_comm + 2, "10.0.0.9", 40003, "10.0.0.1", DAT_CQ,
		   NULL);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REP);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rep.local_qpn, 0x00cafeU);
	dat_rec.accept_ep = NULL;
	dat_rec.reject = true;
	dat_rx_req(f, f->peer_comm + 3, "10.0.0.9", 40004, "10.0.0.1", DAT_CQ,
		   NULL);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, memcmp(fake_last(f)->msg.rej.private_data, "no",
				     2), 0);

	pdcm_dat_psp_free(psp);
	pdcm_dat_ep_free(ep);
	pdcm_dat_ep_free(ep2);		/* REP_SENT: REJ */
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	pdcm_dat_ia_close(ia1);
}

static void dat_connect_flow(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_dat_ia *ia1 = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_ep *ep = dat_ep(ia1, 0xabcdef);
	struct sockaddr_storage peer = dat_sa4("10.0.0.5", 9);
	struct sockaddr_storage src, dst;
	struct fake_sent *req;
	struct pdcm_msg m;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ep));
	KUNIT_ASSERT_EQ(test, pdcm_dat_ep_connect(ep, SA(peer), DAT_CQ, "hi", 2,
						  &f->path), 0);
	KUNIT_EXPECT_EQ(test, pdcm_dat_ep_connect(ep, SA(peer), DAT_CQ, NULL, 0,
						  &f->path), -EISCONN);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	req = fake_last(f);
	KUNIT_ASSERT_EQ(test, req->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test, req->msg.req.service_id, 0x0000000001061c06ULL);
	KUNIT_EXPECT_EQ(test, req->msg.req.local_qpn, 0xabcdefU);
	/* what an rdma_cm listener reads */
	KUNIT_ASSERT_EQ(test, pdcm_cma_hdr_parse(req->msg.req.private_data, 92,
						 cpu_to_be64(0x0000000001061c06ULL),
						 &src, &dst), 0);
	KUNIT_EXPECT_EQ(test, dat_ip(&src), 0x0a000001U);
	KUNIT_EXPECT_GE(test, dat_port(&src), 32768);
	KUNIT_EXPECT_EQ(test, dat_ip(&dst), 0x0a000005U);
	KUNIT_EXPECT_EQ(test, dat_port(&dst), DAT_CQ);
	KUNIT_EXPECT_EQ(test, memcmp(req->msg.req.private_data + 36, "hi", 2),
			0);

	fake_mk_rep(f, &m, req, f->peer_comm, 0xc0ffee, "acc", 3);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[0].num,
			PDCM_DAT_CONNECTION_EVENT_ESTABLISHED);
	KUNIT_EXPECT_PTR_EQ(test, dat_rec.ev[0].ep, ep);
	KUNIT_EXPECT_EQ(test, memcmp(dat_rec.ev[0].pdata, "acc", 3), 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_RTU);

	KUNIT_ASSERT_EQ(test, pdcm_dat_ep_disconnect(ep), 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_DREQ);
	fake_mk(&m, PDCM_ATTR_DREP, req, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[1].num,
			PDCM_DAT_CONNECTION_EVENT_DISCONNECTED);
	pdcm_dat_ep_free(ep);
	pdcm_dat_ia_close(ia1);
}

/* Peer REJ 28, CM REJ 8, no answer, and a wildcard IA cannot connect. */
static void dat_connect_rejected(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_dat_ia *ia1 = dat_ia(test, "10.0.0.1");
	struct pdcm_dat_ia *any = dat_ia(test, "0.0.0.0");
	struct sockaddr_storage peer = dat_sa4("10.0.0.5", 0);
	struct pdcm_dat_ep *ep;
	struct pdcm_msg m;

	ep = dat_ep(ia1, 1);
	KUNIT_ASSERT_EQ(test, pdcm_dat_ep_connect(ep, SA(peer), DAT_CQ, NULL, 0,
						  &f->path), 0);
	fake_mk(&m, PDCM_ATTR_REJ, fake_last(f), f->peer_comm);
	m.rej.reason = PDCM_REJ_CONSUMER_DEFINED;
	memcpy(m.rej.private_data, "nope", 4);
	m.rej.private_data_len = 4;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[0].num,
			PDCM_DAT_CONNECTION_EVENT_PEER_REJECTED);
	KUNIT_EXPECT_EQ(test, memcmp(dat_rec.ev[0].pdata, "nope", 4), 0);
	pdcm_dat_ep_free(ep);

	ep = dat_ep(ia1, 2);
	KUNIT_ASSERT_EQ(test, pdcm_dat_ep_connect(ep, SA(peer), DAT_CQ, NULL, 0,
						  &f->path), 0);
	fake_mk(&m, PDCM_ATTR_REJ, fake_last(f), f->peer_comm + 1);
	m.rej.reason = PDCM_REJ_INVALID_SERVICE_ID;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[1].num,
			PDCM_DAT_CONNECTION_EVENT_NON_PEER_REJECTED);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[1].reason,
			PDCM_REJ_INVALID_SERVICE_ID);
	pdcm_dat_ep_free(ep);

	ep = dat_ep(ia1, 3);
	KUNIT_ASSERT_EQ(test, pdcm_dat_ep_connect(ep, SA(peer), DAT_CQ, NULL, 0,
						  &f->path), 0);
	KUNIT_ASSERT_TRUE(test, fake_time_out(f));
	KUNIT_ASSERT_EQ(test, dat_rec.nev, 3U);
	KUNIT_EXPECT_EQ(test, dat_rec.ev[2].num,
			PDCM_DAT_CONNECTION_EVENT_TIMED_OUT);
	pdcm_dat_ep_free(ep);

	ep = dat_ep(any, 4);
	KUNIT_EXPECT_EQ(test, pdcm_dat_ep_connect(ep, SA(peer), DAT_CQ, NULL, 0,
						  &f->path), -EADDRNOTAVAIL);
	pdcm_dat_ep_free(ep);
	pdcm_dat_ia_close(ia1);
	pdcm_dat_ia_close(any);
}

static struct kunit_case pdcm_kdapl_cases[] = {
	KUNIT_CASE(dat_conn_qual_map),
	KUNIT_CASE(dat_conn_qual_in_use),
	KUNIT_CASE(dat_cr_contents),
	KUNIT_CASE(dat_demux_models),
	KUNIT_CASE(dat_shared_backlog_drop),
	KUNIT_CASE(dat_shared_backlog_rej),
	KUNIT_CASE(dat_rsp_single_use),
	KUNIT_CASE(dat_accept_flow),
	KUNIT_CASE(dat_connect_flow),
	KUNIT_CASE(dat_connect_rejected),
	{}
};

static struct kunit_suite pdcm_kdapl_suite = {
	.name = "pdcm_kdapl",
	.suite_init = fake_suite_init,
	.suite_exit = fake_suite_exit,
	.init = dat_init,
	.exit = fake_exit,
	.test_cases = pdcm_kdapl_cases,
};

kunit_test_suite(pdcm_kdapl_suite);
