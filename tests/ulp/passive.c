// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Listeners and the passive side of RC connections.
 *
 * A listener is a pdcm_id listening on a service ID with a compare built
 * from an address (pdcm_compare_cma_addr()), a family, or none.  Every REQ
 * it gets arrives on a new pdcm_id; the handler accepts it (QP to INIT,
 * RTR and RTS with pdcm_init_qp_attr(), receives posted, REP carrying the
 * listener's name), holds it unanswered, or rejects it, by the listener's
 * mode.  Received messages are verified and echoed from the buffer they
 * arrived in (mode echo: echoed unverified).  Mode serve plays ucmatose's
 * server: it sends first, takes the replies, then sends the DREQ from a
 * work item.  COMM_EST from the QP goes to pdcm_notify().  Mode rping has
 * the same listener and the same REQ, QP and REP steps, and its own data
 * path (struct ulp_pconn_ops, rping.c).
 *
 * Ownership of a passive connection: until it is on its listener's list
 * the REQ handler owns it; then whoever takes it off the list under
 * ulp_lock does: a handler (which frees it and returns non-zero so that
 * pdcm destroys the id) or a close (which sets @detached and destroys the
 * id itself; a handler that then runs sees @detached and leaves it).
 */
#include <linux/inet.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/rdma_user_cm.h>

#include "ulp.h"

#define ULP_PASSIVE_BUFS	4	/* receives posted per connection */
#define ULP_DEFAULT_SIZE	4096	/* when the REQ carries no token */

const char *const ulp_mode_names[ULP_MODE_NR] = {
	[ULP_MODE_ACCEPT] = "accept",
	[ULP_MODE_HOLD] = "hold",
	[ULP_MODE_REJECT] = "reject",
	[ULP_MODE_FAIL] = "fail",
	[ULP_MODE_ECHO] = "echo",
	[ULP_MODE_SERVE] = "serve",
	[ULP_MODE_RPING] = "rping",
};

static struct ulp_pconn *ulp_buf_pconn(const struct ulp_buf *b)
{
	return container_of(ulp_buf_ep(b), struct ulp_pconn, ep);
}

static void ulp_listener_release(struct kref *ref)
{
	kfree(container_of(ref, struct ulp_listener, ref));
}

static void ulp_listener_put(struct ulp_listener *l)
{
	kref_put(&l->ref, ulp_listener_release);
}

/* A live listener whose address is @ctx, with a reference; ulp_lock held. */
static struct ulp_listener *ulp_listener_get_ctx(void *ctx)
{
	struct ulp_listener *l;

	lockdep_assert_held(&ulp_lock);
	list_for_each_entry(l, &ulp_listeners, node)
		if (l == ctx && !l->dying) {
			kref_get(&l->ref);
			return l;
		}
	return NULL;
}

/* Free a passive connection; with @destroy_id also its pdcm_id. */
static void ulp_pconn_free(struct ulp_pconn *pc, bool destroy_id)
{
	ulp_ep_quiesce(&pc->ep);
	cancel_delayed_work_sync(&pc->rep_work);
	ulp_ep_free(&pc->ep, destroy_id);
	ulp_listener_put(pc->l);
	kfree(pc);
	ulp_put(ULP_OBJ_CONN);
}

/*
 * From a handler: take @pc off its listener and free it.  Returns what the
 * handler returns: 1 (pdcm destroys the id) if it was ours to free, 0 if a
 * close owns it and destroys the id after this handler.
 */
static int ulp_pconn_release(struct ulp_pconn *pc)
{
	struct ulp_listener *l = pc->l;

	mutex_lock(&ulp_lock);
	if (pc->detached) {
		mutex_unlock(&ulp_lock);
		return 0;
	}
	list_del(&pc->node);
	atomic_dec(&l->live);
	mutex_unlock(&ulp_lock);
	ulp_pconn_free(pc, false);
	ulp_put(ULP_OBJ_ID);	/* pdcm destroys it */
	return 1;
}

static void ulp_p_recv_done(struct ib_cq *cq, struct ib_wc *wc);

/* Mode serve: both directions complete; disconnect from process context. */
/*
 * The connection of a work completion, or NULL if it failed (counted in
 * errors unless a flush: the QP is going away).
 */
static struct ulp_pconn *ulp_p_wc_pconn(const struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_pconn *pc = ulp_buf_pconn(b);

	if (wc->status == IB_WC_SUCCESS)
		return pc;
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		atomic_inc(&pc->l->errors);
	return NULL;
}

/* A post failed; one refused because the connection is closing is not. */
static void ulp_p_post_error(struct ulp_pconn *pc, int ret)
{
	if (ret && ret != -ESHUTDOWN)
		atomic_inc(&pc->l->errors);
}

/* Mode serve: both directions complete; disconnect from process context. */
static void ulp_p_serve_check(struct ulp_pconn *pc)
{
	if (pc->serve.sent >= pc->l->o.msgs && pc->serve.rcvd >= pc->l->o.msgs)
		ulp_ep_queue_dreq(&pc->ep);
}

static void ulp_pconn_dreq_work(struct work_struct *work)
{
	struct ulp_pconn *pc = container_of(work, struct ulp_pconn,
					    ep.dreq_work);

	/* A free cancels this work before it destroys the id. */
	if (pdcm_send_dreq(pc->ep.id, NULL, 0))
		atomic_inc(&pc->l->errors);
}

static void ulp_p_serve_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_pconn *pc = ulp_p_wc_pconn(wc);

	if (!pc)
		return;
	pc->serve.sent++;
	ulp_p_serve_check(pc);
}

