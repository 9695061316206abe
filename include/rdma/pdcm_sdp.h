/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm_sdp: the connection setup of the Sockets Direct Protocol (IBA
 * Vol. 1 Annex A4) on pdcm, at the level a socket layer calls it.
 *
 * An SDP connection to TCP port P is an RC connection to service ID
 * 0x0000000000010000 | P whose REQ carries the Hello (BSDH + HH) and whose
 * REP carries the Hello Ack (BSDH + HAH).  pdcm_sdp listens on (address,
 * port), one pdcm listen each, with a compare on the Hello's version, IP
 * version and destination address, so that listeners for several
 * addresses and a wildcard share a port; it parses the Hello for the
 * listener and answers malformed ones with REJ 28.  QPs stay with the
 * caller: it passes its QP number and PSN and moves its QP with
 * pdcm_sdp_init_qp_attr().
 *
 * Every symbol is exported in the PDCM_SDP namespace.
 */
#ifndef _RDMA_PDCM_SDP_H
#define _RDMA_PDCM_SDP_H

#include <linux/socket.h>
#include <linux/types.h>
#include <rdma/pdcm.h>

#define PDCM_SDP_SERVICE_ID	0x0000000000010000ULL
#define PDCM_SDP_SERVICE_MASK	0xFFFFFFFFFFFF0000ULL

/* Message IDs of the BSDH, and the version both sides send (2.2). */
#define PDCM_SDP_MID_HELLO	0x00
#define PDCM_SDP_MID_HELLO_ACK	0x01
#define PDCM_SDP_MAJV_MINV	0x22

#define PDCM_SDP_BSDH_SIZE	16
#define PDCM_SDP_HELLO_SIZE	92	/* BSDH + HH: the whole REQ pdata */
#define PDCM_SDP_HELLO_ACK_SIZE	196	/* BSDH + HAH: the whole REP pdata */

/**
 * pdcm_sdp_service_id() - the service ID of an SDP port
 * @port: TCP port, host order
 *
 * Context: Any context.
 * Return: 0x0000000000010000 | @port, network order.
 */
static inline __be64 pdcm_sdp_service_id(u16 port)
{
	return cpu_to_be64(PDCM_SDP_SERVICE_ID | port);
}

/**
 * struct pdcm_sdp_hello - an SDP Hello, decoded
 * @bufs: BSDH bufs: receive buffers the sender has posted (initial credits)
 * @max_adverts: most outstanding buffer advertisements (0 is invalid)
 * @desremrcvsz: receive buffer size the sender would like from the peer
 * @localrcvsz: the sender's receive buffer size
 * @src: the active side's address and source port
 * @dst: the address it connected to, with the port of the service ID
 */
struct pdcm_sdp_hello {
	u16 bufs;
	u8 max_adverts;
	u32 desremrcvsz;
	u32 localrcvsz;
	struct sockaddr_storage src;
	struct sockaddr_storage dst;
};

/**
 * struct pdcm_sdp_hello_ack - an SDP Hello Ack, decoded
 * @bufs: BSDH bufs: receive buffers the passive side has posted
 * @ext_max_adverts: the passive side's maximum advertisements
 * @actrcvsz: the passive side's actual receive buffer size
 */
struct pdcm_sdp_hello_ack {
	u16 bufs;
	u8 ext_max_adverts;
	u32 actrcvsz;
};

int pdcm_sdp_hh_build(void *buf, size_t len, const struct pdcm_sdp_hello *h);
int pdcm_sdp_hh_parse(const void *buf, size_t len, __be64 service_id,
		      struct pdcm_sdp_hello *h);
int pdcm_sdp_hah_build(void *buf, size_t len,
		       const struct pdcm_sdp_hello_ack *a);
int pdcm_sdp_hah_parse(const void *buf, size_t len,
		       struct pdcm_sdp_hello_ack *a);

struct pdcm_sdp_listener;
struct pdcm_sdp_conn;

