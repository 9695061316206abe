// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fake device and transport of fake.h.
 */
#include <linux/delay.h>
#include <linux/ip.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/checksum.h>
#include <rdma/ib_sa.h>

#include "../../cm/compat.h"
#include "fake.h"

struct fake *fake_cur;
static struct workqueue_struct *fake_wq;
static atomic_t fake_seq = ATOMIC_INIT(0);
static int fake_dummy_agent;

/* What mad.c's send handler does; false if @h already completed. */
bool fake_complete(struct fake_handle *h, enum ib_wc_status status)
{
	struct fake *f = fake_cur;
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	if (h->done) {
		spin_unlock_irqrestore(&f->lock, flags);
		return false;
	}
	h->done = true;
	spin_unlock_irqrestore(&f->lock, flags);
	f->port->up->send_done(h->conn, &h->buf, status);
	return true;
}

static void fake_flush_fn(struct work_struct *work)
{
	fake_complete(container_of(work, struct fake_handle, work),
		      IB_WC_WR_FLUSH_ERR);
}

/* ib_cancel_mad(): the completion comes later, flushed. */
static void fake_cancel_handle(struct fake *f, struct ib_mad_send_buf *buf)
{
	struct fake_handle *h = container_of(buf, struct fake_handle, buf);
	unsigned long flags;

	spin_lock_irqsave(&f->lock, flags);
	if (!h->done && !h->queued) {
		h->queued = true;
		queue_work(fake_wq, &h->work);
	}
	spin_unlock_irqrestore(&f->lock, flags);
}

static struct fake_sent *fake_record(struct fake *f, const struct pdcm_msg *msg,
				     bool reply)
{
	struct fake_sent *s = kzalloc(sizeof(*s), GFP_ATOMIC);
	unsigned long flags;

	if (!s)
		return NULL;
	s->msg = *msg;
	s->reply = reply;
	s->remote_qpn = 1;
	s->encode_ret = pdcm_wire_encode(msg, s->mad);
	spin_lock_irqsave(&f->lock, flags);
	list_add_tail(&s->node, &f->sent);
	f->nsent++;
	spin_unlock_irqrestore(&f->lock, flags);
	return s;
}

static int fake_op_send(struct pdcm_conn *conn, const struct pdcm_msg *msg,
			unsigned int timeout_ms, unsigned int retries)
{
	struct fake *f = fake_cur;
	struct fake_handle *h = NULL;
	unsigned long flags;
	struct fake_sent *s;

	lockdep_assert_held(&conn->lock);
	if (f->send_err)
		return f->send_err;
	if (timeout_ms) {
		h = kzalloc(sizeof(*h), GFP_ATOMIC);
		if (!h)
			return -ENOMEM;
		INIT_WORK(&h->work, fake_flush_fn);
		h->conn = conn;
	}
	s = fake_record(f, msg, false);
	if (!s) {
		kfree(h);
		return -ENOMEM;
	}
	s->conn = conn;
	s->remote_qpn = pdcm_cm_qpn(conn);
	s->timeout_ms = timeout_ms;
	s->retries = retries;
	if (!h)
		return 0;
	spin_lock_irqsave(&f->lock, flags);
	list_add_tail(&h->node, &f->handles);
	spin_unlock_irqrestore(&f->lock, flags);
	f->port->up->hold(conn);
	if (conn->msg)
		fake_cancel_handle(f, conn->msg);
	conn->msg = &h->buf;
	return 0;
}

static void fake_op_cancel(struct pdcm_conn *conn)
{
	struct fake *f = fake_cur;
	unsigned long flags;

	lockdep_assert_held(&conn->lock);
	spin_lock_irqsave(&f->lock, flags);
	f->ncancel++;
	spin_unlock_irqrestore(&f->lock, flags);
	if (conn->msg)
		fake_cancel_handle(f, conn->msg);
}