/* Mode serve, once established: send from the buffers after the receives. */
static void ulp_p_serve_start(struct ulp_pconn *pc)
{
	struct ulp_listener *l = pc->l;
	u32 i;
	int ret = 0;

	for (i = 0; i < l->o.msgs && !ret; i++) {
		struct ulp_buf *b = &pc->ep.res.bufs[pc->nrecv + i];

		ulp_fill(b->va, l->o.size, 0, 0, i);
		ret = ulp_ep_post_send(&pc->ep, b, l->o.size,
				       ulp_p_serve_send_done);
	}
	ulp_p_post_error(pc, ret);
}

static void ulp_p_established(struct ulp_pconn *pc)
{
	if (pc->l->o.mode == ULP_MODE_SERVE)
		ulp_p_serve_start(pc);
}

static void ulp_p_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_pconn *pc = ulp_p_wc_pconn(wc);

	if (!pc)
		return;
	ulp_p_post_error(pc, ulp_ep_post_recv(&pc->ep, b, ulp_p_recv_done));
}

static void ulp_p_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_pconn *pc = ulp_p_wc_pconn(wc);
	struct ulp_listener *l;

	if (!pc)
		return;
	l = pc->l;
	ib_dma_sync_single_for_cpu(b->res->dev, b->dma, b->size,
				   DMA_BIDIRECTIONAL);
	if (l->o.mode == ULP_MODE_SERVE) {
		atomic64_add(wc->byte_len, &l->bytes);
		pc->serve.rcvd++;
		ulp_p_serve_check(pc);
		return;
	}
	if (l->o.mode == ULP_MODE_ECHO || ulp_verify(b->va, wc->byte_len))
		atomic64_add(wc->byte_len, &l->bytes);
	else
		atomic_inc(&l->bad);
	ulp_p_post_error(pc, ulp_ep_post_send(&pc->ep, b, wc->byte_len,
					      ulp_p_send_done));
}

/* RTS and the REP carrying the listener's name. */
static int ulp_pconn_rep(struct ulp_pconn *pc)
{
	struct pdcm_rep_param rep = {};
	char pdata[sizeof(ULP_REP_TAG) + ULP_NAME_LEN];
	int ret;

	ret = ulp_modify_qp_cm(pc->ep.id, pc->ep.res.qp, IB_QPS_RTS, 0);
	if (ret)
		return ret;
	snprintf(pdata, sizeof(pdata), "%s%s", ULP_REP_TAG, pc->l->name);
	rep.qp_num = pc->ep.res.qp->qp_num;
	rep.starting_psn = pc->psn;
	rep.private_data = pdata;
	rep.private_data_len = strlen(pdata) + 1;
	rep.responder_resources = pc->responder_resources;
	rep.initiator_depth = pc->initiator_depth;
	rep.failover_accepted = 0;
	rep.flow_control = 1;
	rep.rnr_retry_count = 7;
	rep.srq = 0;
	return pdcm_send_rep(pc->ep.id, &rep);
}

