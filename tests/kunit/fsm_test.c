// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "pdcm_fsm": the connection manager core (cm/fsm.c, conn.c,
 * sidr.c, id.c) driven through the fake transport of fake.h, no hardware.
 *
 * Each case gets fake.h's fixture (a fake ib_device with one RoCE port on
 * pdcm_devices, whose port's ops record every message the core sends) and
 * its own service ID, so cases never meet in the global tables.  On top of
 * it the ids' handler below records every event and can answer one with an
 * action or a return value.  Every id the case made or was handed is
 * destroyed at its end, oldest first; then fake_exit() checks that nothing
 * leaked: pdcm_conns_live() is back where it was.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/pdcm.h>

#include "../../cm/compat.h"
#include "../../cm/conn.h"
#include "../../cm/fault.h"
#include "fake.h"

#define FSM_MAX_EV	32
#define FSM_MAX_OWN	16

/* One event a handler saw. */
struct fsm_ev {
	struct pdcm_id *id;
	enum pdcm_event_type type;
	enum pdcm_state state;
	void *context;
	struct pdcm_event ev;		/* pointers in it are stale */
	struct sa_path_rec path;
	struct sa_path_rec alt;		/* a REQ's or LAP's alternate path */
	bool has_alt;
	u8 ari[PDCM_REJ_ARI_SIZE];
	u8 pdata0;
	u8 pdata_len;
	ktime_t t;			/* when the handler ran */
};

/* What the handler saw and is to do, per case (under fake_cur->lock). */
static struct {
	struct fsm_ev ev[FSM_MAX_EV];
	unsigned int nev;
	struct {
		struct pdcm_id *id;
		bool gone;
	} own[FSM_MAX_OWN];
	unsigned int nown;
	int ret_for[PDCM_NUM_EVENTS];
	int (*action)(struct fake *f, struct pdcm_id *id,
		      const struct pdcm_event *ev);
	u64 sid;
} fsm_rec;

/* ---- the handler's views ------------------------------------------ */

static struct fsm_ev *fsm_ev(unsigned int n)
{
	return n < fsm_rec.nev ? &fsm_rec.ev[n] : NULL;
}

static struct fsm_ev *fsm_last_ev(void)
{
	return fsm_rec.nev ? &fsm_rec.ev[fsm_rec.nev - 1] : NULL;
}

static long fsm_cnt(atomic_long_t *per_attr, u16 attr)
{
	return atomic_long_read(&per_attr[attr - PDCM_ATTR_FIRST]);
}

/* ---- ids and the handler ------------------------------------------- */

static void fsm_own(struct fake *f, struct pdcm_id *id)
{
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	if (fsm_rec.nown < FSM_MAX_OWN) {
		fsm_rec.own[fsm_rec.nown].id = id;
		fsm_rec.own[fsm_rec.nown].gone = false;
		fsm_rec.nown++;
	}
	spin_unlock_irqrestore(&f->lock, flags);
}

static void fsm_disown(struct fake *f, struct pdcm_id *id)
{
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&f->lock, flags);
	for (i = 0; i < fsm_rec.nown; i++)
		if (fsm_rec.own[i].id == id)
			fsm_rec.own[i].gone = true;
	spin_unlock_irqrestore(&f->lock, flags);
}

static int fsm_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct fake *f = fake_cur;
	struct fsm_ev *e = NULL;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&f->lock, flags);
	if (fsm_rec.nev < FSM_MAX_EV)
		e = &fsm_rec.ev[fsm_rec.nev++];
	spin_unlock_irqrestore(&f->lock, flags);
	if (e) {
		e->t = ktime_get();
		e->id = id;
		e->type = ev->event;
		e->state = id->state;
		e->context = id->context;
		e->ev = *ev;
		if (ev->event == PDCM_REQ_RECEIVED &&
		    ev->param.req_rcvd.primary_path)
			e->path = *ev->param.req_rcvd.primary_path;
		e->has_alt = false;
		if (ev->event == PDCM_REQ_RECEIVED &&
		    ev->param.req_rcvd.alternate_path) {
			e->alt = *ev->param.req_rcvd.alternate_path;
			e->has_alt = true;
		}
		if (ev->event == PDCM_LAP_RECEIVED &&
		    ev->param.lap_rcvd.alternate_path) {
			e->alt = *ev->param.lap_rcvd.alternate_path;
			e->has_alt = true;
		}
		if (ev->event == PDCM_REJ_RECEIVED && ev->param.rej_rcvd.ari)
			memcpy(e->ari, ev->param.rej_rcvd.ari,
			       min_t(u8, ev->param.rej_rcvd.ari_length,
				     PDCM_REJ_ARI_SIZE));
		e->pdata_len = ev->private_data_len;
		e->pdata0 = ev->private_data ? *(u8 *)ev->private_data : 0;
	}
	if (ev->event == PDCM_REQ_RECEIVED ||
	    ev->event == PDCM_SIDR_REQ_RECEIVED)
		fsm_own(f, id);
	ret = fsm_rec.action ? fsm_rec.action(f, id, ev) : 0;
	if (!ret)
		ret = fsm_rec.ret_for[ev->event];
	if (ret)
		fsm_disown(f, id);	/* pdcm destroys it */
	return ret;
}

static struct pdcm_id *fsm_id(struct fake *f)
{
	struct pdcm_id *id = pdcm_create_id(f->ibdev, fsm_handler, f);

	KUNIT_ASSERT_FALSE(f->test, IS_ERR(id));
	fsm_own(f, id);
	return id;
}

static void fsm_destroy(struct fake *f, struct pdcm_id *id)
{
	fsm_disown(f, id);
	pdcm_destroy_id(id);
}

static struct pdcm_id *fsm_listen_backlog(struct fake *f, u64 sid,
					  u32 backlog, u32 flags)
{
	struct pdcm_listen_attr attr = {
		.service_id = cpu_to_be64(sid),
		.backlog = backlog,
		.flags = flags,
	};
	struct pdcm_id *id = fsm_id(f);

	KUNIT_ASSERT_EQ(f->test, pdcm_listen(id, &attr), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_LISTEN);
	return id;
}

static struct pdcm_id *fsm_listen(struct fake *f)
{
	return fsm_listen_backlog(f, fsm_rec.sid, 0, 0);
}

/* ---- messages from the peer ---------------------------------------- */

/* A REQ of the peer's comm ID @comm from its QP @qpn. */
static void fsm_mk_req(struct fake *f, struct pdcm_msg *m, u32 comm, u32 qpn)
{
	static const u8 pdata = 0xa5;

	fake_mk_req(f, m, comm, qpn, fsm_rec.sid, &pdata, 1);
	m->req.local_qkey = 0x11223344;
	m->req.srq = 1;
}

/* The peer's REP to our id's REQ, from its comm ID @comm and QP @qpn. */
static void fsm_mk_rep(struct fake *f, struct pdcm_msg *m,
		       struct pdcm_id *id, u32 comm, u32 qpn)
{
	static const u8 pdata = 0x5a;

	fake_mk_rep_to(f, m, to_conn(id)->tid, be32_to_cpu(id->local_id),
		       comm, qpn, &pdata, 1);
	m->rep.local_qkey = 0x55667788;
	m->rep.target_ack_delay = 10;
	m->rep.srq = 1;
}

/* A message of @attr from the peer's @comm to our @id (no body). */
static void fsm_mk(struct pdcm_msg *m, u16 attr, struct pdcm_id *id, u32 comm)
{
	fake_mk_to(m, attr, to_conn(id)->tid, be32_to_cpu(id->local_id),
		   to_conn(id)->local_qpn, comm);
}

/* ---- canned exchanges ------------------------------------------------ */

static const u8 fsm_pdata[5] = "hello";

static void fsm_req_param(struct fake *f, struct pdcm_req_param *p)
{
	memset(p, 0, sizeof(*p));
	p->primary_path = &f->path;
	p->port = 1;
	p->service_id = cpu_to_be64(fsm_rec.sid);
	p->qp_num = 0xabcdef;
	p->qp_type = IB_QPT_RC;
	p->starting_psn = 0x13579b;
	p->private_data = fsm_pdata;
	p->private_data_len = sizeof(fsm_pdata);
	p->responder_resources = 7;
	p->initiator_depth = 6;
	p->remote_cm_response_timeout = 20;
	p->local_cm_response_timeout = 18;
	p->flow_control = 1;
	p->retry_count = 7;
	p->rnr_retry_count = 6;
	p->max_cm_retries = 9;
	p->srq = 1;
}

static struct pdcm_id *fsm_active_req(struct fake *f)
{
	struct pdcm_req_param p;
	struct pdcm_id *id = fsm_id(f);

	fsm_req_param(f, &p);
	KUNIT_ASSERT_EQ(f->test, pdcm_send_req(id, &p), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_REQ_SENT);
	return id;
}

/*
 * Active side up to REP_RCVD; the peer is comm @comm, QP 0xc0ffee for
 * f->peer_comm (each comm its own QP, or the second REP would be stale).
 */
static struct pdcm_id *fsm_active_rep(struct fake *f, u32 comm)
{
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;

	fsm_mk_rep(f, &m, id, comm, 0xc0ffee ^ (comm - f->peer_comm));
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_REP_RCVD);
	return id;
}

static struct pdcm_id *fsm_active_est(struct fake *f, u32 comm)
{
	struct pdcm_id *id = fsm_active_rep(f, comm);

	KUNIT_ASSERT_EQ(f->test, pdcm_send_rtu(id, NULL, 0), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_ESTABLISHED);
	fake_settle();
	return id;
}

/* Passive side: a REQ of the peer's @comm/@qpn; returns the new id. */
static struct pdcm_id *fsm_passive_req(struct fake *f, u32 comm, u32 qpn)
{
	unsigned int nev = fsm_rec.nev;
	struct pdcm_msg m;
	struct fsm_ev *e;

	fsm_mk_req(f, &m, comm, qpn);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(f->test, fsm_rec.nev, nev + 1);
	e = fsm_last_ev();
	KUNIT_ASSERT_EQ(f->test, e->type, PDCM_REQ_RECEIVED);
	return e->id;
}

static const struct pdcm_rep_param fsm_rep = {
	.qp_num = 0x00beef,
	.starting_psn = 0x0a0b0c,
	.responder_resources = 1,
	.initiator_depth = 2,
	.failover_accepted = PDCM_FAILOVER_NOT_SUPPORTED,
	.rnr_retry_count = 7,
	.private_data = fsm_pdata,
	.private_data_len = 3,
};

static struct pdcm_id *fsm_passive_rep(struct fake *f, u32 comm, u32 qpn)
{
	struct pdcm_id *id = fsm_passive_req(f, comm, qpn);

	KUNIT_ASSERT_EQ(f->test, pdcm_send_rep(id, &fsm_rep), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_REP_SENT);
	return id;
}

static struct pdcm_id *fsm_passive_est(struct fake *f, u32 comm, u32 qpn)
{
	struct pdcm_id *id = fsm_passive_rep(f, comm, qpn);
	struct pdcm_msg m;

	fsm_mk(&m, PDCM_ATTR_RTU, id, comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_ESTABLISHED);
	return id;
}

/* Time a TIMEWAIT out now instead of after its delay. */
static void fsm_timewait_now(struct pdcm_id *id)
{
	flush_delayed_work(&to_conn(id)->timewait_work);
	fake_settle();
}

/* End @id's TIMEWAIT now: IDLE, and TIMEWAIT_EXIT delivered last. */
static void fsm_expect_timewait_exit(struct kunit *test, struct pdcm_id *id)
{
	fsm_timewait_now(id);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_TIMEWAIT_EXIT);
}

/*
 * How much earlier than its milliseconds a jiffies timer may end, in
 * microseconds: it counts from the last tick before it was armed, up to
 * one tick back, and in an emulated guest on a starved host the ticks
 * come in bursts that catch up with the clock (runs under TCG saw 1,019.x
 * ms for 1,024 at load 3, and 1,004.6 ms with four other guests and two
 * kernel builds beside it).  Ten ticks: 40 ms at HZ=250, still far less
 * than the gap to any wrong delay (a TIMEWAIT of ms(17) would be 512 ms).
 */
#define FSM_EARLY_US	(10 * (s64)jiffies_to_usecs(1))

/*
 * How much later than its milliseconds such a timer may end before a case
 * calls it wrong: four times them.  A starved guest (UML or TCG, with
 * other guests and a kernel build beside it) was seen to end a re-armed
 * 1,024-ms TIMEWAIT 2,250 ms after its entry; a timer that was never
 * armed ends never, and one armed too early is the lower bound's.
 */
#define FSM_LATE(us)	(4 * (s64)(us))

/* ---- init / exit ------------------------------------------------------ */

static int fsm_init(struct kunit *test)
{
	int ret;

	memset(&fsm_rec, 0, sizeof(fsm_rec));
	ret = fake_init(test);
	if (!ret)
		fsm_rec.sid = 0x1234000000000000ULL | (u64)FAKE(test)->seq << 8;
	return ret;
}

static void fsm_exit(struct kunit *test)
{
	unsigned int i;

	fake_settle();
	/* Oldest first: a listen goes before the children it delivered. */
	for (i = 0; i < fsm_rec.nown; i++)
		if (!fsm_rec.own[i].gone) {
			fsm_rec.own[i].gone = true;
			pdcm_destroy_id(fsm_rec.own[i].id);
		}
	fake_exit(test);
}

/* ---- the transition table ------------------------------------------- */

struct fsm_tr {
	u8 from;
	u8 ev;
	u8 to;
};

#define TR(from, ev, to) { PDCM_##from, PDCM_EV_##ev, PDCM_##to }

/*
 * Written from IBA Vol. 1 12.9 and ib_cm (protocol.md §3), not from
 * fsm.c.  pdcm extension kept on purpose: a second MRA sent while
 * already MRAed.  A second MRA received is a duplicate, as in ib_cm.
 */
static const struct fsm_tr fsm_expected[] = {
	TR(IDLE, LISTEN, LISTEN),
	TR(IDLE, SEND_REQ, REQ_SENT),
	TR(IDLE, RX_REQ, REQ_RCVD),
	TR(IDLE, SEND_SIDR_REQ, SIDR_REQ_SENT),
	TR(IDLE, RX_SIDR_REQ, SIDR_REQ_RCVD),

	TR(REQ_SENT, RX_MRA, MRA_REQ_RCVD),
	TR(REQ_SENT, RX_REP, REP_RCVD),
	TR(REQ_SENT, RX_REJ, IDLE),
	TR(REQ_SENT, RX_REJ_STALE, TIMEWAIT),
	TR(REQ_SENT, SEND_REJ, IDLE),
	TR(REQ_SENT, TIMEOUT, IDLE),
	TR(MRA_REQ_RCVD, RX_REP, REP_RCVD),
	TR(MRA_REQ_RCVD, RX_REJ, IDLE),
	TR(MRA_REQ_RCVD, RX_REJ_STALE, TIMEWAIT),
	TR(MRA_REQ_RCVD, SEND_REJ, IDLE),
	TR(MRA_REQ_RCVD, TIMEOUT, IDLE),

	TR(REQ_RCVD, SEND_MRA, MRA_REQ_SENT),
	TR(REQ_RCVD, SEND_REP, REP_SENT),
	TR(REQ_RCVD, SEND_REJ, IDLE),
	TR(REQ_RCVD, RX_REJ, IDLE),
	TR(REQ_RCVD, RX_REJ_STALE, TIMEWAIT),
	TR(MRA_REQ_SENT, SEND_MRA, MRA_REQ_SENT),
	TR(MRA_REQ_SENT, SEND_REP, REP_SENT),
	TR(MRA_REQ_SENT, SEND_REJ, IDLE),
	TR(MRA_REQ_SENT, RX_REJ, IDLE),
	TR(MRA_REQ_SENT, RX_REJ_STALE, TIMEWAIT),

	TR(REP_SENT, RX_MRA, MRA_REP_RCVD),
	TR(REP_SENT, RX_RTU, ESTABLISHED),
	TR(REP_SENT, COMM_EST, ESTABLISHED),
	TR(REP_SENT, RX_REJ, IDLE),
	TR(REP_SENT, RX_REJ_STALE, TIMEWAIT),
	TR(REP_SENT, SEND_REJ, TIMEWAIT),
	TR(REP_SENT, TIMEOUT, IDLE),
	TR(REP_SENT, RX_DREQ, DREQ_RCVD),
	TR(MRA_REP_RCVD, RX_RTU, ESTABLISHED),
	TR(MRA_REP_RCVD, COMM_EST, ESTABLISHED),
	TR(MRA_REP_RCVD, RX_REJ, IDLE),
	TR(MRA_REP_RCVD, RX_REJ_STALE, TIMEWAIT),
	TR(MRA_REP_RCVD, SEND_REJ, TIMEWAIT),
	TR(MRA_REP_RCVD, TIMEOUT, IDLE),
	TR(MRA_REP_RCVD, RX_DREQ, DREQ_RCVD),

	TR(REP_RCVD, SEND_MRA, MRA_REP_SENT),
	TR(REP_RCVD, SEND_RTU, ESTABLISHED),
	TR(REP_RCVD, SEND_REJ, IDLE),
	TR(REP_RCVD, RX_REJ, TIMEWAIT),
	TR(REP_RCVD, RX_REJ_STALE, TIMEWAIT),
	TR(MRA_REP_SENT, SEND_MRA, MRA_REP_SENT),
	TR(MRA_REP_SENT, SEND_RTU, ESTABLISHED),
	TR(MRA_REP_SENT, SEND_REJ, IDLE),
	TR(MRA_REP_SENT, RX_REJ, TIMEWAIT),
	TR(MRA_REP_SENT, RX_REJ_STALE, TIMEWAIT),

	TR(ESTABLISHED, SEND_DREQ, DREQ_SENT),
	TR(ESTABLISHED, RX_DREQ, DREQ_RCVD),
	TR(ESTABLISHED, RX_REJ, TIMEWAIT),
	TR(ESTABLISHED, RX_REJ_STALE, TIMEWAIT),
	TR(DREQ_SENT, RX_DREP, TIMEWAIT),
	TR(DREQ_RCVD, RX_DREP, TIMEWAIT),
	TR(DREQ_SENT, RX_DREQ, DREQ_RCVD),
	TR(DREQ_SENT, RX_REJ, TIMEWAIT),
	TR(DREQ_SENT, RX_REJ_STALE, TIMEWAIT),
	TR(DREQ_SENT, TIMEOUT, TIMEWAIT),
	TR(DREQ_RCVD, SEND_DREP, TIMEWAIT),
	TR(TIMEWAIT, TIMEWAIT_DONE, IDLE),

	TR(SIDR_REQ_SENT, RX_SIDR_REP, IDLE),
	TR(SIDR_REQ_SENT, TIMEOUT, IDLE),
	TR(SIDR_REQ_RCVD, SEND_SIDR_REP, IDLE),
};

static int fsm_expected_next(unsigned int s, unsigned int e)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fsm_expected); i++)
		if (fsm_expected[i].from == s && fsm_expected[i].ev == e)
			return fsm_expected[i].to;
	return -EINVAL;
}

/* Every (state, event) pair against the oracle, and out of range. */
static void fsm_table_exhaustive(struct kunit *test)
{
	unsigned int s, e, legal = 0;

	for (s = 0; s < PDCM_NUM_STATES; s++)
		for (e = 0; e < PDCM_NUM_FSM_EVENTS; e++) {
			int want = fsm_expected_next(s, e);

			KUNIT_EXPECT_EQ_MSG(test, pdcm_fsm_next(s, e), want,
					    "%s on %s", pdcm_state_name(s),
					    pdcm_fsm_event_name(e));
			legal += want >= 0;
		}
	KUNIT_EXPECT_EQ(test, legal, (unsigned int)ARRAY_SIZE(fsm_expected));
	KUNIT_EXPECT_EQ(test, pdcm_fsm_next(PDCM_NUM_STATES, PDCM_EV_LISTEN),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_fsm_next(PDCM_IDLE, PDCM_NUM_FSM_EVENTS),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_fsm_next(-1, PDCM_EV_LISTEN), -EINVAL);
}

/* Every state and event has its own printable name. */
static void fsm_table_names(struct kunit *test)
{
	unsigned int i, j;

	for (i = 0; i < PDCM_NUM_STATES; i++) {
		KUNIT_EXPECT_STRNEQ(test, pdcm_state_name(i), "?");
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, pdcm_state_name(i),
					    pdcm_state_name(j));
	}
	for (i = 0; i < PDCM_NUM_EVENTS; i++)
		KUNIT_EXPECT_STRNEQ(test, pdcm_event_name(i), "?");
	for (i = 0; i < PDCM_NUM_FSM_EVENTS; i++)
		KUNIT_EXPECT_STRNEQ(test, pdcm_fsm_event_name(i), "?");
	KUNIT_EXPECT_STREQ(test, pdcm_state_name(PDCM_NUM_STATES), "?");
	KUNIT_EXPECT_STREQ(test, pdcm_rej_reason_name(PDCM_REJ_STALE_CONN),
			   "STALE_CONN");
}

/* ---- active side ------------------------------------------------------ */

/* IDLE -> REQ_SENT: the REQ as sent, retried with the active timeout. */
static void fsm_active_req_on_wire(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct fake_sent *s = fake_last(f);
	const struct pdcm_req *r;

	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	KUNIT_ASSERT_FALSE(test, s->reply);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REQ);
	r = &s->msg.req;
	KUNIT_EXPECT_NE(test, be32_to_cpu(id->local_id), 0U);
	KUNIT_EXPECT_EQ(test, r->local_comm_id, be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, r->service_id, fsm_rec.sid);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(id->service_id), fsm_rec.sid);
	KUNIT_EXPECT_EQ(test, r->local_ca_guid, f->node_guid);
	KUNIT_EXPECT_EQ(test, r->local_qpn, 0xabcdefU);
	KUNIT_EXPECT_EQ(test, r->starting_psn, 0x13579bU);
	/* as we sent them: the receiver swaps */
	KUNIT_EXPECT_EQ(test, r->responder_resources, 7);
	KUNIT_EXPECT_EQ(test, r->initiator_depth, 6);
	KUNIT_EXPECT_EQ(test, r->remote_cm_response_timeout, 20);
	KUNIT_EXPECT_EQ(test, r->local_cm_response_timeout, 18);
	KUNIT_EXPECT_EQ(test, r->max_cm_retries, 9);
	KUNIT_EXPECT_EQ(test, r->retry_count, 7);
	KUNIT_EXPECT_EQ(test, r->rnr_retry_count, 6);
	KUNIT_EXPECT_EQ(test, r->transport_type, PDCM_TRANSPORT_RC);
	KUNIT_EXPECT_EQ(test, r->srq, 1);
	KUNIT_EXPECT_EQ(test, r->end_to_end_flow_control, 1);
	KUNIT_EXPECT_EQ(test, r->path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, r->pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, r->primary_path.local_lid, 0xffff);
	KUNIT_EXPECT_EQ(test, r->private_data_len, sizeof(fsm_pdata));
	KUNIT_EXPECT_EQ(test, memcmp(r->private_data, fsm_pdata,
				     sizeof(fsm_pdata)), 0);
	KUNIT_EXPECT_EQ(test, s->retries, 9U);
	/* 2 * ms(packet life 14) + ms(remote CM response 20) */
	KUNIT_EXPECT_EQ(test, s->timeout_ms,
			2 * pdcm_timeout_ms(14) + pdcm_timeout_ms(20));
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 2 * 64U + 4096U);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, to_conn(id)->tid);
	KUNIT_EXPECT_EQ(test, f->npath_av, 1U);
	KUNIT_EXPECT_PTR_EQ(test, (void *)to_conn(id)->msg,
			    (void *)&fake_last_handle(f)->buf);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.tx, PDCM_ATTR_REQ), 1);
}

