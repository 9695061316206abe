/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CM wire codec: typed structs for every CM MAD (IBA Vol. 1 ch. 12)
 * and a pure, stateless encode/decode/validate between them and the
 * 256-byte MAD.  No locks, no allocation, callable from any context.
 *
 * Conventions of the typed structs:
 *  - every integer is host-endian, GUIDs, service IDs and the TID included
 *    (u64); the codec does all byte swapping;
 *  - an integer member's C type is the smallest of u8/u16/u32/u64 that
 *    holds the field's whole width (wire.c relies on it), and the value
 *    sits in the low bits: a 24-bit QPN in a u32, a 5-bit timeout in a u8,
 *    a one-bit flag as u8 0 or 1;
 *  - GIDs are union ib_gid, copied as the 16 bytes on the wire;
 *  - private data is an array of the message's full size plus a length:
 *    encode sends the first private_data_len bytes and zeroes the rest;
 *    decode always returns the whole area (the wire carries no length);
 *  - a REJ ARI, an APR additional info and a SIDR_REP additional info are
 *    sent for exactly their length field; the rest of the area is zero on
 *    the wire and in a decoded struct;
 *  - fields whose meaning swaps between the two sides (initiator depth and
 *    responder resources, the two CM response timeouts) are carried as the
 *    sender wrote them: the FSM swaps them, not the codec.
 *
 * Decode errors (pdcm_wire_decode), in the order they are checked:
 *   -EMSGSIZE         fewer than PDCM_MAD_SIZE bytes
 *   -EPROTO           base version is not 1
 *   -ENOMSG           management class is not 0x07 (CM)
 *   -EPROTONOSUPPORT  class version is not 2
 *   -EOPNOTSUPP       method is not Send (0x03)
 *   -EBADRQC          attribute ID is not a CM message (0x10..0x1A)
 *   -EOVERFLOW        a length field exceeds its area: REJ ARI length,
 *                     APR or SIDR_REP additional information length > 72
 *   -EPROTOTYPE       REQ transport service type 2 (reserved), or 3
 *                     (extended) with an extended transport type other
 *                     than 1 (XRC)
 *   -EBADMSG          a reserved value of an enumerated field: REQ path
 *                     MTU not 1..5, MRA "message MRAed" 3, REJ "message
 *                     rejected" 3, REP failover accepted 3, SIDR_REP
 *                     status > 5, APR status > 13
 * Encode (pdcm_wire_encode) refuses everything decode would refuse, and any
 * value wider than its field or any length longer than its area, always
 * with -EINVAL.
 */
#ifndef _PDCM_WIRE_H
#define _PDCM_WIRE_H

#include <linux/minmax.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/pdcm.h>

#define PDCM_MAD_SIZE		256	/* a whole CM MAD */
#define PDCM_MAD_HDR_SIZE	24	/* the common MAD header */
#define PDCM_MSG_AREA_SIZE	(PDCM_MAD_SIZE - PDCM_MAD_HDR_SIZE)

#define PDCM_BASE_VERSION	1
#define PDCM_MGMT_CLASS		0x07	/* IB_MGMT_CLASS_CM */
#define PDCM_METHOD_SEND	0x03	/* every CM message is a Send */

/* Attribute IDs, IBA Vol. 1 Table 105 */
enum pdcm_attr_id {
	PDCM_ATTR_REQ		= 0x0010,
	PDCM_ATTR_MRA		= 0x0011,
	PDCM_ATTR_REJ		= 0x0012,
	PDCM_ATTR_REP		= 0x0013,
	PDCM_ATTR_RTU		= 0x0014,
	PDCM_ATTR_DREQ		= 0x0015,
	PDCM_ATTR_DREP		= 0x0016,
	PDCM_ATTR_SIDR_REQ	= 0x0017,
	PDCM_ATTR_SIDR_REP	= 0x0018,
	PDCM_ATTR_LAP		= 0x0019,
	PDCM_ATTR_APR		= 0x001A,
	PDCM_ATTR_FIRST		= PDCM_ATTR_REQ,
	PDCM_ATTR_LAST		= PDCM_ATTR_APR,
};

/* Sizes of the byte areas of each message */
enum pdcm_area_size {
	PDCM_REQ_PDATA_SIZE		= 92,
	PDCM_MRA_PDATA_SIZE		= 222,
	PDCM_REJ_PDATA_SIZE		= 148,
	PDCM_REJ_ARI_SIZE		= 72,
	PDCM_REP_PDATA_SIZE		= 196,
	PDCM_RTU_PDATA_SIZE		= 224,
	PDCM_DREQ_PDATA_SIZE		= 220,
	PDCM_DREP_PDATA_SIZE		= 224,
	PDCM_SIDR_REQ_PDATA_SIZE	= 216,
	PDCM_SIDR_REP_PDATA_SIZE	= 136,
	PDCM_SIDR_REP_INFO_SIZE		= 72,
	PDCM_LAP_PDATA_SIZE		= 168,
	PDCM_APR_PDATA_SIZE		= 148,
	PDCM_APR_INFO_SIZE		= 72,
	PDCM_PDATA_MAX_SIZE		= 224,
};

