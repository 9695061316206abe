// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * softib_ibcm's bench mode (`make bench-cm`, Documentation/performance.rst):
 * N connection handshakes between two softib ports through whichever
 * ib_cm is loaded (the kernel's or pdcm's drop-in), at most C of them in
 * progress at a time, each REQ/REP/RTU then DREQ/DREP, written against
 * <rdma/ib_cm.h> only.
 *
 *   bench DEV PORT_A PORT_B n=N conc=C [hold=1]
 *
 * Each connection carries its index in the REQ's private data, so the
 * passive side finds it without a lookup.  The QPs are not created: the
 * QPNs are unique numbers (never reused while a CM may remember them:
 * one counter for the module's life), and the QP attributes are asked
 * of the CM (ib_cm_init_qp_attr for INIT, RTR and RTS, as a ULP does)
 * but not applied, so that the time measured is the CM's and the MAD
 * layer's, not a provider's.  The callbacks only record and queue; one
 * thread (the writer of ctl) starts connections, sends the DREQs and
 * destroys the ids.
 *
 * Setup time is from ib_send_cm_req() to the passive side's RTU; a
 * connection is done when the active side has its DREP.  With hold=1 the
 * DREQs wait until all N are established (then go out C at a time), and
 * the slab memory the kernel holds then, against before the first REQ,
 * is reported.
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/llist.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>
#include <linux/wait.h>
#include <rdma/ib_cm.h>

#include "scm.h"
#include "bench.h"

#define SIB_BENCH_SID		0x5ce3
/*
 * No event for this long: the run is given up (a REQ's last retry ends
 * after 16 * (4.3 s + 2 * 67 ms), about 71 s).
 */
#define SIB_BENCH_STALL		(120 * HZ)
/* rdma_cm's CMA_CM_RESPONSE_TIMEOUT and CMA_MAX_CM_RETRIES */
#define SIB_BENCH_CM_TIMEOUT	20
#define SIB_BENCH_CM_RETRIES	15
#define SIB_QPN_FIRST		0x100

struct sib_bench;

/*
 * One connection.  Each llist node is queued once at most: @est_node
 * when the passive side has the RTU, @adone_node when the active side is
 * finished (DREP, or an error), @pdone_node when the passive side is
 * (DREQ answered, or an error).
 */
struct sib_bconn {
	struct sib_bench *b;
	struct ib_cm_id *active;
	struct ib_cm_id *passive;
	u32 qpn_a;
	u32 qpn_b;
	ktime_t t0;
	int err;
	bool est;		/* the driver thread's: est_node taken */
	bool dreq;		/* and the DREQ sent */
	struct llist_node est_node;
	struct llist_node adone_node;
	struct llist_node pdone_node;
};

struct sib_bench {
	struct ib_device *dev;
	u32 port_a;
	struct sa_path_rec path;
	u32 n;
	struct sib_bconn *conns;	/* vzalloc: not in the slab measured */
	u32 *setup_us;			/* U32_MAX: not established */
	wait_queue_head_t wq;
	struct llist_head est;
	struct llist_head adone;
	struct llist_head pdone;
	atomic_t rej;
	atomic_t timeouts;
	atomic_t errors;
};

/* QPNs: unique while any CM may still hold one in its remote QPN table */
static u32 sib_next_qpn = SIB_QPN_FIRST;

static u32 sib_bench_qpn(void)
{
	u32 qpn = sib_next_qpn;

	sib_next_qpn = sib_next_qpn >= 0xffffff ? SIB_QPN_FIRST : qpn + 1;
	return qpn;
}

static void sib_bconn_err(struct sib_bconn *c, int err)
{
	if (!c->err)
		c->err = err;
}

static void sib_bench_queue(struct sib_bench *b, struct llist_node *node,
			    struct llist_head *head)
{
	llist_add(node, head);
	wake_up(&b->wq);
}

/* what a ULP asks the CM for each QP transition; the QP is not touched */
static int sib_bench_qp_attr(struct ib_cm_id *id, enum ib_qp_state state)
{
	struct ib_qp_attr attr = {};
	int mask = 0;

	attr.qp_state = state;
	return ib_cm_init_qp_attr(id, &attr, &mask);
}

static int sib_bench_active_handler(struct ib_cm_id *id,
				    const struct ib_cm_event *ev)
{
	struct sib_bconn *c = id->context;
	struct sib_bench *b = c->b;
	int ret;

	switch (ev->event) {
	case IB_CM_REP_RECEIVED:
		ret = sib_bench_qp_attr(id, IB_QPS_RTR);
		if (!ret)
			ret = sib_bench_qp_attr(id, IB_QPS_RTS);
		if (!ret)
			ret = ib_send_cm_rtu(id, NULL, 0);
		if (ret) {
			sib_bconn_err(c, ret);
			atomic_inc(&b->errors);
			sib_bench_queue(b, &c->adone_node, &b->adone);
		}
		return 0;
	case IB_CM_REJ_RECEIVED:
		sib_bconn_err(c, -ECONNREFUSED);
		atomic_inc(&b->rej);
		sib_bench_queue(b, &c->adone_node, &b->adone);
		return 0;
	case IB_CM_REQ_ERROR:
	case IB_CM_DREQ_ERROR:
		sib_bconn_err(c, -ETIMEDOUT);
		atomic_inc(&b->timeouts);
		sib_bench_queue(b, &c->adone_node, &b->adone);
		return 0;
	case IB_CM_DREP_RECEIVED:
		sib_bench_queue(b, &c->adone_node, &b->adone);
		return 0;
	default:
		return 0;
	}
}

static int sib_bench_req(struct sib_bench *b, struct ib_cm_id *id,
			 const struct ib_cm_event *ev)
{
	const struct ib_cm_req_event_param *req = &ev->param.req_rcvd;
	struct ib_cm_rep_param rep = {};
	struct sib_bconn *c;
	u32 idx;
	int ret;

	if (!ev->private_data)
		return -EINVAL;
	memcpy(&idx, ev->private_data, sizeof(idx));
	if (idx >= b->n || b->conns[idx].passive)
		return -EINVAL;
	c = &b->conns[idx];
	c->passive = id;
	id->context = c;
	ret = sib_bench_qp_attr(id, IB_QPS_INIT);
	if (!ret)
		ret = sib_bench_qp_attr(id, IB_QPS_RTR);
	if (ret)
		return ret;
	rep.qp_num = c->qpn_b;
	rep.starting_psn = 0x4242;
	rep.responder_resources = req->responder_resources;
	rep.initiator_depth = req->initiator_depth;
	rep.flow_control = 1;
	rep.rnr_retry_count = 7;
	return ib_send_cm_rep(id, &rep);
}

static int sib_bench_passive_handler(struct ib_cm_id *id,
				     const struct ib_cm_event *ev)
{
	struct sib_bconn *c;
	struct sib_bench *b;
	int ret;

	if (ev->event == IB_CM_REQ_RECEIVED) {
		b = id->context;	/* the listen's, inherited */
		ret = sib_bench_req(b, id, ev);
		if (ret) {
			atomic_inc(&b->errors);
			if (id->context != b) {
				c = id->context;
				sib_bconn_err(c, ret);
				c->passive = NULL;	/* the CM destroys it */
			}
		}
		return ret;
	}
	c = id->context;
	b = c->b;
	switch (ev->event) {
	case IB_CM_RTU_RECEIVED:
		b->setup_us[c - b->conns] =
			min_t(s64, ktime_us_delta(ktime_get(), c->t0), U32_MAX - 1);
		ret = sib_bench_qp_attr(id, IB_QPS_RTS);
		if (ret) {
			sib_bconn_err(c, ret);
			atomic_inc(&b->errors);
		}
		sib_bench_queue(b, &c->est_node, &b->est);
		return 0;
	case IB_CM_REP_ERROR:
		sib_bconn_err(c, -ETIMEDOUT);
		atomic_inc(&b->timeouts);
		sib_bench_queue(b, &c->pdone_node, &b->pdone);
		return 0;
	case IB_CM_DREQ_RECEIVED:
		ret = ib_send_cm_drep(id, NULL, 0);
		if (ret) {
			sib_bconn_err(c, ret);
			atomic_inc(&b->errors);
		}
		sib_bench_queue(b, &c->pdone_node, &b->pdone);
		return 0;
	default:
		return 0;
	}
}

static int sib_bench_start(struct sib_bench *b, u32 idx)
{
	struct sib_bconn *c = &b->conns[idx];
	struct ib_cm_req_param req = {};
	int ret;

	c->b = b;
	c->qpn_a = sib_bench_qpn();
	c->qpn_b = sib_bench_qpn();
	c->active = ib_create_cm_id(b->dev, sib_bench_active_handler, c);
	if (IS_ERR(c->active)) {
		ret = PTR_ERR(c->active);
		c->active = NULL;
		return ret;
	}
	req.primary_path = &b->path;
	req.service_id = cpu_to_be64(SIB_BENCH_SID);
	req.qp_num = c->qpn_a;
	req.qp_type = IB_QPT_RC;
	req.starting_psn = 0x1234;
	req.private_data = &idx;
	req.private_data_len = sizeof(idx);
	req.responder_resources = 1;
	req.initiator_depth = 1;
	req.remote_cm_response_timeout = SIB_BENCH_CM_TIMEOUT;
	req.local_cm_response_timeout = SIB_BENCH_CM_TIMEOUT;
	req.flow_control = 1;
	req.retry_count = 7;
	req.rnr_retry_count = 7;
	req.max_cm_retries = SIB_BENCH_CM_RETRIES;
	c->t0 = ktime_get();
	ret = ib_send_cm_req(c->active, &req);
	if (!ret)
		ret = sib_bench_qp_attr(c->active, IB_QPS_INIT);
	return ret;
}

/* a connection that could not start, or whose active side is finished */
static void sib_bench_active_done(struct sib_bconn *c)
{
	if (c->active) {
		ib_destroy_cm_id(c->active);
		c->active = NULL;
	}
}

static int sib_u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static u64 sib_slab_bytes(void)
{
	return (u64)(global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B) +
		     global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B)) *
	       PAGE_SIZE;
}