/*
 * The listener's delay is over: accept.  A free cancels this work before
 * it destroys the id; a REJ the peer sent meanwhile makes the REP fail
 * with -EINVAL, which is no error of ours.
 */
static void ulp_pconn_rep_work(struct work_struct *work)
{
	struct ulp_pconn *pc = container_of(to_delayed_work(work),
					    struct ulp_pconn, rep_work);
	int ret;

	ret = ulp_pconn_rep(pc);
	if (!ret || ret == -EINVAL)
		return;
	ulp_dbg("%s: delayed REP failed: %d\n", pc->l->name, ret);
	atomic_inc(&pc->l->errors);
	pdcm_send_rej(pc->ep.id, PDCM_REJ_NO_RESOURCES, NULL, 0, NULL, 0);
}

/*
 * QP to RTR with receives posted; then, by the listener's options, an
 * MRA, and (unless the listener holds or delays) RTS and the REP.
 */
static int ulp_pconn_accept(struct ulp_pconn *pc,
			    const struct pdcm_req_event_param *req)
{
	const struct ulp_listen_opts *o = &pc->l->o;
	struct pdcm_id *id = pc->ep.id;
	struct ib_qp *qp = pc->ep.res.qp;
	int ret;

	/*
	 * rdma_cm's order: RTR (with the PSN the REP will carry: pdcm, like
	 * ib_cm, knows our receive PSN only from the REP) and RTS before the
	 * REP, so the QP is ready when the peer's first packet comes.
	 */
	pc->psn = get_random_u32() & 0xffffff;
	pc->responder_resources = req->responder_resources;
	pc->initiator_depth = req->initiator_depth;
	ret = ulp_modify_qp_cm(id, qp, IB_QPS_INIT, 0);
	if (!ret)
		ret = pc->l->ops->post_recvs(pc);
	if (!ret)
		ret = ulp_modify_qp_cm(id, qp, IB_QPS_RTR, pc->psn);
	if (ret)
		return ret;
	if (o->mode == ULP_MODE_FAIL)
		return -ECANCELED;	/* exercise the error path */
	if (o->mra) {
		ret = pdcm_send_mra(id, o->mra | (o->mra_delay ?
					PDCM_MRA_FLAG_DELAY : 0), NULL, 0);
		if (ret)
			return ret;
	}
	if (o->mode == ULP_MODE_HOLD || o->delay_ms)
		return 0;
	return ulp_pconn_rep(pc);
}

static u32 ulp_req_size(const struct pdcm_event *ev)
{
	const struct ulp_req_token *t;

	if (!ev->private_data || ev->private_data_len < ULP_REQ_PDATA_LEN)
		return ULP_DEFAULT_SIZE;
	t = ev->private_data + PDCM_CMA_HDR_SIZE;
	if (t->magic != cpu_to_be32(ULP_MAGIC))
		return ULP_DEFAULT_SIZE;
	return clamp_t(u32, be32_to_cpu(t->size), ULP_MIN_MSG, ULP_MAX_MSG);
}

/* Mode serve: @msgs receives and as many sends; else receives to echo. */
static int ulp_p_setup(struct ulp_pconn *pc, const struct pdcm_event *ev)
{
	const struct ulp_listen_opts *o = &pc->l->o;
	u32 port = ev->param.req_rcvd.port;
	/* the peer's transport: RC, or UC for uc=1 connects */
	enum ib_qp_type type = ev->param.req_rcvd.qp_type == IB_QPT_UC ?
			       IB_QPT_UC : IB_QPT_RC;

	if (o->mode == ULP_MODE_SERVE) {
		pc->nrecv = o->msgs;
		return ulp_res_create(&pc->ep.res, pc->ep.id->device, port,
				      type, 2 * o->msgs, o->size, &pc->ep,
				      ulp_ep_qp_event);
	}
	pc->nrecv = ULP_PASSIVE_BUFS;
	return ulp_res_create(&pc->ep.res, pc->ep.id->device, port, type,
			      ULP_PASSIVE_BUFS, ulp_req_size(ev), &pc->ep,
			      ulp_ep_qp_event);
}

