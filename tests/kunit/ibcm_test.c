// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "pdcm_ibcm": the ib_cm drop-in (compat/ib_cm.c) through
 * <rdma/ib_cm.h> only, on pdcm driven by the fake transport of fake.h.
 *
 * Each case checks one behaviour that ib_cm's users (rdma_cm above all)
 * rely on: inherited handler and context, the values of the struct at the
 * moment of each event, shared listens, a handler's return, DREQ only
 * when established, delayed MRA, COMM_EST from atomic context, RoCE
 * fields of a REQ, full-size private data and the translation of every
 * parameter.  Ids are destroyed at the end of the case, oldest first;
 * fake_exit() then checks that no pdcm conn leaked.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <rdma/ib_cm.h>
#include <rdma/pdcm.h>

#include "../../cm/compat.h"
#include "fake.h"

#define IBT_MAX_EV	16
#define IBT_MAX_OWN	16

/* One event a handler saw, copied during the call. */
struct ibt_ev {
	struct ib_cm_id *cm_id;
	int handler;			/* 1: ibt_handler, 2: ibt_handler2 */
	enum ib_cm_event_type type;
	enum ib_cm_state state;
	void *context;
	struct ib_cm_event ev;		/* pointers in it are stale */
	struct sa_path_rec path;
	struct sa_path_rec alt;		/* a REQ's or LAP's alternate path */
	bool has_alt;
	bool has_pdata;
	u8 pdata[IB_CM_RTU_PRIVATE_DATA_SIZE];
	u8 ari[IB_CM_REJ_ARI_LENGTH];	/* a REJ's, copied */
};

static struct {
	struct ibt_ev ev[IBT_MAX_EV];
	unsigned int nev;
	struct {
		struct ib_cm_id *id;
		bool gone;
	} own[IBT_MAX_OWN];
	unsigned int nown;
	int ret_for[IB_CM_SIDR_REP_RECEIVED + 1];
	/* on REQ_RECEIVED: switch the new id to ibt_handler2 and this */
	void *rewrite_context;
	/* on REP_RECEIVED: send a delayed MRA */
	bool mra_on_rep;
	/* on REQ_RECEIVED: destroy this (other) id */
	struct ib_cm_id *destroy_on_req;
	/* on REQ_RECEIVED: complete @entered, then wait for @open */
	bool block_on_req;
	struct completion entered;
	struct completion open;
	u64 sid;
} ibt;

static const u8 ibt_pdata[5] = "hello";

/*
 * A GID entry of the fake device's port 1, for the sends: its device and
 * port are read (the case's device is set before each use).
 */
static struct ib_gid_attr ibt_gid_attr = { .port_num = 1 };

static void ibt_own(struct ib_cm_id *id)
{
	if (ibt.nown < IBT_MAX_OWN) {
		ibt.own[ibt.nown].id = id;
		ibt.own[ibt.nown].gone = false;
		ibt.nown++;
	}
}

static void ibt_disown(struct ib_cm_id *id)
{
	unsigned int i;

	for (i = 0; i < ibt.nown; i++)
		if (ibt.own[i].id == id)
			ibt.own[i].gone = true;
}

static unsigned int ibt_pdata_size(enum ib_cm_event_type t)
{
	switch (t) {
	case IB_CM_REQ_RECEIVED: return IB_CM_REQ_PRIVATE_DATA_SIZE;
	case IB_CM_REP_RECEIVED: return IB_CM_REP_PRIVATE_DATA_SIZE;
	case IB_CM_RTU_RECEIVED: return IB_CM_RTU_PRIVATE_DATA_SIZE;
	case IB_CM_DREQ_RECEIVED: return IB_CM_DREQ_PRIVATE_DATA_SIZE;
	case IB_CM_DREP_RECEIVED: return IB_CM_DREP_PRIVATE_DATA_SIZE;
	case IB_CM_MRA_RECEIVED: return IB_CM_MRA_PRIVATE_DATA_SIZE;
	case IB_CM_REJ_RECEIVED: return IB_CM_REJ_PRIVATE_DATA_SIZE;
	case IB_CM_SIDR_REQ_RECEIVED: return IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE;
	case IB_CM_SIDR_REP_RECEIVED: return IB_CM_SIDR_REP_PRIVATE_DATA_SIZE;
	case IB_CM_LAP_RECEIVED: return IB_CM_LAP_PRIVATE_DATA_SIZE;
	default: return 0;
	}
}

/*
 * rdma_cm's delayed MRA: ib_prepare_cm_mra() from 6.16 on, before it
 * ib_send_cm_mra() with IB_CM_MRA_FLAG_DELAY and the same service timeout
 * (24), so that these cases run on either interface.
 */
static int ibt_delayed_mra(struct ib_cm_id *cm_id)
{
#ifdef PDCM_IBCM_PREPARE_MRA
	return ib_prepare_cm_mra(cm_id);
#else
	return ib_send_cm_mra(cm_id, IB_CM_MRA_FLAG_DELAY | 24, NULL, 0);
#endif
}