/* REQ transport service type (2 is reserved) */
enum pdcm_transport {
	PDCM_TRANSPORT_RC	= 0,
	PDCM_TRANSPORT_UC	= 1,
	PDCM_TRANSPORT_EXT	= 3,	/* see ext_transport_type */
};

#define PDCM_EXT_TRANSPORT_XRC	1

/* MRA "message MRAed" and REJ "message rejected" (3 is reserved) */
enum pdcm_msg_response {
	PDCM_MSG_RESPONSE_REQ	= 0,
	PDCM_MSG_RESPONSE_REP	= 1,
	PDCM_MSG_RESPONSE_OTHER	= 2,	/* MRA: the LAP */
};

/* REP failover accepted (3 is reserved) */
enum pdcm_failover {
	PDCM_FAILOVER_ACCEPTED		= 0,
	PDCM_FAILOVER_NOT_SUPPORTED	= 1,
	PDCM_FAILOVER_REJECTED		= 2,
};

/*
 * REJ reasons are the values of enum ib_cm_rej_reason (<rdma/ib_cm.h>),
 * SIDR_REP status those of enum ib_cm_sidr_status (0..5) and APR status
 * those of enum ib_cm_apr_status (0..13).  The REJ reason is not validated:
 * unknown reasons are passed up.  The path MTU is an enum ib_mtu (1..5).
 */
#define PDCM_SIDR_STATUS_MAX	5
#define PDCM_APR_STATUS_MAX	13

/**
 * struct pdcm_mad_hdr - the common MAD header (IBA Vol. 1 13.4.3)
 * @base_version: must be PDCM_BASE_VERSION
 * @mgmt_class: must be PDCM_MGMT_CLASS
 * @class_version: must be PDCM_CLASS_VERSION
 * @method: must be PDCM_METHOD_SEND
 * @status: MAD status, passed through
 * @class_specific: passed through
 * @tid: transaction ID; its high 32 bits belong to the sending MAD agent
 * @attr_id: one of enum pdcm_attr_id; selects the union member
 * @attr_mod: attribute modifier (carries ECE in REQ and REP)
 */
struct pdcm_mad_hdr {
	u8 base_version;
	u8 mgmt_class;
	u8 class_version;
	u8 method;
	u16 status;
	u16 class_specific;
	u64 tid;
	u16 attr_id;
	u32 attr_mod;
};

/**
 * struct pdcm_path - the path information of a REQ or LAP
 * @local_lid: local port LID
 * @remote_lid: remote port LID
 * @local_gid: local port GID
 * @remote_gid: remote port GID
 * @flow_label: 20 bits
 * @packet_rate: 6 bits, an enum ib_rate
 * @traffic_class: traffic class
 * @hop_limit: hop limit
 * @sl: service level, 4 bits
 * @subnet_local: 1 bit
 * @local_ack_timeout: 5 bits
 */
struct pdcm_path {
	u16 local_lid;
	u16 remote_lid;
	union ib_gid local_gid;
	union ib_gid remote_gid;
	u32 flow_label;
	u8 packet_rate;
	u8 traffic_class;
	u8 hop_limit;
	u8 sl;
	u8 subnet_local;
	u8 local_ack_timeout;
};

