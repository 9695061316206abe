// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Paths and QP attributes: between struct sa_path_rec, the path fields of
 * a REQ, and the ib_qp_attr a ULP needs for INIT, RTR and RTS; plus the
 * helper that builds a RoCE path from an IP address pair.
 */
#include <linux/completion.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <net/net_namespace.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "cm.h"
#include "compat.h"
#include "device.h"

/**
 * pdcm_path_to_wire() - the REQ's primary path fields from a path record
 * @path: the active side's path
 * @w: the REQ field block to fill
 * @local_ack_timeout: the QP's local ACK timeout
 *
 * RoCE has no LIDs, and over a routed InfiniBand path (hop limit > 1)
 * neither end knows the LIDs the far subnet uses: both are then the
 * permissive LID, as ib_cm sends them, and the receiver takes them from
 * the packet.
 *
 * Context: any.
 */
void pdcm_path_to_wire(struct sa_path_rec *path, struct pdcm_path *w,
		       u8 local_ack_timeout)
{
	memset(w, 0, sizeof(*w));
	if (sa_path_is_roce(path) || path->hop_limit > 1) {
		w->local_lid = be16_to_cpu(IB_LID_PERMISSIVE);
		w->remote_lid = be16_to_cpu(IB_LID_PERMISSIVE);
	} else {
		w->local_lid = be32_to_cpu(sa_path_get_slid(path));
		w->remote_lid = be32_to_cpu(sa_path_get_dlid(path));
	}
	w->local_gid = path->sgid;
	w->remote_gid = path->dgid;
	w->flow_label = be32_to_cpu(path->flow_label) & 0xfffff;
	w->packet_rate = path->rate;
	w->traffic_class = path->traffic_class;
	w->hop_limit = path->hop_limit;
	w->sl = path->sl & 0xf;
	w->subnet_local = path->hop_limit <= 1;
	w->local_ack_timeout = local_ack_timeout & 0x1f;
}

/**
 * pdcm_wire_to_path() - a REQ's path, from the receiver's side
 * @w: the REQ's path fields
 * @req: the REQ (P_Key, MTU, service ID)
 * @roce: the receiving port is RoCE
 * @path: filled in, source and destination swapped
 *
 * Context: any.
 */
void pdcm_wire_to_path(const struct pdcm_path *w, const struct pdcm_req *req,
		       bool roce, struct sa_path_rec *path)
{
	memset(path, 0, sizeof(*path));
	path->rec_type = roce ? SA_PATH_REC_TYPE_ROCE_V2 : SA_PATH_REC_TYPE_IB;
	path->service_id = cpu_to_be64(req->service_id);
	path->sgid = w->remote_gid;
	path->dgid = w->local_gid;
	if (!roce) {
		sa_path_set_slid(path, w->remote_lid);
		sa_path_set_dlid(path, w->local_lid);
	}
	path->flow_label = cpu_to_be32(w->flow_label);
	path->hop_limit = w->hop_limit;
	path->traffic_class = w->traffic_class;
	path->reversible = 1;
	path->pkey = cpu_to_be16(req->pkey);
	path->sl = w->sl;
	path->mtu_selector = IB_SA_EQ;
	path->mtu = req->path_mtu;
	path->rate_selector = IB_SA_EQ;
	path->rate = w->packet_rate;
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = w->local_ack_timeout ? w->local_ack_timeout - 1 : 0;
}

/**
 * pdcm_path_routed_lids() - resolve a routed InfiniBand path's LIDs
 * @w: a path of a received REQ or LAP, as on the wire
 * @wc: the packet it came in
 *
 * A path that crossed a router (not subnet local) may name either end by
 * the permissive LID, which only the packet can resolve: the sender's is
 * the packet's source LID, with the packet's SL, and ours its destination
 * path bits (ib_cm's reading).  A subnet-local path is left as it is.
 *
 * Context: any.
 */