static void fake_op_extend(struct pdcm_conn *conn, unsigned int timeout_ms)
{
	struct fake *f = fake_cur;
	unsigned long flags;

	lockdep_assert_held(&conn->lock);
	spin_lock_irqsave(&f->lock, flags);
	f->nextend++;
	f->last_extend = timeout_ms;
	spin_unlock_irqrestore(&f->lock, flags);
}

static int fake_op_reply(const struct pdcm_rx *rx, const struct pdcm_msg *msg)
{
	return fake_record(fake_cur, msg, true) ? 0 : -ENOMEM;
}

/*
 * The addresses the MAD layer would build, without a GID table: no
 * sgid_attr, so rdma_destroy_ah_attr() on them is a no-op.  From a
 * received packet, as ib_init_ah_attr_from_wc(): the GRH's traffic class
 * and flow label (on RoCE over IPv4 the slot's first word is not a GRH's:
 * zero), hop limit 0xff, the packet's SL; on InfiniBand its source LID.
 */
static void fake_av_from_packet(const struct pdcm_rx *rx, bool roce,
				struct rdma_ah_attr *av)
{
	u32 fc = be32_to_cpu(rx->grh.version_tclass_flow);

	memset(av, 0, sizeof(*av));
	av->type = roce ? RDMA_AH_ATTR_TYPE_ROCE : RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_sl(av, rx->wc.sl);
	rdma_ah_set_port_num(av, rx->port->port_num);
	if (!roce) {
		rdma_ah_set_dlid(av, rx->wc.slid);
		rdma_ah_set_path_bits(av, rx->wc.dlid_path_bits);
	}
	if (rx->wc.wc_flags & IB_WC_GRH) {
		av->ah_flags |= IB_AH_GRH;
		av->grh.dgid = rx->grh.sgid;
		av->grh.flow_label = fc & 0xfffff;
		av->grh.hop_limit = 0xff;
		av->grh.traffic_class = (fc >> 20) & 0xff;
	}
}

/* ... and from a path, as ib_init_ah_attr_from_path(). */
static void fake_av_from_path(struct sa_path_rec *path, u32 port,
			      struct rdma_ah_attr *av)
{
	memset(av, 0, sizeof(*av));
	av->type = sa_path_is_roce(path) ? RDMA_AH_ATTR_TYPE_ROCE :
					   RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_sl(av, path->sl);
	rdma_ah_set_port_num(av, port);
	rdma_ah_set_static_rate(av, path->rate);
	if (!sa_path_is_roce(path))
		rdma_ah_set_dlid(av, be32_to_cpu(sa_path_get_dlid(path)));
	if (path->hop_limit > 0 || sa_path_is_roce(path)) {
		av->ah_flags |= IB_AH_GRH;
		av->grh.dgid = path->dgid;
		av->grh.flow_label = be32_to_cpu(path->flow_label);
		av->grh.hop_limit = path->hop_limit;
		av->grh.traffic_class = path->traffic_class;
	}
}

/* Device removal in the middle of building an address (remove_in_av). */
static void fake_remove_in_av(struct fake *f)
{
	if (!f->remove_in_av)
		return;
	write_lock_irq(&f->port->agent_lock);
	f->port->agent = NULL;
	write_unlock_irq(&f->port->agent_lock);
}

static int fake_op_peer_av(struct pdcm_conn *conn, const struct pdcm_rx *rx,
			   struct sa_path_rec *path)
{
	bool roce = rdma_protocol_roce(rx->port->dev->ibdev, rx->port->port_num);
	struct fake *f = fake_cur;
	struct rdma_ah_attr av;

	f->npeer_av++;
	if (f->peer_av_err)
		return f->peer_av_err;
	fake_av_from_packet(rx, roce, &av);
	if (path) {
		path->hop_limit = av.grh.hop_limit;
		fake_av_from_path(path, rx->port->port_num, &av);
	}
	fake_remove_in_av(f);
	return pdcm_mad_set_av(conn, &av, rx->wc.pkey_index);
}

