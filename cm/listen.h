/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm listen table: which listen does an incoming REQ belong to?
 *
 * What?
 * =====
 *
 * A listen is a key over the concatenation
 *
 *	K = (device, port, service ID, private data bytes 0..91)
 *
 * with a mask M (the bits the listen looks at) and a value V, stored
 * pre-masked (V & ~M == 0).  "Any device" and "any port" are simply
 * components the mask does not cover, like private-data bytes the compare
 * ignores.  A request with key R matches a listen when (R & M) == V.
 *
 * Two listens overlap when they agree on every bit both masks cover, that
 * is when some request could match both.  M splits into the request bits
 * (service ID, private data) and the scope bits (device, port).  A is more
 * specific than B when they overlap and A's request bits are a strict
 * superset of B's, or the request bits are equal and A's scope bits are a
 * strict superset of B's: what a request says outranks where it arrived,
 * so a per-address listen on every device beats rdma_cm's wildcard on one
 * device (through the ib_cm drop-in).  The table accepts a listen unless
 * that would make dispatch ambiguous:
 *
 *  - same M and V as an existing listen: -EADDRINUSE;
 *  - overlaps a listen and neither is more specific: -EADDRINUSE.
 *
 * With that invariant the listens matching any request form a chain under
 * that order (it is a lexicographic product of two inclusion orders), and
 * the most specific one, the top of the chain,
 * gets the request: a deterministic answer, as TCP prefers a socket bound
 * to the destination address over one bound to INADDR_ANY.  A wildcard
 * listen and any number of per-address listens share a service ID, which
 * the 2006 ib_cm compare_data could not do (a NULL compare collided with
 * everything).  Masks may be arbitrary, not just prefixes.
 *
 * Basic design: tuple-space search
 * ================================
 *
 * Listens are grouped by mask.  Each distinct mask has a subtable, a hash
 * table of the listens with that mask keyed on their value; subtables sit
 * on one list ordered by the popcount of the mask's request bits, then of
 * its scope bits, largest first.  A lookup masks the request key with each
 * subtable's mask in turn and probes; the first hit wins.  That is the
 * right answer: the matches form a chain, a more specific mask comes
 * earlier in that order, and one subtable holds at most one match
 * (two different values under one mask cannot both equal R & M).
 *
 * Cost model.  A lookup costs one hash probe per distinct mask, whatever
 * the number of listens; real tables have one to three masks (per address,
 * per address family, wildcard).  The subtable hashes and compares only
 * the 64-bit words of K its mask covers (three for an RDMA CM per-IPv4
 * listen on every device: service ID, header version word, destination
 * address), loaded straight from the private data into a small array on
 * the stack, against a compacted copy of the same words in the first
 * cache line of the listen, next to the refcount and the matched counter
 * a hit bumps.  Nothing is allocated on the lookup path.
 *
 * Inserting is the slow path and is allowed to be.  Against a subtable
 * whose mask ranks above or below the new one nothing can conflict
 * (overlap with a ranked mask is by definition "more specific"), so it
 * costs nothing.  An equal mask costs one probe for the
 * identical value.  An incomparable mask needs a scan of that subtable,
 * O(listens in it), because overlap there is agreement on the intersection
 * of two masks, which no single hash can index.  Common layouts (per IP,
 * per family, wildcard; IPv6 masks contain IPv4 ones) have only comparable
 * masks, so inserting 10,000 per-IP listens is linear overall; a table
 * with incomparable masks costs O(n) per insert, O(n^2) to build.
 *
 * Why rhashtable: it resizes in the background while RCU readers keep
 * probing, so a subtable stays O(1) from one listen to a hundred thousand
 * without a lookup ever blocking, and its per-bucket locks serialize with
 * the resize worker for us.  Its params take our own hash and compare
 * functions, which is how a subtable hashes only the words its mask
 * covers.  (A fixed-size hlist would need sizing in advance; an xarray
 * cannot index a 120-byte key.)
 *
 * Backlog
 * =======
 *
 * Each listen points at a backlog counter: its own (limit from the attr,
 * 0 = the table default) or a shared pdcm_backlog group, so one limit
 * covers a virtual host's many addresses.  The CM core asks
 * pdcm_listen_admit() before it delivers a REQ and calls
 * pdcm_listen_retire() once the REQ is answered (REP/REJ) or its id is
 * destroyed.  Over the limit the verdict is DROP (the peer's CM retries, as
 * with a dropped TCP SYN) or, with PDCM_LISTEN_REJ_ON_OVERFLOW, REJECT
 * (REJ NO_RESOURCES); the table only reports, the CM core acts.
 *
 * Thread-safety
 * =============
 *
 * Lookups run under rcu_read_lock() (taken inside pdcm_ltab_lookup()) and
 * take no lock; they may run in any context, including softirq.  Inserts
 * and removes serialize on the table mutex and may sleep.
 *
 * Lock order: pdcm_ltab.lock (mutex), then the rhashtable bucket locks and
 * the xarray lock, both taken inside the library calls.  Nothing here
 * calls out of the table with the mutex held.
 *
 * Lifetime: a listen is refcounted.  pdcm_ltab_insert() returns it with a
 * reference for the caller, and the table holds one more while it is
 * linked.  pdcm_ltab_lookup() returns a new reference or NULL.  A lookup
 * racing pdcm_ltab_remove() either returns the listen with a reference or
 * misses it and goes on to a less specific match; it never returns
 * a freed listen, because the memory is freed an RCU grace period after
 * the last reference goes (refcount_inc_not_zero() in the lookup).  A
 * subtable emptied by a removal leaves the probe list at once; its memory
 * is kept (and reused for the next new mask) until a grace period has
 * passed, so a reader still probing it sees an empty table.  The release
 * callback given at table creation runs when a listen's last reference is
 * dropped, in that caller's context; it is what lets the CM core free its
 * cm_id only after the last in-flight REQ let go of the listen.
 *
 * The device is an opaque pointer compared by value: the CM core must
 * remove a device's listens before the device goes away.
 */
