/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Internals shared by the connection files: conn.c (ids, listen, helpers,
 * delivery, timewait), handshake.c, disconnect.c and rx.c (work items and
 * receive dispatch); sidr.c shares pdcm_active_begin() and
 * pdcm_active_send(), debugfs.c reads pdcm_listens.
 */
#ifndef _PDCM_CONN_H
#define _PDCM_CONN_H

#include "cm.h"

/**
 * enum pdcm_work_kind - what a received-MAD work item carries
 * @PDCM_WORK_RX: a received message for an existing conn (its event list)
 * @PDCM_WORK_REQ: a REQ that matched a listen (no conn yet; pdcm_wq)
 * @PDCM_WORK_SIDR_REQ: a SIDR_REQ that matched a listen (likewise)
 * @PDCM_WORK_DUP_REQ: a REQ for an existing passive conn (its event list)
 */
enum pdcm_work_kind {
	PDCM_WORK_RX,
	PDCM_WORK_REQ,
	PDCM_WORK_SIDR_REQ,
	PDCM_WORK_DUP_REQ,
};

/**
 * struct pdcm_work - a received MAD on its way to its owner
 * @work: runs a REQ or SIDR_REQ on pdcm_wq
 * @ev: queues any other kind on @conn's event list
 * @queued: a new REQ (PDCM_WORK_REQ, which never uses @ev) not started
 *	yet: in rx.c's table of queued REQs, keyed (sender's comm ID,
 *	sender's CA GUID); unhashed otherwise.  It shares @ev's memory, so
 *	that an item stays a 512-byte object.
 * @kind: enum pdcm_work_kind
 * @by_remote: a REJ TIMEOUT found by the peer's comm ID and CA GUID
 * @req_copied: a new REQ: a copy of it came while it waited to start
 * @req_withdrawn: a new REQ: its sender gave up on it (REJ TIMEOUT) while
 *	it waited to start; it ends unseen
 * @conn: the owner (the listening conn for a REQ), with a reference
 * @listen: the listen that matched a REQ or SIDR_REQ, with a reference
 * @dev: the device of @rx.port, with a reference: the work may run after
 *	the device's remove() (queued on a conn whose events were held)
 * @rx: where it came from
 * @rx_jiffies: when it came (a REQ's peer counts its timeout from then)
 * @msg: the decoded message
 */
struct pdcm_work {
	struct work_struct work;
	union {
		struct pdcm_ev ev;
		struct hlist_node queued;
	};
	enum pdcm_work_kind kind;
	bool by_remote;
	bool req_copied;
	bool req_withdrawn;
	struct pdcm_conn *conn;
	struct pdcm_listen *listen;
	struct pdcm_device *dev;
	struct pdcm_rx rx;
	unsigned long rx_jiffies;
	struct pdcm_msg msg;
};

extern struct pdcm_ltab *pdcm_listens;
extern unsigned int pdcm_default_backlog;
void pdcm_listen_release(void *context);

/* rx.c */
struct pdcm_work *pdcm_work_alloc(struct pdcm_port *port,
				  enum pdcm_work_kind kind);
void pdcm_work_free(struct pdcm_work *w);
void pdcm_work_queue(struct pdcm_work *w);
void pdcm_conn_unhold(struct pdcm_conn *conn);

/* conn.c */
void pdcm_cancel(struct pdcm_conn *conn);
void pdcm_rej_msg(struct pdcm_msg *m, u64 tid, u32 local_id, u32 remote_id,
		  u8 msg_rejected, u16 reason, const void *ari, u8 ari_len,
		  const void *pdata, u8 len);
void pdcm_rej_timeout_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
			  u32 remote_id);
void pdcm_mra_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
		  u8 msg_mraed, u8 service_timeout, const void *pdata, u8 len);
void pdcm_rtu_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
		  const void *pdata, u8 len);
void pdcm_dreq_msg(const struct pdcm_conn *conn, struct pdcm_msg *m, u64 tid,
		   const void *pdata, u8 len);
void pdcm_drep_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
		   const void *pdata, u8 len);
void pdcm_reject_req(const struct pdcm_rx *rx, const struct pdcm_req *req,
		     u64 tid, u16 reason);
u8 pdcm_msg_of_state(enum pdcm_state state);
void pdcm_deliver_simple(struct pdcm_conn *conn, enum pdcm_event_type type,
			 const void *pdata, u8 len);
void pdcm_enter_timewait(struct pdcm_conn *conn);
void pdcm_timewait_done(struct pdcm_conn *conn);
void pdcm_destroy_protocol(struct pdcm_conn *conn, bool enomem);
int pdcm_check_pdata(const void *pdata, u8 len, unsigned int max);
struct kernel_param;
int pdcm_param_set_uint(const char *val, const struct kernel_param *kp,
			const char *name, unsigned int min, unsigned int max);
struct pdcm_listen *pdcm_take_matched(struct pdcm_conn *conn);
void pdcm_slot_free(struct pdcm_listen *l);
int pdcm_active_begin(struct pdcm_conn *conn, enum pdcm_fsm_event ev,
		      u32 port_num, struct sa_path_rec *path,
		      const struct ib_gid_attr *sgid_attr);
int pdcm_active_send(struct pdcm_conn *conn, enum pdcm_fsm_event ev,
		     struct pdcm_msg *m, unsigned int timeout_ms,
		     unsigned int retries);

/* handshake.c */
void pdcm_req_work(struct pdcm_work *w);
bool pdcm_req_unqueue(struct pdcm_work *w);
void pdcm_req_stale(struct pdcm_conn *old, const struct pdcm_rx *rx,
		    const struct pdcm_msg *msg);
void pdcm_dup_req(struct pdcm_conn *dup, const struct pdcm_rx *rx,
		  const struct pdcm_msg *msg);
void pdcm_mra_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg);
void pdcm_rep_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
		 const struct pdcm_msg *msg);
void pdcm_rtu_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg);

/*
 * What a peer may make our QP wait for an ACK, at most: a local ACK
 * timeout of 20 (about 4 s; rdma_cm on RoCE sends 19), also the length
 * of TIMEWAIT (handshake.c, issue 12 defect 7).
 */
#define PDCM_PEER_ACK_TIMEOUT_MAX	20

/* apm.c */
struct pdcm_alt *pdcm_req_alt(const struct pdcm_req *req,
			      const struct pdcm_rx *rx, struct sa_path_rec *path);
int pdcm_mra_lap(struct pdcm_conn *conn, struct pdcm_msg *m, u8 service_timeout,
		 const void *pdata, u8 len);
void pdcm_lap_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
		 const struct pdcm_msg *msg);

/* disconnect.c */
void pdcm_rej_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg,
		 bool by_remote);
void pdcm_dreq_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
		  const struct pdcm_msg *msg);
void pdcm_drep_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg);
void pdcm_send_drep_to(const struct pdcm_rx *rx, const struct pdcm_msg *dreq);
void pdcm_send_error_work(struct pdcm_conn *conn, enum ib_wc_status status);

#endif /* _PDCM_CONN_H */
