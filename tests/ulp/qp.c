// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Verbs resources of one endpoint (PD with its local DMA lkey, CQ, QP and
 * DMA-mapped message buffers), posting helpers, QP transitions and the
 * data pattern both ends verify.
 *
 * A message starts with a 16-byte header (magic, run, connection index,
 * sequence, big-endian) and continues with bytes derived from it, so a
 * receiver can verify a message knowing nothing but the message.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "ulp.h"

static void ulp_res_free_bufs(struct ulp_qpres *r)
{
	unsigned int i;

	for (i = 0; i < r->nbufs; i++) {
		struct ulp_buf *b = &r->bufs[i];

		if (b->ah) {
			rdma_destroy_ah(b->ah, RDMA_DESTROY_AH_SLEEPABLE);
			ulp_put(ULP_OBJ_AH);
		}
		ib_dma_unmap_single(r->dev, b->dma, b->size, DMA_BIDIRECTIONAL);
		kfree(b->va);
		ulp_put(ULP_OBJ_BUF);
	}
	kfree(r->bufs);
	r->bufs = NULL;
	r->nbufs = 0;
}

/**
 * ulp_res_destroy() - free what ulp_res_create() made (also partially)
 * @r: the resources
 *
 * The QP goes first, then the CQ (ib_free_cq() waits for a running
 * completion handler and drops unpolled completions), then the MRs in
 * @r->mrs, the buffers and the PD.  Callers make sure nothing posts to the
 * QP any more.
 */
void ulp_res_destroy(struct ulp_qpres *r)
{
	unsigned int i;

	if (r->qp) {
		ib_destroy_qp(r->qp);
		r->qp = NULL;
		ulp_put(ULP_OBJ_QP);
	}
	if (r->cq) {
		ib_free_cq(r->cq);
		r->cq = NULL;
		ulp_put(ULP_OBJ_CQ);
	}
	for (i = 0; i < ULP_RES_MRS; i++) {
		if (!r->mrs[i])
			continue;
		ib_dereg_mr(r->mrs[i]);
		r->mrs[i] = NULL;
		ulp_put(ULP_OBJ_MR);
	}
	if (r->bufs)
		ulp_res_free_bufs(r);
	if (r->pd) {
		ib_dealloc_pd(r->pd);
		r->pd = NULL;
		ulp_put(ULP_OBJ_PD);
	}
}

/**
 * ulp_res_create() - PD, CQ, QP and @nbufs buffers of @size bytes
 * @r: filled in; on error everything made so far is freed again
 * @dev: the device
 * @port: port the QP will use
 * @type: IB_QPT_RC or IB_QPT_UD
 * @nbufs: buffers, and the depth of both work queues
 * @size: bytes per buffer
 * @ctx: the buffers' and the QP's context
 * @qp_event: QP async event handler, or NULL
 *
 * Return: 0 or a negative errno.
 */
int ulp_res_create(struct ulp_qpres *r, struct ib_device *dev, u32 port,
		   enum ib_qp_type type, unsigned int nbufs, u32 size,
		   void *ctx, void (*qp_event)(struct ib_event *ev, void *ctx))
{
	struct ib_qp_init_attr init = {};
	int ret;

	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->port = port;

	r->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(r->pd)) {
		ret = PTR_ERR(r->pd);
		r->pd = NULL;
		return ret;
	}
	ulp_get(ULP_OBJ_PD);

	r->cq = ib_alloc_cq(dev, ctx, 2 * nbufs + 2, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(r->cq)) {
		ret = PTR_ERR(r->cq);
		r->cq = NULL;
		goto err;
	}
	ulp_get(ULP_OBJ_CQ);

	init.event_handler = qp_event;
	init.qp_context = ctx;
	init.send_cq = r->cq;
	init.recv_cq = r->cq;
	init.cap.max_send_wr = nbufs;
	init.cap.max_recv_wr = nbufs;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.sq_sig_type = IB_SIGNAL_ALL_WR;
	init.qp_type = type;
	init.port_num = port;
	r->qp = ib_create_qp(r->pd, &init);
	if (IS_ERR(r->qp)) {
		ret = PTR_ERR(r->qp);
		r->qp = NULL;
		goto err;
	}
	ulp_get(ULP_OBJ_QP);

	r->bufs = kcalloc(nbufs, sizeof(*r->bufs), GFP_KERNEL);
	if (!r->bufs) {
		ret = -ENOMEM;
		goto err;
	}
	for (r->nbufs = 0; r->nbufs < nbufs; r->nbufs++) {
		struct ulp_buf *b = &r->bufs[r->nbufs];

		b->res = r;
		b->ctx = ctx;
		b->size = size;
		b->va = kzalloc(size, GFP_KERNEL);
		if (!b->va) {
			ret = -ENOMEM;
			goto err;
		}
		b->dma = ib_dma_map_single(dev, b->va, size, DMA_BIDIRECTIONAL);
		if (ib_dma_mapping_error(dev, b->dma)) {
			kfree(b->va);
			ret = -ENOMEM;
			goto err;
		}
		ulp_get(ULP_OBJ_BUF);
	}
	return 0;

