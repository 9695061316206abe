// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm listen table: tuple-space search over (device, port, service ID,
 * private data) under RCU.  listen.h explains the model, the cost model
 * and the concurrency rules.
 *
 * Lock order: pdcm_ltab.lock, then the rhashtable and xarray internal
 * locks.  Lookups take no lock at all.
 */
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/xarray.h>

#include "compat.h"
#include "fault.h"
#include "listen.h"

/*
 * K as 64-bit words: the device pointer, the port, the service ID (kept
 * in network order; only AND, XOR and popcount ever touch it), then the
 * private data with four bytes of zero padding.
 */
enum {
	PDCM_KW_DEVICE,
	PDCM_KW_PORT,
	PDCM_KW_SERVICE,
	PDCM_KW_PDATA,
	PDCM_KEY_WORDS = PDCM_KW_PDATA + DIV_ROUND_UP(PDCM_COMPARE_SIZE, 8),
};

#define PDCM_LISTEN_FLAGS	PDCM_LISTEN_REJ_ON_OVERFLOW
#define PDCM_ALL_ONES		(~0ULL)

/* Emptied subtables kept for reuse, and the most left waiting for a GP. */
#define PDCM_DEAD_KEEP		4
#define PDCM_DEAD_MAX		256

struct pdcm_key {
	u64 w[PDCM_KEY_WORDS];
};

/*
 * One subtable: every listen with this mask.  Readers use the first part;
 * a probe is the request's words idx[0..nwords-1] ANDed with cmask[].
 */
struct pdcm_mtab {
	struct list_head node;		/* pdcm_ltab.masks, RCU */
	unsigned int nwords;		/* words of K the mask covers... */
	u8 idx[PDCM_KEY_WORDS];		/* ...which... */
	u64 cmask[PDCM_KEY_WORDS];	/* ...and their mask bits */
	struct rhashtable ht;		/* pdcm_listen by value */

	/* Writer side, under pdcm_ltab.lock. */
	struct pdcm_key mask;
	unsigned int weight;		/* probe order: pdcm_mask_weight() */
	unsigned int bits;		/* popcount of mask */
	struct list_head listens;	/* pdcm_listen.entry */
	struct list_head dead_node;	/* pdcm_ltab.dead */
	unsigned long gp;		/* RCU state when unlinked */
};

struct pdcm_listen {
	/*
	 * What a lookup touches, in one cache line for masks of up to five
	 * words: the chain link, the value words the subtable compares
	 * (compacted like a probe), and the two counters it bumps.
	 */
	struct rhash_head node;
	refcount_t ref;
	atomic64_t matched;
	u64 cval[PDCM_KEY_WORDS];

	/* Backlog and its counters, written on every admitted REQ. */
	atomic64_t delivered;
	atomic64_t dropped;
	struct pdcm_backlog *bl;	/* its own or a shared group */

	/* Set at insert, constant after. */
	void *context;
	void (*release)(void *context);
	u32 flags;
	u32 sid_index;
	bool assigned;			/* service ID came from the table */
	__be64 service_id;		/* as masked, or as assigned */

	/*
	 * Writer side, under pdcm_ltab.lock.  The whole pre-masked value is
	 * not kept: it is zero outside mt's mask, so cval and mt->idx say
	 * all of it (pdcm_listen_val()).
	 */
	struct pdcm_mtab *mt;		/* NULL once removed */
	struct list_head entry;		/* pdcm_mtab.listens */
	struct rcu_head rcu;
};

/*
 * A listen is a kmalloc-256 object on 64-bit (its own backlog, a
 * kmalloc-64 one, beside it): 100,000 listens are 25 MB (+6.4 MB),
 * and a lookup's random hits spread over half the pages they would with
 * a second copy of the 120-byte key (Documentation/performance.rst).
 */
static_assert(BITS_PER_LONG != 64 || sizeof(struct pdcm_listen) <= 256);

struct pdcm_ltab {
	struct mutex lock;		/* serializes writers */
	struct list_head masks;		/* pdcm_mtab by weight, descending */
	struct list_head dead;		/* unlinked subtables, oldest first */
	unsigned int nr_dead;
	unsigned int nr_masks;
	unsigned int nr_listens;
	struct xarray sids;		/* assigned service IDs */
	u32 next_sid;
	unsigned int default_backlog;
	void (*release)(void *context);
};

/* The request key masked down to the words a subtable covers. */
struct pdcm_probe {
	const struct pdcm_mtab *mt;
	u64 w[PDCM_KEY_WORDS];
};

static u8 *pdcm_key_pdata(struct pdcm_key *k)
{
	return (u8 *)&k->w[PDCM_KW_PDATA];
}

static u32 pdcm_words_hash(const u64 *w, unsigned int n, u32 seed)
{
	return jhash2((const u32 *)w, n * (sizeof(u64) / sizeof(u32)), seed);
}

static u32 pdcm_probe_hash(const void *data, u32 len, u32 seed)
{
	const struct pdcm_probe *p = data;

	return pdcm_words_hash(p->w, p->mt->nwords, seed);
}

static u32 pdcm_listen_hash(const void *data, u32 len, u32 seed)
{
	const struct pdcm_listen *l = data;

	return pdcm_words_hash(l->cval, l->mt->nwords, seed);
}

