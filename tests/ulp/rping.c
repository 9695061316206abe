// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdma-core's rping (librdmacm/examples/rping.c), both roles, over RC
 * connections that pdcm sets up.
 *
 * One ping.  Every SEND of the protocol is a 16-byte advertisement (a
 * buffer's address, rkey and length, big-endian) and rping refuses a
 * receive of any other length:
 *
 *   client                                    server
 *   SEND source (addr, rkey, len)      ->
 *                                      <-     RDMA READ of the source
 *                                      <-     SEND "go" (content unused)
 *   SEND sink (addr, rkey, len)        ->
 *                                      <-     RDMA WRITE of what it read
 *                                      <-     SEND "go"
 *
 * The client's source holds "rdma-ping-N: " and then the letters 'A' to
 * 'z' in turn, starting one letter further on every ping, and ends in a
 * NUL.  After the second "go" the client compares its sink with the
 * source; after its last ping it disconnects.
 *
 * Server ("rping_listen"): a listener with a compare on the RDMA CM header.
 * Each connection serves pings until the peer disconnects and checks every
 * buffer it reads against the pattern.  It needs no MR: it only reads into
 * and writes from its own buffers (the PD's local DMA lkey).
 *
 * Client ("rping"): one connection.  Its source (remote read) and its sink
 * (remote write, local write) are registered with IB_WR_REG_MR work
 * requests once the QP is in RTS; then come the pings, then DREQ, DREP and
 * the timewait exit.  The command returns when that is over and leaves a
 * record for "results".
 *
 * The data path runs in the completion handlers of a connection's CQ, one
 * at a time.  They never sleep, post only under @lock after checking
 * @closing, and leave disconnecting to @dreq_work.  The passive side's
 * ownership rules are passive.c's: the REQ handler owns a connection until
 * it is on its listener's list, then whoever takes it off under ulp_lock.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/inet.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ulp.h"

#define ULP_RPING_INFO_LEN	16
#define ULP_RPING_LISTEN_SIZE	65536	/* a server's default buffer size */
#define ULP_RPING_FIRST		'A'	/* the letters of the pattern */
#define ULP_RPING_LAST		'z'

/* What each SEND carries. */
struct ulp_rping_info {
	__be64 addr;
	__be32 rkey;
	__be32 len;
};

/* A connection's buffers; a server has the first three. */
enum {
	ULP_RB_RECV,		/* every receive */
	ULP_RB_CTRL,		/* server: "go"; client: source advertisement */
	ULP_RB_DATA,		/* server: read into, written from; client: source */
	ULP_RB_SINK_ADV,	/* client: sink advertisement */
	ULP_RB_SINK,		/* client: the sink */
	ULP_RB_NR
};

#define ULP_RB_SERVER	(ULP_RB_DATA + 1)

/* Which of the two MRs of a client (ulp_qpres.mrs). */
enum { ULP_MR_SRC, ULP_MR_SINK };

/* Where a connection is in the current ping. */
enum ulp_rstep {
	ULP_RS_IDLE,		/* not yet serving / registering */
	ULP_RS_WAIT_SRC,	/* server: waiting for a source */
	ULP_RS_READING,
	ULP_RS_WAIT_SINK,
	ULP_RS_WRITING,
	ULP_RS_WAIT_GO1,	/* client: source advertised */
	ULP_RS_WAIT_GO2,	/* client: sink advertised */
	ULP_RS_DONE,		/* no more pings (finished or failed) */
};

/* Tags of what a pdcm_id's context points to. */
enum {
	ULP_RCTX_LISTENER = 0x524c5354,
	ULP_RCTX_CONN = 0x52434f4e,
};

struct ulp_rrun;

struct ulp_rlistener {
	u32 kind;			/* ULP_RCTX_LISTENER */
	struct kref ref;		/* the list's, and one per connection */
	struct list_head node;		/* in ulp_rping_listeners */
	char name[ULP_NAME_LEN];
	char addr[ULP_ADDR_LEN];
	char devname[IB_DEVICE_NAME_MAX];
	__be64 sid;
	u32 size;			/* of each connection's buffers */
	struct pdcm_compare cmp;
	struct pdcm_id *id;		/* NULL once destroyed */
	bool dying;			/* under ulp_lock */
	struct list_head conns;		/* struct ulp_rconn, under ulp_lock */
	atomic_t reqs, established, pings, verified, bad;
	atomic_t dreq, drep, timewait, errors, live;
	atomic_t rd_atomic, dest_rd_atomic;	/* the last connection's QP */
	atomic64_t read, written;
};

struct ulp_rconn {
	u32 kind;			/* ULP_RCTX_CONN */
	struct list_head node;		/* server: in ->l->conns */
	struct ulp_rlistener *l;	/* server: holds a reference */
	struct ulp_rrun *run;		/* client */
	struct pdcm_id *id;
	struct ulp_qpres res;
	u32 size;			/* of each buffer */
	spinlock_t lock;		/* @closing vs. posting and queueing */
	bool closing;
	bool stopped;			/* under @lock: ulp_rping_stop() ran */
	bool detached;			/* server, under ulp_lock: a close owns it */
	bool established;		/* server: pdcm handler only */
	struct work_struct dreq_work;
	struct ib_cqe reg_cqe;
	/* data path: completion handlers only */
	enum ulp_rstep step;
	bool failed;
	u64 raddr;			/* the last advertisement */
	u32 rkey, rlen;
	u32 len, wlen;			/* server: bytes read, written */
	u32 regs;			/* client: registrations done */
	u32 pings;			/* finished */
	u32 verified, bad;		/* client */
};

struct ulp_rrun {
	const struct ulp_connect_args *a;	/* a->msgs: pings */
	struct ulp_rconn c;
	struct mutex mutex;		/* CM state, @done */
	bool done;
	bool data_ok;			/* every ping done and verified */
	bool data_err;			/* a ping failed */
	bool established, drep, timewait;
	u8 result;
	u16 rej_reason;
	int err;
	ktime_t t_req;
	u32 setup_us;
	u8 rd_atomic, dest_rd_atomic;	/* of the QP in RTS */
	struct sa_path_rec path;
};

struct ulp_rping_rec {
	struct list_head node;		/* in ulp_rping_records */
	unsigned int no;
	__be64 sid;
	char src[ULP_ADDR_LEN], dst[ULP_ADDR_LEN];
	u32 count, size;
	u8 result;
	u16 rej_reason;
	int err;
	bool established, drep, timewait;
	u32 pings, verified, bad;
	u8 rd_atomic, dest_rd_atomic;
	u32 setup_us;
	u64 elapsed_us;
};

/* Both under ulp_lock. */
static LIST_HEAD(ulp_rping_listeners);
static LIST_HEAD(ulp_rping_records);

/* --- the pattern --- */

struct ulp_rping_head {
	char s[32];			/* "rdma-ping-N: " */
	u32 len;
};

static void ulp_rping_head(struct ulp_rping_head *h, u32 ping)
{
	h->len = scnprintf(h->s, sizeof(h->s), "rdma-ping-%u: ", ping);
}

/* Byte @i of ping @ping's buffer of @len bytes. */
static u8 ulp_rping_byte(const struct ulp_rping_head *h, u32 len, u32 ping,
			 u32 i)
{
	const u32 letters = ULP_RPING_LAST - ULP_RPING_FIRST + 1;

	if (i == len - 1)
		return '\0';
	if (i < h->len)
		return h->s[i];
	return ULP_RPING_FIRST + (ping + (i - h->len)) % letters;
}

static void ulp_rping_fill(u8 *buf, u32 len, u32 ping)
{
	struct ulp_rping_head h;
	u32 i;

	ulp_rping_head(&h, ping);
	for (i = 0; i < len; i++)
		buf[i] = ulp_rping_byte(&h, len, ping, i);
}

static bool ulp_rping_match(const u8 *buf, u32 len, u32 ping)
{
	struct ulp_rping_head h;
	u32 i;

	ulp_rping_head(&h, ping);
	for (i = 0; i < len; i++)
		if (buf[i] != ulp_rping_byte(&h, len, ping, i))
			return false;
	return true;
}

/* --- the data path --- */

static void ulp_rping_recv_done(struct ib_cq *cq, struct ib_wc *wc);
static void ulp_rping_send_done(struct ib_cq *cq, struct ib_wc *wc);
static void ulp_rping_rdma_done(struct ib_cq *cq, struct ib_wc *wc);

/* No more pings on @rc; disconnect from process context. */
static void ulp_rping_stop(struct ulp_rconn *rc, bool failed)
{
	unsigned long flags;

	if (rc->step == ULP_RS_DONE)
		return;
	rc->step = ULP_RS_DONE;
	rc->failed = failed;
	if (failed && rc->l)
		atomic_inc(&rc->l->errors);
	spin_lock_irqsave(&rc->lock, flags);
	rc->stopped = true;
	if (!rc->closing)
		queue_work(ulp_wq, &rc->dreq_work);
	spin_unlock_irqrestore(&rc->lock, flags);
}

/* A failed work completion; flushes only mean the QP is going away. */
static void ulp_rping_wc_error(struct ulp_rconn *rc, const struct ib_wc *wc)
{
	if (wc->status == IB_WC_WR_FLUSH_ERR)
		return;
	ulp_dbg("rping: %s completion %s\n",
		wc->opcode & IB_WC_RECV ? "receive" : "send",
		ib_wc_status_msg(wc->status));
	ulp_rping_stop(rc, true);
}

static int ulp_rping_post_recv(struct ulp_rconn *rc)
{
	unsigned long flags;
	int ret = -ESHUTDOWN;

	spin_lock_irqsave(&rc->lock, flags);
	if (!rc->closing)
		ret = ulp_post_recv(&rc->res.bufs[ULP_RB_RECV],
				    ulp_rping_recv_done);
	spin_unlock_irqrestore(&rc->lock, flags);
	return ret;
}

/* SEND the 16 bytes of buffer @idx. */
static int ulp_rping_send(struct ulp_rconn *rc, unsigned int idx)
{
	unsigned long flags;
	int ret = -ESHUTDOWN;

	spin_lock_irqsave(&rc->lock, flags);
	if (!rc->closing)
		ret = ulp_post_send(&rc->res.bufs[idx], 0, ULP_RPING_INFO_LEN,
				    ulp_rping_send_done, NULL, 0, 0);
	spin_unlock_irqrestore(&rc->lock, flags);
	return ret;
}

/* Server: RDMA READ or WRITE of @len bytes of the data buffer. */
static int ulp_rping_rdma(struct ulp_rconn *rc, enum ib_wr_opcode op, u32 len)
{
	struct ulp_buf *b = &rc->res.bufs[ULP_RB_DATA];
	struct ib_sge sge = {
		.addr = b->dma,
		.length = len,
		.lkey = rc->res.pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &b->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = op,
			.send_flags = IB_SEND_SIGNALED,
		},
		.remote_addr = rc->raddr,
		.rkey = rc->rkey,
	};
	unsigned long flags;
	int ret = -ESHUTDOWN;

	b->cqe.done = ulp_rping_rdma_done;
	ib_dma_sync_single_for_device(rc->res.dev, b->dma, b->size,
				      DMA_BIDIRECTIONAL);
	spin_lock_irqsave(&rc->lock, flags);
	if (!rc->closing)
		ret = ib_post_send(rc->res.qp, &wr.wr, NULL);
	spin_unlock_irqrestore(&rc->lock, flags);
	return ret;
}

static void ulp_rping_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);

	if (wc->status != IB_WC_SUCCESS)
		ulp_rping_wc_error(b->ctx, wc);
}

