// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * softib verbs: protection domains, memory regions (no translation: with
 * virtual DMA an SGE holds a kernel address), completion queues, QPs and
 * address handles.  Kernel consumers only: any udata is refused.
 */
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "softib.h"

int sib_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return udata ? -EOPNOTSUPP : 0;
}

int sib_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

struct ib_mr *sib_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct sib_mr *mr = kzalloc(sizeof(*mr), GFP_KERNEL);

	if (!mr)
		return ERR_PTR(-ENOMEM);
	/* lkey/rkey 0, as the device's local_dma_lkey: never checked */
	return &mr->ibmr;
}

#if SIB_REG_MR_DMAH
struct ib_mr *sib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 virt_addr, int access, struct ib_dmah *dmah,
			      struct ib_udata *udata)
#else
struct ib_mr *sib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 virt_addr, int access,
			      struct ib_udata *udata)
#endif
{
	return ERR_PTR(-EOPNOTSUPP);
}

int sib_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	kfree(container_of(ibmr, struct sib_mr, ibmr));
	return 0;
}

/* --- completion queues -------------------------------------------------- */

static void sib_cq_comp_work(struct work_struct *work)
{
	struct sib_cq *cq = container_of(work, struct sib_cq, comp_work);

	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

int sib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  SIB_CQ_UDATA *udata)
{
	struct sib_cq *cq = to_scq(ibcq);

	if (udata)
		return -EOPNOTSUPP;
	if (attr->flags || !attr->cqe || attr->cqe > SIB_MAX_CQE)
		return -EINVAL;
	cq->ring = kvcalloc(attr->cqe, sizeof(*cq->ring), GFP_KERNEL);
	if (!cq->ring)
		return -ENOMEM;
	spin_lock_init(&cq->lock);
	cq->size = attr->cqe;
	INIT_WORK(&cq->comp_work, sib_cq_comp_work);
	ibcq->cqe = attr->cqe;
	return 0;
}

int sib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct sib_cq *cq = to_scq(ibcq);

	/* no QP uses it any more: nothing queues the work again */
	cancel_work_sync(&cq->comp_work);
	kvfree(cq->ring);
	return 0;
}

static void __sib_cq_push(struct sib_cq *cq, const struct ib_wc *wc)
{
	lockdep_assert_held(&cq->lock);
	if (cq->count == cq->size) {
		struct sib_qp *qp = to_sqp(wc->qp);

		/* a CQ sized too small: the completion is lost, and counted */
		if (qp->port)
			sib_count(sib_port(qp->dev, qp->port), SIB_CQ_OVERFLOW);
		pr_warn_ratelimited("softib: CQ overflow, completion of QP %u lost\n",
				    qp->ibqp.qp_num);
		return;
	}
	cq->ring[(cq->head + cq->count) % cq->size] = *wc;
	cq->count++;
	if (cq->notify) {
		cq->notify = 0;
		queue_work(sib_comp_wq, &cq->comp_work);
	}
}

/**
 * sib_cq_push() - add a work completion to a CQ
 * @cq: the CQ
 * @wc: the completion (its @qp set)
 *
 * An armed CQ is disarmed and its completion handler called from a work
 * item.
 *
 * Context: any; takes @cq's lock.
 */
void sib_cq_push(struct sib_cq *cq, const struct ib_wc *wc)
{
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	__sib_cq_push(cq, wc);
	spin_unlock_irqrestore(&cq->lock, flags);
}

int sib_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc)
{
	struct sib_cq *cq = to_scq(ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	while (n < num && cq->count) {
		wc[n++] = cq->ring[cq->head];
		cq->head = (cq->head + 1) % cq->size;
		cq->count--;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

int sib_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct sib_cq *cq = to_scq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* every completion counts as solicited */
	cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->count)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/* --- QPs ------------------------------------------------------------------ */

static void sib_qp_complete(struct sib_qp *qp, struct ib_cq *ibcq, u64 wr_id,
			    enum ib_wc_opcode opcode, enum ib_wc_status status,
			    u32 byte_len)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = status,
		.opcode = opcode,
		.byte_len = byte_len,
		.qp = &qp->ibqp,
		.port_num = qp->port,
	};

	sib_cq_push(to_scq(ibcq), &wc);
}

