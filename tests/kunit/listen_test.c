// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "pdcm_listen": the listen table (cm/listen.c).
 *
 * One case per matching rule, then a randomized differential test against
 * a deliberately naive oracle (a plain array, pairwise overlap checks,
 * lookup by scanning every listen), then readers on kthreads racing
 * inserts and removes.  Devices are fake pointers: the table never
 * dereferences them.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "../../cm/listen.h"

static int lt_fake_dev[2];
#define DEV_A	((struct ib_device *)&lt_fake_dev[0])
#define DEV_B	((struct ib_device *)&lt_fake_dev[1])

#define TAG(n)	((void *)(unsigned long)(n))
#define UNTAG(p)	((unsigned long)(p))

/* RDMA_PS_TCP service IDs, (0x0106 << 16) | port. */
#define SID_TCP(port)	cpu_to_be64(0x0000000001060000ULL | (port))
#define SID		SID_TCP(7174)
#define SID2		SID_TCP(7175)
#define SID_SDP(port)	cpu_to_be64(0x0000000000010000ULL | (port))

#define IP4(a, b, c, d)	((a) << 24 | (b) << 16 | (c) << 8 | (d))

#define LT_MAX_HELD	2048

struct lt_fix {
	struct pdcm_ltab *t;
	struct pdcm_listen **held;	/* caller references, put at exit */
	unsigned int nheld;
};

static atomic_t lt_released;

static void lt_release(void *context)
{
	atomic_inc(&lt_released);
}

static int lt_init(struct kunit *test)
{
	struct lt_fix *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	f->held = kunit_kcalloc(test, LT_MAX_HELD, sizeof(*f->held),
				GFP_KERNEL);
	f->t = pdcm_ltab_create(lt_release);
	if (!f->held || !f->t)
		return -ENOMEM;
	atomic_set(&lt_released, 0);
	test->priv = f;
	return 0;
}

static void lt_exit(struct kunit *test)
{
	struct lt_fix *f = test->priv;

	pdcm_ltab_destroy(f->t);
	while (f->nheld)
		pdcm_listen_put(f->held[--f->nheld]);
}

static struct pdcm_ltab *lt_tab(struct kunit *test)
{
	return ((struct lt_fix *)test->priv)->t;
}

/* Insert; a success is remembered so the fixture drops our reference. */
static struct pdcm_listen *lt_add(struct kunit *test, struct ib_device *dev,
				  const struct pdcm_listen_attr *attr,
				  void *ctx)
{
	struct lt_fix *f = test->priv;
	struct pdcm_listen *l = pdcm_ltab_insert(f->t, dev, attr, ctx);

	if (!IS_ERR(l)) {
		KUNIT_ASSERT_LT(test, f->nheld, LT_MAX_HELD);
		f->held[f->nheld++] = l;
	}
	return l;
}

static int lt_add_err(struct kunit *test, struct ib_device *dev,
		      const struct pdcm_listen_attr *attr, void *ctx)
{
	return PTR_ERR_OR_ZERO(lt_add(test, dev, attr, ctx));
}

/* Drop our reference early (the fixture forgets it). */
static void lt_put(struct kunit *test, struct pdcm_listen *l)
{
	struct lt_fix *f = test->priv;
	unsigned int i;

	for (i = 0; i < f->nheld; i++) {
		if (f->held[i] == l) {
			f->held[i] = f->held[--f->nheld];
			pdcm_listen_put(l);
			return;
		}
	}
	KUNIT_FAIL(test, "listen %p not held", l);
}

static struct pdcm_listen_attr lt_attr(__be64 sid,
				       const struct pdcm_compare *cmp)
{
	return (struct pdcm_listen_attr){ .service_id = sid, .compare = cmp };
}

static struct pdcm_compare *lt_cmp_v4(struct kunit *test, u32 ip)
{
	struct pdcm_compare *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(ip),
	};

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, 0,
			pdcm_compare_cma_addr(c, (struct sockaddr *)&sin));
	return c;
}

static struct pdcm_compare *lt_cmp_v6(struct kunit *test, u32 low)
{
	struct pdcm_compare *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

	KUNIT_ASSERT_NOT_NULL(test, c);
	sin6.sin6_addr.s6_addr32[0] = htonl(0xfd000000);
	sin6.sin6_addr.s6_addr32[3] = htonl(low);
	KUNIT_ASSERT_EQ(test, 0,
			pdcm_compare_cma_addr(c, (struct sockaddr *)&sin6));
	return c;
}

static struct pdcm_compare *lt_cmp_family(struct kunit *test,
					  sa_family_t family)
{
	struct pdcm_compare *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_EQ(test, 0, pdcm_compare_cma_family(c, family));
	return c;
}

/* An RDMA CM REQ private data image from 10.9.9.9:50000 to @dst. */
static void lt_req_v4(u8 *pd, u32 dst)
{
	struct sockaddr_in s = {
		.sin_family = AF_INET,
		.sin_port = htons(50000),
		.sin_addr.s_addr = htonl(IP4(10, 9, 9, 9)),
	};
	struct sockaddr_in d = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(dst),
	};

	memset(pd, 0, PDCM_COMPARE_SIZE);
	pdcm_cma_hdr_build(pd, PDCM_COMPARE_SIZE, (struct sockaddr *)&s,
			   (struct sockaddr *)&d);
}

static void lt_req_v6(u8 *pd, u32 low)
{
	struct sockaddr_in6 s = { .sin6_family = AF_INET6 };
	struct sockaddr_in6 d = { .sin6_family = AF_INET6 };

	s.sin6_addr.s6_addr32[0] = htonl(0xfd000000);
	s.sin6_addr.s6_addr32[3] = htonl(0x99);
	d.sin6_addr.s6_addr32[0] = htonl(0xfd000000);
	d.sin6_addr.s6_addr32[3] = htonl(low);
	memset(pd, 0, PDCM_COMPARE_SIZE);
	pdcm_cma_hdr_build(pd, PDCM_COMPARE_SIZE, (struct sockaddr *)&s,
			   (struct sockaddr *)&d);
}

/* The context of the listen a request reaches, or NULL. */
static void *lt_find_len(struct pdcm_ltab *t, struct ib_device *dev, u32 port,
			 __be64 sid, const void *pd, size_t len)
{
	struct pdcm_listen *l = pdcm_ltab_lookup(t, dev, port, sid, pd, len);
	void *ctx = l ? pdcm_listen_context(l) : NULL;

	pdcm_listen_put(l);
	return ctx;
}

static void *lt_find(struct pdcm_ltab *t, struct ib_device *dev, u32 port,
		     __be64 sid, const void *pd)
{
	return lt_find_len(t, dev, port, sid, pd, PDCM_COMPARE_SIZE);
}

static void *lt_find_v4(struct pdcm_ltab *t, struct ib_device *dev, u32 port,
			__be64 sid, u32 ip)
{
	u8 pd[PDCM_COMPARE_SIZE];

	lt_req_v4(pd, ip);
	return lt_find(t, dev, port, sid, pd);
}

/* ---- one case per rule ----------------------------------------------- */

static void pdcm_listen_test_exact_service(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr a = lt_attr(SID, NULL);
	u8 pd[PDCM_COMPARE_SIZE] = {};
	struct pdcm_listen_stats st;
	struct pdcm_listen *l, *hit;

	l = lt_add(test, NULL, &a, TAG(1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	KUNIT_EXPECT_TRUE(test, pdcm_listen_service_id(l) == SID);

	hit = pdcm_ltab_lookup(t, DEV_A, 1, SID, pd, sizeof(pd));
	KUNIT_EXPECT_PTR_EQ(test, hit, l);
	pdcm_listen_put(hit);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_B, 2, SID, pd), TAG(1));
	KUNIT_EXPECT_NULL(test, lt_find(t, DEV_A, 1, SID2, pd));
	/* Private data is ignored by a listen without a compare. */
	memset(pd, 0xa5, sizeof(pd));
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(1));

	pdcm_listen_get_stats(l, &st);
	KUNIT_EXPECT_EQ(test, st.matched, 3ULL);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_listens(t), 1U);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 1U);
}

