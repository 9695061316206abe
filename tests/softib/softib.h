/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * softib: a test-only software InfiniBand device (Documentation/testing.rst,
 * "softib").  Shared declarations of its parts: main.c (module, device
 * registration, port and device queries, debugfs), verbs.c (PD, CQ, QP,
 * AH, MR) and wire.c (the in-memory wire between all softib ports).
 */
#ifndef _SOFTIB_H
#define _SOFTIB_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "compat.h"

#define SIB_MAX_PORTS		8
#define SIB_MAX_DEVS		4
#define SIB_PKEY_TBL_LEN	2	/* 0xFFFF, then the pkey parameter */
#define SIB_GID_TBL_LEN		1	/* fe80::/64 + port GUID */
#define SIB_MAX_QP_WR		8192
#define SIB_MAX_SGE		8
#define SIB_MAX_CQE		65536
#define SIB_MAX_QP		4096
#define SIB_MAX_PAYLOAD		4096	/* IB_MTU_4096: a UD message fits */
#define SIB_WIRE_MAX		4096	/* packets queued on the wire */
#define SIB_LOG_LEN		64	/* packets the wire log keeps */
#define SIB_QPN_MAX		0xffffff

/* Per-port counters, shown in debugfs (softib/<dev>/counters). */
enum sib_counter {
	SIB_TX_LID,		/* sent without a GRH (LID-routed) */
	SIB_TX_GRH,		/* sent with a GRH */
	SIB_TX_CM_LID,		/* of those, CM MADs (QP1, class 0x07) */
	SIB_TX_CM_GRH,
	SIB_RX,			/* delivered into a receive buffer */
	SIB_DROP_LID,		/* no softib port has the DLID (sender) */
	SIB_DROP_WIRE,		/* the wire was full (sender) */
	SIB_DROP_QP,		/* no such QP, or it cannot receive */
	SIB_DROP_QKEY,		/* Q_Key mismatch */
	SIB_DROP_PKEY,		/* P_Key mismatch */
	SIB_DROP_NORECV,	/* no receive posted */
	SIB_DROP_LEN,		/* the receive buffer was too short */
	SIB_CQ_OVERFLOW,	/* completions lost to a full CQ */
	SIB_NR_COUNTERS
};

extern const char *const sib_counter_names[SIB_NR_COUNTERS];

struct sib_dev;
struct sib_qp;

/*
 * @cap_flags: PortInfo CapabilityMask, changed by modify_port, under the
 *	device's @lock
 * @special: the port's QP0 and QP1, under sib_table_mutex
 */
struct sib_port {
	struct sib_dev *dev;
	u32 num;
	u16 lid;
	u32 cap_flags;
	__be64 guid;
	struct sib_qp *special[2];
	atomic64_t counters[SIB_NR_COUNTERS];
};

/*
 * @node: in sib_devs, under sib_table_mutex
 * @lock: the ports' @cap_flags
 * @qps: the ordinary QPs by QPN; lookups for delivery under
 *	sib_table_mutex, which also covers insertion and removal
 */
struct sib_dev {
	struct ib_device ibdev;
	struct list_head node;
	spinlock_t lock;		/* the ports' cap_flags */
	struct xarray qps;
	u32 next_qpn;
	atomic_t nqps;			/* ordinary QPs, at most SIB_MAX_QP */
	struct dentry *debugfs;
	unsigned int nports;
	struct sib_port port[SIB_MAX_PORTS];
};

struct sib_pd {
	struct ib_pd ibpd;
};

struct sib_mr {
	struct ib_mr ibmr;
};

/*
 * A completion queue: a ring of @size work completions under @lock.
 * @notify: IB_CQ_NEXT_COMP or IB_CQ_SOLICITED while armed, else 0
 * @comp_work: calls the consumer's completion handler (never from the
 *	context that added the completion: that may hold the consumer's
 *	own locks, as ib_mad's send queue lock around post_send)
 */
