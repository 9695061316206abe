// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "pdcm_discrim": the RDMA CM header and SDP Hello helpers
 * (cm/discrim.c).  The golden RDMA CM header is the one a Debian 6.1
 * rping sent over rxe (protocol.md section 9).  Truncated inputs live in
 * exactly-sized allocations, so KASAN catches any read past the length.
 */
#include <kunit/test.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>

#include <rdma/pdcm.h>

#define IP4(a, b, c, d)	((a) << 24 | (b) << 16 | (c) << 8 | (d))
#define RPING_SID	cpu_to_be64(0x0000000001061c06ULL)	/* TCP 7174 */

static struct sockaddr_in dt_sin(u32 ip, u16 port)
{
	return (struct sockaddr_in){
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(ip),
	};
}

static struct sockaddr_in6 dt_sin6(u32 low, u16 port)
{
	struct sockaddr_in6 s = {
		.sin6_family = AF_INET6,
		.sin6_port = htons(port),
	};

	s.sin6_addr.s6_addr32[0] = htonl(0xfd000000);
	s.sin6_addr.s6_addr32[3] = htonl(low);
	return s;
}

#define SA(x)	((struct sockaddr *)&(x))

static bool dt_in6_eq(const struct in6_addr *a, const struct in6_addr *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Bytes [from, to) of @buf are all @v. */
static bool dt_all(const u8 *buf, unsigned int from, unsigned int to, u8 v)
{
	return !memchr_inv(buf + from, v, to - from);
}

static void pdcm_discrim_test_cma_compare_v4(struct kunit *test)
{
	struct sockaddr_in d = dt_sin(IP4(10, 0, 0, 1), 7174);
	struct pdcm_compare c;
	static const u8 ip[] = { 10, 0, 0, 1 };

	memset(&c, 0, sizeof(c));
	c.mask[40] = 0xff;	/* a consumer discriminator survives */
	c.data[40] = 0x17;
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addr(&c, SA(d)), 0);
	KUNIT_EXPECT_EQ(test, c.mask[0], 0xff);
	KUNIT_EXPECT_EQ(test, c.data[0], 0x00);
	KUNIT_EXPECT_EQ(test, c.mask[1], 0xf0);
	KUNIT_EXPECT_EQ(test, c.data[1], 0x40);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 2, 32, 0));
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 32, 36, 0xff));
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[32], ip, 4), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.data, 2, 32, 0));
	KUNIT_EXPECT_EQ(test, c.mask[40], 0xff);
	KUNIT_EXPECT_EQ(test, c.data[40], 0x17);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 41, PDCM_COMPARE_SIZE, 0));
}

static void pdcm_discrim_test_cma_compare_v6(struct kunit *test)
{
	struct sockaddr_in6 d = dt_sin6(0x42, 7174);
	struct pdcm_compare c;

	memset(&c, 0xee, sizeof(c));	/* header bytes are overwritten */
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addr(&c, SA(d)), 0);
	KUNIT_EXPECT_EQ(test, c.data[1], 0x60);
	KUNIT_EXPECT_EQ(test, c.mask[1], 0xf0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 2, 20, 0));
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 20, 36, 0xff));
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[20], &d.sin6_addr, 16), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 36, PDCM_COMPARE_SIZE, 0xee));
}

static void pdcm_discrim_test_cma_compare_family(struct kunit *test)
{
	struct sockaddr_in any4 = dt_sin(0, 7174);
	struct sockaddr_in6 any6 = { .sin6_family = AF_INET6 };
	struct pdcm_compare f4, f6, a4, a6;

	memset(&f4, 0, sizeof(f4));
	memset(&f6, 0, sizeof(f6));
	memset(&a4, 0, sizeof(a4));
	memset(&a6, 0, sizeof(a6));
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_family(&f4, AF_INET), 0);
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_family(&f6, AF_INET6), 0);
	KUNIT_EXPECT_EQ(test, f4.data[1], 0x40);
	KUNIT_EXPECT_EQ(test, f6.data[1], 0x60);
	KUNIT_EXPECT_TRUE(test, dt_all(f4.mask, 2, PDCM_COMPARE_SIZE, 0));
	/* The unspecified address means "any address of the family". */
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addr(&a4, SA(any4)), 0);
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addr(&a6, SA(any6)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&a4, &f4, sizeof(f4)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&a6, &f6, sizeof(f6)), 0);
}