static void pdcm_listen_test_identical_key(struct kunit *test)
{
	struct pdcm_compare *c = lt_cmp_v4(test, IP4(10, 0, 0, 1));
	struct pdcm_compare *empty = kunit_kzalloc(test, sizeof(*empty),
						   GFP_KERNEL);
	struct pdcm_listen_attr a = lt_attr(SID, c);
	struct pdcm_listen_attr w = lt_attr(SID, NULL);
	struct pdcm_listen_attr we = lt_attr(SID, empty);

	KUNIT_ASSERT_NOT_NULL(test, empty);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, TAG(1)), 0);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, TAG(2)), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &w, TAG(3)), 0);
	/* An all-zero compare mask is the same key as no compare. */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &we, TAG(4)), -EADDRINUSE);
	/* The same key on one device is a different, more specific key. */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, DEV_A, &a, TAG(5)), 0);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, DEV_A, &a, TAG(6)), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_listens(lt_tab(test)), 3U);
}

static void pdcm_listen_test_ambiguous_overlap(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_compare *ip = lt_cmp_v4(test, IP4(10, 0, 0, 1));
	struct pdcm_compare *b40 = lt_cmp_family(test, AF_INET);
	struct pdcm_compare *b40v6 = lt_cmp_family(test, AF_INET6);
	struct pdcm_listen_attr a = lt_attr(SID, ip);
	struct pdcm_listen_attr b = lt_attr(SID, b40);
	struct pdcm_listen_attr c = lt_attr(SID, b40v6);
	u8 v = 7, m = 0xff;
	u8 pd[PDCM_COMPARE_SIZE];

	/* "IPv4 with consumer byte 40 == 7" vs "IPv4 to 10.0.0.1". */
	pdcm_compare_add(b40, 40, &v, &m, 1);
	pdcm_compare_add(b40v6, 40, &v, &m, 1);

	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, TAG(1)), 0);
	/* Incomparable masks that overlap: a REQ to 10.0.0.1 with byte 40
	 * == 7 would match both, neither more specific.
	 */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &b, TAG(2)), -EADDRINUSE);
	/* Incomparable but disjoint (IPv6 never matches an IPv4 listen). */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &c, TAG(3)), 0);

	lt_req_v4(pd, IP4(10, 0, 0, 1));
	pd[40] = 7;
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(1));
	lt_req_v6(pd, 5);
	pd[40] = 7;
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(3));
	pd[40] = 8;
	KUNIT_EXPECT_NULL(test, lt_find(t, DEV_A, 1, SID, pd));
}

static void pdcm_listen_test_wildcard_and_specific(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr w = lt_attr(SID, NULL);
	struct pdcm_listen_attr a;
	unsigned int i;

	/* Half the specific listens before the wildcard, half after. */
	for (i = 1; i <= 100; i++) {
		if (i == 51)
			KUNIT_ASSERT_EQ(test,
					lt_add_err(test, NULL, &w, TAG(1000)),
					0);
		a = lt_attr(SID, lt_cmp_v4(test, IP4(10, 0, 0, i)));
		KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, TAG(i)), 0);
	}
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 2U);
	for (i = 1; i <= 100; i++)
		KUNIT_EXPECT_PTR_EQ(test,
				    lt_find_v4(t, DEV_A, 1, SID,
					       IP4(10, 0, 0, i)), TAG(i));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 101)), TAG(1000));
	KUNIT_EXPECT_NULL(test, lt_find_v4(t, DEV_A, 1, SID2,
					   IP4(10, 0, 0, 1)));
}

static void pdcm_listen_test_chain(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr w = lt_attr(SID, NULL);
	struct pdcm_listen_attr f = lt_attr(SID, lt_cmp_family(test, AF_INET));
	struct pdcm_listen_attr s = lt_attr(SID, lt_cmp_v4(test,
							   IP4(10, 0, 0, 1)));
	struct pdcm_listen *ls, *lf;
	u8 pd[PDCM_COMPARE_SIZE];

	ls = lt_add(test, NULL, &s, TAG(3));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ls));
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &w, TAG(1)), 0);
	lf = lt_add(test, NULL, &f, TAG(2));
	KUNIT_ASSERT_FALSE(test, IS_ERR(lf));

	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(3));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 2)), TAG(2));
	lt_req_v6(pd, 1);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(1));
	lt_req_v4(pd, IP4(10, 0, 0, 1));
	pd[0] = 1;	/* not an RDMA CM header */
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(1));

	pdcm_ltab_remove(t, ls);
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
	pdcm_ltab_remove(t, lf);
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(1));
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 1U);
}

static void pdcm_listen_test_device_port_scope(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_compare *c1 = lt_cmp_v4(test, IP4(10, 0, 0, 1));
	struct pdcm_compare *c2 = lt_cmp_v4(test, IP4(10, 0, 0, 2));
	struct pdcm_listen_attr any = lt_attr(SID, c1);
	struct pdcm_listen_attr p1 = lt_attr(SID, c1);
	struct pdcm_listen_attr p2 = lt_attr(SID, c1);
	struct pdcm_listen_attr p2other = lt_attr(SID, c2);

	p1.port = 1;
	p2.port = 2;
	p2other.port = 2;
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &any, TAG(1)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, DEV_A, &any, TAG(2)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, DEV_A, &p1, TAG(3)), 0);

	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(3));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 2, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_B, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(1));
	KUNIT_EXPECT_NULL(test, lt_find_v4(t, DEV_B, 1, SID,
					   IP4(10, 0, 0, 2)));

	/* Port 2 of any device vs every port of DEV_A: ambiguous for
	 * (DEV_A, port 2).
	 */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &p2, TAG(4)),
			-EADDRINUSE);
	/* Fine for another address: no request matches both. */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &p2other, TAG(5)), 0);
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_B, 2, SID,
					     IP4(10, 0, 0, 2)), TAG(5));
	/* Port 2 on DEV_B only is more specific than "any device". */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, DEV_B, &p2, TAG(6)), 0);
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_B, 2, SID,
					     IP4(10, 0, 0, 1)), TAG(6));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_B, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(1));
}

/*
 * rdma_cm through the ib_cm drop-in listens per device with no compare; a
 * native per-address listen on every device sits next to it and wins for
 * its address on every device (request bits outrank scope), in either
 * insertion order.  Request bits that are incomparable still conflict.
 */
static void pdcm_listen_test_native_next_to_rdma_cm(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_compare *c1 = lt_cmp_v4(test, IP4(10, 0, 0, 1));
	struct pdcm_compare *c40 = kunit_kzalloc(test, sizeof(*c40), GFP_KERNEL);
	struct pdcm_listen_attr wild = lt_attr(SID, NULL);
	struct pdcm_listen_attr ip1 = lt_attr(SID, c1);
	struct pdcm_listen_attr b40;
	static const u8 seven = 7, ff = 0xff;

	KUNIT_ASSERT_NOT_NULL(test, c40);
	KUNIT_ASSERT_EQ(test, pdcm_compare_add(c40, 40, &seven, &ff, 1), 0);
	b40 = lt_attr(SID, c40);
	b40.port = 1;
	KUNIT_ASSERT_EQ(test, lt_add_err(test, DEV_A, &wild, TAG(1)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &ip1, TAG(2)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, DEV_B, &wild, TAG(3)), 0);

	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_B, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 2)), TAG(1));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_B, 2, SID,
					     IP4(10, 0, 0, 2)), TAG(3));
	/* a device without rdma_cm's listen: only the native address */
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, NULL, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
	KUNIT_EXPECT_NULL(test, lt_find_v4(t, NULL, 1, SID, IP4(10, 0, 0, 2)));
	/* byte 40 on port 1 of DEV_A vs 10.0.0.1 anywhere: ambiguous */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, DEV_A, &b40, TAG(4)),
			-EADDRINUSE);
}

/* The same table built the other way round gives the same answers. */
static void pdcm_listen_test_native_first(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_compare *c1 = lt_cmp_v4(test, IP4(10, 0, 0, 1));
	struct pdcm_listen_attr wild = lt_attr(SID, NULL);
	struct pdcm_listen_attr ip1 = lt_attr(SID, c1);

	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &ip1, TAG(2)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, DEV_A, &wild, TAG(1)), 0);
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 2)), TAG(1));
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 2U);
}

