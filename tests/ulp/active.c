// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The active side: one "connect" command is a run of COUNT RC connections
 * opened at once.  Each resolves its path with pdcm_resolve_path(), sends
 * a REQ whose private data is an RDMA CM header plus a token (run,
 * connection, message count and size), moves its QP to INIT with
 * pdcm_init_qp_attr(), and on REP goes to RTR/RTS and sends RTU.  Then it
 * sends MSGS messages of SIZE bytes, one at a time, each checked against
 * the echo, and disconnects: DREQ, DREP, and (unless asked not to) the
 * timewait exit.  The command returns when every connection is finished
 * or the timeout passes; then everything is destroyed and one record is
 * kept for "results".
 *
 * An "rping" command is a run of one connection set up the same way, with
 * rping's data path instead of the echoed messages (struct ulp_run_ops,
 * rping.c).  Locking per connection: struct ulp_aconn.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ulp.h"

static struct ulp_aconn *ulp_buf_aconn(const struct ulp_buf *b)
{
	return container_of(ulp_buf_ep(b), struct ulp_aconn, ep);
}

static void ulp_aconn_finish(struct ulp_aconn *ac, enum ulp_conn_result res,
			     int err)
{
	lockdep_assert_held(&ac->mutex);
	if (ac->done)
		return;
	ac->done = true;
	ac->rec.result = res;
	ac->rec.err = err;
	if (atomic_dec_and_test(&ac->run->pending))
		wake_up_all(&ulp_run_wq);
}

/**
 * ulp_aconn_data_end() - the data phase of @ac is over: disconnect
 * @ac: the connection
 * @err: it failed (the result is data_error)
 *
 * The first call counts; the DREQ work disconnects (unless the run waits
 * for the peer's DREQ, a->peer_disc, and the data was good).
 *
 * Context: any, completion handlers included.
 */
void ulp_aconn_data_end(struct ulp_aconn *ac, bool err)
{
	unsigned long flags;

	spin_lock_irqsave(&ac->ep.lock, flags);
	if (!ac->ep.closing && !ac->data_ended) {
		ac->data_ended = true;
		ac->data_err = err;
		queue_work(ulp_wq, &ac->ep.dreq_work);
	}
	spin_unlock_irqrestore(&ac->ep.lock, flags);
}

static void ulp_a_send_done(struct ib_cq *cq, struct ib_wc *wc);
static void ulp_a_recv_done(struct ib_cq *cq, struct ib_wc *wc);

/* Post message @ac->echo.seq and the receive for its echo. */
static int ulp_aconn_post(struct ulp_aconn *ac)
{
	const struct ulp_connect_args *a = ac->run->a;
	struct ulp_buf *sb = &ac->ep.res.bufs[0], *rb = &ac->ep.res.bufs[1];
	int ret;

	ac->echo.sdone = false;
	ac->echo.rdone = false;
	ret = ulp_ep_post_recv(&ac->ep, rb, ulp_a_recv_done);
	if (ret)
		return ret == -ESHUTDOWN ? 0 : ret;
	ulp_fill(sb->va, a->size, ac->run->no, ac->idx, ac->echo.seq);
	ret = ulp_ep_post_send(&ac->ep, sb, a->size, ulp_a_send_done);
	return ret == -ESHUTDOWN ? 0 : ret;
}

static void ulp_aconn_next(struct ulp_aconn *ac)
{
	if (++ac->echo.seq == ac->run->a->msgs)
		ulp_aconn_data_end(ac, false);
	else if (ulp_aconn_post(ac))
		ulp_aconn_data_end(ac, true);
}

static void ulp_a_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_aconn *ac = ulp_buf_aconn(b);

	if (wc->status != IB_WC_SUCCESS) {
		ulp_aconn_data_end(ac, true);
		return;
	}
	ac->echo.sdone = true;
	if (ac->echo.rdone)
		ulp_aconn_next(ac);
}