/* Listens in one subtable differ only in the words its mask covers. */
static int pdcm_listen_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct pdcm_probe *p = arg->key;
	const struct pdcm_listen *l = obj;
	unsigned int i;

	for (i = 0; i < p->mt->nwords; i++)
		if (l->cval[i] != p->w[i])
			return 1;
	return 0;
}

/*
 * Start at the minimum size (4 buckets): most masks hold a handful of
 * listens, and a subtable created at the default 64 would be shrunk by
 * the resize worker right after its first removal.
 */
static const struct rhashtable_params pdcm_mtab_params = {
	.nelem_hint		= 2,
	.head_offset		= offsetof(struct pdcm_listen, node),
	.hashfn			= pdcm_probe_hash,
	.obj_hashfn		= pdcm_listen_hash,
	.obj_cmpfn		= pdcm_listen_cmp,
	.automatic_shrinking	= true,
};

/* Probe for a key we hold whole (the writer's identical-key check). */
static void pdcm_probe_init(struct pdcm_probe *p, const struct pdcm_mtab *mt,
			    const struct pdcm_key *k)
{
	unsigned int i;

	p->mt = mt;
	for (i = 0; i < mt->nwords; i++)
		p->w[i] = k->w[mt->idx[i]] & mt->cmask[i];
}

/*
 * A request's key, read in place: a lookup loads only the words each
 * subtable covers, straight from the private data.
 */
struct pdcm_req {
	u64 head[PDCM_KW_PDATA];	/* device, port, service ID */
	const u8 *pdata;		/* PDCM_COMPARE_SIZE bytes */
};

static u64 pdcm_req_word(const struct pdcm_req *r, unsigned int i)
{
	unsigned int off;
	u64 w = 0;

	if (i < PDCM_KW_PDATA)
		return r->head[i];
	off = (i - PDCM_KW_PDATA) * sizeof(u64);
	if (off + sizeof(u64) <= PDCM_COMPARE_SIZE)
		return get_unaligned((const u64 *)(r->pdata + off));
	/* The last word is part private data, part zero padding. */
	memcpy(&w, r->pdata + off, PDCM_COMPARE_SIZE - off);
	return w;
}

static void pdcm_probe_req(struct pdcm_probe *p, const struct pdcm_mtab *mt,
			   const struct pdcm_req *r)
{
	unsigned int i;

	p->mt = mt;
	for (i = 0; i < mt->nwords; i++)
		p->w[i] = pdcm_req_word(r, mt->idx[i]) & mt->cmask[i];
}

/* ---- mask algebra ---------------------------------------------------- */

static bool pdcm_mask_equal(const struct pdcm_key *a, const struct pdcm_key *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/*
 * Specificity is ranked on what a request carries first (service ID and
 * private data), and on where it arrived (device, port) only between
 * listens that look at the same request bits: a per-address listen on
 * every device is more specific than a wildcard on one device, so native
 * per-address listens sit next to rdma_cm's per-device wildcards
 * (Documentation/listen-matching.rst).
 */
static bool pdcm_word_is_scope(unsigned int i)
{
	return i == PDCM_KW_DEVICE || i == PDCM_KW_PORT;
}

/* Does @a cover every bit of @b in the scope words (or the others)? */
static bool pdcm_part_covers(const struct pdcm_key *a, const struct pdcm_key *b,
			     bool scope)
{
	unsigned int i;

	for (i = 0; i < PDCM_KEY_WORDS; i++)
		if (pdcm_word_is_scope(i) == scope && (b->w[i] & ~a->w[i]))
			return false;
	return true;
}

/*
 * Is a listen with mask @a more specific than an overlapping one with
 * mask @b (@a != @b)?  Its request bits are a strict superset of @b's, or
 * the same bits and a strict superset of @b's scope.
 */
static bool pdcm_mask_above(const struct pdcm_key *a, const struct pdcm_key *b)
{
	if (!pdcm_part_covers(a, b, false))
		return false;
	if (!pdcm_part_covers(b, a, false))
		return true;
	return pdcm_part_covers(a, b, true);
}

/*
 * The probe order that puts every mask before the masks it is above:
 * request bits first, scope bits (at most 128) second.
 */
static unsigned int pdcm_mask_weight(const struct pdcm_key *mask)
{
	unsigned int i, req = 0, scope = 0;

	for (i = 0; i < PDCM_KEY_WORDS; i++) {
		if (pdcm_word_is_scope(i))
			scope += hweight64(mask->w[i]);
		else
			req += hweight64(mask->w[i]);
	}
	return req << 8 | scope;
}

/*
 * Do a listen in the table and a new pre-masked (mask, val) agree on every
 * bit both masks cover?  The listen's mask covers only the words of its
 * subtable, so those are the words to compare.
 */
static bool pdcm_listen_overlap(const struct pdcm_listen *l,
				const struct pdcm_key *mask,
				const struct pdcm_key *val)
{
	const struct pdcm_mtab *mt = l->mt;
	unsigned int i, w;

	for (i = 0; i < mt->nwords; i++) {
		w = mt->idx[i];
		if ((l->cval[i] ^ val->w[w]) & mt->cmask[i] & mask->w[w])
			return false;
	}
	return true;
}

/* The whole pre-masked value of a listen still in its subtable. */
static void pdcm_listen_val(const struct pdcm_listen *l, struct pdcm_key *v)
{
	const struct pdcm_mtab *mt = l->mt;
	unsigned int i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < mt->nwords; i++)
		v->w[mt->idx[i]] = l->cval[i];
}

