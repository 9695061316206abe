/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the two handshake drivers of tests/softib share: softib_cm (cm.c,
 * pdcm's API) and softib_ibcm (ibcm.c, <rdma/ib_cm.h>, for the kernel's
 * ib_cm and pdcm's drop-in).  Each includes it once.
 */
#ifndef _SOFTIB_SCM_H
#define _SOFTIB_SCM_H

#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>
#include <rdma/ib_verbs.h>

#define SCM_WAIT	(10 * HZ)
#define SCM_LINE	512

/*
 * The fields of a "conn N" results line after "result=", the same in
 * both drivers (tests/vm/scenarios/softib.sh reads them).
 */
#define SCM_CONN_FMT \
	"result=%s err=%d rej=%d lid_a=%u lid_b=%u req_port=%u req_slid=%u req_dlid=%u req_hop_limit=%u req_qpn_ok=%d rep_qpn_ok=%d rtr_dlid_a=%u rtr_grh_a=%d rtr_dlid_b=%u rtr_grh_b=%d qp_a=%d qp_b=%d"

/* One end: PD, CQ, QP. */
struct scm_side {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
};

static inline int scm_side_create(struct scm_side *s, struct ib_device *dev,
				  u32 port, enum ib_qp_type type,
				  enum ib_poll_context poll)
{
	struct ib_qp_init_attr init = {
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_ALL_WR,
		.cap = {
			.max_send_wr = 4,
			.max_recv_wr = 4,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
		.port_num = port,
	};

	s->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(s->pd))
		return PTR_ERR(s->pd);
	s->cq = ib_alloc_cq(dev, NULL, 16, 0, poll);
	if (IS_ERR(s->cq)) {
		ib_dealloc_pd(s->pd);
		return PTR_ERR(s->cq);
	}
	init.send_cq = s->cq;
	init.recv_cq = s->cq;
	s->qp = ib_create_qp(s->pd, &init);
	if (IS_ERR(s->qp)) {
		ib_free_cq(s->cq);
		ib_dealloc_pd(s->pd);
		return PTR_ERR(s->qp);
	}
	return 0;
}

static inline void scm_side_destroy(struct scm_side *s)
{
	if (!s->qp)
		return;
	ib_destroy_qp(s->qp);
	ib_free_cq(s->cq);
	ib_dealloc_pd(s->pd);
	s->qp = NULL;
}

static inline int scm_port_addr(struct ib_device *dev, u32 port, u16 *lid,
				union ib_gid *gid)
{
	struct ib_port_attr attr;
	int ret;

	if (!rdma_is_port_valid(dev, port))
		return -EINVAL;
	ret = ib_query_port(dev, port, &attr);
	if (ret)
		return ret;
	*lid = attr.lid;
	return rdma_query_gid(dev, port, 0, gid);
}

static inline int scm_qp_state(struct ib_qp *qp)
{
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;

	if (!qp || ib_query_qp(qp, &attr, IB_QP_STATE, &init))
		return -1;
	return attr.qp_state;
}

/*
 * An IB path record from port A to port B, as an SA would give it:
 * LID-routed, or with a GRH (hop limit 2) if @grh.
 */
static inline void scm_ib_path(struct sa_path_rec *path,
			       const union ib_gid *gid_a, u16 lid_a,
			       const union ib_gid *gid_b, u16 lid_b, bool grh)
{
	memset(path, 0, sizeof(*path));
	path->rec_type = SA_PATH_REC_TYPE_IB;
	path->sgid = *gid_a;
	path->dgid = *gid_b;
	sa_path_set_slid(path, lid_a);
	sa_path_set_dlid(path, lid_b);
	path->hop_limit = grh ? 2 : 0;
	path->reversible = 1;
	path->pkey = cpu_to_be16(0xffff);
	path->sl = 0;
	path->mtu_selector = IB_SA_EQ;
	path->mtu = IB_MTU_2048;
	path->rate_selector = IB_SA_EQ;
	path->rate = IB_RATE_100_GBPS;
	path->packet_life_time_selector = IB_SA_EQ;
	path->packet_life_time = 14;
}

#endif /* _SOFTIB_SCM_H */