/* The counts of one run, as the driver thread keeps them. */
struct sib_brun {
	u32 started;
	u32 established;
	u32 adone;
	u32 pdone;
	u32 passives;		/* passive sides seen (their REQ arrived) */
	u32 dreqs;		/* DREQs sent */
	bool released;		/* hold: the DREQs may go out */
	u32 next_dreq;		/* hold: the next connection to disconnect */
	u32 adone_held;		/* hold: @adone when released */
};

static void sib_bench_dreq(struct sib_bench *b, struct sib_bconn *c,
			   struct sib_brun *r)
{
	if (!c->active || c->dreq)
		return;
	c->dreq = true;
	if (ib_send_cm_dreq(c->active, NULL, 0)) {
		sib_bconn_err(c, -EIO);
		atomic_inc(&b->errors);
		sib_bench_active_done(c);
		r->adone++;
		return;
	}
	r->dreqs++;
}

/* Take the queued events; false if nothing came within SIB_BENCH_STALL. */
static bool sib_bench_events(struct sib_bench *b, struct sib_brun *r,
			     bool hold)
{
	struct llist_node *est, *adone, *pdone;
	struct sib_bconn *c, *t;

	if (!wait_event_timeout(b->wq, !llist_empty(&b->est) ||
				!llist_empty(&b->adone) ||
				!llist_empty(&b->pdone), SIB_BENCH_STALL))
		return false;
	est = llist_reverse_order(llist_del_all(&b->est));
	adone = llist_reverse_order(llist_del_all(&b->adone));
	pdone = llist_reverse_order(llist_del_all(&b->pdone));
	llist_for_each_entry_safe(c, t, est, est_node) {
		c->est = true;
		r->established++;
		if (!hold || r->released)
			sib_bench_dreq(b, c, r);
	}
	llist_for_each_entry_safe(c, t, adone, adone_node) {
		sib_bench_active_done(c);
		r->adone++;
	}
	llist_for_each_entry_safe(c, t, pdone, pdone_node) {
		if (c->passive) {
			ib_destroy_cm_id(c->passive);
			c->passive = NULL;
		}
		r->pdone++;
	}
	return true;
}