/* ---- backlog groups -------------------------------------------------- */

static int pdcm_backlog_limit(unsigned int limit, unsigned int dflt)
{
	if (!limit)
		limit = dflt;
	return limit > INT_MAX ? -EINVAL : limit;
}

static struct pdcm_backlog *pdcm_backlog_alloc(int limit)
{
	struct pdcm_backlog *bl;

	bl = pdcm_fail() ? NULL : kzalloc(sizeof(*bl), GFP_KERNEL);
	if (!bl)
		return NULL;
	atomic_set(&bl->pending, 0);
	bl->limit = limit;
	refcount_set(&bl->ref, 1);
	spin_lock_init(&bl->lock);
	INIT_LIST_HEAD(&bl->halfopen);
	return bl;
}

/**
 * pdcm_backlog_create() - create a backlog shared by several listens
 * @limit: most requests delivered and not yet answered, over all listens
 *	in the group; 0 selects PDCM_BACKLOG_DEFAULT
 *
 * Name the group in &pdcm_listen_attr.backlog_group of each listen that
 * should share it.  Every listen holds a reference on its group, so the
 * caller may drop its own with pdcm_backlog_put() once the listens exist.
 *
 * Context: Process context; may sleep.
 * Return: the group with one reference, ERR_PTR(-EINVAL) if @limit is
 * above INT_MAX, or ERR_PTR(-ENOMEM).
 */
struct pdcm_backlog *pdcm_backlog_create(unsigned int limit)
{
	struct pdcm_backlog *bl;
	int lim = pdcm_backlog_limit(limit, PDCM_BACKLOG_DEFAULT);

	if (lim < 0)
		return ERR_PTR(lim);
	bl = pdcm_backlog_alloc(lim);
	if (!bl)
		return ERR_PTR(-ENOMEM);
	bl->group = true;
	return bl;
}
EXPORT_SYMBOL_NS_GPL(pdcm_backlog_create, PDCM_NS(PDCM));

/**
 * pdcm_backlog_put() - drop a reference on a backlog group
 * @group: the group, or NULL
 *
 * Context: Any context.
 * Return: nothing.
 */
void pdcm_backlog_put(struct pdcm_backlog *group)
{
	if (group && refcount_dec_and_test(&group->ref))
		kfree(group);
}
EXPORT_SYMBOL_NS_GPL(pdcm_backlog_put, PDCM_NS(PDCM));

/* ---- listens --------------------------------------------------------- */

/*
 * Turn an attr into (mask, value), or refuse it.  *assign is set for
 * PDCM_ASSIGN_SERVICE_ID; the value's service ID is filled in later.
 */
static int pdcm_listen_key(struct pdcm_key *mask, struct pdcm_key *val,
			   struct ib_device *device,
			   const struct pdcm_listen_attr *attr, bool *assign)
{
	__be64 all = (__force __be64)PDCM_ALL_ONES;
	__be64 sid = attr->service_id;
	__be64 smask = attr->service_mask ?: all;
	unsigned int i;

	memset(mask, 0, sizeof(*mask));
	memset(val, 0, sizeof(*val));
	*assign = false;

	if (attr->flags & ~PDCM_LISTEN_FLAGS)
		return -EINVAL;

	if (sid == PDCM_ASSIGN_SERVICE_ID) {
		if (smask != all)
			return -EINVAL;
		*assign = true;
	} else {
		if (sid & ~smask)
			return -EINVAL;
		/* Reaching into the range the CM hands out is refused. */
		if (!((sid ^ PDCM_ASSIGN_SERVICE_ID) & smask &
		      PDCM_ASSIGN_SERVICE_MASK))
			return -EINVAL;
	}

	if (attr->compare) {
		for (i = 0; i < PDCM_COMPARE_SIZE; i++)
			if (attr->compare->data[i] & ~attr->compare->mask[i])
				return -EINVAL;
		memcpy(pdcm_key_pdata(mask), attr->compare->mask,
		       PDCM_COMPARE_SIZE);
		memcpy(pdcm_key_pdata(val), attr->compare->data,
		       PDCM_COMPARE_SIZE);
	}

	if (device) {
		mask->w[PDCM_KW_DEVICE] = PDCM_ALL_ONES;
		val->w[PDCM_KW_DEVICE] = (unsigned long)device;
	}
	if (attr->port) {
		mask->w[PDCM_KW_PORT] = PDCM_ALL_ONES;
		val->w[PDCM_KW_PORT] = attr->port;
	}
	mask->w[PDCM_KW_SERVICE] = (__force u64)smask;
	val->w[PDCM_KW_SERVICE] = (__force u64)sid;
	return 0;
}

/**
 * pdcm_listen_get() - take another reference on a listen
 * @l: a listen the caller already holds a reference on
 *
 * Context: Any context.
 * Return: nothing.
 */
void pdcm_listen_get(struct pdcm_listen *l)
{
	refcount_inc(&l->ref);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_get);

