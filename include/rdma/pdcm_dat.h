/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm_kdapl: the connection model of a kernel DAT provider (kDAPL) on
 * pdcm, at the CM level.
 *
 * An IA (interface adapter) is (ib_device, port, IP address).  A PSP
 * (public service point) listens on a connection qualifier of an IA and
 * reports every connection request (CR) to its upcall; an RSP (reserved
 * service point) takes one CR and is gone.  The consumer accepts a CR on
 * an EP (endpoint) or rejects it; an EP also connects actively.  As the
 * OFED DAT provider did over rdma_cm, a conn_qual is an RDMA CM TCP port:
 * service ID 0x0000000001060000 | port, the RDMA CM header in front of the
 * consumer's private data, so kDAPL consumers and rdma_cm peers talk.
 *
 * QPs stay with the consumer: an EP carries its QP number and PSN, and
 * pdcm_dat_ep_init_qp_attr() gives the attributes of each transition.
 * Errors are errnos; pdcm_dat_status() names the DAT status each stands
 * for (-EADDRINUSE is DAT_CONN_QUAL_IN_USE).
 *
 * Every symbol is exported in the PDCM_DAT namespace.
 */
#ifndef _RDMA_PDCM_DAT_H
#define _RDMA_PDCM_DAT_H

#include <linux/errno.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <rdma/pdcm.h>

#define PDCM_DAT_TCP_SERVICE_ID	0x0000000001060000ULL

/* Consumer private data in a REQ: 92 bytes less the RDMA CM header. */
#define PDCM_DAT_REQ_PDATA_SIZE	(92 - PDCM_CMA_HDR_SIZE)
#define PDCM_DAT_REP_PDATA_SIZE	196
#define PDCM_DAT_REJ_PDATA_SIZE	148

/**
 * pdcm_dat_conn_qual_port() - the TCP port of a connection qualifier
 * @conn_qual: the qualifier
 *
 * The OFED openib_cma provider's SID_TO_PORT(): a qualifier up to 0xffff
 * is the port; a larger one is folded into 33534..65534.
 *
 * Context: Any context.
 * Return: the port.
 */
static inline u16 pdcm_dat_conn_qual_port(u64 conn_qual)
{
	if (conn_qual <= 0xffff)
		return conn_qual;
	return (u16)((conn_qual % 32001) + (65535 - 32001));
}

/**
 * pdcm_dat_service_id() - the service ID of a connection qualifier
 * @conn_qual: the qualifier
 *
 * Context: Any context.
 * Return: 0x0000000001060000 | pdcm_dat_conn_qual_port(), network order.
 */
static inline __be64 pdcm_dat_service_id(u64 conn_qual)
{
	return cpu_to_be64(PDCM_DAT_TCP_SERVICE_ID |
			   pdcm_dat_conn_qual_port(conn_qual));
}

/**
 * enum pdcm_dat_status - the DAT return codes the shim's errnos stand for
 * @PDCM_DAT_SUCCESS: 0
 * @PDCM_DAT_CONN_QUAL_IN_USE: -EADDRINUSE, -EBUSY, -EADDRNOTAVAIL
 * @PDCM_DAT_INVALID_PARAMETER: -EINVAL, -EAFNOSUPPORT, -EMSGSIZE
 * @PDCM_DAT_INVALID_STATE: -EALREADY, -EISCONN, -ENOTCONN
 * @PDCM_DAT_INSUFFICIENT_RESOURCES: -ENOMEM
 * @PDCM_DAT_INTERNAL_ERROR: anything else
 */
enum pdcm_dat_status {
	PDCM_DAT_SUCCESS,
	PDCM_DAT_CONN_QUAL_IN_USE,
	PDCM_DAT_INVALID_PARAMETER,
	PDCM_DAT_INVALID_STATE,
	PDCM_DAT_INSUFFICIENT_RESOURCES,
	PDCM_DAT_INTERNAL_ERROR,
};

/**
 * pdcm_dat_status() - the DAT status of an errno returned by the shim
 * @err: 0 or a negative errno
 *
 * Context: Any context.
 * Return: enum pdcm_dat_status.
 */
static inline enum pdcm_dat_status pdcm_dat_status(int err)
{
	switch (err) {
	case 0:
		return PDCM_DAT_SUCCESS;
	case -EADDRINUSE:
	case -EBUSY:
	case -EADDRNOTAVAIL:
		return PDCM_DAT_CONN_QUAL_IN_USE;
	case -EINVAL:
	case -EAFNOSUPPORT:
	case -EMSGSIZE:
		return PDCM_DAT_INVALID_PARAMETER;
	case -EALREADY:
	case -EISCONN:
	case -ENOTCONN:
		return PDCM_DAT_INVALID_STATE;
	case -ENOMEM:
		return PDCM_DAT_INSUFFICIENT_RESOURCES;
	default:
		return PDCM_DAT_INTERNAL_ERROR;
	}
}

