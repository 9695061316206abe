// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Discriminator helpers: the two private-data headers ULPs put in front of
 * a REQ, as compare keys for the listen table and as parsers that hand a
 * wildcard listener the addresses a REQ carries.
 *
 * RDMA CM header (struct cma_hdr, 36 bytes at private data offset 0):
 *	0 cma_version (0), 1 IP version in bits 7:4, 2-3 the active side's
 *	source port, 4-19 source address, 20-35 destination address; IPv4
 *	sits in the last 4 bytes of a field (16-19, 32-35), not ::ffff:mapped.
 *
 * SDP Hello (BSDH 0-15, then the Hello header):
 *	0 message ID (Hello = 0), 16 major/minor version (major 2 in bits
 *	7:4), 17 IP version in bits 7:4, 28-29 the active side's source port,
 *	32-47 source address, 48-63 destination address (IPv4 at 44-47 and
 *	60-63).
 *
 * Neither header carries the destination port: it is the low 16 bits of
 * the service ID (RDMA CM port spaces, SDP's 0x10000 | port), so the
 * parsers take the service ID too.  No helper ever reads or writes past
 * the length it is given.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>

#include <rdma/pdcm.h>

#define CMA_VERSION_OFF		0
#define CMA_IPVER_OFF		1
#define CMA_PORT_OFF		2
#define CMA_SRC_OFF		4
#define CMA_DST_OFF		20

#define SDP_MID_OFF		0
#define SDP_MID_HELLO		0x00
#define SDP_VERSION_OFF		16
#define SDP_MAJV_MINV		0x22
#define SDP_IPVER_OFF		17
#define SDP_PORT_OFF		28
#define SDP_SRC_OFF		32
#define SDP_DST_OFF		48

#define IP_ADDR_LEN		16	/* an address field, either family */
#define IP4_IN_FIELD		12	/* IPv4 is the field's last 4 bytes */

/* Where the two headers keep the fields a compare or a parse needs. */
struct pdcm_hdr_layout {
	unsigned int first, end;	/* bytes a compare builder owns */
	unsigned int ver_off;
	u8 ver_mask, ver_val;
	unsigned int ipver_off, port_off, src_off, dst_off;
	unsigned int size;
};

static const struct pdcm_hdr_layout pdcm_cma_layout = {
	.first = 0, .end = PDCM_CMA_HDR_SIZE,
	.ver_off = CMA_VERSION_OFF, .ver_mask = 0xff, .ver_val = 0x00,
	.ipver_off = CMA_IPVER_OFF, .port_off = CMA_PORT_OFF,
	.src_off = CMA_SRC_OFF, .dst_off = CMA_DST_OFF,
	.size = PDCM_CMA_HDR_SIZE,
};

static const struct pdcm_hdr_layout pdcm_sdp_layout = {
	.first = SDP_VERSION_OFF, .end = PDCM_SDP_HH_SIZE,
	.ver_off = SDP_VERSION_OFF, .ver_mask = 0xf0,
	.ver_val = SDP_MAJV_MINV & 0xf0,
	.ipver_off = SDP_IPVER_OFF, .port_off = SDP_PORT_OFF,
	.src_off = SDP_SRC_OFF, .dst_off = SDP_DST_OFF,
	.size = PDCM_SDP_HH_SIZE,
};

static int pdcm_ip_version(sa_family_t family)
{
	switch (family) {
	case AF_INET:
		return 4;
	case AF_INET6:
		return 6;
	default:
		return -EAFNOSUPPORT;
	}
}

/**
 * pdcm_compare_add() - set some bytes of a compare
 * @cmp: the compare
 * @offset: first private-data byte
 * @data: the value those bytes must have; stored masked by @mask
 * @mask: which bits of those bytes count
 * @len: number of bytes
 *
 * Overwrites data and mask of bytes @offset..@offset+@len-1, e.g. to add a
 * ULP's own discriminator after the RDMA CM header.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL if the range does not fit in PDCM_COMPARE_SIZE.
 */
int pdcm_compare_add(struct pdcm_compare *cmp, unsigned int offset,
		     const void *data, const void *mask, unsigned int len)
{
	const u8 *d = data, *m = mask;
	unsigned int i;

	if (offset > PDCM_COMPARE_SIZE || len > PDCM_COMPARE_SIZE - offset)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		cmp->mask[offset + i] = m[i];
		cmp->data[offset + i] = d[i] & m[i];
	}
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_compare_add, PDCM_NS(PDCM));

/*
 * Where @sa's address goes in a 16-byte address field (IPv4 in its last 4
 * bytes), and how long it is; NULL for no address or the unspecified one.
 */