/* REP in: REP_RCVD, the REP's fields swapped, the REQ cancelled. */
static void fsm_active_rep_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct fake_handle *h = fake_last_handle(f);
	const struct pdcm_rep_event_param *p;
	struct pdcm_msg m;
	struct fsm_ev *e;

	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(id->remote_id), f->peer_comm);
	KUNIT_EXPECT_EQ(test, f->ncancel, 1U);
	KUNIT_EXPECT_TRUE(test, h->done);
	KUNIT_EXPECT_NULL(test, to_conn(id)->msg);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	e = fsm_ev(0);
	KUNIT_EXPECT_EQ(test, e->type, PDCM_REP_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, id);
	KUNIT_EXPECT_PTR_EQ(test, e->context, (void *)f);
	KUNIT_EXPECT_EQ(test, e->state, PDCM_REP_RCVD);
	p = &e->ev.param.rep_rcvd;
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p->remote_ca_guid), f->peer_guid);
	KUNIT_EXPECT_EQ(test, p->remote_qpn, 0xc0ffeeU);
	KUNIT_EXPECT_EQ(test, p->remote_qkey, 0x55667788U);
	KUNIT_EXPECT_EQ(test, p->starting_psn, 0x654321U);
	KUNIT_EXPECT_EQ(test, p->responder_resources, 4);	/* REP's ID */
	KUNIT_EXPECT_EQ(test, p->initiator_depth, 2);	/* REP's RR */
	KUNIT_EXPECT_EQ(test, p->target_ack_delay, 10);
	KUNIT_EXPECT_EQ(test, p->failover_accepted, 1);
	KUNIT_EXPECT_EQ(test, p->rnr_retry_count, 3);
	KUNIT_EXPECT_EQ(test, p->srq, 1);
	KUNIT_EXPECT_EQ(test, e->pdata0, 0x5a);
	KUNIT_EXPECT_EQ(test, e->pdata_len, PDCM_REP_PDATA_SIZE);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);	/* nothing but the REQ */
}

/* pdcm_send_rtu(): ESTABLISHED, RTU on the wire, not retried. */
static void fsm_active_rtu(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_rep(f, f->peer_comm);
	struct fake_sent *s;

	KUNIT_ASSERT_EQ(test, pdcm_send_rtu(id, fsm_pdata, 2), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, f->nsent, 2U);
	s = fake_last(f);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_RTU);
	KUNIT_EXPECT_EQ(test, s->msg.rtu.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, s->msg.rtu.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rtu.private_data_len, 2);
	KUNIT_EXPECT_EQ(test, s->msg.rtu.private_data[0], 'h');
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 0U);
	/* a second RTU is not legal */
	KUNIT_EXPECT_EQ(test, pdcm_send_rtu(id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->nsent, 2U);
}

/* DREQ out, DREP in: TIMEWAIT, then TIMEWAIT_EXIT and IDLE. */
static void fsm_active_dreq_drep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);
	struct fake_sent *s;
	struct pdcm_msg m;

	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, fsm_pdata, 4), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_DREQ_SENT);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_DREQ);
	KUNIT_EXPECT_EQ(test, s->msg.dreq.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, s->msg.dreq.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.dreq.remote_qpn_eecn, 0xc0ffeeU);
	KUNIT_EXPECT_EQ(test, s->msg.dreq.private_data_len, 4);
	KUNIT_EXPECT_EQ(test, s->retries, 9U);
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 2 * 64U + 4096U);

	fsm_mk(&m, PDCM_ATTR_DREP, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);	/* cancelled */
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->type, PDCM_DREP_RECEIVED);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->state, PDCM_TIMEWAIT);

	fsm_timewait_now(id);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 3U);
	KUNIT_EXPECT_EQ(test, fsm_ev(2)->type, PDCM_TIMEWAIT_EXIT);
	KUNIT_EXPECT_EQ(test, fsm_ev(2)->state, PDCM_IDLE);
	/* a second DREP is a duplicate */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 3U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_DREP), 1);
}

/* Bad REQ parameters: -EINVAL, nothing sent, still IDLE. */
static void fsm_active_req_bad_params(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_id(f);
	struct pdcm_req_param p;

#define BAD(stmt) do {							\
		fsm_req_param(f, &p);					\
		stmt;							\
		KUNIT_EXPECT_EQ_MSG(test, pdcm_send_req(id, &p), -EINVAL, \
				    "%s", #stmt);			\
	} while (0)
	BAD(p.qp_num = 1U << 24);
	BAD(p.starting_psn = 1U << 24);
	BAD(p.private_data_len = PDCM_REQ_PDATA_SIZE + 1);
	BAD(p.private_data = NULL);
	BAD(p.remote_cm_response_timeout = 32);
	BAD(p.local_cm_response_timeout = 32);
	BAD(p.max_cm_retries = 16);
	BAD(p.retry_count = 8);
	BAD(p.rnr_retry_count = 8);
	BAD(p.qp_type = IB_QPT_UD);
	BAD(p.primary_path = NULL);
#undef BAD
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, f->npath_av, 0U);
	/* the largest legal values pass */
	fsm_req_param(f, &p);
	p.qp_num = 0xffffff;
	p.private_data_len = PDCM_REQ_PDATA_SIZE;
	p.private_data = kunit_kzalloc(test, PDCM_REQ_PDATA_SIZE, GFP_KERNEL);
	p.remote_cm_response_timeout = 31;
	p.max_cm_retries = 15;
	KUNIT_ASSERT_NOT_NULL(test, p.private_data);
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.req.local_qpn, 0xffffffU);
	KUNIT_EXPECT_EQ(test, fake_last(f)->retries, 15U);
}

/* A second pdcm_send_req() in REQ_SENT: -EINVAL, nothing changes. */
static void fsm_active_req_twice(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_req_param p;

	fsm_req_param(f, &p);
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, f->npath_av, 1U);
}

/* No pdcm port: -ENODEV; no device: -EINVAL; transport error: IDLE. */
static void fsm_active_req_no_port(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_id(f);
	struct pdcm_id *nodev;
	struct pdcm_req_param p;

	fsm_req_param(f, &p);
	p.port = 2;
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -ENODEV);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);

	nodev = pdcm_create_id(NULL, fsm_handler, f);
	KUNIT_ASSERT_FALSE(test, IS_ERR(nodev));
	fsm_own(f, nodev);
	fsm_req_param(f, &p);
	KUNIT_EXPECT_EQ(test, pdcm_send_req(nodev, &p), -EINVAL);

	f->send_err = -EIO;
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EIO);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_NULL(test, to_conn(id)->msg);
	f->send_err = 0;
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	/* and the id is still usable */
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, IS_ERR(pdcm_create_id(f->ibdev, NULL, NULL)),
			true);
}

/* ---- passive side ---------------------------------------------------- */

/* REQ in: a new id in REQ_RCVD with the REQ in the receiver's terms. */
static void fsm_passive_req_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *l = fsm_listen(f);
	const struct pdcm_req_event_param *p;
	struct pdcm_id *id;
	struct fsm_ev *e;

	l->context = (void *)0x1234;
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	e = fsm_last_ev();
	p = &e->ev.param.req_rcvd;
	KUNIT_EXPECT_PTR_NE(test, id, l);
	KUNIT_EXPECT_EQ(test, e->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_PTR_EQ(test, p->listen_id, l);
	KUNIT_EXPECT_PTR_EQ(test, p->listen_context, (void *)0x1234);
	KUNIT_EXPECT_PTR_EQ(test, e->context, (void *)0x1234);
	KUNIT_EXPECT_PTR_EQ(test, id->device, f->ibdev);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(id->remote_id), f->peer_comm);
	KUNIT_EXPECT_NE(test, be32_to_cpu(id->local_id), 0U);
	KUNIT_EXPECT_NE(test, be32_to_cpu(id->local_id),
			be32_to_cpu(l->local_id));
	KUNIT_EXPECT_EQ(test, be64_to_cpu(id->service_id), fsm_rec.sid);
	KUNIT_EXPECT_EQ(test, p->port, 1U);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p->remote_ca_guid), f->peer_guid);
	KUNIT_EXPECT_EQ(test, p->remote_qpn, 0x112233U);
	KUNIT_EXPECT_EQ(test, p->remote_qkey, 0x11223344U);
	KUNIT_EXPECT_EQ(test, p->starting_psn, 0x123456U);
	KUNIT_EXPECT_EQ(test, p->qp_type, IB_QPT_RC);
	/* swapped: the REQ had responder resources 3, initiator depth 5 */
	KUNIT_EXPECT_EQ(test, p->responder_resources, 5);
	KUNIT_EXPECT_EQ(test, p->initiator_depth, 3);
	/* swapped: the REQ had remote 17, local 19 */
	KUNIT_EXPECT_EQ(test, p->local_cm_response_timeout, 17);
	KUNIT_EXPECT_EQ(test, p->remote_cm_response_timeout, 19);
	KUNIT_EXPECT_EQ(test, p->flow_control, 1);
	KUNIT_EXPECT_EQ(test, p->retry_count, 6);
	KUNIT_EXPECT_EQ(test, p->rnr_retry_count, 5);
	KUNIT_EXPECT_EQ(test, p->srq, 1);
	KUNIT_EXPECT_EQ(test, p->addr.kind, PDCM_ADDR_NONE);
	/* the path from our side: source and destination reversed */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->path.sgid.global.interface_id),
			f->node_guid);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->path.dgid.global.interface_id),
			f->peer_guid);
	KUNIT_EXPECT_EQ(test, e->path.rec_type, SA_PATH_REC_TYPE_ROCE_V2);
	KUNIT_EXPECT_EQ(test, e->path.mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, e->pdata0, 0xa5);
	KUNIT_EXPECT_EQ(test, e->pdata_len, PDCM_REQ_PDATA_SIZE);
	KUNIT_EXPECT_EQ(test, f->npeer_av, 1U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, l->state, PDCM_LISTEN);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx, PDCM_ATTR_REQ), 1);
}

/* pdcm_send_rep(): REP as asked, retried with the REQ's timeout. */
static void fsm_passive_rep_on_wire(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct fake_sent *s;

	/* a CA whose ACK delay differs from the REQ's ACK timeout (15) */
	f->ibdev->attrs.local_ca_ack_delay = 9;
	fsm_listen(f);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REP);
	/* the CA's ACK delay, as ib_cm sends it (issue 12 defect 13) */
	KUNIT_EXPECT_EQ(test, s->msg.rep.target_ack_delay, 9);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, f->tid + f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rep.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, s->msg.rep.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rep.local_qpn, 0x00beefU);
	KUNIT_EXPECT_EQ(test, s->msg.rep.starting_psn, 0x0a0b0cU);
	KUNIT_EXPECT_EQ(test, s->msg.rep.responder_resources, 1);
	KUNIT_EXPECT_EQ(test, s->msg.rep.initiator_depth, 2);
	KUNIT_EXPECT_EQ(test, s->msg.rep.failover_accepted, 1);
	KUNIT_EXPECT_EQ(test, s->msg.rep.rnr_retry_count, 7);
	KUNIT_EXPECT_EQ(test, s->msg.rep.local_ca_guid, f->node_guid);
	KUNIT_EXPECT_EQ(test, s->msg.rep.private_data_len, 3);
	/* ms(REQ's local CM response timeout 19), the REQ's retries */
	KUNIT_EXPECT_EQ(test, s->timeout_ms, pdcm_timeout_ms(19));
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 2048U);
	KUNIT_EXPECT_EQ(test, s->retries, 9U);
	/* not twice */
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &fsm_rep), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
}

/* RTU in: ESTABLISHED, RTU_RECEIVED, the REP cancelled. */
static void fsm_passive_rtu_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	m.rtu.private_data[0] = 0x77;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->type, PDCM_RTU_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, fsm_ev(1)->id, id);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->pdata0, 0x77);
	KUNIT_EXPECT_EQ(test, f->ncancel, 1U);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);
	/* a second RTU is counted as a duplicate and dropped */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_RTU), 1);
}

/* pdcm_notify(COMM_EST) in REP_SENT: USER_ESTABLISHED. */
static void fsm_passive_comm_est(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	KUNIT_EXPECT_EQ(test, pdcm_notify(id, IB_EVENT_PATH_MIG), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_SENT);
	KUNIT_ASSERT_EQ(test, pdcm_notify(id, IB_EVENT_COMM_EST), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	fake_settle();
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->type, PDCM_USER_ESTABLISHED);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);
	KUNIT_EXPECT_EQ(test, pdcm_notify(id, IB_EVENT_COMM_EST), -EINVAL);
	/* the late RTU changes nothing */
	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
}

/* DREQ in: DREQ_RECEIVED; pdcm_send_drep(): DREP, TIMEWAIT, exit. */
static void fsm_passive_dreq_drep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct fake_sent *s;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_DREQ_RCVD);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_DREQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, pdcm_send_drep(id, fsm_pdata, 1), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_DREP);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, s->msg.drep.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, s->msg.drep.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 0U);
	KUNIT_EXPECT_EQ(test, pdcm_send_drep(id, NULL, 0), -EINVAL);

	/* the DREP was lost: a repeated DREQ gets it again */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREP), 2U);
	KUNIT_EXPECT_TRUE(test, fake_last(f)->reply);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.drep.remote_comm_id,
			f->peer_comm);

	fsm_expect_timewait_exit(test, id);
}

/*
 * A DREP that cannot be sent still ends the connection, as in ib_cm: the
 * id is in TIMEWAIT, and the peer's next DREQ is answered from there.
 * (Left in DREQ_RCVD, the repeated DREQs were dropped as duplicates and
 * the peer's disconnect ended in DREQ_ERROR: kunit_faults found it.)
 */
static void fsm_passive_drep_send_fails(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_DREQ_RCVD);
	f->send_err = -ENOMEM;
	KUNIT_EXPECT_EQ(test, pdcm_send_drep(id, NULL, 0), -ENOMEM);
	f->send_err = 0;
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREP), 0U);
	KUNIT_EXPECT_EQ(test, pdcm_send_drep(id, NULL, 0), -EINVAL);

	/* the peer's DREQ again: now it gets its DREP */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREP), 1U);
	KUNIT_EXPECT_TRUE(test, fake_last(f)->reply);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.drep.remote_comm_id,
			f->peer_comm);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.drep.local_comm_id,
			be32_to_cpu(id->local_id));

	fsm_expect_timewait_exit(test, id);
}

/* A DREQ naming another QPN is dropped. */
static void fsm_passive_dreq_wrong_qpn(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;
	unsigned int nev;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	nev = fsm_rec.nev;
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	m.dreq.remote_qpn_eecn ^= 1;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREP), 0U);
}

/* Both sides disconnect at once: DREQ_SENT + DREQ in -> DREQ_RCVD. */
static void fsm_simultaneous_dreq(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);
	struct pdcm_msg m;

	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_DREQ_RCVD);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_DREQ_RECEIVED);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);	/* DREQ off */
	KUNIT_EXPECT_EQ(test, pdcm_send_drep(id, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
}

/*
 * The DREQs crossed, and the peer's DREP for ours comes before we answer
 * its DREQ: TIMEWAIT and DREP_RECEIVED, as ib_cm takes it.  It used to be
 * dropped as a duplicate, leaving the id in DREQ_RCVD for as long as the
 * ULP (rdma_cm, which has already disconnected) did not send a DREP.
 */
static void fsm_crossed_dreq_then_drep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);
	struct pdcm_msg m;

	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_DREQ_RCVD);
	fsm_mk(&m, PDCM_ATTR_DREP, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_DREP_RECEIVED);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_DREP), 0);
	KUNIT_EXPECT_EQ(test, pdcm_send_drep(id, NULL, 0), -EINVAL);
	fsm_expect_timewait_exit(test, id);
}

/* The next pdcm_fail() fails, quietly (skips without fault injection). */
static void fsm_fail_next_alloc(struct kunit *test)
{
#ifdef CONFIG_FAULT_INJECTION
	pdcm_fail_attr.verbose = 0;
	atomic_set(&pdcm_fail_attr.times, 1);
	atomic_set(&pdcm_fail_attr.space, 0);
	pdcm_fail_attr.probability = 100;
#else
	kunit_skip(test, "needs CONFIG_FAULT_INJECTION");
#endif
}

/* pdcm_fail() as the module left it: off. */
static void fsm_fail_off(void)
{
#ifdef CONFIG_FAULT_INJECTION
	pdcm_fail_attr.probability = 0;
	pdcm_fail_attr.verbose = 2;
	atomic_set(&pdcm_fail_attr.times, 1);
#endif
}

/*
 * A DREQ never waits on an allocation of pdcm's own: it is built on the
 * stack, so with pdcm's next allocation set to fail it still goes out.
 * It used to be allocated, and on failure pdcm_send_dreq() returned
 * -ENOMEM with the id left ESTABLISHED (ib_cm goes to timewait):
 * rdma_disconnect(), which ignores the error, lost the disconnect.
 */
static void fsm_dreq_no_memory(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);
	int ret;

	fsm_fail_next_alloc(test);
	ret = pdcm_send_dreq(id, NULL, 0);
	fsm_fail_off();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_DREQ_SENT);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 1U);
}

/*
 * The same for the REJ of a REQ and the DREP of a DREQ.  Each was
 * allocated: a failed REJ returned -ENOMEM with the REQ still held (its
 * peer retried to the end), a failed DREP went to TIMEWAIT unsent.
 */
static void fsm_rej_no_memory(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	int ret;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	fsm_fail_next_alloc(test);
	ret = pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
	fsm_fail_off();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.remote_comm_id,
			f->peer_comm);
}

static void fsm_drep_no_memory(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;
	int ret;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_DREQ_RCVD);
	fsm_fail_next_alloc(test);
	ret = pdcm_send_drep(id, NULL, 0);
	fsm_fail_off();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_DREP), 1U);
	KUNIT_EXPECT_FALSE(test, fake_last(f)->reply);
	fsm_expect_timewait_exit(test, id);
}

/* ---- illegal calls and bad parameters ------------------------------- */

static void fsm_expect_all_refused(struct kunit *test, struct pdcm_id *id,
				   bool try_req)
{
	struct fake *f = FAKE(test);
	struct pdcm_sidr_rep_param sp = {};
	enum pdcm_state state = id->state;
	unsigned int nsent = f->nsent;
	struct pdcm_req_param p;

	if (try_req) {
		fsm_req_param(f, &p);
		KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EINVAL);
	}
	if (state != PDCM_REQ_RCVD && state != PDCM_MRA_REQ_SENT)
		KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &fsm_rep), -EINVAL);
	if (state != PDCM_REP_RCVD && state != PDCM_MRA_REP_SENT)
		KUNIT_EXPECT_EQ(test, pdcm_send_rtu(id, NULL, 0), -EINVAL);
	if (state != PDCM_ESTABLISHED)
		KUNIT_EXPECT_EQ(test, pdcm_send_dreq(id, NULL, 0), -EINVAL);
	if (state != PDCM_DREQ_RCVD)
		KUNIT_EXPECT_EQ(test, pdcm_send_drep(id, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_rep(id, &sp), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_notify(id, IB_EVENT_COMM_EST), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, state);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
}

/* Nothing but connect, listen or SIDR from IDLE. */
static void fsm_illegal_idle(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_id(f);

	fsm_expect_all_refused(test, id, false);
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(id, 10, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_listen(id, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
}

/* ESTABLISHED refuses everything but DREQ. */
static void fsm_illegal_established(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_listen_attr attr = {
		.service_id = cpu_to_be64(fsm_rec.sid),
	};
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);

	fsm_expect_all_refused(test, id, true);
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(id, 10, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_listen(id, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
}

/* A LISTEN id refuses every connection call. */
static void fsm_illegal_listen(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_listen_attr attr = {
		.service_id = cpu_to_be64(fsm_rec.sid + 1),
	};
	struct pdcm_id *id = fsm_listen(f);

	fsm_expect_all_refused(test, id, true);
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(id, 10, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_listen(id, &attr), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_LISTEN);
}

/* Out-of-range parameters in REQ_RCVD: -EINVAL and nothing changes. */
static void fsm_bad_params(struct kunit *test)
{
	struct fake *f = FAKE(test);
	static const u8 big[PDCM_PDATA_MAX_SIZE + 1];
	struct pdcm_sidr_rep_param sp = {};
	struct pdcm_rep_param rp;
	struct pdcm_id *id;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	rp = fsm_rep;
	rp.qp_num = 1U << 24;
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &rp), -EINVAL);
	rp = fsm_rep;
	rp.starting_psn = 1U << 24;
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &rp), -EINVAL);
	rp = fsm_rep;
	rp.private_data = big;
	rp.private_data_len = PDCM_REP_PDATA_SIZE + 1;
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &rp), -EINVAL);
	rp = fsm_rep;
	rp.failover_accepted = 3;
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &rp), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(id, 32, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(id, 10, big,
					    PDCM_MRA_PDATA_SIZE + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rej(id, 0, NULL, 0, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, big,
					    PDCM_REJ_ARI_SIZE + 1, NULL, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, NULL,
					    0, big, PDCM_REJ_PDATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, NULL,
					    4, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_dreq(id, big, PDCM_DREQ_PDATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_drep(id, big, PDCM_DREP_PDATA_SIZE + 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_send_rtu(id, big, PDCM_RTU_PDATA_SIZE + 1),
			-EINVAL);
	sp.qp_num = 1U << 24;
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_rep(id, &sp), -EINVAL);
	sp.qp_num = 1;
	sp.status = PDCM_SIDR_STATUS_MAX + 1;
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_rep(id, &sp), -EINVAL);
	sp.status = 0;
	sp.info = big;
	sp.info_length = PDCM_SIDR_REP_INFO_SIZE + 1;
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_rep(id, &sp), -EINVAL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	/* and the legal answer still works */
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
}

/* ---- retries, timeouts, completions --------------------------------- */

/* The REQ's retries run out: REQ_ERROR, IDLE; destroy sends nothing. */
static void fsm_req_timeout(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct fsm_ev *e;

	KUNIT_ASSERT_TRUE(test, fake_complete(fake_last_handle(f),
					      IB_WC_RESP_TIMEOUT_ERR));
	fake_settle();
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	e = fsm_ev(0);
	KUNIT_EXPECT_EQ(test, e->type, PDCM_REQ_ERROR);
	KUNIT_EXPECT_EQ(test, e->ev.param.send_status, IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_NULL(test, to_conn(id)->msg);
	fsm_destroy(f, id);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
}

/* The REP's retries run out: REP_ERROR, IDLE, the backlog slot free. */
static void fsm_rep_timeout(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_TRUE(test, fake_complete(fake_last_handle(f),
					      IB_WC_RESP_TIMEOUT_ERR));
	fake_settle();
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REP_ERROR);
	/* the REP gave the backlog slot back */
	fsm_passive_req(f, f->peer_comm + 1, 0x112234);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 3U);
}

/*
 * A listen whose backlog is full of half-open connections -- REPs nobody
 * answers, as a flood leaves them -- stays available (issue 34 #10): a
 * new REQ evicts the oldest whose REP has gone unanswered for
 * halfopen_evict_ms, whose peer gets REJ TIMEOUT and whose ULP
 * PDCM_REP_ERROR, as for a REP out of retries.  One whose peer sent an MRA
 * has answered and stays.  The REPs of a listen under pressure (3/4 of
 * its backlog taken) get 2 retries, not the REQ's 9.  pdcm used to drop
 * every new REQ for as long as the REPs' retries lasted (70 s measured).
 */