static void pdcm_listen_test_service_mask(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr range = lt_attr(SID_TCP(0), NULL);
	struct pdcm_listen_attr exact = lt_attr(SID, NULL);
	struct pdcm_listen_attr exact0 = lt_attr(SID, NULL);
	struct pdcm_listen_attr cross = lt_attr(cpu_to_be64(0x1c06), NULL);
	struct pdcm_listen_attr apart = lt_attr(cpu_to_be64(0x100001c06ULL),
						NULL);
	u8 pd[PDCM_COMPARE_SIZE] = {};

	range.service_mask = cpu_to_be64(0xFFFFFFFFFFFF0000ULL);
	exact.service_mask = cpu_to_be64(~0ULL);
	cross.service_mask = cpu_to_be64(0xFFFFFFFF0000FFFFULL);
	apart.service_mask = cross.service_mask;

	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &range, TAG(1)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &exact, TAG(2)), 0);
	/* Mask 0 means exact, so this is the same key. */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &exact0, TAG(3)),
			-EADDRINUSE);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(2));
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID2, pd), TAG(1));
	KUNIT_EXPECT_NULL(test, lt_find(t, DEV_A, 1, SID_SDP(7174), pd));

	/* Neither mask contains the other and 0x0000000001061c06 matches
	 * both: ambiguous.  Moving bit 32 makes them disjoint.
	 */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &cross, TAG(4)),
			-EADDRINUSE);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &apart, TAG(5)), 0);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1,
					  cpu_to_be64(0x100ab1c06ULL), pd),
			    TAG(5));
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 3U);
}

static void pdcm_listen_test_sidr_same_table(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_compare *c = lt_cmp_v4(test, IP4(10, 0, 0, 1));
	struct pdcm_compare *z = lt_cmp_v4(test, IP4(10, 0, 0, 2));
	struct pdcm_listen_attr a = lt_attr(SID, c);
	struct pdcm_listen_attr b = lt_attr(SID, z);
	u8 zero = 0, m = 0xff;
	u8 sidr[216];
	unsigned int i;

	/* b also insists on byte 91 == 0. */
	pdcm_compare_add(z, 91, &zero, &m, 1);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, TAG(1)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &b, TAG(2)), 0);

	/* A SIDR_REQ's 216 bytes: only the first 92 count. */
	for (i = 0; i < sizeof(sidr); i++)
		sidr[i] = i * 7;
	lt_req_v4(sidr, IP4(10, 0, 0, 1));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_len(t, DEV_A, 1, SID, sidr,
					      sizeof(sidr)), TAG(1));
	lt_req_v4(sidr, IP4(10, 0, 0, 2));
	sidr[91] = 0;
	KUNIT_EXPECT_PTR_EQ(test, lt_find_len(t, DEV_A, 1, SID, sidr,
					      sizeof(sidr)), TAG(2));
	sidr[91] = 1;
	KUNIT_EXPECT_NULL(test, lt_find_len(t, DEV_A, 1, SID, sidr,
					    sizeof(sidr)));
	/* Shorter private data is padded with zeros, as on the wire. */
	KUNIT_EXPECT_PTR_EQ(test, lt_find_len(t, DEV_A, 1, SID, sidr,
					      PDCM_CMA_HDR_SIZE), TAG(2));
	KUNIT_EXPECT_NULL(test, lt_find_len(t, DEV_A, 1, SID, NULL, 0));
}

static void pdcm_listen_test_remove_readd(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr a = lt_attr(SID, lt_cmp_v4(test,
							   IP4(10, 0, 0, 1)));
	struct pdcm_listen *l;

	l = lt_add(test, NULL, &a, TAG(1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	pdcm_ltab_remove(t, l);
	KUNIT_EXPECT_NULL(test, lt_find_v4(t, DEV_A, 1, SID,
					   IP4(10, 0, 0, 1)));
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_listens(t), 0U);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 0U);

	l = lt_add(test, NULL, &a, TAG(2));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
	pdcm_ltab_remove(t, l);
	l = lt_add(test, NULL, &a, TAG(3));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(3));
}

static void pdcm_listen_test_ref_outlives_remove(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr a = lt_attr(SID, NULL);
	u8 pd[PDCM_COMPARE_SIZE] = {};
	struct pdcm_listen_stats st;
	struct pdcm_listen *l, *hit;

	l = lt_add(test, NULL, &a, TAG(7));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	hit = pdcm_ltab_lookup(t, DEV_A, 1, SID, pd, sizeof(pd));
	KUNIT_ASSERT_PTR_EQ(test, hit, l);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(hit), PDCM_ADMIT_DELIVER);

	pdcm_ltab_remove(t, l);
	lt_put(test, l);
	KUNIT_EXPECT_EQ(test, atomic_read(&lt_released), 0);
	/* The in-flight REQ still holds the listen. */
	KUNIT_EXPECT_PTR_EQ(test, pdcm_listen_context(hit), TAG(7));
	pdcm_listen_get_stats(hit, &st);
	KUNIT_EXPECT_EQ(test, st.pending, 1U);
	pdcm_listen_retire(hit);
	pdcm_listen_put(hit);
	KUNIT_EXPECT_EQ(test, atomic_read(&lt_released), 1);
	KUNIT_EXPECT_NULL(test, lt_find(t, DEV_A, 1, SID, pd));
}

static void pdcm_listen_test_bad_attrs(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_compare *c = lt_cmp_v4(test, IP4(10, 0, 0, 1));
	struct pdcm_backlog *g = pdcm_backlog_create(4);
	struct pdcm_listen_attr a;

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));

	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, NULL, NULL), -EINVAL);

	/* Value bits outside the compare mask. */
	c->data[40] = 1;
	a = lt_attr(SID, c);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);
	c->data[40] = 0;
	c->data[1] = 0x41;	/* the mask covers only the high nibble */
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);
	c->data[1] = 0x40;

	/* Service ID bits outside the service mask. */
	a = lt_attr(SID, NULL);
	a.service_mask = cpu_to_be64(0xFFFFFFFFFFFF0000ULL);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);

	/* Inside the range the CM assigns, or reaching into it. */
	a = lt_attr(cpu_to_be64(0x0200000000000001ULL), NULL);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);
	a = lt_attr(SID, NULL);
	a.service_mask = cpu_to_be64(0x00FFFFFFFFFFFFFFULL);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);
	a = lt_attr(PDCM_ASSIGN_SERVICE_ID, NULL);
	a.service_mask = PDCM_ASSIGN_SERVICE_MASK;
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);

	/* Flags. */
	a = lt_attr(SID, NULL);
	a.flags = 1U << 31;
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);
	a.flags = PDCM_LISTEN_REJ_ON_OVERFLOW << 1;
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);

	/* Backlog: a limit and a group at once; a limit above INT_MAX. */
	a = lt_attr(SID, NULL);
	a.backlog = 5;
	a.backlog_group = g;
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);
	a.backlog_group = NULL;
	a.backlog = (u32)INT_MAX + 1;
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), -EINVAL);
	KUNIT_EXPECT_TRUE(test, IS_ERR(pdcm_backlog_create((u32)INT_MAX + 1)));

	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_listens(t), 0U);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 0U);

	/* Just outside the reserved range is fine. */
	a = lt_attr(cpu_to_be64(0x0300000000000001ULL), NULL);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), 0);
	a = lt_attr(cpu_to_be64(0x01FFFFFFFFFFFFFFULL), NULL);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &a, NULL), 0);
	pdcm_backlog_put(g);
}