/* Does the RDMA CM header in @hdr match @c? */
static bool dt_matches(const struct pdcm_compare *c, const u8 *hdr)
{
	unsigned int i;

	for (i = 0; i < PDCM_CMA_HDR_SIZE; i++)
		if ((hdr[i] & c->mask[i]) != c->data[i])
			return false;
	return true;
}

static void pdcm_discrim_test_cma_compare_addrs(struct kunit *test)
{
	struct sockaddr_in s = dt_sin(IP4(10, 0, 0, 1), 40000);
	struct sockaddr_in s2 = dt_sin(IP4(10, 0, 0, 9), 40000);
	struct sockaddr_in d = dt_sin(IP4(10, 0, 0, 2), 0);
	struct sockaddr_in6 s6 = dt_sin6(0x11, 1), d6 = dt_sin6(0x22, 0);
	static const u8 sip[] = { 10, 0, 0, 1 }, dip[] = { 10, 0, 0, 2 };
	u8 hdr[PDCM_CMA_HDR_SIZE], hdr2[PDCM_CMA_HDR_SIZE];
	struct pdcm_compare c, only;

	/* both: source at 16..19, destination at 32..35 */
	memset(&c, 0xee, sizeof(c));
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addrs(&c, SA(s), SA(d)), 0);
	KUNIT_EXPECT_EQ(test, c.data[1], 0x40);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 2, 16, 0));
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 16, 20, 0xff));
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[16], sip, 4), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 20, 32, 0));
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 32, 36, 0xff));
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[32], dip, 4), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 36, PDCM_COMPARE_SIZE, 0xee));
	/* it matches what an active side from s to d sends, not from s2 */
	KUNIT_ASSERT_EQ(test, pdcm_cma_hdr_build(hdr, sizeof(hdr), SA(s),
						 SA(d)), 0);
	KUNIT_ASSERT_EQ(test, pdcm_cma_hdr_build(hdr2, sizeof(hdr2), SA(s2),
						 SA(d)), 0);
	KUNIT_EXPECT_TRUE(test, dt_matches(&c, hdr));
	KUNIT_EXPECT_FALSE(test, dt_matches(&c, hdr2));
	/* source only: any destination of the family */
	memset(&only, 0, sizeof(only));
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addrs(&only, SA(s), NULL), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(only.mask, 20, PDCM_COMPARE_SIZE, 0));
	KUNIT_EXPECT_EQ(test, memcmp(only.data, c.data, 20), 0);
	KUNIT_EXPECT_EQ(test, memcmp(only.mask, c.mask, 20), 0);
	/* NULL source is pdcm_compare_cma_addr() */
	memset(&only, 0, sizeof(only));
	memset(&c, 0, sizeof(c));
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addrs(&only, NULL, SA(d)), 0);
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addr(&c, SA(d)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&only, &c, sizeof(c)), 0);
	/* IPv6 source fills the whole field, 4..19 */
	KUNIT_ASSERT_EQ(test, pdcm_compare_cma_addrs(&c, SA(s6), SA(d6)), 0);
	KUNIT_EXPECT_EQ(test, c.data[1], 0x60);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 4, 36, 0xff));
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[4], &s6.sin6_addr, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[20], &d6.sin6_addr, 16), 0);
	/* refusals */
	KUNIT_EXPECT_EQ(test, pdcm_compare_cma_addrs(&c, NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_compare_cma_addrs(&c, SA(s), SA(d6)),
			-EINVAL);
}