static void fsm_backlog_evicts_halfopen(struct kunit *test)
{
	unsigned int saved = pdcm_halfopen_evict_ms;
	struct fake *f = FAKE(test);
	struct pdcm_id *a, *b, *c;
	struct fsm_ev *e0, *e1;
	struct fake_sent *s;
	struct pdcm_msg m;
	unsigned int nev;

	fsm_listen_backlog(f, fsm_rec.sid, 3, 0);
	a = fsm_passive_rep(f, f->peer_comm, 0x112233);
	KUNIT_EXPECT_EQ(test, fake_last(f)->retries, 9U);
	b = fsm_passive_rep(f, f->peer_comm + 1, 0x112234);
	KUNIT_EXPECT_EQ(test, fake_last(f)->retries, 9U);
	c = fsm_passive_rep(f, f->peer_comm + 2, 0x112235);
	KUNIT_EXPECT_EQ(test, fake_last(f)->retries, 2U);
	/* a answered with an MRA: alive, not evicted */
	fsm_mk(&m, PDCM_ATTR_MRA, a, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 20;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, a->state, PDCM_MRA_REP_RCVD);

	/* too young to evict (a minute here): dropped, as before */
	pdcm_halfopen_evict_ms = 60000;
	nev = fsm_rec.nev;
	fsm_mk_req(f, &m, f->peer_comm + 3, 0x112236);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped), 1);

	/* old enough: b goes, the REQ is delivered */
	pdcm_halfopen_evict_ms = 1;
	msleep(20);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test,
			atomic_long_read(&f->port->cnt.backlog_evicted), 1);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_MRA_REP_RCVD);
	KUNIT_EXPECT_EQ(test, b->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, c->state, PDCM_REP_SENT);
	/* b's REP_ERROR and the new REQ's handler run in either order */
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, nev + 2);
	e0 = fsm_ev(nev);
	e1 = fsm_ev(nev + 1);
	if (e0->type != PDCM_REP_ERROR)
		swap(e0, e1);
	KUNIT_EXPECT_PTR_EQ(test, e0->id, b);
	KUNIT_EXPECT_EQ(test, e0->type, PDCM_REP_ERROR);
	KUNIT_EXPECT_EQ(test, e1->type, PDCM_REQ_RECEIVED);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	list_for_each_entry(s, &f->sent, node)
		if (s->msg.hdr.attr_id == PDCM_ATTR_REJ)
			break;
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_TIMEOUT);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm + 1);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id,
			be32_to_cpu(b->local_id));
	/* its ARI is our CA GUID, as an unanswered REQ's REJ TIMEOUT */
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_OTHER);
	KUNIT_ASSERT_EQ(test, s->msg.rej.ari_len, 8);
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(s->msg.rej.ari), f->node_guid);

	/* with eviction off, a full backlog drops again */
	pdcm_halfopen_evict_ms = 0;
	fsm_mk_req(f, &m, f->peer_comm + 4, 0x112237);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev + 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped), 2);
	pdcm_halfopen_evict_ms = saved;
}

/*
 * A REP_SENT connection keeps its backlog slot until the RTU (issue 12
 * defect 7): REQs that are answered but never completed cannot pile up
 * past the backlog.
 */
static void fsm_rep_sent_holds_slot(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;
	unsigned int nev;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	nev = fsm_rec.nev;
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112234);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped), 1);
	/* the RTU: established, the slot is free */
	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	fsm_passive_req(f, f->peer_comm + 2, 0x112235);
}

/*
 * What the peer chooses is capped (issue 12 defect 7): a REQ's CM
 * response timeout and local ACK timeout of 31 (2.3 hours a try, 37 hours
 * with the retries; the same TIMEWAIT) become 24 and 20; an MRA's service
 * timeout of 31 counts as 24.
 */
static void fsm_peer_timeouts_capped(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fsm_ev *e;
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.local_cm_response_timeout = 31;
	m.req.primary_path.local_ack_timeout = 31;
	fake_rx(f, &m);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	id = e->id;
	KUNIT_EXPECT_EQ(test, to_conn(id)->local_ack_timeout, 20);
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->timeout_ms, pdcm_timeout_ms(24));
	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 31;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, f->nextend, 1U);
	KUNIT_EXPECT_EQ(test, f->last_extend,
			pdcm_timeout_ms(24) + pdcm_timeout_ms(20));
}

/* The DREQ's retries run out: DREQ_ERROR and TIMEWAIT. */
static void fsm_dreq_timeout(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);

	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);
	KUNIT_ASSERT_TRUE(test, fake_complete(fake_last_handle(f),
					      IB_WC_RESP_TIMEOUT_ERR));
	fake_settle();
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_DREQ_ERROR);
	fsm_expect_timewait_exit(test, id);
}

/* A completion of a MAD that is no longer conn->msg is ignored. */
static void fsm_stale_completion(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct ib_mad_send_buf other = {};

	pdcm_cm_send_done(to_conn(id), &other, IB_WC_RESP_TIMEOUT_ERR);
	pdcm_cm_send_done(to_conn(id), NULL, IB_WC_RESP_TIMEOUT_ERR);
	fake_settle();
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_EXPECT_PTR_EQ(test, (void *)to_conn(id)->msg,
			    (void *)&fake_last_handle(f)->buf);
}

/* IB_WC_WR_FLUSH_ERR (a cancel) and success end the MAD silently. */
static void fsm_flush_completion(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_id *id2 = fsm_active_req(f);

	KUNIT_ASSERT_TRUE(test,
			  fake_complete(list_first_entry(&f->handles,
							 struct fake_handle,
							 node),
					IB_WC_WR_FLUSH_ERR));
	KUNIT_ASSERT_TRUE(test, fake_complete(fake_last_handle(f),
					      IB_WC_SUCCESS));
	fake_settle();
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, id2->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_NULL(test, to_conn(id)->msg);
	KUNIT_EXPECT_NULL(test, to_conn(id2)->msg);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
}

/* ---- MRA -------------------------------------------------------------- */

/* MRA in REQ_SENT: MRA_REQ_RCVD, the REQ extended; REP still taken. */
static void fsm_mra_rcvd_for_req(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;

	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REQ;
	m.mra.service_timeout = 22;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, f->nextend, 1U);
	KUNIT_EXPECT_EQ(test, f->last_extend,
			pdcm_timeout_ms(22) +
			pdcm_timeout_ms(to_conn(id)->local_ack_timeout));
	/* packet life 14 -> local ACK timeout 15 */
	KUNIT_EXPECT_EQ(test, f->last_extend, 16384U + 128U);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_ev(0)->type, PDCM_MRA_RECEIVED);
	KUNIT_EXPECT_EQ(test, fsm_ev(0)->ev.param.mra_rcvd.service_timeout,
			22);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);

	/*
	 * More MRAs (copies, or a peer stretching the wait without end)
	 * are duplicates: no new extension, no event (issue 12 defect 14).
	 */
	fake_rx(f, &m);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, f->nextend, 1U);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_MRA), 2);

	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REP_RECEIVED);
}

/* An MRA for the wrong message, or in the wrong state, is dropped. */
static void fsm_mra_rcvd_wrong(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;

	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 22;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, f->nextend, 0U);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	/* an MRA of a REP names our remote ID, which we do not know yet */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped), 1);
}

/* MRA for our REP: MRA_REP_RCVD, extended; the RTU still establishes. */
static void fsm_mra_rcvd_for_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 12;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REP_RCVD);
	KUNIT_EXPECT_EQ(test, f->nextend, 1U);
	/* the REQ's local ACK timeout was 15 */
	KUNIT_EXPECT_EQ(test, f->last_extend,
			pdcm_timeout_ms(12) + pdcm_timeout_ms(15));
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_MRA_RECEIVED);
	/* a second MRA is a duplicate: the REP's wait is not stretched */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, f->nextend, 1U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_MRA), 1);
	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
}

/* pdcm_send_mra() in REQ_RCVD: on the wire; REP from MRA_REQ_SENT. */
static void fsm_send_mra_plain(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_sent *s;
	struct pdcm_id *id;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, 21, fsm_pdata, 2), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_SENT);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_MRA);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, f->tid + f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.mra.msg_mraed, PDCM_MSG_RESPONSE_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.mra.service_timeout, 21);
	KUNIT_EXPECT_EQ(test, s->msg.mra.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, s->msg.mra.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.mra.private_data_len, 2);
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 0U);
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_SENT);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REP);
}

/* PDCM_MRA_FLAG_DELAY: nothing on the wire until a duplicate REQ. */
static void fsm_send_mra_delayed(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;
	struct fake_sent *s;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, PDCM_MRA_FLAG_DELAY | 24,
					    NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_SENT);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);

	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);		/* no new REQ event */
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_MRA);
	KUNIT_EXPECT_EQ(test, s->msg.mra.service_timeout, 24);
	KUNIT_EXPECT_EQ(test, s->msg.mra.msg_mraed, PDCM_MSG_RESPONSE_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.mra.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REQ), 1);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_SENT);
	/* REP from MRA_REQ_SENT, as rdma_cm does after a delayed MRA */
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 1U);
}

/*
 * A copy of a REQ that still waits for its work to start (the peer sent
 * it again while pdcm_wq was busy) is a duplicate at once: counted, no
 * second slot of the REQ budget, one REQ_RECEIVED.  It used to be queued
 * as a second new REQ, found a duplicate only when it ran.  The peer has
 * retried, so the delayed MRA the ULP then asks for goes out at once, as
 * a copy handled after the REQ would have sent it.
 */
static void fsm_req_copy_while_queued(struct kunit *test)
{
	struct fake *f = FAKE(test);
	int reqs = atomic_read(&pdcm_pending_reqs);
	struct pdcm_msg m;
	struct pdcm_id *id;
	struct fake_sent *s;

	fsm_listen(f);
	fake_hold(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_inject(f, &m);
	fake_inject(f, &m);
	KUNIT_EXPECT_EQ(test, atomic_read(&pdcm_pending_reqs), reqs + 1);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REQ), 1);
	fake_release(f);
	fake_settle();
	KUNIT_EXPECT_EQ(test, atomic_read(&pdcm_pending_reqs), reqs);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_ASSERT_EQ(test, fsm_last_ev()->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REQ), 1);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);

	id = fsm_last_ev()->id;
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, PDCM_MRA_FLAG_DELAY | 24,
					    NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_MRA);
	KUNIT_EXPECT_EQ(test, s->msg.mra.service_timeout, 24);
	KUNIT_EXPECT_EQ(test, s->msg.mra.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_SENT);

	/* a copy now (the REQ was handled) finds its conn: the MRA again */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REQ), 2);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 2U);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
}

/*
 * How long the peer of fsm_mra_early_req() waits for an answer: its CM
 * response timeout ms(18) plus twice the packet lifetime, i.e. its local
 * ACK timeout ms(16): 1,024 + 256 ms.
 */
#define FSM_MRA_PEER_WAIT_MS	(pdcm_timeout_ms(18) + pdcm_timeout_ms(16))

/*
 * A REQ whose peer waits FSM_MRA_PEER_WAIT_MS for an answer, and a delayed
 * MRA of it with early_mra_pct at @pct: the id, and in @t0 the time just
 * before the REQ arrived.
 */
static struct pdcm_id *fsm_mra_early_req(struct fake *f, unsigned int pct,
					 ktime_t *t0)
{
	struct pdcm_id *id;
	struct pdcm_msg m;

	pdcm_mra_early_pct = pct;
	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.remote_cm_response_timeout = 18;
	m.req.primary_path.local_ack_timeout = 16;
	*t0 = ktime_get();
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(f->test, fsm_rec.nev, 1U);
	id = fsm_last_ev()->id;
	KUNIT_ASSERT_EQ(f->test, pdcm_send_mra(id, PDCM_MRA_FLAG_DELAY | 24,
					       NULL, 0), 0);
	KUNIT_EXPECT_EQ(f->test, f->nsent, 0U);
	return id;
}

/* Microseconds from @t0 until @f has sent @n MRAs, polled up to @max_ms. */
static s64 fsm_mra_sent_us(struct fake *f, unsigned int n, ktime_t t0,
			   unsigned int max_ms)
{
	unsigned long flags;
	unsigned int waited, got;

	for (waited = 0; waited <= max_ms; waited += 20) {
		/* (the MRA is recorded from pdcm_wq meanwhile) */
		spin_lock_irqsave(&f->lock, flags);
		got = fake_count(f, PDCM_ATTR_MRA);
		spin_unlock_irqrestore(&f->lock, flags);
		if (got >= n)
			return ktime_us_delta(ktime_get(), t0);
		msleep(20);
	}
	return -1;
}

/*
 * The delayed MRA goes out on its own at early_mra_pct of the peer's wait
 * (50 % of 1,280 ms here), before the peer would send its REQ again; a
 * copy of the REQ that still comes gets it again, as on a duplicate.
 */
static void fsm_send_mra_early(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int wait_ms = FSM_MRA_PEER_WAIT_MS;
	struct fake_sent *s;
	struct pdcm_id *id;
	struct pdcm_msg m;
	ktime_t t0;
	s64 took;

	id = fsm_mra_early_req(f, 50, &t0);
	took = fsm_mra_sent_us(f, 1, t0, 2 * wait_ms);
	kunit_info(test, "early MRA after %lld us of the peer's %u ms\n",
		   took, wait_ms);
	KUNIT_EXPECT_GE(test, took, 1000LL * (wait_ms * 50 / 100) - FSM_EARLY_US);
	KUNIT_EXPECT_LT(test, took, 1000LL * wait_ms);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_MRA);
	KUNIT_EXPECT_EQ(test, s->msg.mra.msg_mraed, PDCM_MSG_RESPONSE_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.mra.service_timeout, 24);
	KUNIT_EXPECT_EQ(test, s->msg.mra.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.mra.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_SENT);

	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 2U);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_SENT);
}

/*
 * The MRA that a copy of a queued REQ makes due at once cannot be posted:
 * the early one (early_mra_pct) is still armed and goes out.  It used to
 * be left to a further copy of the REQ.
 */
static void fsm_req_copy_mra_fails_early_armed(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int wait_ms = FSM_MRA_PEER_WAIT_MS;
	struct pdcm_id *id;
	struct pdcm_msg m;
	ktime_t t0;

	pdcm_mra_early_pct = 50;
	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.remote_cm_response_timeout = 18;
	m.req.primary_path.local_ack_timeout = 16;
	t0 = ktime_get();
	fake_hold(f);
	fake_inject(f, &m);
	fake_inject(f, &m);
	fake_release(f);
	fake_settle();
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	id = fsm_last_ev()->id;
	f->send_err = -ENOMEM;
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(id, PDCM_MRA_FLAG_DELAY | 24,
					    NULL, 0), 0);
	f->send_err = 0;
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_GE(test, fsm_mra_sent_us(f, 1, t0, 2 * wait_ms), 0LL);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_SENT);
}

/* early_mra_pct=0: as ib_cm, the delayed MRA waits for a copy of the REQ. */
static void fsm_send_mra_early_off(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int wait_ms = FSM_MRA_PEER_WAIT_MS;
	struct pdcm_id *id;
	struct pdcm_msg m;
	ktime_t t0;

	id = fsm_mra_early_req(f, 0, &t0);
	KUNIT_EXPECT_EQ(test, fsm_mra_sent_us(f, 1, t0, wait_ms + 200), -1LL);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 1U);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REQ_SENT);
}

/* A REQ answered (REP) or rejected before the MRA is due: no MRA. */
static void fsm_send_mra_early_answered(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int wait_ms = FSM_MRA_PEER_WAIT_MS;
	struct pdcm_id *id;
	ktime_t t0;

	id = fsm_mra_early_req(f, 50, &t0);
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	KUNIT_EXPECT_EQ(test, fsm_mra_sent_us(f, 1, t0, wait_ms), -1LL);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);	/* the REP */
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_SENT);
}

/* The delayed MRA goes out even while the listen's backlog is full. */
static void fsm_send_mra_delayed_backlog_full(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, PDCM_MRA_FLAG_DELAY | 24,
					    NULL, 0), 0);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 1U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped),
			0);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
}

/* pdcm_send_mra() for a REP; a duplicate REP gets the MRA again. */
static void fsm_send_mra_for_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_rep(f, f->peer_comm);
	struct pdcm_msg m;

	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, 13, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_MRA_REP_SENT);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_MRA);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.mra.msg_mraed,
			PDCM_MSG_RESPONSE_REP);
	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 2U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.mra.service_timeout, 13);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, pdcm_send_rtu(id, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
}

/* ---- duplicates and stale connections ------------------------------- */

/* A duplicate REQ in REQ_RCVD is counted and dropped. */
static void fsm_dup_req_dropped(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REQ), 2);
}

/* A duplicate REQ in MRA_REQ_SENT: the MRA again, each time. */
static void fsm_dup_req_mra_resent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, 20, NULL, 0), 0);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_MRA), 3U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.mra.service_timeout, 20);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
}

/* A duplicate REQ in TIMEWAIT: REJ STALE_CONN. */
static void fsm_dup_req_timewait(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m, d;
	struct fake_sent *s;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk(&d, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &d);
	KUNIT_ASSERT_EQ(test, pdcm_send_drep(id, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_STALE_CONN);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_DREQ_RECEIVED);
}

/* A duplicate REP once ESTABLISHED: the RTU again. */
static void fsm_dup_rep_rtu_resent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);
	struct pdcm_msg m;

	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_RTU), 2U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rtu.remote_comm_id,
			f->peer_comm);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rtu.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REP), 1);
}

/*
 * A new REQ to @sid from the QP of an ESTABLISHED connection: no event,
 * REJ STALE_CONN to the REQ, then a DREQ on the old connection, in
 * ib_cm's order.
 */
static void fsm_expect_stale_req(struct fake *f, u64 sid)
{
	struct kunit *test = f->test;
	struct pdcm_id *old;
	struct fake_sent *s;
	struct pdcm_msg m;
	unsigned int nev;

	old = fsm_passive_est(f, f->peer_comm, 0x112233);
	nev = fsm_rec.nev;
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112233);
	m.req.service_id = sid;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, old->state, PDCM_DREQ_SENT);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 1U);
	s = fake_nth(f, f->nsent - 2);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_STALE_CONN);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm + 1);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, 0U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_DREQ);
	KUNIT_EXPECT_EQ(test, s->msg.dreq.remote_comm_id, f->peer_comm);
}

/* A new REQ from a QP we are connected to (pdcm sent the DREQ first). */
static void fsm_stale_req(struct kunit *test)
{
	struct fake *f = FAKE(test);

	fsm_listen(f);
	fsm_expect_stale_req(f, fsm_rec.sid);
}

/*
 * @m arrives from the peer over RoCE v2 (IPv6) with a GRH of traffic
 * class @tclass on the receive P_Key index @pkey_index, and is handled.
 */
static void fsm_rx_grh(struct fake *f, const struct pdcm_msg *m, u8 tclass,
		       u16 pkey_index)
{
	struct pdcm_rx rx = { .port = f->port };

	rx.wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	rx.wc.network_hdr_type = RDMA_NETWORK_IPV6;
	rx.wc.sl = 1;
	rx.wc.pkey_index = pkey_index;
	rx.grh.version_tclass_flow = cpu_to_be32(6 << 28 | tclass << 20 | 0x777);
	rx.grh.sgid = m->req.primary_path.local_gid;
	rx.grh.dgid = m->req.primary_path.remote_gid;
	f->port->up->rx(&rx, m);
	fake_settle();
}

/*
 * A REQ naming a connected QP (its QPN and CA GUID) but sent from another
 * node's GID, or with another P_Key: QPNs are sequential and GUIDs
 * public, so any node could end any connection with it (issue 34 #9).
 * The REQ still gets REJ STALE_CONN; the connection keeps running and the
 * port counts it (pdcm/stale_not_peer).  From the peer's own GID it is a
 * peer that restarted, and the connection is told to go (fsm_stale_req).
 */
static void fsm_stale_req_not_from_peer(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *old;
	struct pdcm_msg m;
	unsigned int nev;

	fsm_listen(f);
	old = fsm_passive_est(f, f->peer_comm, 0x112233);
	nev = fsm_rec.nev;
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112233);
	m.req.primary_path.local_gid.global.interface_id =
		cpu_to_be64(0x0002c903dead0000ULL);
	fake_inject_from(f, &m, 0x0002c903dead0000ULL);
	fake_settle();
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, old->state, PDCM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 0U);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_STALE_CONN);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.stale_not_peer),
			1L);

	/* the peer's GID with another P_Key: the same */
	fsm_mk_req(f, &m, f->peer_comm + 2, 0x112233);
	fsm_rx_grh(f, &m, 0, 1);
	KUNIT_EXPECT_EQ(test, old->state, PDCM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.stale_not_peer),
			2L);

	/* and from the peer itself: stale, both go */
	fsm_mk_req(f, &m, f->peer_comm + 3, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, old->state, PDCM_DREQ_SENT);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 1U);
}

/*
 * The same REQ for a service nobody listens on: it is stale before it is
 * unlistened-for, so, as ib_cm, it gets REJ STALE_CONN and the old
 * connection a DREQ.  It used to get REJ INVALID_SERVICE_ID and leave the
 * old connection established.
 */
static void fsm_stale_req_before_listen(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_msg m;

	fsm_listen(f);
	fsm_expect_stale_req(f, fsm_rec.sid + 1);

	/* a REQ from another QP for that service is simply unlistened-for */
	fsm_mk_req(f, &m, f->peer_comm + 2, 0x445566);
	m.req.service_id = fsm_rec.sid + 1;
	fake_rx(f, &m);
	fake_settle();
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 2U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_INVALID_SERVICE_ID);
}

/*
 * A REP from a QP we are connected to: the REP gets REJ STALE_CONN (a
 * reply to it, both comm IDs from it) and the old connection a DREQ, and
 * our id stays in REQ_SENT, its REQ still retried, until the REQ times
 * out: REQ_ERROR, as ib_cm (rdma_cm: UNREACHABLE).  pdcm used to move to
 * IDLE and deliver REJ_RECEIVED for its own REJ (issue 34 #7); before
 * that the old connection stayed ESTABLISHED.
 */
static void fsm_stale_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id, *old;
	unsigned int nev, ncancel;
	struct fake_sent *s;
	struct pdcm_msg m;

	fsm_listen(f);
	/* the peer's QP 0xc0ffee is connected to us as passive side */
	old = fsm_passive_est(f, f->peer_comm, 0xc0ffee);
	id = fsm_active_req(f);
	nev = fsm_rec.nev;
	ncancel = f->ncancel;
	fsm_mk_rep(f, &m, id, f->peer_comm + 1, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, old->state, PDCM_DREQ_SENT);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 1U);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	s = fake_nth(f, f->nsent - 2);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_STALE_CONN);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_REP);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm + 1);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, f->ncancel, ncancel);
	/* the REP's QP is not ours: not in the remote QP table */
	KUNIT_EXPECT_EQ(test, to_conn(id)->remote_qpn, 0U);
	/* the REQ's retries run out (not the DREQ's, sent since) */
	KUNIT_ASSERT_NOT_NULL(test, to_conn(id)->msg);
	KUNIT_EXPECT_TRUE(test, fake_complete(container_of(to_conn(id)->msg,
							   struct fake_handle,
							   buf),
					      IB_WC_RESP_TIMEOUT_ERR));
	fake_settle();
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, nev + 1);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REQ_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, fsm_last_ev()->id, id);
}

/* ---- REJ -------------------------------------------------------------- */

/*
 * REJ 10 (stale connection) received for our REQ: TIMEWAIT, not IDLE, as
 * ib_cm, for the peer may still send on the QP's old connection.  pdcm
 * went to IDLE, and the ULP could reuse the QP at once.
 */
static void fsm_rej_stale_enters_timewait(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;

	fsm_mk(&m, PDCM_ATTR_REJ, id, f->peer_comm);
	m.rej.reason = PDCM_REJ_STALE_CONN;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_REQ;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_ev(0)->type, PDCM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, fsm_ev(0)->ev.param.rej_rcvd.reason,
			PDCM_REJ_STALE_CONN);
	fsm_expect_timewait_exit(test, id);
}

/* No listen: REJ INVALID_SERVICE_ID with local comm ID 0. */
static void fsm_rej_no_listener(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_sent *s;
	struct pdcm_msg m;

	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, 0U);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.tx, PDCM_ATTR_REJ), 1);
}