static int ibt_record(struct ib_cm_id *cm_id, const struct ib_cm_event *ev,
		      int which)
{
	struct ibt_ev *e = ibt.nev < IBT_MAX_EV ? &ibt.ev[ibt.nev++] : NULL;
	unsigned int size = ibt_pdata_size(ev->event);
	int ret;

	if (e) {
		e->cm_id = cm_id;
		e->handler = which;
		e->type = ev->event;
		e->state = cm_id->state;
		e->context = cm_id->context;
		e->ev = *ev;
		if (ev->event == IB_CM_REQ_RECEIVED &&
		    ev->param.req_rcvd.primary_path)
			e->path = *ev->param.req_rcvd.primary_path;
		e->has_alt = false;
		if (ev->event == IB_CM_REQ_RECEIVED &&
		    ev->param.req_rcvd.alternate_path) {
			e->alt = *ev->param.req_rcvd.alternate_path;
			e->has_alt = true;
		}
		if (ev->event == IB_CM_LAP_RECEIVED &&
		    ev->param.lap_rcvd.alternate_path) {
			e->alt = *ev->param.lap_rcvd.alternate_path;
			e->has_alt = true;
		}
		if (ev->event == IB_CM_REJ_RECEIVED && ev->param.rej_rcvd.ari)
			memcpy(e->ari, ev->param.rej_rcvd.ari,
			       min_t(u8, ev->param.rej_rcvd.ari_length,
				     sizeof(e->ari)));
		e->has_pdata = ev->private_data;
		/* the whole field: KASAN catches a buffer that is shorter */
		if (ev->private_data && size)
			memcpy(e->pdata, ev->private_data, size);
	}
	if (ev->event == IB_CM_REQ_RECEIVED ||
	    ev->event == IB_CM_SIDR_REQ_RECEIVED) {
		ibt_own(cm_id);
		if (ibt.rewrite_context)
			cm_id->context = ibt.rewrite_context;
		if (ibt.destroy_on_req) {
			ibt_disown(ibt.destroy_on_req);
			ib_destroy_cm_id(ibt.destroy_on_req);
			ibt.destroy_on_req = NULL;
		}
		if (ibt.block_on_req) {
			ibt.block_on_req = false;
			complete(&ibt.entered);
			wait_for_completion_timeout(&ibt.open, 10 * HZ);
		}
	}
	if (ev->event == IB_CM_REP_RECEIVED && ibt.mra_on_rep)
		ibt_delayed_mra(cm_id);
	ret = ev->event <= IB_CM_SIDR_REP_RECEIVED ? ibt.ret_for[ev->event] : 0;
	if (ret)
		ibt_disown(cm_id);	/* the CM destroys it */
	return ret;
}

static int ibt_handler2(struct ib_cm_id *cm_id, const struct ib_cm_event *ev)
{
	return ibt_record(cm_id, ev, 2);
}

static int ibt_handler(struct ib_cm_id *cm_id, const struct ib_cm_event *ev)
{
	int ret = ibt_record(cm_id, ev, 1);

	/* what rdma_cm does inside its REQ callback */
	if (ev->event == IB_CM_REQ_RECEIVED && ibt.rewrite_context)
		cm_id->cm_handler = ibt_handler2;
	return ret;
}

static struct ibt_ev *ibt_last(void)
{
	return ibt.nev ? &ibt.ev[ibt.nev - 1] : NULL;
}

static struct ib_cm_id *ibt_id(struct fake *f, void *context)
{
	struct ib_cm_id *id = ib_create_cm_id(f->ibdev, ibt_handler, context);

	KUNIT_ASSERT_FALSE(f->test, IS_ERR(id));
	ibt_own(id);
	return id;
}

static struct ib_cm_id *ibt_listen(struct fake *f, void *context)
{
	struct ib_cm_id *id = ibt_id(f, context);

	KUNIT_ASSERT_EQ(f->test, ib_cm_listen(id, cpu_to_be64(ibt.sid)), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, IB_CM_LISTEN);
	return id;
}

static void ibt_destroy(struct ib_cm_id *id)
{
	ibt_disown(id);
	ib_destroy_cm_id(id);
}

/*
 * pdcm_conns_live() once it is @want: an id destroyed by its handler's
 * return is freed by its last reference, from pdcm_wq, a little later.
 */
static int ibt_live_settles(int want)
{
	int tries;

	for (tries = 0; tries < 100 && pdcm_conns_live() != want; tries++)
		msleep(20);
	return pdcm_conns_live();
}

/* A REQ from the peer's @comm; the new id (asserts one new event). */
static struct ib_cm_id *ibt_passive_req(struct fake *f, u32 comm)
{
	unsigned int nev = ibt.nev;
	struct pdcm_msg m;

	/* each comm ID its own QP: a second REQ from a connected QP is stale */
	fake_mk_req(f, &m, comm, 0x112233 + (comm - f->peer_comm), ibt.sid,
		    ibt_pdata, 1);
	m.req.local_qkey = 0x11223344;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(f->test, ibt.nev, nev + 1);
	KUNIT_ASSERT_EQ(f->test, ibt_last()->type, IB_CM_REQ_RECEIVED);
	return ibt_last()->cm_id;
}

static struct ib_cm_rep_param ibt_rep = {
	.qp_num = 0x00beef,
	.starting_psn = 0x0a0b0c,
	.responder_resources = 1,
	.initiator_depth = 2,
	.rnr_retry_count = 7,
	.private_data = ibt_pdata,
	.private_data_len = 3,
};

static struct ib_cm_id *ibt_passive_est(struct fake *f, u32 comm)
{
	struct ib_cm_id *id = ibt_passive_req(f, comm);
	struct pdcm_msg m;

	KUNIT_ASSERT_EQ(f->test, ib_send_cm_rep(id, &ibt_rep), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, IB_CM_REP_SENT);
	fake_mk_to(&m, PDCM_ATTR_RTU, f->tid + comm, be32_to_cpu(id->local_id),
		   0x00beef, comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(f->test, id->state, IB_CM_ESTABLISHED);
	return id;
}

static void ibt_req_param(struct fake *f, struct ib_cm_req_param *p)
{
	memset(p, 0, sizeof(*p));
	p->primary_path = &f->path;
	ibt_gid_attr.device = f->ibdev;
	p->ppath_sgid_attr = &ibt_gid_attr;
	p->service_id = cpu_to_be64(ibt.sid);
	p->qp_num = 0xabcdef;
	p->qp_type = IB_QPT_RC;
	p->starting_psn = 0x13579b;
	p->private_data = ibt_pdata;
	p->private_data_len = sizeof(ibt_pdata);
	p->responder_resources = 7;
	p->initiator_depth = 6;
	p->remote_cm_response_timeout = 20;
	p->local_cm_response_timeout = 18;
	p->retry_count = 7;
	p->rnr_retry_count = 6;
	p->max_cm_retries = 9;
}

/* Active side up to REP_RCVD (the REP from comm f->peer_comm). */
static struct ib_cm_id *ibt_active_rep(struct fake *f, struct pdcm_msg *m)
{
	struct ib_cm_req_param p;
	struct ib_cm_id *id = ibt_id(f, NULL);
	static const u8 pd = 0x5a;

