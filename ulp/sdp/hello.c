// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SDP Hello (REQ private data) and Hello Ack (REP private data).
 *
 * BSDH, 16 bytes, both messages:
 *	0 mid, 1 flags, 2-3 bufs, 4-7 len, 8-11 mseq, 12-15 mseq_ack
 * Hello (HH), bytes 16-91:
 *	16 majv_minv, 17 ipv_cap (IP version in bits 7:4), 18 reserved,
 *	19 max_adverts, 20-23 desremrcvsz, 24-27 localrcvsz, 28-29 port,
 *	30-31 reserved, 32-47 src_addr, 48-63 dst_addr, 64-91 reserved
 * Hello Ack (HAH), bytes 16-195:
 *	16 majv_minv, 17 ipv_cap, 18 reserved, 19 ext_max_adverts,
 *	20-23 actrcvsz, 24-195 reserved
 *
 * All multi-byte fields are big-endian.  The addressing part of the Hello
 * is pdcm's own helper (pdcm_sdp_hello_build/parse); this file adds the
 * buffer fields and the checks an SDP layer makes.  Nothing here reads or
 * writes past the length it is given.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>

#include "../../cm/compat.h"

#include <rdma/pdcm_sdp.h>

#define BSDH_MID	0
#define BSDH_BUFS	2
#define BSDH_LEN	4
#define HH_MAJV_MINV	16
#define HH_MAX_ADVERTS	19
#define HH_DESREMRCVSZ	20
#define HH_LOCALRCVSZ	24
#define HAH_EXT_ADVERTS	19
#define HAH_ACTRCVSZ	20
#define HAH_FIELDS_END	24	/* a Hello Ack shorter than this is cut */

/**
 * pdcm_sdp_hh_build() - write an SDP Hello
 * @buf: REQ private data
 * @len: bytes at @buf; at least PDCM_SDP_HELLO_SIZE
 * @h: what to send; @h->src and @h->dst give the IP version, the source
 *	port and both addresses (the destination port goes in the service ID)
 *
 * Writes the whole PDCM_SDP_HELLO_SIZE bytes: BSDH (message ID Hello, bufs,
 * len = PDCM_SDP_HELLO_SIZE), version 2.2 and the Hello's fields; reserved
 * bytes are zero.
 *
 * Context: Any context.
 * Return: 0; -EMSGSIZE if @len is too short; -EAFNOSUPPORT unless the
 * addresses are AF_INET or AF_INET6; -EINVAL if they differ in family.
 */