static void pdcm_discrim_test_bad_family(struct kunit *test)
{
	struct sockaddr_storage ss = { .ss_family = AF_UNSPEC };
	struct sockaddr_in s = dt_sin(IP4(10, 0, 0, 2), 1);
	struct sockaddr_in6 d6 = dt_sin6(1, 1);
	struct pdcm_compare c = {};
	u8 pd[PDCM_COMPARE_SIZE] = {};

	KUNIT_EXPECT_EQ(test, pdcm_compare_cma_family(&c, AF_IB),
			-EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, pdcm_compare_sdp_family(&c, AF_UNSPEC),
			-EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, pdcm_compare_cma_addr(&c, SA(ss)),
			-EAFNOSUPPORT);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 0, PDCM_COMPARE_SIZE, 0));
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_build(pd, sizeof(pd), SA(ss),
						 SA(ss)), -EAFNOSUPPORT);
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_build(pd, sizeof(pd), SA(s),
						 SA(d6)), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_build(pd, sizeof(pd), SA(s),
						   SA(d6)), -EINVAL);
}

static void pdcm_discrim_test_sdp_compare(struct kunit *test)
{
	struct sockaddr_in d4 = dt_sin(IP4(192, 168, 1, 7), 0);
	struct sockaddr_in6 d6 = dt_sin6(7, 0);
	struct pdcm_compare c;
	static const u8 ip[] = { 192, 168, 1, 7 };

	memset(&c, 0, sizeof(c));
	KUNIT_ASSERT_EQ(test, pdcm_compare_sdp_addr(&c, SA(d4)), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 0, 16, 0));
	KUNIT_EXPECT_EQ(test, c.mask[16], 0xf0);
	KUNIT_EXPECT_EQ(test, c.data[16], 0x20);
	KUNIT_EXPECT_EQ(test, c.mask[17], 0xf0);
	KUNIT_EXPECT_EQ(test, c.data[17], 0x40);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 18, 60, 0));
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 60, 64, 0xff));
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[60], ip, 4), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 64, PDCM_COMPARE_SIZE, 0));

	memset(&c, 0, sizeof(c));
	KUNIT_ASSERT_EQ(test, pdcm_compare_sdp_addr(&c, SA(d6)), 0);
	KUNIT_EXPECT_EQ(test, c.data[17], 0x60);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 18, 48, 0));
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 48, 64, 0xff));
	KUNIT_EXPECT_EQ(test, memcmp(&c.data[48], &d6.sin6_addr, 16), 0);

	memset(&c, 0, sizeof(c));
	KUNIT_ASSERT_EQ(test, pdcm_compare_sdp_family(&c, AF_INET6), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(c.mask, 18, PDCM_COMPARE_SIZE, 0));
}

/* The header of a Debian 6.1 rping REQ, 10.0.0.2:60169 -> 10.0.0.1. */
static const u8 dt_rping_hdr[PDCM_CMA_HDR_SIZE] = {
	0x00, 0x40, 0xeb, 0x09,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x00, 0x00, 0x02,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0a, 0x00, 0x00, 0x01,
};

static void pdcm_discrim_test_cma_golden_v4(struct kunit *test)
{
	struct sockaddr_in s = dt_sin(IP4(10, 0, 0, 2), 60169);
	struct sockaddr_in d = dt_sin(IP4(10, 0, 0, 1), 0);
	struct sockaddr_storage ps, pd;
	struct sockaddr_in *sin;
	u8 buf[PDCM_COMPARE_SIZE];

	memset(buf, 0xcc, sizeof(buf));
	KUNIT_ASSERT_EQ(test, pdcm_cma_hdr_build(buf, sizeof(buf), SA(s),
						 SA(d)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, dt_rping_hdr, sizeof(dt_rping_hdr)),
			0);
	KUNIT_EXPECT_TRUE(test, dt_all(buf, PDCM_CMA_HDR_SIZE,
				       PDCM_COMPARE_SIZE, 0xcc));

	KUNIT_ASSERT_EQ(test, pdcm_cma_hdr_parse(dt_rping_hdr,
						 sizeof(dt_rping_hdr),
						 RPING_SID, &ps, &pd), 0);
	sin = (struct sockaddr_in *)&ps;
	KUNIT_EXPECT_EQ(test, sin->sin_family, (sa_family_t)AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
			(u32)IP4(10, 0, 0, 2));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 60169);
	sin = (struct sockaddr_in *)&pd;
	KUNIT_EXPECT_EQ(test, sin->sin_family, (sa_family_t)AF_INET);
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
			(u32)IP4(10, 0, 0, 1));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 7174);

	/* The compare for the listening address matches the header. */
	{
		struct pdcm_compare c = {};
		unsigned int i;

		pdcm_compare_cma_addr(&c, SA(d));
		for (i = 0; i < PDCM_CMA_HDR_SIZE; i++)
			KUNIT_EXPECT_EQ(test, dt_rping_hdr[i] & c.mask[i],
					c.data[i]);
	}
}

