// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_bench.ko: on load, times listen lookups and prints ns/lookup for
 * N = 1, 10, 100, 1,000, 10,000 and 100,000 listeners on one service ID, one per
 * IPv4 destination address (RDMA CM header compares), for three tables in
 * the same run: pdcm's (cm/listen.c), a linear list walk (linear.c, what
 * rdma_cm does) and the 2006 ib_cm rb-tree (rb2006.c).  Three requests:
 *
 *   hit   to one of the N addresses (chosen at random, 4,096 different
 *         requests, so the answer is not always in cache)
 *   miss  to an address nobody listens on
 *   wild  the same misses with a wildcard listen also on the service ID
 *
 * Then pdcm alone with 1,000 listeners spread over 1..8 distinct masks:
 * tuple-space search costs one probe per mask.
 *
 * Each figure is the median over batches (each about 1 ms, at least five,
 * for at least min_ms in all) of the batch time divided by its lookups;
 * every table's answers are checked first.  It prints numbers, never a
 * verdict.  Run it on a production kernel: debug options distort timings.
 */
#include <linux/in.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#include "../../cm/listen.h"
#include "bench.h"

MODULE_IMPORT_NS(PDCM_NS(PDCM));
MODULE_IMPORT_NS(PDCM_NS(EXPORTED_FOR_KUNIT_TESTING));

static unsigned int min_ms = 20;
module_param(min_ms, uint, 0444);
MODULE_PARM_DESC(min_ms, "least time spent on each measurement, in ms");

static unsigned int max_n = 100000;
module_param(max_n, uint, 0444);
MODULE_PARM_DESC(max_n, "largest number of listeners to time");

#define BENCH_SID	cpu_to_be64(0x0000000001061c06ULL)	/* TCP 7174 */
#define NREQ		4096	/* power of two */
#define NCHECK		256	/* answers checked before timing */
#define MIN_BATCHES	5
#define MAX_BATCHES	101
#define IP4(a, b, c, d)	((a) << 24 | (b) << 16 | (c) << 8 | (d))
#define LISTEN_IP(i)	(IP4(10, 1, 0, 0) + (i) + 1)
#define CTX(i)		((void *)(unsigned long)((i) + 1))
#define WILD_CTX	((void *)0x7fffffffUL)

/* Results are in tenths of a ns; these mark the cells without one. */
#define RES_NA		(-1L)
#define RES_WRONG	(-2L)
#define RES_FAILED	(-3L)

static int bench_fake_dev;
#define BENCH_DEV	((struct ib_device *)&bench_fake_dev)

struct bench_reqs {
	u8 *pd;			/* NREQ * BENCH_PD_STRIDE */
	void **want;		/* the context each must reach */
};

static u64 bench_batch_ns[MAX_BATCHES];
static unsigned long bench_sink;

/* ---- pdcm's table behind bench_ops ----------------------------------- */

static void *pdcm_create(void)
{
	return pdcm_ltab_create(NULL);
}

static void pdcm_destroy(void *tab)
{
	pdcm_ltab_destroy(tab);
}

static int pdcm_insert(void *tab, struct ib_device *dev, __be64 sid,
		       const struct pdcm_compare *cmp, void *ctx)
{
	struct pdcm_listen_attr a = { .service_id = sid, .compare = cmp };
	struct pdcm_listen *l = pdcm_ltab_insert(tab, dev, &a, ctx);

	if (IS_ERR(l))
		return PTR_ERR(l);
	pdcm_listen_put(l);	/* the table holds its own reference */
	return 0;
}

static void *pdcm_lookup(void *tab, struct ib_device *dev, u32 port,
			 __be64 sid, const u8 *pd)
{
	struct pdcm_listen *l;
	void *ctx;

	l = pdcm_ltab_lookup(tab, dev, port, sid, pd, PDCM_COMPARE_SIZE);
	if (!l)
		return NULL;
	ctx = pdcm_listen_context(l);
	pdcm_listen_put(l);
	return ctx;
}

static const struct bench_ops bench_pdcm_ops = {
	.name = "pdcm",
	.create = pdcm_create,
	.destroy = pdcm_destroy,
	.insert = pdcm_insert,
	.lookup = pdcm_lookup,
};

static const struct bench_ops *const bench_impls[] = {
	&bench_pdcm_ops, &bench_linear_ops, &bench_rb2006_ops,
};