/* REJ in REQ_SENT: REJ_RECEIVED with reason and ARI, IDLE. */
static void fsm_rej_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;
	struct fsm_ev *e;

	fsm_mk(&m, PDCM_ATTR_REJ, id, f->peer_comm);
	m.rej.reason = PDCM_REJ_CONSUMER_DEFINED;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_REQ;
	m.rej.ari_len = 3;
	memcpy(m.rej.ari, "abc", 3);
	m.rej.private_data[0] = 0x42;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	e = fsm_ev(0);
	KUNIT_EXPECT_EQ(test, e->type, PDCM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.reason,
			PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rej_rcvd.ari_length, 3);
	KUNIT_EXPECT_EQ(test, memcmp(e->ari, "abc", 3), 0);
	KUNIT_EXPECT_EQ(test, e->pdata0, 0x42);
	KUNIT_EXPECT_EQ(test, e->pdata_len, PDCM_REJ_PDATA_SIZE);
	/* destroying it now sends nothing */
	fsm_destroy(f, id);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
}

/* pdcm_send_rej() in REQ_RCVD: local comm ID 0; the backlog slot free. */
static void fsm_send_rej_req_rcvd(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct fake_sent *s;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED,
					    "xy", 2, fsm_pdata, 5), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_FALSE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, 0U);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, s->msg.rej.ari_len, 2);
	KUNIT_EXPECT_EQ(test, s->msg.rej.private_data_len, 5);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, f->tid + f->peer_comm);
	/* the slot is back: the next REQ is delivered */
	fsm_passive_req(f, f->peer_comm + 1, 0x112234);
}

/* The REQ in @m is rejected at once with @reason, the GID it reached as ARI. */
static void fsm_expect_req_rej(struct kunit *test, struct pdcm_msg *m,
			       u16 reason)
{
	struct fake *f = FAKE(test);
	unsigned int nsent = f->nsent, nev = fsm_rec.nev;
	struct fake_sent *s;
	union ib_gid ours = {};

	ours.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	ours.global.interface_id = cpu_to_be64(f->node_guid);
	fake_rx(f, m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_ASSERT_EQ(test, f->nsent, nsent + 1);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, reason);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, m->req.local_comm_id);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_REQ);
	KUNIT_ASSERT_EQ(test, s->msg.rej.ari_len, sizeof(ours));
	KUNIT_EXPECT_EQ(test, memcmp(s->msg.rej.ari, &ours, sizeof(ours)), 0);
}

/*
 * REQ validation (issue 12 defect 9, IBA 12.6.5 / 12.6.7): the primary
 * path's GIDs must be where the REQ came from and went to (REJ 12), and
 * on RoCE, where ib_cm builds no address for an alternate path, a REQ
 * with one (an alternate local LID) gets REJ 18.  Nothing is delivered;
 * the backlog slot is not used up.
 */
static void fsm_req_bad_paths(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_msg m;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.primary_path.local_gid.raw[15] ^= 1;	/* a spoofed sender */
	fsm_expect_req_rej(test, &m, PDCM_REJ_INVALID_GID);
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112234);
	m.req.primary_path.remote_gid.raw[15] ^= 1;	/* not our GID */
	fsm_expect_req_rej(test, &m, PDCM_REJ_INVALID_GID);
	fsm_mk_req(f, &m, f->peer_comm + 2, 0x112235);
	m.req.alternate_path.local_lid = 5;
	fsm_expect_req_rej(test, &m, PDCM_REJ_INVALID_ALT_GID);
	/*
	 * the one slot is still free: a REQ whose alternate path has no
	 * local LID has none, as ib_cm reads it (issue 34 #13), and is
	 * delivered
	 */
	fsm_mk_req(f, &m, f->peer_comm + 3, 0x112236);
	m.req.alternate_path.remote_gid.raw[0] = 0xfe;
	m.req.alternate_path.remote_lid = 5;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_last_ev()->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_FALSE(test, fsm_last_ev()->has_alt);
}

/*
 * A REQ we rejected is forgotten (issue 12 defect 5): the same QP's next
 * REQ, with a new comm ID, is a new request, not a stale connection; and
 * a copy of the rejected REQ is a new request too.
 */
static void fsm_send_rej_forgets_peer(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id, *id2;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	id2 = fsm_passive_req(f, f->peer_comm + 1, 0x112233);
	KUNIT_EXPECT_EQ(test, id2->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 0U);
	KUNIT_ASSERT_EQ(test, pdcm_send_rej(id2, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), 0);
	/* the first REQ again (its sender retried): delivered, not dropped */
	id2 = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_EXPECT_EQ(test, id2->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REQ), 0);
}

/* pdcm_send_rej() from REQ_SENT aborts our connect (as ib_cm allows). */
static void fsm_send_rej_req_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct fake_sent *s;

	KUNIT_ASSERT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_OTHER);
	fake_settle();
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);	/* REQ off */
}

/* pdcm_send_rej() after our REP: TIMEWAIT (the QP may be at RTR). */
static void fsm_send_rej_rep_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;

	fsm_listen(f);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.local_comm_id,
			be32_to_cpu(id->local_id));
	fsm_expect_timewait_exit(test, id);
}

/* REJ once ESTABLISHED, or after the REP: TIMEWAIT, then IDLE. */
static void fsm_rej_after_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a = fsm_active_rep(f, f->peer_comm);
	struct pdcm_id *b = fsm_active_est(f, f->peer_comm + 1);
	struct pdcm_msg m;

	/* after its REP the peer rejects "other" (a REJ of the REQ would
	 * name a connection whose remote ID we did not know yet: dropped)
	 */
	fsm_mk(&m, PDCM_ATTR_REJ, a, f->peer_comm);
	m.rej.reason = PDCM_REJ_TIMEOUT;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_OTHER;
	fake_rx(f, &m);
	fsm_mk(&m, PDCM_ATTR_REJ, b, f->peer_comm + 1);
	m.rej.reason = PDCM_REJ_CONSUMER_DEFINED;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_OTHER;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_EQ(test, b->state, PDCM_TIMEWAIT);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 4U);
	KUNIT_EXPECT_EQ(test, fsm_ev(2)->type, PDCM_REJ_RECEIVED);
	KUNIT_EXPECT_EQ(test, fsm_ev(3)->type, PDCM_REJ_RECEIVED);
	fsm_timewait_now(a);
	fsm_timewait_now(b);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, b->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 6U);
}

/*
 * The peer gave up on its REQ of f->peer_comm before it learnt our comm
 * ID: REJ TIMEOUT naming none of ours, its CA GUID as the ARI.
 */
static void fsm_mk_rej_by_ari(struct fake *f, struct pdcm_msg *m)
{
	__be64 guid = cpu_to_be64(f->peer_guid);

	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REJ, f->tid + f->peer_comm);
	m->rej.local_comm_id = f->peer_comm;
	m->rej.reason = PDCM_REJ_TIMEOUT;
	m->rej.msg_rejected = PDCM_MSG_RESPONSE_OTHER;
	m->rej.ari_len = sizeof(guid);
	memcpy(m->rej.ari, &guid, sizeof(guid));
}

/* The peer gave up on its REQ (REJ TIMEOUT, ARI = its GUID). */
static void fsm_rej_timeout_by_ari(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	fsm_mk_rej_by_ari(f, &m);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, fsm_last_ev()->id, id);
}

/*
 * The peer gives up on its REQ while the REQ still waits for its work to
 * start: the REQ ends unseen (nothing delivered, nothing sent), its
 * backlog slot and REQ budget slot come back, and the REJ is not counted
 * as dropped.  The REJ used to find no conn and be dropped, and the REQ
 * was then delivered for a connection its peer had abandoned.
 */
static void fsm_rej_timeout_while_queued(struct kunit *test)
{
	struct fake *f = FAKE(test);
	int reqs = atomic_read(&pdcm_pending_reqs);
	struct pdcm_msg m;
	long dropped;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	fake_hold(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_inject(f, &m);
	fsm_mk_rej_by_ari(f, &m);
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fake_inject(f, &m);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.req_withdrawn), 1);
	fake_release(f);
	fake_settle();
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&pdcm_pending_reqs), reqs);

	/* the backlog of 1 is free again: the next REQ is delivered */
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112234);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped),
			0);
}

/*
 * What does not withdraw a queued REQ: a REJ TIMEOUT naming it from
 * another sender (anyone may write the peer's comm ID and GUID), one whose
 * ARI names another CA, and a REJ for another reason.  Each is dropped
 * and counted, and the REQ is delivered.
 */
static void fsm_rej_timeout_while_queued_not_its_own(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_msg m;
	__be64 other = cpu_to_be64(f->peer_guid + 1);
	long dropped;

	fsm_listen(f);
	fake_hold(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_inject(f, &m);
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fsm_mk_rej_by_ari(f, &m);
	fake_inject_from(f, &m, f->peer_guid + 1);
	memcpy(m.rej.ari, &other, sizeof(other));
	fake_inject(f, &m);
	fsm_mk_rej_by_ari(f, &m);
	m.rej.reason = PDCM_REJ_CONSUMER_DEFINED;
	fake_inject(f, &m);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 3);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.req_withdrawn), 0);
	fake_release(f);
	fake_settle();
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REQ_RECEIVED);
}

/*
 * The same REJ once the peer has sent its RTU: the peer knew our comm ID
 * by then, so a REJ that names none of ours is stale or forged (by anyone
 * who knows the peer's comm ID and GUID) and is dropped.  It used to end
 * an established connection.
 */
static void fsm_rej_timeout_by_ari_established(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int nev;
	struct pdcm_id *id;
	struct pdcm_msg m;
	long dropped;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk_rej_by_ari(f, &m);
	nev = fsm_rec.nev;
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 1);
}

/*
 * A DREQ naming both comm IDs but not our QPN is not this connection's:
 * dropped and counted in every state, and in TIMEWAIT it gets no DREP
 * (it used to, and was counted as a duplicate).
 */
static void fsm_dreq_wrong_qpn(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int ndrep;
	struct pdcm_id *id;
	struct pdcm_msg m;
	long dropped;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	m.dreq.remote_qpn_eecn ^= 1;
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 1);

	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, pdcm_send_drep(id, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	ndrep = fake_count(f, PDCM_ATTR_DREP);
	m.dreq.remote_qpn_eecn ^= 1;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREP), ndrep);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 2);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_DREQ), 0);
	/* the right QPN still gets its DREP again */
	m.dreq.remote_qpn_eecn ^= 1;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREP), ndrep + 1);
	fsm_timewait_now(id);
}

/*
 * A REP whose sender comm ID (and CA GUID) another of our connections
 * already has is dropped, as ib_cm drops it: the second id stays in
 * REQ_SENT with its REQ still retried.  It used to be taken, and the
 * second conn never entered the remote-ID table, so the peer's duplicate
 * REQs and REJs by that ID reached the first.
 */
static void fsm_rep_remote_id_in_use(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a = fsm_active_rep(f, f->peer_comm);
	struct pdcm_id *b = fsm_active_req(f);
	unsigned int nev = fsm_rec.nev;
	struct pdcm_msg m;
	long dropped;

	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fsm_mk_rep(f, &m, b, f->peer_comm, 0xc0ffee ^ 5);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, b->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 1);
	KUNIT_EXPECT_NOT_NULL(test, to_conn(b)->msg);	/* the REQ, retried */
	/* a REP from another comm ID still connects b */
	fsm_mk_rep(f, &m, b, f->peer_comm + 1, 0xc0ffee ^ 5);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, b->state, PDCM_REP_RCVD);
}

/*
 * A REQ handler that waits at a gate: fsm_gate_action() tells the case it
 * is in, waits until the case opens the gate, and records the first
 * event any handler of the case ran before it returned.
 */
static struct {
	struct completion entered;
	struct completion open;
	bool req_done;
	int early;		/* an event that ran during it, or -1 */
	struct pdcm_id *id;
	struct work_struct destroy;
	struct completion destroyed;
} fsm_gate;

static int fsm_gate_action(struct fake *f, struct pdcm_id *id,
			   const struct pdcm_event *ev)
{
	if (ev->event == PDCM_REQ_RECEIVED) {
		complete(&fsm_gate.entered);
		wait_for_completion_timeout(&fsm_gate.open, 10 * HZ);
		WRITE_ONCE(fsm_gate.req_done, true);
	} else if (!READ_ONCE(fsm_gate.req_done) && fsm_gate.early < 0) {
		fsm_gate.early = ev->event;
	}
	return 0;
}

/* Listen, and let a REQ in whose handler now waits at the gate. */
static struct pdcm_id *fsm_gate_req(struct fake *f)
{
	struct pdcm_msg m;

	init_completion(&fsm_gate.entered);
	init_completion(&fsm_gate.open);
	init_completion(&fsm_gate.destroyed);
	fsm_gate.req_done = false;
	fsm_gate.early = -1;
	fsm_rec.action = fsm_gate_action;
	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_inject(f, &m);
	KUNIT_ASSERT_TRUE(f->test,
			  wait_for_completion_timeout(&fsm_gate.entered, 10 * HZ));
	KUNIT_ASSERT_EQ(f->test, fsm_last_ev()->type, PDCM_REQ_RECEIVED);
	return fsm_last_ev()->id;
}

/*
 * Nothing of a new conn runs while its REQ_RECEIVED handler does: here the
 * peer's REJ TIMEOUT (found by its comm ID and GUID, before it knew ours)
 * arrives during the handler and is delivered after it.  The REJ used to
 * run on the conn's event work at the same time as the REQ handler on the
 * REQ's work item, before the ULP had even seen its id.
 */
static void fsm_req_handler_runs_alone(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_gate_req(f);
	struct pdcm_msg m;

	fsm_mk_rej_by_ari(f, &m);
	fake_inject(f, &m);
	msleep(200);
	KUNIT_EXPECT_EQ(test, fsm_gate.early, -1);
	complete(&fsm_gate.open);
	fake_settle();
	KUNIT_EXPECT_EQ(test, fsm_gate.early, -1);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->type, PDCM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, fsm_ev(1)->id, id);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
}

static void fsm_gate_destroy_fn(struct work_struct *work)
{
	pdcm_destroy_id(fsm_gate.id);
	complete(&fsm_gate.destroyed);
}

/*
 * pdcm_destroy_id() of a new id from another thread waits for its
 * REQ_RECEIVED handler, as for any other event's: it used to return (and
 * free the conn) while the handler still ran, the REQ's work item holding
 * no reference of its own.
 */
static void fsm_destroy_waits_for_req_handler(struct kunit *test)
{
	struct fake *f = FAKE(test);

	fsm_gate.id = fsm_gate_req(f);
	fsm_disown(f, fsm_gate.id);
	INIT_WORK(&fsm_gate.destroy, fsm_gate_destroy_fn);
	queue_work(system_unbound_wq, &fsm_gate.destroy);
	msleep(200);
	KUNIT_EXPECT_FALSE(test, completion_done(&fsm_gate.destroyed));
	complete(&fsm_gate.open);
	KUNIT_EXPECT_TRUE(test,
			  wait_for_completion_timeout(&fsm_gate.destroyed, 10 * HZ));
	flush_work(&fsm_gate.destroy);
	fake_settle();
	/* the REQ was rejected by the destroy, after the handler returned */
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 1U);
}

/*
 * An active id used again after TIMEWAIT_EXIT connects to a new peer: the
 * REP of the new REQ used to be dropped ("wrong sender comm ID") because
 * the id still held the old peer's comm ID.
 */
static void fsm_reuse_after_timewait(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_rep(f, f->peer_comm);
	struct pdcm_req_param p;
	struct pdcm_msg m;

	fsm_mk(&m, PDCM_ATTR_REJ, id, f->peer_comm);
	m.rej.reason = PDCM_REJ_CONSUMER_DEFINED;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_OTHER;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	fsm_timewait_now(id);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_IDLE);

	fsm_req_param(f, &p);
	KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
	fsm_mk_rep(f, &m, id, f->peer_comm + 7, 0xc0ffee ^ 7);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_RCVD);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(id->remote_id), f->peer_comm + 7);
	/* and the old peer's comm ID is no longer this id's */
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_RCVD);
}

/*
 * A conn's memory outlives its last reference by an RCU grace period:
 * pdcm_conn_get_by_local_id() loads the pointer from the xarray and then
 * tries the refcount, and destroy may erase and free in between.  It used
 * to be freed at once.  Deterministic where no grace period can end
 * between pdcm_destroy_id()'s return and the read below, that is on one
 * CPU without preemption (the KUnit guests); elsewhere it is skipped.
 */
static void fsm_conn_freed_after_grace_period(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_conn *conn;

	if (num_online_cpus() > 1 || IS_ENABLED(CONFIG_PREEMPTION))
		kunit_skip(test, "needs one CPU and no preemption");
	id = fsm_id(f);
	conn = to_conn(id);
	fsm_disown(f, id);
	pdcm_destroy_id(id);
	rcu_read_lock();
	/* a use-after-free here is KASAN's report, which fails the case */
	KUNIT_EXPECT_EQ(test, refcount_read(&conn->refs), 0U);
	rcu_read_unlock();
}

/*
 * A REP or RTU naming an unknown comm ID: counted, dropped, no answer
 * (issue 12 defect 8: each drew a REJ INVALID_COMM_ID, an amplifier).
 */
static void fsm_unknown_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;

	KUNIT_ASSERT_EQ(test, f->nsent, 1U);	/* our REQ */
	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	m.rep.remote_comm_id ^= 0x80000000;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped), 1);

	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	m.rtu.remote_comm_id ^= 0x80000000;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REJ), 0U);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped), 2);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REQ_SENT);
}

/* A DREQ naming an unknown comm ID: DREP, ids swapped. */
static void fsm_unknown_dreq(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_sent *s;
	struct pdcm_msg m;

	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_DREQ, f->tid | 9);
	m.dreq.local_comm_id = f->peer_comm;
	m.dreq.remote_comm_id = 0x0badf00d;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_DREP);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.drep.local_comm_id, 0x0badf00dU);
	KUNIT_EXPECT_EQ(test, s->msg.drep.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	/* MRA, DREP, REJ, LAP for nobody: dropped without an answer */
	m.hdr.attr_id = PDCM_ATTR_DREP;
	fake_rx(f, &m);
	m.hdr.attr_id = PDCM_ATTR_MRA;
	fake_rx(f, &m);
	m.hdr.attr_id = PDCM_ATTR_LAP;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped), 4);
}

/* Messages naming an id that never sent anything (a listen): dropped. */
static void fsm_msg_for_portless_id(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *l = fsm_listen(f);
	struct pdcm_id *idle = fsm_id(f);
	static const u16 attrs[] = {
		PDCM_ATTR_MRA, PDCM_ATTR_REJ, PDCM_ATTR_REP, PDCM_ATTR_RTU,
		PDCM_ATTR_DREQ, PDCM_ATTR_DREP,
	};
	struct pdcm_msg m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		fsm_mk(&m, attrs[i], l, f->peer_comm);
		if (attrs[i] == PDCM_ATTR_REP)
			fsm_mk_rep(f, &m, l, f->peer_comm, 1);
		fake_inject(f, &m);
		fsm_mk(&m, attrs[i], idle, f->peer_comm);
		if (attrs[i] == PDCM_ATTR_REP)
			fsm_mk_rep(f, &m, idle, f->peer_comm, 1);
		fake_inject(f, &m);
	}
	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REP, 1);
	m.sidr_rep.request_id = be32_to_cpu(l->local_id);
	fake_inject(f, &m);
	fake_settle();
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, l->state, PDCM_LISTEN);
	KUNIT_EXPECT_EQ(test, idle->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			(long)(2 * ARRAY_SIZE(attrs) + 1));
}

/* ---- backlog --------------------------------------------------------- */

/* Backlog 1: a second REQ is dropped until the first is answered. */
static void fsm_backlog_drop(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112234);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped),
			1);
	/* an MRA does not answer it */
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, 20, NULL, 0), 0);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped),
			2);
	/* nor does the REP (issue 12 defect 7): the slot is held to the RTU */
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped),
			3);
	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_ESTABLISHED);
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112234);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 3U);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(fsm_last_ev()->id->remote_id),
			f->peer_comm + 1);
}

/* PDCM_LISTEN_REJ_ON_OVERFLOW: the overflow gets REJ NO_RESOURCES. */
static void fsm_backlog_rej(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_sent *s;
	struct pdcm_msg m;

	fsm_listen_backlog(f, fsm_rec.sid, 1, PDCM_LISTEN_REJ_ON_OVERFLOW);
	fsm_passive_req(f, f->peer_comm, 0x112233);
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112234);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_NO_RESOURCES);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm + 1);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, 0U);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_rejected),
			1);
}

/* ---- destroy in every state ----------------------------------------- */

/* IDLE and LISTEN: nothing on the wire; a destroyed listen is gone. */
static void fsm_destroy_idle_listen(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_id(f);
	struct pdcm_id *l = fsm_listen(f);
	struct pdcm_msg m;

	fsm_destroy(f, id);
	fsm_destroy(f, l);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_INVALID_SERVICE_ID);
	/* the service ID is free again */
	fsm_listen(f);
}

/* REQ_SENT: REJ TIMEOUT with our node GUID as ARI; the REQ cancelled. */
static void fsm_destroy_req_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	__be64 guid = cpu_to_be64(f->node_guid);
	u32 local = be32_to_cpu(id->local_id);
	struct fake_handle *h = fake_last_handle(f);
	struct fake_sent *s;

	fsm_destroy(f, id);
	KUNIT_EXPECT_TRUE(test, h->done);
	KUNIT_ASSERT_EQ(test, f->nsent, 2U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_TIMEOUT);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, local);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, 0U);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_OTHER);
	KUNIT_EXPECT_EQ(test, s->msg.rej.ari_len, 8);
	KUNIT_EXPECT_EQ(test, memcmp(s->msg.rej.ari, &guid, 8), 0);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, fake_nth(f, 0)->msg.hdr.tid);
}

/* MRA_REQ_RCVD is the same as REQ_SENT. */
static void fsm_destroy_mra_req_rcvd(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;

	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.service_timeout = 10;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_MRA_REQ_RCVD);
	fsm_destroy(f, id);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason, PDCM_REJ_TIMEOUT);
}

/* REQ_RCVD: REJ CONSUMER_DEFINED, local comm ID 0; the slot is back. */
static void fsm_destroy_req_rcvd(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct fake_sent *s;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	fsm_destroy(f, id);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, 0U);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_REQ);
	fsm_passive_req(f, f->peer_comm + 1, 0x112234);
}

/*
 * The listener goes first while its child is unanswered: destroy returns
 * at once, further REQs get INVALID_SERVICE_ID, and the child still
 * answers and gives its backlog slot back when it goes.
 */
static void fsm_destroy_listen_before_child(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *lid, *child;
	struct pdcm_msg m;
	struct fake_sent *s;

	lid = fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	child = fsm_passive_req(f, f->peer_comm, 0x113344);
	fsm_destroy(f, lid);
	f->nsent = 0;
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x113345);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, child->state, PDCM_REQ_RCVD);
	fsm_destroy(f, child);
	s = fake_last(f);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
}

/* MRA_REQ_SENT: REJ CONSUMER_DEFINED with our comm ID. */
static void fsm_destroy_mra_req_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	u32 local;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	local = be32_to_cpu(id->local_id);
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, 10, NULL, 0), 0);
	fsm_destroy(f, id);
	KUNIT_ASSERT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.local_comm_id, local);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.msg_rejected,
			PDCM_MSG_RESPONSE_REQ);
}

/* REP_SENT: REJ CONSUMER_DEFINED; the REP cancelled. */
static void fsm_destroy_rep_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct fake_sent *s;
	u32 local;

	fsm_listen(f);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	local = be32_to_cpu(id->local_id);
	fsm_destroy(f, id);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, local);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_OTHER);
}

/* REP_RCVD: REJ CONSUMER_DEFINED naming the REP. */
static void fsm_destroy_rep_rcvd(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_rep(f, f->peer_comm);
	u32 local = be32_to_cpu(id->local_id);
	struct fake_sent *s;

	fsm_destroy(f, id);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, local);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_REP);
}

