// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Baseline 2: what rdma_cm does today.  cma_find_listener() walks the
 * bind list of a port under rdma_cm's global mutex and asks
 * cma_match_private_data() of each listener in turn.  Here: one list,
 * one mutex, a masked compare of the private data per listen (64-bit
 * words, stopping at the first difference).  Specific listens sit ahead
 * of wildcards, so the first match is the most specific one: the cheapest
 * correct order a list can have.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "bench.h"

#define LIN_WORDS	DIV_ROUND_UP(PDCM_COMPARE_SIZE, 8)

struct lin_listen {
	struct list_head node;
	struct ib_device *dev;
	__be64 sid;
	refcount_t ref;
	void *ctx;
	u64 data[LIN_WORDS];
	u64 mask[LIN_WORDS];
};

struct lin_tab {
	struct mutex lock;	/* the list, as rdma_cm's global lock */
	struct list_head list;
};

static void *lin_create(void)
{
	struct lin_tab *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (t) {
		mutex_init(&t->lock);
		INIT_LIST_HEAD(&t->list);
	}
	return t;
}

static void lin_destroy(void *tab)
{
	struct lin_tab *t = tab;
	struct lin_listen *l, *tmp;

	list_for_each_entry_safe(l, tmp, &t->list, node)
		kfree(l);
	mutex_destroy(&t->lock);
	kfree(t);
}

static int lin_insert(void *tab, struct ib_device *dev, __be64 sid,
		      const struct pdcm_compare *cmp, void *ctx)
{
	struct lin_tab *t = tab;
	struct lin_listen *l = kzalloc(sizeof(*l), GFP_KERNEL);
	bool wildcard;

	if (!l)
		return -ENOMEM;
	l->dev = dev;
	l->sid = sid;
	l->ctx = ctx;
	refcount_set(&l->ref, 1);
	if (cmp) {
		memcpy(l->data, cmp->data, PDCM_COMPARE_SIZE);
		memcpy(l->mask, cmp->mask, PDCM_COMPARE_SIZE);
	}
	wildcard = !memchr_inv(l->mask, 0, sizeof(l->mask));

	mutex_lock(&t->lock);
	if (wildcard)
		list_add_tail(&l->node, &t->list);
	else
		list_add(&l->node, &t->list);
	mutex_unlock(&t->lock);
	return 0;
}

/* @pdata is BENCH_PD_STRIDE bytes, 8-byte aligned; bytes 92..95 are 0. */
static void *lin_lookup(void *tab, struct ib_device *dev, u32 port,
			__be64 sid, const u8 *pdata)
{
	const u64 *pd = (const u64 *)pdata;
	struct lin_listen *l, *found = NULL;
	struct lin_tab *t = tab;
	unsigned int i;
	void *ctx;

	mutex_lock(&t->lock);
	list_for_each_entry(l, &t->list, node) {
		if (l->sid != sid || (l->dev && l->dev != dev))
			continue;
		for (i = 0; i < LIN_WORDS; i++)
			if ((pd[i] & l->mask[i]) != l->data[i])
				break;
		if (i == LIN_WORDS) {
			found = l;
			refcount_inc(&l->ref);
			break;
		}
	}
	mutex_unlock(&t->lock);

	if (!found)
		return NULL;
	ctx = found->ctx;
	refcount_dec(&found->ref);
	return ctx;
}

const struct bench_ops bench_linear_ops = {
	.name = "linear",
	.create = lin_create,
	.destroy = lin_destroy,
	.insert = lin_insert,
	.lookup = lin_lookup,
};