	ibt_req_param(f, &p);
	KUNIT_ASSERT_EQ(f->test, ib_send_cm_req(id, &p), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, IB_CM_REQ_SENT);
	fake_mk_rep(f, m, fake_last(f), f->peer_comm, 0xc0ffee, &pd, 1);
	m->rep.local_qkey = 0x55667788;
	m->rep.target_ack_delay = 10;
	m->rep.srq = 1;
	fake_rx(f, m);
	return id;
}

static int ibt_init(struct kunit *test)
{
	int ret;

	memset(&ibt, 0, sizeof(ibt));
	ret = fake_init(test);
	if (!ret)
		ibt.sid = 0x1235000000000000ULL | (u64)FAKE(test)->seq << 8;
	return ret;
}

static void ibt_exit(struct kunit *test)
{
	unsigned int i;

	fake_settle();
	for (i = 0; i < ibt.nown; i++)
		if (!ibt.own[i].gone) {
			ibt.own[i].gone = true;
			ib_destroy_cm_id(ibt.own[i].id);
		}
	fake_exit(test);
}

/* ---- cases ----------------------------------------------------------- */

/*
 * REQ in: a new id with the listen's handler and context, the REQ in
 * ib_cm's terms; then the handler and context the REQ callback wrote
 * are the ones the next event uses.
 */
static void ibcm_passive_inherits(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_id *l = ibt_listen(f, (void *)0xc1);
	const struct ib_cm_req_event_param *p;
	struct ib_cm_id *id;
	struct ibt_ev *e;
	struct pdcm_msg m;
	unsigned int i;

	ibt.rewrite_context = (void *)0xc2;
	id = ibt_passive_req(f, f->peer_comm);
	e = ibt_last();
	p = &e->ev.param.req_rcvd;
	KUNIT_EXPECT_PTR_NE(test, id, l);
	KUNIT_EXPECT_EQ(test, e->handler, 1);
	KUNIT_EXPECT_PTR_EQ(test, e->context, (void *)0xc1);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_REQ_RCVD);
	KUNIT_EXPECT_PTR_EQ(test, p->listen_id, l);
	KUNIT_EXPECT_PTR_EQ(test, p->listen_id->device, f->ibdev);
	KUNIT_EXPECT_PTR_EQ(test, id->device, f->ibdev);
	KUNIT_EXPECT_EQ(test, p->port, 1);
	KUNIT_EXPECT_EQ(test, p->remote_qpn, 0x112233U);
	KUNIT_EXPECT_EQ(test, p->remote_qkey, 0x11223344U);
	KUNIT_EXPECT_EQ(test, p->starting_psn, 0x123456U);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p->remote_ca_guid), f->peer_guid);
	KUNIT_EXPECT_EQ(test, p->qp_type, IB_QPT_RC);
	KUNIT_EXPECT_EQ(test, p->responder_resources, 5);
	KUNIT_EXPECT_EQ(test, p->initiator_depth, 3);
	KUNIT_EXPECT_EQ(test, (int)p->local_cm_response_timeout, 17);
	KUNIT_EXPECT_EQ(test, (int)p->remote_cm_response_timeout, 19);
	KUNIT_EXPECT_EQ(test, (int)p->retry_count, 6);
	KUNIT_EXPECT_EQ(test, (int)p->rnr_retry_count, 5);
	KUNIT_EXPECT_EQ(test, (int)p->flow_control, 1);
	KUNIT_EXPECT_NULL(test, p->alternate_path);
	KUNIT_EXPECT_EQ(test, p->ece.vendor_id, 0U);
	/* what rdma_cm reads: the path's service ID, GIDs and P_Key */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->path.service_id), ibt.sid);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->path.sgid.global.interface_id),
			f->node_guid);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->path.dgid.global.interface_id),
			f->peer_guid);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(e->path.pkey), 0xffff);
	/* the fake port has no P_Key cache: the REQ's P_Key */
	KUNIT_EXPECT_EQ(test, p->bth_pkey, 0xffff);
	/* full-size private data, zero after what the peer sent */
	KUNIT_EXPECT_TRUE(test, e->has_pdata);
	KUNIT_EXPECT_EQ(test, e->pdata[0], 'h');
	for (i = 1; i < IB_CM_REQ_PRIVATE_DATA_SIZE; i++)
		if (e->pdata[i])
			break;
	KUNIT_EXPECT_EQ(test, i, (unsigned int)IB_CM_REQ_PRIVATE_DATA_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, id->context, (void *)0xc2);
	/* the listen's own fields are untouched */
	KUNIT_EXPECT_PTR_EQ(test, l->context, (void *)0xc1);
	KUNIT_EXPECT_PTR_EQ(test, (void *)l->cm_handler, (void *)ibt_handler);

	/* the next event of the new id goes where the callback said */
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(id, &ibt_rep), 0);
	fake_mk_to(&m, PDCM_ATTR_RTU, f->tid + f->peer_comm,
		   be32_to_cpu(id->local_id), 0x00beef, f->peer_comm);
	m.rtu.private_data[0] = 0x77;
	fake_rx(f, &m);
	e = ibt_last();
	KUNIT_EXPECT_EQ(test, e->type, IB_CM_RTU_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->handler, 2);
	KUNIT_EXPECT_PTR_EQ(test, e->context, (void *)0xc2);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, e->pdata[0], 0x77);
	KUNIT_EXPECT_EQ(test, e->pdata[IB_CM_RTU_PRIVATE_DATA_SIZE - 1], 0);
	/* and a later REQ still starts from the listen's values */
	ibt.rewrite_context = NULL;
	ibt_passive_req(f, f->peer_comm + 1);
	KUNIT_EXPECT_EQ(test, ibt_last()->handler, 1);
	KUNIT_EXPECT_PTR_EQ(test, ibt_last()->context, (void *)0xc1);
}

