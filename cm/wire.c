// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CM wire codec.
 *
 * Every field of every CM message is declared exactly once, in the const
 * tables below, transcribed from the message tables of IBA Vol. 1 ch. 12:
 * a wire location (byte offset after the 24-byte MAD header, first bit in
 * the IBA "Byte[Bit]" notation where bit 0 is the most significant, width
 * in bits) and the struct member it maps to.  One generic walker encodes a
 * struct with a table and another decodes with the same table; nothing
 * else in the file knows an offset.  A few semantic checks (reserved
 * values) sit in a small function per message.
 *
 * The codec is pure: no state, no locks, no allocation.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "wire.h"

enum pdcm_field_kind {
	PDCM_FK_UINT,	/* unsigned integer, or one piece of a split one */
	PDCM_FK_BYTES,	/* byte string of fixed length (GID) */
	PDCM_FK_VAR,	/* byte string counted by a length field before it */
	PDCM_FK_PDATA,	/* private data: the length lives in the struct only */
	PDCM_FK_PATH,	/* a path, described by a table of its own */
};

struct pdcm_layout;

/*
 * struct pdcm_field - one field of a message table
 * @byte: byte offset in the area the table describes
 * @bit: FK_UINT: first bit within @byte, 0 = most significant
 * @bits: FK_UINT: width on the wire, 1..64, with @bit + @bits <= 64
 * @kind: enum pdcm_field_kind
 * @shift: FK_UINT: the piece holds member bits [@shift + @bits - 1:@shift]
 * @total: FK_UINT: width of the whole value when it is split, else 0
 * @size: byte strings: length in bytes
 * @member: offset of the member in the struct
 * @len_member: FK_VAR/FK_PDATA: offset of the u8 length member
 * @sub: FK_PATH: the path's own table
 *
 * An integer member's C type is the smallest of u8/u16/u32/u64 that holds
 * its whole width: that is how the walkers know its size.
 */
struct pdcm_field {
	u8 byte;
	u8 bit;
	u8 bits;
	u8 kind;
	u8 shift;
	u8 total;
	u8 size;
	u16 member;
	u16 len_member;
	const struct pdcm_layout *sub;
};

struct pdcm_layout {
	const struct pdcm_field *field;
	unsigned int count;
};

/* A table and its length (ARRAY_SIZE, spelled so @f appears once) */
#define PDCM_LAYOUT(f)	{ .field = (f), .count = sizeof(f) / sizeof((f)[0]) }