static void pdcm_listen_test_assign_service_id(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr a = lt_attr(PDCM_ASSIGN_SERVICE_ID, NULL);
	struct pdcm_listen_attr b = lt_attr(PDCM_ASSIGN_SERVICE_ID,
					    lt_cmp_v4(test, IP4(10, 0, 0, 1)));
	struct pdcm_listen_attr explicit;
	struct pdcm_listen *la, *lb;
	u8 pd[PDCM_COMPARE_SIZE] = {};
	__be64 sa, sb;

	b.service_mask = cpu_to_be64(~0ULL);
	la = lt_add(test, NULL, &a, TAG(1));
	lb = lt_add(test, DEV_A, &b, TAG(2));
	KUNIT_ASSERT_FALSE(test, IS_ERR(la));
	KUNIT_ASSERT_FALSE(test, IS_ERR(lb));
	sa = pdcm_listen_service_id(la);
	sb = pdcm_listen_service_id(lb);
	KUNIT_EXPECT_TRUE(test, (sa & PDCM_ASSIGN_SERVICE_MASK) ==
			  PDCM_ASSIGN_SERVICE_ID);
	KUNIT_EXPECT_TRUE(test, (sb & PDCM_ASSIGN_SERVICE_MASK) ==
			  PDCM_ASSIGN_SERVICE_ID);
	KUNIT_EXPECT_TRUE(test, sa != PDCM_ASSIGN_SERVICE_ID);
	KUNIT_EXPECT_TRUE(test, sa != sb);

	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_B, 1, sa, pd), TAG(1));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, sb,
					     IP4(10, 0, 0, 1)), TAG(2));
	KUNIT_EXPECT_NULL(test, lt_find(t, DEV_A, 1, sb, pd));
	KUNIT_EXPECT_NULL(test, lt_find(t, DEV_A, 1, PDCM_ASSIGN_SERVICE_ID,
					pd));

	/* Nobody may take an assigned ID explicitly. */
	explicit = lt_attr(sa, NULL);
	KUNIT_EXPECT_EQ(test, lt_add_err(test, NULL, &explicit, NULL),
			-EINVAL);

	/* Freed on removal; a new assignment never collides. */
	pdcm_ltab_remove(t, la);
	la = lt_add(test, NULL, &a, TAG(3));
	KUNIT_ASSERT_FALSE(test, IS_ERR(la));
	KUNIT_EXPECT_TRUE(test, pdcm_listen_service_id(la) != sb);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_B, 1,
					  pdcm_listen_service_id(la), pd),
			    TAG(3));
}

static void pdcm_listen_test_backlog_own(struct kunit *test)
{
	struct pdcm_listen_attr a = lt_attr(SID, NULL);
	struct pdcm_listen_attr d = lt_attr(SID2, NULL);
	struct pdcm_listen_stats st;
	struct pdcm_listen *l, *ld;

	a.backlog = 2;
	l = lt_add(test, NULL, &a, TAG(1));
	ld = lt_add(test, NULL, &d, TAG(2));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ld));

	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DROP);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DROP);
	pdcm_listen_get_stats(l, &st);
	KUNIT_EXPECT_EQ(test, st.delivered, 2ULL);
	KUNIT_EXPECT_EQ(test, st.dropped, 2ULL);
	KUNIT_EXPECT_EQ(test, st.pending, 2U);
	KUNIT_EXPECT_EQ(test, st.limit, 2U);

	pdcm_listen_retire(l);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DELIVER);
	pdcm_listen_retire(l);
	pdcm_listen_retire(l);
	pdcm_listen_get_stats(l, &st);
	KUNIT_EXPECT_EQ(test, st.pending, 0U);

	pdcm_listen_get_stats(ld, &st);
	KUNIT_EXPECT_EQ(test, st.limit, (unsigned int)PDCM_BACKLOG_DEFAULT);
}

/* The table's default limit (the module's default_backlog) for backlog 0. */
static void pdcm_listen_test_backlog_default(struct kunit *test)
{
	struct pdcm_listen_attr a = lt_attr(SID, NULL);
	struct pdcm_listen_stats st;
	struct pdcm_listen *l, *l1;

	pdcm_ltab_set_default_backlog(lt_tab(test), 3);
	l = lt_add(test, NULL, &a, TAG(1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	pdcm_listen_get_stats(l, &st);
	KUNIT_EXPECT_EQ(test, st.limit, 3U);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DROP);
	pdcm_listen_retire(l);
	pdcm_listen_retire(l);
	pdcm_listen_retire(l);
	/* 0 is no limit anyone can want: the table keeps at least 1 */
	pdcm_ltab_set_default_backlog(lt_tab(test), 0);
	a = lt_attr(SID2, NULL);
	l1 = lt_add(test, NULL, &a, TAG(2));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l1));
	pdcm_listen_get_stats(l1, &st);
	KUNIT_EXPECT_EQ(test, st.limit, 1U);
	/* an explicit backlog is not the default's business */
	pdcm_listen_get_stats(l, &st);
	KUNIT_EXPECT_EQ(test, st.limit, 3U);
}

static void pdcm_listen_test_backlog_rej_flag(struct kunit *test)
{
	struct pdcm_listen_attr a = lt_attr(SID, NULL);
	struct pdcm_listen_stats st;
	struct pdcm_listen *l;

	a.backlog = 1;
	a.flags = PDCM_LISTEN_REJ_ON_OVERFLOW;
	l = lt_add(test, NULL, &a, TAG(1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(l));
	KUNIT_EXPECT_EQ(test, pdcm_listen_flags(l),
			(u32)PDCM_LISTEN_REJ_ON_OVERFLOW);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l), PDCM_ADMIT_REJECT);
	pdcm_listen_get_stats(l, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 1ULL);
	pdcm_listen_retire(l);
}

static void pdcm_listen_test_backlog_group(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_backlog *g = pdcm_backlog_create(3);
	struct pdcm_listen *l[50], *solo;
	struct pdcm_listen_attr a;
	struct pdcm_listen_stats st;
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	for (i = 0; i < ARRAY_SIZE(l); i++) {
		a = lt_attr(SID, lt_cmp_v4(test, IP4(10, 1, 0, i)));
		a.backlog_group = g;
		l[i] = lt_add(test, NULL, &a, TAG(i + 1));
		KUNIT_ASSERT_FALSE(test, IS_ERR(l[i]));
	}
	a = lt_attr(SID2, NULL);
	a.backlog = 1;
	solo = lt_add(test, NULL, &a, TAG(100));
	KUNIT_ASSERT_FALSE(test, IS_ERR(solo));
	/* The listens keep the group alive. */
	pdcm_backlog_put(g);

	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l[0]), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l[10]), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l[20]), PDCM_ADMIT_DELIVER);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l[30]), PDCM_ADMIT_DROP);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l[0]), PDCM_ADMIT_DROP);
	/* Another listen's limit is its own. */
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(solo), PDCM_ADMIT_DELIVER);

	pdcm_listen_get_stats(l[49], &st);
	KUNIT_EXPECT_EQ(test, st.pending, 3U);
	KUNIT_EXPECT_EQ(test, st.limit, 3U);
	pdcm_listen_get_stats(l[30], &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 1ULL);
	KUNIT_EXPECT_EQ(test, st.delivered, 0ULL);

	pdcm_listen_retire(l[10]);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l[40]), PDCM_ADMIT_DELIVER);
	pdcm_listen_retire(l[0]);
	pdcm_listen_retire(l[20]);
	pdcm_listen_retire(l[40]);
	pdcm_listen_retire(solo);

	/* Removing most members leaves the group working for the rest. */
	for (i = 1; i < ARRAY_SIZE(l); i++)
		pdcm_ltab_remove(t, l[i]);
	KUNIT_EXPECT_EQ(test, pdcm_listen_admit(l[0]), PDCM_ADMIT_DELIVER);
	pdcm_listen_retire(l[0]);

	g = pdcm_backlog_create(0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	KUNIT_EXPECT_EQ(test, g->limit, PDCM_BACKLOG_DEFAULT);
	pdcm_backlog_put(g);
}

static void pdcm_listen_test_tuple_space(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr a;
	u8 pd[PDCM_COMPARE_SIZE];
	unsigned int i;

	for (i = 0; i < 1000; i++) {
		a = lt_attr(SID, lt_cmp_v4(test, IP4(10, 2, 0, 0) + i));
		KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, TAG(i + 1)),
				0);
	}
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 1U);
	a = lt_attr(SID, NULL);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, TAG(5000)), 0);
	for (i = 0; i < 10; i++) {
		a = lt_attr(SID, lt_cmp_v6(test, i));
		KUNIT_ASSERT_EQ(test,
				lt_add_err(test, NULL, &a, TAG(6000 + i)), 0);
	}
	/* 1,011 listens, 3 probes at most. */
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 3U);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_listens(t), 1011U);
	for (i = 0; i < 1000; i += 37)
		KUNIT_EXPECT_PTR_EQ(test,
				    lt_find_v4(t, DEV_A, 1, SID,
					       IP4(10, 2, 0, 0) + i),
				    TAG(i + 1));
	lt_req_v6(pd, 9);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(6009));
	lt_req_v6(pd, 10);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(5000));
}

