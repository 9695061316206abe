// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The softib wire: every softib port of the machine on one in-memory
 * subnet, routed by LID.  A UD send copies its payload into a packet and
 * queues it here (any context: post_send may run under the consumer's
 * spinlock with interrupts off); an ordered work item delivers the
 * packets, in order, into the receive buffers of the QP their DLID and
 * destination QPN name, checking the Q_Key and P_Key as a CA does.  What
 * cannot be delivered is dropped silently, and counted.  Delivery never
 * runs in the sender's context, so a send to its own port takes no lock
 * the sender holds.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "softib.h"

enum sib_verdict {
	SIB_DELIVERED,
	SIB_NO_LID,
	SIB_NO_QP,
	SIB_BAD_QKEY,
	SIB_BAD_PKEY,
	SIB_NO_RECV,
	SIB_TOO_LONG,
	SIB_WIRE_FULL,
};

static const char *const sib_verdict_names[] = {
	[SIB_DELIVERED] = "delivered",
	[SIB_NO_LID] = "drop_lid",
	[SIB_NO_QP] = "drop_qp",
	[SIB_BAD_QKEY] = "drop_qkey",
	[SIB_BAD_PKEY] = "drop_pkey",
	[SIB_NO_RECV] = "drop_norecv",
	[SIB_TOO_LONG] = "drop_len",
	[SIB_WIRE_FULL] = "drop_wire",
};

/* One line of the wire log: a packet and what became of it. */
struct sib_log_entry {
	u64 seq;
	u16 slid;
	u16 dlid;
	u32 src_qpn;
	u32 dest_qpn;
	u16 pkey;
	bool grh;
	u8 mgmt_class;		/* QP0/QP1 packets: the MAD header */
	u8 method;
	u16 attr_id;
	enum sib_verdict verdict;
};

/*
 * @lock: the queue and the log; taken with interrupts off
 * @queue: packets sent and not yet delivered, at most SIB_WIRE_MAX
 */
static struct {
	spinlock_t lock;		/* see above */
	struct list_head queue;
	unsigned int queued;
	struct work_struct work;
	struct workqueue_struct *wq;
	u64 seq;
	struct sib_log_entry log[SIB_LOG_LEN];
} sib_wire;

static void sib_log(const struct sib_pkt *pkt, enum sib_verdict verdict)
{
	struct sib_log_entry *e;
	unsigned long flags;

	spin_lock_irqsave(&sib_wire.lock, flags);
	e = &sib_wire.log[sib_wire.seq % SIB_LOG_LEN];
	e->seq = ++sib_wire.seq;
	e->slid = pkt->slid;
	e->dlid = pkt->dlid;
	e->src_qpn = pkt->src_qpn;
	e->dest_qpn = pkt->dest_qpn;
	e->pkey = pkt->pkey;
	e->grh = pkt->has_grh;
	e->verdict = verdict;
	if (pkt->dest_qpn <= 1 && pkt->len >= sizeof(struct ib_mad_hdr)) {
		const struct ib_mad_hdr *hdr = (const void *)pkt->data;

		e->mgmt_class = hdr->mgmt_class;
		e->method = hdr->method;
		e->attr_id = be16_to_cpu(hdr->attr_id);
	} else {
		e->mgmt_class = 0;
		e->method = 0;
		e->attr_id = 0;
	}
	spin_unlock_irqrestore(&sib_wire.lock, flags);
}

/**
 * sib_wire_log_show() - the wire log, oldest first
 * @m: the seq_file
 *
 * Context: process context.
 */
void sib_wire_log_show(struct seq_file *m)
{
	struct sib_log_entry *log;
	unsigned long flags;
	u64 seq, first;

	log = kmalloc_array(SIB_LOG_LEN, sizeof(*log), GFP_KERNEL);
	if (!log)
		return;
	spin_lock_irqsave(&sib_wire.lock, flags);
	memcpy(log, sib_wire.log, SIB_LOG_LEN * sizeof(*log));
	seq = sib_wire.seq;
	spin_unlock_irqrestore(&sib_wire.lock, flags);
	first = seq > SIB_LOG_LEN ? seq - SIB_LOG_LEN : 0;
	for (; first < seq; first++) {
		const struct sib_log_entry *e = &log[first % SIB_LOG_LEN];

		if (!e->seq)
			continue;
		seq_printf(m, "%llu slid=%u dlid=%u qpn=%u->%u pkey=0x%04x grh=%d",
			   e->seq, e->slid, e->dlid, e->src_qpn, e->dest_qpn,
			   e->pkey, e->grh);
		if (e->dest_qpn <= 1)
			seq_printf(m, " class=0x%02x method=0x%02x attr=0x%04x",
				   e->mgmt_class, e->method, e->attr_id);
		seq_printf(m, " %s\n", sib_verdict_names[e->verdict]);
	}
	kfree(log);
}