/**
 * sib_bench_run() - the bench command: N handshakes, its result line
 * @dev: the softib device
 * @pa: the active port
 * @pb: the passive port
 * @n: connections, at least 1
 * @conc: at most this many in progress at once, at least 1
 * @hold: whether to hold all N established before any DREQ
 * @line: the result line, SCM_LINE bytes
 *
 * Context: process context; one run at a time (softib_ibcm's ctl mutex).
 */
void sib_bench_run(struct ib_device *dev, u32 pa, u32 pb, u32 n, u32 conc,
		   bool hold, char *line)
{
	struct ib_cm_id *listen = NULL;
	u64 slab0 = 0, slab_held = 0;
	union ib_gid gid_a, gid_b;
	struct sib_brun r = {};
	u16 lid_a, lid_b;
	ktime_t start, end;
	struct sib_bench *b;
	u32 i, ok = 0, stalled = 0;
	u64 wall_us;
	int ret;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		snprintf(line, SCM_LINE, "result=error err=%d", -ENOMEM);
		return;
	}
	b->dev = dev;
	b->port_a = pa;
	b->n = n;
	init_waitqueue_head(&b->wq);
	init_llist_head(&b->est);
	init_llist_head(&b->adone);
	init_llist_head(&b->pdone);
	b->conns = vzalloc(array_size(n, sizeof(*b->conns)));
	b->setup_us = vmalloc(array_size(n, sizeof(*b->setup_us)));
	ret = -ENOMEM;
	if (!b->conns || !b->setup_us)
		goto out;
	for (i = 0; i < n; i++)
		b->setup_us[i] = U32_MAX;
	ret = scm_port_addr(dev, pa, &lid_a, &gid_a);
	if (!ret)
		ret = scm_port_addr(dev, pb, &lid_b, &gid_b);
	if (ret)
		goto out;
	scm_ib_path(&b->path, &gid_a, lid_a, &gid_b, lid_b, false);
	listen = ib_create_cm_id(dev, sib_bench_passive_handler, b);
	if (IS_ERR(listen)) {
		ret = PTR_ERR(listen);
		listen = NULL;
		goto out;
	}
	ret = ib_cm_listen(listen, cpu_to_be64(SIB_BENCH_SID));
	if (ret)
		goto out;

	slab0 = sib_slab_bytes();
	start = ktime_get();
	while (r.adone < n) {
		/* in progress: not done; with hold, not established either */
		u32 busy = r.started - r.adone;

		if (hold && !r.released)
			busy -= min(busy, r.established);
		while (r.started < n && busy < conc) {
			struct sib_bconn *c = &b->conns[r.started];

			busy++;
			if (sib_bench_start(b, r.started)) {
				sib_bconn_err(c, -EIO);
				atomic_inc(&b->errors);
				sib_bench_active_done(c);
				r.adone++;
			}
			r.started++;
		}
		if (hold && !r.released && r.started == n &&
		    r.established + r.adone >= n) {
			slab_held = sib_slab_bytes();
			r.released = true;
			r.adone_held = r.adone;
		}
		/* hold: the DREQs, at most @conc waiting for their DREP */
		while (hold && r.released && r.next_dreq < n &&
		       r.dreqs - (r.adone - r.adone_held) < conc) {
			struct sib_bconn *c = &b->conns[r.next_dreq++];

			if (c->est)
				sib_bench_dreq(b, c, &r);
		}
		if (r.adone >= n)
			break;
		if (!sib_bench_events(b, &r, hold)) {
			stalled = 1;
			break;
		}
	}
	end = ktime_get();
	/* the passive sides still to finish (their DREQ crossed the DREP) */
	while (!stalled && r.pdone < r.established &&
	       sib_bench_events(b, &r, hold))
		;
	ret = 0;