/* CMA and SDP discriminators in one table, built by the helpers. */
static void pdcm_listen_test_helpers_in_table(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_compare *sdp = kunit_kzalloc(test, sizeof(*sdp),
						 GFP_KERNEL);
	struct sockaddr_in s = { .sin_family = AF_INET };
	struct sockaddr_in d = { .sin_family = AF_INET };
	struct pdcm_listen_attr a;
	u8 pd[PDCM_COMPARE_SIZE] = {};

	KUNIT_ASSERT_NOT_NULL(test, sdp);
	d.sin_addr.s_addr = htonl(IP4(10, 0, 0, 1));
	KUNIT_ASSERT_EQ(test, pdcm_compare_sdp_addr(sdp,
						    (struct sockaddr *)&d), 0);
	a = lt_attr(SID_SDP(7174), sdp);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, TAG(1)), 0);
	a = lt_attr(SID, lt_cmp_v4(test, IP4(10, 0, 0, 1)));
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, TAG(2)), 0);

	s.sin_addr.s_addr = htonl(IP4(10, 0, 0, 9));
	KUNIT_ASSERT_EQ(test, pdcm_sdp_hello_build(pd, sizeof(pd),
						   (struct sockaddr *)&s,
						   (struct sockaddr *)&d), 0);
	KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID_SDP(7174), pd),
			    TAG(1));
	/* The same Hello on the RDMA CM service ID is not a CMA header. */
	KUNIT_EXPECT_NULL(test, lt_find(t, DEV_A, 1, SID, pd));
	KUNIT_EXPECT_PTR_EQ(test, lt_find_v4(t, DEV_A, 1, SID,
					     IP4(10, 0, 0, 1)), TAG(2));
}

/* Masks coming and going: subtables are unlinked, parked and reused. */
static void pdcm_listen_test_mask_churn(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct pdcm_listen_attr a, w = lt_attr(SID, NULL);
	struct pdcm_compare *c;
	struct pdcm_listen *l;
	u8 pd[PDCM_COMPARE_SIZE] = {};
	unsigned int i;

	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &w, TAG(1)), 0);
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	for (i = 0; i < 300; i++) {
		memset(c, 0, sizeof(*c));
		c->mask[i % PDCM_COMPARE_SIZE] = 1 << (i % 8);
		c->data[i % PDCM_COMPARE_SIZE] = 1 << (i % 8);
		a = lt_attr(SID, c);
		l = lt_add(test, NULL, &a, TAG(2));
		KUNIT_ASSERT_FALSE(test, IS_ERR(l));
		KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 2U);
		pd[i % PDCM_COMPARE_SIZE] = 0xff;
		KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(2));
		pd[i % PDCM_COMPARE_SIZE] = 0;
		KUNIT_EXPECT_PTR_EQ(test, lt_find(t, DEV_A, 1, SID, pd), TAG(1));
		pdcm_ltab_remove(t, l);
		lt_put(test, l);
	}
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&lt_released), 300);
}

/* The debugfs dump names every subtable and listen. */
static void pdcm_listen_test_show(struct kunit *test)
{
	static const char *const want[] = {
		"listens 2 masks 2 parked 0\n",
		"sid 0000000001061c06/ffffffffffffffff dev any port any matched 0",
		"port 1 @0:0040/fff0 @32:0a000001/ffffffff matched 0",
		"backlog 0/8 (group)",
		"backlog 0/1024 flags",
	};
	struct pdcm_backlog *g = pdcm_backlog_create(8);
	struct pdcm_listen_attr a = lt_attr(SID, lt_cmp_v4(test,
							   IP4(10, 0, 0, 1)));
	struct pdcm_listen_attr w = lt_attr(SID, NULL);
	struct seq_file m = { .size = 4096 };
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	a.port = 1;
	w.backlog_group = g;
	KUNIT_ASSERT_EQ(test, lt_add_err(test, DEV_A, &a, TAG(1)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &w, TAG(2)), 0);
	pdcm_backlog_put(g);

	pdcm_ltab_show(&m, lt_tab(test));
	kunit_info(test, "%s", m.buf);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, want[i]),
					  "missing \"%s\"", want[i]);
}

/* ---- differential test against a naive oracle ------------------------ */

/*
 * The oracle keeps listens as attributes in a plain array and decides
 * everything by pairwise comparison, with none of the table's word layout
 * or hashing.  Values come from a small alphabet so that overlaps,
 * conflicts and chains actually happen.
 */
#define DIFF_SETS	10000
#define DIFF_MAX	8
#define DIFF_LOOKUPS	4

struct orl {
	bool live;
	struct ib_device *dev;
	u32 port;
	u64 sid, smask;			/* host order */
	u8 data[PDCM_COMPARE_SIZE];
	u8 mask[PDCM_COMPARE_SIZE];
	/* to replay the insert */
	struct pdcm_listen_attr attr;
	struct pdcm_compare cmp;
	struct pdcm_listen *l;
};

struct oreq {
	struct ib_device *dev;
	u32 port;
	u64 sid;
	u8 pd[PDCM_COMPARE_SIZE];
};

struct diff {
	struct kunit *test;
	struct pdcm_ltab *t;
	struct orl o[DIFF_MAX];
	u64 rng;
	unsigned int failures;
	unsigned long ok, inuse, inval, assigned, hits, misses, chains;
	unsigned long removed, readded;
};