/* ib_cm_insert_listen(): one listen per (device, service ID), counted. */
static void ibcm_insert_listen_shared(struct kunit *test)
{
	struct fake *f = FAKE(test);
	__be64 sid = cpu_to_be64(ibt.sid);
	struct ib_cm_id *a, *b, *c;

	a = ib_cm_insert_listen(f->ibdev, ibt_handler, sid);
	KUNIT_ASSERT_FALSE(test, IS_ERR(a));
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_LISTEN);
	KUNIT_EXPECT_NULL(test, a->context);
	b = ib_cm_insert_listen(f->ibdev, ibt_handler, sid);
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	/* another handler, or a listen with a context: -EINVAL */
	c = ib_cm_insert_listen(f->ibdev, ibt_handler2, sid);
	KUNIT_EXPECT_PTR_EQ(test, c, ERR_PTR(-EINVAL));
	a->context = (void *)1;
	c = ib_cm_insert_listen(f->ibdev, ibt_handler, sid);
	KUNIT_EXPECT_PTR_EQ(test, c, ERR_PTR(-EINVAL));
	a->context = NULL;
	/* ib_cm_listen() on the same pair collides */
	c = ibt_id(f, NULL);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(c, sid), -EBUSY);
	KUNIT_EXPECT_EQ(test, c->state, IB_CM_IDLE);

	/* the first destroy leaves it listening */
	ib_destroy_cm_id(a);
	ibt_passive_req(f, f->peer_comm);
	KUNIT_EXPECT_PTR_EQ(test, ibt_last()->ev.param.req_rcvd.listen_id, b);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 0U);
	/* the last one removes it: the next REQ finds nothing, REJ 8 */
	ib_destroy_cm_id(b);
	{
		struct pdcm_msg m;

		fake_mk_req(f, &m, f->peer_comm + 1, 0x112234, ibt.sid,
			    ibt_pdata, 1);
		fake_rx(f, &m);
	}
	KUNIT_EXPECT_EQ(test, ibt.nev, 1U);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			IB_CM_REJ_INVALID_SERVICE_ID);
	/* and the pair is free again, for ib_cm_listen() too */
	KUNIT_EXPECT_EQ(test, ib_cm_listen(c, sid), 0);
}

/* ib_cm_listen(): -EINVAL outside IDLE and in the reserved range. */
static void ibcm_listen_errors(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_id *l = ibt_listen(f, NULL);
	struct ib_cm_id *id = ibt_id(f, NULL);
	struct ib_cm_id *a = ibt_id(f, NULL);

	KUNIT_EXPECT_EQ(test, ib_cm_listen(l, cpu_to_be64(ibt.sid + 1)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(id,
					   cpu_to_be64(0x02000000000000abULL)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(id, cpu_to_be64(ibt.sid)), -EBUSY);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_IDLE);
	/* an assigned ID lands in the reserved range */
	KUNIT_ASSERT_EQ(test, ib_cm_listen(a, IB_CM_ASSIGN_SERVICE_ID), 0);
	KUNIT_EXPECT_EQ(test, a->service_id & IB_SERVICE_ID_AGN_MASK,
			IB_CM_ASSIGN_SERVICE_ID);
	KUNIT_EXPECT_NE(test, a->service_id, IB_CM_ASSIGN_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, ib_cm_listen(id, cpu_to_be64(ibt.sid + 1)), 0);
}

static struct {
	struct work_struct destroy;
	struct work_struct insert;
	struct completion inserted;
	struct ib_device *ibdev;
	struct ib_cm_id *old, *got;
} ibt_dl;

static void ibt_dl_destroy_fn(struct work_struct *work)
{
	ib_destroy_cm_id(ibt_dl.old);
}

static void ibt_dl_insert_fn(struct work_struct *work)
{
	ibt_dl.got = ib_cm_insert_listen(ibt_dl.ibdev, ibt_handler,
					 cpu_to_be64(ibt.sid));
	complete(&ibt_dl.inserted);
}

/*
 * ib_cm_insert_listen() for a pair whose last listen is being destroyed
 * makes a new listen at once.  It used to wait for that destroy to end,
 * i.e. for the old listen's running REQ handlers: rdma_cm inserts under
 * its global lock, which its REQ handler takes, so the three deadlocked.
 */
static void ibcm_insert_beside_dying_listen(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_msg m;
	bool done;

	ibt_dl.old = ib_cm_insert_listen(f->ibdev, ibt_handler,
					 cpu_to_be64(ibt.sid));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ibt_dl.old));
	ibt_dl.ibdev = f->ibdev;
	ibt_dl.got = NULL;
	init_completion(&ibt_dl.inserted);
	init_completion(&ibt.entered);
	init_completion(&ibt.open);
	ibt.block_on_req = true;
	fake_mk_req(f, &m, f->peer_comm, 0x112233, ibt.sid, ibt_pdata, 1);
	fake_inject(f, &m);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&ibt.entered,
							    5 * HZ));
	INIT_WORK(&ibt_dl.destroy, ibt_dl_destroy_fn);
	INIT_WORK(&ibt_dl.insert, ibt_dl_insert_fn);
	queue_work(system_unbound_wq, &ibt_dl.destroy);
	msleep(100);		/* the destroy now waits for the handler */
	queue_work(system_unbound_wq, &ibt_dl.insert);
	done = wait_for_completion_timeout(&ibt_dl.inserted, 3 * HZ);
	complete(&ibt.open);	/* the handler (rdma_cm: the lock) goes on */
	flush_work(&ibt_dl.destroy);
	flush_work(&ibt_dl.insert);
	fake_settle();
	KUNIT_EXPECT_TRUE(test, done);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(ibt_dl.got));
	KUNIT_EXPECT_PTR_NE(test, ibt_dl.got, ibt_dl.old);
	KUNIT_EXPECT_EQ(test, ibt_dl.got->state, IB_CM_LISTEN);
	/* and it is the listen now */
	ibt_passive_req(f, f->peer_comm + 1);
	KUNIT_EXPECT_PTR_EQ(test, ibt_last()->ev.param.req_rcvd.listen_id,
			    ibt_dl.got);
	ib_destroy_cm_id(ibt_dl.got);
}

/* A handler's non-zero return destroys its id, with REJ. */
static void ibcm_handler_return_destroys(struct kunit *test)
{
	struct fake *f = FAKE(test);
	int live;

	ibt_listen(f, NULL);
	live = pdcm_conns_live();	/* the listen's id included */
	ibt.ret_for[IB_CM_REQ_RECEIVED] = -EINVAL;
	ibt_passive_req(f, f->peer_comm);
	fake_settle();
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	KUNIT_EXPECT_EQ(test, ibt_live_settles(live), live);
}

