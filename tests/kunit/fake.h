/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A fake RDMA device and CM transport for suites that drive pdcm from
 * outside (the shim suites): the same approach as pdcm_fsm's recorder,
 * packaged for reuse.
 *
 * fake_init() makes a fake ib_device with one RoCE port, puts a struct
 * pdcm_device on pdcm_devices whose port sends through a recorder, and
 * gives the case its own GUIDs and comm IDs.  Every message pdcm sends is
 * recorded decoded (fake_nth(), fake_last(), fake_count()); retried sends
 * hold a conn reference until answered, cancelled (completed with a flush
 * from a work item, as the MAD layer does) or timed out with
 * fake_time_out().  fake_rx() injects a message from the peer and
 * fake_settle() runs every handler.  fake_exit() checks that every
 * connection is gone and every message encodable.
 */
#ifndef _PDCM_TESTS_FAKE_H
#define _PDCM_TESTS_FAKE_H

#include <kunit/test.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <rdma/ib_mad.h>
#include <rdma/pdcm.h>

#include "../../cm/cm.h"
#include "../../cm/device.h"

struct fake_sent {
	struct list_head node;
	bool reply;
	unsigned int timeout_ms;
	int encode_ret;
	struct pdcm_msg msg;
};

struct fake {
	struct kunit *test;
	struct ib_device *ibdev;
	struct pdcm_device *dev;
	struct pdcm_port *port;
	spinlock_t lock;		/* the lists */
	struct list_head sent;
	struct list_head handles;
	unsigned int nsent;
	int baseline;
	u64 peer_guid;
	u64 node_guid;
	u32 peer_comm;
	u64 tid;
	struct sa_path_rec path;
};

int fake_suite_init(struct kunit_suite *suite);
void fake_suite_exit(struct kunit_suite *suite);
int fake_init(struct kunit *test);
void fake_exit(struct kunit *test);

#define FAKE(test)	((struct fake *)(test)->priv)

void fake_settle(void);
struct fake_sent *fake_nth(struct fake *f, unsigned int n);
struct fake_sent *fake_last(struct fake *f);
unsigned int fake_count(struct fake *f, u16 attr);
bool fake_time_out(struct fake *f);
void fake_rx(struct fake *f, const struct pdcm_msg *m);
void fake_mk_req(struct fake *f, struct pdcm_msg *m, u32 comm, u32 qpn,
		 u64 sid, const void *pdata, size_t len);
void fake_mk_rep(struct fake *f, struct pdcm_msg *m,
		 const struct fake_sent *req, u32 comm, u32 qpn,
		 const void *pdata, size_t len);
void fake_mk(struct pdcm_msg *m, u16 attr, const struct fake_sent *ours,
	     u32 comm);

#endif /* _PDCM_TESTS_FAKE_H */