/**
 * pdcm_listen_put() - drop a reference on a listen
 * @l: the listen, or NULL
 *
 * The last reference runs the table's release callback on the listen's
 * context, drops the backlog group and frees the listen after an RCU
 * grace period.
 *
 * Context: Any context the release callback allows.
 * Return: nothing.
 */
void pdcm_listen_put(struct pdcm_listen *l)
{
	if (!l || !refcount_dec_and_test(&l->ref))
		return;
	if (l->release)
		l->release(l->context);
	pdcm_backlog_put(l->bl);
	kfree_rcu(l, rcu);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_put);

/**
 * pdcm_listen_context() - the context a listen was inserted with
 * @l: the listen
 *
 * Context: Any context; the caller holds a reference on @l.
 * Return: the context pointer given to pdcm_ltab_insert().
 */
void *pdcm_listen_context(const struct pdcm_listen *l)
{
	return l->context;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_context);

/**
 * pdcm_listen_service_id() - the service ID a listen listens on
 * @l: the listen
 *
 * Context: Any context; the caller holds a reference on @l.
 * Return: the service ID (network order) as masked by the listen's
 * service mask; for PDCM_ASSIGN_SERVICE_ID, the one the table assigned.
 */
__be64 pdcm_listen_service_id(const struct pdcm_listen *l)
{
	return l->service_id;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_service_id);

/**
 * pdcm_listen_flags() - the flags a listen was inserted with
 * @l: the listen
 *
 * Context: Any context; the caller holds a reference on @l.
 * Return: its enum pdcm_listen_flags.
 */
u32 pdcm_listen_flags(const struct pdcm_listen *l)
{
	return l->flags;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_flags);

/**
 * pdcm_listen_admit() - take a backlog slot for a matched request
 * @l: the listen a lookup returned
 *
 * On PDCM_ADMIT_DELIVER the caller owns one slot of the listen's backlog
 * (its own or its group's) and gives it back with pdcm_listen_retire()
 * when the request is answered with REP or REJ or its id is destroyed,
 * holding a reference on @l until then.
 *
 * Context: Any context.
 * Return: PDCM_ADMIT_DELIVER, or PDCM_ADMIT_DROP / PDCM_ADMIT_REJECT when
 * the backlog is full (REJECT if the listen has
 * PDCM_LISTEN_REJ_ON_OVERFLOW).
 */
enum pdcm_admit pdcm_listen_admit(struct pdcm_listen *l)
{
	struct pdcm_backlog *bl = l->bl;

	if (atomic_add_unless(&bl->pending, 1, bl->limit)) {
		atomic64_inc(&l->delivered);
		return PDCM_ADMIT_DELIVER;
	}
	atomic64_inc(&l->dropped);
	return l->flags & PDCM_LISTEN_REJ_ON_OVERFLOW ? PDCM_ADMIT_REJECT :
							PDCM_ADMIT_DROP;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_admit);

/**
 * pdcm_listen_retire() - give back a slot taken by pdcm_listen_admit()
 * @l: the listen
 *
 * Context: Any context.
 * Return: nothing.
 */
void pdcm_listen_retire(struct pdcm_listen *l)
{
	WARN_ON_ONCE(atomic_dec_if_positive(&l->bl->pending) < 0);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_retire);

/**
 * pdcm_listen_get_stats() - read a listen's counters
 * @l: the listen
 * @stats: filled in
 *
 * Context: Any context; the caller holds a reference on @l.  The counters
 * are read one by one, not as an atomic snapshot.
 * Return: nothing.
 */
void pdcm_listen_get_stats(const struct pdcm_listen *l,
			   struct pdcm_listen_stats *stats)
{
	stats->matched = atomic64_read(&l->matched);
	stats->delivered = atomic64_read(&l->delivered);
	stats->dropped = atomic64_read(&l->dropped);
	stats->pending = atomic_read(&l->bl->pending);
	stats->limit = l->bl->limit;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_get_stats);

/**
 * pdcm_listen_pressed() - whether a listen's backlog is three quarters full
 * @l: the listen
 *
 * Context: Any context.
 * Return: true when at least 3/4 of the backlog's slots are taken.
 */
bool pdcm_listen_pressed(const struct pdcm_listen *l)
{
	const struct pdcm_backlog *bl = l->bl;

	return (s64)atomic_read(&bl->pending) * 4 >= (s64)bl->limit * 3;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_listen_pressed);

/**
 * pdcm_halfopen_add() - a connection holding a slot of @l sent its REP
 * @l: the listen whose slot it holds
 * @h: its entry, not on any list
 *
 * Context: Any context; nests inside the connection's lock.
 * Return: nothing.
 */
void pdcm_halfopen_add(struct pdcm_listen *l, struct pdcm_halfopen *h)
{
	struct pdcm_backlog *bl = l->bl;
	unsigned long flags;

	spin_lock_irqsave(&bl->lock, flags);
	h->since = jiffies;
	list_add_tail(&h->node, &bl->halfopen);
	spin_unlock_irqrestore(&bl->lock, flags);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_halfopen_add);

