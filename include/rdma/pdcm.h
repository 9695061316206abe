/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm: an InfiniBand Connection Manager (IBA Vol. 1 ch. 12) whose listen
 * table demultiplexes REQs on (service ID, private-data mask/compare).
 *
 * This header is the whole public API.  It is modeled on <rdma/ib_cm.h>:
 * a ULP written against ib_cm ports by renaming ib_cm_* to pdcm_*.
 * Every symbol is exported in the PDCM namespace; users must say
 * MODULE_IMPORT_NS(PDCM_NS(PDCM)) (<rdma/pdcm_ns.h>: the namespace's
 * spelling differs before and after 6.13).
 */
#ifndef _RDMA_PDCM_H
#define _RDMA_PDCM_H

#include <linux/types.h>
#include <linux/socket.h>
#include <asm/byteorder.h>
#include <rdma/pdcm_ns.h>

/* CM MAD class version implemented (IBA 1.2; private to ib_cm in-tree). */
#define PDCM_CLASS_VERSION	2

/* ---------------------------------------------------------------------
 * Listen: service ID + private-data compare
 *
 * A listen matches a REQ (or SIDR_REQ) on its scope (the cm_id's device,
 * a port), its service ID under a service mask, and a mask/value compare
 * over the first PDCM_COMPARE_SIZE bytes of the request's private data.
 * Several listens may share a service ID; each request goes to the most
 * specific listen that matches it (Documentation/listen-matching.rst).
 */

/* REQ private data is 92 bytes; SIDR_REQ is matched on its first 92. */
#define PDCM_COMPARE_SIZE	92

/*
 * Pass PDCM_ASSIGN_SERVICE_ID as the service ID and the CM picks an unused
 * one inside the range it reserves for itself (the same range as ib_cm's
 * IB_CM_ASSIGN_SERVICE_ID); an explicit listen reaching into that range is
 * refused with -EINVAL.
 */
#define PDCM_ASSIGN_SERVICE_ID		cpu_to_be64(0x0200000000000000ULL)
#define PDCM_ASSIGN_SERVICE_MASK	cpu_to_be64(0xFF00000000000000ULL)

/* Backlog used when a listen has no group and asks for 0. */
#define PDCM_BACKLOG_DEFAULT	1024

/**
 * struct pdcm_compare - private-data discriminator of a listen
 * @data: value the masked private data must equal; bits outside @mask
 *	must be zero
 * @mask: the private-data bits the listen looks at; all zero is a
 *	wildcard
 */
struct pdcm_compare {
	u8 data[PDCM_COMPARE_SIZE];
	u8 mask[PDCM_COMPARE_SIZE];
};

/**
 * enum pdcm_listen_flags - options of a listen
 * @PDCM_LISTEN_REJ_ON_OVERFLOW: answer a request that finds the backlog
 *	full with REJ (NO_RESOURCES) instead of dropping it silently for the
 *	peer to retry
 */
enum pdcm_listen_flags {
	PDCM_LISTEN_REJ_ON_OVERFLOW	= 1U << 0,
};

struct pdcm_backlog;

/**
 * struct pdcm_listen_attr - what a listen matches and how it queues
 * @service_id: service ID (network order), or PDCM_ASSIGN_SERVICE_ID
 * @service_mask: bits of the request's service ID compared with
 *	@service_id; 0 means all ones (exact match), as in ib_cm
 * @compare: private-data discriminator, or NULL for none (wildcard)
 * @port: port number the listen is limited to, or 0 for any port
 * @backlog: most requests delivered and not yet answered with REP or REJ;
 *	0 selects the module parameter default_backlog
 *	(PDCM_BACKLOG_DEFAULT unless set).  Must be 0 with @backlog_group.
 * @backlog_group: a shared backlog (pdcm_backlog_create()) whose limit
 *	covers this listen and every other listen in the group, or NULL
 * @flags: enum pdcm_listen_flags
 *
 * The device scope comes from the cm_id: a cm_id created without a device
 * listens on every device.
 */