/* -ENOMEM from a handler destroys the id and sends nothing. */
static void ibcm_handler_enomem(struct kunit *test)
{
	struct fake *f = FAKE(test);
	int live;

	ibt_listen(f, NULL);
	live = pdcm_conns_live();	/* the listen's id included */
	ibt.ret_for[IB_CM_REQ_RECEIVED] = -ENOMEM;
	ibt_passive_req(f, f->peer_comm);
	fake_settle();
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, ibt_live_settles(live), live);
	/* the peer's retry is a new REQ and is delivered */
	ibt.ret_for[IB_CM_REQ_RECEIVED] = 0;
	ibt_passive_req(f, f->peer_comm);
	KUNIT_EXPECT_EQ(test, ibt.nev, 2U);
}

/*
 * -ENOMEM from a SIDR_REQ handler (rdma_ucm with a full backlog) still
 * answers SIDR_REP REJECT, as ib_cm does: only an unanswered REQ is left
 * for the peer to retry.  It used to send nothing, so udaddy's SIDR_REQ
 * was retried to the end instead of failing at once.
 */
static void ibcm_handler_enomem_sidr(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_msg m;
	int live;

	ibt_listen(f, NULL);
	live = pdcm_conns_live();
	ibt.ret_for[IB_CM_SIDR_REQ_RECEIVED] = -ENOMEM;
	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REQ, f->tid + f->peer_comm);
	m.sidr_req.request_id = f->peer_comm;
	m.sidr_req.pkey = 0x8001;
	m.sidr_req.service_id = ibt.sid;
	m.sidr_req.private_data_len = PDCM_SIDR_REQ_PDATA_SIZE;
	fake_rx(f, &m);
	fake_settle();
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_SIDR_REP), 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.sidr_rep.status, IB_SIDR_REJECT);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.sidr_rep.request_id,
			f->peer_comm);
	KUNIT_EXPECT_EQ(test, ibt_live_settles(live), live);
}

/* ib_send_cm_dreq() only when established (rdma_disconnect's fallback). */
static void ibcm_dreq_only_established(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_id *id;
	struct pdcm_msg m;

	ibt_listen(f, NULL);
	id = ibt_passive_req(f, f->peer_comm);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_REQ_RCVD);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(id, &ibt_rep), 0);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(id, NULL, 0), -EINVAL);
	fake_mk_to(&m, PDCM_ATTR_RTU, f->tid + f->peer_comm,
		   be32_to_cpu(id->local_id), 0x00beef, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(id, ibt_pdata, 2), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_DREQ_SENT);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_DREQ);
	KUNIT_EXPECT_EQ(test, ib_send_cm_dreq(id, NULL, 0), -EINVAL);
	/* the DREP ends in TIMEWAIT, with full-size private data */
	fake_mk_to(&m, PDCM_ATTR_DREP, fake_last(f)->msg.hdr.tid,
		   be32_to_cpu(id->local_id), 0x00beef, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, ibt_last()->type, IB_CM_DREP_RECEIVED);
	KUNIT_EXPECT_TRUE(test, ibt_last()->has_pdata);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_TIMEWAIT);
}

/*
 * The delayed MRA on a REQ: nothing sent until the REQ repeats (and from
 * 6.16 a second ib_prepare_cm_mra() is refused: REQ_RCVD and REP_RCVD
 * only).
 */
static void ibcm_delayed_mra_req(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_id *id;
	struct pdcm_msg m;

	ibt_listen(f, NULL);
	id = ibt_passive_req(f, f->peer_comm);
	KUNIT_ASSERT_EQ(test, ibt_delayed_mra(id), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_MRA_REQ_SENT);
#ifdef PDCM_IBCM_PREPARE_MRA
	KUNIT_EXPECT_EQ(test, ib_prepare_cm_mra(id), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_MRA_REQ_SENT);
#endif
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	fake_mk_req(f, &m, f->peer_comm, 0x112233, ibt.sid, ibt_pdata, 1);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, ibt.nev, 1U);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.mra.service_timeout, 24);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rep(id, &ibt_rep), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_REP_SENT);
}

/* The delayed MRA on a REP, from the REP callback. */
static void ibcm_delayed_mra_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	const struct ib_cm_rep_event_param *p;
	struct ib_cm_id *id;
	struct pdcm_msg m;
	unsigned int n;

	ibt.mra_on_rep = true;
	id = ibt_active_rep(f, &m);
	KUNIT_ASSERT_EQ(test, ibt.nev, 1U);
	KUNIT_ASSERT_EQ(test, ibt_last()->type, IB_CM_REP_RECEIVED);
	p = &ibt_last()->ev.param.rep_rcvd;
	KUNIT_EXPECT_EQ(test, p->remote_qpn, 0xc0ffeeU);
	KUNIT_EXPECT_EQ(test, p->remote_qkey, 0x55667788U);
	KUNIT_EXPECT_EQ(test, (int)p->target_ack_delay, 10);
	KUNIT_EXPECT_EQ(test, (int)p->srq, 1);
	KUNIT_EXPECT_EQ(test, ibt_last()->pdata[0], 0x5a);
	KUNIT_EXPECT_EQ(test, ibt_last()->pdata[IB_CM_REP_PRIVATE_DATA_SIZE - 1],
			0);
	KUNIT_EXPECT_EQ(test, ibt_last()->state, IB_CM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_MRA_REP_SENT);
	n = f->nsent;
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 0U);
	/* the REP again: now the MRA goes out */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 1U);
	KUNIT_EXPECT_EQ(test, f->nsent, n + 1);
	KUNIT_EXPECT_EQ(test, ib_send_cm_rtu(id, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_ESTABLISHED);
}

/* ib_cm_notify(COMM_EST) with interrupts off, as from a QP event. */
static void ibcm_notify_atomic(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned long flags;
	struct ib_cm_id *id;
	int ret, ret2, mig;

	ibt_listen(f, NULL);
	id = ibt_passive_req(f, f->peer_comm);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(id, IB_EVENT_PATH_MIG), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(id, &ibt_rep), 0);
	local_irq_save(flags);
	ret = ib_cm_notify(id, IB_EVENT_COMM_EST);
	ret2 = ib_cm_notify(id, IB_EVENT_COMM_EST);
	mig = ib_cm_notify(id, IB_EVENT_PATH_MIG);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, ret2, -EISCONN);
	KUNIT_EXPECT_EQ(test, mig, 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_ESTABLISHED);
	fake_settle();
	KUNIT_ASSERT_EQ(test, ibt.nev, 2U);
	KUNIT_EXPECT_EQ(test, ibt_last()->type, IB_CM_USER_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ibt_last()->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(id, IB_EVENT_QP_FATAL), -EINVAL);
}

