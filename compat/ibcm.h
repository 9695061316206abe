/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The facade's id: an ib_cm_id with the pdcm_id under it (compat/ib_cm.c).
 */
#ifndef _PDCM_IBCM_H
#define _PDCM_IBCM_H

#include <linux/completion.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <rdma/ib_cm.h>
#include <rdma/pdcm.h>

/**
 * struct ibcm_id - an ib_cm_id and the pdcm_id it runs on
 * @id: the public part, what ib_cm's users see
 * @pd: the pdcm_id; its context is this struct
 * @ref: the destroyer's reference (and the one a delivery of a new
 *	passive id gives back when its handler refuses it)
 * @listen: on the list of listening ids while listening, else empty
 * @listening: ib_cm_listen() made this id a listen (set once, by the
 *	owner, under ibcm_lock)
 * @dying: the last user destroys the listen: it is not shared any more,
 *	and a new listen for the pair is made beside it (ibcm_listen_locked())
 * @share: ib_cm_insert_listen() users of the listen (1 for ib_cm_listen())
 *
 * What an event points to (path, private data) lives on the delivering
 * call's stack, not here: one of these per connection side.
 */
struct ibcm_id {
	struct ib_cm_id id;
	struct pdcm_id *pd;
	struct kref ref;
	struct list_head listen;
	bool listening;
	bool dying;
	unsigned int share;
};

static inline struct ibcm_id *to_ibcm(struct ib_cm_id *cm_id)
{
	return container_of(cm_id, struct ibcm_id, id);
}

#endif /* _PDCM_IBCM_H */