struct pdcm_listen_attr {
	__be64 service_id;
	__be64 service_mask;
	const struct pdcm_compare *compare;
	u32 port;
	u32 backlog;
	struct pdcm_backlog *backlog_group;
	u32 flags;
};

struct pdcm_backlog *pdcm_backlog_create(unsigned int limit);
void pdcm_backlog_put(struct pdcm_backlog *group);

/* ---------------------------------------------------------------------
 * Discriminators: the RDMA CM header and the SDP Hello
 *
 * Compare builders fill only the bytes of their header (RDMA CM 0..35,
 * SDP 16..63) in both data and mask and leave the rest alone, so a caller
 * can add its own discriminator after the header.  Header builders write
 * what an active side sends; parsers take the private data of a received
 * REQ or SIDR_REQ.
 */

#define PDCM_CMA_HDR_SIZE	36	/* struct cma_hdr */
#define PDCM_SDP_HH_SIZE	64	/* SDP BSDH + Hello up to dst_addr */

int pdcm_compare_add(struct pdcm_compare *cmp, unsigned int offset,
		     const void *data, const void *mask, unsigned int len);

int pdcm_compare_cma_family(struct pdcm_compare *cmp, sa_family_t family);
int pdcm_compare_cma_addr(struct pdcm_compare *cmp,
			  const struct sockaddr *dst);
int pdcm_compare_cma_addrs(struct pdcm_compare *cmp,
			   const struct sockaddr *src,
			   const struct sockaddr *dst);
int pdcm_compare_sdp_family(struct pdcm_compare *cmp, sa_family_t family);
int pdcm_compare_sdp_addr(struct pdcm_compare *cmp,
			  const struct sockaddr *dst);

int pdcm_cma_hdr_build(void *pdata, size_t len, const struct sockaddr *src,
		       const struct sockaddr *dst);
int pdcm_cma_hdr_parse(const void *pdata, size_t len, __be64 service_id,
		       struct sockaddr_storage *src,
		       struct sockaddr_storage *dst);
int pdcm_sdp_hello_build(void *pdata, size_t len, const struct sockaddr *src,
			 const struct sockaddr *dst);
int pdcm_sdp_hello_parse(const void *pdata, size_t len, __be64 service_id,
			 struct sockaddr_storage *src,
			 struct sockaddr_storage *dst);

/* ---------------------------------------------------------------------
 * Connection Manager ids, events and calls (modeled on <rdma/ib_cm.h>)
 */
#include <rdma/ib_verbs.h>
#include <rdma/ib_sa.h>

/**
 * enum pdcm_state - state of a pdcm_id (IBA Vol. 1 12.9, ib_cm's names)
 * @PDCM_IDLE: not connected, not listening
 * @PDCM_LISTEN: listening (pdcm_listen())
 * @PDCM_REQ_SENT: active side, REQ sent, waiting for REP
 * @PDCM_REQ_RCVD: passive side, REQ delivered, waiting for the ULP
 * @PDCM_MRA_REQ_SENT: passive side, MRA sent for the REQ
 * @PDCM_MRA_REQ_RCVD: active side, the peer sent MRA for our REQ
 * @PDCM_REP_SENT: passive side, REP sent, waiting for RTU
 * @PDCM_REP_RCVD: active side, REP delivered, waiting for the ULP's RTU
 * @PDCM_MRA_REP_SENT: active side, MRA sent for the REP
 * @PDCM_MRA_REP_RCVD: passive side, the peer sent MRA for our REP
 * @PDCM_ESTABLISHED: connected
 * @PDCM_DREQ_SENT: DREQ sent, waiting for DREP
 * @PDCM_DREQ_RCVD: DREQ delivered, waiting for the ULP's DREP
 * @PDCM_TIMEWAIT: disconnected, the QP's messages may still be in flight
 * @PDCM_SIDR_REQ_SENT: SIDR_REQ sent, waiting for SIDR_REP
 * @PDCM_SIDR_REQ_RCVD: SIDR_REQ delivered, waiting for the ULP's SIDR_REP
 * @PDCM_NUM_STATES: number of states (not a state)
 */
