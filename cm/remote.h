/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who the peers are: the tables that recognise duplicate and stale
 * requests (IBA Vol. 1 12.9.8).
 *
 *   remote-ID table  (remote comm ID, remote CA GUID) -> conn
 *                    a second REQ with the same key is a duplicate;
 *   remote-QPN table (remote QPN, remote CA GUID) -> conn
 *                    a new REQ from a QP we are still connected to means
 *                    the old connection is stale;
 *   SIDR table       (request ID, sender's GID) -> conn
 *                    a repeated SIDR_REQ is a duplicate.
 *
 * Lock order: conn->lock > pdcm_remote_lock (internal to remote.c).
 */
#ifndef _PDCM_REMOTE_H
#define _PDCM_REMOTE_H

#include <rdma/ib_verbs.h>

struct pdcm_conn;

struct pdcm_conn *pdcm_remote_id_find(u32 remote_id, u64 guid);
struct pdcm_conn *pdcm_remote_id_insert(struct pdcm_conn *conn);
struct pdcm_conn *pdcm_remote_qp_find(u32 qpn, u64 guid);
struct pdcm_conn *pdcm_remote_qp_insert(struct pdcm_conn *conn);
struct pdcm_conn *pdcm_remote_sidr_insert(struct pdcm_conn *conn, u32 req_id,
					  const union ib_gid *gid);
void pdcm_remote_unlink(struct pdcm_conn *conn);

#endif /* _PDCM_REMOTE_H */