/**
 * sib_wire_log_clear() - forget the logged packets
 *
 * Context: any.
 */
void sib_wire_log_clear(void)
{
	unsigned long flags;

	spin_lock_irqsave(&sib_wire.lock, flags);
	memset(sib_wire.log, 0, sizeof(sib_wire.log));
	spin_unlock_irqrestore(&sib_wire.lock, flags);
}

/* The port with @lid, or NULL.  LMC is 0 everywhere: a LID is a port. */
static struct sib_port *sib_port_by_lid(u16 lid)
{
	struct sib_dev *sdev;
	unsigned int p;

	lockdep_assert_held(&sib_table_mutex);
	list_for_each_entry(sdev, &sib_devs, node)
		for (p = 0; p < sdev->nports; p++)
			if (sdev->port[p].lid == lid)
				return &sdev->port[p];
	return NULL;
}

/**
 * sib_qp_lookup() - the QP a packet to @port with QPN @qpn goes to
 * @port: the receiving port
 * @qpn: the destination QPN
 *
 * Context: process context, sib_table_mutex held (the QP stays while it is).
 * Return: the QP, or NULL if there is none on @port.
 */
struct sib_qp *sib_qp_lookup(struct sib_port *port, u32 qpn)
{
	struct sib_qp *qp;

	lockdep_assert_held(&sib_table_mutex);
	if (qpn <= 1)
		return port->special[qpn];
	qp = xa_load(&port->dev->qps, qpn);
	if (!qp || qp->ibqp.qp_type != IB_QPT_UD || qp->port != port->num)
		return NULL;
	return qp;
}

/* Two P_Keys match: the same partition, and one of them a full member. */
static bool sib_pkey_match(u16 a, u16 b)
{
	return (a & 0x7fff) && (a & 0x7fff) == (b & 0x7fff) &&
	       ((a | b) & 0x8000);
}

/* The P_Key table index @pkey is received with on @qp, or -1. */
static int sib_pkey_index(const struct sib_qp *qp, u16 pkey)
{
	u16 i;

	lockdep_assert_held(&qp->lock);
	if (qp->ibqp.qp_type == IB_QPT_SMI)
		return 0;		/* QP0 checks no P_Key */
	if (qp->ibqp.qp_type == IB_QPT_UD)
		return sib_pkey_match(sib_pkey(qp->pkey_index), pkey) ?
		       qp->pkey_index : -1;
	for (i = 0; i < SIB_PKEY_TBL_LEN; i++)	/* QP1: any of the port's */
		if (sib_pkey_match(sib_pkey(i), pkey))
			return i;
	return -1;
}

/* Copy @len bytes from @src into a receive's buffers at @off. */
static void sib_scatter(const struct sib_rwqe *w, u32 off, const void *src,
			u32 len)
{
	unsigned int i;

	for (i = 0; i < w->num_sge && len; i++) {
		const struct ib_sge *sge = &w->sge[i];
		u32 n;

		if (off >= sge->length) {
			off -= sge->length;
			continue;
		}
		n = min(sge->length - off, len);
		memcpy((void *)(uintptr_t)(sge->addr + off), src, n);
		src += n;
		len -= n;
		off = 0;
	}
}

static enum sib_verdict sib_deliver_qp(struct sib_port *port, struct sib_qp *qp,
				       const struct sib_pkt *pkt)
{
	struct ib_wc wc = {};
	struct sib_rwqe *w;
	u32 room = 0;
	unsigned int i;
	int pkey_index;

	lockdep_assert_held(&qp->lock);
	if (qp->state != IB_QPS_RTR && qp->state != IB_QPS_RTS)
		return SIB_NO_QP;
	/* QP0 checks no Q_Key; QP1's is IB_QP1_QKEY, set by ib_mad */
	if (qp->ibqp.qp_type != IB_QPT_SMI && pkt->qkey != qp->qkey)
		return SIB_BAD_QKEY;
	pkey_index = sib_pkey_index(qp, pkt->pkey);
	if (pkey_index < 0)
		return SIB_BAD_PKEY;
	if (!qp->rq_count)
		return SIB_NO_RECV;
	w = &qp->rq[qp->rq_head];
	for (i = 0; i < w->num_sge; i++)
		room += w->sge[i].length;
	if (room < sizeof(struct ib_grh) + pkt->len)
		return SIB_TOO_LONG;
	qp->rq_head = (qp->rq_head + 1) % qp->rq_size;
	qp->rq_count--;

	/* the GRH slot stays as it was when the packet had none */
	if (pkt->has_grh)
		sib_scatter(w, 0, &pkt->grh, sizeof(pkt->grh));
	sib_scatter(w, sizeof(struct ib_grh), pkt->data, pkt->len);

	wc.wr_id = w->wr_id;
	wc.status = IB_WC_SUCCESS;
	wc.opcode = IB_WC_RECV;
	wc.byte_len = sizeof(struct ib_grh) + pkt->len;
	wc.qp = &qp->ibqp;
	wc.src_qp = pkt->src_qpn;
	wc.slid = pkt->slid;
	wc.sl = pkt->sl;
	wc.dlid_path_bits = 0;		/* LMC 0 */
	wc.pkey_index = pkey_index;
	wc.port_num = port->num;
	if (pkt->has_grh)
		wc.wc_flags |= IB_WC_GRH;
	if (pkt->has_imm) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = pkt->imm;
	}
	sib_cq_push(to_scq(qp->ibqp.recv_cq), &wc);
	return SIB_DELIVERED;
}