struct sib_cq {
	struct ib_cq ibcq;
	spinlock_t lock;		/* the ring and @notify */
	struct ib_wc *ring;
	unsigned int size;
	unsigned int head;
	unsigned int count;
	u8 notify;
	struct work_struct comp_work;
	struct sib_port *port;	/* where overflows are counted, or NULL */
};

struct sib_rwqe {
	u64 wr_id;		/* also wr_cqe: ib_recv_wr's union */
	unsigned int num_sge;
	struct ib_sge sge[SIB_MAX_SGE];
};

/*
 * A QP.  @lock covers @state, the attributes below it and the receive
 * ring; a completion is added to a CQ with @lock held (lock order: QP,
 * then CQ).  @port is 0 for an ordinary QP until modify_qp sets it.
 */
struct sib_qp {
	struct ib_qp ibqp;
	struct sib_dev *dev;
	spinlock_t lock;		/* see above */
	enum ib_qp_state state;
	u32 port;
	u32 qkey;
	u16 pkey_index;
	u32 sq_psn;
	u32 rq_psn;
	u32 dest_qpn;
	u32 rc_dlid;		/* RC: the RTR address vector's DLID */
	bool rc_grh;		/* and whether it had a GRH */
	bool sig_all;
	u32 max_send_sge;
	u32 max_recv_sge;
	struct sib_rwqe *rq;
	unsigned int rq_size;
	unsigned int rq_head;
	unsigned int rq_count;
};

struct sib_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;	/* grh.sgid_attr cleared */
};

/* One packet on the wire: what a UD send put there. */
struct sib_pkt {
	struct list_head node;
	u16 slid;
	u16 dlid;
	u8 sl;
	bool has_grh;
	bool has_imm;
	u16 pkey;
	u32 src_qpn;
	u32 dest_qpn;
	u32 qkey;
	__be32 imm;
	struct ib_grh grh;
	u32 len;
	u8 data[];
};

static inline struct sib_dev *to_sdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct sib_dev, ibdev);
}

static inline struct sib_cq *to_scq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct sib_cq, ibcq);
}

static inline struct sib_qp *to_sqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct sib_qp, ibqp);
}

static inline struct sib_ah *to_sah(struct ib_ah *ibah)
{
	return container_of(ibah, struct sib_ah, ibah);
}

static inline struct sib_port *sib_port(struct sib_dev *sdev, u32 num)
{
	return &sdev->port[num - 1];
}

static inline void sib_count(struct sib_port *port, enum sib_counter c)
{
	atomic64_inc(&port->counters[c]);
}

extern struct mutex sib_table_mutex;
extern struct list_head sib_devs;
extern struct workqueue_struct *sib_comp_wq;

/* main.c */
u16 sib_pkey(u16 index);
void sib_port_gid(const struct sib_port *port, union ib_gid *gid);

/* verbs.c */
int sib_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int sib_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
struct ib_mr *sib_get_dma_mr(struct ib_pd *ibpd, int access);
#if SIB_REG_MR_DMAH
struct ib_mr *sib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 virt_addr, int access, struct ib_dmah *dmah,
			      struct ib_udata *udata);
#else
struct ib_mr *sib_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 virt_addr, int access,
			      struct ib_udata *udata);
#endif
int sib_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int sib_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  SIB_CQ_UDATA *udata);
int sib_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int sib_poll_cq(struct ib_cq *ibcq, int num, struct ib_wc *wc);
int sib_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
void sib_cq_push(struct sib_cq *cq, const struct ib_wc *wc);
int sib_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int sib_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int sib_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int sib_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int sib_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int sib_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);
int sib_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
		  struct ib_udata *udata);
int sib_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int sib_destroy_ah(struct ib_ah *ibah, u32 flags);

/* wire.c */
int sib_wire_init(void);
void sib_wire_exit(void);
void sib_wire_send(struct sib_port *port, struct sib_pkt *pkt);
struct sib_qp *sib_qp_lookup(struct sib_port *port, u32 qpn);
void sib_wire_log_show(struct seq_file *m);
void sib_wire_log_clear(void);

#endif /* _SOFTIB_H */