out:
	/*
	 * What a stall or an error left: the CM ends it (the listen first,
	 * so that no passive side appears meanwhile).
	 */
	if (listen)
		ib_destroy_cm_id(listen);
	if (b->conns) {
		for (i = 0; i < n; i++) {
			struct sib_bconn *c = &b->conns[i];

			sib_bench_active_done(c);
			if (c->passive) {
				ib_destroy_cm_id(c->passive);
				c->passive = NULL;
			}
		}
	}
	if (ret) {
		snprintf(line, SCM_LINE, "result=error err=%d", ret);
		goto free;
	}
	for (i = 0; i < n; i++)
		if (b->setup_us[i] != U32_MAX && !b->conns[i].err)
			b->setup_us[ok++] = b->setup_us[i];
	sort(b->setup_us, ok, sizeof(*b->setup_us), sib_u32_cmp, NULL);
	wall_us = max_t(s64, ktime_us_delta(end, start), 1);
	snprintf(line, SCM_LINE,
		 "result=%s n=%u conc=%u hold=%d started=%u ok=%u failed=%u rej=%d timeouts=%d errors=%d dreqs=%u wall_us=%llu hs_per_s=%llu p50_us=%u p99_us=%u max_us=%u slab_held_bytes=%lld",
		 stalled ? "stalled" : ok == n ? "ok" : "failed", n, conc,
		 hold, r.started, ok, n - ok, atomic_read(&b->rej),
		 atomic_read(&b->timeouts), atomic_read(&b->errors), r.dreqs,
		 wall_us, div64_u64((u64)n * USEC_PER_SEC, wall_us),
		 ok ? b->setup_us[(ok - 1) / 2] : 0,
		 ok ? b->setup_us[div_u64((u64)(ok - 1) * 99, 100)] : 0,
		 ok ? b->setup_us[ok - 1] : 0,
		 hold ? (s64)(slab_held - slab0) : 0LL);
free:
	vfree(b->setup_us);
	vfree(b->conns);
	kfree(b);
}