/**
 * pdcm_halfopen_del() - take a connection off its backlog's half-open list
 * @l: the listen whose slot it holds
 * @h: its entry, on the list or not (taken by pdcm_halfopen_oldest())
 *
 * Context: Any context; nests inside the connection's lock.
 * Return: nothing.
 */
void pdcm_halfopen_del(struct pdcm_listen *l, struct pdcm_halfopen *h)
{
	struct pdcm_backlog *bl = l->bl;
	unsigned long flags;

	spin_lock_irqsave(&bl->lock, flags);
	list_del_init(&h->node);
	spin_unlock_irqrestore(&bl->lock, flags);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_halfopen_del);

/**
 * pdcm_halfopen_oldest() - take the oldest half-open entry of @l's backlog
 * @l: the listen a request matched
 * @min_age: only an entry at least this old (jiffies)
 * @get: called on the entry under the backlog's lock, where its owner
 *	cannot yet be gone (it leaves the list before it ends): take a
 *	reference on it there
 *
 * Context: Any context.
 * Return: the entry, off the list, or NULL when the oldest is younger
 * than @min_age or there is none.
 */
struct pdcm_halfopen *pdcm_halfopen_oldest(struct pdcm_listen *l,
					   unsigned long min_age,
					   void (*get)(struct pdcm_halfopen *h))
{
	struct pdcm_backlog *bl = l->bl;
	struct pdcm_halfopen *h;
	unsigned long flags;

	spin_lock_irqsave(&bl->lock, flags);
	h = list_first_entry_or_null(&bl->halfopen, struct pdcm_halfopen,
				     node);
	if (h && time_before(jiffies, h->since + min_age))
		h = NULL;
	if (h) {
		list_del_init(&h->node);
		get(h);
	}
	spin_unlock_irqrestore(&bl->lock, flags);
	return h;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_halfopen_oldest);

/* ---- subtables ------------------------------------------------------- */

/*
 * Destroy unlinked subtables whose grace period is over, keeping a few for
 * reuse; with @all, wait for the grace periods and destroy every one.
 * More than PDCM_DEAD_MAX waiting (a writer storm faster than RCU) also
 * waits, which bounds the memory they hold.  The list is in unlink order,
 * so once the newest entry's grace period is over, every entry's is.
 */
static void pdcm_ltab_reap(struct pdcm_ltab *t, bool all)
{
	unsigned int keep = all ? 0 : PDCM_DEAD_KEEP;
	struct pdcm_mtab *mt, *tmp;

	lockdep_assert_held(&t->lock);
	if (t->nr_dead > (all ? 0 : PDCM_DEAD_MAX)) {
		mt = list_last_entry(&t->dead, struct pdcm_mtab, dead_node);
		cond_synchronize_rcu(mt->gp);
	}
	list_for_each_entry_safe(mt, tmp, &t->dead, dead_node) {
		if (t->nr_dead <= keep || !poll_state_synchronize_rcu(mt->gp))
			break;
		list_del(&mt->dead_node);
		t->nr_dead--;
		rhashtable_destroy(&mt->ht);
		kfree(mt);
	}
}

/* A subtable no reader can reach any more: keep it until readers leave. */
static void pdcm_mtab_park(struct pdcm_ltab *t, struct pdcm_mtab *mt)
{
	lockdep_assert_held(&t->lock);
	mt->gp = get_state_synchronize_rcu();
	list_add_tail(&mt->dead_node, &t->dead);
	t->nr_dead++;
	pdcm_ltab_reap(t, false);
}

/* A new, unpublished, empty subtable for @mask; reuses a parked one. */
static struct pdcm_mtab *pdcm_mtab_get(struct pdcm_ltab *t,
				       const struct pdcm_key *mask)
{
	struct pdcm_mtab *mt;
	unsigned int i;

	lockdep_assert_held(&t->lock);
	mt = list_first_entry_or_null(&t->dead, struct pdcm_mtab, dead_node);
	if (mt && poll_state_synchronize_rcu(mt->gp)) {
		list_del(&mt->dead_node);
		t->nr_dead--;
	} else {
		mt = pdcm_fail() ? NULL : kzalloc(sizeof(*mt), GFP_KERNEL);
		if (!mt)
			return NULL;
		if (rhashtable_init(&mt->ht, &pdcm_mtab_params)) {
			kfree(mt);
			return NULL;
		}
	}

	INIT_LIST_HEAD(&mt->listens);
	mt->mask = *mask;
	mt->weight = pdcm_mask_weight(mask);
	mt->bits = 0;
	mt->nwords = 0;
	for (i = 0; i < PDCM_KEY_WORDS; i++) {
		if (!mask->w[i])
			continue;
		mt->bits += hweight64(mask->w[i]);
		mt->cmask[mt->nwords] = mask->w[i];
		mt->idx[mt->nwords++] = i;
	}
	return mt;
}

/* Put a subtable on the probe list, after all heavier masks. */
static void pdcm_mtab_publish(struct pdcm_ltab *t, struct pdcm_mtab *mt)
{
	struct pdcm_mtab *pos;

	lockdep_assert_held(&t->lock);
	list_for_each_entry(pos, &t->masks, node)
		if (pos->weight < mt->weight)
			break;
	list_add_tail_rcu(&mt->node, &pos->node);
	t->nr_masks++;
}