void pdcm_path_routed_lids(struct pdcm_path *w, const struct ib_wc *wc)
{
	if (w->subnet_local)
		return;
	if (w->local_lid == be16_to_cpu(IB_LID_PERMISSIVE)) {
		w->local_lid = wc->slid;
		w->sl = wc->sl;
	}
	if (w->remote_lid == be16_to_cpu(IB_LID_PERMISSIVE))
		w->remote_lid = wc->dlid_path_bits;
}

/**
 * pdcm_req_path() - a REQ's primary path as the receiving side uses it
 * @req: the REQ
 * @wc: how it arrived (source LID, SL, destination path bits)
 * @roce: the receiving port is RoCE
 * @path: filled in, in the receiver's terms (pdcm_wire_to_path())
 *
 * This path, not the packet, becomes the passive side's address -- for
 * its MADs and for its QP -- so that the QP gets the traffic class, flow
 * label, SL and rate the active side asked for (on RoCE the received
 * GRH's traffic class is the network's, not the request's).  The
 * transport completes it from the packet (mad.c: the GID entry, the
 * peer's MAC, the hop limit), as ib_cm does.
 *
 * On InfiniBand a REQ that crossed a router may name either end by the
 * permissive LID (pdcm_path_routed_lids()).  MADs always go
 * back to the packet's source LID, the router's for a routed REQ; the QP
 * sends to the REQ's local port LID (@return).
 *
 * Context: any.
 * Return: the LID the QP sends to (InfiniBand), or 0 (RoCE).
 */
u16 pdcm_req_path(const struct pdcm_req *req, const struct ib_wc *wc,
		  bool roce, struct sa_path_rec *path)
{
	struct pdcm_path w = req->primary_path;

	if (!roce)
		pdcm_path_routed_lids(&w, wc);
	pdcm_wire_to_path(&w, req, roce, path);
	if (roce)
		return 0;
	sa_path_set_dlid(path, wc->slid);
	return w.local_lid;
}

/**
 * pdcm_conn_origin() - the GID entry and BTH P_Key a request arrived with
 * @conn: a passive conn whose address came from the request (peer_av)
 * @req_pkey: the P_Key carried in the request, used when the receive
 *	P_Key index has no cached entry
 * @sgid_attr: set to our GID entry the request was sent to (RoCE; owned
 *	by @conn's address), or NULL
 * @bth_pkey: set to the P_Key of the request's BTH
 *
 * Context: any.
 */
void pdcm_conn_origin(const struct pdcm_conn *conn, u16 req_pkey,
		      const struct ib_gid_attr **sgid_attr, u16 *bth_pkey)
{
	*sgid_attr = conn->ah_valid && (conn->ah_attr.ah_flags & IB_AH_GRH) ?
		     conn->ah_attr.grh.sgid_attr : NULL;
	if (ib_get_cached_pkey(conn->port->dev->ibdev, conn->port->port_num,
			       conn->pkey_index, bth_pkey))
		*bth_pkey = req_pkey;
}

/**
 * pdcm_parse_addr() - the addresses in a request's private data, if any
 * @pdata: the private data
 * @len: its length
 * @service_id: the request's service ID: the RDMA CM range selects the
 *	RDMA CM header, the SDP range the SDP Hello
 * @addr: filled in; kind PDCM_ADDR_NONE when nothing parsed
 *
 * Context: any.
 */
void pdcm_parse_addr(const void *pdata, size_t len, __be64 service_id,
		     struct pdcm_addr_info *addr)
{
	u64 sid = be64_to_cpu(service_id);

	memset(addr, 0, sizeof(*addr));
	if ((sid & 0xFFFFFFFFFF000000ULL) == 0x0000000001000000ULL &&
	    !pdcm_cma_hdr_parse(pdata, len, service_id, &addr->src, &addr->dst))
		addr->kind = PDCM_ADDR_CMA;
	else if ((sid & 0xFFFFFFFFFFFF0000ULL) == 0x0000000000010000ULL &&
		 !pdcm_sdp_hello_parse(pdata, len, service_id, &addr->src,
				       &addr->dst))
		addr->kind = PDCM_ADDR_SDP;
}