/* An integer field: PDCM_UINT(msg, byte, bit, width, member) */
#define PDCM_UINT(s, o, b, w, m)					\
	{								\
		.byte = (o), .bit = (b), .bits = (w),			\
		.kind = PDCM_FK_UINT,					\
		.member = offsetof(struct pdcm_##s, m),			\
	}

/* Bits [sh + w - 1:sh] of an integer of width @tw split over fields */
#define PDCM_PART(s, o, b, w, m, sh, tw)				\
	{								\
		.byte = (o), .bit = (b), .bits = (w),			\
		.kind = PDCM_FK_UINT, .shift = (sh), .total = (tw),	\
		.member = offsetof(struct pdcm_##s, m),			\
	}

/* A GID */
#define PDCM_GID(s, o, m)						\
	{								\
		.byte = (o), .kind = PDCM_FK_BYTES,			\
		.size = sizeof(union ib_gid),				\
		.member = offsetof(struct pdcm_##s, m),			\
	}

/* A byte string of at most @len bytes, as many as member @n says */
#define PDCM_VAR(s, o, len, m, n)					\
	{								\
		.byte = (o), .kind = PDCM_FK_VAR, .size = (len),	\
		.member = offsetof(struct pdcm_##s, m),			\
		.len_member = offsetof(struct pdcm_##s, n),		\
	}

/* The private data, which always runs to the end of the MAD */
#define PDCM_PDATA(s, o, len)						\
	{								\
		.byte = (o), .kind = PDCM_FK_PDATA, .size = (len),	\
		.member = offsetof(struct pdcm_##s, private_data),	\
		.len_member = offsetof(struct pdcm_##s, private_data_len), \
	}

/* A struct pdcm_path laid out by table @t */
#define PDCM_PATH(s, o, m, t)						\
	{								\
		.byte = (o), .kind = PDCM_FK_PATH, .sub = &(t),		\
		.member = offsetof(struct pdcm_##s, m),			\
	}

/* MAD common header, IBA Vol. 1 13.4.3 (offsets from the start of the MAD) */
static const struct pdcm_field pdcm_hdr_fields[] = {
	PDCM_UINT(mad_hdr,	 0, 0,  8, base_version),
	PDCM_UINT(mad_hdr,	 1, 0,  8, mgmt_class),
	PDCM_UINT(mad_hdr,	 2, 0,  8, class_version),
	PDCM_UINT(mad_hdr,	 3, 0,  8, method),
	PDCM_UINT(mad_hdr,	 4, 0, 16, status),
	PDCM_UINT(mad_hdr,	 6, 0, 16, class_specific),
	PDCM_UINT(mad_hdr,	 8, 0, 64, tid),
	PDCM_UINT(mad_hdr,	16, 0, 16, attr_id),
	PDCM_UINT(mad_hdr,	20, 0, 32, attr_mod),
};

/*
 * Table 106 REQ Message Contents, path rows.  Offsets are relative to the
 * path: the primary path starts at REQ byte 52, the alternate at byte 96.
 */
static const struct pdcm_field pdcm_req_path_fields[] = {
	PDCM_UINT(path,		 0, 0, 16, local_lid),
	PDCM_UINT(path,		 2, 0, 16, remote_lid),
	PDCM_GID(path,		 4,        local_gid),
	PDCM_GID(path,		20,        remote_gid),
	PDCM_UINT(path,		36, 0, 20, flow_label),
	PDCM_UINT(path,		39, 2,  6, packet_rate),
	PDCM_UINT(path,		40, 0,  8, traffic_class),
	PDCM_UINT(path,		41, 0,  8, hop_limit),
	PDCM_UINT(path,		42, 0,  4, sl),
	PDCM_UINT(path,		42, 4,  1, subnet_local),
	PDCM_UINT(path,		43, 0,  5, local_ack_timeout),
};

static const struct pdcm_layout pdcm_req_path = PDCM_LAYOUT(pdcm_req_path_fields);

/*
 * Table 115 LAP Message Contents, alternate path rows, relative to LAP
 * byte 20.  Same fields as a REQ path, but traffic class and hop limit
 * come before the packet rate.
 */
static const struct pdcm_field pdcm_lap_path_fields[] = {
	PDCM_UINT(path,		 0, 0, 16, local_lid),
	PDCM_UINT(path,		 2, 0, 16, remote_lid),
	PDCM_GID(path,		 4,        local_gid),
	PDCM_GID(path,		20,        remote_gid),
	PDCM_UINT(path,		36, 0, 20, flow_label),
	PDCM_UINT(path,		39, 0,  8, traffic_class),
	PDCM_UINT(path,		40, 0,  8, hop_limit),
	PDCM_UINT(path,		41, 2,  6, packet_rate),
	PDCM_UINT(path,		42, 0,  4, sl),
	PDCM_UINT(path,		42, 4,  1, subnet_local),
	PDCM_UINT(path,		43, 0,  5, local_ack_timeout),
};

static const struct pdcm_layout pdcm_lap_path = PDCM_LAYOUT(pdcm_lap_path_fields);

/* Table 106 REQ Message Contents */
static const struct pdcm_field pdcm_req_fields[] = {
	PDCM_UINT(req,		  0, 0, 32, local_comm_id),
	PDCM_UINT(req,		  5, 0, 24, vendor_id),
	PDCM_UINT(req,		  8, 0, 64, service_id),
	PDCM_UINT(req,		 16, 0, 64, local_ca_guid),
	PDCM_UINT(req,		 28, 0, 32, local_qkey),
	PDCM_UINT(req,		 32, 0, 24, local_qpn),
	PDCM_UINT(req,		 35, 0,  8, responder_resources),
	PDCM_UINT(req,		 36, 0, 24, local_eecn),
	PDCM_UINT(req,		 39, 0,  8, initiator_depth),
	PDCM_UINT(req,		 40, 0, 24, remote_eecn),
	PDCM_UINT(req,		 43, 0,  5, remote_cm_response_timeout),
	PDCM_UINT(req,		 43, 5,  2, transport_type),
	PDCM_UINT(req,		 43, 7,  1, end_to_end_flow_control),
	PDCM_UINT(req,		 44, 0, 24, starting_psn),
	PDCM_UINT(req,		 47, 0,  5, local_cm_response_timeout),
	PDCM_UINT(req,		 47, 5,  3, retry_count),
	PDCM_UINT(req,		 48, 0, 16, pkey),
	PDCM_UINT(req,		 50, 0,  4, path_mtu),
	PDCM_UINT(req,		 50, 4,  1, rdc_exists),
	PDCM_UINT(req,		 50, 5,  3, rnr_retry_count),
	PDCM_UINT(req,		 51, 0,  4, max_cm_retries),
	PDCM_UINT(req,		 51, 4,  1, srq),
	PDCM_UINT(req,		 51, 5,  3, ext_transport_type),
	PDCM_PATH(req,		 52, primary_path, pdcm_req_path),
	PDCM_PATH(req,		 96, alternate_path, pdcm_req_path),
	PDCM_UINT(req,		139, 5,  1, sap_supported),
	PDCM_PDATA(req,		140, PDCM_REQ_PDATA_SIZE),
};

/* Table 107 MRA Message Contents */
static const struct pdcm_field pdcm_mra_fields[] = {
	PDCM_UINT(mra,		  0, 0, 32, local_comm_id),
	PDCM_UINT(mra,		  4, 0, 32, remote_comm_id),
	PDCM_UINT(mra,		  8, 0,  2, msg_mraed),
	PDCM_UINT(mra,		  9, 0,  5, service_timeout),
	PDCM_PDATA(mra,		 10, PDCM_MRA_PDATA_SIZE),
};

/* Table 108 REJ Message Contents */
static const struct pdcm_field pdcm_rej_fields[] = {
	PDCM_UINT(rej,		  0, 0, 32, local_comm_id),
	PDCM_UINT(rej,		  4, 0, 32, remote_comm_id),
	PDCM_UINT(rej,		  8, 0,  2, msg_rejected),
	PDCM_UINT(rej,		  9, 0,  7, ari_len),
	PDCM_UINT(rej,		 10, 0, 16, reason),
	PDCM_VAR(rej,		 12, PDCM_REJ_ARI_SIZE, ari, ari_len),
	PDCM_PDATA(rej,		 84, PDCM_REJ_PDATA_SIZE),
};

/* Table 110 REP Message Contents */
static const struct pdcm_field pdcm_rep_fields[] = {
	PDCM_UINT(rep,		  0, 0, 32, local_comm_id),
	PDCM_UINT(rep,		  4, 0, 32, remote_comm_id),
	PDCM_UINT(rep,		  8, 0, 32, local_qkey),
	PDCM_UINT(rep,		 12, 0, 24, local_qpn),
	PDCM_PART(rep,		 15, 0,  8, vendor_id, 16, 24),
	PDCM_UINT(rep,		 16, 0, 24, local_eecn),
	PDCM_PART(rep,		 19, 0,  8, vendor_id,  8, 24),
	PDCM_UINT(rep,		 20, 0, 24, starting_psn),
	PDCM_PART(rep,		 23, 0,  8, vendor_id,  0, 24),
	PDCM_UINT(rep,		 24, 0,  8, responder_resources),
	PDCM_UINT(rep,		 25, 0,  8, initiator_depth),
	PDCM_UINT(rep,		 26, 0,  5, target_ack_delay),
	PDCM_UINT(rep,		 26, 5,  2, failover_accepted),
	PDCM_UINT(rep,		 26, 7,  1, end_to_end_flow_control),
	PDCM_UINT(rep,		 27, 0,  3, rnr_retry_count),
	PDCM_UINT(rep,		 27, 3,  1, srq),
	PDCM_UINT(rep,		 28, 0, 64, local_ca_guid),
	PDCM_PDATA(rep,		 36, PDCM_REP_PDATA_SIZE),
};

/* Table 111 RTU Message Contents */
static const struct pdcm_field pdcm_rtu_fields[] = {
	PDCM_UINT(rtu,		  0, 0, 32, local_comm_id),
	PDCM_UINT(rtu,		  4, 0, 32, remote_comm_id),
	PDCM_PDATA(rtu,		  8, PDCM_RTU_PDATA_SIZE),
};

/* Table 112 DREQ Message Contents */
static const struct pdcm_field pdcm_dreq_fields[] = {
	PDCM_UINT(dreq,		  0, 0, 32, local_comm_id),
	PDCM_UINT(dreq,		  4, 0, 32, remote_comm_id),
	PDCM_UINT(dreq,		  8, 0, 24, remote_qpn_eecn),
	PDCM_PDATA(dreq,	 12, PDCM_DREQ_PDATA_SIZE),
};

/* Table 113 DREP Message Contents */
static const struct pdcm_field pdcm_drep_fields[] = {
	PDCM_UINT(drep,		  0, 0, 32, local_comm_id),
	PDCM_UINT(drep,		  4, 0, 32, remote_comm_id),
	PDCM_PDATA(drep,	  8, PDCM_DREP_PDATA_SIZE),
};

/* Table 115 LAP Message Contents */
static const struct pdcm_field pdcm_lap_fields[] = {
	PDCM_UINT(lap,		  0, 0, 32, local_comm_id),
	PDCM_UINT(lap,		  4, 0, 32, remote_comm_id),
	PDCM_UINT(lap,		 12, 0, 24, remote_qpn_eecn),
	PDCM_UINT(lap,		 15, 0,  5, remote_cm_response_timeout),
	PDCM_PATH(lap,		 20, alternate_path, pdcm_lap_path),
	PDCM_PDATA(lap,		 64, PDCM_LAP_PDATA_SIZE),
};

/* Table 116 APR Message Contents */
static const struct pdcm_field pdcm_apr_fields[] = {
	PDCM_UINT(apr,		  0, 0, 32, local_comm_id),
	PDCM_UINT(apr,		  4, 0, 32, remote_comm_id),
	PDCM_UINT(apr,		  8, 0,  8, info_len),
	PDCM_UINT(apr,		  9, 0,  8, ap_status),
	PDCM_VAR(apr,		 12, PDCM_APR_INFO_SIZE, info, info_len),
	PDCM_PDATA(apr,		 84, PDCM_APR_PDATA_SIZE),
};

/* Table 119 SIDR_REQ Message Contents */
static const struct pdcm_field pdcm_sidr_req_fields[] = {
	PDCM_UINT(sidr_req,	  0, 0, 32, request_id),
	PDCM_UINT(sidr_req,	  4, 0, 16, pkey),
	PDCM_UINT(sidr_req,	  8, 0, 64, service_id),
	PDCM_PDATA(sidr_req,	 16, PDCM_SIDR_REQ_PDATA_SIZE),
};

/* Table 120 SIDR_REP Message Contents */
static const struct pdcm_field pdcm_sidr_rep_fields[] = {
	PDCM_UINT(sidr_rep,	  0, 0, 32, request_id),
	PDCM_UINT(sidr_rep,	  4, 0,  8, status),
	PDCM_UINT(sidr_rep,	  5, 0,  8, info_len),
	PDCM_PART(sidr_rep,	  6, 0, 16, vendor_id,  8, 24),
	PDCM_UINT(sidr_rep,	  8, 0, 24, qpn),
	PDCM_PART(sidr_rep,	 11, 0,  8, vendor_id,  0, 24),
	PDCM_UINT(sidr_rep,	 12, 0, 64, service_id),
	PDCM_UINT(sidr_rep,	 20, 0, 32, qkey),
	PDCM_VAR(sidr_rep,	 24, PDCM_SIDR_REP_INFO_SIZE, info, info_len),
	PDCM_PDATA(sidr_rep,	 96, PDCM_SIDR_REP_PDATA_SIZE),
};

/* Reserved values of enumerated fields; decode errnos (see wire.h) */
static int pdcm_req_check(const struct pdcm_msg *msg)
{
	const struct pdcm_req *req = &msg->req;

	if (req->transport_type == 2 ||
	    (req->transport_type == PDCM_TRANSPORT_EXT &&
	     req->ext_transport_type != PDCM_EXT_TRANSPORT_XRC))
		return -EPROTOTYPE;
	if (req->path_mtu < IB_MTU_256 || req->path_mtu > IB_MTU_4096)
		return -EBADMSG;
	return 0;
}

static int pdcm_mra_check(const struct pdcm_msg *msg)
{
	return msg->mra.msg_mraed > PDCM_MSG_RESPONSE_OTHER ? -EBADMSG : 0;
}

static int pdcm_rej_check(const struct pdcm_msg *msg)
{
	return msg->rej.msg_rejected > PDCM_MSG_RESPONSE_OTHER ? -EBADMSG : 0;
}

static int pdcm_rep_check(const struct pdcm_msg *msg)
{
	return msg->rep.failover_accepted > PDCM_FAILOVER_REJECTED ?
	       -EBADMSG : 0;
}

static int pdcm_sidr_rep_check(const struct pdcm_msg *msg)
{
	return msg->sidr_rep.status > PDCM_SIDR_STATUS_MAX ? -EBADMSG : 0;
}

static int pdcm_apr_check(const struct pdcm_msg *msg)
{
	return msg->apr.ap_status > PDCM_APR_STATUS_MAX ? -EBADMSG : 0;
}

/*
 * One CM message type: its name, its fields, its semantic check, and
 * where its decoded form keeps the two IDs that name a connection:
 * @sender_id the sender's own (its "Local Communication ID"; a SIDR_REQ's
 * Request ID) and @receiver_id ours as the sender knows it ("Remote
 * Communication ID"; a SIDR_REP's Request ID), each an offset into struct
 * pdcm_msg, 0 for a message that carries no such ID (the header is at 0).
 */
struct pdcm_msg_type {
	const char *name;
	struct pdcm_layout layout;
	int (*check)(const struct pdcm_msg *msg);
	u16 sender_id;
	u16 receiver_id;
};

#define PDCM_MSG_TYPE(attr, fields, chk, snd, rcv)			\
	[PDCM_ATTR_##attr - PDCM_ATTR_FIRST] = {			\
		.name = #attr, .layout = PDCM_LAYOUT(fields), .check = chk, \
		.sender_id = snd, .receiver_id = rcv,			\
	}
#define PDCM_ID(m, f)	offsetof(struct pdcm_msg, m.f)

static const struct pdcm_msg_type pdcm_msg_types[] = {
	PDCM_MSG_TYPE(REQ, pdcm_req_fields, pdcm_req_check,
		      PDCM_ID(req, local_comm_id), 0),
	PDCM_MSG_TYPE(MRA, pdcm_mra_fields, pdcm_mra_check,
		      PDCM_ID(mra, local_comm_id), PDCM_ID(mra, remote_comm_id)),
	PDCM_MSG_TYPE(REJ, pdcm_rej_fields, pdcm_rej_check,
		      PDCM_ID(rej, local_comm_id), PDCM_ID(rej, remote_comm_id)),
	PDCM_MSG_TYPE(REP, pdcm_rep_fields, pdcm_rep_check,
		      PDCM_ID(rep, local_comm_id), PDCM_ID(rep, remote_comm_id)),
	PDCM_MSG_TYPE(RTU, pdcm_rtu_fields, NULL,
		      PDCM_ID(rtu, local_comm_id), PDCM_ID(rtu, remote_comm_id)),
	PDCM_MSG_TYPE(DREQ, pdcm_dreq_fields, NULL,
		      PDCM_ID(dreq, local_comm_id), PDCM_ID(dreq, remote_comm_id)),
	PDCM_MSG_TYPE(DREP, pdcm_drep_fields, NULL,
		      PDCM_ID(drep, local_comm_id), PDCM_ID(drep, remote_comm_id)),
	PDCM_MSG_TYPE(SIDR_REQ, pdcm_sidr_req_fields, NULL,
		      PDCM_ID(sidr_req, request_id), 0),
	PDCM_MSG_TYPE(SIDR_REP, pdcm_sidr_rep_fields, pdcm_sidr_rep_check,
		      0, PDCM_ID(sidr_rep, request_id)),
	PDCM_MSG_TYPE(LAP, pdcm_lap_fields, NULL,
		      PDCM_ID(lap, local_comm_id), PDCM_ID(lap, remote_comm_id)),
	PDCM_MSG_TYPE(APR, pdcm_apr_fields, pdcm_apr_check,
		      PDCM_ID(apr, local_comm_id), PDCM_ID(apr, remote_comm_id)),
};

static const struct pdcm_layout pdcm_hdr_layout = PDCM_LAYOUT(pdcm_hdr_fields);

static const struct pdcm_msg_type *pdcm_msg_type(u16 attr_id)
{
	if (attr_id < PDCM_ATTR_FIRST || attr_id > PDCM_ATTR_LAST)
		return NULL;
	return &pdcm_msg_types[attr_id - PDCM_ATTR_FIRST];
}

/**
 * pdcm_wire_get_bits() - read a big-endian bit field
 * @buf: the bytes
 * @pos: first bit, counted from the most significant bit of @buf[0]
 * @width: width in bits, 1..64, with @pos % 8 + @width <= 64
 *
 * Context: any.
 * Return: the field's value.
 */
VISIBLE_IF_KUNIT u64 pdcm_wire_get_bits(const u8 *buf, unsigned int pos,
					unsigned int width)
{
	unsigned int span = pos % 8 + width;
	unsigned int nbytes = DIV_ROUND_UP(span, 8);
	const u8 *p = buf + pos / 8;
	u64 acc = 0;
	unsigned int i;

	for (i = 0; i < nbytes; i++)
		acc = acc << 8 | p[i];
	acc >>= nbytes * 8 - span;
	return width < 64 ? acc & GENMASK_ULL(width - 1, 0) : acc;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_get_bits);

/**
 * pdcm_wire_set_bits() - write a big-endian bit field
 * @buf: the bytes
 * @pos: first bit, counted from the most significant bit of @buf[0]
 * @width: width in bits, 1..64, with @pos % 8 + @width <= 64
 * @val: the value; bits above @width are ignored
 *
 * Bits of @buf outside the field are left as they are.
 *
 * Context: any.
 * Return: nothing.
 */
VISIBLE_IF_KUNIT void pdcm_wire_set_bits(u8 *buf, unsigned int pos,
					 unsigned int width, u64 val)
{
	unsigned int span = pos % 8 + width;
	unsigned int nbytes = DIV_ROUND_UP(span, 8);
	unsigned int low = nbytes * 8 - span;
	u64 mask = (width < 64 ? GENMASK_ULL(width - 1, 0) : ~0ULL) << low;
	u8 *p = buf + pos / 8;
	u64 acc = 0;
	unsigned int i;

	for (i = 0; i < nbytes; i++)
		acc = acc << 8 | p[i];
	acc = (acc & ~mask) | ((val << low) & mask);
	for (i = nbytes; i > 0; i--, acc >>= 8)
		p[i - 1] = acc & 0xff;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_set_bits);

/* Size of an integer member: the smallest type holding its whole width */
static unsigned int pdcm_int_size(const struct pdcm_field *f)
{
	unsigned int width = f->total ?: f->bits;

	return width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
}

static u64 pdcm_load(const void *p, unsigned int size)
{
	switch (size) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return *(const u16 *)p;
	case 4:
		return *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

static void pdcm_store(void *p, unsigned int size, u64 val)
{
	switch (size) {
	case 1:
		*(u8 *)p = val;
		break;
	case 2:
		*(u16 *)p = val;
		break;
	case 4:
		*(u32 *)p = val;
		break;
	default:
		*(u64 *)p = val;
		break;
	}
}

/*
 * Encode struct @s into @wire (zeroed by the caller) following @l.  The
 * range of a split integer is checked on its most significant piece.
 */
static int pdcm_put(const struct pdcm_layout *l, u8 *wire, const void *s)
{
	unsigned int i, len;
	int ret;

	for (i = 0; i < l->count; i++) {
		const struct pdcm_field *f = &l->field[i];
		const void *m = s + f->member;
		bool top = !f->total || f->shift + f->bits == f->total;
		u64 v;

		switch (f->kind) {
		case PDCM_FK_UINT:
			v = pdcm_load(m, pdcm_int_size(f)) >> f->shift;
			if (top && f->bits < 64 && v >> f->bits)
				return -EINVAL;
			pdcm_wire_set_bits(wire, f->byte * 8 + f->bit, f->bits, v);
			break;
		case PDCM_FK_BYTES:
			memcpy(wire + f->byte, m, f->size);
			break;
		case PDCM_FK_VAR:
		case PDCM_FK_PDATA:
			len = *(const u8 *)(s + f->len_member);
			if (len > f->size)
				return -EINVAL;
			memcpy(wire + f->byte, m, len);
			break;
		case PDCM_FK_PATH:
			ret = pdcm_put(f->sub, wire + f->byte, m);
			if (ret)
				return ret;
			break;
		}
	}
	return 0;
}

/* Decode @wire into struct @s (zeroed by the caller) following @l */
static int pdcm_get(const struct pdcm_layout *l, const u8 *wire, void *s)
{
	unsigned int i, len, size;
	int ret;

	for (i = 0; i < l->count; i++) {
		const struct pdcm_field *f = &l->field[i];
		void *m = s + f->member;
		u64 v;

		switch (f->kind) {
		case PDCM_FK_UINT:
			size = pdcm_int_size(f);
			v = pdcm_wire_get_bits(wire, f->byte * 8 + f->bit, f->bits);
			pdcm_store(m, size, pdcm_load(m, size) | v << f->shift);
			break;
		case PDCM_FK_BYTES:
			memcpy(m, wire + f->byte, f->size);
			break;
		case PDCM_FK_VAR:
			/* the length field precedes the bytes in every table */
			len = *(const u8 *)(s + f->len_member);
			if (len > f->size)
				return -EOVERFLOW;
			memcpy(m, wire + f->byte, len);
			break;
		case PDCM_FK_PDATA:
			memcpy(m, wire + f->byte, f->size);
			*(u8 *)(s + f->len_member) = f->size;
			break;
		case PDCM_FK_PATH:
			ret = pdcm_get(f->sub, wire + f->byte, m);
			if (ret)
				return ret;
			break;
		}
	}
	return 0;
}

/* The header checks of decode, in their documented order */
static int pdcm_check_hdr(const struct pdcm_mad_hdr *hdr)
{
	if (hdr->base_version != PDCM_BASE_VERSION)
		return -EPROTO;
	if (hdr->mgmt_class != PDCM_MGMT_CLASS)
		return -ENOMSG;
	if (hdr->class_version != PDCM_CLASS_VERSION)
		return -EPROTONOSUPPORT;
	if (hdr->method != PDCM_METHOD_SEND)
		return -EOPNOTSUPP;
	if (!pdcm_msg_type(hdr->attr_id))
		return -EBADRQC;
	return 0;
}

/**
 * pdcm_wire_decode() - decode and validate a received CM MAD
 * @mad: the MAD as received, starting with the MAD header
 * @len: bytes available at @mad; bytes past PDCM_MAD_SIZE are ignored
 * @out: the decoded message; @out->hdr.attr_id selects the union member
 *
 * Reserved bits are ignored.  See wire.h for the meaning of each errno.
 *
 * Context: any; does not sleep.
 * Return: 0, or -EMSGSIZE, -EPROTO, -ENOMSG, -EPROTONOSUPPORT, -EOPNOTSUPP,
 * -EBADRQC, -EOVERFLOW, -EPROTOTYPE or -EBADMSG, in which case @out is
 * zeroed.
 */
int pdcm_wire_decode(const void *mad, size_t len, struct pdcm_msg *out)
{
	const struct pdcm_msg_type *type;
	int ret;

	memset(out, 0, sizeof(*out));
	if (len < PDCM_MAD_SIZE)
		return -EMSGSIZE;

	ret = pdcm_get(&pdcm_hdr_layout, mad, &out->hdr);
	if (!ret)
		ret = pdcm_check_hdr(&out->hdr);
	if (!ret) {
		type = pdcm_msg_type(out->hdr.attr_id);
		/* every union member starts at &out->req */
		ret = pdcm_get(&type->layout, mad + PDCM_MAD_HDR_SIZE, &out->req);
		if (!ret && type->check)
			ret = type->check(out);
	}
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_decode);

/**
 * pdcm_wire_encode() - encode a CM message into a MAD
 * @msg: the message; @msg->hdr.attr_id selects the union member, and the
 *	header must be one pdcm_wire_decode() accepts (pdcm_wire_init_hdr())
 * @mad: PDCM_MAD_SIZE bytes to fill, header included
 *
 * Reserved bits and areas are written as zero, and so are the bytes of a
 * private data, ARI or additional information area past its length.
 * Whatever encode accepts, decode accepts and gives back.
 *
 * Context: any; does not sleep.
 * Return: 0, or -EINVAL if the header is not a CM Send header, a value does
 * not fit its field, a length exceeds its area, or a field holds a value
 * that decode would refuse; @mad is then all zero.
 */
int pdcm_wire_encode(const struct pdcm_msg *msg, void *mad)
{
	const struct pdcm_msg_type *type;
	int ret;

	memset(mad, 0, PDCM_MAD_SIZE);
	if (pdcm_check_hdr(&msg->hdr))
		return -EINVAL;
	type = pdcm_msg_type(msg->hdr.attr_id);
	if (type->check && type->check(msg))
		return -EINVAL;

	ret = pdcm_put(&pdcm_hdr_layout, mad, &msg->hdr);
	if (!ret)
		ret = pdcm_put(&type->layout, mad + PDCM_MAD_HDR_SIZE, &msg->req);
	if (ret)
		memset(mad, 0, PDCM_MAD_SIZE);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_encode);

/**
 * pdcm_wire_init_hdr() - fill a MAD header for sending a CM message
 * @hdr: the header; every other field is zeroed
 * @attr_id: enum pdcm_attr_id of the message
 * @tid: transaction ID (a response echoes the request's)
 *
 * Context: any.
 * Return: nothing.
 */
void pdcm_wire_init_hdr(struct pdcm_mad_hdr *hdr, u16 attr_id, u64 tid)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->base_version = PDCM_BASE_VERSION;
	hdr->mgmt_class = PDCM_MGMT_CLASS;
	hdr->class_version = PDCM_CLASS_VERSION;
	hdr->method = PDCM_METHOD_SEND;
	hdr->attr_id = attr_id;
	hdr->tid = tid;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_init_hdr);

/**
 * pdcm_wire_attr_name() - name of a CM attribute, for logs and traces
 * @attr_id: attribute ID
 *
 * Context: any.
 * Return: "REQ", "MRA", ..., "APR", or "UNKNOWN"; never NULL.
 */
const char *pdcm_wire_attr_name(u16 attr_id)
{
	const struct pdcm_msg_type *type = pdcm_msg_type(attr_id);

	return type ? type->name : "UNKNOWN";
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_attr_name);

static u32 pdcm_msg_id_at(const struct pdcm_msg *msg, u16 off)
{
	return off ? *(const u32 *)((const u8 *)msg + off) : 0;
}

/**
 * pdcm_wire_sender_id() - the sender's own ID in a decoded CM message
 * @msg: a message pdcm_wire_decode() filled (or one being built)
 *
 * Context: any.
 * Return: the Local Communication ID of a REQ, MRA, REJ, REP, RTU, DREQ,
 * DREP, LAP or APR, a SIDR_REQ's Request ID, or 0 for a message that
 * carries none (SIDR_REP, not a CM message).
 */
u32 pdcm_wire_sender_id(const struct pdcm_msg *msg)
{
	const struct pdcm_msg_type *type = pdcm_msg_type(msg->hdr.attr_id);

	return type ? pdcm_msg_id_at(msg, type->sender_id) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_sender_id);

/**
 * pdcm_wire_receiver_id() - the receiver's ID in a decoded CM message
 * @msg: a message pdcm_wire_decode() filled (or one being built)
 *
 * Context: any.
 * Return: the Remote Communication ID of an MRA, REJ, REP, RTU, DREQ,
 * DREP, LAP or APR (0 in an MRA or REJ of a REQ), a SIDR_REP's Request
 * ID, or 0 for a message that carries none (REQ, SIDR_REQ, not a CM
 * message).
 */
u32 pdcm_wire_receiver_id(const struct pdcm_msg *msg)
{
	const struct pdcm_msg_type *type = pdcm_msg_type(msg->hdr.attr_id);

	return type ? pdcm_msg_id_at(msg, type->receiver_id) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_receiver_id);

/**
 * pdcm_wire_pdata_size() - private data capacity of a CM message
 * @attr_id: attribute ID
 *
 * Context: any.
 * Return: the size of the message's private data area in bytes, or 0 for
 * an attribute that is not a CM message.
 */
unsigned int pdcm_wire_pdata_size(u16 attr_id)
{
	const struct pdcm_msg_type *type = pdcm_msg_type(attr_id);
	unsigned int i;

	for (i = 0; type && i < type->layout.count; i++)
		if (type->layout.field[i].kind == PDCM_FK_PDATA)
			return type->layout.field[i].size;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_wire_pdata_size);
