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
 * Server ("listen ... mode=rping"): a listener of passive.c, which makes
 * the connections (REQ, QP, REP) and owns them; this file is the mode's
 * data path (ulp_rping_pconn_ops).  Each connection serves pings until the
 * peer disconnects and checks every buffer it reads against the pattern.
 * It needs no MR: it only reads into and writes from its own buffers (the
 * PD's local DMA lkey).
 *
 * Client ("rping"): a run of active.c with one connection (path, REQ, REP,
 * RTU, record); this file adds its MRs and its data path
 * (ulp_rping_run_ops).  The source (remote read) and the sink (remote
 * write, local write) are registered with IB_WR_REG_MR work requests once
 * the QP is in RTS; then come the pings, then DREQ, DREP and the timewait
 * exit.
 *
 * The data path runs in the completion handlers of a connection's CQ, one
 * at a time.  They never sleep, post only through ulp_ep_post_*() (which
 * check the connection's @closing under its @lock), and leave
 * disconnecting to the connection's DREQ work.
 */
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ulp.h"

#define ULP_RPING_INFO_LEN	16
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

static struct ulp_rping *ulp_buf_rping(const struct ulp_buf *b)
{
	return ulp_buf_ep(b)->rping;
}

/* No more pings on @rp; disconnect from process context. */
static void ulp_rping_stop(struct ulp_rping *rp, bool failed)
{
	unsigned long flags;

	if (rp->step == ULP_RS_DONE)
		return;
	rp->step = ULP_RS_DONE;
	if (rp->ac) {
		ulp_aconn_data_end(rp->ac, failed);
		return;
	}
	if (failed)
		atomic_inc(&rp->pc->l->errors);
	spin_lock_irqsave(&rp->ep->lock, flags);
	rp->stopped = true;
	spin_unlock_irqrestore(&rp->ep->lock, flags);
	ulp_ep_queue_dreq(rp->ep);
}

/* A failed work completion; flushes only mean the QP is going away. */
static void ulp_rping_wc_error(struct ulp_rping *rp, const struct ib_wc *wc)
{
	if (wc->status == IB_WC_WR_FLUSH_ERR)
		return;
	ulp_dbg("rping: %s completion %s\n",
		wc->opcode & IB_WC_RECV ? "receive" : "send",
		ib_wc_status_msg(wc->status));
	ulp_rping_stop(rp, true);
}

static int ulp_rping_post_recv(struct ulp_rping *rp)
{
	return ulp_ep_post_recv(rp->ep, &rp->ep->res.bufs[ULP_RB_RECV],
				ulp_rping_recv_done);
}

/* SEND the 16 bytes of buffer @idx. */
static int ulp_rping_send(struct ulp_rping *rp, unsigned int idx)
{
	return ulp_ep_post_send(rp->ep, &rp->ep->res.bufs[idx],
				ULP_RPING_INFO_LEN, ulp_rping_send_done);
}

/* Server: RDMA READ or WRITE of @len bytes of the data buffer. */
static int ulp_rping_rdma(struct ulp_rping *rp, enum ib_wr_opcode op, u32 len)
{
	return ulp_ep_post_rdma(rp->ep, &rp->ep->res.bufs[ULP_RB_DATA], len,
				op, rp->raddr, rp->rkey, ulp_rping_rdma_done);
}

static void ulp_rping_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);

	if (wc->status != IB_WC_SUCCESS)
		ulp_rping_wc_error(ulp_buf_rping(b), wc);
}

/* Server: a source to read, or a sink to write what was read to. */
static int ulp_rping_server_recv(struct ulp_rping *rp)
{
	switch (rp->step) {
	case ULP_RS_WAIT_SRC:
		if (!rp->rlen || rp->rlen > rp->size)
			return -EMSGSIZE;
		rp->len = rp->rlen;
		rp->step = ULP_RS_READING;
		return ulp_rping_rdma(rp, IB_WR_RDMA_READ, rp->len);
	case ULP_RS_WAIT_SINK:
		rp->wlen = min(rp->len, rp->rlen);
		rp->step = ULP_RS_WRITING;
		return ulp_rping_rdma(rp, IB_WR_RDMA_WRITE, rp->wlen);
	default:
		return -EPROTO;
	}
}