static const enum sib_counter sib_verdict_counter[] = {
	[SIB_DELIVERED] = SIB_RX,
	[SIB_NO_LID] = SIB_DROP_LID,
	[SIB_NO_QP] = SIB_DROP_QP,
	[SIB_BAD_QKEY] = SIB_DROP_QKEY,
	[SIB_BAD_PKEY] = SIB_DROP_PKEY,
	[SIB_NO_RECV] = SIB_DROP_NORECV,
	[SIB_TOO_LONG] = SIB_DROP_LEN,
	[SIB_WIRE_FULL] = SIB_DROP_WIRE,
};

static void sib_deliver(const struct sib_pkt *pkt)
{
	enum sib_verdict verdict;
	struct sib_port *port;
	struct sib_qp *qp;
	unsigned long flags;

	mutex_lock(&sib_table_mutex);
	port = sib_port_by_lid(pkt->dlid);
	if (!port) {
		/* counted on the sender's port, if it is still there */
		verdict = SIB_NO_LID;
		port = sib_port_by_lid(pkt->slid);
	} else {
		qp = sib_qp_lookup(port, pkt->dest_qpn);
		if (qp) {
			spin_lock_irqsave(&qp->lock, flags);
			verdict = sib_deliver_qp(port, qp, pkt);
			spin_unlock_irqrestore(&qp->lock, flags);
		} else {
			verdict = SIB_NO_QP;
		}
	}
	if (port)
		sib_count(port, sib_verdict_counter[verdict]);
	mutex_unlock(&sib_table_mutex);
	sib_log(pkt, verdict);
}

static void sib_wire_work(struct work_struct *work)
{
	struct sib_pkt *pkt;
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&sib_wire.lock, flags);
		pkt = list_first_entry_or_null(&sib_wire.queue, struct sib_pkt,
					       node);
		if (pkt) {
			list_del(&pkt->node);
			sib_wire.queued--;
		}
		spin_unlock_irqrestore(&sib_wire.lock, flags);
		if (!pkt)
			return;
		sib_deliver(pkt);
		kfree(pkt);
		cond_resched();
	}
}

/**
 * sib_wire_send() - put a packet on the wire
 * @port: the sending port
 * @pkt: the packet; the wire owns it from now on
 *
 * A full wire drops it (counted on @port), as a congested link would.
 *
 * Context: any.
 */
void sib_wire_send(struct sib_port *port, struct sib_pkt *pkt)
{
	unsigned long flags;
	bool full;

	spin_lock_irqsave(&sib_wire.lock, flags);
	full = sib_wire.queued >= SIB_WIRE_MAX;
	if (!full) {
		list_add_tail(&pkt->node, &sib_wire.queue);
		sib_wire.queued++;
		queue_work(sib_wire.wq, &sib_wire.work);
	}
	spin_unlock_irqrestore(&sib_wire.lock, flags);
	if (full) {
		sib_count(port, SIB_DROP_WIRE);
		sib_log(pkt, SIB_WIRE_FULL);
		kfree(pkt);
	}
}

/**
 * sib_wire_init() - set the wire up
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int sib_wire_init(void)
{
	spin_lock_init(&sib_wire.lock);
	INIT_LIST_HEAD(&sib_wire.queue);
	INIT_WORK(&sib_wire.work, sib_wire_work);
	sib_wire.wq = alloc_ordered_workqueue("softib_wire", 0);
	return sib_wire.wq ? 0 : -ENOMEM;
}

/**
 * sib_wire_exit() - deliver (or drop) what is queued, then take it down
 *
 * Context: process context; every device is gone, so nothing sends.
 */
void sib_wire_exit(void)
{
	flush_workqueue(sib_wire.wq);
	destroy_workqueue(sib_wire.wq);
	WARN_ON(!list_empty(&sib_wire.queue));
}