static struct pdcm_listen *pdcm_mtab_find(struct pdcm_mtab *mt,
					  const struct pdcm_key *k)
{
	struct pdcm_probe p;

	pdcm_probe_init(&p, mt, k);
	return rhashtable_lookup_fast(&mt->ht, &p, pdcm_mtab_params);
}

/*
 * Would (mask, val) make dispatch ambiguous?  Sets *same to the subtable
 * with this exact mask, if there is one.  Ranked masks (pdcm_mask_above())
 * cannot conflict; an equal mask is one probe; an incomparable one is a scan.
 */
static int pdcm_ltab_check(struct pdcm_ltab *t, const struct pdcm_key *mask,
			   const struct pdcm_key *val, struct pdcm_mtab **same)
{
	struct pdcm_listen *l;
	struct pdcm_mtab *mt;

	lockdep_assert_held(&t->lock);
	*same = NULL;
	list_for_each_entry(mt, &t->masks, node) {
		if (pdcm_mask_equal(&mt->mask, mask)) {
			*same = mt;
			if (pdcm_mtab_find(mt, val))
				return -EADDRINUSE;
		} else if (!pdcm_mask_above(&mt->mask, mask) &&
			   !pdcm_mask_above(mask, &mt->mask)) {
			list_for_each_entry(l, &mt->listens, entry)
				if (pdcm_listen_overlap(l, mask, val))
					return -EADDRINUSE;
		}
	}
	return 0;
}

/* Take @l off the table; the caller then drops the table's reference. */
static void pdcm_ltab_unlink(struct pdcm_ltab *t, struct pdcm_listen *l)
{
	struct pdcm_mtab *mt = l->mt;

	lockdep_assert_held(&t->lock);
	WARN_ON(rhashtable_remove_fast(&mt->ht, &l->node, pdcm_mtab_params));
	list_del(&l->entry);
	l->mt = NULL;
	if (list_empty(&mt->listens)) {
		list_del_rcu(&mt->node);
		t->nr_masks--;
		pdcm_mtab_park(t, mt);
	}
	if (l->assigned)
		xa_erase(&t->sids, l->sid_index);
	t->nr_listens--;
}

/* ---- the table ------------------------------------------------------- */

/**
 * pdcm_ltab_create() - create an empty listen table
 * @release: called with a listen's context when its last reference is
 *	dropped, or NULL
 *
 * Context: Process context; may sleep.
 * Return: the table, or NULL if out of memory.
 */
struct pdcm_ltab *pdcm_ltab_create(void (*release)(void *context))
{
	struct pdcm_ltab *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	mutex_init(&t->lock);
	INIT_LIST_HEAD(&t->masks);
	INIT_LIST_HEAD(&t->dead);
	xa_init_flags(&t->sids, XA_FLAGS_ALLOC);
	t->default_backlog = PDCM_BACKLOG_DEFAULT;
	t->release = release;
	return t;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_create);

/**
 * pdcm_ltab_set_default_backlog() - the limit of listens that ask for 0
 * @t: the table
 * @limit: the new default, at least 1; listens inserted later use it
 *
 * Context: Process context; takes and releases the table mutex.
 * Return: nothing.
 */
void pdcm_ltab_set_default_backlog(struct pdcm_ltab *t, unsigned int limit)
{
	mutex_lock(&t->lock);
	t->default_backlog = max(limit, 1U);
	mutex_unlock(&t->lock);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_set_default_backlog);

/**
 * pdcm_ltab_destroy() - remove every listen and free the table
 * @t: the table, or NULL
 *
 * Listens still in the table are removed as by pdcm_ltab_remove(); the
 * references their inserters hold stay valid until put.  No lookup or
 * other call on @t may run concurrently or follow.
 *
 * Context: Process context; sleeps for an RCU grace period.
 * Return: nothing.
 */
void pdcm_ltab_destroy(struct pdcm_ltab *t)
{
	struct pdcm_listen *l, *tmp;
	struct pdcm_mtab *mt;
	LIST_HEAD(doomed);

	if (!t)
		return;
	mutex_lock(&t->lock);
	while ((mt = list_first_entry_or_null(&t->masks, struct pdcm_mtab,
					      node))) {
		l = list_first_entry(&mt->listens, struct pdcm_listen, entry);
		pdcm_ltab_unlink(t, l);
		list_add(&l->entry, &doomed);
	}
	pdcm_ltab_reap(t, true);
	mutex_unlock(&t->lock);

	list_for_each_entry_safe(l, tmp, &doomed, entry)
		pdcm_listen_put(l);
	WARN_ON(!xa_empty(&t->sids));
	xa_destroy(&t->sids);
	mutex_destroy(&t->lock);
	kfree(t);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_destroy);

/**
 * pdcm_ltab_insert() - add a listen
 * @t: the table
 * @device: the only device the listen hears, or NULL for every device
 * @attr: service ID, masks, port, backlog and flags
 * @context: opaque pointer returned by pdcm_listen_context() and passed to
 *	the table's release callback
 *
 * Context: Process context; takes and releases the table mutex; may sleep.
 * Return: the new listen, holding a reference for the caller (drop it with
 * pdcm_listen_put() after pdcm_ltab_remove()); ERR_PTR(-EINVAL) for a bad
 * attr (see Documentation/listen-matching.rst); ERR_PTR(-EADDRINUSE) if
 * the same key is taken or the listen would overlap one that is neither
 * more nor less specific; ERR_PTR(-EBUSY) if no service ID is left to
 * assign; ERR_PTR(-ENOMEM) or another error from the hash table.
 */