/**
 * struct pdcm_req - REQ, Table 106
 * @local_comm_id: sender's communication ID
 * @vendor_id: 24 bits (ECE)
 * @service_id: service ID
 * @local_ca_guid: sender's CA GUID
 * @local_qkey: Q_Key
 * @local_qpn: 24 bits
 * @responder_resources: sender's responder resources
 * @local_eecn: 24 bits
 * @initiator_depth: sender's initiator depth
 * @remote_eecn: 24 bits
 * @remote_cm_response_timeout: 5 bits
 * @transport_type: 2 bits, enum pdcm_transport
 * @end_to_end_flow_control: 1 bit
 * @starting_psn: 24 bits
 * @local_cm_response_timeout: 5 bits
 * @retry_count: 3 bits
 * @pkey: partition key
 * @path_mtu: 4 bits, enum ib_mtu (1..5)
 * @rdc_exists: 1 bit
 * @rnr_retry_count: 3 bits
 * @max_cm_retries: 4 bits
 * @srq: 1 bit
 * @ext_transport_type: 3 bits, meaningful when @transport_type is 3
 * @primary_path: primary path
 * @alternate_path: alternate path (all zero when there is none)
 * @sap_supported: 1 bit
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_req {
	u32 local_comm_id;
	u32 vendor_id;
	u64 service_id;
	u64 local_ca_guid;
	u32 local_qkey;
	u32 local_qpn;
	u8 responder_resources;
	u8 initiator_depth;
	u32 local_eecn;
	u32 remote_eecn;
	u8 remote_cm_response_timeout;
	u8 transport_type;
	u8 end_to_end_flow_control;
	u32 starting_psn;
	u8 local_cm_response_timeout;
	u8 retry_count;
	u16 pkey;
	u8 path_mtu;
	u8 rdc_exists;
	u8 rnr_retry_count;
	u8 max_cm_retries;
	u8 srq;
	u8 ext_transport_type;
	struct pdcm_path primary_path;
	struct pdcm_path alternate_path;
	u8 sap_supported;
	u8 private_data_len;
	u8 private_data[PDCM_REQ_PDATA_SIZE];
};

/**
 * struct pdcm_mra - MRA, Table 107
 * @local_comm_id: sender's communication ID
 * @remote_comm_id: receiver's communication ID
 * @msg_mraed: 2 bits, enum pdcm_msg_response
 * @service_timeout: 5 bits
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_mra {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 msg_mraed;
	u8 service_timeout;
	u8 private_data_len;
	u8 private_data[PDCM_MRA_PDATA_SIZE];
};

/**
 * struct pdcm_rej - REJ, Table 108
 * @local_comm_id: sender's communication ID (0 if not yet assigned)
 * @remote_comm_id: receiver's communication ID
 * @msg_rejected: 2 bits, enum pdcm_msg_response
 * @ari_len: 7 bits, bytes of @ari (at most PDCM_REJ_ARI_SIZE)
 * @reason: enum ib_cm_rej_reason
 * @ari: additional rejection information
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_rej {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 msg_rejected;
	u8 ari_len;
	u16 reason;
	u8 ari[PDCM_REJ_ARI_SIZE];
	u8 private_data_len;
	u8 private_data[PDCM_REJ_PDATA_SIZE];
};

/**
 * struct pdcm_rep - REP, Table 110
 * @local_comm_id: sender's communication ID
 * @remote_comm_id: receiver's communication ID
 * @local_qkey: Q_Key
 * @local_qpn: 24 bits
 * @vendor_id: 24 bits (ECE), split in three bytes on the wire
 * @local_eecn: 24 bits (the XRC SRQ number for XRC)
 * @starting_psn: 24 bits
 * @responder_resources: sender's responder resources
 * @initiator_depth: sender's initiator depth
 * @target_ack_delay: 5 bits
 * @failover_accepted: 2 bits, enum pdcm_failover
 * @end_to_end_flow_control: 1 bit
 * @rnr_retry_count: 3 bits
 * @srq: 1 bit
 * @local_ca_guid: sender's CA GUID
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_rep {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 local_qkey;
	u32 local_qpn;
	u32 vendor_id;
	u32 local_eecn;
	u32 starting_psn;
	u8 responder_resources;
	u8 initiator_depth;
	u8 target_ack_delay;
	u8 failover_accepted;
	u8 end_to_end_flow_control;
	u8 rnr_retry_count;
	u8 srq;
	u64 local_ca_guid;
	u8 private_data_len;
	u8 private_data[PDCM_REP_PDATA_SIZE];
};

/**
 * struct pdcm_rtu - RTU, Table 111
 * @local_comm_id: sender's communication ID
 * @remote_comm_id: receiver's communication ID
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_rtu {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 private_data_len;
	u8 private_data[PDCM_RTU_PDATA_SIZE];
};

/**
 * struct pdcm_dreq - DREQ, Table 112
 * @local_comm_id: sender's communication ID
 * @remote_comm_id: receiver's communication ID
 * @remote_qpn_eecn: 24 bits
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_dreq {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 remote_qpn_eecn;
	u8 private_data_len;
	u8 private_data[PDCM_DREQ_PDATA_SIZE];
};

/**
 * struct pdcm_drep - DREP, Table 113
 * @local_comm_id: sender's communication ID
 * @remote_comm_id: receiver's communication ID
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_drep {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 private_data_len;
	u8 private_data[PDCM_DREP_PDATA_SIZE];
};

/**
 * struct pdcm_lap - LAP, Table 115
 * @local_comm_id: sender's communication ID
 * @remote_comm_id: receiver's communication ID
 * @remote_qpn_eecn: 24 bits
 * @remote_cm_response_timeout: 5 bits
 * @alternate_path: the proposed alternate path
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_lap {
	u32 local_comm_id;
	u32 remote_comm_id;
	u32 remote_qpn_eecn;
	u8 remote_cm_response_timeout;
	struct pdcm_path alternate_path;
	u8 private_data_len;
	u8 private_data[PDCM_LAP_PDATA_SIZE];
};

/**
 * struct pdcm_apr - APR, Table 116
 * @local_comm_id: sender's communication ID
 * @remote_comm_id: receiver's communication ID
 * @info_len: bytes of @info (at most PDCM_APR_INFO_SIZE)
 * @ap_status: enum ib_cm_apr_status (0..13)
 * @info: additional information
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_apr {
	u32 local_comm_id;
	u32 remote_comm_id;
	u8 info_len;
	u8 ap_status;
	u8 info[PDCM_APR_INFO_SIZE];
	u8 private_data_len;
	u8 private_data[PDCM_APR_PDATA_SIZE];
};

/**
 * struct pdcm_sidr_req - SIDR_REQ, Table 119
 * @request_id: sender's request ID
 * @pkey: partition key
 * @service_id: service ID
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_sidr_req {
	u32 request_id;
	u16 pkey;
	u64 service_id;
	u8 private_data_len;
	u8 private_data[PDCM_SIDR_REQ_PDATA_SIZE];
};

/**
 * struct pdcm_sidr_rep - SIDR_REP, Table 120
 * @request_id: the request ID of the SIDR_REQ answered
 * @status: enum ib_cm_sidr_status (0..5)
 * @info_len: bytes of @info (at most PDCM_SIDR_REP_INFO_SIZE)
 * @vendor_id: 24 bits (ECE), split on the wire
 * @qpn: 24 bits
 * @service_id: service ID
 * @qkey: Q_Key
 * @info: additional information
 * @private_data_len: bytes of @private_data to send
 * @private_data: private data
 */
