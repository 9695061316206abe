/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fake RDMA device and CM transport, no hardware: the fixture of the
 * suites that drive pdcm through its transport ops (pdcm_fsm, pdcm_sdp,
 * pdcm_kdapl).
 *
 * fake_init() makes a fake ib_device with one RoCE port, puts a struct
 * pdcm_device on pdcm_devices whose port sends through a recorder, and
 * gives the case its own GUIDs, comm IDs and TIDs (one sequence for all
 * suites, so cases never meet in the global tables).  Every message pdcm
 * sends is recorded decoded, with timeout and retries (fake_nth(),
 * fake_last(), fake_count()), and checked to be encodable.  A retried send
 * becomes conn->msg with a conn reference, exactly as mad.c does, until
 * the case completes it (fake_complete(), fake_time_out()) or pdcm cancels
 * it (completed with IB_WC_WR_FLUSH_ERR from a work item, as the MAD layer
 * does).  send_err and peer_av_err make those ops fail; the other ops are
 * counted (alt_av_err makes ops->alt_av fail, as for a GID or P_Key the
 * device lacks).  The address ops build what the MAD layer would (no GID table:
 * no sgid_attr), and install it as mad.c does (pdcm_mad_set_av());
 * remove_in_av takes the port's agent away just before that, as device
 * removal can.  fake_rx() injects a message from the peer and runs every
 * handler (fake_inject() leaves them queued; fake_settle() runs them;
 * between fake_hold() and fake_release() none of pdcm's queued work runs
 * -- pdcm_wq is held to one active item, which waits -- so that a case can
 * act while a message is still waiting).
 * fake_exit() checks that every retried send ended, every connection is
 * gone (pdcm_conns_live() is back where it was) and every message was
 * encodable.
 */
#ifndef _PDCM_TESTS_FAKE_H
#define _PDCM_TESTS_FAKE_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/pdcm.h>

#include "../../cm/cm.h"
#include "../../cm/device.h"

/* One message pdcm handed to the transport. */
struct fake_sent {
	struct list_head node;
	bool reply;			/* ops->reply: outside any conn */
	struct pdcm_conn *conn;		/* ops->send: identity only */
	unsigned int timeout_ms;
	unsigned int retries;
	u32 remote_qpn;			/* the peer CM's QP it goes to */
	int encode_ret;
	struct pdcm_msg msg;
	u8 mad[PDCM_MAD_SIZE];
};

/* The transport's handle of a retried send: conn->msg. */
struct fake_handle {
	struct ib_mad_send_buf buf;
	struct pdcm_conn *conn;
	bool done;
	bool queued;
	struct work_struct work;
	struct list_head node;
};

struct fake {
	struct kunit *test;
	struct ib_device *ibdev;
	struct pdcm_device *dev;
	struct pdcm_port *port;
	spinlock_t lock;		/* the lists and counters */
	struct list_head sent;
	struct list_head handles;
	unsigned int nsent;
	unsigned int ncancel;
	unsigned int nextend;
	unsigned int last_extend;
	unsigned int npath_av;
	unsigned int npeer_av;
	struct work_struct hold_work;	/* fake_hold() */
	struct completion hold_done;
	int send_err;			/* ops->send fails with it */
	int peer_av_err;		/* ops->peer_av fails with it */
	int alt_av_err;			/* ops->alt_av fails with it */
	unsigned int nalt_av;
	bool remove_in_av;		/* the agent goes while an av is built */
	const struct ib_gid_attr *path_sgid_attr;	/* ops->path_av's */
	int baseline;
	u32 seq;			/* the case's number, from 1 */
	u64 peer_guid;
	u64 node_guid;
	u32 peer_comm;
	u64 tid;
	struct sa_path_rec path;
	unsigned int saved_mra_pct;	/* ib_pdcm's early_mra_pct before */
};

int fake_suite_init(struct kunit_suite *suite);
void fake_suite_exit(struct kunit_suite *suite);
int fake_init(struct kunit *test);
void fake_exit(struct kunit *test);

#define FAKE(test)	((struct fake *)(test)->priv)

extern struct fake *fake_cur;	/* the running case's */

void fake_settle(void);
void fake_hold(struct fake *f);
void fake_release(struct fake *f);
struct fake_sent *fake_nth(struct fake *f, unsigned int n);
struct fake_sent *fake_last(struct fake *f);
unsigned int fake_count(struct fake *f, u16 attr);
struct fake_handle *fake_last_handle(struct fake *f);
bool fake_complete(struct fake_handle *h, enum ib_wc_status status);
bool fake_time_out(struct fake *f);
void fake_inject(struct fake *f, const struct pdcm_msg *m);
void fake_inject_from(struct fake *f, const struct pdcm_msg *m, u64 iid);
void fake_rx(struct fake *f, const struct pdcm_msg *m);
void fake_rx_ipv4(struct fake *f, const struct pdcm_msg *m, __be32 saddr,
		  __be32 daddr);
void fake_mk_req(struct fake *f, struct pdcm_msg *m, u32 comm, u32 qpn,
		 u64 sid, const void *pdata, size_t len);
void fake_mk_rep_to(struct fake *f, struct pdcm_msg *m, u64 tid, u32 to,
		    u32 comm, u32 qpn, const void *pdata, size_t len);
void fake_mk_rep(struct fake *f, struct pdcm_msg *m,
		 const struct fake_sent *req, u32 comm, u32 qpn,
		 const void *pdata, size_t len);
void fake_mk_to(struct pdcm_msg *m, u16 attr, u64 tid, u32 to, u32 qpn,
		u32 comm);
void fake_mk(struct pdcm_msg *m, u16 attr, const struct fake_sent *ours,
	     u32 comm);

#endif /* _PDCM_TESTS_FAKE_H */