int pdcm_sdp_hh_build(void *buf, size_t len, const struct pdcm_sdp_hello *h)
{
	u8 *p = buf;
	int ret;

	if (len < PDCM_SDP_HELLO_SIZE)
		return -EMSGSIZE;
	memset(p, 0, PDCM_SDP_HELLO_SIZE);
	ret = pdcm_sdp_hello_build(p, PDCM_SDP_HELLO_SIZE,
				   (const struct sockaddr *)&h->src,
				   (const struct sockaddr *)&h->dst);
	if (ret)
		return ret;
	put_unaligned_be16(h->bufs, p + BSDH_BUFS);
	put_unaligned_be32(PDCM_SDP_HELLO_SIZE, p + BSDH_LEN);
	p[HH_MAX_ADVERTS] = h->max_adverts;
	put_unaligned_be32(h->desremrcvsz, p + HH_DESREMRCVSZ);
	put_unaligned_be32(h->localrcvsz, p + HH_LOCALRCVSZ);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_hh_build, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_hh_parse() - read and check an SDP Hello
 * @buf: private data of a received REQ
 * @len: bytes at @buf
 * @service_id: the REQ's service ID; its low 16 bits are the destination
 *	port
 * @h: filled in on success
 *
 * A Hello is refused when it is shorter than its addresses (@len, or the
 * length its BSDH claims, below PDCM_SDP_HH_SIZE), is not a Hello, has a
 * major version other than 2, an IP version other than 4 or 6, or no
 * buffer advertisements (max_adverts 0, which OFED SDP refused too).
 *
 * Context: Any context.
 * Return: 0; -EMSGSIZE if truncated; -EPROTO if not a version 2 Hello;
 * -EAFNOSUPPORT for a bad IP version; -EINVAL for max_adverts 0.
 */
int pdcm_sdp_hh_parse(const void *buf, size_t len, __be64 service_id,
		      struct pdcm_sdp_hello *h)
{
	const u8 *p = buf;
	int ret;

	ret = pdcm_sdp_hello_parse(buf, len, service_id, &h->src, &h->dst);
	if (ret)
		return ret;
	/* len >= PDCM_SDP_HH_SIZE from here on */
	if (get_unaligned_be32(p + BSDH_LEN) < PDCM_SDP_HH_SIZE)
		return -EMSGSIZE;
	if (!p[HH_MAX_ADVERTS])
		return -EINVAL;
	h->bufs = get_unaligned_be16(p + BSDH_BUFS);
	h->max_adverts = p[HH_MAX_ADVERTS];
	h->desremrcvsz = get_unaligned_be32(p + HH_DESREMRCVSZ);
	h->localrcvsz = get_unaligned_be32(p + HH_LOCALRCVSZ);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_hh_parse, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_hah_build() - write an SDP Hello Ack
 * @buf: REP private data
 * @len: bytes at @buf; at least PDCM_SDP_HELLO_ACK_SIZE
 * @a: what to send
 *
 * Writes PDCM_SDP_HELLO_ACK_SIZE bytes: BSDH (message ID Hello Ack, bufs,
 * len = PDCM_SDP_HELLO_ACK_SIZE), version 2.2, ext_max_adverts, actrcvsz.
 *
 * Context: Any context.
 * Return: 0, or -EMSGSIZE if @len is too short.
 */
int pdcm_sdp_hah_build(void *buf, size_t len,
		       const struct pdcm_sdp_hello_ack *a)
{
	u8 *p = buf;

	if (len < PDCM_SDP_HELLO_ACK_SIZE)
		return -EMSGSIZE;
	memset(p, 0, PDCM_SDP_HELLO_ACK_SIZE);
	p[BSDH_MID] = PDCM_SDP_MID_HELLO_ACK;
	put_unaligned_be16(a->bufs, p + BSDH_BUFS);
	put_unaligned_be32(PDCM_SDP_HELLO_ACK_SIZE, p + BSDH_LEN);
	p[HH_MAJV_MINV] = PDCM_SDP_MAJV_MINV;
	p[HAH_EXT_ADVERTS] = a->ext_max_adverts;
	put_unaligned_be32(a->actrcvsz, p + HAH_ACTRCVSZ);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_hah_build, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_hah_parse() - read and check an SDP Hello Ack
 * @buf: private data of a received REP
 * @len: bytes at @buf
 * @a: filled in on success
 *
 * Context: Any context.
 * Return: 0; -EMSGSIZE if @buf is NULL or shorter than the Hello Ack's
 * fields (24 bytes); -EPROTO if it is not a Hello Ack or its major
 * version is not 2.
 */
int pdcm_sdp_hah_parse(const void *buf, size_t len,
		       struct pdcm_sdp_hello_ack *a)
{
	const u8 *p = buf;

	if (!p || len < HAH_FIELDS_END)
		return -EMSGSIZE;
	if (p[BSDH_MID] != PDCM_SDP_MID_HELLO_ACK ||
	    (p[HH_MAJV_MINV] & 0xf0) != (PDCM_SDP_MAJV_MINV & 0xf0))
		return -EPROTO;
	a->bufs = get_unaligned_be16(p + BSDH_BUFS);
	a->ext_max_adverts = p[HAH_EXT_ADVERTS];
	a->actrcvsz = get_unaligned_be32(p + HAH_ACTRCVSZ);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_hah_parse, PDCM_NS(PDCM_SDP));