struct pdcm_sidr_rep {
	u32 request_id;
	u8 status;
	u8 info_len;
	u32 vendor_id;
	u32 qpn;
	u64 service_id;
	u32 qkey;
	u8 info[PDCM_SIDR_REP_INFO_SIZE];
	u8 private_data_len;
	u8 private_data[PDCM_SIDR_REP_PDATA_SIZE];
};

/**
 * struct pdcm_msg - one decoded CM MAD
 * @hdr: the MAD header; @hdr.attr_id selects the union member
 * @req: REQ
 * @mra: MRA
 * @rej: REJ
 * @rep: REP
 * @rtu: RTU
 * @dreq: DREQ
 * @drep: DREP
 * @sidr_req: SIDR_REQ
 * @sidr_rep: SIDR_REP
 * @lap: LAP
 * @apr: APR
 */
struct pdcm_msg {
	struct pdcm_mad_hdr hdr;
	union {
		struct pdcm_req req;
		struct pdcm_mra mra;
		struct pdcm_rej rej;
		struct pdcm_rep rep;
		struct pdcm_rtu rtu;
		struct pdcm_dreq dreq;
		struct pdcm_drep drep;
		struct pdcm_sidr_req sidr_req;
		struct pdcm_sidr_rep sidr_rep;
		struct pdcm_lap lap;
		struct pdcm_apr apr;
	};
};

int pdcm_wire_decode(const void *mad, size_t len, struct pdcm_msg *out);
int pdcm_wire_encode(const struct pdcm_msg *msg, void *mad);
void pdcm_wire_init_hdr(struct pdcm_mad_hdr *hdr, u16 attr_id, u64 tid);
const char *pdcm_wire_attr_name(u16 attr_id);
unsigned int pdcm_wire_pdata_size(u16 attr_id);
u32 pdcm_wire_sender_id(const struct pdcm_msg *msg);
u32 pdcm_wire_receiver_id(const struct pdcm_msg *msg);

#if IS_ENABLED(CONFIG_KUNIT)
u64 pdcm_wire_get_bits(const u8 *buf, unsigned int pos, unsigned int width);
void pdcm_wire_set_bits(u8 *buf, unsigned int pos, unsigned int width,
			u64 val);
#endif

/**
 * pdcm_timeout_ms() - an IBA time value in milliseconds
 * @t: 5-bit exponent of 4.096 us * 2^@t (CM response, ACK, packet life)
 *
 * Approximated the way Linux ib_cm does: 2^(@t - 8) ms, at least 1 ms.
 *
 * Context: any.
 * Return: the timeout in milliseconds (1 .. 2^23).
 */
static inline unsigned int pdcm_timeout_ms(unsigned int t)
{
	t = min(t, 31U);
	return 1U << (t > 8 ? t - 8 : 0);
}

#endif /* _PDCM_WIRE_H */