enum pdcm_state {
	PDCM_IDLE,
	PDCM_LISTEN,
	PDCM_REQ_SENT,
	PDCM_REQ_RCVD,
	PDCM_MRA_REQ_SENT,
	PDCM_MRA_REQ_RCVD,
	PDCM_REP_SENT,
	PDCM_REP_RCVD,
	PDCM_MRA_REP_SENT,
	PDCM_MRA_REP_RCVD,
	PDCM_ESTABLISHED,
	PDCM_DREQ_SENT,
	PDCM_DREQ_RCVD,
	PDCM_TIMEWAIT,
	PDCM_SIDR_REQ_SENT,
	PDCM_SIDR_REQ_RCVD,
	PDCM_NUM_STATES
};

/**
 * enum pdcm_event_type - what a handler is told
 * @PDCM_REQ_ERROR: our REQ was not answered after all retries
 * @PDCM_REQ_RECEIVED: a REQ matched a listen; delivered on a new id
 * @PDCM_REP_ERROR: our REP was not answered after all retries
 * @PDCM_REP_RECEIVED: the passive side accepted
 * @PDCM_RTU_RECEIVED: the connection is established (passive side)
 * @PDCM_USER_ESTABLISHED: pdcm_notify(IB_EVENT_COMM_EST) established it
 * @PDCM_DREQ_ERROR: our DREQ was not answered after all retries
 * @PDCM_DREQ_RECEIVED: the peer disconnects; answer with pdcm_send_drep()
 * @PDCM_DREP_RECEIVED: the peer answered our DREQ
 * @PDCM_TIMEWAIT_EXIT: timewait is over; the id is back in IDLE
 * @PDCM_MRA_RECEIVED: the peer needs more time
 * @PDCM_REJ_RECEIVED: the peer rejected (or timed out) the connection
 * @PDCM_SIDR_REQ_ERROR: our SIDR_REQ was not answered after all retries
 * @PDCM_SIDR_REQ_RECEIVED: a SIDR_REQ matched a listen; new id
 * @PDCM_SIDR_REP_RECEIVED: the answer to our SIDR_REQ
 * @PDCM_SEND_ERROR: reserved for a MAD that fails outside an exchange;
 *	pdcm does not raise it today: a retried REQ, REP, DREQ or SIDR_REQ
 *	that fails comes as its own *_ERROR event with @send_status, and a
 *	send that cannot be posted fails the pdcm_send_*() call itself
 * @PDCM_LAP_RECEIVED: InfiniBand: the peer proposes a new alternate path
 *	for an established connection (LAP); pdcm_init_qp_attr() for
 *	IB_QPS_RTS then gives it (IB_QP_ALT_PATH).  No APR answers it, as
 *	in ib_cm, which has had no call to send one since Linux 5.x;
 *	pdcm_send_mra() asks the peer for more time.
 * @PDCM_NUM_EVENTS: number of event types (not an event)
 */
enum pdcm_event_type {
	PDCM_REQ_ERROR,
	PDCM_REQ_RECEIVED,
	PDCM_REP_ERROR,
	PDCM_REP_RECEIVED,
	PDCM_RTU_RECEIVED,
	PDCM_USER_ESTABLISHED,
	PDCM_DREQ_ERROR,
	PDCM_DREQ_RECEIVED,
	PDCM_DREP_RECEIVED,
	PDCM_TIMEWAIT_EXIT,
	PDCM_MRA_RECEIVED,
	PDCM_REJ_RECEIVED,
	PDCM_SIDR_REQ_ERROR,
	PDCM_SIDR_REQ_RECEIVED,
	PDCM_SIDR_REP_RECEIVED,
	PDCM_SEND_ERROR,
	PDCM_LAP_RECEIVED,
	PDCM_NUM_EVENTS
};