struct pdcm_dat_ia;
struct pdcm_dat_sp;
struct pdcm_dat_cr;
struct pdcm_dat_ep;

/**
 * enum pdcm_dat_event_number - DAT's connection events
 * @PDCM_DAT_CONNECTION_REQUEST_EVENT: a CR arrived at a PSP or RSP
 * @PDCM_DAT_CONNECTION_EVENT_ESTABLISHED: active: the REP arrived (move
 *	the QP to RTR and RTS in the upcall; the RTU goes out after it);
 *	passive: the RTU arrived
 * @PDCM_DAT_CONNECTION_EVENT_PEER_REJECTED: the peer's consumer rejected
 *	(REJ 28); its private data is in the event
 * @PDCM_DAT_CONNECTION_EVENT_NON_PEER_REJECTED: rejected by the peer's CM
 *	or provider (no listener: 8, backlog full: 3, ...)
 * @PDCM_DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR: passive: the REP
 *	went unanswered or was rejected
 * @PDCM_DAT_CONNECTION_EVENT_DISCONNECTED: the connection is down, by
 *	either side
 * @PDCM_DAT_CONNECTION_EVENT_TIMED_OUT: active: no answer to the REQ
 * @PDCM_DAT_CONNECTION_EVENT_UNREACHABLE: active: the REQ could not be
 *	sent
 */
enum pdcm_dat_event_number {
	PDCM_DAT_CONNECTION_REQUEST_EVENT,
	PDCM_DAT_CONNECTION_EVENT_ESTABLISHED,
	PDCM_DAT_CONNECTION_EVENT_PEER_REJECTED,
	PDCM_DAT_CONNECTION_EVENT_NON_PEER_REJECTED,
	PDCM_DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR,
	PDCM_DAT_CONNECTION_EVENT_DISCONNECTED,
	PDCM_DAT_CONNECTION_EVENT_TIMED_OUT,
	PDCM_DAT_CONNECTION_EVENT_UNREACHABLE,
};

/**
 * struct pdcm_dat_cr_arrival_event_data - DAT_CR_ARRIVAL_EVENT_DATA
 * @sp_handle: the PSP or RSP (an RSP is already gone: compare only)
 * @local_ia_address_ptr: the address the CR arrived on: the IA's, or for
 *	a wildcard IA the one the peer connected to
 * @conn_qual: the service point's connection qualifier
 * @cr_handle: the CR; accept or reject it, in the upcall or later
 */
struct pdcm_dat_cr_arrival_event_data {
	struct pdcm_dat_sp *sp_handle;
	const struct sockaddr *local_ia_address_ptr;
	u64 conn_qual;
	struct pdcm_dat_cr *cr_handle;
};

/**
 * struct pdcm_dat_connection_event_data - DAT_CONNECTION_EVENT_DATA
 * @ep_handle: the EP
 * @private_data_size: bytes at @private_data
 * @private_data: the REP's (ESTABLISHED, active) or REJ's (REJECTED)
 *	private data, valid during the upcall; else NULL
 * @reason: REJECTED: the REJ reason
 */
struct pdcm_dat_connection_event_data {
	struct pdcm_dat_ep *ep_handle;
	size_t private_data_size;
	const void *private_data;
	u16 reason;
};

/**
 * struct pdcm_dat_event - what an upcall gets
 * @event_number: which event
 * @cr_arrival: for PDCM_DAT_CONNECTION_REQUEST_EVENT
 * @connect: for the connection events
 */
struct pdcm_dat_event {
	enum pdcm_dat_event_number event_number;
	union {
		struct pdcm_dat_cr_arrival_event_data cr_arrival;
		struct pdcm_dat_connection_event_data connect;
	};
};

/**
 * struct pdcm_dat_upcall - kDAPL's DAT_UPCALL_OBJECT: an EVD in kernel form
 * @func: called for every event, in process context on pdcm's
 *	workqueue, one event per connection at a time; it may accept or
 *	reject the CR it is given and free the EP it is told about (both
 *	take effect when it returns), and must not free other objects
 * @instance_data: @func's first argument
 */
struct pdcm_dat_upcall {
	void (*func)(void *instance_data, const struct pdcm_dat_event *ev);
	void *instance_data;
};

/**
 * struct pdcm_dat_cr_param - DAT_CR_PARAM, and what the CM adds
 * @local_ia_address: where the CR arrived (as in the arrival event)
 * @remote_ia_address: the active side's address (from the RDMA CM header)
 * @remote_port_qual: its source port
 * @private_data_size: PDCM_DAT_REQ_PDATA_SIZE
 * @private_data: the consumer's private data: the REQ's after the header
 * @local_ep_handle: RSP: the EP it was created with; PSP: NULL
 * @remote_qpn: the active side's QP
 * @remote_psn: its starting PSN
 * @port: the port the CR arrived on
 */