/* The REQ on the wire carries what ib_send_cm_req() was given. */
static void ibcm_active_req(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_req_param p;
	struct ib_cm_id *id = ibt_id(f, NULL);
	struct fake_sent *s;

	ibt_req_param(f, &p);
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(id, NULL), -EINVAL);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(id, &p), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_REQ_SENT);
	KUNIT_EXPECT_NE(test, id->local_id, 0U);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(id->service_id), ibt.sid);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.req.service_id, ibt.sid);
	KUNIT_EXPECT_EQ(test, s->msg.req.local_qpn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, s->msg.req.starting_psn, 0x13579bU);
	KUNIT_EXPECT_EQ(test, s->msg.req.responder_resources, 7);
	KUNIT_EXPECT_EQ(test, s->msg.req.initiator_depth, 6);
	KUNIT_EXPECT_EQ(test, s->msg.req.max_cm_retries, 9);
	KUNIT_EXPECT_EQ(test, s->msg.req.private_data[0], 'h');
	KUNIT_EXPECT_EQ(test, s->msg.req.local_comm_id,
			be32_to_cpu(id->local_id));
	/* not twice */
	KUNIT_EXPECT_EQ(test, ib_send_cm_req(id, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REQ), 1U);
}

/* REJ in: reason, ARI and 148 bytes of private data. */
static void ibcm_rej_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_req_param p;
	struct ib_cm_id *id = ibt_id(f, NULL);
	struct pdcm_msg m;
	struct ibt_ev *e;

	ibt_req_param(f, &p);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(id, &p), 0);
	fake_mk(&m, PDCM_ATTR_REJ, fake_last(f), f->peer_comm);
	m.rej.reason = IB_CM_REJ_CONSUMER_DEFINED;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_REQ;
	m.rej.ari[0] = 0x42;
	m.rej.ari_len = 1;
	m.rej.private_data[0] = 0x99;
	m.rej.private_data_len = PDCM_REJ_PDATA_SIZE;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, ibt.nev, 1U);
	e = ibt_last();
	KUNIT_EXPECT_EQ(test, e->type, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.ari_length, 1);
	KUNIT_EXPECT_EQ(test, e->pdata[0], 0x99);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_IDLE);
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(IB_CM_REJ_CONSUMER_DEFINED),
			   "rejected by the consumer");
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(IB_CM_REJ_INVALID_SERVICE_ID),
			   "invalid service ID");
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(34), "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(-1), "unrecognized reason");
	KUNIT_EXPECT_STREQ(test, ibcm_reject_msg(1000), "unrecognized reason");
}

/*
 * CM redirect (issue 34 #14): a REJ PORT_CM_REDIRECT (24) reaches the ULP
 * with its ARI, the ClassPortInfo naming the CM's new QP; the ULP writes
 * that into remote_cm_qpn, as ib_srp does, and sends its REQ again: the
 * REQ goes to that QP.  pdcm sent every MAD to QP1 whatever was written.
 */
static void ibcm_cm_redirect(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_class_port_info cpi = {
		.redirect_qp = cpu_to_be32(0x000777),
		.redirect_lid = cpu_to_be16(0x21),
		.redirect_pkey = cpu_to_be16(0xffff),
	};
	struct ib_cm_id *id = ibt_id(f, NULL);
	struct ib_cm_req_param p;
	struct pdcm_msg m;
	struct ibt_ev *e;

	BUILD_BUG_ON(sizeof(cpi) != IB_CM_REJ_ARI_LENGTH);
	ibt_req_param(f, &p);
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(id, &p), 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->remote_qpn, 1U);
	fake_mk(&m, PDCM_ATTR_REJ, fake_last(f), f->peer_comm);
	m.rej.reason = IB_CM_REJ_PORT_CM_REDIRECT;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_REQ;
	memcpy(m.rej.ari, &cpi, sizeof(cpi));
	m.rej.ari_len = sizeof(cpi);
	fake_rx(f, &m);
	e = ibt_last();
	KUNIT_ASSERT_EQ(test, e->type, IB_CM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			IB_CM_REJ_PORT_CM_REDIRECT);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.ari_length, sizeof(cpi));
	KUNIT_EXPECT_EQ(test, memcmp(e->ari, &cpi, sizeof(cpi)), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_IDLE);

	id->remote_cm_qpn = be32_to_cpu(cpi.redirect_qp) & 0xffffff;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(id, &p), 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->remote_qpn, 0x777U);
}

/* Destroying a passive id before answering rejects the REQ. */
static void ibcm_destroy_req_rcvd(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_id *id;

	ibt_listen(f, NULL);
	id = ibt_passive_req(f, f->peer_comm);
	ibt_destroy(id);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.remote_comm_id,
			f->peer_comm);
}