/* ESTABLISHED: DREQ. */
static void fsm_destroy_established(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct fake_sent *s;

	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_destroy(f, id);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_DREQ);
	KUNIT_EXPECT_EQ(test, s->msg.dreq.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.dreq.remote_qpn_eecn, 0x112233U);
}

/* DREQ_RCVD: DREP; DREQ_SENT and TIMEWAIT: nothing. */
static void fsm_destroy_disconnecting(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a, *b, *c;
	unsigned int nsent, nev;
	struct pdcm_msg m;

	fsm_listen(f);
	a = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk(&m, PDCM_ATTR_DREQ, a, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, a->state, PDCM_DREQ_RCVD);
	fsm_destroy(f, a);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_DREP);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.drep.remote_comm_id,
			f->peer_comm);

	b = fsm_active_est(f, f->peer_comm + 1);
	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(b, NULL, 0), 0);
	nsent = f->nsent;
	fsm_destroy(f, b);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);

	c = fsm_active_est(f, f->peer_comm + 2);
	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(c, NULL, 0), 0);
	fsm_mk(&m, PDCM_ATTR_DREP, c, f->peer_comm + 2);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, c->state, PDCM_TIMEWAIT);
	nsent = f->nsent;
	nev = fsm_rec.nev;
	fsm_destroy(f, c);
	msleep(400);		/* past its TIMEWAIT (max(ms(15), 100) = 128 ms) */
	fake_settle();
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);	/* no TIMEWAIT_EXIT */
}

/* A handler's non-zero return destroys its id: REJ, no leak, slot back. */
static void fsm_handler_reject(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_sent *s;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	fsm_rec.ret_for[PDCM_REQ_RECEIVED] = -ECONNREFUSED;
	fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, 0U);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	fsm_rec.ret_for[PDCM_REQ_RECEIVED] = 0;
	/* the slot is back; the old comm ID is forgotten */
	fsm_passive_req(f, f->peer_comm, 0x112233);
}

/* -ENOMEM from the handler: destroyed, nothing sent, the peer retries. */
static void fsm_handler_enomem(struct kunit *test)
{
	struct fake *f = FAKE(test);

	fsm_listen(f);
	fsm_rec.ret_for[PDCM_REQ_RECEIVED] = -ENOMEM;
	fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	fsm_rec.ret_for[PDCM_REQ_RECEIVED] = 0;
	fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 2U);
}

/* A non-zero return on an active id's REP: REJ naming the REP. */
static void fsm_handler_reject_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;

	fsm_rec.ret_for[PDCM_REP_RECEIVED] = 1;
	fsm_disown(f, id);		/* the handler's return destroys it */
	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, f->nsent, 2U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason,
			PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.msg_rejected,
			PDCM_MSG_RESPONSE_REP);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.remote_comm_id,
			f->peer_comm);
}

static int fsm_accept_in_handler(struct fake *f, struct pdcm_id *id,
				 const struct pdcm_event *ev)
{
	if (ev->event == PDCM_REQ_RECEIVED)
		return pdcm_send_rep(id, &fsm_rep) ? -EIO : 0;
	return 0;
}

/* A handler may answer from inside the event. */
static void fsm_handler_sends_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;

	fsm_listen(f);
	fsm_rec.action = fsm_accept_in_handler;
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_REP_SENT);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REP);
}

/* ---- SIDR ------------------------------------------------------------ */

static struct pdcm_id *fsm_sidr_req(struct fake *f)
{
	struct pdcm_sidr_req_param p = {
		.path = &f->path,
		.port = 1,
		.service_id = cpu_to_be64(fsm_rec.sid),
		.timeout_ms = 500,
		.max_cm_retries = 3,
		.private_data = fsm_pdata,
		.private_data_len = 5,
	};
	struct pdcm_id *id = fsm_id(f);

	KUNIT_ASSERT_EQ(f->test, pdcm_send_sidr_req(id, &p), 0);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_SIDR_REQ_SENT);
	return id;
}

/* pdcm_send_sidr_req(): SIDR_REQ, retried as asked. */
static void fsm_sidr_req_on_wire(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_sidr_req(f);
	struct pdcm_sidr_req_param p = { .path = &f->path, .port = 1 };
	struct fake_sent *s = fake_last(f);

	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_SIDR_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_req.request_id,
			be32_to_cpu(id->local_id));
	KUNIT_EXPECT_EQ(test, s->msg.sidr_req.service_id, fsm_rec.sid);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_req.pkey, 0xffff);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_req.private_data_len, 5);
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 500U);
	KUNIT_EXPECT_EQ(test, s->retries, 3U);
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_req(id, &p), -EINVAL);
	p.max_cm_retries = 16;
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_req(fsm_id(f), &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
}

/*
 * SIDR_REP in: SIDR_REP_RECEIVED with QPN, Q_Key, status, and the GID entry
 * the SIDR_REQ left from (issue 34 #3: rdma_cm builds the UD address from
 * it, by the GID's value without: the parent's of a VLAN); IDLE.
 */
static void fsm_sidr_rep_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_sidr_req(f);
	const struct pdcm_sidr_rep_event_param *p;
	struct ib_gid_attr gid = { .device = f->ibdev, .port_num = 1 };
	struct pdcm_msg m;

	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REP, to_conn(id)->tid);
	m.sidr_rep.request_id = be32_to_cpu(id->local_id);
	m.sidr_rep.status = PDCM_SIDR_SUCCESS;
	m.sidr_rep.qpn = 0x654321;
	m.sidr_rep.qkey = 0x01234567;
	m.sidr_rep.service_id = fsm_rec.sid;
	m.sidr_rep.info_len = 2;
	/* (the fake's address holds no GID entry: lent for the event) */
	KUNIT_ASSERT_TRUE(test, to_conn(id)->ah_attr.ah_flags & IB_AH_GRH);
	to_conn(id)->ah_attr.grh.sgid_attr = &gid;
	fake_rx(f, &m);
	to_conn(id)->ah_attr.grh.sgid_attr = NULL;
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_TRUE(test, fake_last_handle(f)->done);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_ev(0)->type, PDCM_SIDR_REP_RECEIVED);
	p = &fsm_ev(0)->ev.param.sidr_rep_rcvd;
	KUNIT_EXPECT_EQ(test, p->status, PDCM_SIDR_SUCCESS);
	KUNIT_EXPECT_EQ(test, p->qpn, 0x654321U);
	KUNIT_EXPECT_EQ(test, p->qkey, 0x01234567U);
	KUNIT_EXPECT_EQ(test, p->info_len, 2);
	KUNIT_EXPECT_PTR_EQ(test, p->sgid_attr,
			    (const struct ib_gid_attr *)&gid);
	/* a second SIDR_REP is dropped */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_SIDR_REP),
			1);
}

/* No SIDR_REP after all retries: SIDR_REQ_ERROR. */
static void fsm_sidr_req_timeout(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_sidr_req(f);

	KUNIT_ASSERT_TRUE(test, fake_complete(fake_last_handle(f),
					      IB_WC_RESP_TIMEOUT_ERR));
	fake_settle();
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_SIDR_REQ_ERROR);
}

static void fsm_mk_sidr_req(struct fake *f, struct pdcm_msg *m, u32 req_id)
{
	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_SIDR_REQ, f->tid + req_id);
	m->sidr_req.request_id = req_id;
	m->sidr_req.pkey = 0x8001;
	m->sidr_req.service_id = fsm_rec.sid;
	m->sidr_req.private_data[0] = 0x3c;
}

/* SIDR_REQ in: a new id in SIDR_REQ_RECEIVED; the SIDR_REP as asked. */
static void fsm_sidr_req_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_sidr_rep_param rp = {
		.qp_num = 0x00abcd,
		.qkey = 0x80010000,
		.status = PDCM_SIDR_SUCCESS,
		.info = "i",
		.info_length = 1,
		.ece = { .vendor_id = 0x10000, .attr_mod = 0x99 },
	};
	struct pdcm_id *l = fsm_listen(f);
	const struct pdcm_sidr_req_event_param *p;
	struct pdcm_id *id;
	struct fake_sent *s;
	struct pdcm_msg m;
	struct fsm_ev *e;

	fsm_mk_sidr_req(f, &m, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	e = fsm_ev(0);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_SIDR_REQ_RECEIVED);
	id = e->id;
	p = &e->ev.param.sidr_req_rcvd;
	KUNIT_EXPECT_PTR_NE(test, id, l);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_SIDR_REQ_RCVD);
	KUNIT_EXPECT_PTR_EQ(test, p->listen_id, l);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(p->service_id), fsm_rec.sid);
	KUNIT_EXPECT_EQ(test, p->port, 1U);
	KUNIT_EXPECT_EQ(test, p->pkey, 0x8001);
	KUNIT_EXPECT_EQ(test, e->pdata0, 0x3c);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);

	/* ECE (issue 34 #12): 16 bits of vendor ID fit a SIDR_REP */
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_rep(id, &rp), -EINVAL);
	rp.ece.vendor_id = 0x02c9;
	KUNIT_ASSERT_EQ(test, pdcm_send_sidr_rep(id, &rp), 0);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_SIDR_REP);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.request_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.qpn, 0x00abcdU);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.qkey, 0x80010000U);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.status, PDCM_SIDR_SUCCESS);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.service_id, fsm_rec.sid);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.info_len, 1);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.vendor_id, 0x02c9U);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.attr_mod, 0x99U);
	KUNIT_EXPECT_EQ(test, s->timeout_ms, 0U);
	KUNIT_EXPECT_EQ(test, pdcm_send_sidr_rep(id, &rp), -EINVAL);
	/* our SIDR_REP was lost: the retry is asked again, as by ib_cm */
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->type, PDCM_SIDR_REQ_RECEIVED);
	KUNIT_EXPECT_PTR_NE(test, fsm_ev(1)->id, id);
}

/*
 * A SIDR_REQ the ULP has not answered keeps its listen's backlog slot, as
 * a half-open REQ does: with a backlog of 1 a second SIDR_REQ is dropped
 * until the first is answered (or its id destroyed).  The slot used to be
 * given back when the handler returned, so the SIDR_REQs a ULP held
 * unanswered were bounded only by what peers sent.
 */
static void fsm_sidr_backlog_until_answered(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_sidr_rep_param rp = {
		.qp_num = 0x00abcd,
		.qkey = 0x80010000,
		.status = PDCM_SIDR_SUCCESS,
	};
	struct pdcm_msg m;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	fsm_mk_sidr_req(f, &m, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	fsm_mk_sidr_req(f, &m, f->peer_comm + 1);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);	/* full: dropped */

	KUNIT_ASSERT_EQ(test, pdcm_send_sidr_rep(fsm_ev(0)->id, &rp), 0);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_ev(1)->type, PDCM_SIDR_REQ_RECEIVED);

	/* destroying the unanswered id gives its slot back too */
	fsm_destroy(f, fsm_ev(1)->id);
	fsm_mk_sidr_req(f, &m, f->peer_comm + 2);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 3U);
}

/* No SIDR listen: SIDR_REP status UNSUPPORTED (1). */
static void fsm_sidr_no_listener(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_sent *s;
	struct pdcm_msg m;

	fsm_mk_sidr_req(f, &m, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_SIDR_REP);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.status, PDCM_SIDR_UNSUPPORTED);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.request_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.sidr_rep.service_id, fsm_rec.sid);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
}

/* A duplicate SIDR_REQ is dropped; destroy answers SIDR_REP REJECT. */
static void fsm_sidr_dup(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_listen(f);
	fsm_mk_sidr_req(f, &m, f->peer_comm);
	fake_rx(f, &m);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_SIDR_REQ),
			1);
	id = fsm_ev(0)->id;
	fsm_destroy(f, id);
	KUNIT_ASSERT_EQ(test, f->nsent, 1U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.sidr_rep.status,
			PDCM_SIDR_REJECT);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.sidr_rep.request_id,
			f->peer_comm);
	/* once the id is gone, the same request is new again */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 2U);
}

/*
 * A SIDR_REQ is a duplicate when its request ID and its sender are those
 * of one held: over RoCE v2 and IPv4 the sender is the IPv4 source
 * address.  pdcm read the receive buffer as a GRH there, so every IPv4
 * sender looked the same, and a second client's request that happened to
 * carry the first's request ID was dropped.
 */
static void fsm_sidr_dup_by_ipv4_sender(struct kunit *test)
{
	struct fake *f = FAKE(test);
	__be32 a = cpu_to_be32(0x0a000002), b = cpu_to_be32(0x0a000003);
	__be32 us = cpu_to_be32(0x0a000001);
	struct pdcm_msg m;

	fsm_listen(f);
	fsm_mk_sidr_req(f, &m, f->peer_comm);
	fake_rx_ipv4(f, &m, a, us);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	fake_rx_ipv4(f, &m, b, us);		/* another client */
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 2U);
	fake_rx_ipv4(f, &m, a, us);		/* the first one's copy */
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 2U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_SIDR_REQ),
			1);
}

/* ---- ordering and QP attributes ------------------------------------- */

/* Messages queued before the queue runs arrive in order. */
static void fsm_events_in_order(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	unsigned int i, seen = 0;
	struct pdcm_msg m;

	fsm_listen(f);
	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.service_timeout = 10;
	fake_inject(f, &m);
	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	fake_inject(f, &m);
	for (i = 0; i < 4; i++) {
		fsm_mk_req(f, &m, f->peer_comm + 1 + i, 0x1000 + i);
		fake_inject(f, &m);
	}
	fake_settle();
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 6U);
	/* one id's events in order; different ids' in any order */
	for (i = 0; i < fsm_rec.nev; i++) {
		struct fsm_ev *e = fsm_ev(i);

		if (e->id == id) {
			KUNIT_EXPECT_EQ(test, e->type, seen ? PDCM_REP_RECEIVED :
					PDCM_MRA_RECEIVED);
			KUNIT_EXPECT_EQ(test, e->state, seen ? PDCM_REP_RCVD :
					PDCM_MRA_REQ_RCVD);
			seen++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, e->type, PDCM_REQ_RECEIVED);
		KUNIT_EXPECT_EQ(test, e->ev.param.req_rcvd.remote_qpn & ~3U,
				0x1000U);
	}
	KUNIT_EXPECT_EQ(test, seen, 2U);
}

/* ---- per-connection order ------------------------------------------- */

/* What the blocking handler below waits on (one case at a time). */
static struct {
	struct pdcm_id *block;		/* this id's first event blocks */
	struct pdcm_id *victim;		/* destroyed by @block's handler */
	struct completion entered;
	struct completion release;
} fsm_blk;

static int fsm_block_action(struct fake *f, struct pdcm_id *id,
			    const struct pdcm_event *ev)
{
	if (id != fsm_blk.block)
		return 0;
	fsm_blk.block = NULL;		/* only the first event */
	if (fsm_blk.victim) {
		fsm_destroy(f, fsm_blk.victim);
		fsm_blk.victim = NULL;
	}
	complete(&fsm_blk.entered);
	wait_for_completion_timeout(&fsm_blk.release, 10 * HZ);
	return 0;
}

static void fsm_blk_init(struct pdcm_id *block, struct pdcm_id *victim)
{
	fsm_blk.block = block;
	fsm_blk.victim = victim;
	init_completion(&fsm_blk.entered);
	init_completion(&fsm_blk.release);
	fsm_rec.action = fsm_block_action;
}

/* Wait (up to @ms) until the handler has seen @n events. */
static bool fsm_wait_nev(unsigned int n, unsigned int ms)
{
	while (READ_ONCE(fsm_rec.nev) < n && ms) {
		msleep(20);
		ms = ms > 20 ? ms - 20 : 0;
	}
	return READ_ONCE(fsm_rec.nev) >= n;
}

/*
 * A handler that sleeps holds up its own id only: another id's event is
 * delivered meanwhile (with one ordered queue for every id it was not).
 */
static void fsm_sleeping_handler_blocks_only_its_id(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a = fsm_active_req(f);
	struct pdcm_id *b = fsm_active_req(f);
	struct pdcm_msg m;

	fsm_blk_init(a, NULL);
	fsm_mk_rep(f, &m, a, f->peer_comm, 0xc0ffee);
	fake_inject(f, &m);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&fsm_blk.entered,
							    5 * HZ));
	/* a's handler sleeps; b's REP must still get through */
	fsm_mk_rep(f, &m, b, f->peer_comm + 1, 0xc0ffef);
	fake_inject(f, &m);
	KUNIT_EXPECT_TRUE(test, fsm_wait_nev(2, 3000));
	KUNIT_EXPECT_EQ(test, b->state, PDCM_REP_RCVD);
	complete(&fsm_blk.release);
	fake_settle();
	KUNIT_EXPECT_EQ(test, a->state, PDCM_REP_RCVD);
}

/*
 * A REP's timeout that waits behind a sleeping handler while the id moves
 * on (COMM_EST, then a DREQ) is stale: it used to be applied to the DREQ,
 * TIMEWAIT and a DREQ_ERROR with the DREQ still out.
 */
static void fsm_stale_send_error(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_handle *rep;
	struct pdcm_id *id;
	struct pdcm_msg m;
	unsigned int i;

	fsm_listen(f);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	rep = fake_last_handle(f);
	fsm_blk_init(id, NULL);
	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 22;
	fake_inject(f, &m);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&fsm_blk.entered,
							    5 * HZ));
	/* the REP runs out of retries while MRA_RECEIVED's handler sleeps */
	KUNIT_ASSERT_TRUE(test, fake_complete(rep, IB_WC_RESP_TIMEOUT_ERR));
	KUNIT_ASSERT_EQ(test, pdcm_notify(id, IB_EVENT_COMM_EST), 0);
	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);
	complete(&fsm_blk.release);
	fake_settle();
	KUNIT_EXPECT_EQ(test, id->state, PDCM_DREQ_SENT);
	KUNIT_EXPECT_FALSE(test, fake_last_handle(f)->done);	/* DREQ out */
	for (i = 0; i < fsm_rec.nev; i++) {
		KUNIT_EXPECT_NE(test, fsm_ev(i)->type, PDCM_DREQ_ERROR);
		KUNIT_EXPECT_NE(test, fsm_ev(i)->type, PDCM_REP_ERROR);
	}
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_USER_ESTABLISHED);
}

/*
 * A handler may destroy another id, even one with events queued: those
 * are dropped unrun, and nothing waits on itself.
 */
static void fsm_handler_destroys_other_id(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a = fsm_active_req(f);
	struct pdcm_id *b = fsm_active_req(f);
	struct pdcm_msg m;
	unsigned int i;

	/* b's MRA is queued behind a's REP, whose handler destroys b */
	fsm_blk_init(a, b);
	fsm_mk_rep(f, &m, a, f->peer_comm, 0xc0ffee);
	fake_inject(f, &m);
	fsm_mk(&m, PDCM_ATTR_MRA, b, f->peer_comm + 1);
	m.mra.service_timeout = 10;
	fake_inject(f, &m);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&fsm_blk.entered,
							    5 * HZ));
	complete(&fsm_blk.release);
	fake_settle();
	for (i = 0; i < fsm_rec.nev; i++)
		KUNIT_EXPECT_PTR_NE(test, fsm_ev(i)->id, b);
	/* b went as an unanswered REQ goes: REJ TIMEOUT */
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rej.reason, PDCM_REJ_TIMEOUT);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_REP_RCVD);
}

/*
 * At most PDCM_CONN_MAX_PENDING received messages wait on one conn; the
 * next is dropped and counted.  The conn's handler blocks, so its queue
 * cannot drain while the peer floods it.
 */
static void fsm_conn_queue_bounded(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_req(f);
	struct pdcm_msg m;
	unsigned int i;
	long dropped;

	fsm_blk_init(id, NULL);
	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.service_timeout = 10;
	fake_inject(f, &m);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&fsm_blk.entered,
							    5 * HZ));
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	for (i = 0; i < PDCM_CONN_MAX_PENDING + 3; i++)
		fake_inject(f, &m);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 3);
	complete(&fsm_blk.release);
	fake_settle();
	/*
	 * the first MRA reached the handler, the 16 queued ones were handled
	 * too: duplicates, which extend nothing (issue 12 defect 14)
	 */
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 1U);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_MRA),
			PDCM_CONN_MAX_PENDING);
}

/*
 * What a timeout or COMM_EST needs is in the conn: with every work item
 * of the CM in use (a flood of queued MADs), the REQ's timeout still
 * reaches the ULP and pdcm_notify() still succeeds.
 */
/* The CM's whole budget of received work items. */
static unsigned int fsm_max_work(void)
{
	return pdcm_max_pending_reqs + PDCM_PENDING_ANSWERS;
}

static void fsm_timeout_needs_no_allocation(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a, *p;
	struct pdcm_msg m;
	unsigned int nev;
	long dropped;

	fsm_listen(f);
	p = fsm_passive_rep(f, f->peer_comm + 1, 0x112233);
	a = fsm_active_req(f);		/* the newest retried send */
	nev = fsm_rec.nev;
	atomic_add(fsm_max_work(), &pdcm_pending_work);
	/* a received message is dropped now ... */
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fsm_mk(&m, PDCM_ATTR_RTU, p, f->peer_comm + 1);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 1);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_REP_SENT);
	/* ... but not the timeout of a's REQ, nor p's COMM_EST */
	KUNIT_EXPECT_TRUE(test, fake_time_out(f));
	KUNIT_EXPECT_EQ(test, pdcm_notify(p, IB_EVENT_COMM_EST), 0);
	fake_settle();
	atomic_sub(fsm_max_work(), &pdcm_pending_work);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_ESTABLISHED);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, nev + 2);
	KUNIT_EXPECT_EQ(test, fsm_ev(nev)->type, PDCM_REQ_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, fsm_ev(nev)->id, a);
	KUNIT_EXPECT_EQ(test, fsm_ev(nev + 1)->type, PDCM_USER_ESTABLISHED);
	KUNIT_EXPECT_PTR_EQ(test, fsm_ev(nev + 1)->id, p);
}

/*
 * New REQs have a budget of their own within the CM's work items: with
 * max_pending_reqs of them queued (a REQ storm), the next new REQ is
 * dropped and counted, while the RTU of a conn already in REP_SENT still
 * gets its item and establishes it.  (With one budget for all, a storm
 * took every item, the answers to existing conns were dropped with the
 * storm, and their retries fed it: 50,000 connections opened at once over
 * rxe loopback collapsed to about 250/s.)
 */
static void fsm_new_reqs_capped(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int nev;
	struct pdcm_msg m;
	struct pdcm_id *p;
	long dropped;

	fsm_listen(f);
	p = fsm_passive_rep(f, f->peer_comm + 1, 0x112233);
	nev = fsm_rec.nev;
	/* the budget of new REQs in use: so many REQ items queued */
	atomic_add(pdcm_max_pending_reqs, &pdcm_pending_reqs);
	atomic_add(pdcm_max_pending_reqs, &pdcm_pending_work);
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fsm_mk_req(f, &m, f->peer_comm + 2, 0x445566);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 1);
	fsm_mk(&m, PDCM_ATTR_RTU, p, f->peer_comm + 1);
	fake_rx(f, &m);
	fake_settle();
	atomic_sub(pdcm_max_pending_reqs, &pdcm_pending_reqs);
	atomic_sub(pdcm_max_pending_reqs, &pdcm_pending_work);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 1);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_ESTABLISHED);
	/* one event: p's RTU; no REQ_RECEIVED for the dropped REQ */
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, nev + 1);
	KUNIT_EXPECT_EQ(test, fsm_ev(nev)->type, PDCM_RTU_RECEIVED);
	/* with the budget back, the peer's retry of that REQ is delivered */
	fsm_mk_req(f, &m, f->peer_comm + 2, 0x445566);
	fake_rx(f, &m);
	fake_settle();
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, nev + 2);
	KUNIT_EXPECT_EQ(test, fsm_ev(nev + 1)->type, PDCM_REQ_RECEIVED);
}

/* ---- the sender's comm ID ---------------------------------------------- */

/*
 * A message must name both comm IDs of its connection: one with the right
 * local ID (ours) and the wrong sender ID is dropped and counted.  A DREQ
 * among them names no connection of ours, so, as ib_cm, it is answered
 * as one for an unknown comm ID: a DREP with the IDs swapped (it was
 * dropped unanswered).
 */