static u64 diff_rand(struct diff *d)
{
	/* xorshift64* */
	d->rng ^= d->rng >> 12;
	d->rng ^= d->rng << 25;
	d->rng ^= d->rng >> 27;
	return d->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int diff_below(struct diff *d, unsigned int n)
{
	return (diff_rand(d) >> 32) % n;
}

static const u64 diff_sids[] = {
	0x0000000001061c06ULL, 0x0000000001061c07ULL,
	0x0000000001071c06ULL, 0x0000000000011c06ULL,
};

static const u64 diff_smasks[] = {
	0, ~0ULL, ~0ULL, 0xFFFFFFFFFFFF0000ULL, 0xFFFFFFFFFFFFFF00ULL,
	0xFFFFFFFF0000FFFFULL, 0xFFFFFFFFFF00FFFFULL,
};

/* Private-data fields a compare may cover: offset, length, bit mask. */
static const struct { u8 off, len, bits; } diff_fields[] = {
	{ 0, 1, 0xff },		/* cma_version */
	{ 1, 1, 0xf0 },		/* IP version nibble */
	{ 32, 4, 0xff },	/* IPv4 destination */
	{ 20, 12, 0xff },	/* rest of the IPv6 destination */
	{ 40, 1, 0x0f },	/* a consumer byte, low nibble */
	{ 40, 1, 0xf0 },	/* the same byte, high nibble */
	{ 91, 1, 0x81 },	/* the last byte, two bits */
};

static u8 diff_alpha(unsigned int v, unsigned int i)
{
	return v == 0 ? 0x00 : v == 1 ? 0xff : 0xa5 ^ i;
}

static struct ib_device *diff_dev(struct diff *d, bool any_ok)
{
	unsigned int r = diff_below(d, 4);

	if (any_ok && r < 2)
		return NULL;
	return r & 1 ? DEV_B : DEV_A;
}

static void diff_set_field(struct orl *o, unsigned int f, unsigned int v,
			   bool on)
{
	unsigned int i, b;
	u8 m = diff_fields[f].bits;

	for (i = 0; i < diff_fields[f].len; i++) {
		b = diff_fields[f].off + i;
		o->cmp.mask[b] = on ? o->cmp.mask[b] | m : o->cmp.mask[b] & ~m;
		o->cmp.data[b] = (o->cmp.data[b] & ~m) |
				 (on ? diff_alpha(v, b) & m : 0);
	}
}

/*
 * A variation of an earlier listen of the set: one component more or less
 * specific.  This is what builds chains (and near-misses of chains).
 */
static void diff_vary_attr(struct diff *d, struct orl *o,
			   const struct orl *from)
{
	u64 smask;

	*o = *from;
	o->live = false;
	o->l = NULL;
	o->attr.compare = &o->cmp;
	switch (diff_below(d, 6)) {
	case 0:
	case 1:
		diff_set_field(o, diff_below(d, ARRAY_SIZE(diff_fields)),
			       diff_below(d, 3), true);
		break;
	case 2:
		diff_set_field(o, diff_below(d, ARRAY_SIZE(diff_fields)), 0,
			       false);
		break;
	case 3:
		o->dev = o->dev ? NULL : diff_dev(d, false);
		break;
	case 4:
		o->attr.port = o->attr.port ? 0 : 1 + diff_below(d, 2);
		break;
	default:
		if (o->attr.service_id == PDCM_ASSIGN_SERVICE_ID)
			break;
		smask = be64_to_cpu(o->attr.service_mask);
		if (smask && smask != ~0ULL) {
			o->attr.service_mask = 0;
		} else {
			smask = 0xFFFFFFFFFFFF0000ULL;
			o->attr.service_mask = cpu_to_be64(smask);
			o->attr.service_id &= cpu_to_be64(smask);
		}
		break;
	}
}

static void diff_gen_attr(struct diff *d, struct orl *o, unsigned int nprev)
{
	unsigned int f, i, r;
	u64 base, smask;

	if (nprev && diff_below(d, 100) < 40) {
		diff_vary_attr(d, o, &d->o[diff_below(d, nprev)]);
		return;
	}
	memset(o, 0, sizeof(*o));
	o->dev = diff_dev(d, true);
	r = diff_below(d, 5);
	o->attr.port = r < 3 ? 0 : r - 2;

	r = diff_below(d, 100);
	if (r < 2) {
		o->attr.service_id = PDCM_ASSIGN_SERVICE_ID;
	} else {
		base = diff_sids[diff_below(d, ARRAY_SIZE(diff_sids))];
		smask = diff_smasks[diff_below(d, ARRAY_SIZE(diff_smasks))];
		if (r < 4)
			smask = 0x00FFFFFFFFFFFFFFULL;	/* into reserved */
		else if (r < 5)
			base = 0x0200000000000005ULL;	/* reserved */
		if (r < 97)
			base &= smask ?: ~0ULL;		/* else maybe dirty */
		o->attr.service_id = cpu_to_be64(base);
		o->attr.service_mask = cpu_to_be64(smask);
	}

	for (f = 0; f < ARRAY_SIZE(diff_fields); f++)
		if (diff_below(d, 100) < 35)
			diff_set_field(o, f, diff_below(d, 3), true);
	/* Now and then a value bit outside the mask. */
	if (diff_below(d, 50) == 0) {
		u8 unmasked;

		i = diff_below(d, PDCM_COMPARE_SIZE);
		unmasked = ~o->cmp.mask[i];
		o->cmp.data[i] |= unmasked & -unmasked;	/* lowest such bit */
	}
	o->attr.compare = diff_below(d, 4) || memchr_inv(&o->cmp, 0,
							 sizeof(o->cmp)) ?
			  &o->cmp : NULL;
}

/* The oracle's reading of an attr; false if it must be -EINVAL. */
static bool diff_oracle_key(struct orl *o)
{
	const u64 rsv = 0x0200000000000000ULL, rsv_mask = 0xFF00000000000000ULL;
	u64 sid = be64_to_cpu(o->attr.service_id);
	u64 smask = be64_to_cpu(o->attr.service_mask);
	unsigned int i;

	o->port = o->attr.port;
	o->smask = smask ? smask : ~0ULL;
	o->sid = sid;
	if (o->attr.service_id == PDCM_ASSIGN_SERVICE_ID) {
		if (o->smask != ~0ULL)
			return false;
	} else {
		if (sid & ~o->smask)
			return false;
		/* any service ID both could match lies in the range? */
		if (((sid ^ rsv) & o->smask & rsv_mask) == 0)
			return false;
	}
	memset(o->data, 0, sizeof(o->data));
	memset(o->mask, 0, sizeof(o->mask));
	if (o->attr.compare) {
		for (i = 0; i < PDCM_COMPARE_SIZE; i++) {
			if (o->cmp.data[i] & ~o->cmp.mask[i])
				return false;
			o->data[i] = o->cmp.data[i];
			o->mask[i] = o->cmp.mask[i];
		}
	}
	return true;
}

static bool diff_overlap(const struct orl *a, const struct orl *b)
{
	unsigned int i;

	if (a->dev && b->dev && a->dev != b->dev)
		return false;
	if (a->port && b->port && a->port != b->port)
		return false;
	if ((a->sid ^ b->sid) & a->smask & b->smask)
		return false;
	for (i = 0; i < PDCM_COMPARE_SIZE; i++)
		if ((a->data[i] ^ b->data[i]) & a->mask[i] & b->mask[i])
			return false;
	return true;
}

/* Does a's mask cover every bit of b's? */
static bool diff_covers(const struct orl *a, const struct orl *b)
{
	unsigned int i;

	if ((b->dev && !a->dev) || (b->port && !a->port))
		return false;
	if (b->smask & ~a->smask)
		return false;
	for (i = 0; i < PDCM_COMPARE_SIZE; i++)
		if (b->mask[i] & ~a->mask[i])
			return false;
	return true;
}

/* The same for the request bits only (service ID, private data). */
static bool diff_covers_req(const struct orl *a, const struct orl *b)
{
	unsigned int i;

	if (b->smask & ~a->smask)
		return false;
	for (i = 0; i < PDCM_COMPARE_SIZE; i++)
		if (b->mask[i] & ~a->mask[i])
			return false;
	return true;
}

/* Request bits first, then scope (Documentation/listen-matching.rst). */
static bool diff_more_specific(const struct orl *a, const struct orl *b)
{
	if (diff_covers_req(a, b) && !diff_covers_req(b, a))
		return true;
	return diff_covers_req(b, a) && diff_covers_req(a, b) &&
	       diff_covers(a, b) && !diff_covers(b, a);
}

static int diff_oracle_insert(struct diff *d, struct orl *o)
{
	unsigned int j;

	if (!diff_oracle_key(o))
		return -EINVAL;
	if (o->attr.service_id == PDCM_ASSIGN_SERVICE_ID)
		return 0;	/* an unused ID overlaps nothing */
	for (j = 0; j < DIFF_MAX; j++) {
		struct orl *b = &d->o[j];

		if (b == o || !b->live || !diff_overlap(o, b))
			continue;
		if (!diff_more_specific(o, b) && !diff_more_specific(b, o))
			return -EADDRINUSE;
	}
	return 0;
}

static bool diff_matches(const struct orl *o, const struct oreq *r)
{
	unsigned int i;

	if (o->dev && o->dev != r->dev)
		return false;
	if (o->port && o->port != r->port)
		return false;
	if ((r->sid & o->smask) != o->sid)
		return false;
	for (i = 0; i < PDCM_COMPARE_SIZE; i++)
		if ((r->pd[i] & o->mask[i]) != o->data[i])
			return false;
	return true;
}

/* The match whose mask is a strict superset of every other match's. */
static struct orl *diff_oracle_lookup(struct diff *d, const struct oreq *r,
				      unsigned int *nmatch)
{
	struct orl *m[DIFF_MAX], *best = NULL;
	unsigned int n = 0, i, j;

	for (i = 0; i < DIFF_MAX; i++)
		if (d->o[i].live && diff_matches(&d->o[i], r))
			m[n++] = &d->o[i];
	for (i = 0; i < n && !best; i++) {
		for (j = 0; j < n; j++)
			if (j != i && !diff_more_specific(m[i], m[j]))
				break;
		if (j == n)
			best = m[i];
	}
	if (n && !best && d->failures++ < 5)
		KUNIT_FAIL(d->test, "oracle: %u matches but no chain", n);
	*nmatch = n;
	return best;
}

static void diff_fail(struct diff *d, const char *what, long got, long want)
{
	if (d->failures++ < 5)
		KUNIT_FAIL(d->test, "%s: table %ld, oracle %ld", what, got,
			   want);
}

static void diff_insert(struct diff *d, struct orl *o)
{
	unsigned int j;
	int want, got;

	want = diff_oracle_insert(d, o);
	o->l = pdcm_ltab_insert(d->t, o->dev, &o->attr, o);
	got = PTR_ERR_OR_ZERO(o->l);
	if (got != want) {
		diff_fail(d, "insert verdict", got, want);
		if (!got) {
			pdcm_ltab_remove(d->t, o->l);
			pdcm_listen_put(o->l);
		}
		return;
	}
	if (got == -EADDRINUSE)
		d->inuse++;
	else if (got == -EINVAL)
		d->inval++;
	if (got)
		return;
	d->ok++;
	o->live = true;
	if (o->attr.service_id == PDCM_ASSIGN_SERVICE_ID) {
		d->assigned++;
		o->sid = be64_to_cpu(pdcm_listen_service_id(o->l));
		o->smask = ~0ULL;
		if ((o->sid >> 56) != 0x02 || o->sid == 0x0200000000000000ULL)
			diff_fail(d, "assigned ID range", o->sid, 0);
		for (j = 0; j < DIFF_MAX; j++)
			if (&d->o[j] != o && d->o[j].live &&
			    d->o[j].sid == o->sid)
				diff_fail(d, "assigned ID reused", o->sid, 0);
	}
}

static void diff_remove(struct diff *d, struct orl *o)
{
	pdcm_ltab_remove(d->t, o->l);
	pdcm_listen_put(o->l);
	o->live = false;
}

static void diff_gen_req(struct diff *d, struct oreq *r)
{
	unsigned int i, f, n = 0, pick;
	struct orl *live[DIFF_MAX];

	for (i = 0; i < DIFF_MAX; i++)
		if (d->o[i].live)
			live[n++] = &d->o[i];

	for (i = 0; i < PDCM_COMPARE_SIZE; i += 8) {
		u64 x = diff_rand(d);

		memcpy(&r->pd[i], &x, min_t(unsigned int, 8,
					    PDCM_COMPARE_SIZE - i));
	}
	r->dev = diff_dev(d, false);
	r->port = 1 + diff_below(d, 2);

	if (n && diff_below(d, 2)) {
		/* Aimed at one listen: its bits, noise everywhere else. */
		struct orl *o = live[diff_below(d, n)];

		if (o->dev)
			r->dev = o->dev;
		if (o->port)
			r->port = o->port;
		r->sid = o->sid | (diff_rand(d) & ~o->smask &
				   (diff_below(d, 2) ? 0xffff : ~0ULL));
		for (i = 0; i < PDCM_COMPARE_SIZE; i++)
			r->pd[i] = (r->pd[i] & ~o->mask[i]) | o->data[i];
	} else {
		r->sid = diff_sids[diff_below(d, ARRAY_SIZE(diff_sids))];
		if (diff_below(d, 4) == 0)
			r->sid ^= diff_below(d, 0x10000);
	}
	/* Pull some fields back onto the alphabet. */
	for (f = 0; f < ARRAY_SIZE(diff_fields); f++) {
		unsigned int v = diff_below(d, 3);

		if (diff_below(d, 100) >= 30)
			continue;
		pick = diff_fields[f].off;
		for (i = 0; i < diff_fields[f].len; i++) {
			u8 m = diff_fields[f].bits;

			r->pd[pick + i] = (r->pd[pick + i] & ~m) |
					  (diff_alpha(v, pick + i) & m);
		}
	}
}

static void diff_lookup(struct diff *d)
{
	struct pdcm_listen *l;
	struct orl *want;
	struct oreq r;
	unsigned int n;
	void *got;

	diff_gen_req(d, &r);
	want = diff_oracle_lookup(d, &r, &n);
	l = pdcm_ltab_lookup(d->t, r.dev, r.port, cpu_to_be64(r.sid), r.pd,
			     sizeof(r.pd));
	got = l ? pdcm_listen_context(l) : NULL;
	pdcm_listen_put(l);
	if (got != want) {
		diff_fail(d, "lookup winner (slot)",
			  got ? (struct orl *)got - d->o : -1,
			  want ? want - d->o : -1);
		return;
	}
	if (!want) {
		d->misses++;
		return;
	}
	d->hits++;
	if (n > 1)
		d->chains++;
}

static void pdcm_listen_test_differential(struct kunit *test)
{
	struct diff *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	unsigned int set, i, n;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->test = test;
	d->t = lt_tab(test);
	d->rng = 0x9E3779B97F4A7C15ULL;

	for (set = 0; set < DIFF_SETS && d->failures < 5; set++) {
		n = 1 + diff_below(d, DIFF_MAX);
		for (i = 0; i < n; i++) {
			diff_gen_attr(d, &d->o[i], i);
			diff_insert(d, &d->o[i]);
		}
		for (i = 0; i < DIFF_LOOKUPS; i++)
			diff_lookup(d);

		/* Remove one, look again, put it back. */
		i = diff_below(d, n);
		if (d->o[i].live && diff_below(d, 2)) {
			diff_remove(d, &d->o[i]);
			d->removed++;
			diff_lookup(d);
			diff_lookup(d);
			diff_insert(d, &d->o[i]);
			if (!d->o[i].live)
				diff_fail(d, "re-add refused", 0, 1);
			else
				d->readded++;
			diff_lookup(d);
		}

		for (i = 0; i < DIFF_MAX; i++)
			if (d->o[i].live)
				diff_remove(d, &d->o[i]);
		cond_resched();
	}

	kunit_info(test,
		   "%u sets: %lu inserted (%lu assigned), %lu -EADDRINUSE, %lu -EINVAL; %lu hits (%lu with >1 match), %lu misses; %lu removed and re-added %lu\n",
		   set, d->ok, d->assigned, d->inuse, d->inval, d->hits,
		   d->chains, d->misses, d->removed, d->readded);
	KUNIT_EXPECT_EQ(test, set, DIFF_SETS);
	KUNIT_EXPECT_GT(test, d->ok, 10000UL);
	KUNIT_EXPECT_GT(test, d->inuse, 1000UL);
	KUNIT_EXPECT_GT(test, d->inval, 100UL);
	KUNIT_EXPECT_GT(test, d->assigned, 100UL);
	KUNIT_EXPECT_GT(test, d->hits, 10000UL);
	KUNIT_EXPECT_GT(test, d->chains, 1000UL);
	KUNIT_EXPECT_GT(test, d->misses, 1000UL);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_listens(d->t), 0U);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(d->t), 0U);
}

