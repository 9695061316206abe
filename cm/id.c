// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_id lifetime: allocation, references, local comm IDs, destroy.
 *
 * Local comm IDs are indexes of an xarray, allocated cyclically (an index
 * is not reused soon after it was freed, so late MADs for a dead
 * connection find nothing), and put on the wire through a keyed
 * permutation of the 32-bit space: a four-round Feistel network whose
 * round function is hsiphash under a key drawn at load time.  Knowing its
 * own comm IDs tells a peer nothing about anyone else's, so it cannot
 * guess the ID of another connection to forge a REJ or DREQ for it.  The
 * index that the permutation maps to 0 is reserved: 0 means "no ID" on
 * the wire.  Lookups run under RCU and take a reference with
 * refcount_inc_not_zero(): a conn whose last reference is gone is never
 * returned.
 *
 * Lock order: conn->lock > pdcm_ids (xa_lock).
 */
#include <kunit/visibility.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "cm.h"
#include "device.h"
#include "fault.h"
#include "listen.h"
#include "remote.h"

static DEFINE_XARRAY_FLAGS(pdcm_ids, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
static u32 pdcm_ids_next;
static hsiphash_key_t pdcm_id_key;
static u32 pdcm_id_zero;	/* the index whose ID would be 0: reserved */
static atomic_t pdcm_conns_nr = ATOMIC_INIT(0);
/* Every conn, for debugfs; under pdcm_conns_lock. */
static LIST_HEAD(pdcm_conns);
static DEFINE_SPINLOCK(pdcm_conns_lock);
/*
 * Conns come from a cache of their own: at 648 bytes a kmalloc() would
 * take a 1 kB object for each (Documentation/performance.rst).
 */
static struct kmem_cache *pdcm_conn_cache;

#define PDCM_ID_ROUNDS	4

static u32 pdcm_id_round(u32 half, unsigned int round)
{
	return hsiphash_2u32(half, round, &pdcm_id_key) & 0xffff;
}

/* xarray index -> local comm ID on the wire */
static u32 pdcm_id_of_index(u32 idx)
{
	u32 l = idx >> 16, r = idx & 0xffff, t;
	unsigned int i;

	for (i = 0; i < PDCM_ID_ROUNDS; i++) {
		t = l ^ pdcm_id_round(r, i);
		l = r;
		r = t;
	}
	return l << 16 | r;
}

/* local comm ID -> xarray index: pdcm_id_of_index() backwards */
static u32 pdcm_index_of_id(u32 id)
{
	u32 l = id >> 16, r = id & 0xffff, t;
	unsigned int i;

	for (i = PDCM_ID_ROUNDS; i-- > 0;) {
		t = r ^ pdcm_id_round(l, i);
		r = l;
		l = t;
	}
	return l << 16 | r;
}

static void pdcm_conn_free_rcu(struct rcu_head *rcu)
{
	kmem_cache_free(pdcm_conn_cache, container_of(rcu, struct pdcm_conn, rcu));
}

/*
 * The last reference is gone.  Nothing can insert the conn anywhere any
 * more, so whatever still links it -- a remote table it entered while
 * being destroyed, say, as a REP's handling can after destroy's own
 * unlink -- is undone here.  The memory goes back after a grace period:
 * pdcm_conn_get_by_local_id() may have loaded the pointer from the
 * xarray just before destroy erased it, and has yet to find the refcount
 * at zero.
 */
static void pdcm_conn_free(struct pdcm_conn *conn)
{
	pdcm_remote_unlink(conn);
	/* off the list first: pdcm_conns_release_avs() no longer sees it */
	spin_lock_irq(&pdcm_conns_lock);
	list_del(&conn->list);
	spin_unlock_irq(&pdcm_conns_lock);
	if (conn->ah_valid)
		rdma_destroy_ah_attr(&conn->ah_attr);
	pdcm_alt_free(conn->alt);
	if (conn->port)
		pdcm_device_put(conn->port->dev);
	atomic_dec(&pdcm_conns_nr);
	call_rcu(&conn->rcu, pdcm_conn_free_rcu);
}

static void pdcm_conn_free_work(struct work_struct *work)
{
	pdcm_conn_free(container_of(work, struct pdcm_conn, free_work));
}

/**
 * pdcm_conn_alloc() - a new, unhashed conn in IDLE
 * @device: its device, or NULL (a listen on every device)
 * @handler: the ULP's handler
 * @context: the ULP's context
 * @gfp: allocation flags
 *
 * Context: any, as @gfp allows.
 * Return: the conn with one reference, or NULL.
 */
struct pdcm_conn *pdcm_conn_alloc(struct ib_device *device,
				  pdcm_handler handler, void *context,
				  gfp_t gfp)
{
	struct pdcm_conn *conn = pdcm_fail() ? NULL :
		kmem_cache_zalloc(pdcm_conn_cache, gfp);
	unsigned long flags;

	if (!conn)
		return NULL;
	conn->id.device = device;
	conn->id.handler = handler;
	conn->id.context = context;
	conn->id.state = PDCM_IDLE;
	conn->id.remote_cm_qpn = 1;
	spin_lock_init(&conn->lock);
	refcount_set(&conn->refs, 1);
	init_completion(&conn->released);
	INIT_WORK(&conn->free_work, pdcm_conn_free_work);
	INIT_WORK(&conn->ev_work, pdcm_conn_ev_work);
	INIT_LIST_HEAD(&conn->events);
	INIT_LIST_HEAD(&conn->halfopen.node);
	INIT_LIST_HEAD(&conn->err_ev.node);
	conn->err_ev.kind = PDCM_EV_KIND_SEND_ERROR;
	INIT_LIST_HEAD(&conn->tw_ev.node);
	conn->tw_ev.kind = PDCM_EV_KIND_TIMEWAIT;
	INIT_LIST_HEAD(&conn->est_ev.node);
	conn->est_ev.kind = PDCM_EV_KIND_USER_EST;
	INIT_DELAYED_WORK(&conn->timewait_work, pdcm_timewait_fire);
	INIT_DELAYED_WORK(&conn->mra_work, pdcm_mra_fire);
	RB_CLEAR_NODE(&conn->remote_id_node);
	RB_CLEAR_NODE(&conn->remote_qp_node);
	conn->created = jiffies;
	spin_lock_irqsave(&pdcm_conns_lock, flags);
	list_add_tail(&conn->list, &pdcm_conns);
	spin_unlock_irqrestore(&pdcm_conns_lock, flags);
	atomic_inc(&pdcm_conns_nr);
	return conn;
}

/**
 * pdcm_conn_set_port() - the port a conn runs on, once known
 * @conn: the conn
 * @port: the port; the conn holds its device until it is freed
 *
 * Context: any; called before the conn sends anything.
 */
void pdcm_conn_set_port(struct pdcm_conn *conn, struct pdcm_port *port)
{
	pdcm_device_get(port->dev);
	if (conn->port)
		pdcm_device_put(conn->port->dev);
	conn->port = port;
}

/**
 * pdcm_conns_release_avs() - drop the address attributes of @dev's conns
 * @dev: a device whose MAD agents are gone
 *
 * Their address attributes hold references on the device's GID table,
 * which must go before the device does.  (The address handles themselves
 * belong to sends, and the MAD layer completed every send when the agents
 * were unregistered.)  No conn can make a new one: sends fail without
 * the agent.
 *
 * Context: process context.
 */
void pdcm_conns_release_avs(struct pdcm_device *dev)
{
	struct pdcm_conn *conn;

	spin_lock_irq(&pdcm_conns_lock);
	list_for_each_entry(conn, &pdcm_conns, list) {
		if (!conn->port || conn->port->dev != dev)
			continue;
		spin_lock(&conn->lock);
		if (conn->ah_valid) {
			rdma_destroy_ah_attr(&conn->ah_attr);
			conn->ah_valid = false;
		}
		pdcm_alt_free(conn->alt);	/* its address too */
		conn->alt = NULL;
		spin_unlock(&conn->lock);
	}
	spin_unlock_irq(&pdcm_conns_lock);
}

/**
 * pdcm_conn_hash() - give a conn its local comm ID and make it findable
 * @conn: an unhashed conn
 *
 * Context: any; takes the xarray lock.
 * Return: 0, or -ENOMEM / -EBUSY if no ID is free.
 */
int pdcm_conn_hash(struct pdcm_conn *conn)
{
	unsigned long flags;
	u32 idx;
	int ret;

	if (pdcm_fail())
		return -ENOMEM;
	xa_lock_irqsave(&pdcm_ids, flags);
	ret = __xa_alloc_cyclic(&pdcm_ids, &idx, conn, xa_limit_32b,
				&pdcm_ids_next, GFP_ATOMIC);
	xa_unlock_irqrestore(&pdcm_ids, flags);
	if (ret < 0)
		return ret;
	conn->id.local_id = cpu_to_be32(pdcm_id_of_index(idx));
	return 0;
}

static void pdcm_conn_unhash(struct pdcm_conn *conn)
{
	unsigned long flags;

	if (!conn->id.local_id)
		return;
	xa_lock_irqsave(&pdcm_ids, flags);
	__xa_erase(&pdcm_ids, pdcm_index_of_id(be32_to_cpu(conn->id.local_id)));
	xa_unlock_irqrestore(&pdcm_ids, flags);
}

/**
 * pdcm_conn_get_by_local_id() - find a live conn by its local comm ID
 * @local_id: the ID as carried on the wire, host order
 *
 * Context: any; takes rcu_read_lock().
 * Return: the conn with a reference taken, or NULL.
 */
struct pdcm_conn *pdcm_conn_get_by_local_id(u32 local_id)
{
	struct pdcm_conn *conn;

	rcu_read_lock();
	conn = local_id ? xa_load(&pdcm_ids, pdcm_index_of_id(local_id)) : NULL;
	if (conn && !refcount_inc_not_zero(&conn->refs))
		conn = NULL;
	rcu_read_unlock();
	return conn;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_conn_get_by_local_id);

/**
 * pdcm_conn_get() - take another reference
 * @conn: a conn the caller holds a reference to
 *
 * Context: any.
 * Return: nothing.
 */
void pdcm_conn_get(struct pdcm_conn *conn)
{
	refcount_inc(&conn->refs);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_conn_get);

/**
 * pdcm_conn_put() - drop a reference
 * @conn: the conn
 *
 * The last reference wakes a waiting destroyer or, when none waits,
 * frees the conn from process context.
 *
 * Context: any.
 * Return: nothing.
 */
void pdcm_conn_put(struct pdcm_conn *conn)
{
	if (!refcount_dec_and_test(&conn->refs))
		return;
	if (READ_ONCE(conn->no_waiter))
		queue_work(pdcm_wq, &conn->free_work);
	else
		complete(&conn->released);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_conn_put);

/**
 * pdcm_conn_destroy() - unhash a conn and drop the creator's reference
 * @conn: the conn; the caller's reference is the creator's
 * @wait: wait until every other reference is gone and free the conn;
 *	false from the conn's own event work (a handler's non-zero return)
 *	or where nothing may wait: then the last put frees it
 *
 * The protocol side of destroying (REJ, DREQ, ...) has been done by the
 * caller.  After this no lookup finds @conn.
 *
 * Context: process context; sleeps if @wait.
 */
void pdcm_conn_destroy(struct pdcm_conn *conn, bool wait)
{
	pdcm_conn_unhash(conn);
	pdcm_remote_unlink(conn);
	if (cancel_delayed_work(&conn->timewait_work))
		pdcm_conn_put(conn);	/* the timer's reference */
	if (cancel_delayed_work(&conn->mra_work))
		pdcm_conn_put(conn);	/* the early MRA's */
	if (!wait) {
		WRITE_ONCE(conn->no_waiter, true);
		pdcm_conn_put(conn);
		return;
	}
	pdcm_conn_put(conn);
	wait_for_completion(&conn->released);
	pdcm_conn_free(conn);
}

/**
 * pdcm_conns_live() - conns allocated and not yet freed
 *
 * Context: any.
 * Return: the count (for leak checks in tests and debugfs).
 */
int pdcm_conns_live(void)
{
	return atomic_read(&pdcm_conns_nr);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_conns_live);

/**
 * pdcm_conns_show() - one line per conn, for debugfs
 * @m: the seq_file
 *
 * Context: process context; takes pdcm_conns_lock.
 */
void pdcm_conns_show(struct seq_file *m)
{
	static const u8 no_gid[16];
	struct pdcm_conn *conn;

	seq_puts(m, "local_id   remote_id  state         service_id         qpn      remote_qpn peer_gid                                age_ms\n");
	spin_lock_irq(&pdcm_conns_lock);
	list_for_each_entry(conn, &pdcm_conns, list) {
		seq_printf(m, "0x%08x 0x%08x %-13s 0x%016llx %-8u %-10u %pI6 %u\n",
			   be32_to_cpu(conn->id.local_id),
			   be32_to_cpu(conn->id.remote_id),
			   pdcm_state_name(conn->id.state),
			   be64_to_cpu(conn->id.service_id), conn->local_qpn,
			   conn->remote_qpn,
			   conn->ah_valid && (conn->ah_attr.ah_flags & IB_AH_GRH) ?
			   conn->ah_attr.grh.dgid.raw : no_gid,
			   jiffies_to_msecs(jiffies - conn->created));
	}
	spin_unlock_irq(&pdcm_conns_lock);
}

/**
 * pdcm_conns_states_show() - how many conns are in each state, for debugfs
 * @m: the seq_file
 *
 * One walk without printing under the lock (cheap with 100,000 conns, where
 * pdcm_conns_show() prints megabytes), then "STATE count" per state that
 * has any, and "total count".
 *
 * Context: process context; takes pdcm_conns_lock.
 */
void pdcm_conns_states_show(struct seq_file *m)
{
	unsigned int n[PDCM_NUM_STATES] = {}, total = 0, s;
	struct pdcm_conn *conn;

	spin_lock_irq(&pdcm_conns_lock);
	list_for_each_entry(conn, &pdcm_conns, list) {
		s = READ_ONCE(conn->id.state);
		if (s < PDCM_NUM_STATES)
			n[s]++;
		total++;
	}
	spin_unlock_irq(&pdcm_conns_lock);
	for (s = 0; s < PDCM_NUM_STATES; s++)
		if (n[s])
			seq_printf(m, "%s %u\n", pdcm_state_name(s), n[s]);
	seq_printf(m, "total %u\n", total);
}

/**
 * pdcm_ids_init() - the conn cache; draw the key of local comm IDs
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int pdcm_ids_init(void)
{
	int ret;

	pdcm_conn_cache = KMEM_CACHE(pdcm_conn, 0);
	if (!pdcm_conn_cache)
		return -ENOMEM;
	get_random_bytes(&pdcm_id_key, sizeof(pdcm_id_key));
	pdcm_id_zero = pdcm_index_of_id(0);
	ret = xa_reserve_irq(&pdcm_ids, pdcm_id_zero, GFP_KERNEL);
	if (ret)
		kmem_cache_destroy(pdcm_conn_cache);
	return ret;
}

/**
 * pdcm_ids_exit() - check that every conn is gone; free the conn cache
 *
 * Context: module exit, after every ULP released its ids and pdcm_wq
 * (which frees the last conns) is gone.
 */
void pdcm_ids_exit(void)
{
	xa_lock_irq(&pdcm_ids);
	__xa_erase(&pdcm_ids, pdcm_id_zero);
	xa_unlock_irq(&pdcm_ids);
	WARN_ON(!xa_empty(&pdcm_ids));
	rcu_barrier();		/* pdcm_conn_free_rcu() */
	kmem_cache_destroy(pdcm_conn_cache);
}