static int ulp_p_post_recvs(struct ulp_pconn *pc)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < pc->nrecv && !ret; i++)
		ret = ulp_post_recv(&pc->ep.res.bufs[i], ulp_p_recv_done);
	return ret;
}

/* The modes accept, hold, reject, fail, echo and serve. */
static const struct ulp_pconn_ops ulp_passive_ops = {
	.setup = ulp_p_setup,
	.post_recvs = ulp_p_post_recvs,
	.established = ulp_p_established,
	.dreq_work = ulp_pconn_dreq_work,
};

static u16 ulp_sa_port(const struct sockaddr_storage *sa)
{
	if (sa->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	if (sa->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return 0;
}

/*
 * A REQ's addresses as pdcm parsed them, against what the sender put in
 * independently of pdcm's parser: on rdma_cm's port spaces the header
 * must have been found (kind CMA), the destination port is the service
 * ID's low 16 bits (IBA annex A11), and a REQ from our own active side
 * carries its run and connection number after the header, from which
 * that side chose its source port.
 */
static bool ulp_req_addr_wrong(struct pdcm_id *id, const struct pdcm_event *ev)
{
	const struct pdcm_req_event_param *req = &ev->param.req_rcvd;
	u64 sid = be64_to_cpu(id->service_id);
	const struct ulp_req_token *t;
	u16 sport;

	if ((sid >> 16) != RDMA_PS_TCP && (sid >> 16) != RDMA_PS_UDP)
		return false;	/* not RDMA CM TCP/UDP: no header expected */
	if (req->addr.kind != PDCM_ADDR_CMA ||
	    ulp_sa_port(&req->addr.dst) != (u16)sid)
		return true;
	if (!ev->private_data || ev->private_data_len < ULP_REQ_PDATA_LEN)
		return false;
	t = ev->private_data + PDCM_CMA_HDR_SIZE;
	if (t->magic != cpu_to_be32(ULP_MAGIC))
		return false;
	sport = ulp_req_sport(be32_to_cpu(t->run), be32_to_cpu(t->idx));
	return ulp_sa_port(&req->addr.src) != sport;
}

static int ulp_req_received(struct pdcm_id *id, const struct pdcm_event *ev)
{
	const struct pdcm_req_event_param *req = &ev->param.req_rcvd;
	struct ulp_listener *l;
	struct ulp_pconn *pc;
	int ret;

	mutex_lock(&ulp_lock);
	l = ulp_listener_get_ctx(req->listen_context);
	if (l) {
		/*
		 * The scenarios compare these with the addresses the peer
		 * connected from and to (its own record, or the stock
		 * tool's command line).
		 */
		snprintf(l->req_src, sizeof(l->req_src), "%pISpc",
			 &req->addr.src);
		snprintf(l->req_dst, sizeof(l->req_dst), "%pISpc",
			 &req->addr.dst);
	}
	mutex_unlock(&ulp_lock);
	if (!l)
		return -ENOENT;	/* being destroyed: pdcm rejects the REQ */
	atomic_inc(&l->reqs);
	if (req->qp_type == IB_QPT_UC)
		atomic_inc(&l->uc_reqs);
	if (ulp_req_addr_wrong(id, ev))
		atomic_inc(&l->addr_errors);
	ulp_dbg("%s: REQ from %pISpc to %pISpc (addr kind %d)\n", l->name,
		&req->addr.src, &req->addr.dst, req->addr.kind);

	if (l->o.mode == ULP_MODE_REJECT) {
		ret = pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0,
				    NULL, 0);
		if (ret)
			atomic_inc(&l->errors);
		else
			atomic_inc(&l->rejected);
		ulp_listener_put(l);
		return 1;
	}

	pc = kzalloc(sizeof(*pc), GFP_KERNEL);
	if (!pc) {
		atomic_inc(&l->errors);
		pdcm_send_rej(id, PDCM_REJ_NO_RESOURCES, NULL, 0, NULL, 0);
		ulp_listener_put(l);
		return 1;
	}
	ulp_get(ULP_OBJ_CONN);
	pc->kind = ULP_CTX_PCONN;
	pc->l = l;
	pc->ep.id = id;
	ulp_ep_init(&pc->ep, l->ops->dreq_work);
	INIT_LIST_HEAD(&pc->node);
	INIT_DELAYED_WORK(&pc->rep_work, ulp_pconn_rep_work);
	id->context = pc;

	if (!id->device) {
		pr_warn_once("pdcm_ulp: REQ delivered on an id without a device\n");
		ret = -ENODEV;
		goto reject;
	}
	ret = l->ops->setup(pc, ev);
	if (ret)
		goto reject;
	ret = ulp_pconn_accept(pc, req);
	if (ret)
		goto reject;

	mutex_lock(&ulp_lock);
	if (l->dying) {
		mutex_unlock(&ulp_lock);
		ulp_pconn_free(pc, false);
		return 1;
	}
	list_add_tail(&pc->node, &l->conns);
	atomic_inc(&l->live);
	ulp_get(ULP_OBJ_ID);
	if (l->o.delay_ms && l->o.mode != ULP_MODE_HOLD)
		queue_delayed_work(ulp_wq, &pc->rep_work,
				   msecs_to_jiffies(l->o.delay_ms));
	mutex_unlock(&ulp_lock);
	return 0;

reject:
	ulp_dbg("%s: accepting failed: %d\n", l->name, ret);
	atomic_inc(&l->errors);
	pdcm_send_rej(id, PDCM_REJ_NO_RESOURCES, NULL, 0, NULL, 0);
	ulp_pconn_free(pc, false);
	return 1;
}

static int ulp_passive_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct ulp_pconn *pc = id->context;
	struct ulp_listener *l;

	if (ev->event == PDCM_REQ_RECEIVED)
		return ulp_req_received(id, ev);
	if (ev->event == PDCM_SIDR_REQ_RECEIVED)
		return -EPROTONOSUPPORT;	/* not ours: pdcm rejects, frees */
	if (!pc || pc->kind != ULP_CTX_PCONN) {
		pr_warn_once("pdcm_ulp: %s on an id that is no connection\n",
			     pdcm_event_name(ev->event));
		return 0;
	}
	l = pc->l;
	ulp_dbg("%s: passive %s in %s\n", l->name, pdcm_event_name(ev->event),
		pdcm_state_name(id->state));

	switch (ev->event) {
	case PDCM_RTU_RECEIVED:
	case PDCM_USER_ESTABLISHED:
		if (!pc->established) {
			pc->established = true;
			atomic_inc(&l->established);
			l->ops->established(pc);
		}
		return 0;
	case PDCM_DREP_RECEIVED:
		atomic_inc(&l->drep);
		return 0;
	case PDCM_DREQ_RECEIVED:
		atomic_inc(&l->dreq);
		if (pdcm_send_drep(id, NULL, 0))
			atomic_inc(&l->errors);
		return 0;
	case PDCM_TIMEWAIT_EXIT:
		atomic_inc(&l->timewait);
		return ulp_pconn_release(pc);
	case PDCM_REJ_RECEIVED:
	case PDCM_REP_ERROR:
	case PDCM_DREQ_ERROR:
	case PDCM_SEND_ERROR:
		atomic_inc(&l->errors);
		return ulp_pconn_release(pc);
	default:
		return 0;
	}
}