static void fsm_sender_comm_id_checked(struct kunit *test)
{
	struct fake *f = FAKE(test);
	u32 peer = f->peer_comm, wrong = f->peer_comm + 7;
	static const u16 forged[] = {
		PDCM_ATTR_REJ, PDCM_ATTR_DREQ, PDCM_ATTR_RTU, PDCM_ATTR_DREP,
	};
	struct pdcm_id *p, *a;
	struct fake_sent *s;
	struct pdcm_msg m;
	unsigned int i, nev, nsent;
	long dropped;

	fsm_listen(f);
	p = fsm_passive_est(f, peer, 0x112233);
	nev = fsm_rec.nev;
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	for (i = 0; i < ARRAY_SIZE(forged); i++) {
		fsm_mk(&m, forged[i], p, wrong);
		if (forged[i] == PDCM_ATTR_REJ)
			m.rej.msg_rejected = PDCM_MSG_RESPONSE_OTHER;
		nsent = f->nsent;
		fake_rx(f, &m);
		fake_settle();
		KUNIT_EXPECT_EQ(test, p->state, PDCM_ESTABLISHED);
		if (forged[i] != PDCM_ATTR_DREQ) {
			KUNIT_EXPECT_EQ(test, f->nsent, nsent);
			continue;
		}
		KUNIT_ASSERT_EQ(test, f->nsent, nsent + 1);
		s = fake_last(f);
		KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_DREP);
		KUNIT_EXPECT_TRUE(test, s->reply);
		KUNIT_EXPECT_EQ(test, s->msg.drep.local_comm_id,
				m.dreq.remote_comm_id);
		KUNIT_EXPECT_EQ(test, s->msg.drep.remote_comm_id, wrong);
		KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	}
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + ARRAY_SIZE(forged));

	/* active: the first REP teaches the peer's ID; a REP from another
	 * comm ID is neither a new REP nor a duplicate (no RTU again)
	 */
	a = fsm_active_est(f, peer + 1);
	i = f->nsent;
	fsm_mk_rep(f, &m, a, wrong, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, f->nsent, i);
	fsm_mk_rep(f, &m, a, peer + 1, 0xc0ffee ^ 1);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, f->nsent, i + 1);		/* the RTU again */
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_RTU);

	/* the right IDs still work */
	fsm_mk(&m, PDCM_ATTR_DREQ, p, peer);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_DREQ_RCVD);
}

/*
 * Local comm IDs are not guessable from one another: with a cyclic index
 * XOR a constant, consecutive IDs differ in a handful of low-bit
 * patterns; through the keyed permutation nearly every difference is
 * new.  None is 0.
 */
static void fsm_local_ids_unguessable(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *ids[129];
	unsigned int i, j, distinct = 0;
	u32 diff[128];

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		ids[i] = pdcm_create_id(f->ibdev, fsm_handler, f);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ids[i]));
		KUNIT_EXPECT_NE(test, be32_to_cpu(ids[i]->local_id), 0U);
	}
	for (i = 0; i < ARRAY_SIZE(diff); i++) {
		diff[i] = be32_to_cpu(ids[i]->local_id ^ ids[i + 1]->local_id);
		for (j = 0; j < i && diff[j] != diff[i]; j++)
			;
		distinct += j == i;
	}
	for (i = 0; i < ARRAY_SIZE(ids); i++)
		pdcm_destroy_id(ids[i]);
	KUNIT_EXPECT_GT(test, distinct, 120U);
}

/* ---- a message that cannot be posted changes nothing ------------------ */

static void fsm_send_fails_state_kept(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *p, *a, *e;
	struct pdcm_msg m;

	fsm_listen(f);
	p = fsm_passive_req(f, f->peer_comm, 0x112233);
	a = fsm_active_rep(f, f->peer_comm + 1);
	e = fsm_passive_est(f, f->peer_comm + 2, 0x112234);
	f->send_err = -EIO;
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(p, &fsm_rep), -EIO);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(p, 10, NULL, 0), -EIO);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, pdcm_send_rej(p, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), -EIO);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_REQ_RCVD);
	KUNIT_EXPECT_EQ(test, pdcm_send_rtu(a, NULL, 0), -EIO);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_REP_RCVD);
	/* as ib_cm: a DREQ that cannot go still ends the connection */
	KUNIT_EXPECT_EQ(test, pdcm_send_dreq(e, NULL, 0), -EIO);
	KUNIT_EXPECT_EQ(test, e->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_NULL(test, to_conn(e)->msg);
	f->send_err = 0;
	/* and each one works once the transport does */
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(p, &fsm_rep), 0);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_REP_SENT);
	KUNIT_EXPECT_EQ(test, pdcm_send_rtu(a, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, a->state, PDCM_ESTABLISHED);
	fsm_expect_timewait_exit(test, e);
	fsm_mk(&m, PDCM_ATTR_RTU, p, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, p->state, PDCM_ESTABLISHED);
}

/* pdcm_init_qp_attr() follows the state and the negotiated values. */
static void fsm_init_qp_attr(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	struct pdcm_id *id;
	int mask;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	/* as ib_cm: RTS before the REP; we send from the REQ's PSN */
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.sq_psn, 0x123456U);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.dest_qp_num, 0x112233U);
	KUNIT_EXPECT_EQ(test, a.path_mtu, IB_MTU_1024);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_DEST_QPN);
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	/* we receive from the PSN our REP carried */
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.rq_psn, 0x0a0b0cU);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.sq_psn, 0x123456U);
	KUNIT_EXPECT_EQ(test, a.max_rd_atomic, 2);
	/* the REQ's RNR retry count (5), not the REP's (7): issue 34 #4 */
	KUNIT_EXPECT_EQ(test, a.rnr_retry, 5);
	a.qp_state = IB_QPS_INIT;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.port_num, 1U);
	a.qp_state = IB_QPS_SQD;
	KUNIT_EXPECT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), -EINVAL);
}

/*
 * The passive QP's address is the REQ's primary path, not the packet's
 * (issue 34 #1): the traffic class, flow label, SL and rate the active
 * side asked for.  The REQ arrives with a GRH whose traffic class is 0
 * (rxe's, over IPv4) and another flow label and SL: pdcm used to hand
 * those to the QP (ib_init_ah_attr_from_wc()), and a target's RoCE
 * traffic went out with DSCP 0.
 */
static void fsm_req_qp_address_from_path(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	struct pdcm_msg m;
	struct fsm_ev *e;
	int mask;

	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.primary_path.traffic_class = 0x68;
	m.req.primary_path.flow_label = 0x12345;
	m.req.primary_path.sl = 3;
	m.req.primary_path.packet_rate = IB_RATE_25_GBPS;
	fsm_rx_grh(f, &m, 0, 0);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	/* the ULP's path: the REQ's, the hop limit the reply's */
	KUNIT_EXPECT_EQ(test, e->path.traffic_class, 0x68);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(e->path.flow_label), 0x12345U);
	KUNIT_EXPECT_EQ(test, e->path.hop_limit, 0xff);
	KUNIT_EXPECT_EQ(test, e->path.rec_type, SA_PATH_REC_TYPE_ROCE_V2);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->path.service_id), fsm_rec.sid);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_AV);
	KUNIT_EXPECT_TRUE(test, a.ah_attr.ah_flags & IB_AH_GRH);
	KUNIT_EXPECT_EQ(test, a.ah_attr.grh.traffic_class, 0x68);
	KUNIT_EXPECT_EQ(test, a.ah_attr.grh.flow_label, 0x12345U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&a.ah_attr), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&a.ah_attr),
			IB_RATE_25_GBPS);
	KUNIT_EXPECT_EQ(test, memcmp(&a.ah_attr.grh.dgid,
				     &m.req.primary_path.local_gid, 16), 0);
}

/*
 * A REQ's Local ACK Timeout of 0 would give our QP an infinite ACK
 * timeout: at least 1, as ib_cm (issue 34 #2).
 */
static void fsm_req_ack_timeout_floor(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	struct fsm_ev *e;
	struct pdcm_msg m;
	int mask;

	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.primary_path.local_ack_timeout = 0;
	fake_rx(f, &m);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_TIMEOUT);
	KUNIT_EXPECT_EQ(test, a.timeout, 1);
}

/*
 * The caller's GID entry reaches the address (issue 34 #3): with the same
 * GID on a VLAN and its parent, a lookup by value can pick the wrong
 * netdev.  pdcm used the entry only to pick the port.  One on another
 * port is refused.
 */
static void fsm_req_sgid_attr(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_gid_attr gid = { .device = f->ibdev, .port_num = 1 };
	struct pdcm_id *id = fsm_id(f);
	struct pdcm_req_param p;

	fsm_req_param(f, &p);
	p.sgid_attr = &gid;
	gid.port_num = 2;
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EINVAL);
	KUNIT_EXPECT_EQ(test, f->npath_av, 0U);
	gid.port_num = 1;
	KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
	KUNIT_EXPECT_PTR_EQ(test, f->path_sgid_attr,
			    (const struct ib_gid_attr *)&gid);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REQ), 1U);
}

/*
 * INIT grants remote FLUSH where the device supports it, as ib_cm since
 * 6.2 (issue 34 #5): ibv_wr_flush() users got remote access errors.
 */
static void fsm_init_qp_flush(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	struct pdcm_id *id;
	int mask;

	const int rw = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
		       IB_ACCESS_REMOTE_ATOMIC;

	fsm_listen(f);
	id = fsm_passive_req(f, f->peer_comm, 0x112233);
	a.qp_state = IB_QPS_INIT;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.qp_access_flags, rw);
	/* (before 6.2 there is no FLUSH: PDCM_*_FLUSH are 0, nothing more) */
	f->ibdev->attrs.device_cap_flags |= PDCM_DEVICE_FLUSH;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	f->ibdev->attrs.device_cap_flags &= ~PDCM_DEVICE_FLUSH;
	KUNIT_EXPECT_EQ(test, a.qp_access_flags, rw | PDCM_ACCESS_FLUSH);
}

/*
 * A connect racing device removal (issue 34 #6): the agent goes while the
 * address is built.  The address must not be left on the conn -- its
 * GID-table reference would outlive the release of every conn's address
 * (pdcm_conns_release_avs()); pdcm wrote it without the conn's lock and
 * without looking.
 */
static void fsm_connect_racing_removal(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_mad_agent *agent = f->port->agent;
	struct pdcm_id *id = fsm_id(f);
	struct pdcm_req_param p;

	fsm_req_param(f, &p);
	f->remove_in_av = true;
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -ENODEV);
	f->remove_in_av = false;
	f->port->agent = agent;
	KUNIT_EXPECT_FALSE(test, to_conn(id)->ah_valid);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REQ), 0U);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
}

/* Make the fake port an InfiniBand one for the rest of the case. */
static void fsm_port_ib(struct fake *f)
{
	f->ibdev->port_data[1].immutable.core_cap_flags =
		RDMA_CORE_CAP_PROT_IB | RDMA_CORE_CAP_IB_MAD |
		RDMA_CORE_CAP_IB_CM;
}

/* @m arrives over InfiniBand without a GRH, from LID @slid with SL @sl. */
static void fsm_rx_ib(struct fake *f, const struct pdcm_msg *m, u16 slid,
		      u8 sl)
{
	struct pdcm_rx rx = { .port = f->port };

	rx.wc.slid = slid;
	rx.wc.sl = sl;
	f->port->up->rx(&rx, m);
	fake_settle();
}

/*
 * A routed REQ on InfiniBand (issue 34 #8): its path not subnet local, the
 * sender named by the permissive LID.  As ib_cm: the sender is the
 * packet's source LID, with the packet's SL; MADs go to that LID.  With
 * the REQ's own LID given, the QP sends to it while MADs still go to the
 * packet's source (the router).  pdcm passed the permissive LIDs on.
 */
static void fsm_routed_ib_req(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	struct pdcm_msg m;
	struct fsm_ev *e;
	int mask;

	fsm_port_ib(f);
	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.primary_path.subnet_local = 0;
	m.req.primary_path.local_lid = 0xffff;
	m.req.primary_path.remote_lid = 0xffff;
	m.req.primary_path.sl = 0;
	m.req.primary_path.hop_limit = 0;
	fsm_rx_ib(f, &m, 0x21, 4);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->path.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&e->path)), 0x21U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&e->path)), 0U);
	KUNIT_EXPECT_EQ(test, e->path.sl, 4);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.ah_attr.type, RDMA_AH_ATTR_TYPE_IB);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.ah_attr), 0x21U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&a.ah_attr), 4);

	/* a routed REQ that names its sender's LID: the QP goes there */
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112234);
	m.req.primary_path.subnet_local = 0;
	m.req.primary_path.local_lid = 0x55;
	m.req.primary_path.remote_lid = 0x7;
	m.req.primary_path.sl = 2;
	m.req.primary_path.hop_limit = 0;
	fsm_rx_ib(f, &m, 0x21, 4);
	e = fsm_last_ev();
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&e->path)), 0x21U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&e->path)), 0x7U);
	KUNIT_EXPECT_EQ(test, e->path.sl, 2);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&to_conn(e->id)->ah_attr), 0x21U);
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.ah_attr), 0x55U);
}

/*
 * ECE (issue 34 #12): the options a ULP gives go out in REQ, REP and
 * SIDR_REP -- the vendor ID in the message, the options in the MAD
 * header's attribute modifier, as ib_cm puts them -- and the peer's reach
 * the ULP with the REQ and REP events.  pdcm sent zeros and delivered
 * none.  A vendor ID wider than its field is refused.
 */
static void fsm_ece(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_rep_param rp = fsm_rep;
	struct pdcm_req_param p;
	struct fake_sent *s;
	struct pdcm_id *id;
	struct pdcm_msg m;
	struct fsm_ev *e;

	/* active: sent in the REQ, the peer's from its REP */
	id = fsm_id(f);
	fsm_req_param(f, &p);
	p.ece.vendor_id = 0x1000000;
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EINVAL);
	p.ece.vendor_id = 0x02c9ab;
	p.ece.attr_mod = 0x81234567;
	KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test, s->msg.req.vendor_id, 0x02c9abU);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.attr_mod, 0x81234567U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(s->mad + 20), 0x81234567U);
	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	m.rep.vendor_id = 0x00a0b1;
	m.hdr.attr_mod = 0x5;
	fake_rx(f, &m);
	e = fsm_last_ev();
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rep_rcvd.ece.vendor_id, 0x00a0b1U);
	KUNIT_EXPECT_EQ(test, e->ev.param.rep_rcvd.ece.attr_mod, 5U);

	/* passive: the peer's from its REQ, ours in the REP */
	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm + 1, 0x112233);
	m.req.vendor_id = 0x123456;
	m.hdr.attr_mod = 0xfedcba98;
	fake_rx(f, &m);
	e = fsm_last_ev();
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.req_rcvd.ece.vendor_id, 0x123456U);
	KUNIT_EXPECT_EQ(test, e->ev.param.req_rcvd.ece.attr_mod, 0xfedcba98U);
	rp.ece.vendor_id = 0x1000000;
	KUNIT_EXPECT_EQ(test, pdcm_send_rep(e->id, &rp), -EINVAL);
	rp.ece.vendor_id = 0x654321;
	rp.ece.attr_mod = 7;
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(e->id, &rp), 0);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REP);
	KUNIT_EXPECT_EQ(test, s->msg.rep.vendor_id, 0x654321U);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.attr_mod, 7U);
}

#define FSM_RESPONDER	(IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER)
#define FSM_REQUESTER	(IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_MAX_QP_RD_ATOMIC)

/* The RTR and RTS masks of @id's QP: @rtr_has and @rts_has, nothing more. */
static void fsm_expect_masks(struct kunit *test, struct pdcm_id *id,
			     int rtr_has, int rts_has)
{
	struct ib_qp_attr a = {};
	int mask;

	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask & (FSM_RESPONDER | FSM_REQUESTER), rtr_has);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask & ~(IB_QP_STATE | IB_QP_SQ_PSN), rts_has);
}

/* A listen, and an XRC REQ to it: the XRC target id its handler got. */
static struct pdcm_id *fsm_xrc_target(struct fake *f)
{
	struct pdcm_msg m;
	struct fsm_ev *e;

	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.transport_type = PDCM_TRANSPORT_EXT;
	m.req.ext_transport_type = PDCM_EXT_TRANSPORT_XRC;
	fake_rx(f, &m);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(f->test, e);
	KUNIT_ASSERT_EQ(f->test, e->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_EQ(f->test, e->ev.param.req_rcvd.qp_type, IB_QPT_XRC_TGT);
	return e->id;
}

/*
 * XRC (issue 12 defect 11): an XRC target is the receiving half of an RC
 * QP (responder attributes at RTR, only the ACK timeout at RTS), an XRC
 * initiator the sending half; an established XRC target leaves without
 * a DREQ, as ib_cm's does.  A UC QP gets none of them.
 */
static void fsm_xrc_qp_attr(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_req_param p;
	struct pdcm_id *id, *tgt;
	struct pdcm_msg m;

	tgt = fsm_xrc_target(f);
	fsm_expect_masks(test, tgt, FSM_RESPONDER, IB_QP_TIMEOUT);

	id = fsm_id(f);
	fsm_req_param(f, &p);
	p.qp_type = IB_QPT_XRC_INI;
	KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
	fsm_mk_rep(f, &m, id, f->peer_comm + 1, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_REP_RCVD);
	fsm_expect_masks(test, id, 0, IB_QP_TIMEOUT | FSM_REQUESTER);

	/* the target, established, destroyed: no DREQ */
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(tgt, &fsm_rep), 0);
	fsm_mk(&m, PDCM_ATTR_RTU, tgt, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, tgt->state, PDCM_ESTABLISHED);
	fsm_destroy(f, tgt);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_DREQ), 0U);
}

/*
 * XRC on the wire (IBA A14, and ib_cm): an XRC target's REP carries its
 * QPN in Local EECN, with SRQ set and Local QPN zero, and an XRC
 * initiator takes the peer's QPN from there; an XRC initiator's REQ
 * leaves the responder fields reserved.  pdcm used Local QPN both ways:
 * an ib_cm initiator saw QPN 0, and pdcm's initiator connected its QP to
 * QPN 0 of an ib_cm target.
 */
static void fsm_xrc_rep_qpn_in_eecn(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_req_param p;
	struct pdcm_id *id, *tgt;
	struct ib_qp_attr a;
	struct pdcm_msg m;
	struct fsm_ev *e;
	int mask;

	tgt = fsm_xrc_target(f);
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(tgt, &fsm_rep), 0);
	KUNIT_ASSERT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REP);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rep.local_eecn, fsm_rep.qp_num);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rep.local_qpn, 0U);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.rep.srq, 1);

	id = fsm_id(f);
	fsm_req_param(f, &p);
	p.qp_type = IB_QPT_XRC_INI;
	p.responder_resources = 3;
	p.srq = 1;
	KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
	KUNIT_ASSERT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.req.responder_resources, 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.req.srq, 0);
	KUNIT_EXPECT_EQ(test, fake_last(f)->msg.req.local_qpn, p.qp_num);
	fsm_mk_rep(f, &m, id, f->peer_comm + 1, 0);
	m.rep.local_eecn = 0xc0ffee;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_REP_RCVD);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REP_RECEIVED);
	KUNIT_EXPECT_EQ(test, e->ev.param.rep_rcvd.remote_qpn, 0xc0ffeeU);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.dest_qp_num, 0xc0ffeeU);
}

/*
 * The ACK timeout counts the ACKing CA's delay, as ib_cm's does: our
 * CA's in the REQ's Local ACK Timeout, the peer's (the REP's Target ACK
 * Delay, capped) in the active QP's timeout.  pdcm used packet lifetime
 * + 1 for both, and an ib_cm peer sets its QP from the REQ's figure.
 */
static void fsm_ack_timeout_adds_ca_delay(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_req_param p;
	struct ib_qp_attr a;
	struct pdcm_id *id;
	struct pdcm_msg m;
	unsigned int rtt, d, t;
	int mask;

	/* the function itself: between the larger exponent and one more */
	for (rtt = 1; rtt <= 32; rtt++) {
		for (d = 0; d <= 31; d++) {
			t = pdcm_ack_timeout(d, rtt - 1);
			if (max(rtt, d) >= 31) {
				KUNIT_EXPECT_EQ(test, t, 31U);
				continue;
			}
			KUNIT_EXPECT_EQ(test, t, max(rtt, d) +
					(abs((int)rtt - (int)d) <= 1));
		}
	}

	f->ibdev->attrs.local_ca_ack_delay = 15;
	f->path.packet_life_time = 14;		/* round trip 2^15 */
	id = fsm_id(f);
	fsm_req_param(f, &p);
	KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
	KUNIT_ASSERT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_REQ);
	KUNIT_EXPECT_EQ(test,
			fake_last(f)->msg.req.primary_path.local_ack_timeout, 16);

	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	m.rep.target_ack_delay = 18;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_REP_RCVD);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_ASSERT_TRUE(test, mask & IB_QP_TIMEOUT);
	KUNIT_EXPECT_EQ(test, a.timeout, 18);
	KUNIT_ASSERT_EQ(test, pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED,
					    NULL, 0, NULL, 0), 0);

	/* a peer's delay past 20 (4.3 s) counts as 20 */
	id = fsm_id(f);
	KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
	fsm_mk_rep(f, &m, id, f->peer_comm + 1, 0xc0ffef);
	m.rep.target_ack_delay = 31;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_REP_RCVD);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, a.timeout, 20);
}

/* A UC QP: no RC attributes at all. */
static void fsm_uc_qp_attr(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_msg m;
	struct fsm_ev *e;

	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.transport_type = PDCM_TRANSPORT_UC;
	fake_rx(f, &m);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	fsm_expect_masks(test, e->id, 0, 0);
}

/* ---- TIMEWAIT's delay ----------------------------------------------- */

/*
 * Microseconds from @t0 to @id's TIMEWAIT_EXIT, as its handler saw it
 * (polled for up to @max_ms); -1 if it never came.  The timer is armed
 * after @t0, so a correct delay can only make this larger.
 */
static s64 fsm_timewait_exit_us(struct fake *f, struct pdcm_id *id,
				ktime_t t0, unsigned int max_ms)
{
	unsigned int i, waited;

	for (waited = 0; waited <= max_ms; waited += 20) {
		fake_settle();
		for (i = 0; i < fsm_rec.nev; i++)
			if (fsm_rec.ev[i].id == id &&
			    fsm_rec.ev[i].type == PDCM_TIMEWAIT_EXIT)
				return ktime_us_delta(fsm_rec.ev[i].t, t0);
		msleep(20);
	}
	return -1;
}

/*
 * TIMEWAIT lasts one local ACK timeout, packet lifetime + 1 (as ib_cm):
 * with a packet lifetime of 17 that is ms(18) = 1024 ms, and the exit
 * comes neither before it nor as late as four times it (FSM_LATE).
 */
static void fsm_timewait_delay(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int ms = pdcm_timeout_ms(18);
	struct pdcm_id *id;
	struct pdcm_msg m;
	ktime_t t0;
	s64 took;

	KUNIT_ASSERT_EQ(test, ms, 1024U);
	f->path.packet_life_time = 17;
	id = fsm_active_est(f, f->peer_comm);
	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);
	fsm_mk(&m, PDCM_ATTR_DREP, id, f->peer_comm);
	t0 = ktime_get();
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	took = fsm_timewait_exit_us(f, id, t0, 10 * ms);
	kunit_info(test, "TIMEWAIT of ms(18) = %u ms took %lld us\n", ms, took);
	KUNIT_EXPECT_GE(test, took, 1000 * (s64)ms - FSM_EARLY_US);
	KUNIT_EXPECT_LT(test, took, FSM_LATE(1000 * ms));
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
}