/* Server: a source to read, or a sink to write what was read to. */
static int ulp_rping_server_recv(struct ulp_rconn *rc)
{
	switch (rc->step) {
	case ULP_RS_WAIT_SRC:
		if (!rc->rlen || rc->rlen > rc->size)
			return -EMSGSIZE;
		rc->len = rc->rlen;
		rc->step = ULP_RS_READING;
		return ulp_rping_rdma(rc, IB_WR_RDMA_READ, rc->len);
	case ULP_RS_WAIT_SINK:
		rc->wlen = min(rc->len, rc->rlen);
		rc->step = ULP_RS_WRITING;
		return ulp_rping_rdma(rc, IB_WR_RDMA_WRITE, rc->wlen);
	default:
		return -EPROTO;
	}
}

/* Client: advertise the source of ping @rc->pings. */
static int ulp_rping_client_ping(struct ulp_rconn *rc)
{
	struct ulp_buf *src = &rc->res.bufs[ULP_RB_DATA];
	struct ulp_buf *sink = &rc->res.bufs[ULP_RB_SINK];

	ulp_rping_fill(src->va, rc->size, rc->pings);
	memset(sink->va, 0, rc->size);
	ib_dma_sync_single_for_device(rc->res.dev, src->dma, src->size,
				      DMA_BIDIRECTIONAL);
	ib_dma_sync_single_for_device(rc->res.dev, sink->dma, sink->size,
				      DMA_BIDIRECTIONAL);
	rc->step = ULP_RS_WAIT_GO1;
	return ulp_rping_send(rc, ULP_RB_CTRL);
}