/* SC_HOT: hits on only the first BENCH_HOT listeners (pdcm only). */
enum { SC_HIT, SC_MISS, SC_WILD, SC_HOT, NR_SC };
#define NR_COLS		SC_HOT	/* the table's columns per implementation */
#define BENCH_HOT	64

static const unsigned int bench_sizes[] = { 1, 10, 100, 1000, 10000, 100000 };

/* ---- requests and listens -------------------------------------------- */

static void bench_req(u8 *pd, u32 dst, struct rnd_state *rs)
{
	struct sockaddr_in s = {
		.sin_family = AF_INET,
		.sin_port = htons(32768 + prandom_u32_state(rs) % 28000),
		.sin_addr.s_addr = htonl(IP4(10, 9, 0, 0) +
					 prandom_u32_state(rs) % 65536),
	};
	struct sockaddr_in d = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(dst),
	};

	memset(pd, 0, BENCH_PD_STRIDE);
	pdcm_cma_hdr_build(pd, PDCM_COMPARE_SIZE, (struct sockaddr *)&s,
			   (struct sockaddr *)&d);
}

/* Hits spread uniformly over @n listeners, or misses when @n is 0. */
static void bench_fill(struct bench_reqs *r, unsigned int n, void *miss_ctx,
		       struct rnd_state *rs)
{
	unsigned int i, k;

	for (i = 0; i < NREQ; i++) {
		if (n) {
			k = prandom_u32_state(rs) % n;
			bench_req(r->pd + i * BENCH_PD_STRIDE, LISTEN_IP(k), rs);
			r->want[i] = CTX(k);
		} else {
			bench_req(r->pd + i * BENCH_PD_STRIDE,
				  IP4(10, 200, 0, 0) +
				  prandom_u32_state(rs) % 65536, rs);
			r->want[i] = miss_ctx;
		}
	}
}

/* Listener @i: IPv4 destination LISTEN_IP(i), plus byte 40 + @extra. */
static int bench_listen(const struct bench_ops *ops, void *tab,
			unsigned int i, int extra)
{
	struct sockaddr_in d = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(LISTEN_IP(i)),
	};
	struct pdcm_compare cmp = {};
	u8 zero = 0, ones = 0xff;

	pdcm_compare_cma_addr(&cmp, (struct sockaddr *)&d);
	if (extra >= 0)
		pdcm_compare_add(&cmp, 40 + extra, &zero, &ones, 1);
	return ops->insert(tab, BENCH_DEV, BENCH_SID, &cmp, CTX(i));
}

/* ---- timing ----------------------------------------------------------- */

/*
 * After a burst of inserts, let deferred work finish before timing: pdcm's
 * rhashtable grows in a worker, and a table that is still being rehashed is
 * not the table a host with that many listeners has.
 */
static void bench_settle(void)
{
	msleep(100);
}

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 bench_batch(const struct bench_ops *ops, void *tab,
		       const struct bench_reqs *r, unsigned int count,
		       unsigned int *pos)
{
	unsigned long sink = 0;
	unsigned int i, p = *pos;
	u64 t0, t1;

	t0 = ktime_get_ns();
	for (i = 0; i < count; i++, p = (p + 1) & (NREQ - 1))
		sink += (unsigned long)ops->lookup(tab, BENCH_DEV, 1,
						   BENCH_SID,
						   r->pd + p * BENCH_PD_STRIDE);
	t1 = ktime_get_ns();
	*pos = p;
	bench_sink += sink;
	return t1 - t0;
}

/* Tenths of a ns per lookup, or RES_WRONG. */
static long bench_measure(const struct bench_ops *ops, void *tab,
			  const struct bench_reqs *r)
{
	unsigned int i, n = 0, pos = 0, count;
	u64 total = 0, t;

	for (i = 0; i < NCHECK; i++)
		if (ops->lookup(tab, BENCH_DEV, 1, BENCH_SID,
				r->pd + i * BENCH_PD_STRIDE) != r->want[i])
			return RES_WRONG;

	/* Size batches to about 1 ms. */
	t = bench_batch(ops, tab, r, 16, &pos);
	count = clamp_t(u64, div64_u64(16 * NSEC_PER_MSEC, t ?: 1), 16, NREQ);

	while (n < MIN_BATCHES ||
	       (total < (u64)min_ms * NSEC_PER_MSEC && n < MAX_BATCHES)) {
		bench_batch_ns[n] = bench_batch(ops, tab, r, count, &pos);
		total += bench_batch_ns[n++];
		cond_resched();
	}
	sort(bench_batch_ns, n, sizeof(u64), bench_cmp_u64, NULL);
	return div_u64(bench_batch_ns[n / 2] * 10, count);
}