static const void *pdcm_field_addr(const struct sockaddr *sa,
				   unsigned int *skip, unsigned int *len)
{
	const struct sockaddr_in6 *sin6;

	if (!sa)
		return NULL;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		if (sin->sin_addr.s_addr == htonl(INADDR_ANY))
			return NULL;
		*skip = IP4_IN_FIELD;
		*len = sizeof(sin->sin_addr);
		return &sin->sin_addr;
	}
	sin6 = (const void *)sa;
	if (!memchr_inv(&sin6->sin6_addr, 0, sizeof(sin6->sin6_addr)))
		return NULL;
	*skip = 0;
	*len = sizeof(sin6->sin6_addr);
	return &sin6->sin6_addr;
}

/* Match bytes @off.. of @cmp against @sa's address, if it has one. */
static void pdcm_compare_field(struct pdcm_compare *cmp, unsigned int off,
			       const struct sockaddr *sa)
{
	unsigned int skip, len;
	const void *addr = pdcm_field_addr(sa, &skip, &len);

	if (addr) {
		memcpy(cmp->data + off + skip, addr, len);
		memset(cmp->mask + off + skip, 0xff, len);
	}
}

/* @src and @dst are NULL or of @family. */
static int pdcm_compare_hdr(struct pdcm_compare *cmp,
			    const struct pdcm_hdr_layout *h, sa_family_t family,
			    const struct sockaddr *src,
			    const struct sockaddr *dst)
{
	int ver;

	ver = pdcm_ip_version(family);
	if (ver < 0)
		return ver;

	memset(cmp->data + h->first, 0, h->end - h->first);
	memset(cmp->mask + h->first, 0, h->end - h->first);
	cmp->data[h->ver_off] = h->ver_val;
	cmp->mask[h->ver_off] = h->ver_mask;
	cmp->data[h->ipver_off] = ver << 4;
	cmp->mask[h->ipver_off] = 0xf0;
	pdcm_compare_field(cmp, h->src_off, src);
	pdcm_compare_field(cmp, h->dst_off, dst);
	return 0;
}

/**
 * pdcm_compare_cma_family() - compare matching any RDMA CM header of a family
 * @cmp: the compare; bytes 0..35 are overwritten
 * @family: AF_INET or AF_INET6
 *
 * Matches cma_version 0 and the IP version nibble: what rdma_cm used for
 * an IPv6-only wildcard bind.
 *
 * Context: Any context.
 * Return: 0, or -EAFNOSUPPORT for another family.
 */
int pdcm_compare_cma_family(struct pdcm_compare *cmp, sa_family_t family)
{
	return pdcm_compare_hdr(cmp, &pdcm_cma_layout, family, NULL, NULL);
}
EXPORT_SYMBOL_NS_GPL(pdcm_compare_cma_family, PDCM_NS(PDCM));

/**
 * pdcm_compare_cma_addr() - compare matching RDMA CM headers sent to @dst
 * @cmp: the compare; bytes 0..35 are overwritten
 * @dst: the listening address, AF_INET or AF_INET6; its port is ignored
 *	(it belongs in the service ID)
 *
 * Matches cma_version 0, the IP version nibble and the destination
 * address (bytes 32..35 for IPv4, 20..35 for IPv6).  The unspecified
 * address (0.0.0.0, ::) gives the family-only compare of
 * pdcm_compare_cma_family().  IPv4-mapped IPv6 addresses are IPv6 here, as
 * in rdma_cm.
 *
 * Context: Any context.
 * Return: 0, or -EAFNOSUPPORT for another family.
 */
int pdcm_compare_cma_addr(struct pdcm_compare *cmp, const struct sockaddr *dst)
{
	return pdcm_compare_hdr(cmp, &pdcm_cma_layout, dst->sa_family, NULL,
				dst);
}
EXPORT_SYMBOL_NS_GPL(pdcm_compare_cma_addr, PDCM_NS(PDCM));

/**
 * pdcm_compare_cma_addrs() - compare matching RDMA CM headers from @src to @dst
 * @cmp: the compare; bytes 0..35 are overwritten
 * @src: the active side's address (bytes 16..19 for IPv4, 4..19 for IPv6),
 *	or NULL for any; port ignored
 * @dst: the listening address as for pdcm_compare_cma_addr(), or NULL for
 *	any of the family
 *
 * A per-client listen: with @src set the compare also matches the source
 * address rdma_cm puts in the header.  The unspecified address of either
 * means any.  Note that a source-only compare is ambiguous next to a
 * destination-only one on the same service ID (pdcm_listen() refuses the
 * second); a compare on both is more specific than either.
 *
 * Context: Any context.
 * Return: 0; -EINVAL if both are NULL or their families differ;
 * -EAFNOSUPPORT for a family other than AF_INET and AF_INET6.
 */