/**
 * enum pdcm_lap_state - where an id is in alternate path loading (LAP),
 *	with ib_cm_lap_state's values
 * @PDCM_LAP_UNINIT: no path migration and no LAP yet
 * @PDCM_LAP_IDLE: after a path migration (pdcm_notify(IB_EVENT_PATH_MIG))
 * @PDCM_LAP_RCVD: a LAP was delivered (PDCM_LAP_RECEIVED)
 * @PDCM_MRA_LAP_SENT: ... and pdcm_send_mra() answered it
 *
 * pdcm sends no LAP (nor does ib_cm since Linux 5.x), so ib_cm's
 * IB_CM_LAP_SENT (2) and IB_CM_MRA_LAP_RCVD (5) are never entered.
 */
enum pdcm_lap_state {
	PDCM_LAP_UNINIT		= 0,
	PDCM_LAP_IDLE		= 1,
	PDCM_LAP_RCVD		= 3,
	PDCM_MRA_LAP_SENT	= 4,
};

/* REJ reasons, IBA Vol. 1 Table 112 (the values of ib_cm_rej_reason). */
enum pdcm_rej_reason {
	PDCM_REJ_NO_QP			= 1,
	PDCM_REJ_NO_RESOURCES		= 3,
	PDCM_REJ_TIMEOUT		= 4,
	PDCM_REJ_UNSUPPORTED		= 5,
	PDCM_REJ_INVALID_COMM_ID	= 6,
	PDCM_REJ_INVALID_COMM_INSTANCE	= 7,
	PDCM_REJ_INVALID_SERVICE_ID	= 8,
	PDCM_REJ_INVALID_TRANSPORT_TYPE	= 9,
	PDCM_REJ_STALE_CONN		= 10,
	PDCM_REJ_INVALID_GID		= 12,
	PDCM_REJ_INVALID_ALT_GID	= 18,
	PDCM_REJ_INVALID_MTU		= 26,
	PDCM_REJ_CONSUMER_DEFINED	= 28,
	PDCM_REJ_INVALID_CLASS_VERSION	= 31,
};

/* SIDR_REP status, IBA Vol. 1 Table 117. */
enum pdcm_sidr_status {
	PDCM_SIDR_SUCCESS,
	PDCM_SIDR_UNSUPPORTED,
	PDCM_SIDR_REJECT,
	PDCM_SIDR_NO_QP,
	PDCM_SIDR_REDIRECT,
	PDCM_SIDR_UNSUPPORTED_VERSION,
};

/**
 * enum pdcm_addr_kind - which header was found in a request's private data
 * @PDCM_ADDR_NONE: neither parsed (or the listen asked for neither)
 * @PDCM_ADDR_CMA: an RDMA CM header (rdma_cm peers)
 * @PDCM_ADDR_SDP: an SDP Hello
 */
enum pdcm_addr_kind {
	PDCM_ADDR_NONE,
	PDCM_ADDR_CMA,
	PDCM_ADDR_SDP,
};

/**
 * struct pdcm_addr_info - addresses carried in a request's private data
 * @kind: which header they came from
 * @src: the active side's address and port
 * @dst: the address the active side connected to (ours), with the port
 *	taken from the service ID
 */
struct pdcm_addr_info {
	enum pdcm_addr_kind kind;
	struct sockaddr_storage src;
	struct sockaddr_storage dst;
};

struct pdcm_id;

/**
 * struct pdcm_ece - enhanced connection establishment (ECE) options
 * @vendor_id: whose options they are: 24 bits (an IEEE OUI) in REQ and
 *	REP, the low 16 in SIDR_REP, as ib_cm sends them; 0: none
 * @attr_mod: the options, carried in the MAD header's attribute modifier
 *
 * pdcm carries them and does not read them: what they mean is between
 * the two ends' ULPs (rdma_cm's rdma_set_local_ece()).
 */
struct pdcm_ece {
	u32 vendor_id;
	u32 attr_mod;
};