static int fake_op_path_av(struct pdcm_conn *conn, struct sa_path_rec *path,
			   const struct ib_gid_attr *sgid_attr)
{
	struct fake *f = fake_cur;
	struct rdma_ah_attr av;

	f->npath_av++;
	f->path_sgid_attr = sgid_attr;
	fake_av_from_path(path, conn->port->port_num, &av);
	fake_remove_in_av(f);
	return pdcm_mad_set_av(conn, &av, 0);
}

/* An alternate path's address: on the fake's one port, P_Key index 0. */
static int fake_op_alt_av(struct pdcm_port *port, struct sa_path_rec *path,
			  struct pdcm_alt *alt)
{
	struct fake *f = fake_cur;

	f->nalt_av++;
	if (f->alt_av_err)
		return f->alt_av_err;
	fake_av_from_path(path, port->port_num, &alt->ah_attr);
	alt->port = port;
	alt->pkey_index = 0;
	return 0;
}

static const struct pdcm_transport_ops fake_ops = {
	.send = fake_op_send,
	.cancel = fake_op_cancel,
	.extend = fake_op_extend,
	.reply = fake_op_reply,
	.peer_av = fake_op_peer_av,
	.path_av = fake_op_path_av,
	.alt_av = fake_op_alt_av,
};

/*
 * Let every queued handler and cancel completion run.  pdcm_wq is not
 * ordered and an event may queue another (a REQ's work hands the conn
 * to the ULP, a cancel completes later), so flush until a round finds
 * nothing left to do.
 */
void fake_settle(void)
{
	int i;

	for (i = 0; i < 4; i++) {
		flush_workqueue(fake_wq);
		flush_workqueue(pdcm_wq);
	}
}

static void fake_hold_fn(struct work_struct *work)
{
	struct fake *f = container_of(work, struct fake, hold_work);

	wait_for_completion(&f->hold_done);
}

/*
 * Hold pdcm's event processing: what is queued after this waits until
 * fake_release().  pdcm_wq runs its items concurrently, so it is limited
 * to one active item meanwhile, and that item waits.
 */
void fake_hold(struct fake *f)
{
	init_completion(&f->hold_done);
	INIT_WORK(&f->hold_work, fake_hold_fn);
	workqueue_set_max_active(pdcm_wq, 1);
	queue_work(pdcm_wq, &f->hold_work);
}

/* Let what fake_hold() held run (not waiting for it: fake_settle() does). */
void fake_release(struct fake *f)
{
	complete(&f->hold_done);
	flush_work(&f->hold_work);
	workqueue_set_max_active(pdcm_wq, WQ_DFL_ACTIVE);
}

/* The @n-th message sent (0-based), or NULL. */
struct fake_sent *fake_nth(struct fake *f, unsigned int n)
{
	struct fake_sent *s;

	list_for_each_entry(s, &f->sent, node)
		if (!n--)
			return s;
	return NULL;
}

struct fake_sent *fake_last(struct fake *f)
{
	return f->nsent ? fake_nth(f, f->nsent - 1) : NULL;
}

unsigned int fake_count(struct fake *f, u16 attr)
{
	struct fake_sent *s;
	unsigned int n = 0;

	list_for_each_entry(s, &f->sent, node)
		n += s->msg.hdr.attr_id == attr;
	return n;
}

/* The handle of the last retried send, or NULL. */
struct fake_handle *fake_last_handle(struct fake *f)
{
	return list_empty(&f->handles) ? NULL :
	       list_last_entry(&f->handles, struct fake_handle, node);
}

/* The last retried send runs out of retries; false if none is pending. */
bool fake_time_out(struct fake *f)
{
	struct fake_handle *h;
	bool ret = false;

	list_for_each_entry_reverse(h, &f->handles, node)
		if (!h->done) {
			ret = fake_complete(h, IB_WC_RESP_TIMEOUT_ERR);
			break;
		}
	fake_settle();
	return ret;
}

