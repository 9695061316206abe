// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_id lifetime: allocation, references, local comm IDs, destroy.
 *
 * Local comm IDs come from an xarray, allocated cyclically (an ID is not
 * reused soon after it was freed, so late MADs for a dead connection find
 * nothing) and XORed with a random operand drawn at load time (IDs are not
 * predictable across boots).  Lookups run under RCU and take a reference
 * with refcount_inc_not_zero(): a conn whose last reference is gone is
 * never returned.
 *
 * Lock order: conn->lock > pdcm_ids (xa_lock).
 */
#include <kunit/visibility.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "cm.h"
#include "listen.h"
#include "remote.h"

static DEFINE_XARRAY_FLAGS(pdcm_ids, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_IRQ);
static u32 pdcm_ids_next;
static u32 pdcm_id_operand;
static atomic_t pdcm_conns_nr = ATOMIC_INIT(0);
/* Every conn, for debugfs; under pdcm_conns_lock. */
static LIST_HEAD(pdcm_conns);
static DEFINE_SPINLOCK(pdcm_conns_lock);

static void pdcm_conn_free(struct pdcm_conn *conn)
{
	if (conn->ah)
		rdma_destroy_ah(conn->ah, RDMA_DESTROY_AH_SLEEPABLE);
	if (conn->ah_valid)
		rdma_destroy_ah_attr(&conn->ah_attr);
	spin_lock_irq(&pdcm_conns_lock);
	list_del(&conn->list);
	spin_unlock_irq(&pdcm_conns_lock);
	atomic_dec(&pdcm_conns_nr);
	kfree(conn);
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
	struct pdcm_conn *conn = kzalloc(sizeof(*conn), gfp);
	unsigned long flags;

	if (!conn)
		return NULL;
	conn->id.device = device;
	conn->id.handler = handler;
	conn->id.context = context;
	conn->id.state = PDCM_IDLE;
	spin_lock_init(&conn->lock);
	refcount_set(&conn->refs, 1);
	init_completion(&conn->released);
	INIT_WORK(&conn->free_work, pdcm_conn_free_work);
	INIT_DELAYED_WORK(&conn->timewait_work, pdcm_timewait_work);
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

	xa_lock_irqsave(&pdcm_ids, flags);
	ret = __xa_alloc_cyclic(&pdcm_ids, &idx, conn, xa_limit_32b,
				&pdcm_ids_next, GFP_ATOMIC);
	xa_unlock_irqrestore(&pdcm_ids, flags);
	if (ret < 0)
		return ret;
	conn->id.local_id = cpu_to_be32(idx ^ pdcm_id_operand);
	return 0;
}

static void pdcm_conn_unhash(struct pdcm_conn *conn)
{
	unsigned long flags;

	if (!conn->id.local_id)
		return;
	xa_lock_irqsave(&pdcm_ids, flags);
	__xa_erase(&pdcm_ids, be32_to_cpu(conn->id.local_id) ^ pdcm_id_operand);
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
	conn = xa_load(&pdcm_ids, local_id ^ pdcm_id_operand);
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
 */
void pdcm_conn_put(struct pdcm_conn *conn)
{
	if (!refcount_dec_and_test(&conn->refs))
		return;
	if (READ_ONCE(conn->no_waiter))
		queue_work(system_wq, &conn->free_work);
	else
		complete(&conn->released);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_conn_put);

/**
 * pdcm_conn_destroy() - unhash a conn and drop the creator's reference
 * @conn: the conn; the caller's reference is the creator's
 * @wait: wait until every other reference is gone and free the conn;
 *	false from pdcm_wq, where the last put frees it
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
 * pdcm_ids_init() - draw the random operand of local comm IDs
 *
 * Context: module init.
 */
void pdcm_ids_init(void)
{
	pdcm_id_operand = get_random_u32();
}

/**
 * pdcm_ids_exit() - check that every conn is gone
 *
 * Context: module exit, after every ULP released its ids.
 */
void pdcm_ids_exit(void)
{
	WARN_ON(!xa_empty(&pdcm_ids));
}