/* Client: a "go" after the READ (advertise the sink) or after the WRITE. */
static int ulp_rping_client_recv(struct ulp_rconn *rc)
{
	struct ulp_buf *src = &rc->res.bufs[ULP_RB_DATA];
	struct ulp_buf *sink = &rc->res.bufs[ULP_RB_SINK];

	switch (rc->step) {
	case ULP_RS_WAIT_GO1:
		rc->step = ULP_RS_WAIT_GO2;
		return ulp_rping_send(rc, ULP_RB_SINK_ADV);
	case ULP_RS_WAIT_GO2:
		ib_dma_sync_single_for_cpu(rc->res.dev, sink->dma, sink->size,
					   DMA_BIDIRECTIONAL);
		rc->pings++;
		if (memcmp(src->va, sink->va, rc->size)) {
			rc->bad++;
			return -EILSEQ;
		}
		rc->verified++;
		if (rc->pings == rc->run->a->msgs) {
			ulp_rping_stop(rc, false);
			return 0;
		}
		return ulp_rping_client_ping(rc);
	default:
		return -EPROTO;
	}
}

static void ulp_rping_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	const struct ulp_rping_info *info = b->va;
	struct ulp_rconn *rc = b->ctx;
	int ret;

	if (wc->status != IB_WC_SUCCESS) {
		ulp_rping_wc_error(rc, wc);
		return;
	}
	if (rc->step == ULP_RS_DONE)
		return;
	ib_dma_sync_single_for_cpu(b->res->dev, b->dma, b->size,
				   DMA_BIDIRECTIONAL);
	if (wc->byte_len != ULP_RPING_INFO_LEN) {
		ulp_dbg("rping: a receive of %u bytes\n", wc->byte_len);
		ulp_rping_stop(rc, true);
		return;
	}
	rc->raddr = be64_to_cpu(info->addr);
	rc->rkey = be32_to_cpu(info->rkey);
	rc->rlen = be32_to_cpu(info->len);
	ret = ulp_rping_post_recv(rc);
	if (!ret)
		ret = rc->l ? ulp_rping_server_recv(rc) :
			      ulp_rping_client_recv(rc);
	if (ret) {
		ulp_dbg("rping: step %d: %d\n", rc->step, ret);
		ulp_rping_stop(rc, true);
	}
}

/* Server: the READ (check the pattern, send "go") or the WRITE done. */
static void ulp_rping_rdma_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_rconn *rc = b->ctx;
	struct ulp_rlistener *l = rc->l;

	if (wc->status != IB_WC_SUCCESS) {
		ulp_rping_wc_error(rc, wc);
		return;
	}
	if (rc->step == ULP_RS_READING) {
		ib_dma_sync_single_for_cpu(rc->res.dev, b->dma, b->size,
					   DMA_BIDIRECTIONAL);
		atomic64_add(rc->len, &l->read);
		if (ulp_rping_match(b->va, rc->len, rc->pings))
			atomic_inc(&l->verified);
		else
			atomic_inc(&l->bad);
		rc->step = ULP_RS_WAIT_SINK;
	} else if (rc->step == ULP_RS_WRITING) {
		atomic64_add(rc->wlen, &l->written);
		rc->pings++;
		atomic_inc(&l->pings);
		rc->step = ULP_RS_WAIT_SRC;
	} else {
		return;
	}
	if (ulp_rping_send(rc, ULP_RB_CTRL))
		ulp_rping_stop(rc, true);
}

/* Client: both registrations done; the first ping. */
static void ulp_rping_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_rconn *rc = container_of(wc->wr_cqe, struct ulp_rconn,
					    reg_cqe);

	if (wc->status != IB_WC_SUCCESS) {
		ulp_rping_wc_error(rc, wc);
		return;
	}
	if (++rc->regs < ULP_RES_MRS)
		return;
	if (ulp_rping_client_ping(rc))
		ulp_rping_stop(rc, true);
}

static void ulp_rping_qp_event(struct ib_event *ev, void *ctx)
{
	struct ulp_rconn *rc = ctx;
	unsigned long flags;

	if (ev->event != IB_EVENT_COMM_EST)
		return;
	spin_lock_irqsave(&rc->lock, flags);
	if (!rc->closing)
		pdcm_notify(rc->id, IB_EVENT_COMM_EST);
	spin_unlock_irqrestore(&rc->lock, flags);
}

/* Client: the run is over; a data error outranks what ended it. */
static void ulp_rrun_finish(struct ulp_rrun *run, enum ulp_conn_result res,
			    int err)
{
	lockdep_assert_held(&run->mutex);
	if (run->done)
		return;
	run->done = true;
	run->result = run->data_err ? ULP_RES_DATA_ERROR : res;
	run->err = run->data_err ? -EIO : err;
	wake_up_all(&ulp_run_wq);
}

static void ulp_rping_dreq_work(struct work_struct *work)
{
	struct ulp_rconn *rc = container_of(work, struct ulp_rconn, dreq_work);
	struct ulp_rrun *run = rc->run;
	int ret;

	if (!run) {
		/*
		 * A server stops only on errors, which are counted already.
		 * The first advertisement may come before the RTU: then this
		 * DREQ fails and the RTU's handler sends it.
		 */
		pdcm_send_dreq(rc->id, NULL, 0);
		return;
	}
	mutex_lock(&run->mutex);
	if (rc->failed)
		run->data_err = true;
	else
		run->data_ok = true;
	if (!run->done) {
		ret = pdcm_send_dreq(rc->id, NULL, 0);
		if (ret)
			ulp_rrun_finish(run, ULP_RES_ERROR, ret);
	}
	mutex_unlock(&run->mutex);
}