err:
	ulp_res_destroy(r);
	return ret;
}

/**
 * ulp_post_recv() - post buffer @b as a receive
 * @b: the buffer
 * @done: its completion handler
 *
 * Return: what ib_post_recv() returns.
 */
int ulp_post_recv(struct ulp_buf *b,
		  void (*done)(struct ib_cq *cq, struct ib_wc *wc))
{
	struct ulp_qpres *r = b->res;
	struct ib_sge sge = {
		.addr = b->dma,
		.length = b->size,
		.lkey = r->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = {
		.wr_cqe = &b->cqe,
		.sg_list = &sge,
		.num_sge = 1,
	};

	b->cqe.done = done;
	ib_dma_sync_single_for_device(r->dev, b->dma, b->size,
				      DMA_BIDIRECTIONAL);
	return ib_post_recv(r->qp, &wr, NULL);
}

/* Post @wr on @b's QP for @len bytes of @b from @offset, signalled. */
static int ulp_post_wr(struct ulp_buf *b, u32 offset, u32 len,
		       void (*done)(struct ib_cq *cq, struct ib_wc *wc),
		       struct ib_send_wr *wr)
{
	struct ulp_qpres *r = b->res;
	struct ib_sge sge = {
		.addr = b->dma + offset,
		.length = len,
		.lkey = r->pd->local_dma_lkey,
	};

	wr->wr_cqe = &b->cqe;
	wr->sg_list = &sge;
	wr->num_sge = 1;
	wr->send_flags = IB_SEND_SIGNALED;
	b->cqe.done = done;
	ib_dma_sync_single_for_device(r->dev, b->dma, b->size,
				      DMA_BIDIRECTIONAL);
	return ib_post_send(r->qp, wr, NULL);
}

/**
 * ulp_post_send() - send @len bytes of @b starting at @offset
 * @b: the buffer
 * @offset: first byte sent
 * @len: bytes
 * @done: the completion handler
 * @ah: UD address handle, or NULL on a connected QP
 * @remote_qpn: UD destination QPN
 * @remote_qkey: UD destination Q_Key
 *
 * On a UD QP the send carries the QP's number as immediate data.
 *
 * Return: what ib_post_send() returns.
 */
int ulp_post_send(struct ulp_buf *b, u32 offset, u32 len,
		  void (*done)(struct ib_cq *cq, struct ib_wc *wc),
		  struct ib_ah *ah, u32 remote_qpn, u32 remote_qkey)
{
	struct ib_ud_wr wr = {
		.wr.opcode = IB_WR_SEND,
		.ah = ah,
		.remote_qpn = remote_qpn,
		.remote_qkey = remote_qkey,
	};

	/*
	 * A datagram carries its sender's QPN as immediate data: rdma-core's
	 * udaddy answers to that QPN, not to the work completion's source.
	 */
	if (ah) {
		wr.wr.opcode = IB_WR_SEND_WITH_IMM;
		wr.wr.ex.imm_data = cpu_to_be32(b->res->qp->qp_num);
	}
	return ulp_post_wr(b, offset, len, done, &wr.wr);
}

/**
 * ulp_modify_qp_cm() - move @qp to @state with attributes from pdcm
 * @id: the connection's pdcm_id
 * @qp: its QP
 * @state: IB_QPS_INIT, IB_QPS_RTR or IB_QPS_RTS
 * @rq_psn: for RTR on the passive side before the REP is sent: the
 *	starting PSN the REP will carry (pdcm learns it only from the REP,
 *	as ib_cm); 0 to take pdcm's
 *
 * Return: 0 or the error of pdcm_init_qp_attr() or ib_modify_qp().
 */
int ulp_modify_qp_cm(struct pdcm_id *id, struct ib_qp *qp,
		     enum ib_qp_state state, u32 rq_psn)
{
	struct ib_qp_attr attr = {};
	int mask = 0;
	int ret;

	attr.qp_state = state;
	ret = pdcm_init_qp_attr(id, &attr, &mask);
	if (ret) {
		ulp_dbg("pdcm_init_qp_attr(%d) in %s: %d\n", state,
			pdcm_state_name(id->state), ret);
		return ret;
	}
	if (state == IB_QPS_RTR && rq_psn)
		attr.rq_psn = rq_psn;
	ret = ib_modify_qp(qp, &attr, mask);
	if (ret)
		ulp_dbg("ib_modify_qp(%d, mask 0x%x): %d\n", state, mask, ret);
	return ret;
}

/**
 * ulp_modify_ud() - take a UD QP through INIT, RTR and RTS
 * @r: the resources (port and QP)
 * @pkey: the P_Key to use
 * @qkey: the QP's Q_Key
 *
 * Return: 0 or a negative errno.
 */
int ulp_modify_ud(struct ulp_qpres *r, u16 pkey, u32 qkey)
{
	struct ib_qp_attr attr = {};
	u16 index;
	int ret;

	ret = ib_find_pkey(r->dev, r->port, pkey, &index);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_INIT;
	attr.pkey_index = index;
	attr.port_num = r->port;
	attr.qkey = qkey;
	ret = ib_modify_qp(r->qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		return ret;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(r->qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(r->qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

struct ulp_msg_hdr {
	__be32 magic;
	__be32 run;
	__be32 idx;
	__be32 seq;
};

static u8 ulp_pattern_byte(u32 run, u32 idx, u32 seq, u32 i)
{
	return (u8)(run * 7 + idx * 13 + seq * 31 + i);
}

/**
 * ulp_fill() - write message @seq of connection @idx of run @run
 * @buf: where
 * @len: its length, at least ULP_MIN_MSG
 * @run: run number
 * @idx: connection index in the run
 * @seq: message number
 */
void ulp_fill(void *buf, u32 len, u32 run, u32 idx, u32 seq)
{
	struct ulp_msg_hdr *h = buf;
	u8 *p = buf;
	u32 i;

	h->magic = cpu_to_be32(ULP_MAGIC);
	h->run = cpu_to_be32(run);
	h->idx = cpu_to_be32(idx);
	h->seq = cpu_to_be32(seq);
	for (i = sizeof(*h); i < len; i++)
		p[i] = ulp_pattern_byte(run, idx, seq, i);
}

/**
 * ulp_verify() - is @buf a message ulp_fill() wrote?
 * @buf: the message
 * @len: its length
 *
 * Return: true if the header's magic is right and every byte after it
 * follows from the header.
 */
bool ulp_verify(const void *buf, u32 len)
{
	const struct ulp_msg_hdr *h = buf;
	const u8 *p = buf;
	u32 run, idx, seq, i;

	if (len < sizeof(*h) || h->magic != cpu_to_be32(ULP_MAGIC))
		return false;
	run = be32_to_cpu(h->run);
	idx = be32_to_cpu(h->idx);
	seq = be32_to_cpu(h->seq);
	for (i = sizeof(*h); i < len; i++)
		if (p[i] != ulp_pattern_byte(run, idx, seq, i))
			return false;
	return true;
}

/**
 * ulp_ep_init() - set up the locking and the DREQ work of a connection
 * @ep: the connection's data path part
 * @dreq_work: what disconnecting from process context does
 *
 * Context: any.
 */
void ulp_ep_init(struct ulp_ep *ep, work_func_t dreq_work)
{
	spin_lock_init(&ep->lock);
	INIT_WORK(&ep->dreq_work, dreq_work);
}

/**
 * ulp_ep_quiesce() - stop @ep's posting and its DREQ work
 * @ep: the connection
 *
 * Context: process; waits for a running DREQ work.
 */
void ulp_ep_quiesce(struct ulp_ep *ep)
{
	unsigned long flags;

	spin_lock_irqsave(&ep->lock, flags);
	ep->closing = true;
	spin_unlock_irqrestore(&ep->lock, flags);
	cancel_work_sync(&ep->dreq_work);
}

/**
 * ulp_ep_free() - destroy a quiesced connection's id and resources
 * @ep: the connection, after ulp_ep_quiesce()
 * @destroy_id: destroy @ep->id too (false: pdcm destroys it, or none)
 *
 * Context: process.
 */
void ulp_ep_free(struct ulp_ep *ep, bool destroy_id)
{
	if (destroy_id && ep->id) {
		pdcm_destroy_id(ep->id);
		ulp_put(ULP_OBJ_ID);
	}
	ep->id = NULL;
	ulp_res_destroy(&ep->res);
}

/**
 * ulp_ep_queue_dreq() - queue @ep's DREQ work unless it is closing
 * @ep: the connection
 *
 * Context: any, completion handlers included.
 * Return: true if it was queued (or already was).
 */
bool ulp_ep_queue_dreq(struct ulp_ep *ep)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&ep->lock, flags);
	if (!ep->closing) {
		queue_work(ulp_wq, &ep->dreq_work);
		queued = true;
	}
	spin_unlock_irqrestore(&ep->lock, flags);
	return queued;
}

/**
 * ulp_ep_qp_event() - QP event handler of a connection (context: its ep)
 * @ev: the event
 * @ctx: the struct ulp_ep
 *
 * Data that arrives before the RTU raises COMM_EST on real HCAs (rxe
 * never does): tell pdcm, which then delivers USER_ESTABLISHED.
 *
 * Context: any.
 */
void ulp_ep_qp_event(struct ib_event *ev, void *ctx)
{
	struct ulp_ep *ep = ctx;
	unsigned long flags;

	if (ev->event != IB_EVENT_COMM_EST)
		return;
	spin_lock_irqsave(&ep->lock, flags);
	if (!ep->closing)
		pdcm_notify(ep->id, IB_EVENT_COMM_EST);
	spin_unlock_irqrestore(&ep->lock, flags);
}

/**
 * ulp_ep_post_recv() - ulp_post_recv() unless @ep is closing
 * @ep: the connection
 * @b: one of its buffers
 * @done: the completion handler
 *
 * Context: any.
 * Return: 0, -ESHUTDOWN if @ep is closing, or what ib_post_recv() returns.
 */
int ulp_ep_post_recv(struct ulp_ep *ep, struct ulp_buf *b,
		     void (*done)(struct ib_cq *cq, struct ib_wc *wc))
{
	unsigned long flags;
	int ret = -ESHUTDOWN;

	spin_lock_irqsave(&ep->lock, flags);
	if (!ep->closing)
		ret = ulp_post_recv(b, done);
	spin_unlock_irqrestore(&ep->lock, flags);
	return ret;
}

/**
 * ulp_ep_post_send() - send the first @len bytes of @b unless @ep is closing
 * @ep: the connection
 * @b: one of its buffers
 * @len: bytes
 * @done: the completion handler
 *
 * Context: any.
 * Return: 0, -ESHUTDOWN if @ep is closing, or what ib_post_send() returns.
 */
int ulp_ep_post_send(struct ulp_ep *ep, struct ulp_buf *b, u32 len,
		     void (*done)(struct ib_cq *cq, struct ib_wc *wc))
{
	unsigned long flags;
	int ret = -ESHUTDOWN;

	spin_lock_irqsave(&ep->lock, flags);
	if (!ep->closing)
		ret = ulp_post_send(b, 0, len, done, NULL, 0, 0);
	spin_unlock_irqrestore(&ep->lock, flags);
	return ret;
}

/**
 * ulp_ep_post_rdma() - RDMA READ into or WRITE from @b unless @ep is closing
 * @ep: the connection
 * @b: one of its buffers (the PD's local DMA lkey covers it)
 * @len: bytes, from the start of @b
 * @op: IB_WR_RDMA_READ or IB_WR_RDMA_WRITE
 * @raddr: the remote address
 * @rkey: its rkey
 * @done: the completion handler
 *
 * Context: any.
 * Return: 0, -ESHUTDOWN if @ep is closing, or what ib_post_send() returns.
 */
int ulp_ep_post_rdma(struct ulp_ep *ep, struct ulp_buf *b, u32 len,
		     enum ib_wr_opcode op, u64 raddr, u32 rkey,
		     void (*done)(struct ib_cq *cq, struct ib_wc *wc))
{
	struct ib_rdma_wr wr = {
		.wr.opcode = op,
		.remote_addr = raddr,
		.rkey = rkey,
	};
	unsigned long flags;
	int ret = -ESHUTDOWN;

	spin_lock_irqsave(&ep->lock, flags);
	if (!ep->closing)
		ret = ulp_post_wr(b, 0, len, done, &wr.wr);
	spin_unlock_irqrestore(&ep->lock, flags);
	return ret;
}