/* Complete every posted receive with a flush error (the QP went to ERR). */
static void sib_qp_flush_rq(struct sib_qp *qp)
{
	lockdep_assert_held(&qp->lock);
	while (qp->rq_count) {
		struct sib_rwqe *w = &qp->rq[qp->rq_head];

		sib_qp_complete(qp, qp->ibqp.recv_cq, w->wr_id, IB_WC_RECV,
				IB_WC_WR_FLUSH_ERR, 0);
		qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
		qp->rq_count--;
	}
}

int sib_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct sib_dev *sdev = to_sdev(ibqp->device);
	struct sib_qp *qp = to_sqp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	u32 qpn;
	int ret;

	if (udata)
		return -EOPNOTSUPP;
	if (init->srq || init->create_flags || !init->send_cq || !init->recv_cq)
		return -EINVAL;
	switch (init->qp_type) {
	case IB_QPT_SMI:
	case IB_QPT_GSI:
		if (!rdma_is_port_valid(&sdev->ibdev, init->port_num))
			return -EINVAL;
		break;
	case IB_QPT_UD:
	case IB_QPT_RC:
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (cap->max_send_wr > SIB_MAX_QP_WR || cap->max_recv_wr > SIB_MAX_QP_WR ||
	    cap->max_send_sge > SIB_MAX_SGE || cap->max_recv_sge > SIB_MAX_SGE)
		return -EINVAL;
	cap->max_inline_data = 0;

	spin_lock_init(&qp->lock);
	qp->dev = sdev;
	qp->state = IB_QPS_RESET;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->max_send_sge = cap->max_send_sge;
	qp->max_recv_sge = cap->max_recv_sge;
	qp->rq_size = max(cap->max_recv_wr, 1U);
	qp->rq = kvcalloc(qp->rq_size, sizeof(*qp->rq), GFP_KERNEL);
	if (!qp->rq)
		return -ENOMEM;

	mutex_lock(&sib_table_mutex);
	if (init->qp_type == IB_QPT_SMI || init->qp_type == IB_QPT_GSI) {
		struct sib_port *port = sib_port(sdev, init->port_num);

		qpn = init->qp_type == IB_QPT_SMI ? 0 : 1;
		if (port->special[qpn]) {
			ret = -EBUSY;
		} else {
			qp->port = init->port_num;
			port->special[qpn] = qp;
			ret = 0;
		}
	} else if (atomic_inc_return(&sdev->nqps) > SIB_MAX_QP) {
		atomic_dec(&sdev->nqps);
		ret = -ENOMEM;
	} else {
		ret = xa_alloc_cyclic(&sdev->qps, &qpn, qp,
				      XA_LIMIT(2, SIB_QPN_MAX), &sdev->next_qpn,
				      GFP_KERNEL);
		ret = ret < 0 ? ret : 0;
		if (ret)
			atomic_dec(&sdev->nqps);
	}
	if (!ret)
		ibqp->qp_num = qpn;
	mutex_unlock(&sib_table_mutex);
	if (ret)
		kvfree(qp->rq);
	return ret;
}

int sib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct sib_qp *qp = to_sqp(ibqp);
	enum ib_qp_state cur, next;
	unsigned long flags;
	int ret = 0;

	if (udata)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PORT) &&
	    (ibqp->qp_type == IB_QPT_SMI || ibqp->qp_type == IB_QPT_GSI ||
	     !rdma_is_port_valid(ibqp->device, attr->port_num)))
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= SIB_PKEY_TBL_LEN)
		return -EINVAL;

	spin_lock_irqsave(&qp->lock, flags);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask) ||
	    (next != IB_QPS_RESET && !qp->port && !(mask & IB_QP_PORT))) {
		ret = -EINVAL;
		goto out;
	}
	if (mask & IB_QP_PORT)
		qp->port = attr->port_num;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn & 0xffffff;
	if (mask & IB_QP_RQ_PSN)
		qp->rq_psn = attr->rq_psn & 0xffffff;
	if (mask & IB_QP_DEST_QPN)
		qp->dest_qpn = attr->dest_qp_num & 0xffffff;
	if (mask & IB_QP_AV) {
		qp->rc_dlid = rdma_ah_get_dlid(&attr->ah_attr);
		qp->rc_grh = !!(rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH);
	}
	if (next == IB_QPS_ERR && cur != IB_QPS_ERR)
		sib_qp_flush_rq(qp);
	if (next == IB_QPS_RESET) {
		qp->rq_head = 0;
		qp->rq_count = 0;
	}
	qp->state = next;
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	return ret;
}