static void bench_fmt(char *buf, size_t len, long v)
{
	if (v >= 0)
		snprintf(buf, len, "%7ld.%ld", v / 10, v % 10);
	else
		snprintf(buf, len, "%9s", v == RES_NA ? "n/a" :
			 v == RES_WRONG ? "WRONG" : "failed");
}

/* Ratio a/b with two decimals, as text. */
static void bench_ratio(char *buf, size_t len, long a, long b)
{
	if (a <= 0 || b <= 0)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%ld.%02ldx", a / b, (a % b) * 100 / b);
}

/* ---- the runs --------------------------------------------------------- */

/* One table, @n listeners: hit, miss, and miss with a wildcard. */
static void bench_one(const struct bench_ops *ops, unsigned int n,
		      struct bench_reqs *req, long *res, int *wild_err)
{
	unsigned int i, sc;
	void *tab;
	int ret = 0;

	for (sc = 0; sc < NR_SC; sc++)
		res[sc] = RES_FAILED;
	res[SC_HOT] = RES_NA;
	tab = ops->create();
	if (!tab)
		return;
	for (i = 0; i < n && !ret; i++)
		ret = bench_listen(ops, tab, i, -1);
	bench_settle();
	if (!ret) {
		res[SC_HIT] = bench_measure(ops, tab, &req[SC_HIT]);
		res[SC_MISS] = bench_measure(ops, tab, &req[SC_MISS]);
		if (ops == &bench_pdcm_ops)
			res[SC_HOT] = bench_measure(ops, tab, &req[SC_HOT]);
		*wild_err = ops->insert(tab, BENCH_DEV, BENCH_SID, NULL,
					WILD_CTX);
		res[SC_WILD] = *wild_err ? RES_NA :
			       bench_measure(ops, tab, &req[SC_WILD]);
	}
	ops->destroy(tab);
}

static void bench_sizes_run(struct bench_reqs *req, struct rnd_state *rs)
{
	long res[ARRAY_SIZE(bench_sizes)][ARRAY_SIZE(bench_impls)][NR_SC];
	int wild_err[ARRAY_SIZE(bench_impls)] = {};
	char cell[ARRAY_SIZE(bench_impls) * NR_COLS][16];
	unsigned int s, m, sc, last = 0;
	char r[NR_COLS][16];

	pr_info("pdcm_bench: ns per lookup; N listeners on one service ID, one per IPv4 address\n");
	pr_info("pdcm_bench: %6s |%30s |%30s |%30s\n", "",
		"pdcm (tuple space)", "linear (rdma_cm)", "rb2006 (ib_cm 2.6.18)");
	pr_info("pdcm_bench: %6s |%10s%10s%10s |%10s%10s%10s |%10s%10s%10s\n",
		"N", "hit", "miss", "wild", "hit", "miss", "wild",
		"hit", "miss", "wild");

	for (s = 0; s < ARRAY_SIZE(bench_sizes); s++) {
		unsigned int n = bench_sizes[s];

		if (n > max_n)
			break;
		last = s;
		bench_fill(&req[SC_HIT], n, NULL, rs);
		bench_fill(&req[SC_MISS], 0, NULL, rs);
		bench_fill(&req[SC_WILD], 0, WILD_CTX, rs);
		bench_fill(&req[SC_HOT], min(n, BENCH_HOT), NULL, rs);
		for (m = 0; m < ARRAY_SIZE(bench_impls); m++)
			bench_one(bench_impls[m], n, req, res[s][m],
				  &wild_err[m]);
		for (m = 0; m < ARRAY_SIZE(bench_impls); m++)
			for (sc = 0; sc < NR_COLS; sc++)
				bench_fmt(cell[m * NR_COLS + sc],
					  sizeof(cell[0]), res[s][m][sc]);
		pr_info("pdcm_bench: %6u |%10s%10s%10s |%10s%10s%10s |%10s%10s%10s\n",
			n, cell[0], cell[1], cell[2], cell[3], cell[4], cell[5],
			cell[6], cell[7], cell[8]);
	}

	for (sc = 0; sc < NR_COLS; sc++)
		bench_ratio(r[sc], sizeof(r[sc]), res[last][0][sc],
			    res[0][0][sc]);
	pr_info("pdcm_bench: pdcm at N=%u over N=1: hit %s, miss %s, wild %s (target: at most 1.2x)\n",
		bench_sizes[last], r[0], r[1], r[2]);
	for (m = 1; m < ARRAY_SIZE(bench_impls); m++) {
		for (sc = 0; sc < NR_COLS; sc++)
			bench_ratio(r[sc], sizeof(r[sc]), res[last][m][sc],
				    res[last][0][sc]);
		pr_info("pdcm_bench: %s over pdcm at N=%u: hit %s, miss %s, wild %s%s\n",
			bench_impls[m]->name, bench_sizes[last], r[0], r[1],
			r[2], m == 1 ? " (target: at least 10x)" : "");
	}
	/*
	 * The same hits confined to BENCH_HOT listeners: what is left of the
	 * growth when the listens a host's traffic goes to stay in cache (and,
	 * under TCG, in the emulated TLB).
	 */
	for (sc = 0; sc < 2; sc++)
		bench_fmt(r[sc], sizeof(r[sc]), res[sc ? last : 0][0][SC_HOT]);
	bench_ratio(r[2], sizeof(r[2]), res[last][0][SC_HOT], res[0][0][SC_HOT]);
	pr_info("pdcm_bench: pdcm hit, requests to %u of the N listeners: N=1 %s, N=%u %s (%s)\n",
		BENCH_HOT, strim(r[0]), bench_sizes[last], strim(r[1]), r[2]);
	for (m = 0; m < ARRAY_SIZE(bench_impls); m++)
		if (wild_err[m])
			pr_info("pdcm_bench: %s refused the wildcard next to per-address listens: %d\n",
				bench_impls[m]->name, wild_err[m]);
}