/* A short local ACK timeout still waits 100 ms (ms(1) is 1 ms). */
static void fsm_timewait_floor(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id;
	struct pdcm_msg m;
	ktime_t t0;
	s64 took;

	KUNIT_ASSERT_LT(test, pdcm_timeout_ms(1), 100U);
	f->path.packet_life_time = 0;	/* local ACK timeout 1 */
	id = fsm_active_est(f, f->peer_comm);
	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);
	fsm_mk(&m, PDCM_ATTR_DREP, id, f->peer_comm);
	t0 = ktime_get();
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	took = fsm_timewait_exit_us(f, id, t0, 5000);
	kunit_info(test, "TIMEWAIT of max(ms(1), 100 ms) took %lld us\n", took);
	KUNIT_EXPECT_GE(test, took, 100000 - FSM_EARLY_US);
	KUNIT_EXPECT_LT(test, took, 1000000LL);
}

/*
 * Entering TIMEWAIT again while its timer is pending re-arms the one
 * timer from now and keeps one reference for it: one TIMEWAIT_EXIT, a
 * full delay after the second entry, and the timer's one reference
 * dropped once it has run.  No transition of the table re-enters
 * TIMEWAIT; this drives the branch directly.
 */
static void fsm_timewait_rearm(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_conn *conn;
	unsigned int refs, i, exits = 0;
	struct pdcm_id *id;
	struct pdcm_msg m;
	bool pending;
	ktime_t t1;
	s64 took;

	f->path.packet_life_time = 17;	/* ms(18) = 1024 ms */
	id = fsm_active_est(f, f->peer_comm);
	conn = to_conn(id);
	KUNIT_ASSERT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);
	fsm_mk(&m, PDCM_ATTR_DREP, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	fake_settle();
	refs = refcount_read(&conn->refs);	/* the timer's one among them */
	msleep(300);
	spin_lock_irq(&conn->lock);
	pending = id->state == PDCM_TIMEWAIT &&
		  delayed_work_pending(&conn->timewait_work);
	t1 = ktime_get();
	if (pending)
		pdcm_enter_timewait(conn);
	spin_unlock_irq(&conn->lock);
	KUNIT_ASSERT_TRUE(test, pending);
	KUNIT_EXPECT_EQ(test, refcount_read(&conn->refs), refs);
	took = fsm_timewait_exit_us(f, id, t1, 10240);
	kunit_info(test, "re-armed TIMEWAIT ended %lld us after the second entry\n",
		   took);
	KUNIT_EXPECT_GE(test, took, 1024000 - FSM_EARLY_US);
	KUNIT_EXPECT_LT(test, took, FSM_LATE(1024000));
	msleep(300);
	fake_settle();
	for (i = 0; i < fsm_rec.nev; i++)
		exits += fsm_rec.ev[i].id == id &&
			 fsm_rec.ev[i].type == PDCM_TIMEWAIT_EXIT;
	KUNIT_EXPECT_EQ(test, exits, 1U);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, refcount_read(&conn->refs), refs - 1);
}

/* The passive side takes the local ACK timeout from the peer's REQ. */
static void fsm_timewait_delay_passive(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int ms = pdcm_timeout_ms(18);
	struct pdcm_id *id;
	struct pdcm_msg m;
	ktime_t t0;
	s64 took;

	fsm_listen(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	m.req.primary_path.local_ack_timeout = 18;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, 1U);
	id = fsm_last_ev()->id;
	KUNIT_ASSERT_EQ(test, pdcm_send_rep(id, &fsm_rep), 0);
	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	fake_rx(f, &m);
	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_DREQ_RCVD);
	t0 = ktime_get();
	KUNIT_ASSERT_EQ(test, pdcm_send_drep(id, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	took = fsm_timewait_exit_us(f, id, t0, 10 * ms);
	kunit_info(test, "passive TIMEWAIT of ms(18) took %lld us\n", took);
	KUNIT_EXPECT_GE(test, took, 1000 * (s64)ms - FSM_EARLY_US);
	KUNIT_EXPECT_LT(test, took, FSM_LATE(1000 * ms));
}

/* ---- failures and late messages ------------------------------------ */

/*
 * No address vector for the peer: the REQ and the SIDR_REQ get no
 * answer (the peer retries), no event, nothing kept; the backlog slot
 * (of 1) is free again, so the retransmission, once the AV can be made,
 * is delivered.
 */
static void fsm_peer_av_fails(struct kunit *test)
{
	struct fake *f = FAKE(test);
	int live;
	struct pdcm_msg m;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	live = pdcm_conns_live();
	f->peer_av_err = -ENOMEM;
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, f->npeer_av, 1U);
	fsm_mk_sidr_req(f, &m, 0x4321);
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, f->npeer_av, 2U);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	KUNIT_EXPECT_EQ(test, pdcm_conns_live(), live);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped),
			0);

	f->peer_av_err = 0;
	fsm_passive_req(f, f->peer_comm, 0x112233);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(fsm_last_ev()->id->remote_id),
			f->peer_comm);
}

/* The peer's REJ for our REP: REJ_RECEIVED, IDLE, the REP off the wire. */
static void fsm_expect_rej_of_rep(struct kunit *test, struct fake *f,
				  struct pdcm_id *id, u32 comm)
{
	struct fake_handle *h = fake_last_handle(f);
	unsigned int nsent = f->nsent;
	struct pdcm_msg m;

	fsm_mk(&m, PDCM_ATTR_REJ, id, comm);
	m.rej.reason = PDCM_REJ_CONSUMER_DEFINED;
	m.rej.msg_rejected = PDCM_MSG_RESPONSE_REP;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REJ_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, fsm_last_ev()->id, id);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->ev.param.rej_rcvd.reason,
			PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_TRUE(test, h->done);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);	/* a REJ is not answered */
}

/*
 * A REJ after our REP, in REP_SENT and in MRA_REP_RCVD: the connection
 * ends (REJ_RECEIVED, IDLE, the REP cancelled, nothing answered).  The
 * connection held the backlog slot (of 1) until then (it is released at
 * the RTU: fsm_rep_sent_holds_slot); the REJ gives it back, so each next
 * REQ is delivered, none dropped.
 */
static void fsm_rej_rcvd_after_our_rep(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a, *b;
	struct pdcm_msg m;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	a = fsm_passive_rep(f, f->peer_comm, 0x112233);
	fsm_expect_rej_of_rep(test, f, a, f->peer_comm);
	b = fsm_passive_req(f, f->peer_comm + 1, 0x112234);

	KUNIT_ASSERT_EQ(test, pdcm_send_rep(b, &fsm_rep), 0);
	fsm_mk(&m, PDCM_ATTR_MRA, b, f->peer_comm + 1);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 12;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, b->state, PDCM_MRA_REP_RCVD);
	fsm_expect_rej_of_rep(test, f, b, f->peer_comm + 1);
	fsm_passive_req(f, f->peer_comm + 2, 0x112235);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.backlog_dropped),
			0);
}

/*
 * The retries run out after the peer's MRA: in MRA_REQ_RCVD the REQ's
 * (REQ_ERROR), in MRA_REP_RCVD the REP's (REP_ERROR, the slot back).
 * Nothing more goes on the wire.
 */
static void fsm_send_error_after_mra(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *a, *b;
	unsigned int nsent;
	struct pdcm_msg m;

	a = fsm_active_req(f);
	fsm_mk(&m, PDCM_ATTR_MRA, a, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REQ;
	m.mra.service_timeout = 20;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, a->state, PDCM_MRA_REQ_RCVD);
	nsent = f->nsent;
	KUNIT_ASSERT_TRUE(test, fake_time_out(f));
	KUNIT_EXPECT_EQ(test, a->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REQ_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, fsm_last_ev()->id, a);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->ev.param.send_status,
			IB_WC_RESP_TIMEOUT_ERR);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	b = fsm_passive_rep(f, f->peer_comm + 1, 0x112233);
	fsm_mk(&m, PDCM_ATTR_MRA, b, f->peer_comm + 1);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 12;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, b->state, PDCM_MRA_REP_RCVD);
	nsent = f->nsent;
	KUNIT_ASSERT_TRUE(test, fake_time_out(f));
	KUNIT_EXPECT_EQ(test, b->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_REP_ERROR);
	KUNIT_EXPECT_PTR_EQ(test, fsm_last_ev()->id, b);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
	fsm_passive_req(f, f->peer_comm + 2, 0x112234);
}

/*
 * A REJ where none is allowed (DREQ_RCVD, TIMEWAIT) changes nothing.  It
 * names both comm IDs and rejects no REQ ("other"), so it passes the
 * sender check (nothing counted as dropped) and the state table is what
 * refuses it.
 */
static void fsm_rej_wrong_state(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_est(f, f->peer_comm);
	unsigned int nev, nsent;
	struct pdcm_msg m, rej;
	long dropped;

	fsm_mk(&m, PDCM_ATTR_DREQ, id, f->peer_comm);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_DREQ_RCVD);
	fsm_mk(&rej, PDCM_ATTR_REJ, id, f->peer_comm);
	rej.rej.reason = PDCM_REJ_CONSUMER_DEFINED;
	rej.rej.msg_rejected = PDCM_MSG_RESPONSE_OTHER;
	nev = fsm_rec.nev;
	nsent = f->nsent;
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);
	fake_rx(f, &rej);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_DREQ_RCVD);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped), dropped);
	/* counted as the other handlers count a message in the wrong state */
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REJ), 1);

	KUNIT_ASSERT_EQ(test, pdcm_send_drep(id, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_TIMEWAIT);
	nsent = f->nsent;
	fake_rx(f, &rej);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_TIMEWAIT);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped), dropped);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_REJ), 2);
	/* TIMEWAIT still ends on its own */
	fsm_timewait_now(id);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_TIMEWAIT_EXIT);
}

/* ---- destroy: what each state leaves on the wire -------------------- */

/*
 * MRA_REP_RCVD: REJ CONSUMER_DEFINED with both comm IDs, naming no
 * message (the REP was answered with an MRA); the REP cancelled; the
 * backlog slot back; no event after the destroy.
 */
static void fsm_destroy_mra_rep_rcvd(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct fake_handle *h;
	struct fake_sent *s;
	struct pdcm_id *id;
	unsigned int nev;
	struct pdcm_msg m;
	u32 local;

	fsm_listen_backlog(f, fsm_rec.sid, 1, 0);
	id = fsm_passive_rep(f, f->peer_comm, 0x112233);
	h = fake_last_handle(f);
	local = be32_to_cpu(id->local_id);
	fsm_mk(&m, PDCM_ATTR_MRA, id, f->peer_comm);
	m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
	m.mra.service_timeout = 12;
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_MRA_REP_RCVD);
	fsm_mk(&m, PDCM_ATTR_RTU, id, f->peer_comm);
	nev = fsm_rec.nev;
	fsm_destroy(f, id);
	fake_settle();
	KUNIT_EXPECT_TRUE(test, h->done);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_FALSE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, local);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_OTHER);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.tx, PDCM_ATTR_REJ), 1);
	/* the late RTU of the destroyed id: no event */
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	fsm_passive_req(f, f->peer_comm + 1, 0x112234);
}

/* MRA_REP_SENT: REJ CONSUMER_DEFINED naming the REP, our comm ID. */
static void fsm_destroy_mra_rep_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_active_rep(f, f->peer_comm);
	u32 local = be32_to_cpu(id->local_id);
	struct fake_sent *s;
	unsigned int nsent;

	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, 10, NULL, 0), 0);
	KUNIT_ASSERT_EQ(test, id->state, PDCM_MRA_REP_SENT);
	KUNIT_ASSERT_EQ(test, fake_last(f)->msg.hdr.attr_id, PDCM_ATTR_MRA);
	nsent = f->nsent;
	fsm_destroy(f, id);
	fake_settle();
	KUNIT_ASSERT_EQ(test, f->nsent, nsent + 1);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_CONSUMER_DEFINED);
	KUNIT_EXPECT_EQ(test, s->msg.rej.local_comm_id, local);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.rej.msg_rejected, PDCM_MSG_RESPONSE_REP);
}

/*
 * SIDR_REQ_SENT: nothing on the wire (SIDR has no REJ), the SIDR_REQ's
 * retries cancelled, and a SIDR_REP arriving after is dropped unseen.
 */
static void fsm_destroy_sidr_req_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *id = fsm_sidr_req(f);
	struct fake_handle *h = fake_last_handle(f);
	u32 req_id = be32_to_cpu(id->local_id);
	u64 tid = to_conn(id)->tid;
	struct pdcm_msg m;

	fsm_destroy(f, id);
	fake_settle();
	KUNIT_EXPECT_TRUE(test, h->done);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REP, tid);
	m.sidr_rep.request_id = req_id;
	m.sidr_rep.status = PDCM_SIDR_SUCCESS;
	m.sidr_rep.qpn = 0x654321;
	m.sidr_rep.service_id = fsm_rec.sid;
	fake_rx(f, &m);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_EXPECT_EQ(test, f->nsent, 1U);
}

/* ---- a listen destroyed under its queued REQ ------------------------ */

struct fsm_destroyer {
	struct pdcm_id *id;
	struct completion done;
};

static int fsm_destroyer_fn(void *data)
{
	struct fsm_destroyer *d = data;

	pdcm_destroy_id(d->id);
	complete(&d->done);
	return 0;
}

/*
 * A REQ and a SIDR_REQ matched the listen and wait on pdcm_wq when the
 * listen is destroyed: the destroy waits for them, and they are answered
 * as if nothing listened (REJ INVALID_SERVICE_ID, SIDR_REP UNSUPPORTED),
 * with no event.
 */
static void fsm_listen_destroyed_under_queued_req(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_id *l = fsm_listen(f);
	struct fsm_destroyer d = { .id = l };
	struct task_struct *task;
	struct fake_sent *rej, *rep;
	struct pdcm_msg m;
	unsigned int i;

	init_completion(&d.done);
	fake_hold(f);
	fsm_mk_req(f, &m, f->peer_comm, 0x112233);
	fake_inject(f, &m);
	fsm_mk_sidr_req(f, &m, 0x5151);
	fake_inject(f, &m);
	fsm_disown(f, l);
	task = kthread_run(fsm_destroyer_fn, &d, "fsm_destroyer");
	if (IS_ERR(task)) {
		fake_release(f);
		fsm_destroy(f, l);
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(task));
		return;
	}
	for (i = 0; i < 250 && !READ_ONCE(to_conn(l)->destroyed); i++)
		msleep(20);
	msleep(50);
	/* the destroy waits for the queued REQ and SIDR_REQ */
	KUNIT_EXPECT_FALSE(test, completion_done(&d.done));
	KUNIT_EXPECT_EQ(test, f->nsent, 0U);
	fake_release(f);
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&d.done, 20 * HZ),
			0UL);
	fake_settle();
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, 0U);
	KUNIT_ASSERT_EQ(test, f->nsent, 2U);
	rej = fake_nth(f, 0);
	rep = fake_nth(f, 1);
	if (rej->msg.hdr.attr_id != PDCM_ATTR_REJ)
		swap(rej, rep);
	KUNIT_ASSERT_EQ(test, rej->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, rej->reply);
	KUNIT_EXPECT_EQ(test, rej->msg.rej.reason, PDCM_REJ_INVALID_SERVICE_ID);
	KUNIT_EXPECT_EQ(test, rej->msg.rej.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, rej->msg.rej.local_comm_id, 0U);
	KUNIT_ASSERT_EQ(test, rep->msg.hdr.attr_id, PDCM_ATTR_SIDR_REP);
	KUNIT_EXPECT_EQ(test, rep->msg.sidr_rep.request_id, 0x5151U);
	KUNIT_EXPECT_EQ(test, rep->msg.sidr_rep.status, PDCM_SIDR_UNSUPPORTED);
}

/* ---- alternate paths (issue 34 #13) --------------------------------- */

/* @p as an InfiniBand path from LID @slid to LID @dlid, no GRH. */
static void fsm_ib_path(struct fake *f, struct sa_path_rec *p, u16 slid,
			u16 dlid)
{
	*p = f->path;
	p->rec_type = SA_PATH_REC_TYPE_IB;
	sa_path_set_slid(p, slid);
	sa_path_set_dlid(p, dlid);
	p->hop_limit = 0;
}

/*
 * Our REQ over a routed InfiniBand path (hop limit > 1) names neither
 * LID: we do not know the sender's LID as the far subnet sees it, nor the
 * remote one, so both are the permissive LID and Subnet Local is 0, as
 * ib_cm sends it (the receiver takes them from the packet,
 * fsm_routed_ib_req); within the subnet the path's LIDs go out.
 */
static void fsm_routed_ib_req_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct pdcm_req_param p;
	struct fake_sent *s;
	struct pdcm_id *id;
	unsigned int hop;

	fsm_port_ib(f);
	for (hop = 0; hop <= 2; hop++) {
		fsm_ib_path(f, &f->path, 0x11, 0x22);
		f->path.hop_limit = hop;
		id = fsm_id(f);
		fsm_req_param(f, &p);
		KUNIT_ASSERT_EQ(test, pdcm_send_req(id, &p), 0);
		s = fake_last(f);
		KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REQ);
		KUNIT_EXPECT_EQ(test, s->msg.req.primary_path.hop_limit, hop);
		KUNIT_EXPECT_EQ(test, s->msg.req.primary_path.local_lid,
				hop > 1 ? 0xffff : 0x11);
		KUNIT_EXPECT_EQ(test, s->msg.req.primary_path.remote_lid,
				hop > 1 ? 0xffff : 0x22);
		KUNIT_EXPECT_EQ(test, s->msg.req.primary_path.subnet_local,
				hop <= 1);
		fsm_destroy(f, id);
	}
}

/*
 * Our InfiniBand connection from LID 0x11 to 0x22 with an alternate path
 * from 0x33 to 0x44 (SL 3, packet lifetime 8), up to REP_RCVD; the peer's
 * REP has a target ACK delay of 10.
 */
static struct pdcm_id *fsm_apm_rep(struct fake *f, struct sa_path_rec *alt)
{
	struct pdcm_req_param p;
	struct pdcm_id *id;
	struct pdcm_msg m;

	fsm_port_ib(f);
	fsm_ib_path(f, &f->path, 0x11, 0x22);
	fsm_ib_path(f, alt, 0x33, 0x44);
	alt->sgid.raw[0] ^= 0x80;	/* another port's GID */
	alt->dgid.raw[0] ^= 0x80;
	alt->sl = 3;
	alt->rate = IB_RATE_40_GBPS;
	alt->flow_label = cpu_to_be32(0x12345);
	alt->traffic_class = 0x20;
	alt->packet_life_time = 8;
	id = fsm_id(f);
	fsm_req_param(f, &p);
	p.alternate_path = alt;
	KUNIT_ASSERT_EQ(f->test, pdcm_send_req(id, &p), 0);
	fsm_mk_rep(f, &m, id, f->peer_comm, 0xc0ffee);
	fake_rx(f, &m);
	KUNIT_ASSERT_EQ(f->test, id->state, PDCM_REP_RCVD);
	return id;
}

/*
 * A REQ's alternate path, sent (issue 34 #13): in the REQ as ib_cm puts
 * it, and loaded into the QP as ib_cm loads it -- IB_QP_ALT_PATH in RTR
 * with the alternate's address, port, P_Key index and an ACK timeout that
 * takes the REP's target ACK delay; IB_MIG_REARM in RTS.  As ib_cm, an
 * alternate path needs the primary's P_Key and MTU and an address.  pdcm
 * sent no alternate path and loaded none.
 */
static void fsm_apm_req_sent(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	struct pdcm_req_param p;
	struct sa_path_rec alt;
	struct fake_sent *s;
	struct pdcm_path *w;
	struct pdcm_id *id;
	int mask;

	fsm_port_ib(f);
	fsm_ib_path(f, &f->path, 0x11, 0x22);
	fsm_ib_path(f, &alt, 0x33, 0x44);
	id = fsm_id(f);
	fsm_req_param(f, &p);
	p.alternate_path = &alt;
	alt.pkey = cpu_to_be16(0x8001);
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EINVAL);
	alt.pkey = f->path.pkey;
	alt.mtu = IB_MTU_2048;
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EINVAL);
	alt.mtu = f->path.mtu;
	f->alt_av_err = -EINVAL;
	KUNIT_EXPECT_EQ(test, pdcm_send_req(id, &p), -EINVAL);
	f->alt_av_err = 0;
	KUNIT_EXPECT_EQ(test, id->state, PDCM_IDLE);
	KUNIT_EXPECT_EQ(test, fake_count(f, PDCM_ATTR_REQ), 0U);
	fsm_destroy(f, id);

	id = fsm_apm_rep(f, &alt);
	s = fake_nth(f, 0);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REQ);
	w = &s->msg.req.alternate_path;
	KUNIT_EXPECT_EQ(test, w->local_lid, 0x33);
	KUNIT_EXPECT_EQ(test, w->remote_lid, 0x44);
	KUNIT_EXPECT_EQ(test, memcmp(&w->local_gid, &alt.sgid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&w->remote_gid, &alt.dgid, 16), 0);
	KUNIT_EXPECT_EQ(test, w->sl, 3);
	KUNIT_EXPECT_EQ(test, w->packet_rate, IB_RATE_40_GBPS);
	KUNIT_EXPECT_EQ(test, w->flow_label, 0x12345U);
	KUNIT_EXPECT_EQ(test, w->traffic_class, 0x20);
	KUNIT_EXPECT_EQ(test, w->subnet_local, 1);
	/* 2^(8 + 1), the fake CA's ACK delay 0 */
	KUNIT_EXPECT_EQ(test, w->local_ack_timeout, 9);
	KUNIT_EXPECT_EQ(test, s->msg.req.primary_path.local_lid, 0x11);

	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.ah_attr), 0x22U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.alt_ah_attr), 0x44U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&a.alt_ah_attr), 3);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_static_rate(&a.alt_ah_attr),
			IB_RATE_40_GBPS);
	KUNIT_EXPECT_EQ(test, (int)a.alt_port_num, 1);
	KUNIT_EXPECT_EQ(test, a.alt_pkey_index, 0);
	/* the REP's target ACK delay 10 within a factor of two: 10 + 1 */
	KUNIT_EXPECT_EQ(test, a.alt_timeout, 11);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_STATE);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_PATH_MIG_STATE);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_EQ(test, a.path_mig_state, IB_MIG_REARM);

	/* a connection without one: nothing loaded */
	fsm_destroy(f, id);
	id = fsm_active_rep(f, f->peer_comm + 1);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_ALT_PATH);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_PATH_MIG_STATE);
}

/* The peer's REQ over InfiniBand with an alternate path from LID 0x31. */
static void fsm_mk_apm_req(struct fake *f, struct pdcm_msg *m, u32 comm,
			   u32 qpn)
{
	struct pdcm_path *w = &m->req.alternate_path;

	fsm_mk_req(f, m, comm, qpn);
	m->req.primary_path.local_lid = 0x21;
	m->req.primary_path.remote_lid = 0x7;
	m->req.primary_path.subnet_local = 1;
	m->req.primary_path.hop_limit = 0;
	w->local_lid = 0x31;
	w->remote_lid = 0x8;
	w->local_gid = m->req.primary_path.local_gid;
	w->local_gid.raw[0] ^= 0x80;
	w->remote_gid = m->req.primary_path.remote_gid;
	w->sl = 5;
	w->packet_rate = IB_RATE_56_GBPS;
	w->flow_label = 0xabcde;
	w->traffic_class = 0x10;
	w->subnet_local = 1;
	w->local_ack_timeout = 16;
}

/*
 * A REQ's alternate path, received over InfiniBand (issue 34 #13): passed
 * on in the receiver's terms and loaded into the QP, as ib_cm does; a REQ
 * whose alternate local LID is 0 has none, as ib_cm reads it; one the
 * device has no address for gets REJ INVALID_ALT_GID with the GID the REQ
 * reached, and is not delivered.  pdcm passed none on and loaded none.
 */