int pdcm_compare_cma_addrs(struct pdcm_compare *cmp,
			   const struct sockaddr *src,
			   const struct sockaddr *dst)
{
	const struct sockaddr *sa = src ?: dst;

	if (!sa || (src && dst && src->sa_family != dst->sa_family))
		return -EINVAL;
	return pdcm_compare_hdr(cmp, &pdcm_cma_layout, sa->sa_family, src,
				dst);
}
EXPORT_SYMBOL_NS_GPL(pdcm_compare_cma_addrs, PDCM_NS(PDCM));

/**
 * pdcm_compare_sdp_family() - compare matching any SDP Hello of a family
 * @cmp: the compare; bytes 16..63 are overwritten
 * @family: AF_INET or AF_INET6
 *
 * Matches SDP major version 2 and the IP version nibble.
 *
 * Context: Any context.
 * Return: 0, or -EAFNOSUPPORT for another family.
 */
int pdcm_compare_sdp_family(struct pdcm_compare *cmp, sa_family_t family)
{
	return pdcm_compare_hdr(cmp, &pdcm_sdp_layout, family, NULL, NULL);
}
EXPORT_SYMBOL_NS_GPL(pdcm_compare_sdp_family, PDCM_NS(PDCM));

/**
 * pdcm_compare_sdp_addr() - compare matching SDP Hellos sent to @dst
 * @cmp: the compare; bytes 16..63 are overwritten
 * @dst: the listening address, AF_INET or AF_INET6; port ignored
 *
 * Matches SDP major version 2, the IP version nibble and the destination
 * address (bytes 60..63 for IPv4, 48..63 for IPv6); the unspecified
 * address gives the family-only compare.
 *
 * Context: Any context.
 * Return: 0, or -EAFNOSUPPORT for another family.
 */
int pdcm_compare_sdp_addr(struct pdcm_compare *cmp, const struct sockaddr *dst)
{
	return pdcm_compare_hdr(cmp, &pdcm_sdp_layout, dst->sa_family, NULL,
				dst);
}
EXPORT_SYMBOL_NS_GPL(pdcm_compare_sdp_addr, PDCM_NS(PDCM));

static void pdcm_put_addr(u8 *field, const struct sockaddr *sa)
{
	memset(field, 0, IP_ADDR_LEN);
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		memcpy(field + IP4_IN_FIELD, &sin->sin_addr,
		       sizeof(sin->sin_addr));
	} else {
		const struct sockaddr_in6 *sin6 = (const void *)sa;

		memcpy(field, &sin6->sin6_addr, sizeof(sin6->sin6_addr));
	}
}

static __be16 pdcm_sa_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_port;
	return ((const struct sockaddr_in6 *)sa)->sin6_port;
}

static int pdcm_hdr_build(u8 *p, size_t len, const struct pdcm_hdr_layout *h,
			  const struct sockaddr *src,
			  const struct sockaddr *dst)
{
	__be16 port;
	int ver;

	if (len < h->size)
		return -EMSGSIZE;
	ver = pdcm_ip_version(src->sa_family);
	if (ver < 0)
		return ver;
	if (dst->sa_family != src->sa_family)
		return -EINVAL;

	p[h->ipver_off] = ver << 4 | (p[h->ipver_off] & 0x0f);
	port = pdcm_sa_port(src);
	memcpy(p + h->port_off, &port, sizeof(port));
	pdcm_put_addr(p + h->src_off, src);
	pdcm_put_addr(p + h->dst_off, dst);
	return 0;
}

/**
 * pdcm_cma_hdr_build() - write the RDMA CM header an active side sends
 * @pdata: REQ or SIDR_REQ private data
 * @len: bytes at @pdata
 * @src: the active side's address and source port
 * @dst: the passive side's address (port ignored: it is in the service ID)
 *
 * Writes bytes 0..35; the consumer's data may follow.
 *
 * Context: Any context.
 * Return: 0; -EMSGSIZE if @len < PDCM_CMA_HDR_SIZE; -EAFNOSUPPORT unless
 * @src is AF_INET or AF_INET6; -EINVAL if @dst is of another family.
 */
int pdcm_cma_hdr_build(void *pdata, size_t len, const struct sockaddr *src,
		       const struct sockaddr *dst)
{
	u8 *p = pdata;

	if (len >= PDCM_CMA_HDR_SIZE) {
		p[CMA_VERSION_OFF] = 0;
		p[CMA_IPVER_OFF] = 0;
	}
	return pdcm_hdr_build(p, len, &pdcm_cma_layout, src, dst);
}
EXPORT_SYMBOL_NS_GPL(pdcm_cma_hdr_build, PDCM_NS(PDCM));