int sib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct sib_qp *qp = to_sqp(ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	spin_lock_irqsave(&qp->lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->port_num = qp->port;
	attr->qkey = qp->qkey;
	attr->pkey_index = qp->pkey_index;
	attr->sq_psn = qp->sq_psn;
	attr->rq_psn = qp->rq_psn;
	attr->dest_qp_num = qp->dest_qpn;
	attr->path_mtu = IB_MTU_4096;
	if (ibqp->qp_type == IB_QPT_RC) {
		attr->ah_attr.type = RDMA_AH_ATTR_TYPE_IB;
		rdma_ah_set_dlid(&attr->ah_attr, qp->rc_dlid);
		rdma_ah_set_port_num(&attr->ah_attr, qp->port);
		if (qp->rc_grh)
			rdma_ah_set_ah_flags(&attr->ah_attr, IB_AH_GRH);
	}
	attr->cap.max_recv_wr = qp->rq_size;
	attr->cap.max_send_sge = qp->max_send_sge;
	attr->cap.max_recv_sge = qp->max_recv_sge;
	spin_unlock_irqrestore(&qp->lock, flags);
	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

int sib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sib_qp *qp = to_sqp(ibqp);
	struct sib_dev *sdev = qp->dev;

	/* after this, the wire cannot find it: no delivery is under way */
	mutex_lock(&sib_table_mutex);
	if (ibqp->qp_type == IB_QPT_SMI || ibqp->qp_type == IB_QPT_GSI)
		sib_port(sdev, qp->port)->special[ibqp->qp_num] = NULL;
	else if (xa_erase(&sdev->qps, ibqp->qp_num))
		atomic_dec(&sdev->nqps);
	mutex_unlock(&sib_table_mutex);
	kvfree(qp->rq);
	return 0;
}

int sib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct sib_qp *qp = to_sqp(ibqp);
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		struct sib_rwqe *w;

		if (qp->state == IB_QPS_RESET || wr->num_sge > qp->max_recv_sge) {
			ret = -EINVAL;
			break;
		}
		if (qp->state == IB_QPS_ERR) {
			sib_qp_complete(qp, ibqp->recv_cq, wr->wr_id, IB_WC_RECV,
					IB_WC_WR_FLUSH_ERR, 0);
			continue;
		}
		if (qp->rq_count == qp->rq_size) {
			ret = -ENOMEM;
			break;
		}
		w = &qp->rq[(qp->rq_head + qp->rq_count) % qp->rq_size];
		w->wr_id = wr->wr_id;
		w->num_sge = wr->num_sge;
		memcpy(w->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
		qp->rq_count++;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (ret)
		*bad_wr = wr;
	return ret;
}

/* The UD fields of one send, checked and put into a packet. */
static int sib_send_ud(struct sib_qp *qp, const struct ib_send_wr *wr,
		       u32 qkey, u16 pkey_index)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	struct sib_port *port = sib_port(qp->dev, qp->port);
	struct sib_ah *ah = to_sah(ud->ah);
	struct sib_pkt *pkt;
	u32 len = 0, off = 0;
	int i;

	if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM)
		return -EINVAL;
	if (wr->num_sge > qp->max_send_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (len > SIB_MAX_PAYLOAD)
		return -EINVAL;
	if (qp->ibqp.qp_type == IB_QPT_GSI || qp->ibqp.qp_type == IB_QPT_SMI)
		pkey_index = ud->pkey_index;
	if (pkey_index >= SIB_PKEY_TBL_LEN)
		return -EINVAL;

	pkt = kmalloc(struct_size(pkt, data, len), GFP_ATOMIC);
	if (!pkt)
		return -ENOMEM;
	for (i = 0; i < wr->num_sge; i++) {
		const struct ib_sge *sge = &wr->sg_list[i];

		memcpy(pkt->data + off, (void *)(uintptr_t)sge->addr,
		       sge->length);
		off += sge->length;
	}
	pkt->len = len;
	pkt->slid = port->lid;
	pkt->dlid = rdma_ah_get_dlid(&ah->attr);
	pkt->sl = rdma_ah_get_sl(&ah->attr);
	pkt->src_qpn = qp->ibqp.qp_num;
	pkt->dest_qpn = ud->remote_qpn & 0xffffff;
	/* the high bit: "use the QP's own Q_Key" */
	pkt->qkey = (ud->remote_qkey & 0x80000000) ? qkey : ud->remote_qkey;
	pkt->pkey = sib_pkey(pkey_index);
	pkt->has_imm = wr->opcode == IB_WR_SEND_WITH_IMM;
	pkt->imm = pkt->has_imm ? wr->ex.imm_data : 0;
	pkt->has_grh = !!(rdma_ah_get_ah_flags(&ah->attr) & IB_AH_GRH);
	memset(&pkt->grh, 0, sizeof(pkt->grh));
	if (pkt->has_grh) {
		const struct ib_global_route *grh = rdma_ah_read_grh(&ah->attr);

		pkt->grh.version_tclass_flow =
			cpu_to_be32(6U << 28 | (u32)grh->traffic_class << 20 |
				    (grh->flow_label & 0xfffff));
		/* BTH, DETH, payload, ICRC */
		pkt->grh.paylen = cpu_to_be16(12 + 8 + len + 4);
		pkt->grh.next_hdr = 0x1b;
		pkt->grh.hop_limit = grh->hop_limit;
		sib_port_gid(port, &pkt->grh.sgid);
		pkt->grh.dgid = grh->dgid;
	}
	if (qp->ibqp.qp_type == IB_QPT_GSI && len > 1 &&
	    pkt->data[1] == IB_MGMT_CLASS_CM)
		sib_count(port, pkt->has_grh ? SIB_TX_CM_GRH : SIB_TX_CM_LID);
	sib_count(port, pkt->has_grh ? SIB_TX_GRH : SIB_TX_LID);
	sib_wire_send(port, pkt);
	return 0;
}