static void fsm_apm_req_received(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int nev, nsent;
	struct ib_qp_attr a = {};
	struct fake_sent *s;
	struct pdcm_msg m;
	struct fsm_ev *e;
	int mask;

	fsm_port_ib(f);
	fsm_listen(f);
	fsm_mk_apm_req(f, &m, f->peer_comm, 0x112233);
	fsm_rx_ib(f, &m, 0x21, 0);
	e = fsm_last_ev();
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	KUNIT_ASSERT_TRUE(test, e->has_alt);
	KUNIT_EXPECT_EQ(test, e->alt.rec_type, SA_PATH_REC_TYPE_IB);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&e->alt)), 0x31U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&e->alt)), 0x8U);
	KUNIT_EXPECT_EQ(test, memcmp(&e->alt.dgid,
				     &m.req.alternate_path.local_gid, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&e->alt.sgid,
				     &m.req.alternate_path.remote_gid, 16), 0);
	KUNIT_EXPECT_EQ(test, e->alt.sl, 5);
	KUNIT_EXPECT_EQ(test, e->alt.rate, IB_RATE_56_GBPS);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(e->alt.flow_label), 0xabcdeU);
	KUNIT_EXPECT_EQ(test, e->alt.traffic_class, 0x10);
	KUNIT_EXPECT_EQ(test, e->alt.packet_life_time, 15);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(e->alt.pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, e->alt.mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, be64_to_cpu(e->alt.service_id), fsm_rec.sid);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.ah_attr), 0x21U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.alt_ah_attr), 0x31U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&a.alt_ah_attr), 5);
	KUNIT_EXPECT_EQ(test, (int)a.alt_port_num, 1);
	KUNIT_EXPECT_EQ(test, a.alt_timeout, 16);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_PATH_MIG_STATE);
	KUNIT_EXPECT_EQ(test, a.path_mig_state, IB_MIG_REARM);

	/* no alternate local LID: no alternate path */
	fsm_mk_apm_req(f, &m, f->peer_comm + 1, 0x112234);
	m.req.alternate_path.local_lid = 0;
	fsm_rx_ib(f, &m, 0x21, 0);
	e = fsm_last_ev();
	KUNIT_ASSERT_EQ(test, e->type, PDCM_REQ_RECEIVED);
	KUNIT_EXPECT_FALSE(test, e->has_alt);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_ALT_PATH);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(e->id, &a, &mask), 0);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_PATH_MIG_STATE);

	/* no address for it (a GID or P_Key the device lacks): REJ 18 */
	nev = fsm_rec.nev;
	nsent = f->nsent;
	f->alt_av_err = -EINVAL;
	fsm_mk_apm_req(f, &m, f->peer_comm + 2, 0x112235);
	fsm_rx_ib(f, &m, 0x21, 0);
	f->alt_av_err = 0;
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_ASSERT_EQ(test, f->nsent, nsent + 1);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_REJ);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.rej.reason, PDCM_REJ_INVALID_ALT_GID);
	KUNIT_EXPECT_EQ(test, s->msg.rej.remote_comm_id, f->peer_comm + 2);
	KUNIT_ASSERT_EQ(test, s->msg.rej.ari_len, 16);
	KUNIT_EXPECT_EQ(test, memcmp(s->msg.rej.ari,
				     &m.req.primary_path.remote_gid, 16), 0);
}

/*
 * IB_EVENT_PATH_MIG (issue 34 #13), as ib_cm: on an established
 * connection with no LAP under way the alternate path becomes the
 * connection's -- its MADs go there -- and stays the alternate the QP is
 * given: RTS then gives only IB_QP_ALT_PATH and IB_QP_PATH_MIG_STATE,
 * rearmed.  Before the connection is established, -EINVAL; without an
 * alternate path nothing is switched.  From atomic context (QP events).
 * pdcm returned 0 and switched nothing.
 */
static void fsm_apm_path_mig(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	struct sa_path_rec alt;
	struct pdcm_id *id, *id2;
	unsigned long flags;
	int mask, ret;

	id = fsm_apm_rep(f, &alt);
	KUNIT_EXPECT_EQ(test, pdcm_notify(id, IB_EVENT_PATH_MIG), -EINVAL);
	KUNIT_ASSERT_EQ(test, pdcm_send_rtu(id, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->lap_state, PDCM_LAP_UNINIT);
	local_irq_save(flags);
	ret = pdcm_notify(id, IB_EVENT_PATH_MIG);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, id->lap_state, PDCM_LAP_IDLE);
	/* the MADs' address is the alternate's now */
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&to_conn(id)->ah_attr), 0x44U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&to_conn(id)->ah_attr), 3);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.alt_ah_attr), 0x44U);
	KUNIT_EXPECT_EQ(test, a.alt_timeout, 11);
	KUNIT_EXPECT_EQ(test, a.path_mig_state, IB_MIG_REARM);
	a.qp_state = IB_QPS_RTR;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.ah_attr), 0x44U);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_ALT_PATH);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.alt_ah_attr), 0x44U);
	/* again: nothing more to switch to */
	KUNIT_EXPECT_EQ(test, pdcm_notify(id, IB_EVENT_PATH_MIG), 0);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&to_conn(id)->ah_attr), 0x44U);
	/* the DREQ still goes out, over the new path */
	KUNIT_EXPECT_EQ(test, pdcm_send_dreq(id, NULL, 0), 0);

	/* no alternate: accepted, nothing switched, RTS as before */
	id2 = fsm_active_est(f, f->peer_comm + 1);
	KUNIT_EXPECT_EQ(test, pdcm_notify(id2, IB_EVENT_PATH_MIG), 0);
	KUNIT_EXPECT_EQ(test, id2->lap_state, PDCM_LAP_IDLE);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&to_conn(id2)->ah_attr), 0x22U);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id2, &a, &mask), 0);
	KUNIT_EXPECT_TRUE(test, mask & IB_QP_STATE);
	KUNIT_EXPECT_FALSE(test, mask & (IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE));
}

/* A LAP from the peer's @comm to @id: alternate path from LID 0x61. */
static void fsm_mk_lap(struct pdcm_msg *m, struct pdcm_id *id, u32 comm)
{
	struct pdcm_path *w = &m->lap.alternate_path;

	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_LAP, 0x4c000000ULL | comm);
	m->lap.local_comm_id = comm;
	m->lap.remote_comm_id = be32_to_cpu(id->local_id);
	m->lap.remote_qpn_eecn = to_conn(id)->local_qpn;
	m->lap.remote_cm_response_timeout = 16;
	w->local_lid = 0x61;
	w->remote_lid = 0x9;
	w->local_gid.raw[0] = 0xfe;
	w->local_gid.raw[15] = 0x61;
	w->remote_gid.raw[0] = 0xfe;
	w->remote_gid.raw[15] = 0x09;
	w->sl = 6;
	w->packet_rate = IB_RATE_20_GBPS;
	w->subnet_local = 1;
	w->local_ack_timeout = 14;
	m->lap.private_data[0] = 0x4c;
	m->lap.private_data_len = 1;
}

/*
 * A LAP (issue 34 #13), as ib_cm handles it: on InfiniBand, for an
 * established connection, the alternate path it proposes (P_Key and MTU
 * the connection's) reaches the ULP with PDCM_LAP_RECEIVED and becomes the
 * QP's (RTS: IB_QP_ALT_PATH, rearmed); a path migration is refused while
 * it waits.  Its copies are counted and, once the ULP sent an MRA of it
 * (MRAed: the LAP, in the LAP's exchange), answered with that MRA again.
 * pdcm dropped every LAP.
 */
static void fsm_apm_lap(struct kunit *test)
{
	struct fake *f = FAKE(test);
	struct ib_qp_attr a = {};
	unsigned int nev, nsent;
	struct fake_sent *s;
	struct pdcm_msg m;
	struct pdcm_id *id;
	struct fsm_ev *e;
	long dup;
	int mask;

	fsm_port_ib(f);
	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	fsm_mk_lap(&m, id, f->peer_comm);
	fsm_rx_ib(f, &m, 0x21, 0);
	e = fsm_last_ev();
	KUNIT_ASSERT_EQ(test, e->type, PDCM_LAP_RECEIVED);
	KUNIT_EXPECT_PTR_EQ(test, e->id, id);
	KUNIT_ASSERT_TRUE(test, e->has_alt);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_dlid(&e->alt)), 0x61U);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(sa_path_get_slid(&e->alt)), 0x9U);
	KUNIT_EXPECT_EQ(test, e->alt.dgid.raw[15], 0x61);
	KUNIT_EXPECT_EQ(test, e->alt.sl, 6);
	KUNIT_EXPECT_EQ(test, e->alt.packet_life_time, 13);
	KUNIT_EXPECT_EQ(test, e->alt.mtu, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(e->alt.pkey), 0xffff);
	KUNIT_EXPECT_EQ(test, e->pdata0, 0x4c);
	KUNIT_EXPECT_EQ(test, e->pdata_len, PDCM_LAP_PDATA_SIZE);
	KUNIT_EXPECT_EQ(test, id->lap_state, PDCM_LAP_RCVD);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_EQ(test, mask, IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_dlid(&a.alt_ah_attr), 0x61U);
	KUNIT_EXPECT_EQ(test, rdma_ah_get_sl(&a.alt_ah_attr), 6);
	KUNIT_EXPECT_EQ(test, a.alt_timeout, 14);
	KUNIT_EXPECT_EQ(test, a.path_mig_state, IB_MIG_REARM);
	KUNIT_EXPECT_EQ(test, pdcm_notify(id, IB_EVENT_PATH_MIG), -EINVAL);

	/* a copy: counted, neither delivered nor answered */
	nev = fsm_rec.nev;
	nsent = f->nsent;
	dup = fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_LAP);
	fsm_rx_ib(f, &m, 0x21, 0);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
	KUNIT_EXPECT_EQ(test, fsm_cnt(f->port->cnt.rx_dup, PDCM_ATTR_LAP),
			dup + 1);

	/* the ULP's MRA: of the LAP */
	KUNIT_ASSERT_EQ(test, pdcm_send_mra(id, 20, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, id->lap_state, PDCM_MRA_LAP_SENT);
	KUNIT_EXPECT_EQ(test, id->state, PDCM_ESTABLISHED);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_MRA);
	KUNIT_EXPECT_EQ(test, s->msg.mra.msg_mraed, PDCM_MSG_RESPONSE_OTHER);
	KUNIT_EXPECT_EQ(test, s->msg.mra.service_timeout, 20);
	KUNIT_EXPECT_EQ(test, s->msg.mra.remote_comm_id, f->peer_comm);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, pdcm_send_mra(id, 20, NULL, 0), -EINVAL);
	/* another copy: the MRA again, to whoever sent it */
	nsent = f->nsent;
	fsm_rx_ib(f, &m, 0x21, 0);
	KUNIT_ASSERT_EQ(test, f->nsent, nsent + 1);
	s = fake_last(f);
	KUNIT_ASSERT_EQ(test, s->msg.hdr.attr_id, PDCM_ATTR_MRA);
	KUNIT_EXPECT_TRUE(test, s->reply);
	KUNIT_EXPECT_EQ(test, s->msg.mra.msg_mraed, PDCM_MSG_RESPONSE_OTHER);
	KUNIT_EXPECT_EQ(test, s->msg.mra.service_timeout, 20);
	KUNIT_EXPECT_EQ(test, s->msg.hdr.tid, m.hdr.tid);
	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
}

/*
 * What a LAP must be (issue 34 #13): from the connection's peer (both
 * comm IDs), for our QP, with an alternate LID, an address the device can
 * build, to an established connection, over InfiniBand (ib_cm drops a
 * LAP on RoCE).  Anything else is counted and dropped and changes
 * nothing.  An APR is always dropped: no LAP of ours waits for one.
 */
static void fsm_apm_lap_bad(struct kunit *test)
{
	struct fake *f = FAKE(test);
	unsigned int nev, nsent;
	struct ib_qp_attr a = {};
	struct pdcm_id *id, *id2;
	struct pdcm_msg m, bad;
	long dropped;
	int mask;

	fsm_port_ib(f);
	fsm_listen(f);
	id = fsm_passive_est(f, f->peer_comm, 0x112233);
	id2 = fsm_passive_rep(f, f->peer_comm + 1, 0x112234);
	fsm_mk_lap(&m, id, f->peer_comm);
	nev = fsm_rec.nev;
	nsent = f->nsent;
	dropped = atomic_long_read(&f->port->cnt.rx_dropped);

	bad = m;
	bad.lap.local_comm_id ^= 1;		/* not the peer's comm ID */
	fsm_rx_ib(f, &bad, 0x21, 0);
	bad = m;
	bad.lap.remote_qpn_eecn ^= 1;		/* not our QP */
	fsm_rx_ib(f, &bad, 0x21, 0);
	bad = m;
	bad.lap.alternate_path.local_lid = 0;	/* no alternate LID */
	fsm_rx_ib(f, &bad, 0x21, 0);
	f->alt_av_err = -EINVAL;		/* no address for it */
	fsm_rx_ib(f, &m, 0x21, 0);
	f->alt_av_err = 0;
	fsm_mk_lap(&bad, id2, f->peer_comm + 1);	/* REP_SENT */
	fsm_rx_ib(f, &bad, 0x21, 0);
	KUNIT_EXPECT_EQ(test, id2->lap_state, PDCM_LAP_UNINIT);
	memset(&bad, 0, sizeof(bad));
	pdcm_wire_init_hdr(&bad.hdr, PDCM_ATTR_APR, m.hdr.tid);
	bad.apr.local_comm_id = f->peer_comm;
	bad.apr.remote_comm_id = be32_to_cpu(id->local_id);
	fsm_rx_ib(f, &bad, 0x21, 0);
	/* RoCE: ib_cm takes no LAP there */
	f->ibdev->port_data[1].immutable.core_cap_flags =
		RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP | RDMA_CORE_CAP_IB_MAD |
		RDMA_CORE_CAP_IB_CM;
	fsm_rx_ib(f, &m, 0x21, 0);
	fsm_port_ib(f);

	KUNIT_EXPECT_EQ(test, fsm_rec.nev, nev);
	KUNIT_EXPECT_EQ(test, f->nsent, nsent);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&f->port->cnt.rx_dropped),
			dropped + 7);
	KUNIT_EXPECT_EQ(test, id->lap_state, PDCM_LAP_UNINIT);
	a.qp_state = IB_QPS_RTS;
	KUNIT_ASSERT_EQ(test, pdcm_init_qp_attr(id, &a, &mask), 0);
	KUNIT_EXPECT_FALSE(test, mask & IB_QP_ALT_PATH);

	/* and the good one is taken */
	fsm_rx_ib(f, &m, 0x21, 0);
	KUNIT_ASSERT_EQ(test, fsm_rec.nev, nev + 1);
	KUNIT_EXPECT_EQ(test, fsm_last_ev()->type, PDCM_LAP_RECEIVED);
	KUNIT_EXPECT_EQ(test, id->lap_state, PDCM_LAP_RCVD);
}

static struct kunit_case pdcm_fsm_cases[] = {
	KUNIT_CASE(fsm_table_exhaustive),
	KUNIT_CASE(fsm_table_names),
	KUNIT_CASE(fsm_active_req_on_wire),
	KUNIT_CASE(fsm_active_rep_received),
	KUNIT_CASE(fsm_active_rtu),
	KUNIT_CASE(fsm_active_dreq_drep),
	KUNIT_CASE(fsm_active_req_bad_params),
	KUNIT_CASE(fsm_active_req_twice),
	KUNIT_CASE(fsm_active_req_no_port),
	KUNIT_CASE(fsm_passive_req_received),
	KUNIT_CASE(fsm_passive_rep_on_wire),
	KUNIT_CASE(fsm_passive_rtu_received),
	KUNIT_CASE(fsm_passive_comm_est),
	KUNIT_CASE(fsm_passive_dreq_drep),
	KUNIT_CASE(fsm_passive_drep_send_fails),
	KUNIT_CASE(fsm_passive_dreq_wrong_qpn),
	KUNIT_CASE(fsm_simultaneous_dreq),
	KUNIT_CASE(fsm_crossed_dreq_then_drep),
	KUNIT_CASE(fsm_dreq_no_memory),
	KUNIT_CASE(fsm_rej_no_memory),
	KUNIT_CASE(fsm_drep_no_memory),
	KUNIT_CASE(fsm_illegal_idle),
	KUNIT_CASE(fsm_illegal_established),
	KUNIT_CASE(fsm_illegal_listen),
	KUNIT_CASE(fsm_bad_params),
	KUNIT_CASE(fsm_req_timeout),
	KUNIT_CASE(fsm_rep_timeout),
	KUNIT_CASE(fsm_dreq_timeout),
	KUNIT_CASE(fsm_stale_completion),
	KUNIT_CASE(fsm_flush_completion),
	KUNIT_CASE(fsm_mra_rcvd_for_req),
	KUNIT_CASE(fsm_mra_rcvd_wrong),
	KUNIT_CASE(fsm_mra_rcvd_for_rep),
	KUNIT_CASE(fsm_send_mra_plain),
	KUNIT_CASE(fsm_send_mra_delayed),
	KUNIT_CASE(fsm_req_copy_while_queued),
	KUNIT_CASE(fsm_send_mra_early),
	KUNIT_CASE(fsm_send_mra_early_off),
	KUNIT_CASE(fsm_req_copy_mra_fails_early_armed),
	KUNIT_CASE(fsm_send_mra_early_answered),
	KUNIT_CASE(fsm_send_mra_delayed_backlog_full),
	KUNIT_CASE(fsm_send_mra_for_rep),
	KUNIT_CASE(fsm_dup_req_dropped),
	KUNIT_CASE(fsm_dup_req_mra_resent),
	KUNIT_CASE(fsm_dup_req_timewait),
	KUNIT_CASE(fsm_dup_rep_rtu_resent),
	KUNIT_CASE(fsm_stale_req),
	KUNIT_CASE(fsm_stale_req_not_from_peer),
	KUNIT_CASE(fsm_stale_req_before_listen),
	KUNIT_CASE(fsm_stale_rep),
	KUNIT_CASE(fsm_rej_no_listener),
	KUNIT_CASE(fsm_rej_received),
	KUNIT_CASE(fsm_rej_stale_enters_timewait),
	KUNIT_CASE(fsm_send_rej_req_rcvd),
	KUNIT_CASE(fsm_send_rej_forgets_peer),
	KUNIT_CASE(fsm_req_bad_paths),
	KUNIT_CASE(fsm_rep_sent_holds_slot),
	KUNIT_CASE(fsm_backlog_evicts_halfopen),
	KUNIT_CASE(fsm_peer_timeouts_capped),
	KUNIT_CASE(fsm_send_rej_req_sent),
	KUNIT_CASE(fsm_send_rej_rep_sent),
	KUNIT_CASE(fsm_rej_after_rep),
	KUNIT_CASE(fsm_rej_timeout_by_ari),
	KUNIT_CASE(fsm_rej_timeout_by_ari_established),
	KUNIT_CASE(fsm_rej_timeout_while_queued),
	KUNIT_CASE(fsm_rej_timeout_while_queued_not_its_own),
	KUNIT_CASE(fsm_sidr_backlog_until_answered),
	KUNIT_CASE(fsm_rep_remote_id_in_use),
	KUNIT_CASE(fsm_dreq_wrong_qpn),
	KUNIT_CASE(fsm_req_handler_runs_alone),
	KUNIT_CASE(fsm_destroy_waits_for_req_handler),
	KUNIT_CASE(fsm_reuse_after_timewait),
	KUNIT_CASE(fsm_conn_freed_after_grace_period),
	KUNIT_CASE(fsm_unknown_rep),
	KUNIT_CASE(fsm_unknown_dreq),
	KUNIT_CASE(fsm_msg_for_portless_id),
	KUNIT_CASE(fsm_backlog_drop),
	KUNIT_CASE(fsm_backlog_rej),
	KUNIT_CASE(fsm_destroy_idle_listen),
	KUNIT_CASE(fsm_destroy_req_sent),
	KUNIT_CASE(fsm_destroy_mra_req_rcvd),
	KUNIT_CASE(fsm_destroy_req_rcvd),
	KUNIT_CASE(fsm_destroy_listen_before_child),
	KUNIT_CASE(fsm_destroy_mra_req_sent),
	KUNIT_CASE(fsm_destroy_rep_sent),
	KUNIT_CASE(fsm_destroy_rep_rcvd),
	KUNIT_CASE(fsm_destroy_established),
	KUNIT_CASE(fsm_destroy_disconnecting),
	KUNIT_CASE(fsm_handler_reject),
	KUNIT_CASE(fsm_handler_enomem),
	KUNIT_CASE(fsm_handler_reject_rep),
	KUNIT_CASE(fsm_handler_sends_rep),
	KUNIT_CASE(fsm_sidr_req_on_wire),
	KUNIT_CASE(fsm_sidr_rep_received),
	KUNIT_CASE(fsm_sidr_req_timeout),
	KUNIT_CASE(fsm_sidr_req_received),
	KUNIT_CASE(fsm_sidr_no_listener),
	KUNIT_CASE(fsm_sidr_dup),
	KUNIT_CASE(fsm_sidr_dup_by_ipv4_sender),
	KUNIT_CASE(fsm_events_in_order),
	KUNIT_CASE(fsm_sleeping_handler_blocks_only_its_id),
	KUNIT_CASE(fsm_stale_send_error),
	KUNIT_CASE(fsm_handler_destroys_other_id),
	KUNIT_CASE(fsm_conn_queue_bounded),
	KUNIT_CASE(fsm_timeout_needs_no_allocation),
	KUNIT_CASE(fsm_new_reqs_capped),
	KUNIT_CASE(fsm_sender_comm_id_checked),
	KUNIT_CASE(fsm_local_ids_unguessable),
	KUNIT_CASE(fsm_send_fails_state_kept),
	KUNIT_CASE(fsm_init_qp_attr),
	KUNIT_CASE(fsm_req_qp_address_from_path),
	KUNIT_CASE(fsm_req_ack_timeout_floor),
	KUNIT_CASE(fsm_req_sgid_attr),
	KUNIT_CASE(fsm_init_qp_flush),
	KUNIT_CASE(fsm_connect_racing_removal),
	KUNIT_CASE(fsm_routed_ib_req),
	KUNIT_CASE(fsm_routed_ib_req_sent),
	KUNIT_CASE(fsm_ece),
	KUNIT_CASE(fsm_apm_req_sent),
	KUNIT_CASE(fsm_apm_req_received),
	KUNIT_CASE(fsm_apm_path_mig),
	KUNIT_CASE(fsm_apm_lap),
	KUNIT_CASE(fsm_apm_lap_bad),
	KUNIT_CASE(fsm_xrc_qp_attr),
	KUNIT_CASE(fsm_xrc_rep_qpn_in_eecn),
	KUNIT_CASE(fsm_ack_timeout_adds_ca_delay),
	KUNIT_CASE(fsm_uc_qp_attr),
	KUNIT_CASE(fsm_timewait_delay),
	KUNIT_CASE(fsm_timewait_rearm),
	KUNIT_CASE(fsm_timewait_floor),
	KUNIT_CASE(fsm_timewait_delay_passive),
	KUNIT_CASE(fsm_peer_av_fails),
	KUNIT_CASE(fsm_rej_rcvd_after_our_rep),
	KUNIT_CASE(fsm_send_error_after_mra),
	KUNIT_CASE(fsm_rej_wrong_state),
	KUNIT_CASE(fsm_destroy_mra_rep_rcvd),
	KUNIT_CASE(fsm_destroy_mra_rep_sent),
	KUNIT_CASE(fsm_destroy_sidr_req_sent),
	KUNIT_CASE(fsm_listen_destroyed_under_queued_req),
	{}
};

static struct kunit_suite pdcm_fsm_suite = {
	.name = "pdcm_fsm",
	.suite_init = fake_suite_init,
	.suite_exit = fake_suite_exit,
	.init = fsm_init,
	.exit = fsm_exit,
	.test_cases = pdcm_fsm_cases,
};

kunit_test_suite(pdcm_fsm_suite);