/* SIDR both ways, in ib_cm's terms. */
static void ibcm_sidr(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_sidr_rep_param rp = {
		.qp_num = 0x00abcd,
		.qkey = 0x80010000,
		.status = IB_SIDR_SUCCESS,
	};
	struct ib_cm_sidr_req_param sp = {
		.path = &f->path,
		.sgid_attr = &ibt_gid_attr,
		.service_id = cpu_to_be64(ibt.sid + 1),
		.timeout_ms = 500,
		.max_cm_retries = 3,
	};
	struct ib_cm_id *l = ibt_listen(f, (void *)0x5d);
	const struct ib_cm_sidr_req_event_param *p;
	struct ib_cm_id *id, *a;
	struct fake_sent *s;
	struct pdcm_msg m;
	struct ibt_ev *e;

	ibt_gid_attr.device = f->ibdev;

	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REQ, f->tid + f->peer_comm);
	m.sidr_req.request_id = f->peer_comm;
	m.sidr_req.pkey = 0x8001;
	m.sidr_req.service_id = ibt.sid;
	m.sidr_req.private_data[0] = 0x3c;
	m.sidr_req.private_data_len = PDCM_SIDR_REQ_PDATA_SIZE;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, ibt.nev, 1U);
	e = ibt_last();
	KUNIT_ASSERT_EQ(test, e->type, IB_CM_SIDR_REQ_RECEIVED);
	p = &e->ev.param.sidr_req_rcvd;
	id = e->cm_id;
	KUNIT_EXPECT_PTR_NE(test, id, l);
	KUNIT_EXPECT_PTR_EQ(test, p->listen_id, l);
	KUNIT_EXPECT_PTR_EQ(test, e->context, (void *)0x5d);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p->service_id), ibt.sid);
	KUNIT_EXPECT_EQ(test, p->pkey, 0x8001);
	KUNIT_EXPECT_EQ(test, p->bth_pkey, 0x8001);
	KUNIT_EXPECT_EQ(test, p->port, 1);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_SIDR_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, e->pdata[0], 0x3c);
	KUNIT_EXPECT_EQ(test, e->pdata[IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE - 1], 0);
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_rep(id, &rp), 0);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_IDLE);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_SIDR_REP);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.qpn, 0x00abcdU);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.qkey, 0x80010000U);

	/* the active side */
	a = ibt_id(f, NULL);
	KUNIT_ASSERT_EQ(test, ib_send_cm_sidr_req(a, &sp), 0);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_SIDR_REQ_SENT);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_SIDR_REQ);
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 500U);
	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REP, s->msg.hdr.tid);
	m.sidr_rep.request_id = be32_to_cpu(a->local_id);
	m.sidr_rep.status = IB_SIDR_SUCCESS;
	m.sidr_rep.qpn = 0x654321;
	m.sidr_rep.qkey = 0x01234567;
	m.sidr_rep.service_id = ibt.sid + 1;
	fake_rx(f, &m);
	e = ibt_last();
	KUNIT_ASSERT_EQ(test, e->type, IB_CM_SIDR_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.sidr_rep_rcvd.status, IB_SIDR_SUCCESS);
	KUNIT_EXPECT_EQ(test, e->ev.param.sidr_rep_rcvd.qpn, 0x654321U);
	KUNIT_EXPECT_EQ(test, e->ev.param.sidr_rep_rcvd.qkey, 0x01234567U);
	KUNIT_EXPECT_TRUE(test, e->has_pdata);
	KUNIT_EXPECT_EQ(test, a->state, IB_CM_IDLE);
}

/* A handler may destroy another id (rdma_cm does): DREQ, no deadlock. */
static void ibcm_handler_destroys_other(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_id *a;

	ibt_listen(f, NULL);
	a = ibt_passive_est(f, f->peer_comm);
	ibt.destroy_on_req = a;
	ibt_passive_req(f, f->peer_comm + 1);
	KUNIT_EXPECT_NULL(test, ibt.destroy_on_req);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.dreq.remote_comm_id,
			f->peer_comm);
}

/* ib_cm_init_qp_attr(): the connection's QP attributes. */
static void ibcm_init_qp_attr(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_RTR };
	struct ib_cm_id *id;
	int mask = 0;

	ibt_listen(f, NULL);
	id = ibt_passive_est(f, f->peer_comm);
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.dest_qp_num, 0x112233U);
	KUNIT_EXPECT_EQ(test, attr.rq_psn, 0x0a0b0cU);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_DEST_QPN);
	attr.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(id, &attr, &mask), 0);
	KUNIT_EXPECT_EQ(test, attr.sq_psn, 0x123456U);
}

/* ---- alternate paths (issue 34 #13) --------------------------------- */

/* Make the fake port an InfiniBand one, and its path a LID-routed one. */
static void ibt_port_ib(struct fake *f)
{
	f->ibdev->port_data[1].immutable.core_cap_flags =
		RDMA_CORE_CAP_PROT_IB | RDMA_CORE_CAP_IB_MAD |
		RDMA_CORE_CAP_IB_CM;
	f->path.rec_type = SA_PATH_REC_TYPE_IB;
	sa_path_set_slid(&f->path, 0x11);
	sa_path_set_dlid(&f->path, 0x22);
	f->path.hop_limit = 0;
}

/* @m arrives over InfiniBand without a GRH, from LID @slid. */
static void ibt_rx_ib(struct fake *f, const struct pdcm_msg *m, u16 slid)
{
	struct pdcm_rx rx = { .port = f->port };

	rx.wc.slid = slid;
	f->port->up->rx(&rx, m);
	fake_settle();
}

/*
 * Alternate paths through the drop-in (issue 34 #13), as ib_cm has them:
 * ib_send_cm_req()'s alternate path goes out in the REQ; a received REQ's
 * reaches the handler (req_rcvd.alternate_path, with the service ID, as
 * rdma_cm copies it into its route); ib_cm_init_qp_attr() loads it
 * (IB_QP_ALT_PATH); ib_cm_notify(IB_EVENT_PATH_MIG) makes it the id's
 * (lap_state IB_CM_LAP_IDLE) and RTS then rearms it.  The drop-in sent
 * none, passed none on and loaded none.
 */