int sib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct sib_qp *qp = to_sqp(ibqp);
	enum ib_qp_state state;
	unsigned long flags;
	u16 pkey_index;
	int ret = 0;
	u32 qkey;

	for (; wr; wr = wr->next) {
		spin_lock_irqsave(&qp->lock, flags);
		state = qp->state;
		qkey = qp->qkey;
		pkey_index = qp->pkey_index;
		spin_unlock_irqrestore(&qp->lock, flags);

		if (state == IB_QPS_ERR) {
			/* flushed, signalled or not (ib_drain_sq waits on it) */
			sib_qp_complete(qp, ibqp->send_cq, wr->wr_id, IB_WC_SEND,
					IB_WC_WR_FLUSH_ERR, 0);
			continue;
		}
		if (ibqp->qp_type == IB_QPT_RC)
			ret = -EOPNOTSUPP;	/* RC carries no data */
		else if (state != IB_QPS_RTS)
			ret = -EINVAL;
		else
			ret = sib_send_ud(qp, wr, qkey, pkey_index);
		if (ret)
			break;
		/* sent (or dropped on the wire, as UD may be): complete */
		if (qp->sig_all || (wr->send_flags & IB_SEND_SIGNALED))
			sib_qp_complete(qp, ibqp->send_cq, wr->wr_id,
					IB_WC_SEND, IB_WC_SUCCESS, 0);
	}
	if (ret)
		*bad_wr = wr;
	return ret;
}

/* --- address handles ---------------------------------------------------- */

int sib_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata)
{
	struct sib_ah *ah = to_sah(ibah);

	/* may be atomic (ib_cm under a spinlock): no sleeping here */
	if (udata || init->ah_attr->type != RDMA_AH_ATTR_TYPE_IB)
		return -EINVAL;
	ah->attr = *init->ah_attr;
	ah->attr.grh.sgid_attr = NULL;
	return 0;
}

int sib_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_sah(ibah)->attr;
	return 0;
}

int sib_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}