static void pdcm_discrim_test_cma_roundtrip_v6(struct kunit *test)
{
	struct sockaddr_in6 s = dt_sin6(0x1111, 40000);
	struct sockaddr_in6 d = dt_sin6(0x2222, 0);
	struct sockaddr_storage ps, pd;
	struct sockaddr_in6 *sin6;
	u8 buf[PDCM_COMPARE_SIZE] = {};

	KUNIT_ASSERT_EQ(test, pdcm_cma_hdr_build(buf, sizeof(buf), SA(s),
						 SA(d)), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 0x00);
	KUNIT_EXPECT_EQ(test, buf[1], 0x60);
	KUNIT_EXPECT_EQ(test, memcmp(&buf[4], &s.sin6_addr, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&buf[20], &d.sin6_addr, 16), 0);

	KUNIT_ASSERT_EQ(test, pdcm_cma_hdr_parse(buf, sizeof(buf),
						 cpu_to_be64(0x1110000 | 4791),
						 &ps, &pd), 0);
	sin6 = (struct sockaddr_in6 *)&ps;
	KUNIT_EXPECT_EQ(test, sin6->sin6_family, (sa_family_t)AF_INET6);
	KUNIT_EXPECT_TRUE(test, dt_in6_eq(&sin6->sin6_addr, &s.sin6_addr));
	KUNIT_EXPECT_EQ(test, ntohs(sin6->sin6_port), 40000);
	sin6 = (struct sockaddr_in6 *)&pd;
	KUNIT_EXPECT_TRUE(test, dt_in6_eq(&sin6->sin6_addr, &d.sin6_addr));
	KUNIT_EXPECT_EQ(test, ntohs(sin6->sin6_port), 4791);

	/* Either output may be left out. */
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(buf, sizeof(buf), 0, NULL,
						 &pd), 0);
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(buf, sizeof(buf), 0, &ps,
						 NULL), 0);
}

static void pdcm_discrim_test_cma_malformed(struct kunit *test)
{
	struct sockaddr_storage ps, pd;
	u8 buf[PDCM_CMA_HDR_SIZE];
	u8 *shrt;

	memcpy(buf, dt_rping_hdr, sizeof(buf));
	buf[0] = 1;
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(buf, sizeof(buf), RPING_SID,
						 &ps, &pd), -EPROTO);
	buf[0] = 0;
	buf[1] = 0x50;
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(buf, sizeof(buf), RPING_SID,
						 &ps, &pd), -EAFNOSUPPORT);
	buf[1] = 0x04;	/* version in the wrong nibble */
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(buf, sizeof(buf), RPING_SID,
						 &ps, &pd), -EAFNOSUPPORT);

	/* Truncated: an allocation of exactly 35 bytes. */
	shrt = kunit_kmalloc(test, PDCM_CMA_HDR_SIZE - 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, shrt);
	memcpy(shrt, dt_rping_hdr, PDCM_CMA_HDR_SIZE - 1);
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(shrt, PDCM_CMA_HDR_SIZE - 1,
						 RPING_SID, &ps, &pd),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(NULL, 0, RPING_SID, &ps,
						 &pd), -EMSGSIZE);
	{
		struct sockaddr_in s = dt_sin(1, 1), d = dt_sin(2, 0);

		KUNIT_EXPECT_EQ(test,
				pdcm_cma_hdr_build(shrt, PDCM_CMA_HDR_SIZE - 1,
						   SA(s), SA(d)), -EMSGSIZE);
		KUNIT_EXPECT_EQ(test, memcmp(shrt, dt_rping_hdr,
					     PDCM_CMA_HDR_SIZE - 1), 0);
	}
	/* Exactly the header is enough. */
	KUNIT_EXPECT_EQ(test, pdcm_cma_hdr_parse(dt_rping_hdr,
						 PDCM_CMA_HDR_SIZE, RPING_SID,
						 &ps, &pd), 0);
}