struct pdcm_listen *pdcm_ltab_insert(struct pdcm_ltab *t,
				     struct ib_device *device,
				     const struct pdcm_listen_attr *attr,
				     void *context)
{
	struct pdcm_mtab *mt, *fresh = NULL;
	struct pdcm_key mask, val;
	struct pdcm_listen *l;
	unsigned int i;
	bool assign;
	int ret, lim;

	if (!attr)
		return ERR_PTR(-EINVAL);
	if (attr->backlog_group && attr->backlog)
		return ERR_PTR(-EINVAL);
	lim = pdcm_backlog_limit(attr->backlog, t->default_backlog);
	if (lim < 0)
		return ERR_PTR(lim);

	l = pdcm_fail() ? NULL : kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	ret = pdcm_listen_key(&mask, &val, device, attr, &assign);
	if (ret)
		goto free;

	/* Two references: the caller's and the table's. */
	refcount_set(&l->ref, 2);
	l->context = context;
	l->release = t->release;
	l->flags = attr->flags;
	if (attr->backlog_group) {
		refcount_inc(&attr->backlog_group->ref);
		l->bl = attr->backlog_group;
	} else {
		/*
		 * Its own backlog is allocated too, not embedded, so that a
		 * listen stays a kmalloc-256 object (below) while a backlog
		 * keeps its half-open list.
		 */
		l->bl = pdcm_backlog_alloc(lim);
		ret = -ENOMEM;
		if (!l->bl)
			goto free;
	}

	mutex_lock(&t->lock);
	if (assign) {
		ret = pdcm_fail() ? -ENOMEM :
		      xa_alloc_cyclic(&t->sids, &l->sid_index, l,
				      XA_LIMIT(1, U32_MAX), &t->next_sid,
				      GFP_KERNEL);
		if (ret < 0)
			goto unlock;
		l->assigned = true;
		val.w[PDCM_KW_SERVICE] = (__force u64)
			(PDCM_ASSIGN_SERVICE_ID | cpu_to_be64(l->sid_index));
	}
	l->service_id = (__force __be64)val.w[PDCM_KW_SERVICE];

	ret = pdcm_ltab_check(t, &mask, &val, &mt);
	if (ret)
		goto unassign;
	if (!mt) {
		fresh = pdcm_mtab_get(t, &mask);
		ret = -ENOMEM;
		if (!fresh)
			goto unassign;
		mt = fresh;
	}

	l->mt = mt;
	for (i = 0; i < mt->nwords; i++)
		l->cval[i] = val.w[mt->idx[i]];
	ret = pdcm_fail() ? -ENOMEM :
	      rhashtable_insert_fast(&mt->ht, &l->node, pdcm_mtab_params);
	if (ret)
		goto unfresh;
	list_add_tail(&l->entry, &mt->listens);
	if (fresh)
		pdcm_mtab_publish(t, fresh);
	t->nr_listens++;
	mutex_unlock(&t->lock);
	return l;

unfresh:
	if (fresh)
		pdcm_mtab_park(t, fresh);
unassign:
	if (l->assigned)
		xa_erase(&t->sids, l->sid_index);
unlock:
	mutex_unlock(&t->lock);
	pdcm_backlog_put(l->bl);
free:
	kfree(l);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_insert);

/**
 * pdcm_ltab_remove() - take a listen out of the table
 * @t: the table @l was inserted into
 * @l: the listen; the caller keeps its own reference
 *
 * After this returns no lookup that starts will find @l; one already
 * running may still return it (with a reference).  Removing twice is a
 * no-op with a warning.
 *
 * Context: Process context; takes and releases the table mutex; may sleep.
 * Return: nothing.
 */
void pdcm_ltab_remove(struct pdcm_ltab *t, struct pdcm_listen *l)
{
	mutex_lock(&t->lock);
	if (WARN_ON(!l->mt)) {
		mutex_unlock(&t->lock);
		return;
	}
	pdcm_ltab_unlink(t, l);
	mutex_unlock(&t->lock);
	pdcm_listen_put(l);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_remove);

/**
 * pdcm_ltab_lookup() - find the listen a request belongs to
 * @t: the table
 * @device: the device the request arrived on
 * @port: the port it arrived on
 * @service_id: the request's service ID
 * @pdata: the request's private data (REQ: 92 bytes; SIDR_REQ: 216, of
 *	which the first 92 count)
 * @len: bytes at @pdata; missing bytes up to 92 match as zero, as the
 *	wire pads them
 *
 * Probes one subtable per distinct mask, most specific first, and stops at
 * the first hit.  The listen's matched counter is bumped.
 *
 * Context: Any context, including softirq; takes rcu_read_lock().
 * Return: the most specific listen that matches, with a reference the
 * caller drops with pdcm_listen_put(), or NULL.
 */