/**
 * struct pdcm_req_event_param - a REQ, in the receiver's terms
 * @listen_id: the listen that matched (most specific)
 * @listen_context: @listen_id's context at the time of the match
 * @port: port the REQ arrived on
 * @primary_path: path from the receiver's point of view (reversed)
 * @remote_ca_guid: the active side's CA GUID
 * @remote_qkey: Q_Key of the active side (UC/RD only)
 * @remote_qpn: the active side's QPN
 * @qp_type: IB_QPT_RC, IB_QPT_UC or IB_QPT_XRC_TGT
 * @starting_psn: the PSN the active side receives from; ours to send
 *	from (RTS's sq_psn from pdcm_init_qp_attr())
 * @responder_resources: what the receiver may grant as responder: the
 *	REQ's initiator depth (the swap is done once, in pdcm)
 * @initiator_depth: the REQ's responder resources
 * @alternate_path: InfiniBand: the alternate path from the receiver's
 *	point of view, or NULL when the REQ has none (its alternate local
 *	port LID is 0, as ib_cm reads it); pdcm_init_qp_attr() gives it to
 *	the QP (IB_QP_ALT_PATH in RTR, IB_MIG_REARM in RTS)
 * @local_cm_response_timeout: how long the receiver may take (the REQ's
 *	remote CM response timeout)
 * @remote_cm_response_timeout: the active side's (the REQ's local)
 * @flow_control: end-to-end flow control
 * @retry_count: transport retry count
 * @rnr_retry_count: RNR retry count
 * @srq: the active side uses an SRQ
 * @addr: addresses from the RDMA CM header or SDP Hello, if any
 * @sgid_attr: RoCE: the GID entry of ours the REQ was sent to (valid
 *	during the call), or NULL
 * @bth_pkey: the P_Key of the MAD's BTH (the receive P_Key index's entry)
 * @ece: the REQ's ECE options
 */
struct pdcm_req_event_param {
	struct pdcm_id *listen_id;
	void *listen_context;
	u32 port;
	struct sa_path_rec *primary_path;
	struct sa_path_rec *alternate_path;
	__be64 remote_ca_guid;
	u32 remote_qkey;
	u32 remote_qpn;
	enum ib_qp_type qp_type;
	u32 starting_psn;
	u8 responder_resources;
	u8 initiator_depth;
	u8 local_cm_response_timeout;
	u8 remote_cm_response_timeout;
	u8 flow_control;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 srq;
	struct pdcm_addr_info addr;
	const struct ib_gid_attr *sgid_attr;
	u16 bth_pkey;
	struct pdcm_ece ece;
};

/**
 * struct pdcm_rep_event_param - a REP, in the receiver's terms
 * @remote_ca_guid: the passive side's CA GUID
 * @remote_qkey: its Q_Key
 * @remote_qpn: its QPN
 * @starting_psn: the PSN the passive side receives from; ours to send
 *	from
 * @responder_resources: the REP's initiator depth (swapped)
 * @initiator_depth: the REP's responder resources (swapped)
 * @target_ack_delay: the passive side's target ACK delay
 * @failover_accepted: 0 accepted, 1 not supported, 2 rejected
 * @flow_control: end-to-end flow control
 * @rnr_retry_count: RNR retry count
 * @srq: the passive side uses an SRQ
 * @ece: the REP's ECE options
 */
struct pdcm_rep_event_param {
	__be64 remote_ca_guid;
	u32 remote_qkey;
	u32 remote_qpn;
	u32 starting_psn;
	u8 responder_resources;
	u8 initiator_depth;
	u8 target_ack_delay;
	u8 failover_accepted;
	u8 flow_control;
	u8 rnr_retry_count;
	u8 srq;
	struct pdcm_ece ece;
};

/**
 * struct pdcm_rej_event_param - a REJ
 * @reason: enum pdcm_rej_reason
 * @ari: additional rejection information
 * @ari_length: bytes in @ari
 */
struct pdcm_rej_event_param {
	u16 reason;
	const void *ari;
	u8 ari_length;
};