static void pdcm_discrim_test_sdp_roundtrip(struct kunit *test)
{
	struct sockaddr_in s = dt_sin(IP4(10, 0, 0, 2), 33000);
	struct sockaddr_in d = dt_sin(IP4(10, 0, 0, 1), 0);
	struct sockaddr_in6 s6 = dt_sin6(3, 33001), d6 = dt_sin6(4, 0);
	struct sockaddr_storage ps, pd;
	struct sockaddr_in *sin;
	struct sockaddr_in6 *sin6;
	u8 buf[PDCM_COMPARE_SIZE];
	static const u8 src[] = { 10, 0, 0, 2 }, dst[] = { 10, 0, 0, 1 };

	memset(buf, 0, sizeof(buf));
	buf[2] = 0x12;	/* BSDH bufs: the SDP code's, left alone */
	buf[17] = 0x03;	/* low nibble of ipv_cap: capabilities, kept */
	KUNIT_ASSERT_EQ(test, pdcm_sdp_hello_build(buf, sizeof(buf), SA(s),
						   SA(d)), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 0x00);
	KUNIT_EXPECT_EQ(test, buf[2], 0x12);
	KUNIT_EXPECT_EQ(test, buf[16], 0x22);
	KUNIT_EXPECT_EQ(test, buf[17], 0x43);
	KUNIT_EXPECT_EQ(test, buf[28], 33000 >> 8);
	KUNIT_EXPECT_EQ(test, buf[29], 33000 & 0xff);
	KUNIT_EXPECT_TRUE(test, dt_all(buf, 32, 44, 0));
	KUNIT_EXPECT_EQ(test, memcmp(&buf[44], src, 4), 0);
	KUNIT_EXPECT_TRUE(test, dt_all(buf, 48, 60, 0));
	KUNIT_EXPECT_EQ(test, memcmp(&buf[60], dst, 4), 0);

	KUNIT_ASSERT_EQ(test, pdcm_sdp_hello_parse(buf, sizeof(buf),
						   cpu_to_be64(0x10000 | 80),
						   &ps, &pd), 0);
	sin = (struct sockaddr_in *)&ps;
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
			(u32)IP4(10, 0, 0, 2));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 33000);
	sin = (struct sockaddr_in *)&pd;
	KUNIT_EXPECT_EQ(test, ntohl(sin->sin_addr.s_addr),
			(u32)IP4(10, 0, 0, 1));
	KUNIT_EXPECT_EQ(test, ntohs(sin->sin_port), 80);

	KUNIT_ASSERT_EQ(test, pdcm_sdp_hello_build(buf, sizeof(buf), SA(s6),
						   SA(d6)), 0);
	KUNIT_EXPECT_EQ(test, buf[17], 0x63);
	KUNIT_ASSERT_EQ(test, pdcm_sdp_hello_parse(buf, sizeof(buf),
						   cpu_to_be64(0x10000 | 81),
						   &ps, &pd), 0);
	sin6 = (struct sockaddr_in6 *)&ps;
	KUNIT_EXPECT_EQ(test, sin6->sin6_family, (sa_family_t)AF_INET6);
	KUNIT_EXPECT_TRUE(test, dt_in6_eq(&sin6->sin6_addr, &s6.sin6_addr));
	KUNIT_EXPECT_EQ(test, ntohs(sin6->sin6_port), 33001);
	sin6 = (struct sockaddr_in6 *)&pd;
	KUNIT_EXPECT_TRUE(test, dt_in6_eq(&sin6->sin6_addr, &d6.sin6_addr));
	KUNIT_EXPECT_EQ(test, ntohs(sin6->sin6_port), 81);
}