struct pdcm_listen *pdcm_ltab_lookup(struct pdcm_ltab *t,
				     const struct ib_device *device, u32 port,
				     __be64 service_id, const void *pdata,
				     size_t len)
{
	u8 padded[PDCM_COMPARE_SIZE];
	struct pdcm_listen *l = NULL;
	struct pdcm_mtab *mt;
	struct pdcm_probe p;
	struct pdcm_req r = {
		.head[PDCM_KW_DEVICE] = (unsigned long)device,
		.head[PDCM_KW_PORT] = port,
		.head[PDCM_KW_SERVICE] = (__force u64)service_id,
		.pdata = pdata,
	};

	if (len < PDCM_COMPARE_SIZE) {
		memset(padded, 0, sizeof(padded));
		if (len)
			memcpy(padded, pdata, len);
		r.pdata = padded;
	}

	rcu_read_lock();
	list_for_each_entry_rcu(mt, &t->masks, node) {
		pdcm_probe_req(&p, mt, &r);
		l = rhashtable_lookup(&mt->ht, &p, pdcm_mtab_params);
		/* A zero count is a listen on its way out: try the next mask. */
		if (l && refcount_inc_not_zero(&l->ref))
			break;
		l = NULL;
	}
	rcu_read_unlock();

	if (l)
		atomic64_inc(&l->matched);
	return l;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_lookup);

/**
 * pdcm_ltab_nr_listens() - number of listens in a table
 * @t: the table
 *
 * Context: Process context; takes and releases the table mutex.
 * Return: the count.
 */
unsigned int pdcm_ltab_nr_listens(struct pdcm_ltab *t)
{
	unsigned int n;

	mutex_lock(&t->lock);
	n = t->nr_listens;
	mutex_unlock(&t->lock);
	return n;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_nr_listens);

/**
 * pdcm_ltab_nr_masks() - number of distinct masks (probes per lookup)
 * @t: the table
 *
 * Context: Process context; takes and releases the table mutex.
 * Return: the count.
 */
unsigned int pdcm_ltab_nr_masks(struct pdcm_ltab *t)
{
	unsigned int n;

	mutex_lock(&t->lock);
	n = t->nr_masks;
	mutex_unlock(&t->lock);
	return n;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_nr_masks);

/* The private-data bytes a listen compares, as runs "@off:data/mask". */
static void pdcm_show_pdata(struct seq_file *m, struct pdcm_listen *l,
			    struct pdcm_key *v)
{
	const u8 *mask = pdcm_key_pdata(&l->mt->mask);
	const u8 *val = pdcm_key_pdata(v);
	unsigned int i = 0, n;

	while (i < PDCM_COMPARE_SIZE) {
		if (!mask[i]) {
			i++;
			continue;
		}
		for (n = 1; i + n < PDCM_COMPARE_SIZE && mask[i + n]; n++)
			;
		seq_printf(m, " @%u:%*phN/%*phN", i, n, val + i, n, mask + i);
		i += n;
	}
}

/**
 * pdcm_ltab_show() - dump a table, for debugfs
 * @m: where to print
 * @t: the table
 *
 * One line per subtable, in probe order ("mask: <bits> bits in <words>
 * words, <n> listens"), then one line per listen in it: service ID and
 * mask, device (a hashed pointer, or "any"), port, the private-data bytes
 * compared, the counters and the backlog.
 *
 * Context: Process context; takes and releases the table mutex.
 * Return: nothing.
 */
void pdcm_ltab_show(struct seq_file *m, struct pdcm_ltab *t)
{
	struct pdcm_listen *l;
	struct pdcm_mtab *mt;
	struct pdcm_key v;
	unsigned int n;

	mutex_lock(&t->lock);
	seq_printf(m, "listens %u masks %u parked %u\n", t->nr_listens,
		   t->nr_masks, t->nr_dead);
	list_for_each_entry(mt, &t->masks, node) {
		n = 0;
		list_for_each_entry(l, &mt->listens, entry)
			n++;
		seq_printf(m, "mask: %u bits in %u words, %u listens\n",
			   mt->bits, mt->nwords, n);
		list_for_each_entry(l, &mt->listens, entry) {
			pdcm_listen_val(l, &v);
			seq_printf(m, "  sid %016llx/%016llx",
				   be64_to_cpu(l->service_id),
				   be64_to_cpu((__force __be64)
					       mt->mask.w[PDCM_KW_SERVICE]));
			if (mt->mask.w[PDCM_KW_DEVICE])
				seq_printf(m, " dev %p",
					   (void *)(unsigned long)
					   v.w[PDCM_KW_DEVICE]);
			else
				seq_puts(m, " dev any");
			if (mt->mask.w[PDCM_KW_PORT])
				seq_printf(m, " port %llu",
					   v.w[PDCM_KW_PORT]);
			else
				seq_puts(m, " port any");
			pdcm_show_pdata(m, l, &v);
			seq_printf(m, " matched %lld delivered %lld dropped %lld backlog %d/%d%s flags %#x\n",
				   (s64)atomic64_read(&l->matched),
				   (s64)atomic64_read(&l->delivered),
				   (s64)atomic64_read(&l->dropped),
				   atomic_read(&l->bl->pending), l->bl->limit,
				   l->bl->group ? " (group)" : "",
				   l->flags);
		}
	}
	mutex_unlock(&t->lock);
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_ltab_show);