static void ulp_rconn_init(struct ulp_rconn *rc, u32 size)
{
	rc->kind = ULP_RCTX_CONN;
	rc->size = size;
	spin_lock_init(&rc->lock);
	INIT_LIST_HEAD(&rc->node);
	INIT_WORK(&rc->dreq_work, ulp_rping_dreq_work);
	rc->reg_cqe.done = ulp_rping_reg_done;
	ulp_get(ULP_OBJ_CONN);
}

/* Nothing posts or queues any more once this returns. */
static void ulp_rconn_quiesce(struct ulp_rconn *rc)
{
	unsigned long flags;

	spin_lock_irqsave(&rc->lock, flags);
	rc->closing = true;
	spin_unlock_irqrestore(&rc->lock, flags);
	cancel_work_sync(&rc->dreq_work);
}

/*
 * The RDMA READ depths @qp got from pdcm_init_qp_attr(): as initiator
 * (RTS) and as responder (RTR).  Zero if the query fails.
 */
static void ulp_rping_qp_depths(struct ib_qp *qp, u8 *rd, u8 *dest_rd)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr = {};

	*rd = 0;
	*dest_rd = 0;
	if (ib_query_qp(qp, &attr, IB_QP_MAX_QP_RD_ATOMIC |
			IB_QP_MAX_DEST_RD_ATOMIC, &init))
		return;
	*rd = attr.max_rd_atomic;
	*dest_rd = attr.max_dest_rd_atomic;
}

/* --- server --- */

static void ulp_rlistener_release(struct kref *ref)
{
	kfree(container_of(ref, struct ulp_rlistener, ref));
}

static void ulp_rlistener_put(struct ulp_rlistener *l)
{
	kref_put(&l->ref, ulp_rlistener_release);
}

/* The live listener @ctx, with a reference; ulp_lock held. */
static struct ulp_rlistener *ulp_rlistener_get(void *ctx)
{
	struct ulp_rlistener *l;

	list_for_each_entry(l, &ulp_rping_listeners, node)
		if (l == ctx && !l->dying) {
			kref_get(&l->ref);
			return l;
		}
	return NULL;
}

/* Free a server connection; with @destroy_id its pdcm_id too. */
static void ulp_rconn_free(struct ulp_rconn *rc, bool destroy_id)
{
	ulp_rconn_quiesce(rc);
	if (destroy_id) {
		pdcm_destroy_id(rc->id);
		ulp_put(ULP_OBJ_ID);
	}
	ulp_res_destroy(&rc->res);
	ulp_rlistener_put(rc->l);
	kfree(rc);
	ulp_put(ULP_OBJ_CONN);
}

/*
 * From a handler: take @rc off its listener and free it.  Returns 1 (pdcm
 * destroys the id) if it was the handler's to free, 0 if a close owns it.
 */
static int ulp_rconn_release(struct ulp_rconn *rc)
{
	mutex_lock(&ulp_lock);
	if (rc->detached) {
		mutex_unlock(&ulp_lock);
		return 0;
	}
	list_del(&rc->node);
	atomic_dec(&rc->l->live);
	mutex_unlock(&ulp_lock);
	ulp_rconn_free(rc, false);
	ulp_put(ULP_OBJ_ID);
	return 1;
}

/* QP to RTS with the receive posted, then the REP (rdma_cm's order). */
static int ulp_rping_accept(struct ulp_rconn *rc,
			    const struct pdcm_req_event_param *req)
{
	struct pdcm_rep_param rep = {};
	struct ib_qp *qp = rc->res.qp;
	u32 psn = get_random_u32() & 0xffffff;
	u8 rd, dest_rd;
	int ret;

	/* The READs need the peer to grant responder resources. */
	if (req->qp_type != IB_QPT_RC || !req->initiator_depth)
		return -EOPNOTSUPP;
	rc->step = ULP_RS_WAIT_SRC;
	ret = ulp_modify_qp_cm(rc->id, qp, IB_QPS_INIT, 0);
	if (!ret)
		ret = ulp_rping_post_recv(rc);
	if (!ret)
		ret = ulp_modify_qp_cm(rc->id, qp, IB_QPS_RTR, psn);
	if (!ret)
		ret = ulp_modify_qp_cm(rc->id, qp, IB_QPS_RTS, 0);
	if (ret)
		return ret;
	ulp_rping_qp_depths(qp, &rd, &dest_rd);
	atomic_set(&rc->l->rd_atomic, rd);
	atomic_set(&rc->l->dest_rd_atomic, dest_rd);
	rep.qp_num = qp->qp_num;
	rep.starting_psn = psn;
	rep.responder_resources = req->responder_resources;
	rep.initiator_depth = req->initiator_depth;
	rep.flow_control = 1;
	rep.rnr_retry_count = 7;
	return pdcm_send_rep(rc->id, &rep);
}