/* Client: advertise the source of ping @rp->pings. */
static int ulp_rping_client_ping(struct ulp_rping *rp)
{
	struct ulp_qpres *res = &rp->ep->res;
	struct ulp_buf *src = &res->bufs[ULP_RB_DATA];
	struct ulp_buf *sink = &res->bufs[ULP_RB_SINK];

	ulp_rping_fill(src->va, rp->size, rp->pings);
	memset(sink->va, 0, rp->size);
	ib_dma_sync_single_for_device(res->dev, src->dma, src->size,
				      DMA_BIDIRECTIONAL);
	ib_dma_sync_single_for_device(res->dev, sink->dma, sink->size,
				      DMA_BIDIRECTIONAL);
	rp->step = ULP_RS_WAIT_GO1;
	return ulp_rping_send(rp, ULP_RB_CTRL);
}

/* Client: a "go" after the READ (advertise the sink) or after the WRITE. */
static int ulp_rping_client_recv(struct ulp_rping *rp)
{
	struct ulp_qpres *res = &rp->ep->res;
	struct ulp_buf *src = &res->bufs[ULP_RB_DATA];
	struct ulp_buf *sink = &res->bufs[ULP_RB_SINK];
	struct ulp_conn_record *rec = &rp->ac->rec;

	switch (rp->step) {
	case ULP_RS_WAIT_GO1:
		rp->step = ULP_RS_WAIT_GO2;
		return ulp_rping_send(rp, ULP_RB_SINK_ADV);
	case ULP_RS_WAIT_GO2:
		ib_dma_sync_single_for_cpu(res->dev, sink->dma, sink->size,
					   DMA_BIDIRECTIONAL);
		rec->pings = ++rp->pings;
		if (memcmp(src->va, sink->va, rp->size)) {
			rec->bad++;
			return -EILSEQ;
		}
		rec->verified++;
		if (rp->pings == rp->ac->run->a->msgs) {
			ulp_rping_stop(rp, false);
			return 0;
		}
		return ulp_rping_client_ping(rp);
	default:
		return -EPROTO;
	}
}

static void ulp_rping_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	const struct ulp_rping_info *info = b->va;
	struct ulp_rping *rp = ulp_buf_rping(b);
	int ret;

	if (wc->status != IB_WC_SUCCESS) {
		ulp_rping_wc_error(rp, wc);
		return;
	}
	if (rp->step == ULP_RS_DONE)
		return;
	ib_dma_sync_single_for_cpu(b->res->dev, b->dma, b->size,
				   DMA_BIDIRECTIONAL);
	if (wc->byte_len != ULP_RPING_INFO_LEN) {
		ulp_dbg("rping: a receive of %u bytes\n", wc->byte_len);
		ulp_rping_stop(rp, true);
		return;
	}
	rp->raddr = be64_to_cpu(info->addr);
	rp->rkey = be32_to_cpu(info->rkey);
	rp->rlen = be32_to_cpu(info->len);
	ret = ulp_rping_post_recv(rp);
	if (!ret)
		ret = rp->pc ? ulp_rping_server_recv(rp) :
			       ulp_rping_client_recv(rp);
	if (ret) {
		ulp_dbg("rping: step %d: %d\n", rp->step, ret);
		ulp_rping_stop(rp, true);
	}
}

/* Server: the READ (check the pattern, send "go") or the WRITE done. */
static void ulp_rping_rdma_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_rping *rp = ulp_buf_rping(b);
	struct ulp_listener *l = rp->pc->l;

	if (wc->status != IB_WC_SUCCESS) {
		ulp_rping_wc_error(rp, wc);
		return;
	}
	if (rp->step == ULP_RS_READING) {
		ib_dma_sync_single_for_cpu(b->res->dev, b->dma, b->size,
					   DMA_BIDIRECTIONAL);
		atomic64_add(rp->len, &l->read);
		if (ulp_rping_match(b->va, rp->len, rp->pings))
			atomic_inc(&l->verified);
		else
			atomic_inc(&l->bad);
		rp->step = ULP_RS_WAIT_SINK;
	} else if (rp->step == ULP_RS_WRITING) {
		atomic64_add(rp->wlen, &l->written);
		rp->pings++;
		atomic_inc(&l->pings);
		rp->step = ULP_RS_WAIT_SRC;
	} else {
		return;
	}
	if (ulp_rping_send(rp, ULP_RB_CTRL))
		ulp_rping_stop(rp, true);
}

