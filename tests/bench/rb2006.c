// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Baseline 3: the ib_cm listen tree of Linux 2.6.18 to 4.2, rebuilt from
 * its description (protocol.md section 12), not from its code.  One
 * rb-tree ordered by device, then service ID, then the sign of a memcmp
 * of the private data masked by both compares (IB_CM_COMPARE_SIZE, 64
 * bytes, values pre-masked); insert and lookup run under one spinlock
 * with interrupts off.  A listen with no compare collides with every
 * listen on its (device, service ID), so it cannot hold a wildcard next
 * to per-address listens: that insert fails with -EBUSY.
 */
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "bench.h"

#define RB_COMPARE_SIZE	64
#define RB_WORDS	(RB_COMPARE_SIZE / 8)

struct rb_listen {
	struct rb_node node;
	struct ib_device *dev;
	__be64 sid;
	__be64 smask;
	bool has_cmp;
	refcount_t ref;
	void *ctx;
	u64 data[RB_WORDS];
	u64 mask[RB_WORDS];
};

struct rb_tab {
	spinlock_t lock;	/* the whole tree, as cm.lock */
	struct rb_root root;
};

/* Two listens over the intersection of their masks; 0 if one has none. */
static int rb_cmp_listens(const struct rb_listen *a, const struct rb_listen *b)
{
	u64 x[RB_WORDS], y[RB_WORDS];
	unsigned int i;

	if (!a->has_cmp || !b->has_cmp)
		return 0;
	for (i = 0; i < RB_WORDS; i++) {
		x[i] = a->data[i] & b->mask[i];
		y[i] = b->data[i] & a->mask[i];
	}
	return memcmp(x, y, sizeof(x));
}

/* Request private data against one listen; 0 if it has no compare. */
static int rb_cmp_pdata(const u64 *pd, const struct rb_listen *l)
{
	u64 x[RB_WORDS];
	unsigned int i;

	if (!l->has_cmp)
		return 0;
	for (i = 0; i < RB_WORDS; i++)
		x[i] = pd[i] & l->mask[i];
	return memcmp(x, l->data, sizeof(x));
}

static void *rb_create(void)
{
	struct rb_tab *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (t) {
		spin_lock_init(&t->lock);
		t->root = RB_ROOT;
	}
	return t;
}

static void rb_destroy(void *tab)
{
	struct rb_tab *t = tab;
	struct rb_listen *l, *tmp;

	rbtree_postorder_for_each_entry_safe(l, tmp, &t->root, node)
		kfree(l);
	kfree(t);
}

static int rb_insert(void *tab, struct ib_device *dev, __be64 sid,
		     const struct pdcm_compare *cmp, void *ctx)
{
	struct rb_node **link, *parent = NULL;
	struct rb_tab *t = tab;
	struct rb_listen *l, *cur;
	unsigned long flags;
	int data_cmp;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->dev = dev;
	l->sid = sid;
	l->smask = cpu_to_be64(~0ULL);
	l->ctx = ctx;
	refcount_set(&l->ref, 1);
	if (cmp && memchr_inv(cmp->mask, 0, RB_COMPARE_SIZE)) {
		l->has_cmp = true;
		memcpy(l->data, cmp->data, RB_COMPARE_SIZE);
		memcpy(l->mask, cmp->mask, RB_COMPARE_SIZE);
	}

	spin_lock_irqsave(&t->lock, flags);
	link = &t->root.rb_node;
	while (*link) {
		parent = *link;
		cur = rb_entry(parent, struct rb_listen, node);
		data_cmp = rb_cmp_listens(l, cur);
		if ((cur->smask & l->sid) == (l->smask & cur->sid) &&
		    cur->dev == l->dev && !data_cmp) {
			spin_unlock_irqrestore(&t->lock, flags);
			kfree(l);
			return -EBUSY;
		}
		if ((unsigned long)l->dev < (unsigned long)cur->dev)
			link = &parent->rb_left;
		else if ((unsigned long)l->dev > (unsigned long)cur->dev)
			link = &parent->rb_right;
		else if (be64_to_cpu(l->sid) < be64_to_cpu(cur->sid))
			link = &parent->rb_left;
		else if (be64_to_cpu(l->sid) > be64_to_cpu(cur->sid))
			link = &parent->rb_right;
		else if (data_cmp < 0)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&l->node, parent, link);
	rb_insert_color(&l->node, &t->root);
	spin_unlock_irqrestore(&t->lock, flags);
	return 0;
}

/* @pdata is BENCH_PD_STRIDE bytes, 8-byte aligned. */
static void *rb_lookup(void *tab, struct ib_device *dev, u32 port,
		       __be64 sid, const u8 *pdata)
{
	const u64 *pd = (const u64 *)pdata;
	struct rb_listen *cur, *found = NULL;
	struct rb_tab *t = tab;
	struct rb_node *node;
	unsigned long flags;
	int data_cmp;
	void *ctx;

	spin_lock_irqsave(&t->lock, flags);
	node = t->root.rb_node;
	while (node) {
		cur = rb_entry(node, struct rb_listen, node);
		data_cmp = rb_cmp_pdata(pd, cur);
		if ((cur->smask & sid) == cur->sid && cur->dev == dev &&
		    !data_cmp) {
			found = cur;
			refcount_inc(&cur->ref);
			break;
		}
		if ((unsigned long)dev < (unsigned long)cur->dev)
			node = node->rb_left;
		else if ((unsigned long)dev > (unsigned long)cur->dev)
			node = node->rb_right;
		else if (be64_to_cpu(sid) < be64_to_cpu(cur->sid))
			node = node->rb_left;
		else if (be64_to_cpu(sid) > be64_to_cpu(cur->sid))
			node = node->rb_right;
		else if (data_cmp < 0)
			node = node->rb_left;
		else
			node = node->rb_right;
	}
	spin_unlock_irqrestore(&t->lock, flags);

	if (!found)
		return NULL;
	ctx = found->ctx;
	refcount_dec(&found->ref);
	return ctx;
}

const struct bench_ops bench_rb2006_ops = {
	.name = "rb2006",
	.create = rb_create,
	.destroy = rb_destroy,
	.insert = rb_insert,
	.lookup = rb_lookup,
};