/**
 * struct pdcm_mra_event_param - an MRA
 * @service_timeout: the extra time the peer asks for (4.096 us * 2^t)
 */
struct pdcm_mra_event_param {
	u8 service_timeout;
};

/**
 * struct pdcm_sidr_req_event_param - a SIDR_REQ
 * @listen_id: the listen that matched
 * @listen_context: its context at the time of the match
 * @service_id: the requested service ID
 * @port: port it arrived on
 * @pkey: the P_Key in the request
 * @addr: addresses from the RDMA CM header, if any
 * @sgid_attr: RoCE: the GID entry of ours the SIDR_REQ was sent to (valid
 *	during the call), or NULL
 * @bth_pkey: the P_Key of the MAD's BTH
 */
struct pdcm_sidr_req_event_param {
	struct pdcm_id *listen_id;
	void *listen_context;
	__be64 service_id;
	u32 port;
	u16 pkey;
	struct pdcm_addr_info addr;
	const struct ib_gid_attr *sgid_attr;
	u16 bth_pkey;
};

/**
 * struct pdcm_sidr_rep_event_param - a SIDR_REP
 * @status: enum pdcm_sidr_status
 * @qkey: the service's Q_Key
 * @qpn: the service's QPN
 * @info: additional information
 * @info_len: bytes in @info
 * @sgid_attr: RoCE: the GID entry our SIDR_REQ was sent from (valid during
 *	the call), or NULL: the sender's address for the UD traffic
 */
struct pdcm_sidr_rep_event_param {
	u8 status;
	u32 qkey;
	u32 qpn;
	const void *info;
	u8 info_len;
	const struct ib_gid_attr *sgid_attr;
};

/**
 * struct pdcm_lap_event_param - a LAP
 * @alternate_path: the proposed alternate path, from the receiver's point
 *	of view (P_Key and MTU the connection's)
 */
struct pdcm_lap_event_param {
	struct sa_path_rec *alternate_path;
};

/**
 * struct pdcm_event - what a handler receives
 * @event: which event
 * @param: its parameters, by @event
 * @private_data: the message's private data (valid during the call)
 * @private_data_len: its length (the whole field of the message)
 */
struct pdcm_event {
	enum pdcm_event_type event;
	union {
		struct pdcm_req_event_param req_rcvd;
		struct pdcm_rep_event_param rep_rcvd;
		struct pdcm_rej_event_param rej_rcvd;
		struct pdcm_mra_event_param mra_rcvd;
		struct pdcm_sidr_req_event_param sidr_req_rcvd;
		struct pdcm_sidr_rep_event_param sidr_rep_rcvd;
		struct pdcm_lap_event_param lap_rcvd;
		enum ib_wc_status send_status;
	} param;
	const void *private_data;
	u8 private_data_len;
};

/*
 * A handler runs in process context on pdcm's workqueue and may sleep.
 * The events of one id arrive one at a time and in order; the events of
 * different ids may run at the same time, so a handler that sleeps (to
 * create a QP, say) holds up only its own connection.  A handler may call
 * any pdcm_send_*() on @id, and may destroy any *other* id with
 * pdcm_destroy_id() (queued events of that id are then dropped unrun).
 * It must not destroy @id itself: destroy waits for @id's running handler.
 * To destroy @id, return non-zero (-ENOMEM from PDCM_REQ_RECEIVED, with
 * the REQ not answered: without a REJ, so that the peer retries; in any
 * other state pdcm sends what the state calls for, as for other values).
 *
 * A listen may be matched by requests it does not serve (a SIDR_REQ on a
 * connection listen's service ID, a REQ on a SIDR service's).  A handler
 * says "not mine" by returning non-zero from PDCM_REQ_RECEIVED or
 * PDCM_SIDR_REQ_RECEIVED without answering: pdcm then answers REJ
 * CONSUMER_DEFINED (28) or SIDR_REP status REJECT (2) and frees the id
 * and its backlog slot.  Returning 0 without answering keeps the request,
 * and the slot, until the ULP answers or destroys it.
 */