static void ulp_a_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_aconn *ac = ulp_buf_aconn(b);
	u32 size = ac->run->a->size;

	if (wc->status != IB_WC_SUCCESS) {
		ulp_aconn_data_end(ac, true);
		return;
	}
	ib_dma_sync_single_for_cpu(b->res->dev, b->dma, b->size,
				   DMA_BIDIRECTIONAL);
	if (wc->byte_len != size ||
	    (ac->run->a->verify && memcmp(b->va, ac->ep.res.bufs[0].va, size))) {
		ulp_aconn_data_end(ac, true);
		return;
	}
	ac->rec.verified += size;
	ac->echo.rdone = true;
	if (ac->echo.sdone)
		ulp_aconn_next(ac);
}

/* Connect's data phase: the first message. */
static int ulp_aconn_echo_start(struct ulp_aconn *ac)
{
	ac->echo.seq = 0;
	return ulp_aconn_post(ac);
}

const struct ulp_run_ops ulp_connect_ops = {
	.kind = ULP_REC_RUN,
	.nbufs = 2,
	.token = true,
	.start = ulp_aconn_echo_start,
};

/*
 * Did the data phase end well (or was there none)?  Completion handlers
 * set @data_ended and @data_err; @mutex held.
 */
static bool ulp_aconn_data_ok(struct ulp_aconn *ac)
{
	lockdep_assert_held(&ac->mutex);
	return ac->rec.established && !READ_ONCE(ac->data_err) &&
	       (!ac->run->a->msgs || READ_ONCE(ac->data_ended));
}

static void ulp_aconn_dreq_work(struct work_struct *work)
{
	struct ulp_aconn *ac = container_of(work, struct ulp_aconn,
					    ep.dreq_work);
	int ret;

	mutex_lock(&ac->mutex);
	/*
	 * peer_disc: after good data the peer's DREQ ends the connection;
	 * if it came first, it waited for this.
	 */
	if (!ac->done && !ac->data_err && ac->run->a->peer_disc) {
		if (ac->rec.dreq_rcvd)
			ulp_aconn_finish(ac, ULP_RES_OK, 0);
	} else if (!ac->done) {
		if (ac->data_err)
			ulp_aconn_finish(ac, ULP_RES_DATA_ERROR, -EIO);
		ret = pdcm_send_dreq(ac->ep.id, NULL, 0);
		if (ret)
			ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
	}
	mutex_unlock(&ac->mutex);
}

/* RTR, RTS, RTU; then the data phase, or the DREQ if there is none. */
static void ulp_aconn_rep(struct ulp_aconn *ac, const struct pdcm_event *ev)
{
	struct pdcm_id *id = ac->ep.id;
	struct ib_qp *qp = ac->ep.res.qp;
	const char *pd = ev->private_data;
	size_t tag = strlen(ULP_REP_TAG);
	int ret;

	lockdep_assert_held(&ac->mutex);
	if (ac->done)
		return;
	ac->rec.setup_us = ktime_us_delta(ktime_get(), ac->t_req);
	if (pd && ev->private_data_len > tag && !memcmp(pd, ULP_REP_TAG, tag))
		strscpy(ac->rec.listener, pd + tag,
			min_t(size_t, sizeof(ac->rec.listener),
			      ev->private_data_len - tag));

	ret = ulp_modify_qp_cm(id, qp, IB_QPS_RTR, 0);
	if (!ret)
		ret = ulp_modify_qp_cm(id, qp, IB_QPS_RTS, 0);
	if (ret) {
		pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
		ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
		return;
	}
	ret = pdcm_send_rtu(id, NULL, 0);
	if (ret) {
		ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
		return;
	}
	ac->rec.established = 1;
	ac->t_est = ktime_get();

	if (!ac->run->a->msgs) {
		if (ac->run->a->peer_disc)
			return;
		ret = pdcm_send_dreq(id, NULL, 0);
		if (ret)
			ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
		return;
	}
	ret = ac->run->ops->start(ac);
	if (ret) {
		ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
		pdcm_send_dreq(id, NULL, 0);
	}
}