#ifndef _PDCM_LISTEN_H
#define _PDCM_LISTEN_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/refcount.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <kunit/visibility.h>
#include <rdma/pdcm.h>

struct ib_device;
struct seq_file;
struct pdcm_ltab;
struct pdcm_listen;

/*
 * Table internals used only by the CM core are exported to the KUnit
 * suites and to the benchmark, which are separate modules.  Without KUnit
 * (a stock kernel running pdcm_bench.ko) the benchmark gets them in the
 * same namespace, so both import EXPORTED_FOR_KUNIT_TESTING.
 */
#if IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_PDCM_TESTS(sym)	EXPORT_SYMBOL_IF_KUNIT(sym)
#elif IS_ENABLED(CONFIG_IB_PDCM_BENCHMARK)
#define EXPORT_SYMBOL_PDCM_TESTS(sym)	\
	EXPORT_SYMBOL_NS_GPL(sym, PDCM_NS(EXPORTED_FOR_KUNIT_TESTING))
#else
#define EXPORT_SYMBOL_PDCM_TESTS(sym)
#endif

/**
 * struct pdcm_backlog - a backlog counter with its limit
 * @pending: requests delivered and not yet answered
 * @limit: most @pending allowed, 1..INT_MAX
 * @ref: references; a listen holds one on its shared group
 * @group: made by pdcm_backlog_create(), to be shared (else a listen's own)
 * @lock: protects @halfopen
 * @halfopen: the connections holding a slot whose REP is out and not yet
 *	answered, oldest first (struct pdcm_halfopen): whom a new request
 *	may evict when @pending is at @limit
 *
 * Every listen has one: either its own or a shared group.
 */
struct pdcm_backlog {
	atomic_t pending;
	int limit;
	refcount_t ref;
	bool group;
	spinlock_t lock;		/* @halfopen */
	struct list_head halfopen;
};

/**
 * struct pdcm_halfopen - a connection's place among its backlog's half-open
 * @node: entry in pdcm_backlog.halfopen; empty when not on it
 * @since: jiffies when it was added (its REP first went out)
 */
struct pdcm_halfopen {
	struct list_head node;
	unsigned long since;
};

/**
 * enum pdcm_admit - backlog verdict on a matched request
 * @PDCM_ADMIT_DELIVER: a slot was taken: deliver, then pdcm_listen_retire()
 * @PDCM_ADMIT_DROP: backlog full: drop silently, the peer retries
 * @PDCM_ADMIT_REJECT: backlog full and the listen asked for REJ
 *	NO_RESOURCES
 */
enum pdcm_admit {
	PDCM_ADMIT_DELIVER,
	PDCM_ADMIT_DROP,
	PDCM_ADMIT_REJECT,
};

/**
 * struct pdcm_listen_stats - snapshot of a listen's counters
 * @matched: lookups that returned this listen
 * @delivered: requests admitted by the backlog
 * @dropped: requests refused by the backlog (dropped or REJected)
 * @pending: current backlog use (of the group, if the listen has one)
 * @limit: backlog limit (of the group, if the listen has one)
 */
struct pdcm_listen_stats {
	u64 matched;
	u64 delivered;
	u64 dropped;
	unsigned int pending;
	unsigned int limit;
};

struct pdcm_ltab *pdcm_ltab_create(void (*release)(void *context));
void pdcm_ltab_destroy(struct pdcm_ltab *t);
void pdcm_ltab_set_default_backlog(struct pdcm_ltab *t, unsigned int limit);

struct pdcm_listen *pdcm_ltab_insert(struct pdcm_ltab *t,
				     struct ib_device *device,
				     const struct pdcm_listen_attr *attr,
				     void *context);
void pdcm_ltab_remove(struct pdcm_ltab *t, struct pdcm_listen *l);
struct pdcm_listen *pdcm_ltab_lookup(struct pdcm_ltab *t,
				     const struct ib_device *device, u32 port,
				     __be64 service_id, const void *pdata,
				     size_t len);

unsigned int pdcm_ltab_nr_listens(struct pdcm_ltab *t);
unsigned int pdcm_ltab_nr_masks(struct pdcm_ltab *t);
void pdcm_ltab_show(struct seq_file *m, struct pdcm_ltab *t);

void pdcm_listen_get(struct pdcm_listen *l);
void pdcm_listen_put(struct pdcm_listen *l);
void *pdcm_listen_context(const struct pdcm_listen *l);
__be64 pdcm_listen_service_id(const struct pdcm_listen *l);
u32 pdcm_listen_flags(const struct pdcm_listen *l);

enum pdcm_admit pdcm_listen_admit(struct pdcm_listen *l);
void pdcm_listen_retire(struct pdcm_listen *l);
void pdcm_listen_get_stats(const struct pdcm_listen *l,
			   struct pdcm_listen_stats *stats);
bool pdcm_listen_pressed(const struct pdcm_listen *l);
void pdcm_halfopen_add(struct pdcm_listen *l, struct pdcm_halfopen *h);
void pdcm_halfopen_del(struct pdcm_listen *l, struct pdcm_halfopen *h);
struct pdcm_halfopen *pdcm_halfopen_oldest(struct pdcm_listen *l,
					   unsigned long min_age,
					   void (*get)(struct pdcm_halfopen *h));

#endif /* _PDCM_LISTEN_H */
