// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The remote tables of remote.h: three rb-trees under one spinlock, with
 * one insert-or-find helper instead of a hand-written walk per table.
 * Keys are three u64s compared in order; a conn's key is derived from its
 * fields when it is inserted and kept in the conn, since the fields may
 * change later (the remote QPN of a reused id, for instance).
 */
#include <linux/rbtree.h>
#include <linux/spinlock.h>

#include "cm.h"
#include "remote.h"

struct pdcm_remote_table {
	struct rb_root root;
	/* offset of the rb_node and of the key inside struct pdcm_conn */
	size_t node_off;
	size_t key_off;
};

static DEFINE_SPINLOCK(pdcm_remote_lock);

#define PDCM_TABLE(node, key) { RB_ROOT, offsetof(struct pdcm_conn, node), \
				offsetof(struct pdcm_conn, key) }
static struct pdcm_remote_table pdcm_remote_ids = PDCM_TABLE(remote_id_node, remote_id_key);
static struct pdcm_remote_table pdcm_remote_qps = PDCM_TABLE(remote_qp_node, remote_qp_key);
static struct pdcm_remote_table pdcm_remote_sidrs = PDCM_TABLE(remote_id_node, remote_id_key);

static struct rb_node *node_of(struct pdcm_remote_table *t, struct pdcm_conn *c)
{
	return (struct rb_node *)((char *)c + t->node_off);
}

static struct pdcm_conn *conn_of(struct pdcm_remote_table *t, struct rb_node *n)
{
	return (struct pdcm_conn *)((char *)n - t->node_off);
}

static const struct pdcm_remote_key *key_of(struct pdcm_remote_table *t,
					    const struct pdcm_conn *c)
{
	return (const struct pdcm_remote_key *)((const char *)c + t->key_off);
}

static int key_cmp(const struct pdcm_remote_key *a, const struct pdcm_remote_key *b)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(a->k); i++)
		if (a->k[i] != b->k[i])
			return a->k[i] < b->k[i] ? -1 : 1;
	return 0;
}

/*
 * Insert @conn, or return the conn already there under the same key, with
 * a reference (then @conn is not inserted).
 */
static struct pdcm_conn *pdcm_remote_insert(struct pdcm_remote_table *t,
					    struct pdcm_conn *conn)
{
	const struct pdcm_remote_key *key = key_of(t, conn);
	struct rb_node **link = &t->root.rb_node, *parent = NULL;
	struct pdcm_conn *old;
	unsigned long flags;
	int cmp;

	spin_lock_irqsave(&pdcm_remote_lock, flags);
	while (*link) {
		parent = *link;
		old = conn_of(t, parent);
		cmp = key_cmp(key, key_of(t, old));
		if (!cmp) {
			if (refcount_inc_not_zero(&old->refs)) {
				spin_unlock_irqrestore(&pdcm_remote_lock, flags);
				return old;
			}
			/* dying: take its place */
			rb_replace_node(parent, node_of(t, conn), &t->root);
			RB_CLEAR_NODE(parent);
			spin_unlock_irqrestore(&pdcm_remote_lock, flags);
			return NULL;
		}
		link = cmp < 0 ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(node_of(t, conn), parent, link);
	rb_insert_color(node_of(t, conn), &t->root);
	spin_unlock_irqrestore(&pdcm_remote_lock, flags);
	return NULL;
}

static void pdcm_remote_erase(struct pdcm_remote_table *t, struct pdcm_conn *conn)
{
	struct rb_node *n = node_of(t, conn);
	unsigned long flags;

	spin_lock_irqsave(&pdcm_remote_lock, flags);
	if (!RB_EMPTY_NODE(n)) {
		rb_erase(n, &t->root);
		RB_CLEAR_NODE(n);
	}
	spin_unlock_irqrestore(&pdcm_remote_lock, flags);
}

/* The conn under @key in @t, with a reference, or NULL. */
static struct pdcm_conn *pdcm_remote_find(struct pdcm_remote_table *t,
					  const struct pdcm_remote_key *key)
{
	struct pdcm_conn *c = NULL;
	unsigned long flags;
	struct rb_node *n;
	int cmp;

	spin_lock_irqsave(&pdcm_remote_lock, flags);
	for (n = t->root.rb_node; n; n = cmp < 0 ? n->rb_left : n->rb_right) {
		cmp = key_cmp(key, key_of(t, conn_of(t, n)));
		if (!cmp) {
			c = conn_of(t, n);
			if (!refcount_inc_not_zero(&c->refs))
				c = NULL;
			break;
		}
	}
	spin_unlock_irqrestore(&pdcm_remote_lock, flags);
	return c;
}

/**
 * pdcm_remote_id_find() - the conn of (remote comm ID, remote CA GUID)
 * @remote_id: the peer's comm ID
 * @guid: the peer's CA GUID
 *
 * Context: any; takes pdcm_remote_lock.
 * Return: the conn with a reference, or NULL.
 */
struct pdcm_conn *pdcm_remote_id_find(u32 remote_id, u64 guid)
{
	struct pdcm_remote_key key = { { remote_id, guid, 0 } };