static int ulp_active_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct ulp_aconn *ac = id->context;
	bool ok;

	ulp_dbg("run %u conn %u: %s in %s\n", ac->run->no, ac->idx,
		pdcm_event_name(ev->event), pdcm_state_name(id->state));
	mutex_lock(&ac->mutex);
	ok = ulp_aconn_data_ok(ac);
	switch (ev->event) {
	case PDCM_REP_RECEIVED:
		ulp_aconn_rep(ac, ev);
		break;
	case PDCM_REJ_RECEIVED:
		ac->rec.rej_reason = ev->param.rej_rcvd.reason;
		ulp_aconn_finish(ac, ULP_RES_REJ, 0);
		break;
	case PDCM_REQ_ERROR:
		ulp_aconn_finish(ac, ULP_RES_REQ_ERROR, -ETIMEDOUT);
		break;
	case PDCM_SEND_ERROR:
		ulp_aconn_finish(ac, ULP_RES_ERROR, -EIO);
		break;
	case PDCM_DREQ_RECEIVED:
		ac->rec.dreq_rcvd = 1;
		pdcm_send_drep(id, NULL, 0);
		/*
		 * A peer may disconnect right after its last send, before our
		 * completion handler has seen it: with peer_disc the end of
		 * the data phase (the DREQ work) decides.
		 */
		if (ok || !ac->run->a->peer_disc || READ_ONCE(ac->data_ended))
			ulp_aconn_finish(ac, ok ? ULP_RES_OK :
					 ULP_RES_PEER_DISC, 0);
		break;
	case PDCM_DREP_RECEIVED:
		ac->rec.drep = 1;
		if (!ac->run->a->wait_timewait)
			ulp_aconn_finish(ac, ok ? ULP_RES_OK : ULP_RES_ERROR, 0);
		break;
	case PDCM_DREQ_ERROR:
		ulp_aconn_finish(ac, ULP_RES_ERROR, -ETIMEDOUT);
		break;
	case PDCM_TIMEWAIT_EXIT:
		ac->rec.timewait = 1;
		ulp_aconn_finish(ac, ok && ac->rec.drep ? ULP_RES_OK :
				 ULP_RES_ERROR, 0);
		break;
	default:
		break;
	}
	mutex_unlock(&ac->mutex);
	return 0;
}

/* Build the REQ private data: RDMA CM header, then (@len allowing) the token. */
static int ulp_req_pdata(struct ulp_aconn *ac, u8 *pdata, size_t len)
{
	const struct ulp_connect_args *a = ac->run->a;
	struct sockaddr_storage src = a->src, dst = a->dst;
	struct ulp_req_token *t = (void *)(pdata + PDCM_CMA_HDR_SIZE);
	__be16 sport = cpu_to_be16(ulp_req_sport(ac->run->no, ac->idx));
	__be16 dport = cpu_to_be16((u16)be64_to_cpu(a->sid));

	if (src.ss_family == AF_INET) {
		((struct sockaddr_in *)&src)->sin_port = sport;
		((struct sockaddr_in *)&dst)->sin_port = dport;
	} else {
		((struct sockaddr_in6 *)&src)->sin6_port = sport;
		((struct sockaddr_in6 *)&dst)->sin6_port = dport;
	}
	memset(pdata, 0, len);
	if (len >= ULP_REQ_PDATA_LEN) {
		t->magic = cpu_to_be32(ULP_MAGIC);
		t->run = cpu_to_be32(ac->run->no);
		t->idx = cpu_to_be32(ac->idx);
		t->msgs = cpu_to_be32(a->msgs);
		t->size = cpu_to_be32(a->size);
	}
	return pdcm_cma_hdr_build(pdata, len, (struct sockaddr *)&src,
				  (struct sockaddr *)&dst);
}