struct pdcm_resolve {
	struct completion done;
	int status;
};

static void pdcm_resolve_done(int status, struct sockaddr *src,
			      struct rdma_dev_addr *addr, void *context)
{
	struct pdcm_resolve *r = context;

	r->status = status;
	complete(&r->done);
}

static void pdcm_ip2gid(const struct sockaddr *sa, union ib_gid *gid)
{
	if (sa->sa_family == AF_INET)
		ipv6_addr_set_v4mapped(((const struct sockaddr_in *)sa)->sin_addr.s_addr,
				       (struct in6_addr *)gid->raw);
	else
		memcpy(gid->raw, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
}

/**
 * pdcm_resolve_path() - a RoCE v2 path between two IP addresses
 * @device: the RDMA device
 * @port: its port (RoCE)
 * @src: our address (AF_INET or AF_INET6), one of the port's GIDs
 * @dst: the peer's address
 * @path: filled in, ready for pdcm_send_req() and pdcm_send_sidr_req()
 *
 * Resolves the peer's MAC address through the kernel's neighbour table
 * (rdma_resolve_ip()), which also handles a destination on this host.  On
 * an InfiniBand port a path comes from the SA instead; this helper returns
 * -EOPNOTSUPP there.
 *
 * Context: process context; sleeps (up to 2 s for ARP/ND).
 * Return: 0; -EOPNOTSUPP for a non-RoCE port; -EINVAL for mismatched
 * families; -EADDRNOTAVAIL if @src is not a GID of @port; the resolver's
 * error.
 */
int pdcm_resolve_path(struct ib_device *device, u32 port,
		      const struct sockaddr *src, const struct sockaddr *dst,
		      struct sa_path_rec *path)
{
	const struct ib_gid_attr *sgid_attr;
	struct rdma_dev_addr dev_addr = {};
	struct pdcm_resolve r;
	struct ib_port_attr pattr;
	union ib_gid sgid, dgid;
	struct sockaddr_storage s;
	int ret;

	if (!rdma_protocol_roce(device, port))
		return -EOPNOTSUPP;
	if (src->sa_family != dst->sa_family ||
	    (src->sa_family != AF_INET && src->sa_family != AF_INET6))
		return -EINVAL;
	pdcm_ip2gid(src, &sgid);
	pdcm_ip2gid(dst, &dgid);
	sgid_attr = rdma_find_gid_by_port(device, &sgid,
					  IB_GID_TYPE_ROCE_UDP_ENCAP, port, NULL);
	if (IS_ERR(sgid_attr))
		return -EADDRNOTAVAIL;
	ret = ib_query_port(device, port, &pattr);
	if (ret)
		goto out;

	memcpy(&s, src, src->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
						    sizeof(struct sockaddr_in6));
	init_completion(&r.done);
	dev_addr.net = &init_net;
	dev_addr.sgid_attr = sgid_attr;
	ret = rdma_resolve_ip((struct sockaddr *)&s, dst, &dev_addr, 2000,
			      pdcm_resolve_done, true, &r);
	if (ret)
		goto out;
	wait_for_completion(&r.done);
	ret = r.status;
	if (ret)
		goto out;

	memset(path, 0, sizeof(*path));
	path->rec_type = SA_PATH_REC_TYPE_ROCE_V2;
	path->sgid = sgid;
	path->dgid = dgid;
	sa_path_set_dmac(path, dev_addr.dst_dev_addr);
	path->roce.route_resolved = true;
	path->hop_limit = dev_addr.hoplimit ?: 64;
	path->reversible = 1;
	path->pkey = cpu_to_be16(0xffff);
	path->mtu_selector = IB_SA_EQ;
	path->mtu = pattr.active_mtu;	/* RoCE: follows the netdev's MTU */
	path->rate_selector = IB_SA_EQ;
	path->rate = IB_RATE_PORT_CURRENT;
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = 18;	/* what rdma_cm uses on RoCE */
	path->sl = 0;
out:
	rdma_put_gid_attr(sgid_attr);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_resolve_path, PDCM_NS(PDCM));

static int pdcm_flush_access(const struct ib_device *dev)
{
	return dev->attrs.device_cap_flags & PDCM_DEVICE_FLUSH ?
	       PDCM_ACCESS_FLUSH : 0;
}

static bool pdcm_state_in(enum pdcm_state s, const enum pdcm_state *set, int n)
{
	while (n--)
		if (set[n] == s)
			return true;
	return false;
}

/**
 * pdcm_init_qp_attr() - QP attributes for the next QP state
 * @id: a connection's id
 * @attr: @attr->qp_state says which state (IB_QPS_INIT, RTR or RTS); the
 *	rest is filled in
 * @mask: the ib_modify_qp() mask for the filled-in fields
 *
 * The address in @attr->ah_attr refers to the id's own (its sgid_attr
 * reference is the id's): use @attr before destroying the id, and do not
 * rdma_destroy_ah_attr() it.  ib_cm behaves the same.
 *
 * An alternate path (InfiniBand; from the REQ, or a LAP) is given as ib_cm
 * gives it: IB_QP_ALT_PATH in RTR and IB_QP_PATH_MIG_STATE (IB_MIG_REARM)
 * in RTS when its address has a LID; after pdcm_notify(IB_EVENT_PATH_MIG)
 * or a LAP, RTS gives only IB_QP_ALT_PATH and IB_QP_PATH_MIG_STATE (an
 * RTS to RTS modify that loads and rearms it).  Its address is the id's
 * too.
 *
 * PSNs follow ib_cm: the starting PSN in a REQ or REP is the one its
 * sender's QP receives from, so RTR's rq_psn is the one this side sent and
 * RTS's sq_psn the one the peer sent.  On the passive side rq_psn is known
 * only once pdcm_send_rep() has sent it: modify to RTR after
 * pdcm_send_rep(), or before it with @attr->rq_psn set to the starting PSN
 * that pdcm_send_rep() will carry (what rdma_cm does).
 *
 * Context: any context that may take a spinlock.
 * Return: 0, or -EINVAL if the id's state does not allow that QP state
 * yet (RTR needs the peer's QPN, from the REQ or the REP).
 */
int pdcm_init_qp_attr(struct pdcm_id *id, struct ib_qp_attr *attr, int *mask)
{
	static const enum pdcm_state init_ok[] = {
		PDCM_REQ_SENT, PDCM_MRA_REQ_RCVD, PDCM_REQ_RCVD, PDCM_MRA_REQ_SENT,
		PDCM_REP_SENT, PDCM_MRA_REP_RCVD, PDCM_REP_RCVD, PDCM_MRA_REP_SENT,
		PDCM_ESTABLISHED };
	static const enum pdcm_state rtr_ok[] = {
		PDCM_REQ_RCVD, PDCM_MRA_REQ_SENT, PDCM_REP_SENT, PDCM_MRA_REP_RCVD,
		PDCM_REP_RCVD, PDCM_MRA_REP_SENT, PDCM_ESTABLISHED };
	/* as ib_cm: the passive side may go to RTS before it sends the REP */
	static const enum pdcm_state rts_ok[] = {
		PDCM_REQ_RCVD, PDCM_MRA_REQ_SENT, PDCM_REP_SENT, PDCM_MRA_REP_RCVD,
		PDCM_REP_RCVD, PDCM_MRA_REP_SENT, PDCM_ESTABLISHED };
	struct pdcm_conn *conn = to_conn(id);
	bool responder, requester, ok;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&conn->lock, flags);
	/*
	 * Which half of a reliable connection the QP is: an RC QP both, an
	 * XRC initiator only sends (it has no responder resources, no RNR
	 * timer), an XRC target only receives (no retries, no initiator
	 * depth; only its ACK timeout), a UC QP neither.
	 */
	responder = conn->qp_type == IB_QPT_RC || conn->qp_type == IB_QPT_XRC_TGT;
	requester = conn->qp_type == IB_QPT_RC || conn->qp_type == IB_QPT_XRC_INI;
	switch (attr->qp_state) {
	case IB_QPS_INIT:
		ok = pdcm_state_in(id->state, init_ok, ARRAY_SIZE(init_ok));
		if (!ok)
			break;
		*mask = IB_QP_STATE | IB_QP_ACCESS_FLAGS | IB_QP_PKEY_INDEX |
			IB_QP_PORT;
		attr->qp_access_flags = IB_ACCESS_REMOTE_WRITE;
		/* and FLUSH where the device has it, as ib_cm since 6.2 */
		if (conn->responder_resources)
			attr->qp_access_flags |= IB_ACCESS_REMOTE_READ |
						 IB_ACCESS_REMOTE_ATOMIC |
						 pdcm_flush_access(id->device);
		attr->pkey_index = conn->pkey_index;
		attr->port_num = conn->port->port_num;
		break;
	case IB_QPS_RTR:
		ok = conn->ah_valid &&
		     pdcm_state_in(id->state, rtr_ok, ARRAY_SIZE(rtr_ok));
		if (!ok)
			break;
		*mask = IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU |
			IB_QP_DEST_QPN | IB_QP_RQ_PSN;
		attr->ah_attr = conn->ah_attr;
		if (attr->ah_attr.type == RDMA_AH_ATTR_TYPE_IB &&
		    conn->datapath_dlid &&
		    conn->datapath_dlid != be16_to_cpu(IB_LID_PERMISSIVE))
			rdma_ah_set_dlid(&attr->ah_attr, conn->datapath_dlid);
		attr->path_mtu = conn->path_mtu;
		attr->dest_qp_num = conn->remote_qpn;
		attr->rq_psn = conn->rq_psn;
		if (responder) {
			*mask |= IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER;
			attr->max_dest_rd_atomic = conn->responder_resources;
			attr->min_rnr_timer = 0;
		}
		/* an alternate path with a LID (InfiniBand), as ib_cm loads it */
		if (pdcm_alt_qp_attr(conn, attr) &&
		    rdma_ah_get_dlid(&attr->alt_ah_attr))
			*mask |= IB_QP_ALT_PATH;
		break;
	case IB_QPS_RTS:
		ok = pdcm_state_in(id->state, rts_ok, ARRAY_SIZE(rts_ok));
		if (!ok)
			break;
		/*
		 * After a path migration or a LAP, as ib_cm: the alternate
		 * path alone, for an RTS to RTS modify that rearms it.
		 */
		if (id->lap_state != PDCM_LAP_UNINIT &&
		    pdcm_alt_qp_attr(conn, attr)) {
			*mask = IB_QP_ALT_PATH | IB_QP_PATH_MIG_STATE;
			attr->path_mig_state = IB_MIG_REARM;
			break;
		}
		*mask = IB_QP_STATE | IB_QP_SQ_PSN;
		attr->sq_psn = conn->sq_psn;
		if (requester || responder) {
			*mask |= IB_QP_TIMEOUT;
			attr->timeout = conn->local_ack_timeout;
		}
		if (requester) {
			*mask |= IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
				 IB_QP_MAX_QP_RD_ATOMIC;
			attr->retry_cnt = conn->retry_count;
			attr->rnr_retry = conn->rnr_retry_count;
			attr->max_rd_atomic = conn->initiator_depth;
		}
		/* the alternate path loaded in RTR, armed */
		if (pdcm_alt_qp_attr(conn, attr) &&
		    rdma_ah_get_dlid(&attr->alt_ah_attr)) {
			*mask |= IB_QP_PATH_MIG_STATE;
			attr->path_mig_state = IB_MIG_REARM;
		}
		break;
	default:
		ok = false;
		break;
	}
	if (!ok)
		ret = -EINVAL;
	spin_unlock_irqrestore(&conn->lock, flags);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_init_qp_attr, PDCM_NS(PDCM));