struct pdcm_dat_cr_param {
	struct sockaddr_storage local_ia_address;
	struct sockaddr_storage remote_ia_address;
	u16 remote_port_qual;
	size_t private_data_size;
	u8 private_data[PDCM_DAT_REQ_PDATA_SIZE];
	struct pdcm_dat_ep *local_ep_handle;
	u32 remote_qpn;
	u32 remote_psn;
	u32 port;
};

/**
 * enum pdcm_dat_sp_flags - options of a service point
 * @PDCM_DAT_SP_REJ_ON_OVERFLOW: a CR finding the backlog full gets REJ
 *	NO_RESOURCES (3) instead of being dropped for the peer to retry
 */
enum pdcm_dat_sp_flags {
	PDCM_DAT_SP_REJ_ON_OVERFLOW	= 1U << 0,
};

/**
 * struct pdcm_dat_sp_attr - a PSP or RSP
 * @conn_qual: the connection qualifier (not 0)
 * @evd: where its CRs go
 * @backlog: CRs arrived and not yet accepted or rejected; 0:
 *	PDCM_BACKLOG_DEFAULT.  DAT has no backlog: this is pdcm's.
 * @backlog_group: a limit shared with other service points
 *	(pdcm_backlog_create()), or NULL; excludes @backlog
 * @flags: enum pdcm_dat_sp_flags
 */
struct pdcm_dat_sp_attr {
	u64 conn_qual;
	struct pdcm_dat_upcall evd;
	u32 backlog;
	struct pdcm_backlog *backlog_group;
	u32 flags;
};

/**
 * struct pdcm_dat_ep_attr - an endpoint and its QP
 * @qp_num: the consumer's RC QP
 * @starting_psn: its starting PSN
 * @responder_resources: RDMA reads/atomics we take as responder
 * @initiator_depth: RDMA reads/atomics we issue
 * @evd: where its connection events go
 */
struct pdcm_dat_ep_attr {
	u32 qp_num;
	u32 starting_psn;
	u8 responder_resources;
	u8 initiator_depth;
	struct pdcm_dat_upcall evd;
};

struct pdcm_dat_ia *pdcm_dat_ia_open(struct ib_device *device, u32 port,
				     const struct sockaddr *addr);
void pdcm_dat_ia_close(struct pdcm_dat_ia *ia);
void pdcm_dat_ia_flush(struct pdcm_dat_ia *ia);
const struct sockaddr *pdcm_dat_ia_address(const struct pdcm_dat_ia *ia);

struct pdcm_dat_sp *pdcm_dat_psp_create(struct pdcm_dat_ia *ia,
					const struct pdcm_dat_sp_attr *attr);
void pdcm_dat_psp_free(struct pdcm_dat_sp *psp);
struct pdcm_dat_sp *pdcm_dat_rsp_create(struct pdcm_dat_ia *ia,
					const struct pdcm_dat_sp_attr *attr,
					struct pdcm_dat_ep *ep);
void pdcm_dat_rsp_free(struct pdcm_dat_sp *rsp);

const struct pdcm_dat_cr_param *pdcm_dat_cr_query(const struct pdcm_dat_cr *cr);
int pdcm_dat_cr_init_qp_attr(struct pdcm_dat_cr *cr, struct ib_qp_attr *attr,
			     int *mask);
int pdcm_dat_cr_accept(struct pdcm_dat_cr *cr, struct pdcm_dat_ep *ep,
		       const void *private_data, size_t len);
int pdcm_dat_cr_reject(struct pdcm_dat_cr *cr, const void *private_data,
		       size_t len);

struct pdcm_dat_ep *pdcm_dat_ep_create(struct pdcm_dat_ia *ia,
				       const struct pdcm_dat_ep_attr *attr);
int pdcm_dat_ep_connect(struct pdcm_dat_ep *ep,
			const struct sockaddr *remote_ia_address,
			u64 remote_conn_qual, const void *private_data,
			size_t len, struct sa_path_rec *path);
int pdcm_dat_ep_disconnect(struct pdcm_dat_ep *ep);
void pdcm_dat_ep_free(struct pdcm_dat_ep *ep);
int pdcm_dat_ep_init_qp_attr(struct pdcm_dat_ep *ep, struct ib_qp_attr *attr,
			     int *mask);
int pdcm_dat_ep_notify(struct pdcm_dat_ep *ep, enum ib_event_type event);

#endif /* _RDMA_PDCM_DAT_H */