/* Resources, path, REQ, INIT.  Errors finish the connection. */
static void ulp_aconn_start(struct ulp_aconn *ac)
{
	const struct ulp_connect_args *a = ac->run->a;
	const struct ulp_run_ops *ops = ac->run->ops;
	size_t pdata_len = ops->token ? ULP_REQ_PDATA_LEN : PDCM_CMA_HDR_SIZE;
	struct pdcm_req_param req = {};
	u8 pdata[ULP_REQ_PDATA_LEN];
	struct pdcm_id *id;
	int ret;

	ret = ulp_res_create(&ac->ep.res, a->dev, a->port,
			     a->qp_type ?: IB_QPT_RC, ops->nbufs, a->size,
			     &ac->ep, NULL);
	if (!ret && ops->setup)
		ret = ops->setup(ac);
	if (ret)
		goto fail;
	id = pdcm_create_id(a->dev, ulp_active_handler, ac);
	if (IS_ERR_OR_NULL(id)) {
		ret = id ? PTR_ERR(id) : -ENOMEM;
		goto fail;
	}
	ulp_get(ULP_OBJ_ID);
	ac->ep.id = id;
	ret = pdcm_resolve_path(a->dev, a->port, (struct sockaddr *)&a->src,
				(struct sockaddr *)&a->dst, &ac->path);
	if (ret)
		goto fail;
	if (a->pkey)		/* a P_Key of the caller's choice */
		ac->path.pkey = cpu_to_be16(a->pkey);
	ret = ulp_req_pdata(ac, pdata, pdata_len);
	if (ret)
		goto fail;

	req.primary_path = &ac->path;
	req.port = a->port;
	req.service_id = a->sid;
	req.qp_num = ac->ep.res.qp->qp_num;
	req.qp_type = a->qp_type ?: IB_QPT_RC;
	req.starting_psn = get_random_u32() & 0xffffff;
	req.private_data = pdata;
	req.private_data_len = pdata_len;
	/* one RDMA READ each way at a time, as rping asks; none on UC */
	req.responder_resources = req.qp_type == IB_QPT_RC;
	req.initiator_depth = req.qp_type == IB_QPT_RC;
	req.remote_cm_response_timeout = a->cm_timeout;
	req.local_cm_response_timeout = a->cm_timeout;
	req.flow_control = 1;
	req.retry_count = 7;
	req.rnr_retry_count = 7;
	req.max_cm_retries = a->cm_retries;
	req.srq = 0;

	mutex_lock(&ac->mutex);
	ac->t_req = ktime_get();
	ret = pdcm_send_req(id, &req);
	if (!ret) {
		/* The REP handler waits for @mutex: INIT comes first. */
		ret = ulp_modify_qp_cm(id, ac->ep.res.qp, IB_QPS_INIT, 0);
		if (ret)
			ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
	} else {
		ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
	}
	mutex_unlock(&ac->mutex);
	if (ret)
		ulp_dbg("run %u conn %u: REQ/INIT failed: %d\n", ac->run->no,
			ac->idx, ret);
	return;

fail:
	ulp_dbg("run %u conn %u: setup failed: %d\n", ac->run->no, ac->idx,
		ret);
	mutex_lock(&ac->mutex);
	ulp_aconn_finish(ac, ULP_RES_ERROR, ret);
	mutex_unlock(&ac->mutex);
}

static void ulp_aconn_teardown(struct ulp_aconn *ac)
{
	ulp_ep_quiesce(&ac->ep);
	ulp_ep_free(&ac->ep, true);
	mutex_destroy(&ac->mutex);
	ulp_put(ULP_OBJ_CONN);
}