/* ---- concurrency ------------------------------------------------------ */

/*
 * Sentinel listens never change, so the answer for their requests must
 * never change either.  Churned listens come and go in the sentinels'
 * own subtable (so it resizes under the readers) and in subtables of
 * their own (so masks are published, unlinked and reused); their
 * requests must get the churned listen or the sentinel wildcard.
 */
enum {
	K_WILD = 1, K_SENT, K_DEVA, K_DEVANY, K_CHURN, K_PORT, K_BYTE,
};

#define KTAG(kind, i)	TAG((kind) << 16 | (i))
#define CONC_SENT	16
#define CONC_CHURN	64
#define CONC_READERS	3

struct conc {
	struct pdcm_ltab *t;
	struct pdcm_listen *churn[3][CONC_CHURN];
	struct pdcm_compare *cc[3][CONC_CHURN];
	atomic_t errors;
	atomic_long_t lookups;
	atomic_long_t churn_hits;
	unsigned int seed;
};

static bool conc_expect(struct conc *c, struct pdcm_listen *l,
			unsigned long want, unsigned long alt)
{
	unsigned long got = l ? UNTAG(pdcm_listen_context(l)) : 0;

	if (got == want || (alt && got == alt)) {
		if (got != alt && (want >> 16) >= K_CHURN)
			atomic_long_inc(&c->churn_hits);
		return true;
	}
	if (atomic_inc_return(&c->errors) < 5)
		pr_err("pdcm_listen: concurrent lookup got %#lx, want %#lx or %#lx\n",
		       got, want, alt);
	return false;
}

