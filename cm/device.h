/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Devices and ports pdcm runs on.
 *
 * Lock order: pdcm_devices_mutex is the outermost lock of the module;
 * conn->lock > port->agent_lock.
 * A struct pdcm_device is on pdcm_devices from the ib_client add()
 * callback to its remove() callback, and lives on while a conn still
 * points at one of its ports (each such conn holds a reference); its
 * ports are fixed for that lifetime.  remove() takes the ports' MAD
 * agents away first (port->agent NULL under agent_lock: every later send
 * fails with -ENODEV), waits for the MAD layer (which completes every
 * send, and with it the send's address handle) and the queued work, and
 * drops the conns' address attributes (GID table references).
 */
#ifndef _PDCM_DEVICE_H
#define _PDCM_DEVICE_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

struct ib_mad_agent;
struct pdcm_transport_ops;
struct pdcm_transport_up;

/* CM attributes 0x10..0x1A, the index of every per-attribute counter. */
#define PDCM_NUM_ATTRS	11

/**
 * struct pdcm_port_counters - what a port counts (sysfs, debugfs)
 * @tx: messages sent, per attribute (retries included)
 * @tx_retries: retransmissions, per attribute
 * @rx: messages received and decoded, per attribute
 * @rx_dup: duplicates received, per attribute
 * @rx_malformed: MADs that failed to decode
 * @rx_dropped: decoded MADs nobody could take (unknown comm ID, wrong
 *	state, queue full)
 * @backlog_dropped: REQs dropped because a listen's backlog was full
 * @backlog_rejected: REQs answered REJ NO_RESOURCES for the same reason
 * @req_withdrawn: REQs that ended undelivered because their sender gave up
 *	on them (REJ TIMEOUT) while they waited for their work to start
 * @stale_not_peer: REQs naming a QP connected to us that came from
 *	another address or P_Key than its peer's: REJ STALE_CONN, and the
 *	connection is left alone (Documentation/robustness.rst)
 * @backlog_evicted: half-open connections (REP unanswered) that a new
 *	request evicted from a full backlog (pdcm_halfopen_evict())
 */
struct pdcm_port_counters {
	atomic_long_t tx[PDCM_NUM_ATTRS];
	atomic_long_t tx_retries[PDCM_NUM_ATTRS];
	atomic_long_t rx[PDCM_NUM_ATTRS];
	atomic_long_t rx_dup[PDCM_NUM_ATTRS];
	atomic_long_t rx_malformed;
	atomic_long_t rx_dropped;
	atomic_long_t backlog_dropped;
	atomic_long_t backlog_rejected;
	atomic_long_t req_withdrawn;
	atomic_long_t stale_not_peer;
	atomic_long_t backlog_evicted;
};

static inline void pdcm_count(atomic_long_t *per_attr, u16 attr_id)
{
	if (attr_id >= 0x10 && attr_id < 0x10 + PDCM_NUM_ATTRS)
		atomic_long_inc(&per_attr[attr_id - 0x10]);
}

/**
 * struct pdcm_port - one CM-capable port of an RDMA device
 * @dev: the device this port belongs to
 * @port_num: IB port number (1-based)
 * @agent: the GSI MAD agent owning the CM class on this port, or NULL if
 *	registration was refused (typically: the in-tree ib_cm owns it) or
 *	the device is going away; read under @agent_lock by senders
 * @rep_agent: a send-only agent of the same GSI QP for REPs, or NULL
 *	(always before 6.17: compat.h PDCM_MAD_REP_AGENT).  From 6.17 the MAD
 *	layer holds back a CM agent's retried sends past recv_queue_size/4
 *	outstanding until earlier ones end, and REPs queued behind our own
 *	waiting REQs would stall both ends (the REQs wait for REPs); a
 *	send-only agent has no such limit.  Set and cleared with @agent,
 *	under @agent_lock
 * @agent_lock: keeps @agent and @rep_agent alive while a MAD is built and
 *	posted
 * @pd: the GSI QP's PD, for address handles; ib_mad frees it only after
 *	our remove() returned
 * @reg_err: the errno of a refused registration, 0 when @agent is set
 * @rx_mads: CM MADs received on this port
 * @ops: how the CM sends on this port (mad.c, or a test's fake)
 * @up: how the transport reaches the CM (pdcm_cm_up)
 * @cnt: counters
 */
struct pdcm_port {
	struct pdcm_device *dev;
	u32 port_num;
	struct ib_mad_agent *agent;
	struct ib_mad_agent *rep_agent;
	rwlock_t agent_lock;	/* see @agent_lock above */
	struct ib_pd *pd;
	int reg_err;
	atomic_long_t rx_mads;
	const struct pdcm_transport_ops *ops;
	const struct pdcm_transport_up *up;
	struct pdcm_port_counters cnt;
};

/**
 * struct pdcm_device - pdcm's view of one ib_device
 * @ibdev: the RDMA device
 * @list: entry in the global device list, under pdcm_devices_mutex
 * @ref: the device list's reference and one per conn on a port of it
 * @nports: number of entries in @port (rdma_end_port() - start + 1)
 * @port: per-port state, indexed by port_num - rdma_start_port()
 */
struct pdcm_device {
	struct ib_device *ibdev;
	struct list_head list;
	struct kref ref;
	u32 nports;
	struct pdcm_port port[];
};

extern struct mutex pdcm_devices_mutex;
extern struct list_head pdcm_devices;

struct pdcm_port *pdcm_port_find(struct ib_device *ibdev, u32 port_num);
struct pdcm_port *pdcm_port_get(struct ib_device *ibdev, u32 port_num);
void pdcm_device_init(struct pdcm_device *dev, struct ib_device *ibdev,
		      u32 nports);
void pdcm_device_get(struct pdcm_device *dev);
void pdcm_device_put(struct pdcm_device *dev);

#endif /* _PDCM_DEVICE_H */