	return pdcm_remote_find(&pdcm_remote_ids, &key);
}

/**
 * pdcm_remote_qp_find() - the conn connected to (remote QPN, remote CA GUID)
 * @qpn: the peer's QPN
 * @guid: the peer's CA GUID
 *
 * Context: any; takes pdcm_remote_lock.
 * Return: the conn with a reference, or NULL.
 */
struct pdcm_conn *pdcm_remote_qp_find(u32 qpn, u64 guid)
{
	struct pdcm_remote_key key = { { qpn, guid, 0 } };

	return pdcm_remote_find(&pdcm_remote_qps, &key);
}

/**
 * pdcm_remote_id_insert() - remember (remote comm ID, remote CA GUID)
 * @conn: a passive conn with remote_id and remote_ca_guid set
 *
 * Context: any; takes pdcm_remote_lock.
 * Return: NULL if inserted, else the conn that already has the key (a
 * duplicate REQ), with a reference.
 */
struct pdcm_conn *pdcm_remote_id_insert(struct pdcm_conn *conn)
{
	conn->remote_id_key = (struct pdcm_remote_key){ {
		be32_to_cpu(conn->id.remote_id), conn->remote_ca_guid, 0 } };
	return pdcm_remote_insert(&pdcm_remote_ids, conn);
}

/**
 * pdcm_remote_qp_insert() - remember (remote QPN, remote CA GUID)
 * @conn: a conn with remote_qpn and remote_ca_guid set
 *
 * Context: any; takes pdcm_remote_lock.
 * Return: NULL if inserted, else the conn already connected to that QP
 * (a stale connection), with a reference.
 */
struct pdcm_conn *pdcm_remote_qp_insert(struct pdcm_conn *conn)
{
	conn->remote_qp_key = (struct pdcm_remote_key){ {
		conn->remote_qpn, conn->remote_ca_guid, 0 } };
	return pdcm_remote_insert(&pdcm_remote_qps, conn);
}

/**
 * pdcm_remote_sidr_insert() - remember (request ID, sender's GID)
 * @conn: the passive SIDR conn
 * @req_id: the SIDR_REQ's request ID
 * @gid: the sender's GID (or its LID in the low bytes on IB without GRH)
 *
 * Context: any; takes pdcm_remote_lock.
 * Return: NULL if inserted, else the conn of the first copy, with a
 * reference.
 */
struct pdcm_conn *pdcm_remote_sidr_insert(struct pdcm_conn *conn, u32 req_id,
					  const union ib_gid *gid)
{
	conn->sidr = true;
	conn->remote_id_key = (struct pdcm_remote_key){ { req_id,
		be64_to_cpu(gid->global.subnet_prefix),
		be64_to_cpu(gid->global.interface_id) } };
	return pdcm_remote_insert(&pdcm_remote_sidrs, conn);
}

/**
 * pdcm_remote_unlink() - forget a conn in every remote table
 * @conn: the conn
 *
 * Context: any; takes pdcm_remote_lock.
 */
void pdcm_remote_unlink(struct pdcm_conn *conn)
{
	pdcm_remote_erase(conn->sidr ? &pdcm_remote_sidrs : &pdcm_remote_ids, conn);
	pdcm_remote_erase(&pdcm_remote_qps, conn);
}