static int ulp_rping_req(struct pdcm_id *id, const struct pdcm_event *ev)
{
	const struct pdcm_req_event_param *req = &ev->param.req_rcvd;
	struct ulp_rlistener *l;
	struct ulp_rconn *rc;
	int ret = -ENODEV;

	mutex_lock(&ulp_lock);
	l = ulp_rlistener_get(req->listen_context);
	mutex_unlock(&ulp_lock);
	if (!l)
		return -ENOENT;	/* being destroyed: pdcm rejects the REQ */
	atomic_inc(&l->reqs);
	rc = kzalloc(sizeof(*rc), GFP_KERNEL);
	if (!rc) {
		atomic_inc(&l->errors);
		pdcm_send_rej(id, PDCM_REJ_NO_RESOURCES, NULL, 0, NULL, 0);
		ulp_rlistener_put(l);
		return 1;
	}
	ulp_rconn_init(rc, l->size);
	rc->l = l;
	rc->id = id;
	id->context = rc;
	if (id->device)
		ret = ulp_res_create(&rc->res, id->device, req->port,
				     IB_QPT_RC, ULP_RB_SERVER, l->size, rc,
				     ulp_rping_qp_event);
	if (!ret)
		ret = ulp_rping_accept(rc, req);
	if (ret) {
		ulp_dbg("rping %s: accepting failed: %d\n", l->name, ret);
		atomic_inc(&l->errors);
		pdcm_send_rej(id, PDCM_REJ_NO_RESOURCES, NULL, 0, NULL, 0);
		ulp_rconn_free(rc, false);
		return 1;
	}

	mutex_lock(&ulp_lock);
	if (l->dying) {
		mutex_unlock(&ulp_lock);
		ulp_rconn_free(rc, false);
		return 1;
	}
	list_add_tail(&rc->node, &l->conns);
	atomic_inc(&l->live);
	ulp_get(ULP_OBJ_ID);
	mutex_unlock(&ulp_lock);
	return 0;
}

static int ulp_rping_passive_handler(struct pdcm_id *id,
				     const struct pdcm_event *ev)
{
	struct ulp_rconn *rc = id->context;
	struct ulp_rlistener *l;
	unsigned long flags;
	bool stopped;

	if (ev->event == PDCM_REQ_RECEIVED)
		return ulp_rping_req(id, ev);
	if (!rc || rc->kind != ULP_RCTX_CONN)
		return 0;
	l = rc->l;
	ulp_dbg("rping %s: %s in %s\n", l->name, pdcm_event_name(ev->event),
		pdcm_state_name(id->state));

	switch (ev->event) {
	case PDCM_RTU_RECEIVED:
	case PDCM_USER_ESTABLISHED:
		if (rc->established)
			return 0;
		rc->established = true;
		atomic_inc(&l->established);
		spin_lock_irqsave(&rc->lock, flags);
		stopped = rc->stopped && !rc->closing;
		spin_unlock_irqrestore(&rc->lock, flags);
		if (stopped)	/* see ulp_rping_dreq_work() */
			pdcm_send_dreq(id, NULL, 0);
		return 0;
	case PDCM_DREQ_RECEIVED:
		atomic_inc(&l->dreq);
		if (pdcm_send_drep(id, NULL, 0))
			atomic_inc(&l->errors);
		return 0;
	case PDCM_DREP_RECEIVED:
		atomic_inc(&l->drep);
		return 0;
	case PDCM_TIMEWAIT_EXIT:
		atomic_inc(&l->timewait);
		return ulp_rconn_release(rc);
	case PDCM_REJ_RECEIVED:
	case PDCM_REP_ERROR:
	case PDCM_DREQ_ERROR:
	case PDCM_SEND_ERROR:
		atomic_inc(&l->errors);
		return ulp_rconn_release(rc);
	default:
		return 0;
	}
}

static struct ulp_rlistener *ulp_rlistener_find(const char *name)
{
	struct ulp_rlistener *l;

	list_for_each_entry(l, &ulp_rping_listeners, node)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

/* The compare for "ADDR", "ipv4"/"ipv6" or "any" (none: *cmp = NULL). */
static int ulp_rlistener_compare(struct ulp_rlistener *l, const char *addr,
				 const struct pdcm_compare **cmp)
{
	struct sockaddr_storage ss = {};
	struct sockaddr_in *sin = (void *)&ss;
	struct sockaddr_in6 *sin6 = (void *)&ss;

	*cmp = &l->cmp;
	if (!strcmp(addr, "any")) {
		*cmp = NULL;
		strscpy(l->addr, addr, sizeof(l->addr));
		return 0;
	}
	if (!strcmp(addr, "ipv4") || !strcmp(addr, "ipv6")) {
		strscpy(l->addr, addr, sizeof(l->addr));
		return pdcm_compare_cma_family(&l->cmp, addr[3] == '4' ?
					       AF_INET : AF_INET6);
	}
	if (in4_pton(addr, -1, (u8 *)&sin->sin_addr, -1, NULL))
		sin->sin_family = AF_INET;
	else if (in6_pton(addr, -1, (u8 *)&sin6->sin6_addr, -1, NULL))
		sin6->sin6_family = AF_INET6;
	else
		return -EINVAL;
	snprintf(l->addr, sizeof(l->addr), "%pISc", &ss);
	return pdcm_compare_cma_addr(&l->cmp, (struct sockaddr *)&ss);
}

/**
 * ulp_rping_listen() - listen as an rping server
 * @name: unique among live rping listeners
 * @sid: service ID (rping: tcp:PORT)
 * @addr: an IPv4/IPv6 address, "ipv4"/"ipv6" (family only) or "any"
 * @dev: device, or NULL for all
 * @port: port, or 0 for any
 * @backlog: pdcm_listen_attr.backlog
 * @size: bytes of each connection's buffers: the largest ping it serves
 *	(0: 64 KiB, more than rping can send)
 *
 * Context: process, ctl serialised.
 * Return: 0 or a negative errno.
 */
int ulp_rping_listen(const char *name, __be64 sid, const char *addr,
		     struct ib_device *dev, u32 port, u32 backlog, u32 size)
{
	struct pdcm_listen_attr attr = {};
	struct ulp_rlistener *l, *old;
	struct pdcm_id *id;
	int ret;

	if (strlen(name) >= ULP_NAME_LEN)
		return -ENAMETOOLONG;
	if (size && (size < ULP_RPING_INFO_LEN || size > ULP_MAX_MSG))
		return -EINVAL;
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->kind = ULP_RCTX_LISTENER;
	kref_init(&l->ref);
	strscpy(l->name, name, sizeof(l->name));
	strscpy(l->devname, dev ? dev_name(&dev->dev) : "all",
		sizeof(l->devname));
	l->sid = sid;
	l->size = size ?: ULP_RPING_LISTEN_SIZE;
	INIT_LIST_HEAD(&l->conns);
	attr.service_id = sid;
	attr.port = port;
	attr.backlog = backlog;
	ret = ulp_rlistener_compare(l, addr, &attr.compare);
	if (ret)
		goto free;