/* pdcm alone: 1,000 listeners over k distinct masks. */
static void bench_masks_run(struct bench_reqs *req, struct rnd_state *rs)
{
	static const unsigned int ks[] = { 1, 2, 4, 8 };
	const unsigned int n = min(1000U, max_n);
	unsigned int k, i;
	long hit, miss;
	char h[16], m[16];
	void *tab;
	int ret;

	bench_fill(&req[SC_HIT], n, NULL, rs);
	bench_fill(&req[SC_MISS], 0, NULL, rs);
	pr_info("pdcm_bench: pdcm, %u listeners spread over k distinct masks (one probe per mask)\n",
		n);
	for (k = 0; k < ARRAY_SIZE(ks); k++) {
		hit = RES_FAILED;
		miss = RES_FAILED;
		tab = bench_pdcm_ops.create();
		if (!tab)
			break;
		for (i = 0, ret = 0; i < n && !ret; i++)
			ret = bench_listen(&bench_pdcm_ops, tab, i,
					   ks[k] > 1 ? i % ks[k] : -1);
		bench_settle();
		if (!ret) {
			hit = bench_measure(&bench_pdcm_ops, tab, &req[SC_HIT]);
			miss = bench_measure(&bench_pdcm_ops, tab,
					     &req[SC_MISS]);
		}
		bench_pdcm_ops.destroy(tab);
		bench_fmt(h, sizeof(h), hit);
		bench_fmt(m, sizeof(m), miss);
		pr_info("pdcm_bench: k=%u masks: hit %s  miss %s\n", ks[k], h,
			m);
	}
}

static int __init pdcm_bench_init(void)
{
	struct bench_reqs req[NR_SC] = {};
	struct rnd_state rs;
	unsigned int sc;
	int ret = -ENOMEM;

	for (sc = 0; sc < NR_SC; sc++) {
		req[sc].pd = vzalloc(NREQ * BENCH_PD_STRIDE);
		req[sc].want = vcalloc(NREQ, sizeof(void *));
		if (!req[sc].pd || !req[sc].want)
			goto out;
	}
	prandom_seed_state(&rs, 0x7064636d62656e63ULL);	/* "pdcmbenc" */
	bench_sizes_run(req, &rs);
	bench_masks_run(req, &rs);
	pr_info("pdcm_bench: done\n");
	ret = 0;
out:
	for (sc = 0; sc < NR_SC; sc++) {
		vfree(req[sc].pd);
		vfree(req[sc].want);
	}
	return ret;
}

static void __exit pdcm_bench_exit(void)
{
}

module_init(pdcm_bench_init);
module_exit(pdcm_bench_exit);

MODULE_DESCRIPTION("pdcm listen lookup benchmark against rdma_cm's list and the 2006 ib_cm tree");
MODULE_LICENSE("Dual BSD/GPL");