static void pdcm_discrim_test_sdp_malformed(struct kunit *test)
{
	struct sockaddr_in s = dt_sin(IP4(10, 0, 0, 2), 1);
	struct sockaddr_in d = dt_sin(IP4(10, 0, 0, 1), 0);
	struct sockaddr_storage ps, pd;
	u8 buf[PDCM_SDP_HH_SIZE] = {};
	u8 *shrt;

	KUNIT_ASSERT_EQ(test, pdcm_sdp_hello_build(buf, sizeof(buf), SA(s),
						   SA(d)), 0);
	buf[0] = 0xff;	/* a DATA message, not a Hello */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_parse(buf, sizeof(buf), 0, &ps,
						   &pd), -EPROTO);
	buf[0] = 0;
	buf[16] = 0x32;	/* major version 3 */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_parse(buf, sizeof(buf), 0, &ps,
						   &pd), -EPROTO);
	buf[16] = 0x22;
	buf[17] = 0x70;
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_parse(buf, sizeof(buf), 0, &ps,
						   &pd), -EAFNOSUPPORT);
	buf[17] = 0x40;
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_parse(buf, sizeof(buf), 0, &ps,
						   &pd), 0);

	shrt = kunit_kmalloc(test, PDCM_SDP_HH_SIZE - 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, shrt);
	memcpy(shrt, buf, PDCM_SDP_HH_SIZE - 1);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_parse(shrt, PDCM_SDP_HH_SIZE - 1,
						   0, &ps, &pd), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_build(shrt, PDCM_SDP_HH_SIZE - 1,
						   SA(s), SA(d)), -EMSGSIZE);
	/* An RDMA CM header is not a Hello. */
	KUNIT_EXPECT_EQ(test, pdcm_sdp_hello_parse(dt_rping_hdr,
						   sizeof(dt_rping_hdr), 0,
						   &ps, &pd), -EMSGSIZE);
}

static void pdcm_discrim_test_compare_add(struct kunit *test)
{
	struct pdcm_compare c = {};
	static const u8 v[] = { 0xff, 0x0f }, m[] = { 0x0f, 0xff };

	KUNIT_EXPECT_EQ(test, pdcm_compare_add(&c, 36, v, m, 2), 0);
	KUNIT_EXPECT_EQ(test, c.mask[36], 0x0f);
	KUNIT_EXPECT_EQ(test, c.data[36], 0x0f);	/* stored masked */
	KUNIT_EXPECT_EQ(test, c.data[37], 0x0f);
	KUNIT_EXPECT_EQ(test, pdcm_compare_add(&c, 90, v, m, 2), 0);
	KUNIT_EXPECT_EQ(test, pdcm_compare_add(&c, 91, v, m, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_compare_add(&c, PDCM_COMPARE_SIZE, v, m, 0),
			0);
	KUNIT_EXPECT_EQ(test, pdcm_compare_add(&c, UINT_MAX, v, m, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, pdcm_compare_add(&c, 2, v, m, UINT_MAX),
			-EINVAL);
}

static struct kunit_case pdcm_discrim_cases[] = {
	KUNIT_CASE(pdcm_discrim_test_cma_compare_v4),
	KUNIT_CASE(pdcm_discrim_test_cma_compare_v6),
	KUNIT_CASE(pdcm_discrim_test_cma_compare_family),
	KUNIT_CASE(pdcm_discrim_test_cma_compare_addrs),
	KUNIT_CASE(pdcm_discrim_test_bad_family),
	KUNIT_CASE(pdcm_discrim_test_sdp_compare),
	KUNIT_CASE(pdcm_discrim_test_cma_golden_v4),
	KUNIT_CASE(pdcm_discrim_test_cma_roundtrip_v6),
	KUNIT_CASE(pdcm_discrim_test_cma_malformed),
	KUNIT_CASE(pdcm_discrim_test_sdp_roundtrip),
	KUNIT_CASE(pdcm_discrim_test_sdp_malformed),
	KUNIT_CASE(pdcm_discrim_test_compare_add),
	{}
};

static struct kunit_suite pdcm_discrim_suite = {
	.name = "pdcm_discrim",
	.test_cases = pdcm_discrim_cases,
};

kunit_test_suite(pdcm_discrim_suite);