/*
 * @m arrives from the port whose GID has the interface ID @iid (the peer's
 * is its GUID); its handler is left queued on pdcm_wq.
 */
void fake_inject_from(struct fake *f, const struct pdcm_msg *m, u64 iid)
{
	struct pdcm_rx rx = { .port = f->port };

	rx.wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	rx.wc.network_hdr_type = RDMA_NETWORK_IPV6;
	rx.grh.sgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	rx.grh.sgid.global.interface_id = cpu_to_be64(iid);
	rx.grh.dgid.global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	rx.grh.dgid.global.interface_id = cpu_to_be64(f->node_guid);
	f->port->up->rx(&rx, m);
}

/* @m arrives from the peer; its handler is left queued on pdcm_wq. */
void fake_inject(struct fake *f, const struct pdcm_msg *m)
{
	fake_inject_from(f, m, f->peer_guid);
}

/*
 * @m arrives over RoCE v2 from IPv4 address @saddr to @daddr and is
 * handled: the receive buffer's last 20 bytes hold the IPv4 header, as
 * the MAD layer leaves them (no GRH).
 */
void fake_rx_ipv4(struct fake *f, const struct pdcm_msg *m, __be32 saddr,
		  __be32 daddr)
{
	struct pdcm_rx rx = { .port = f->port };
	struct iphdr *ip = (void *)((u8 *)&rx.grh + 20);

	rx.wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	rx.wc.network_hdr_type = RDMA_NETWORK_IPV4;
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = saddr;
	ip->daddr = daddr;
	ip->check = ip_fast_csum((u8 *)ip, ip->ihl);
	f->port->up->rx(&rx, m);
	fake_settle();
}

/* @m arrives from the peer and is handled. */
void fake_rx(struct fake *f, const struct pdcm_msg *m)
{
	fake_inject(f, m);
	fake_settle();
}

/* A REQ of the peer's comm ID @comm from its QP @qpn to @sid. */
void fake_mk_req(struct fake *f, struct pdcm_msg *m, u32 comm, u32 qpn,
		 u64 sid, const void *pdata, size_t len)
{
	struct pdcm_req *r = &m->req;

	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REQ, f->tid + comm);
	r->local_comm_id = comm;
	r->service_id = sid;
	r->local_ca_guid = f->peer_guid;
	r->local_qpn = qpn;
	r->responder_resources = 3;
	r->initiator_depth = 5;
	r->remote_cm_response_timeout = 17;
	r->local_cm_response_timeout = 19;
	r->transport_type = PDCM_TRANSPORT_RC;
	r->end_to_end_flow_control = 1;
	r->starting_psn = 0x123456;
	r->retry_count = 6;
	r->pkey = 0xffff;
	r->path_mtu = IB_MTU_1024;
	r->rnr_retry_count = 5;
	r->max_cm_retries = 9;
	/* the GIDs fake_inject()'s GRH carries */
	r->primary_path.local_gid.global.subnet_prefix =
		cpu_to_be64(0xfe80000000000000ULL);
	r->primary_path.local_gid.global.interface_id =
		cpu_to_be64(f->peer_guid);
	r->primary_path.remote_gid.global.subnet_prefix =
		cpu_to_be64(0xfe80000000000000ULL);
	r->primary_path.remote_gid.global.interface_id =
		cpu_to_be64(f->node_guid);
	r->primary_path.hop_limit = 64;
	r->primary_path.local_ack_timeout = 15;
	len = min_t(size_t, len, sizeof(r->private_data));
	memcpy(r->private_data, pdata, len);
	r->private_data_len = len;
}