	id = pdcm_create_id(dev, ulp_rping_passive_handler, l);
	if (IS_ERR_OR_NULL(id)) {
		ret = id ? PTR_ERR(id) : -ENOMEM;
		goto free;
	}
	ulp_get(ULP_OBJ_ID);
	l->id = id;

	mutex_lock(&ulp_lock);
	old = ulp_rlistener_find(name);
	if (old && !old->dying) {
		mutex_unlock(&ulp_lock);
		ret = -EEXIST;
		goto destroy;
	}
	if (old) {		/* the record of a destroyed one */
		list_del(&old->node);
		ulp_rlistener_put(old);
	}
	list_add_tail(&l->node, &ulp_rping_listeners);
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
	ulp_rlistener_put(l);
	return ret;
}

/* Destroy @l's connections and its id; its record stays. */
static void ulp_rlistener_close(struct ulp_rlistener *l)
{
	struct ulp_rconn *rc, *tmp;
	struct pdcm_id *id;
	LIST_HEAD(conns);

	mutex_lock(&ulp_lock);
	l->dying = true;
	list_for_each_entry(rc, &l->conns, node)
		rc->detached = true;
	list_splice_init(&l->conns, &conns);
	id = l->id;
	l->id = NULL;
	mutex_unlock(&ulp_lock);

	/* Connections first: destroying a listen waits for its REQs. */
	list_for_each_entry_safe(rc, tmp, &conns, node) {
		list_del(&rc->node);
		atomic_dec(&l->live);
		ulp_rconn_free(rc, true);
	}
	if (id) {
		pdcm_destroy_id(id);
		ulp_put(ULP_OBJ_ID);
		ulp_put(ULP_OBJ_LISTENER);
	}
}

/**
 * ulp_rping_destroy_listener() - destroy rping listener @name
 * @name: the listener
 *
 * Its connections go first (pdcm sends DREQ on the established ones);
 * its results line stays, with state=destroyed.
 *
 * Context: process, ctl serialised.
 * Return: 0, or -ENOENT if no live rping listener has that name.
 */
int ulp_rping_destroy_listener(const char *name)
{
	struct ulp_rlistener *l;

	mutex_lock(&ulp_lock);
	l = ulp_rlistener_find(name);
	if (l && l->dying)
		l = NULL;
	if (l)
		kref_get(&l->ref);
	mutex_unlock(&ulp_lock);
	if (!l)
		return -ENOENT;
	ulp_rlistener_close(l);
	ulp_rlistener_put(l);
	return 0;
}

/**
 * ulp_rping_destroy_all() - close every rping listener, keep the records
 *
 * Context: process, ctl serialised.
 */
void ulp_rping_destroy_all(void)
{
	struct ulp_rlistener *l;

	for (;;) {
		mutex_lock(&ulp_lock);
		list_for_each_entry(l, &ulp_rping_listeners, node)
			if (!l->dying)
				break;
		if (list_entry_is_head(l, &ulp_rping_listeners, node)) {
			mutex_unlock(&ulp_lock);
			return;
		}
		kref_get(&l->ref);
		mutex_unlock(&ulp_lock);
		ulp_rlistener_close(l);
		ulp_rlistener_put(l);
	}
}

/**
 * ulp_rping_free_all() - close every rping listener, drop every record
 *
 * Context: process, ctl serialised, no rping command running.
 */
void ulp_rping_free_all(void)
{
	struct ulp_rlistener *l, *ltmp;
	struct ulp_rping_rec *r, *rtmp;

	ulp_rping_destroy_all();
	mutex_lock(&ulp_lock);
	list_for_each_entry_safe(l, ltmp, &ulp_rping_listeners, node) {
		list_del(&l->node);
		ulp_rlistener_put(l);
	}
	list_for_each_entry_safe(r, rtmp, &ulp_rping_records, node) {
		list_del(&r->node);
		kfree(r);
	}
	mutex_unlock(&ulp_lock);
}

/* --- client --- */

/* Map buffer @idx into MR @slot; the REG_MR is posted on the REP. */
static int ulp_rping_map(struct ulp_rconn *rc, unsigned int slot,
			 unsigned int idx)
{
	struct ulp_buf *b = &rc->res.bufs[idx];
	struct ib_mr *mr;
	struct scatterlist sg;
	int n;

	mr = ib_alloc_mr(rc->res.pd, IB_MR_TYPE_MEM_REG,
			 DIV_ROUND_UP(b->size, PAGE_SIZE) + 1);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	rc->res.mrs[slot] = mr;
	ulp_get(ULP_OBJ_MR);
	sg_init_table(&sg, 1);
	sg_dma_address(&sg) = b->dma;
	sg_dma_len(&sg) = b->size;
	n = ib_map_mr_sg(mr, &sg, 1, NULL, PAGE_SIZE);
	if (n != 1)
		return n < 0 ? n : -EINVAL;
	return 0;
}

/* Write the advertisement of MR @slot into buffer @idx. */
static void ulp_rping_advert(struct ulp_rconn *rc, unsigned int slot,
			     unsigned int idx)
{
	struct ulp_rping_info *info = rc->res.bufs[idx].va;
	struct ib_mr *mr = rc->res.mrs[slot];

	info->addr = cpu_to_be64(mr->iova);
	info->rkey = cpu_to_be32(mr->rkey);
	info->len = cpu_to_be32(rc->size);
}

/* Post the two registrations; the last completion starts the pings. */
static int ulp_rping_register(struct ulp_rconn *rc)
{
	static const int access[ULP_RES_MRS] = {
		[ULP_MR_SRC] = IB_ACCESS_REMOTE_READ,
		[ULP_MR_SINK] = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	unsigned long flags;
	unsigned int i;
	int ret = 0;

	spin_lock_irqsave(&rc->lock, flags);
	for (i = 0; i < ULP_RES_MRS && !ret; i++) {
		struct ib_reg_wr wr = {
			.wr = {
				.wr_cqe = &rc->reg_cqe,
				.opcode = IB_WR_REG_MR,
				.send_flags = IB_SEND_SIGNALED,
			},
			.mr = rc->res.mrs[i],
			.key = rc->res.mrs[i]->rkey,
			.access = access[i],
		};

		ret = rc->closing ? -ESHUTDOWN :
				    ib_post_send(rc->res.qp, &wr.wr, NULL);
	}
	spin_unlock_irqrestore(&rc->lock, flags);
	return ret;
}

static void ulp_rrun_rep(struct ulp_rrun *run)
{
	struct ulp_rconn *rc = &run->c;
	int ret;

	if (run->done)
		return;
	run->setup_us = ktime_us_delta(ktime_get(), run->t_req);
	ret = ulp_modify_qp_cm(rc->id, rc->res.qp, IB_QPS_RTR, 0);
	if (!ret)
		ret = ulp_modify_qp_cm(rc->id, rc->res.qp, IB_QPS_RTS, 0);
	if (ret) {
		pdcm_send_rej(rc->id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0,
			      NULL, 0);
		ulp_rrun_finish(run, ULP_RES_ERROR, ret);
		return;
	}
	ulp_rping_qp_depths(rc->res.qp, &run->rd_atomic, &run->dest_rd_atomic);
	ret = pdcm_send_rtu(rc->id, NULL, 0);
	if (ret) {
		ulp_rrun_finish(run, ULP_RES_ERROR, ret);
		return;
	}
	run->established = true;
	ret = ulp_rping_register(rc);
	if (ret) {
		ulp_rrun_finish(run, ULP_RES_ERROR, ret);
		pdcm_send_dreq(rc->id, NULL, 0);
	}
}

static int ulp_rping_active_handler(struct pdcm_id *id,
				    const struct pdcm_event *ev)
{
	struct ulp_rconn *rc = id->context;
	struct ulp_rrun *run = rc->run;

	ulp_dbg("rping run %u: %s in %s\n", run->a->no,
		pdcm_event_name(ev->event), pdcm_state_name(id->state));
	mutex_lock(&run->mutex);
	switch (ev->event) {
	case PDCM_REP_RECEIVED:
		ulp_rrun_rep(run);
		break;
	case PDCM_REJ_RECEIVED:
		run->rej_reason = ev->param.rej_rcvd.reason;
		ulp_rrun_finish(run, ULP_RES_REJ, 0);
		break;
	case PDCM_REQ_ERROR:
		ulp_rrun_finish(run, ULP_RES_REQ_ERROR, -ETIMEDOUT);
		break;
	case PDCM_DREQ_RECEIVED:
		/* The client disconnects; a server doing it is an error. */
		pdcm_send_drep(id, NULL, 0);
		ulp_rrun_finish(run, ULP_RES_PEER_DISC, 0);
		break;
	case PDCM_DREP_RECEIVED:
		run->drep = true;
		break;
	case PDCM_TIMEWAIT_EXIT:
		run->timewait = true;
		ulp_rrun_finish(run, run->data_ok && run->drep ?
				ULP_RES_OK : ULP_RES_ERROR, 0);
		break;
	case PDCM_DREQ_ERROR:
		ulp_rrun_finish(run, ULP_RES_ERROR, -ETIMEDOUT);
		break;
	case PDCM_SEND_ERROR:
		ulp_rrun_finish(run, ULP_RES_ERROR, -EIO);
		break;
	default:
		break;
	}
	mutex_unlock(&run->mutex);
	return 0;
}

/* REQ private data: an RDMA CM header with the run's source port. */
static int ulp_rrun_pdata(struct ulp_rrun *run, u8 *pdata, size_t len)
{
	const struct ulp_connect_args *a = run->a;
	struct sockaddr_storage src = a->src, dst = a->dst;
	__be16 sport = cpu_to_be16(0xc000 | (a->no & 0x3fff));
	__be16 dport = cpu_to_be16((u16)be64_to_cpu(a->sid));

	if (src.ss_family == AF_INET) {
		((struct sockaddr_in *)&src)->sin_port = sport;
		((struct sockaddr_in *)&dst)->sin_port = dport;
	} else {
		((struct sockaddr_in6 *)&src)->sin6_port = sport;
		((struct sockaddr_in6 *)&dst)->sin6_port = dport;
	}
	memset(pdata, 0, len);
	return pdcm_cma_hdr_build(pdata, len, (struct sockaddr *)&src,
				  (struct sockaddr *)&dst);
}

/* Resources, MRs, path, REQ, INIT and the first receive. */
static int ulp_rrun_start(struct ulp_rrun *run)
{
	const struct ulp_connect_args *a = run->a;
	struct ulp_rconn *rc = &run->c;
	struct pdcm_req_param req = {};
	u8 pdata[PDCM_CMA_HDR_SIZE];
	struct pdcm_id *id;
	int ret;

	ret = ulp_res_create(&rc->res, a->dev, a->port, IB_QPT_RC, ULP_RB_NR,
			     a->size, rc, NULL);
	if (ret)
		return ret;
	ret = ulp_rping_map(rc, ULP_MR_SRC, ULP_RB_DATA);
	if (!ret)
		ret = ulp_rping_map(rc, ULP_MR_SINK, ULP_RB_SINK);
	if (ret)
		return ret;
	ulp_rping_advert(rc, ULP_MR_SRC, ULP_RB_CTRL);
	ulp_rping_advert(rc, ULP_MR_SINK, ULP_RB_SINK_ADV);

	id = pdcm_create_id(a->dev, ulp_rping_active_handler, rc);
	if (IS_ERR_OR_NULL(id))
		return id ? PTR_ERR(id) : -ENOMEM;
	ulp_get(ULP_OBJ_ID);
	rc->id = id;
	ret = pdcm_resolve_path(a->dev, a->port, (struct sockaddr *)&a->src,
				(struct sockaddr *)&a->dst, &run->path);
	if (!ret)
		ret = ulp_rrun_pdata(run, pdata, sizeof(pdata));
	if (ret)
		return ret;

	req.primary_path = &run->path;
	req.port = a->port;
	req.service_id = a->sid;
	req.qp_num = rc->res.qp->qp_num;
	req.qp_type = IB_QPT_RC;
	req.starting_psn = get_random_u32() & 0xffffff;
	req.private_data = pdata;
	req.private_data_len = sizeof(pdata);
	/* one RDMA READ each way at a time, as rping asks */
	req.responder_resources = 1;
	req.initiator_depth = 1;
	req.remote_cm_response_timeout = a->cm_timeout;
	req.local_cm_response_timeout = a->cm_timeout;
	req.flow_control = 1;
	req.retry_count = 7;
	req.rnr_retry_count = 7;
	req.max_cm_retries = a->cm_retries;

	mutex_lock(&run->mutex);
	run->t_req = ktime_get();
	ret = pdcm_send_req(id, &req);
	/* The REP handler waits for the mutex: INIT and the receive first. */
	if (!ret)
		ret = ulp_modify_qp_cm(id, rc->res.qp, IB_QPS_INIT, 0);
	if (!ret)
		ret = ulp_rping_post_recv(rc);
	if (ret)
		ulp_rrun_finish(run, ULP_RES_ERROR, ret);
	mutex_unlock(&run->mutex);
	return 0;
}

static void ulp_rrun_record(struct ulp_rrun *run, struct ulp_rping_rec *rec,
			    ktime_t t0)
{
	const struct ulp_connect_args *a = run->a;

	rec->no = a->no;
	rec->sid = a->sid;
	snprintf(rec->src, sizeof(rec->src), "%pISc", &a->src);
	snprintf(rec->dst, sizeof(rec->dst), "%pISc", &a->dst);
	rec->count = a->msgs;
	rec->size = a->size;
	rec->result = run->result;
	rec->rej_reason = run->rej_reason;
	rec->err = run->err;
	rec->established = run->established;
	rec->drep = run->drep;
	rec->timewait = run->timewait;
	rec->pings = run->c.pings;
	rec->verified = run->c.verified;
	rec->bad = run->c.bad;
	rec->rd_atomic = run->rd_atomic;
	rec->dest_rd_atomic = run->dest_rd_atomic;
	rec->setup_us = run->established ? run->setup_us : 0;
	rec->elapsed_us = ktime_us_delta(ktime_get(), t0);
}

/**
 * ulp_rping() - be an rping client for @a->msgs pings
 * @a: where to connect; @a->msgs pings of @a->size bytes
 *
 * Context: process; sleeps until the run is over or @a->timeout_ms.
 * Return: 0 once the run is recorded (whatever happened), or a negative
 * errno if nothing could be started.
 */
int ulp_rping(const struct ulp_connect_args *a)
{
	struct ulp_rping_rec *rec;
	struct ulp_rrun *run;
	struct ulp_rconn *rc;
	ktime_t t0;
	int ret;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!run || !rec) {
		kfree(run);
		kfree(rec);
		return -ENOMEM;
	}
	run->a = a;
	mutex_init(&run->mutex);
	rc = &run->c;
	ulp_rconn_init(rc, a->size);
	rc->run = run;

	t0 = ktime_get();
	ret = ulp_rrun_start(run);
	if (ret) {
		ulp_dbg("rping run %u: setup failed: %d\n", a->no, ret);
		mutex_lock(&run->mutex);
		ulp_rrun_finish(run, ULP_RES_ERROR, ret);
		mutex_unlock(&run->mutex);
	}
	wait_event_interruptible_timeout(ulp_run_wq, READ_ONCE(run->done) ||
					 atomic_read(&ulp_abort_gen) != a->gen,
					 msecs_to_jiffies(a->timeout_ms));
	mutex_lock(&run->mutex);
	ulp_rrun_finish(run, ULP_RES_TIMEOUT, -ETIMEDOUT);
	mutex_unlock(&run->mutex);

	ulp_rconn_quiesce(rc);
	if (rc->id) {
		pdcm_destroy_id(rc->id);
		ulp_put(ULP_OBJ_ID);
	}
	ulp_res_destroy(&rc->res);
	ulp_put(ULP_OBJ_CONN);

	ulp_rrun_record(run, rec, t0);
	ret = rec->result == ULP_RES_ERROR && !rec->established ? rec->err : 0;
	mutex_lock(&ulp_lock);
	list_add_tail(&rec->node, &ulp_rping_records);
	mutex_unlock(&ulp_lock);
	mutex_destroy(&run->mutex);
	kfree(run);
	return ret;
}

/**
 * ulp_show_rping() - the "rping_listener" and "rping" lines of results
 * @m: the results file
 *
 * Context: ulp_lock held.
 */
void ulp_show_rping(struct seq_file *m)
{
	struct ulp_rlistener *l;
	struct ulp_rping_rec *r;

	lockdep_assert_held(&ulp_lock);
	list_for_each_entry(l, &ulp_rping_listeners, node)
		seq_printf(m,
			   "rping_listener %s sid=0x%016llx addr=%s dev=%s size=%u state=%s reqs=%d established=%d pings=%d verified=%d bad=%d read=%lld written=%lld rd_atomic=%d dest_rd_atomic=%d dreq=%d drep=%d timewait=%d errors=%d live=%d\n",
			   l->name, be64_to_cpu(l->sid), l->addr, l->devname,
			   l->size, l->dying ? "destroyed" : "listening",
			   atomic_read(&l->reqs), atomic_read(&l->established),
			   atomic_read(&l->pings), atomic_read(&l->verified),
			   atomic_read(&l->bad),
			   (long long)atomic64_read(&l->read),
			   (long long)atomic64_read(&l->written),
			   atomic_read(&l->rd_atomic),
			   atomic_read(&l->dest_rd_atomic),
			   atomic_read(&l->dreq), atomic_read(&l->drep),
			   atomic_read(&l->timewait), atomic_read(&l->errors),
			   atomic_read(&l->live));
	list_for_each_entry(r, &ulp_rping_records, node)
		seq_printf(m,
			   "rping %u sid=0x%016llx src=%s dst=%s count=%u size=%u result=%s rej_reason=%u established=%u pings=%u verified=%u bad=%u rd_atomic=%u dest_rd_atomic=%u drep=%u timewait=%u setup_us=%u elapsed_us=%llu err=%d\n",
			   r->no, be64_to_cpu(r->sid), r->src, r->dst,
			   r->count, r->size, ulp_result_names[r->result],
			   r->rej_reason, r->established, r->pings,
			   r->verified, r->bad, r->rd_atomic, r->dest_rd_atomic,
			   r->drep, r->timewait,
			   r->setup_us, r->elapsed_us, r->err);
}