/**
 * enum pdcm_sdp_event_type - what an SDP handler is told
 * @PDCM_SDP_CONNECT_REQUEST: a valid Hello reached the listener; the event
 *	carries a new connection: accept or reject it, now or later
 * @PDCM_SDP_CONNECTED: active: the Hello Ack arrived (move the QP to RTR
 *	and RTS now; the RTU goes out when the handler returns 0); passive:
 *	the RTU arrived (or pdcm_sdp_notify() reported COMM_EST)
 * @PDCM_SDP_REJECTED: the peer rejected the Hello; @status is the REJ
 *	reason (8: nobody listens, 28: the SDP layer refused)
 * @PDCM_SDP_ERROR: the handshake failed: no answer (@status -ETIMEDOUT),
 *	a malformed Hello Ack (-EPROTO, the shim sent REJ 28), or the
 *	passive side's REP went unanswered
 * @PDCM_SDP_DISCONNECTED: the connection is down: the peer disconnected
 *	(the DREP was sent), or it answered our pdcm_sdp_disconnect()
 * @PDCM_SDP_CLOSED: timewait is over; the QP may be reused
 */
enum pdcm_sdp_event_type {
	PDCM_SDP_CONNECT_REQUEST,
	PDCM_SDP_CONNECTED,
	PDCM_SDP_REJECTED,
	PDCM_SDP_ERROR,
	PDCM_SDP_DISCONNECTED,
	PDCM_SDP_CLOSED,
};

/**
 * struct pdcm_sdp_conn_info - what is known of a connection
 * @device: the RDMA device
 * @port: its port number
 * @local: our address and port
 * @peer: the peer's address and port
 * @peer_bufs: the peer's initial credits (Hello or Hello Ack bufs)
 * @peer_max_adverts: Hello max_adverts, or Hello Ack ext_max_adverts
 * @peer_desremrcvsz: Hello desremrcvsz (passive side only)
 * @peer_rcvsz: the peer's receive size: Hello localrcvsz or Hello Ack
 *	actrcvsz
 * @remote_qpn: the peer's QP number
 * @remote_psn: the peer's starting PSN (passive side only)
 */
struct pdcm_sdp_conn_info {
	struct ib_device *device;
	u32 port;
	struct sockaddr_storage local;
	struct sockaddr_storage peer;
	u16 peer_bufs;
	u8 peer_max_adverts;
	u32 peer_desremrcvsz;
	u32 peer_rcvsz;
	u32 remote_qpn;
	u32 remote_psn;
};

/**
 * struct pdcm_sdp_event - an SDP event
 * @type: which event
 * @status: see enum pdcm_sdp_event_type
 * @info: the connection (valid during the call)
 */
struct pdcm_sdp_event {
	enum pdcm_sdp_event_type type;
	int status;
	const struct pdcm_sdp_conn_info *info;
};

/*
 * Handlers run in process context on pdcm's workqueue, one event per
 * connection at a time (different connections concurrently).  On a
 * connection's own event a handler may call any pdcm_sdp_*() on it,
 * including pdcm_sdp_reject() and pdcm_sdp_close() (freed after the
 * handler returns); it must not close other connections or listeners.
 * Returning non-zero closes @conn as pdcm_sdp_close() does.
 */
typedef int (*pdcm_sdp_handler)(struct pdcm_sdp_conn *conn,
				const struct pdcm_sdp_event *ev);

/**
 * enum pdcm_sdp_listen_flags - options of pdcm_sdp_listen()
 * @PDCM_SDP_LISTEN_V6ONLY: a listen on :: takes IPv6 Hellos only (else
 *	IPv4 ones too, as a dual-stack TCP socket)
 * @PDCM_SDP_LISTEN_REJ_ON_OVERFLOW: a Hello finding the backlog full gets
 *	REJ NO_RESOURCES instead of being dropped for the peer to retry
 */
enum pdcm_sdp_listen_flags {
	PDCM_SDP_LISTEN_V6ONLY		= 1U << 0,
	PDCM_SDP_LISTEN_REJ_ON_OVERFLOW	= 1U << 1,
};