static struct ulp_listener *ulp_listener_find(const char *name)
{
	struct ulp_listener *l;

	lockdep_assert_held(&ulp_lock);
	list_for_each_entry(l, &ulp_listeners, node)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

/*
 * The listener's compare: on the RDMA CM header's destination address
 * (@addr), its IP version only ("ipv4", "ipv6") or nothing ("any"); with
 * the "from" option also on its source address.
 */
static int ulp_build_compare(struct ulp_listener *l, const char *addr,
			     const struct pdcm_compare **cmp)
{
	struct sockaddr_storage dst = {}, src;
	const struct sockaddr *s = NULL, *d = NULL;

	if (l->o.from[0]) {
		if (ulp_parse_addr(l->o.from, &src))
			return -EINVAL;
		s = (const struct sockaddr *)&src;
	}
	if (!strcmp(addr, "any")) {
		strscpy(l->addr, "any", sizeof(l->addr));
	} else if (!strcmp(addr, "ipv4") || !strcmp(addr, "ipv6")) {
		/* the unspecified address: the family only */
		strscpy(l->addr, addr, sizeof(l->addr));
		dst.ss_family = addr[3] == '4' ? AF_INET : AF_INET6;
		d = (const struct sockaddr *)&dst;
	} else if (!ulp_parse_addr(addr, &dst)) {
		snprintf(l->addr, sizeof(l->addr), "%pISc", &dst);
		d = (const struct sockaddr *)&dst;
	} else {
		return -EINVAL;
	}
	if (!s && !d) {
		*cmp = NULL;
		return 0;
	}
	*cmp = &l->cmp;
	return pdcm_compare_cma_addrs(&l->cmp, s, d);
}

/**
 * ulp_listen() - create listener @name
 * @name: unique among live listeners
 * @sid: service ID
 * @addr: an IPv4/IPv6 address, "ipv4"/"ipv6" (family only), or "any"
 * @dev: device, or NULL for all
 * @port: port, or 0 for any
 * @o: mode, backlog and the other options (struct ulp_listen_opts)
 *
 * A listener of mode rping serves rping's pings (rping.c) with buffers of
 * @o->size bytes.
 *
 * Context: process, ctl serialised.
 * Return: 0 or a negative errno.
 */
int ulp_listen(const char *name, __be64 sid, const char *addr,
	       struct ib_device *dev, u32 port,
	       const struct ulp_listen_opts *o)
{
	struct pdcm_listen_attr attr = {};
	struct ulp_listener *l, *old;
	struct pdcm_id *id;
	int ret;

	if (strlen(name) >= ULP_NAME_LEN)
		return -ENAMETOOLONG;
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->kind = ULP_CTX_LISTENER;
	kref_init(&l->ref);
	strscpy(l->name, name, sizeof(l->name));
	strscpy(l->devname, dev ? dev_name(&dev->dev) : "all",
		sizeof(l->devname));
	l->sid = sid;
	l->o = *o;
	l->ops = o->mode == ULP_MODE_RPING ? &ulp_rping_pconn_ops :
					     &ulp_passive_ops;
	INIT_LIST_HEAD(&l->conns);
	attr.service_id = sid;
	attr.port = port;
	attr.backlog = o->backlog;
	ret = ulp_build_compare(l, addr, &attr.compare);
	if (ret)
		goto free;

	id = pdcm_create_id(dev, ulp_passive_handler, l);
	if (IS_ERR_OR_NULL(id)) {
		ret = id ? PTR_ERR(id) : -ENOMEM;
		goto free;
	}
	ulp_get(ULP_OBJ_ID);
	l->id = id;

	mutex_lock(&ulp_lock);
	old = ulp_listener_find(name);
	if (old && !old->dying) {
		mutex_unlock(&ulp_lock);
		ret = -EEXIST;
		goto destroy;
	}
	if (old) {		/* the record of a destroyed one */
		list_del(&old->node);
		ulp_listener_put(old);
	}
	list_add_tail(&l->node, &ulp_listeners);
	mutex_unlock(&ulp_lock);

	ret = pdcm_listen(id, &attr);
	if (ret) {
		mutex_lock(&ulp_lock);
		list_del(&l->node);
		mutex_unlock(&ulp_lock);
		goto destroy;
	}
	ulp_get(ULP_OBJ_LISTENER);
	return 0;

destroy:
	pdcm_destroy_id(id);
	ulp_put(ULP_OBJ_ID);
free:
	ulp_listener_put(l);
	return ret;
}

/* Destroy @l's id and its connections; the record stays until reset. */
static void ulp_listener_close(struct ulp_listener *l)
{
	struct ulp_pconn *pc, *tmp;
	struct pdcm_id *id;
	LIST_HEAD(conns);

	mutex_lock(&ulp_lock);
	l->dying = true;
	list_for_each_entry(pc, &l->conns, node)
		pc->detached = true;
	list_splice_init(&l->conns, &conns);
	id = l->id;
	l->id = NULL;
	mutex_unlock(&ulp_lock);

	/*
	 * Connections first: pdcm_destroy_id() of a listen waits until every
	 * REQ it delivered is answered or its id destroyed.  New REQs find
	 * @dying and are refused by the handler meanwhile.
	 */
	list_for_each_entry_safe(pc, tmp, &conns, node) {
		list_del(&pc->node);
		atomic_dec(&l->live);
		ulp_pconn_free(pc, true);
	}
	if (id) {
		pdcm_destroy_id(id);
		ulp_put(ULP_OBJ_ID);
		ulp_put(ULP_OBJ_LISTENER);
	}
}

/**
 * ulp_destroy_listener() - destroy listener @name and its connections
 * @name: the listener
 *
 * Context: process, ctl serialised.
 * Return: 0, or -ENOENT if no live listener has that name.
 */
int ulp_destroy_listener(const char *name)
{
	struct ulp_listener *l;

	mutex_lock(&ulp_lock);
	l = ulp_listener_find(name);
	if (l && l->dying)
		l = NULL;
	if (l)
		kref_get(&l->ref);
	mutex_unlock(&ulp_lock);
	if (!l)
		return -ENOENT;
	ulp_listener_close(l);
	ulp_listener_put(l);
	return 0;
}

/**
 * ulp_destroy_all_listeners() - close every listener, of every mode
 *
 * Their connections go first; their results lines stay (state=destroyed).
 *
 * Context: process, ctl serialised.
 */
void ulp_destroy_all_listeners(void)
{
	struct ulp_listener *l;

	for (;;) {
		mutex_lock(&ulp_lock);
		list_for_each_entry(l, &ulp_listeners, node)
			if (!l->dying)
				break;
		if (list_entry_is_head(l, &ulp_listeners, node)) {
			mutex_unlock(&ulp_lock);
			return;
		}
		kref_get(&l->ref);
		mutex_unlock(&ulp_lock);
		ulp_listener_close(l);
		ulp_listener_put(l);
	}
}

/**
 * ulp_free_listeners() - close every listener and drop their records
 *
 * Context: process, ctl serialised.
 */
void ulp_free_listeners(void)
{
	struct ulp_listener *l, *tmp;

	ulp_destroy_all_listeners();
	mutex_lock(&ulp_lock);
	list_for_each_entry_safe(l, tmp, &ulp_listeners, node) {
		list_del(&l->node);
		ulp_listener_put(l);
	}
	mutex_unlock(&ulp_lock);
}

/**
 * ulp_show_listeners() - one "listener" line each
 * @m: the results file
 *
 * Context: ulp_lock held.
 */
void ulp_show_listeners(struct seq_file *m)
{
	struct ulp_listener *l;

	lockdep_assert_held(&ulp_lock);
	list_for_each_entry(l, &ulp_listeners, node) {
		seq_printf(m,
			   "listener %s sid=0x%016llx addr=%s dev=%s mode=%s state=%s reqs=%d established=%d bytes=%lld bad=%d disconnected=%d timewait=%d rejected=%d errors=%d addr_errors=%d live=%d req_src=%s req_dst=%s uc_reqs=%d",
			   l->name, be64_to_cpu(l->sid), l->addr, l->devname,
			   ulp_mode_names[l->o.mode],
			   l->dying ? "destroyed" : "listening",
			   atomic_read(&l->reqs), atomic_read(&l->established),
			   (long long)atomic64_read(&l->bytes),
			   atomic_read(&l->bad),
			   atomic_read(&l->dreq) + atomic_read(&l->drep),
			   atomic_read(&l->timewait), atomic_read(&l->rejected),
			   atomic_read(&l->errors),
			   atomic_read(&l->addr_errors), atomic_read(&l->live),
			   l->req_src[0] ? l->req_src : "-",
			   l->req_dst[0] ? l->req_dst : "-",
			   atomic_read(&l->uc_reqs));
		if (l->ops->show)
			l->ops->show(m, l);
		seq_putc(m, '\n');
	}
}