static void ulp_run_record(struct ulp_run *run, struct ulp_record *rec,
			   ktime_t t0, ktime_t t_end)
{
	const struct ulp_connect_args *a = run->a;
	ktime_t t_last = t0;
	u32 i;

	rec->kind = run->ops->kind;
	rec->no = run->no;
	rec->sid = a->sid;
	snprintf(rec->src, sizeof(rec->src), "%pISc", &a->src);
	snprintf(rec->dst, sizeof(rec->dst), "%pISc", &a->dst);
	rec->count = a->count;
	rec->msgs = a->msgs;
	rec->size = a->size;
	rec->setup_min = U32_MAX;
	for (i = 0; i < a->count; i++) {
		struct ulp_aconn *ac = &run->conns[i];
		struct ulp_conn_record *c = &ac->rec;

		rec->conns[i] = *c;
		if (c->established) {
			rec->connected++;
			rec->setup_min = min(rec->setup_min, c->setup_us);
			rec->setup_max = max(rec->setup_max, c->setup_us);
			rec->setup_sum += c->setup_us;
			if (ktime_after(ac->t_est, t_last))
				t_last = ac->t_est;
		}
		if (c->result != ULP_RES_OK)
			rec->failed++;
		if (c->result == ULP_RES_TIMEOUT)
			rec->timedout++;
		if (c->result == ULP_RES_REJ)
			rec->rej++;
		rec->disconnected += c->drep;
		rec->timewait += c->timewait;
		rec->verified += c->verified;
	}
	if (!rec->connected)
		rec->setup_min = 0;
	rec->connect_us = ktime_us_delta(t_last, t0);
	rec->elapsed_us = ktime_us_delta(t_end, t0);
	if (rec->connect_us)
		rec->cps = div64_u64((u64)rec->connected * USEC_PER_SEC,
				     rec->connect_us);
}

/**
 * ulp_run() - one run of @a->count connections
 * @a: what to connect to and what to send
 * @ops: the kind of run: &ulp_connect_ops or &ulp_rping_run_ops
 *
 * Context: process; sleeps until the run is over or @a->timeout_ms.
 * Return: 0 once the run is recorded (whatever its connections did), or
 * a negative errno if nothing could be started.
 */
int ulp_run(const struct ulp_connect_args *a, const struct ulp_run_ops *ops)
{
	struct ulp_record *rec;
	struct ulp_run *run;
	ktime_t t0, t_end;
	int ret = 0;
	u32 i;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!run || !rec)
		goto nomem;
	run->conns = kvcalloc(a->count, sizeof(*run->conns), GFP_KERNEL);
	rec->conns = kvcalloc(a->count, sizeof(*rec->conns), GFP_KERNEL);
	if (!run->conns || !rec->conns)
		goto nomem;
	run->a = a;
	run->ops = ops;
	run->no = a->no;
	atomic_set(&run->pending, a->count);
	for (i = 0; i < a->count; i++) {
		struct ulp_aconn *ac = &run->conns[i];

		ac->run = run;
		ac->idx = i;
		mutex_init(&ac->mutex);
		ulp_ep_init(&ac->ep, ulp_aconn_dreq_work);
		ulp_get(ULP_OBJ_CONN);
	}

	t0 = ktime_get();
	for (i = 0; i < a->count; i++)
		ulp_aconn_start(&run->conns[i]);
	wait_event_interruptible_timeout(ulp_run_wq,
					 !atomic_read(&run->pending) ||
					 atomic_read(&ulp_abort_gen) != a->gen,
					 msecs_to_jiffies(a->timeout_ms));
	t_end = ktime_get();

	for (i = 0; i < a->count; i++) {
		struct ulp_aconn *ac = &run->conns[i];

		mutex_lock(&ac->mutex);
		ulp_aconn_finish(ac, ULP_RES_TIMEOUT, -ETIMEDOUT);
		mutex_unlock(&ac->mutex);
	}
	for (i = 0; i < a->count; i++)
		ulp_aconn_teardown(&run->conns[i]);

	ulp_run_record(run, rec, t0, t_end);
	if (rec->failed == a->count && rec->conns[0].result == ULP_RES_ERROR)
		ret = rec->conns[0].err;
	ulp_record_add(rec);
	kvfree(run->conns);
	kfree(run);
	return ret;

nomem:
	if (rec)
		kvfree(rec->conns);
	kfree(rec);
	if (run)
		kvfree(run->conns);
	kfree(run);
	return -ENOMEM;
}