/**
 * struct pdcm_sdp_listen_param - where and how to listen
 * @device: device to listen on, or NULL for all
 * @port: port number, or 0 for all
 * @addr: AF_INET or AF_INET6 address and TCP port; 0.0.0.0 / :: for any
 * @backlog: connections requested and not yet accepted or rejected; 0:
 *	PDCM_BACKLOG_DEFAULT
 * @flags: enum pdcm_sdp_listen_flags
 * @handler: gets PDCM_SDP_CONNECT_REQUEST and the new connections' events
 * @context: pdcm_sdp_listener_context(), and the new connections' initial
 *	pdcm_sdp_context()
 */
struct pdcm_sdp_listen_param {
	struct ib_device *device;
	u32 port;
	const struct sockaddr *addr;
	u32 backlog;
	u32 flags;
	pdcm_sdp_handler handler;
	void *context;
};

/**
 * struct pdcm_sdp_connect_param - an active open
 * @device: local device
 * @port: local port number
 * @path: path to the peer; NULL resolves one (RoCE) from @src and @dst
 * @src: our address and source port
 * @dst: the peer's address and TCP port
 * @qp_num: our RC QP
 * @starting_psn: its starting PSN
 * @hello: bufs, max_adverts, desremrcvsz and localrcvsz to send (the
 *	addresses come from @src and @dst)
 * @handler: gets the connection's events
 * @context: pdcm_sdp_context()
 */
struct pdcm_sdp_connect_param {
	struct ib_device *device;
	u32 port;
	struct sa_path_rec *path;
	const struct sockaddr *src;
	const struct sockaddr *dst;
	u32 qp_num;
	u32 starting_psn;
	struct pdcm_sdp_hello hello;
	pdcm_sdp_handler handler;
	void *context;
};

/**
 * struct pdcm_sdp_accept_param - what the passive side answers
 * @qp_num: our RC QP
 * @starting_psn: its starting PSN
 * @hah: the Hello Ack fields
 */
struct pdcm_sdp_accept_param {
	u32 qp_num;
	u32 starting_psn;
	struct pdcm_sdp_hello_ack hah;
};

struct pdcm_sdp_listener *
pdcm_sdp_listen(const struct pdcm_sdp_listen_param *param);
void pdcm_sdp_listener_destroy(struct pdcm_sdp_listener *l);
void *pdcm_sdp_listener_context(const struct pdcm_sdp_listener *l);

struct pdcm_sdp_conn *
pdcm_sdp_connect(const struct pdcm_sdp_connect_param *param);
int pdcm_sdp_accept(struct pdcm_sdp_conn *conn,
		    const struct pdcm_sdp_accept_param *param);
int pdcm_sdp_reject(struct pdcm_sdp_conn *conn);
int pdcm_sdp_disconnect(struct pdcm_sdp_conn *conn);
void pdcm_sdp_close(struct pdcm_sdp_conn *conn);
int pdcm_sdp_notify(struct pdcm_sdp_conn *conn, enum ib_event_type event);
int pdcm_sdp_init_qp_attr(struct pdcm_sdp_conn *conn, struct ib_qp_attr *attr,
			  int *mask);
const struct pdcm_sdp_conn_info *
pdcm_sdp_conn_info(const struct pdcm_sdp_conn *conn);
void *pdcm_sdp_context(const struct pdcm_sdp_conn *conn);
void pdcm_sdp_set_context(struct pdcm_sdp_conn *conn, void *context);

/**
 * struct pdcm_sdp_stats - what the SDP shim counts, since load
 * @requests: Hellos received (every REQ in the SDP service ID range)
 * @accepted: connections accepted (Hello Ack sent)
 * @rejected: connection requests the listener rejected
 * @malformed: Hellos refused as malformed (REJ 28): not a Hello, major
 *	version not 2, IP version not 4 or 6, length too short, no adverts
 * @no_listener: well-formed Hellos no listener took (REJ 8)
 * @bad_hello_ack: Hello Acks refused as malformed (REJ 28)
 */
struct pdcm_sdp_stats {
	u64 requests;
	u64 accepted;
	u64 rejected;
	u64 malformed;
	u64 no_listener;
	u64 bad_hello_ack;
};

void pdcm_sdp_get_stats(struct pdcm_sdp_stats *stats);

#endif /* _RDMA_PDCM_SDP_H */