static void ibcm_apm(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_req_param p;
	struct ib_qp_attr a = {};
	struct sa_path_rec alt;
	struct ib_cm_id *id;
	struct fake_sent *s;
	struct pdcm_path *w;
	struct pdcm_msg m;
	struct ibt_ev *e;
	int mask;

	ibt_port_ib(f);
	alt = f->path;
	sa_path_set_slid(&alt, 0x33);
	sa_path_set_dlid(&alt, 0x44);
	id = ibt_id(f, NULL);
	ibt_req_param(f, &p);
	p.alternate_path = &alt;
	KUNIT_ASSERT_EQ(test, ib_send_cm_req(id, &p), 0);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.req.alternate_path.local_lid, 0x33);
	KUNIT_EXPECT_EQ(test, s->msg.req.alternate_path.remote_lid, 0x44);

	ibt_listen(f, NULL);
	fake_mk_req(f, &m, f->peer_comm, 0x112233, ibt.sid, ibt_pdata, 1);
	m.req.primary_path.local_lid = 0x21;
	m.req.primary_path.remote_lid = 0x7;
	m.req.primary_path.subnet_local = 1;
	m.req.primary_path.hop_limit = 0;
	w = &m.req.alternate_path;
	w->local_lid = 0x31;
	w->remote_lid = 0x8;
	w->local_gid = m.req.primary_path.local_gid;
	w->remote_gid = m.req.primary_path.remote_gid;
	w->sl = 5;
	w->subnet_local = 1;
	w->local_ack_timeout = 16;
	ibt_rx_ib(f, &m, 0x21);
	e = ibt_last();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, IB_CM_REQ_RECEIVED);
	KUNIT_ASSERT_TRUE(test, e->has_alt);
	KUNIT_EXPECT_EQ(test, e->alt.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&e->alt)), 0x31U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&e->alt)), 0x8U);
	KUNIT_EXPECT_EQ(test, e->alt.sl, 5);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->alt.service_id), ibt.sid);
	id = e->cm_id;
	KUNIT_ASSERT_EQ(test, ib_send_cm_rep(id, &ibt_rep), 0);
	fake_mk_to(&m, PDCM_ATTR_RTU, f->tid + f->peer_comm,
		   be32_to_cpu(id->local_id), 0x00beef, f->peer_comm);
	ibt_rx_ib(f, &m, 0x21);
	KUNIT_ASSERT_EQ(test, id->state, IB_CM_ESTABLISHED);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.alt_ah_attr), 0x31U);
	KUNIT_EXPECT_EQ(test, a.alt_timeout, 16);
	KUNIT_EXPECT_EQ(test, id->lap_state, IB_CM_LAP_UNINIT);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(id, IB_EVENT_PATH_MIG), 0);
	KUNIT_EXPECT_EQ(test, id->lap_state, IB_CM_LAP_IDLE);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, ib_cm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.alt_ah_attr), 0x31U);
	KUNIT_EXPECT_EQ(test, a.path_mig_state, IB_MIG_REARM);
}

/*
 * A LAP through the drop-in (issue 34 #13), as ib_cm delivers it:
 * IB_CM_LAP_RECEIVED with its alternate path and its whole private data,
 * lap_state IB_CM_LAP_RCVD, no path migration meanwhile; rdma_cm's kind
 * of MRA (delayed) moves it to IB_CM_MRA_LAP_SENT and goes out when the
 * LAP comes again.  The drop-in dropped every LAP.
 */
static void ibcm_lap(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_cm_id *id;
	struct fake_sent *s;
	struct pdcm_msg m;
	struct ibt_ev *e;

	ibt_port_ib(f);
	ibt_listen(f, NULL);
	id = ibt_passive_est(f, f->peer_comm);
	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_LAP, 0x4c000001ULL);
	m.lap.local_comm_id = f->peer_comm;
	m.lap.remote_comm_id = be32_to_cpu(id->local_id);
	m.lap.remote_qpn_eecn = 0x00beef;
	m.lap.alternate_path.local_lid = 0x61;
	m.lap.alternate_path.remote_lid = 0x9;
	m.lap.alternate_path.subnet_local = 1;
	m.lap.alternate_path.local_ack_timeout = 14;
	m.lap.private_data[0] = 0x4c;
	m.lap.private_data_len = 1;
	ibt_rx_ib(f, &m, 0x21);
	e = ibt_last();
	KUNIT_ASSERT_EQ(test, e->type, IB_CM_LAP_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->cm_id, id);
	KUNIT_EXPECT_EQ(test, e->state, IB_CM_ESTABLISHED);
	KUNIT_ASSERT_TRUE(test, e->has_alt);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&e->alt)), 0x61U);
	KUNIT_EXPECT_TRUE(test, e->has_pdata);
	KUNIT_EXPECT_EQ(test, e->pdata[0], 0x4c);
	KUNIT_EXPECT_EQ(test, e->pdata[IB_CM_LAP_PRIVATE_DATA_SIZE - 1], 0);
	KUNIT_EXPECT_EQ(test, id->lap_state, IB_CM_LAP_RCVD);
	KUNIT_EXPECT_EQ(test, ib_cm_notify(id, IB_EVENT_PATH_MIG), -EINVAL);
	KUNIT_ASSERT_EQ(test, ibt_delayed_mra(id), 0);
	KUNIT_EXPECT_EQ(test, id->lap_state, IB_CM_MRA_LAP_SENT);
	KUNIT_EXPECT_EQ(test, id->state, IB_CM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 0U);
	ibt_rx_ib(f, &m, 0x21);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 1U);
	s = fake_last(f);
	KUNIT_EXPECT_EQ(test, s->msg.mra.msg_mraed, PDCM_MSG_RESPONSE_OTHER);
	KUNIT_EXPECT_EQ(test, s->msg.mra.service_timeout, 24);
}

static struct kunit_case pdcm_ibcm_cases[] = {
	KUNIT_CASE(ibcm_passive_inherits),
	KUNIT_CASE(ibcm_insert_listen_shared),
	KUNIT_CASE(ibcm_insert_beside_dying_listen),
	KUNIT_CASE(ibcm_listen_errors),
	KUNIT_CASE(ibcm_handler_return_destroys),
	KUNIT_CASE(ibcm_handler_enomem),
	KUNIT_CASE(ibcm_handler_enomem_sidr),
	KUNIT_CASE(ibcm_dreq_only_established),
	KUNIT_CASE(ibcm_delayed_mra_req),
	KUNIT_CASE(ibcm_delayed_mra_rep),
	KUNIT_CASE(ibcm_notify_atomic),
	KUNIT_CASE(ibcm_active_req),
	KUNIT_CASE(ibcm_rej_received),
	KUNIT_CASE(ibcm_cm_redirect),
	KUNIT_CASE(ibcm_destroy_req_rcvd),
	KUNIT_CASE(ibcm_sidr),
	KUNIT_CASE(ibcm_handler_destroys_other),
	KUNIT_CASE(ibcm_init_qp_attr),
	KUNIT_CASE(ibcm_apm),
	KUNIT_CASE(ibcm_lap),
	{}
};

static struct kunit_suite pdcm_ibcm_suite = {
	.name = "pdcm_ibcm",
	.suite_init = fake_suite_init,
	.suite_exit = fake_suite_exit,
	.init = ibt_init,
	.exit = ibt_exit,
	.test_cases = pdcm_ibcm_cases,
};

kunit_test_suite(pdcm_ibcm_suite);