typedef int (*pdcm_handler)(struct pdcm_id *id, const struct pdcm_event *event);

/**
 * struct pdcm_id - a connection (or listen) endpoint, as ib_cm_id
 * @handler: event handler
 * @context: the ULP's pointer
 * @device: the RDMA device, or NULL for a listen on every device
 * @service_id: service ID of the connection or listen
 * @state: current state (read-only for ULPs; for debugging)
 * @local_id: local communication ID
 * @remote_id: the peer's communication ID
 * @remote_cm_qpn: the QP of the peer's CM that this id's MADs go to: 1
 *	(the GSI QP) unless the ULP follows a CM redirect -- a REJ
 *	PDCM_REJ_PORT_CM_REDIRECT (24) whose ARI is the ClassPortInfo
 *	naming another (its RedirectQP) -- and sets it before sending again,
 *	as ib_cm_id's; 24 bits, 0 counts as 1
 * @lap_state: enum pdcm_lap_state (read-only for ULPs, as @state)
 */
struct pdcm_id {
	pdcm_handler handler;
	void *context;
	struct ib_device *device;
	__be64 service_id;
	enum pdcm_state state;
	__be32 local_id;
	__be32 remote_id;
	u32 remote_cm_qpn;
	enum pdcm_lap_state lap_state;
};

struct pdcm_id *pdcm_create_id(struct ib_device *device, pdcm_handler handler,
			       void *context);
void pdcm_destroy_id(struct pdcm_id *id);
int pdcm_listen(struct pdcm_id *id, const struct pdcm_listen_attr *attr);

/**
 * struct pdcm_req_param - what pdcm_send_req() sends
 * @primary_path: path to the passive side (for RoCE: GIDs and dmac set)
 * @alternate_path: InfiniBand: an alternate path for automatic path
 *	migration, or NULL; its P_Key and MTU must be the primary's, its
 *	source GID one of the device's (any port: the QP's alternate port)
 * @sgid_attr: the GID entry to send from (RoCE: which netdev, e.g. a VLAN
 *	or its parent when both have the GID), referenced by the caller for
 *	the call; NULL: the entry of @primary_path's sgid on @port
 * @port: local port to send from
 * @service_id: the service to connect to
 * @qp_num: local QPN (24 bits)
 * @qp_type: IB_QPT_RC, IB_QPT_UC or IB_QPT_XRC_INI
 * @starting_psn: 24 bits: the PSN our QP receives from; the peer sends
 *	from it (the meaning ib_cm and rdma_cm give it)
 * @private_data: up to 92 bytes, or NULL
 * @private_data_len: its length
 * @responder_resources: what we grant the peer as responder
 * @initiator_depth: how many RDMA reads we issue
 * @remote_cm_response_timeout: how long we wait for the peer (5 bits)
 * @local_cm_response_timeout: how long we take to answer (5 bits)
 * @flow_control: end-to-end flow control
 * @retry_count: transport retry count (3 bits)
 * @rnr_retry_count: (3 bits)
 * @max_cm_retries: how often the REQ is sent again (4 bits)
 * @srq: we use an SRQ
 * @ece: ECE options to send (vendor ID at most 24 bits)
 */
struct pdcm_req_param {
	struct sa_path_rec *primary_path;
	struct sa_path_rec *alternate_path;
	const struct ib_gid_attr *sgid_attr;
	u32 port;
	__be64 service_id;
	u32 qp_num;
	enum ib_qp_type qp_type;
	u32 starting_psn;
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;
	u8 initiator_depth;
	u8 remote_cm_response_timeout;
	u8 local_cm_response_timeout;
	u8 flow_control;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 max_cm_retries;
	u8 srq;
	struct pdcm_ece ece;
};