/* The peer's REP from its @comm and QP @qpn to our REQ of @tid from @to. */
void fake_mk_rep_to(struct fake *f, struct pdcm_msg *m, u64 tid, u32 to,
		    u32 comm, u32 qpn, const void *pdata, size_t len)
{
	struct pdcm_rep *r = &m->rep;

	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REP, tid);
	r->local_comm_id = comm;
	r->remote_comm_id = to;
	r->local_qpn = qpn;
	r->starting_psn = 0x654321;
	r->responder_resources = 2;
	r->initiator_depth = 4;
	r->failover_accepted = PDCM_FAILOVER_NOT_SUPPORTED;
	r->end_to_end_flow_control = 1;
	r->rnr_retry_count = 3;
	r->local_ca_guid = f->peer_guid;
	len = min_t(size_t, len, sizeof(r->private_data));
	memcpy(r->private_data, pdata, len);
	r->private_data_len = len;
}

/* The peer's REP to the REQ we sent (@req). */
void fake_mk_rep(struct fake *f, struct pdcm_msg *m,
		 const struct fake_sent *req, u32 comm, u32 qpn,
		 const void *pdata, size_t len)
{
	fake_mk_rep_to(f, m, req->msg.hdr.tid, req->msg.req.local_comm_id,
		       comm, qpn, pdata, len);
}

/*
 * A bodiless @attr (MRA, REJ, RTU, DREQ, DREP) from the peer's @comm to
 * our comm ID @to of QP @qpn, in the exchange of @tid (a DREQ starts its
 * own).
 */
void fake_mk_to(struct pdcm_msg *m, u16 attr, u64 tid, u32 to, u32 qpn,
		u32 comm)
{
	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, attr, tid);
	switch (attr) {
	case PDCM_ATTR_MRA:
		m->mra.local_comm_id = comm;
		m->mra.remote_comm_id = to;
		break;
	case PDCM_ATTR_REJ:
		m->rej.local_comm_id = comm;
		m->rej.remote_comm_id = to;
		break;
	case PDCM_ATTR_RTU:
		m->rtu.local_comm_id = comm;
		m->rtu.remote_comm_id = to;
		break;
	case PDCM_ATTR_DREQ:
		pdcm_wire_init_hdr(&m->hdr, attr, 0x77000000ULL | comm);
		m->dreq.local_comm_id = comm;
		m->dreq.remote_comm_id = to;
		m->dreq.remote_qpn_eecn = qpn;
		break;
	case PDCM_ATTR_DREP:
		m->drep.local_comm_id = comm;
		m->drep.remote_comm_id = to;
		break;
	}
}

/*
 * fake_mk_to() the connection that sent @ours (its REQ or REP: both start
 * with the local comm ID and carry the local QPN).
 */
void fake_mk(struct pdcm_msg *m, u16 attr, const struct fake_sent *ours,
	     u32 comm)
{
	bool rep = ours->msg.hdr.attr_id == PDCM_ATTR_REP;
	u32 id = rep ? ours->msg.rep.local_comm_id : ours->msg.req.local_comm_id;
	u32 qpn = rep ? ours->msg.rep.local_qpn : ours->msg.req.local_qpn;

	fake_mk_to(m, attr, ours->msg.hdr.tid, id, qpn, comm);
}

int fake_suite_init(struct kunit_suite *suite)
{
	fake_wq = alloc_workqueue("pdcm_fake", PDCM_WQ_PERCPU, 0);
	return fake_wq ? 0 : -ENOMEM;
}

void fake_suite_exit(struct kunit_suite *suite)
{
	destroy_workqueue(fake_wq);
}