/* Client: both registrations done; the first ping. */
static void ulp_rping_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_rping *rp = container_of(wc->wr_cqe, struct ulp_rping,
					    reg_cqe);

	if (wc->status != IB_WC_SUCCESS) {
		ulp_rping_wc_error(rp, wc);
		return;
	}
	if (++rp->regs < ULP_RES_MRS)
		return;
	if (ulp_rping_client_ping(rp))
		ulp_rping_stop(rp, true);
}

/* Before the resources' completions can come: @rp is @ep's data path. */
static void ulp_rping_init(struct ulp_rping *rp, struct ulp_ep *ep, u32 size)
{
	rp->ep = ep;
	rp->size = size;
	rp->reg_cqe.done = ulp_rping_reg_done;
	ep->rping = rp;
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

/* --- server: listener mode rping --- */

/* Three buffers of the listener's size; the READs need responder resources. */
static int ulp_rping_server_setup(struct ulp_pconn *pc,
				  const struct pdcm_event *ev)
{
	const struct pdcm_req_event_param *req = &ev->param.req_rcvd;

	if (req->qp_type != IB_QPT_RC || !req->initiator_depth)
		return -EOPNOTSUPP;
	ulp_rping_init(&pc->rping, &pc->ep, pc->l->o.size);
	pc->rping.pc = pc;
	return ulp_res_create(&pc->ep.res, pc->ep.id->device, req->port,
			      IB_QPT_RC, ULP_RB_SERVER, pc->l->o.size, &pc->ep,
			      ulp_ep_qp_event);
}

static int ulp_rping_server_post_recvs(struct ulp_pconn *pc)
{
	pc->rping.step = ULP_RS_WAIT_SRC;
	return ulp_rping_post_recv(&pc->rping);
}

static void ulp_rping_server_established(struct ulp_pconn *pc)
{
	struct ulp_listener *l = pc->l;
	unsigned long flags;
	u8 rd, dest_rd;
	bool stopped;

	ulp_rping_qp_depths(pc->ep.res.qp, &rd, &dest_rd);
	atomic_set(&l->rd_atomic, rd);
	atomic_set(&l->dest_rd_atomic, dest_rd);
	spin_lock_irqsave(&pc->ep.lock, flags);
	stopped = pc->rping.stopped && !pc->ep.closing;
	spin_unlock_irqrestore(&pc->ep.lock, flags);
	if (stopped)	/* see ulp_rping_server_dreq_work() */
		pdcm_send_dreq(pc->ep.id, NULL, 0);
}

static void ulp_rping_server_dreq_work(struct work_struct *work)
{
	struct ulp_ep *ep = container_of(work, struct ulp_ep, dreq_work);

	/*
	 * A server stops only on errors, which are counted already.  The
	 * first advertisement may come before the RTU: then this DREQ fails
	 * and the RTU's handler sends it.  A free cancels this work before it
	 * destroys the id.
	 */
	pdcm_send_dreq(ep->id, NULL, 0);
}

static void ulp_rping_show(struct seq_file *m, const struct ulp_listener *l)
{
	seq_printf(m,
		   " size=%u pings=%d verified=%d read=%lld written=%lld rd_atomic=%d dest_rd_atomic=%d dreq=%d drep=%d",
		   l->o.size, atomic_read(&l->pings),
		   atomic_read(&l->verified),
		   (long long)atomic64_read(&l->read),
		   (long long)atomic64_read(&l->written),
		   atomic_read(&l->rd_atomic), atomic_read(&l->dest_rd_atomic),
		   atomic_read(&l->dreq), atomic_read(&l->drep));
}

const struct ulp_pconn_ops ulp_rping_pconn_ops = {
	.setup = ulp_rping_server_setup,
	.post_recvs = ulp_rping_server_post_recvs,
	.established = ulp_rping_server_established,
	.dreq_work = ulp_rping_server_dreq_work,
	.show = ulp_rping_show,
};

/* --- client: a run of kind rping --- */

/* Map buffer @idx into MR @slot; the REG_MR is posted once in RTS. */
static int ulp_rping_map(struct ulp_rping *rp, unsigned int slot,
			 unsigned int idx)
{
	struct ulp_qpres *res = &rp->ep->res;
	struct ulp_buf *b = &res->bufs[idx];
	struct ib_mr *mr;
	struct scatterlist sg;
	int n;

	mr = ib_alloc_mr(res->pd, IB_MR_TYPE_MEM_REG,
			 DIV_ROUND_UP(b->size, PAGE_SIZE) + 1);
	if (IS_ERR(mr))
		return PTR_ERR(mr);
	res->mrs[slot] = mr;
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
static void ulp_rping_advert(struct ulp_rping *rp, unsigned int slot,
			     unsigned int idx)
{
	struct ulp_rping_info *info = rp->ep->res.bufs[idx].va;
	struct ib_mr *mr = rp->ep->res.mrs[slot];

	info->addr = cpu_to_be64(mr->iova);
	info->rkey = cpu_to_be32(mr->rkey);
	info->len = cpu_to_be32(rp->size);
}

/* Post the two registrations; the last completion starts the pings. */
static int ulp_rping_register(struct ulp_rping *rp)
{
	static const int access[ULP_RES_MRS] = {
		[ULP_MR_SRC] = IB_ACCESS_REMOTE_READ,
		[ULP_MR_SINK] = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	struct ulp_ep *ep = rp->ep;
	unsigned long flags;
	unsigned int i;
	int ret = 0;

	spin_lock_irqsave(&ep->lock, flags);
	for (i = 0; i < ULP_RES_MRS && !ret; i++) {
		struct ib_reg_wr wr = {
			.wr = {
				.wr_cqe = &rp->reg_cqe,
				.opcode = IB_WR_REG_MR,
				.send_flags = IB_SEND_SIGNALED,
			},
			.mr = ep->res.mrs[i],
			.key = ep->res.mrs[i]->rkey,
			.access = access[i],
		};

		ret = ep->closing ? -ESHUTDOWN :
				    ib_post_send(ep->res.qp, &wr.wr, NULL);
	}
	spin_unlock_irqrestore(&ep->lock, flags);
	return ret;
}

/* Resources made, before the REQ: the MRs and their advertisements. */
static int ulp_rping_client_setup(struct ulp_aconn *ac)
{
	struct ulp_rping *rp = &ac->rping;
	int ret;

	ulp_rping_init(rp, &ac->ep, ac->run->a->size);
	rp->ac = ac;
	ret = ulp_rping_map(rp, ULP_MR_SRC, ULP_RB_DATA);
	if (!ret)
		ret = ulp_rping_map(rp, ULP_MR_SINK, ULP_RB_SINK);
	if (ret)
		return ret;
	ulp_rping_advert(rp, ULP_MR_SRC, ULP_RB_CTRL);
	ulp_rping_advert(rp, ULP_MR_SINK, ULP_RB_SINK_ADV);
	return 0;
}

/* In RTS with the RTU sent: the first receive and the registrations. */
static int ulp_rping_client_start(struct ulp_aconn *ac)
{
	int ret;

	lockdep_assert_held(&ac->mutex);
	ulp_rping_qp_depths(ac->ep.res.qp, &ac->rec.rd_atomic,
			    &ac->rec.dest_rd_atomic);
	ret = ulp_rping_post_recv(&ac->rping);
	return ret ?: ulp_rping_register(&ac->rping);
}

/*
 * The REQ carries the RDMA CM header only, as rping's does; responder
 * resources and initiator depth 1 are what rping asks for too.
 */
const struct ulp_run_ops ulp_rping_run_ops = {
	.kind = ULP_REC_RPING,
	.nbufs = ULP_RB_NR,
	.setup = ulp_rping_client_setup,
	.start = ulp_rping_client_start,
};