/**
 * pdcm_sdp_hello_build() - write the addressing fields of an SDP Hello
 * @pdata: REQ private data
 * @len: bytes at @pdata
 * @src: the active side's address and source port
 * @dst: the passive side's address (port ignored)
 *
 * Writes the message ID (Hello), the version byte (2.2), the IP version
 * nibble, the port and both addresses; leaves the buffer and flow-control
 * fields to the SDP code.
 *
 * Context: Any context.
 * Return: 0; -EMSGSIZE if @len < PDCM_SDP_HH_SIZE; -EAFNOSUPPORT unless
 * @src is AF_INET or AF_INET6; -EINVAL if @dst is of another family.
 */
int pdcm_sdp_hello_build(void *pdata, size_t len, const struct sockaddr *src,
			 const struct sockaddr *dst)
{
	u8 *p = pdata;
	int ret;

	ret = pdcm_hdr_build(p, len, &pdcm_sdp_layout, src, dst);
	if (ret)
		return ret;
	p[SDP_MID_OFF] = SDP_MID_HELLO;
	p[SDP_VERSION_OFF] = SDP_MAJV_MINV;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_hello_build, PDCM_NS(PDCM));

static void pdcm_get_addr(struct sockaddr_storage *ss, int ver,
			  const u8 *field, __be16 port)
{
	memset(ss, 0, sizeof(*ss));
	if (ver == 4) {
		struct sockaddr_in *sin = (void *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = port;
		memcpy(&sin->sin_addr, field + IP4_IN_FIELD,
		       sizeof(sin->sin_addr));
	} else {
		struct sockaddr_in6 *sin6 = (void *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = port;
		memcpy(&sin6->sin6_addr, field, sizeof(sin6->sin6_addr));
	}
}

static int pdcm_hdr_parse(const u8 *p, size_t len,
			  const struct pdcm_hdr_layout *h, __be64 service_id,
			  struct sockaddr_storage *src,
			  struct sockaddr_storage *dst)
{
	__be16 sport;
	int ver;

	if (!p || len < h->size)
		return -EMSGSIZE;
	if ((p[h->ver_off] & h->ver_mask) != h->ver_val)
		return -EPROTO;
	ver = p[h->ipver_off] >> 4;
	if (ver != 4 && ver != 6)
		return -EAFNOSUPPORT;

	memcpy(&sport, p + h->port_off, sizeof(sport));
	if (src)
		pdcm_get_addr(src, ver, p + h->src_off, sport);
	if (dst)
		pdcm_get_addr(dst, ver, p + h->dst_off,
			      htons((u16)be64_to_cpu(service_id)));
	return 0;
}

/**
 * pdcm_cma_hdr_parse() - read the addresses out of an RDMA CM header
 * @pdata: private data of a received REQ or SIDR_REQ
 * @len: bytes at @pdata
 * @service_id: the request's service ID; its low 16 bits are the
 *	destination port
 * @src: if not NULL, gets the active side's address and port
 * @dst: if not NULL, gets the address the request was sent to and the
 *	port from @service_id
 *
 * @src and @dst become a struct sockaddr_in or sockaddr_in6 (zero scope
 * ID, zero flow info).
 *
 * Context: Any context.
 * Return: 0; -EMSGSIZE if @len < PDCM_CMA_HDR_SIZE; -EPROTO if
 * cma_version is not 0; -EAFNOSUPPORT if the IP version is not 4 or 6.
 */
int pdcm_cma_hdr_parse(const void *pdata, size_t len, __be64 service_id,
		       struct sockaddr_storage *src,
		       struct sockaddr_storage *dst)
{
	return pdcm_hdr_parse(pdata, len, &pdcm_cma_layout, service_id, src,
			      dst);
}
EXPORT_SYMBOL_NS_GPL(pdcm_cma_hdr_parse, PDCM_NS(PDCM));

/**
 * pdcm_sdp_hello_parse() - read the addresses out of an SDP Hello
 * @pdata: private data of a received REQ
 * @len: bytes at @pdata
 * @service_id: the request's service ID; its low 16 bits are the
 *	destination port
 * @src: if not NULL, gets the active side's address and port
 * @dst: if not NULL, gets the address the Hello was sent to
 *
 * Context: Any context.
 * Return: 0; -EMSGSIZE if @len < PDCM_SDP_HH_SIZE; -EPROTO if the message
 * is not a Hello or its major version is not 2; -EAFNOSUPPORT if the IP
 * version is not 4 or 6.
 */
int pdcm_sdp_hello_parse(const void *pdata, size_t len, __be64 service_id,
			 struct sockaddr_storage *src,
			 struct sockaddr_storage *dst)
{
	const u8 *p = pdata;

	if (p && len >= PDCM_SDP_HH_SIZE && p[SDP_MID_OFF] != SDP_MID_HELLO)
		return -EPROTO;
	return pdcm_hdr_parse(p, len, &pdcm_sdp_layout, service_id, src, dst);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_hello_parse, PDCM_NS(PDCM));