int fake_init(struct kunit *test)
{
	struct fake *f = kzalloc(sizeof(*f), GFP_KERNEL);
	u32 seq = atomic_inc_return(&fake_seq);

	if (!f)
		return -ENOMEM;
	f->test = test;
	f->seq = seq;
	spin_lock_init(&f->lock);
	INIT_LIST_HEAD(&f->sent);
	INIT_LIST_HEAD(&f->handles);
	f->peer_guid = 0x0002c90311000000ULL | seq;
	f->node_guid = 0x0002c903ee000000ULL | seq;
	f->peer_comm = 0x60000000 | seq << 8;
	f->tid = (u64)(seq | 0x8000) << 40;

	f->ibdev = kzalloc(sizeof(*f->ibdev), GFP_KERNEL);
	if (!f->ibdev)
		goto free;
	f->ibdev->phys_port_cnt = 1;
	rwlock_init(&f->ibdev->cache_lock);	/* ib_get_cached_pkey() */
	f->ibdev->node_guid = cpu_to_be64(f->node_guid);
	f->ibdev->port_data = kcalloc(2, sizeof(*f->ibdev->port_data),
				      GFP_KERNEL);
	if (!f->ibdev->port_data)
		goto free;
	f->ibdev->port_data[1].immutable.core_cap_flags =
		RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP | RDMA_CORE_CAP_IB_MAD |
		RDMA_CORE_CAP_IB_CM;
	f->dev = kzalloc(struct_size(f->dev, port, 1), GFP_KERNEL);
	if (!f->dev)
		goto free;
	pdcm_device_init(f->dev, f->ibdev, 1);
	f->port = &f->dev->port[0];
	f->port->port_num = 1;
	f->port->agent = (struct ib_mad_agent *)&fake_dummy_agent;
	f->port->ops = &fake_ops;

	f->path.rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	f->path.sgid.global.interface_id = cpu_to_be64(f->node_guid);
	f->path.dgid.global.interface_id = cpu_to_be64(f->peer_guid);
	f->path.hop_limit = 64;
	f->path.pkey = cpu_to_be16(0xffff);
	f->path.mtu = IB_MTU_1024;
	f->path.packet_life_time = 14;

	f->baseline = pdcm_conns_live();
	/*
	 * Every case starts with early_mra_pct at 0: a delayed MRA waits for
	 * a copy of the peer's message, as in ib_cm.  The cases of the early
	 * MRA set their own; fake_exit() puts the module's value back.
	 */
	f->saved_mra_pct = pdcm_mra_early_pct;
	pdcm_mra_early_pct = 0;
	fake_cur = f;
	mutex_lock(&pdcm_devices_mutex);
	list_add_tail(&f->dev->list, &pdcm_devices);
	mutex_unlock(&pdcm_devices_mutex);
	test->priv = f;
	return 0;

free:
	kfree(f->dev);
	if (f->ibdev)
		kfree(f->ibdev->port_data);
	kfree(f->ibdev);
	kfree(f);
	return -ENOMEM;
}

void fake_exit(struct kunit *test)
{
	struct fake *f = test->priv;
	struct fake_handle *h, *hn;
	struct fake_sent *s, *sn;
	int tries;

	fake_settle();
	list_for_each_entry(h, &f->handles, node)
		KUNIT_EXPECT_TRUE_MSG(test, h->done, "retried send never ended");
	/* conns destroyed without a waiter are freed from pdcm_wq */
	for (tries = 0; tries < 100 && pdcm_conns_live() != f->baseline; tries++)
		msleep(20);
	KUNIT_EXPECT_EQ_MSG(test, pdcm_conns_live(), f->baseline,
			    "connections leaked");

	mutex_lock(&pdcm_devices_mutex);
	list_del(&f->dev->list);
	mutex_unlock(&pdcm_devices_mutex);
	fake_settle();
	list_for_each_entry_safe(s, sn, &f->sent, node) {
		KUNIT_EXPECT_EQ_MSG(test, s->encode_ret, 0,
				    "attr 0x%x sent but not encodable",
				    s->msg.hdr.attr_id);
		kfree(s);
	}
	list_for_each_entry_safe(h, hn, &f->handles, node) {
		if (h->done)
			kfree(h);	/* else leaked on purpose: a ref is out */
	}
	pdcm_mra_early_pct = f->saved_mra_pct;
	fake_cur = NULL;
	pdcm_device_put(f->dev);
	kfree(f->ibdev->port_data);
	kfree(f->ibdev);
	kfree(f);
}