static int conc_reader(void *arg)
{
	struct conc *c = arg;
	u64 rng = 0x1234567ULL + atomic_long_inc_return(&c->lookups);
	u8 pd[PDCM_COMPARE_SIZE];
	unsigned long want, alt;
	unsigned int n = 0, x;
	struct pdcm_listen *l;
	struct ib_device *dev;
	__be64 sid;
	u32 port;

	while (!kthread_should_stop()) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		x = (rng >> 8) % CONC_CHURN;
		dev = rng & 1 ? DEV_A : DEV_B;
		port = 2;
		sid = SID;
		alt = UNTAG(KTAG(K_WILD, 0));
		switch ((rng >> 32) % 6) {
		case 0:
			x %= CONC_SENT;
			lt_req_v4(pd, IP4(10, 0, 0, x));
			want = UNTAG(KTAG(K_SENT, x));
			alt = 0;
			break;
		case 1:
			lt_req_v4(pd, IP4(10, 9, x, 9));
			want = UNTAG(KTAG(K_WILD, 0));
			break;
		case 2:
			lt_req_v4(pd, IP4(10, 0, 1, x));
			want = UNTAG(KTAG(K_CHURN, x));
			break;
		case 3:
			lt_req_v4(pd, IP4(10, 0, 2, x));
			port = 1;
			want = UNTAG(KTAG(K_PORT, x));
			break;
		case 4:
			lt_req_v4(pd, IP4(10, 0, 3, x));
			pd[50] = 0x0c;
			want = UNTAG(KTAG(K_BYTE, x));
			break;
		default:
			memset(pd, 0, sizeof(pd));
			sid = SID2;
			want = UNTAG(dev == DEV_A ? KTAG(K_DEVA, 0) :
				     KTAG(K_DEVANY, 0));
			alt = 0;
			break;
		}
		l = pdcm_ltab_lookup(c->t, dev, port, sid, pd, sizeof(pd));
		if (conc_expect(c, l, want, alt) && l) {
			if (pdcm_listen_admit(l) == PDCM_ADMIT_DELIVER) {
				/* Hold it across a reschedule sometimes:
				 * the writer may remove it meanwhile.
				 */
				if (!(n & 7))
					cond_resched();
				pdcm_listen_retire(l);
			}
		}
		pdcm_listen_put(l);
		atomic_long_inc(&c->lookups);
		if (!(++n & 31))
			cond_resched();
	}
	return 0;
}

static void pdcm_listen_test_concurrent(struct kunit *test)
{
	struct pdcm_ltab *t = lt_tab(test);
	struct task_struct *rd[CONC_READERS];
	struct pdcm_listen_attr a;
	unsigned long deadline;
	unsigned int i, k, round = 0;
	struct pdcm_listen *(*churn)[CONC_CHURN];
	struct pdcm_compare *(*cc)[CONC_CHURN];
	struct conc *c;
	u64 rng = 42;
	u8 v = 0x0c, m = 0x0f;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->t = t;
	churn = c->churn;
	cc = c->cc;

	/* Sentinels. */
	a = lt_attr(SID, NULL);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, KTAG(K_WILD, 0)), 0);
	for (i = 0; i < CONC_SENT; i++) {
		a = lt_attr(SID, lt_cmp_v4(test, IP4(10, 0, 0, i)));
		KUNIT_ASSERT_EQ(test,
				lt_add_err(test, NULL, &a, KTAG(K_SENT, i)), 0);
	}
	a = lt_attr(SID2, NULL);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, DEV_A, &a, KTAG(K_DEVA, 0)), 0);
	KUNIT_ASSERT_EQ(test, lt_add_err(test, NULL, &a, KTAG(K_DEVANY, 0)),
			0);

	for (i = 0; i < CONC_CHURN; i++) {
		cc[0][i] = lt_cmp_v4(test, IP4(10, 0, 1, i));
		cc[1][i] = lt_cmp_v4(test, IP4(10, 0, 2, i));
		cc[2][i] = lt_cmp_v4(test, IP4(10, 0, 3, i));
		pdcm_compare_add(cc[2][i], 50, &v, &m, 1);
	}

	for (i = 0; i < CONC_READERS; i++) {
		rd[i] = kthread_run(conc_reader, c, "pdcm_lt_rd%u", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(rd[i]));
	}

	deadline = jiffies + HZ;
	while (round < 10 || (time_before(jiffies, deadline) && round < 500)) {
		for (k = 0; k < 3; k++) {
			for (i = 0; i < CONC_CHURN; i++) {
				rng ^= rng << 13;
				rng ^= rng >> 7;
				rng ^= rng << 17;
				if (churn[k][i] || (rng & 3) == 0)
					continue;
				a = lt_attr(SID, cc[k][i]);
				a.port = k == 1 ? 1 : 0;
				churn[k][i] = pdcm_ltab_insert(t, NULL, &a,
							       KTAG(K_CHURN + k,
								    i));
				KUNIT_ASSERT_FALSE(test, IS_ERR(churn[k][i]));
			}
			cond_resched();
		}
		for (k = 0; k < 3; k++) {
			for (i = 0; i < CONC_CHURN; i++) {
				unsigned int j = (i * 37 + round) % CONC_CHURN;

				if (!churn[k][j])
					continue;
				pdcm_ltab_remove(t, churn[k][j]);
				pdcm_listen_put(churn[k][j]);
				churn[k][j] = NULL;
			}
			cond_resched();
		}
		round++;
	}

	for (i = 0; i < CONC_READERS; i++)
		kthread_stop(rd[i]);

	kunit_info(test, "%u writer rounds, %ld lookups (%ld churned hits), %d wrong\n",
		   round, atomic_long_read(&c->lookups),
		   atomic_long_read(&c->churn_hits), atomic_read(&c->errors));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->errors), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&c->lookups), 1000L);
	KUNIT_EXPECT_GT(test, atomic_long_read(&c->churn_hits), 0L);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_masks(t), 3U);
	KUNIT_EXPECT_EQ(test, pdcm_ltab_nr_listens(t), 3U + CONC_SENT);
}

static struct kunit_case pdcm_listen_cases[] = {
	KUNIT_CASE(pdcm_listen_test_exact_service),
	KUNIT_CASE(pdcm_listen_test_identical_key),
	KUNIT_CASE(pdcm_listen_test_ambiguous_overlap),
	KUNIT_CASE(pdcm_listen_test_wildcard_and_specific),
	KUNIT_CASE(pdcm_listen_test_chain),
	KUNIT_CASE(pdcm_listen_test_device_port_scope),
	KUNIT_CASE(pdcm_listen_test_native_next_to_rdma_cm),
	KUNIT_CASE(pdcm_listen_test_native_first),
	KUNIT_CASE(pdcm_listen_test_service_mask),
	KUNIT_CASE(pdcm_listen_test_sidr_same_table),
	KUNIT_CASE(pdcm_listen_test_remove_readd),
	KUNIT_CASE(pdcm_listen_test_ref_outlives_remove),
	KUNIT_CASE(pdcm_listen_test_bad_attrs),
	KUNIT_CASE(pdcm_listen_test_assign_service_id),
	KUNIT_CASE(pdcm_listen_test_backlog_own),
	KUNIT_CASE(pdcm_listen_test_backlog_default),
	KUNIT_CASE(pdcm_listen_test_backlog_rej_flag),
	KUNIT_CASE(pdcm_listen_test_backlog_group),
	KUNIT_CASE(pdcm_listen_test_tuple_space),
	KUNIT_CASE(pdcm_listen_test_helpers_in_table),
	KUNIT_CASE(pdcm_listen_test_mask_churn),
	KUNIT_CASE(pdcm_listen_test_show),
	KUNIT_CASE(pdcm_listen_test_differential),
	KUNIT_CASE(pdcm_listen_test_concurrent),
	{}
};

static struct kunit_suite pdcm_listen_suite = {
	.name = "pdcm_listen",
	.init = lt_init,
	.exit = lt_exit,
	.test_cases = pdcm_listen_cases,
};

kunit_test_suite(pdcm_listen_suite);