/**
 * struct pdcm_rep_param - what pdcm_send_rep() sends
 * @qp_num: local QPN (24 bits)
 * @starting_psn: 24 bits: the PSN our QP receives from (see
 *	pdcm_init_qp_attr() for the order of RTR and the REP)
 * @private_data: up to 196 bytes, or NULL
 * @private_data_len: its length
 * @responder_resources: what we grant the peer as responder
 * @initiator_depth: how many RDMA reads we issue
 * @failover_accepted: 0 accepted, 1 not supported, 2 rejected
 * @flow_control: end-to-end flow control
 * @rnr_retry_count: (3 bits)
 * @srq: we use an SRQ
 * @ece: ECE options to send (vendor ID at most 24 bits)
 */
struct pdcm_rep_param {
	u32 qp_num;
	u32 starting_psn;
	const void *private_data;
	u8 private_data_len;
	u8 responder_resources;
	u8 initiator_depth;
	u8 failover_accepted;
	u8 flow_control;
	u8 rnr_retry_count;
	u8 srq;
	struct pdcm_ece ece;
};

/**
 * struct pdcm_sidr_req_param - what pdcm_send_sidr_req() sends
 * @path: path to the service's node
 * @sgid_attr: the GID entry to send from, or NULL (as in
 *	struct pdcm_req_param)
 * @port: local port
 * @service_id: the service to resolve
 * @timeout_ms: wait per try
 * @max_cm_retries: tries after the first
 * @private_data: up to 216 bytes, or NULL
 * @private_data_len: its length
 */
struct pdcm_sidr_req_param {
	struct sa_path_rec *path;
	const struct ib_gid_attr *sgid_attr;
	u32 port;
	__be64 service_id;
	unsigned int timeout_ms;
	u8 max_cm_retries;
	const void *private_data;
	u8 private_data_len;
};

/**
 * struct pdcm_sidr_rep_param - what pdcm_send_sidr_rep() answers
 * @qp_num: the service's QPN (24 bits)
 * @qkey: its Q_Key
 * @status: enum pdcm_sidr_status
 * @info: additional information, or NULL
 * @info_length: up to 72 bytes
 * @private_data: up to 136 bytes, or NULL
 * @private_data_len: its length
 * @ece: ECE options to send (vendor ID at most 16 bits)
 */
struct pdcm_sidr_rep_param {
	u32 qp_num;
	u32 qkey;
	u8 status;
	const void *info;
	u8 info_length;
	const void *private_data;
	u8 private_data_len;
	struct pdcm_ece ece;
};

int pdcm_send_req(struct pdcm_id *id, const struct pdcm_req_param *param);
int pdcm_send_rep(struct pdcm_id *id, const struct pdcm_rep_param *param);
int pdcm_send_rtu(struct pdcm_id *id, const void *private_data, u8 len);
int pdcm_send_rej(struct pdcm_id *id, u16 reason, const void *ari, u8 ari_len,
		  const void *private_data, u8 len);
int pdcm_send_mra(struct pdcm_id *id, u8 service_timeout,
		  const void *private_data, u8 len);
int pdcm_send_dreq(struct pdcm_id *id, const void *private_data, u8 len);
int pdcm_send_drep(struct pdcm_id *id, const void *private_data, u8 len);
int pdcm_send_sidr_req(struct pdcm_id *id,
		       const struct pdcm_sidr_req_param *param);
int pdcm_send_sidr_rep(struct pdcm_id *id,
		       const struct pdcm_sidr_rep_param *param);
int pdcm_notify(struct pdcm_id *id, enum ib_event_type event);
int pdcm_init_qp_attr(struct pdcm_id *id, struct ib_qp_attr *attr,
		      int *mask);

/* Send the MRA only when a duplicate arrives, as rdma_cm does (0x80). */
#define PDCM_MRA_FLAG_DELAY	0x80

int pdcm_resolve_path(struct ib_device *device, u32 port,
		      const struct sockaddr *src, const struct sockaddr *dst,
		      struct sa_path_rec *path);

const char *pdcm_state_name(enum pdcm_state state);
const char *pdcm_event_name(enum pdcm_event_type event);
const char *pdcm_rej_reason_name(u16 reason);

#endif /* _RDMA_PDCM_H */
