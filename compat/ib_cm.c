// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_cm.ko on pdcm: the in-tree Connection Manager's exported interface
 * (<rdma/ib_cm.h> of the kernel built against), implemented on ib_pdcm.
 *
 * The distribution's own rdma_cm, rdma_ucm, IPoIB, SRP, iSER and NVMe over
 * RDMA modules import these sixteen symbols by name and CRC, without a
 * namespace, so they are plain EXPORT_SYMBOLs whose prototypes hash like
 * the in-tree ones (ibcm_abi.h; scripts/ibcm-crc.sh checks every build).
 *
 * Each struct ib_cm_id is the public part of a struct ibcm_id that owns
 * one pdcm_id; pdcm calls ibcm_handler() for every event of it, which
 * turns the event into a struct ib_cm_event and calls the ib_cm_id's
 * cm_handler with the cm_handler and context found in the struct at that
 * moment (rdma_cm rewrites both inside its REQ callback).  A REQ or
 * SIDR_REQ arrives on a new pdcm_id whose context is still the listen's
 * ibcm_id; the handler gives it its own ibcm_id first, inheriting the
 * listen's cm_handler and context as ib_cm does.
 *
 * Listens: ib_cm keeps one listen per (device, service ID), shared by
 * ib_cm_insert_listen() with a count; ibcm_listens holds every listening
 * ibcm_id for that, under ibcm_lock, which is never held across a wait
 * for pdcm (a handler may destroy ids, as with ib_cm).  Underneath each is a pdcm wildcard
 * listen (no private-data compare) scoped to the id's device, so native
 * pdcm listens with a compare on the same service ID take their REQs
 * first (Documentation/listen-matching.rst).
 *
 * Documentation/ibcm.rst lists what differs from the in-tree ib_cm.
 */
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_cm.h>
#include <rdma/pdcm.h>

#include "../cm/compat.h"
#include "ibcm_abi.h"
#include "ibcm.h"

/*
 * Each export is compiled against the declaration in the <rdma/ib_cm.h>
 * of the kernel built against (included above): a definition of another
 * type does not compile, and a function that header does not declare --
 * another kernel version's interface, ib_send_cm_mra() on 6.16 and later
 * -- is an error here on every kernel, not only a W=1 warning.
 */
__diag_push();
__diag_error(GCC, 8, "-Wmissing-prototypes",
	     "export only what the kernel's <rdma/ib_cm.h> declares");

static DEFINE_MUTEX(ibcm_lock);
static LIST_HEAD(ibcm_listens);		/* listening ibcm_ids, ibcm_lock */

/*
 * The in-tree ib_cm bounds no listen: every REQ becomes a connection for
 * its user, and rdma_ucm bounds what waits for user space by itself
 * (net.rdma_ucm.max_backlog).  pdcm's default backlog (1024 half-open
 * connections a listen) would drop the REQs of a burst of thousands --
 * cmtime -c 5000 -- and turn them into REQ retransmissions
 * (Documentation/performance.rst), so the drop-in's listens get a
 * backlog of their own.
 */
static unsigned int listen_backlog = 65536;
module_param(listen_backlog, uint, 0644);
MODULE_PARM_DESC(listen_backlog,
		 "Half-open connections (REQ received, not yet established) each listen may hold; past it REQs are dropped for the peer to retry (default 65536; 0: ib_pdcm's default_backlog)");

/* ---- ids ----------------------------------------------------------- */

/* The public fields that mirror pdcm's, read without its lock (debug). */
static void ibcm_sync(struct ibcm_id *me)
{
	me->id.state = (enum ib_cm_state)READ_ONCE(me->pd->state);
	me->id.service_id = READ_ONCE(me->pd->service_id);
	me->id.local_id = READ_ONCE(me->pd->local_id);
	me->id.remote_id = READ_ONCE(me->pd->remote_id);
	/* the values are ib_cm_lap_state's */
	me->id.lap_state = (enum ib_cm_lap_state)READ_ONCE(me->pd->lap_state);
}

/*
 * The id of a call that sends, with what the ULP may have written to the
 * public id since: remote_cm_qpn (ib_srp sets it to follow a CM redirect).
 */
static struct ibcm_id *ibcm_out(struct ib_cm_id *cm_id)
{
	struct ibcm_id *me = to_ibcm(cm_id);

	WRITE_ONCE(me->pd->remote_cm_qpn, READ_ONCE(cm_id->remote_cm_qpn));
	return me;
}

static struct ibcm_id *ibcm_alloc(struct ib_device *device,
				  ib_cm_handler handler, void *context)
{
	struct ibcm_id *me = kzalloc(sizeof(*me), GFP_KERNEL);

	if (!me)
		return NULL;
	me->id.cm_handler = handler;
	me->id.context = context;
	me->id.device = device;
	me->id.state = IB_CM_IDLE;
	me->id.lap_state = IB_CM_LAP_UNINIT;
	me->id.remote_cm_qpn = 1;
	kref_init(&me->ref);
	INIT_LIST_HEAD(&me->listen);
	return me;
}

static void ibcm_free(struct kref *ref)
{
	kfree(container_of(ref, struct ibcm_id, ref));
}

static void ibcm_put(struct ibcm_id *me)
{
	kref_put(&me->ref, ibcm_free);
}

static int ibcm_handler(struct pdcm_id *pd, const struct pdcm_event *pev);

/**
 * ib_create_cm_id() - allocate a communication identifier
 * @device: the device it is for
 * @cm_handler: called for every event of the id
 * @context: the caller's pointer, in the id's @context field
 *
 * Context: process context; may sleep.
 * Return: the id, in IB_CM_IDLE, or ERR_PTR(-ENOMEM / -EINVAL).
 */
struct ib_cm_id *ib_create_cm_id(struct ib_device *device,
				 ib_cm_handler cm_handler,
				 void *context)
{
	struct ibcm_id *me;
	struct pdcm_id *pd;

	if (!cm_handler)
		return ERR_PTR(-EINVAL);
	me = ibcm_alloc(device, cm_handler, context);
	if (!me)
		return ERR_PTR(-ENOMEM);
	pd = pdcm_create_id(device, ibcm_handler, me);
	if (IS_ERR(pd)) {
		ibcm_put(me);
		return ERR_CAST(pd);
	}
	me->pd = pd;
	ibcm_sync(me);
	return &me->id;
}
EXPORT_SYMBOL(ib_create_cm_id);

/**
 * ib_destroy_cm_id() - destroy a communication identifier
 * @cm_id: the id; after the call it is gone
 *
 * A listen shared through ib_cm_insert_listen() goes away with its last
 * destroy.  Otherwise the protocol ends as the state asks (REJ, DREQ,
 * timewait), every event of the id still queued is dropped, and a running
 * handler of the id is waited for.
 *
 * Context: process context; sleeps.  From any handler but @cm_id's own
 * (return non-zero from that instead).
 * Return: nothing.
 */
void ib_destroy_cm_id(struct ib_cm_id *cm_id)
{
	struct ibcm_id *me = to_ibcm(cm_id);

	if (!me->listening) {
		pdcm_destroy_id(me->pd);
		ibcm_put(me);
		return;
	}
	mutex_lock(&ibcm_lock);
	if (--me->share) {
		mutex_unlock(&ibcm_lock);
		return;
	}
	/*
	 * Not under ibcm_lock: pdcm waits for the listen's running handlers,
	 * which may destroy other ids.  A new listen for the pair does not
	 * share this one from now on; it is made as soon as pdcm has taken
	 * this one out of its table, which pdcm does before that wait.
	 */
	me->dying = true;
	mutex_unlock(&ibcm_lock);
	pdcm_destroy_id(me->pd);
	mutex_lock(&ibcm_lock);
	list_del_init(&me->listen);
	mutex_unlock(&ibcm_lock);
	ibcm_put(me);
}
EXPORT_SYMBOL(ib_destroy_cm_id);

/* ---- listens ------------------------------------------------------- */

/*
 * The live listen for (@device, @service_id), or NULL; *@dying tells
 * whether one for the pair is being destroyed.
 */
static struct ibcm_id *ibcm_find_listen(struct ib_device *device,
					__be64 service_id, bool *dying)
{
	struct ibcm_id *me;

	lockdep_assert_held(&ibcm_lock);
	*dying = false;
	list_for_each_entry(me, &ibcm_listens, listen) {
		if (me->id.device != device || me->id.service_id != service_id)
			continue;
		if (!me->dying)
			return me;
		*dying = true;
	}
	return NULL;
}

static bool ibcm_reserved(__be64 service_id)
{
	return (service_id & IB_SERVICE_ID_AGN_MASK) == IB_CM_ASSIGN_SERVICE_ID &&
	       service_id != IB_CM_ASSIGN_SERVICE_ID;
}

static int ibcm_listen_locked(struct ibcm_id *me, __be64 service_id)
{
	struct pdcm_listen_attr attr = {
		.service_id = service_id,
		.service_mask = 0,	/* exact */
		.backlog = min(READ_ONCE(listen_backlog), 1U << 20),
	};
	bool dying = false;
	int ret;

	lockdep_assert_held(&ibcm_lock);
	if (ibcm_reserved(service_id) || !me->id.device ||
	    READ_ONCE(me->pd->state) != PDCM_IDLE)
		return -EINVAL;
	for (;;) {
		if (service_id != IB_CM_ASSIGN_SERVICE_ID &&
		    ibcm_find_listen(me->id.device, service_id, &dying))
			return -EBUSY;
		ret = pdcm_listen(me->pd, &attr);
		if (ret != -EADDRINUSE || !dying)
			break;
		/*
		 * The dying listen is still in pdcm's table, for a grace
		 * period at most: its destroy takes it out before it waits
		 * for the listen's handlers.  Waiting for that destroy to
		 * end instead would wait for those handlers, which rdma_cm
		 * runs under the lock its ib_cm_insert_listen() caller holds.
		 */
		mutex_unlock(&ibcm_lock);
		usleep_range(500, 1000);
		mutex_lock(&ibcm_lock);
	}
	if (ret == -EADDRINUSE)
		ret = -EBUSY;
	if (ret)
		return ret;
	ibcm_sync(me);
	me->share = 1;
	me->listening = true;
	list_add_tail(&me->listen, &ibcm_listens);
	return 0;
}

/**
 * ib_cm_listen() - listen for connection and SIDR requests
 * @cm_id: an id in IB_CM_IDLE created on a device
 * @service_id: the service ID (exact match), or IB_CM_ASSIGN_SERVICE_ID
 *	for one the CM picks (then in @cm_id->service_id)
 *
 * Requests arrive at @cm_id's handler on new ids.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL outside IDLE or in the CM's reserved service-ID
 * range; -EBUSY if a listen on the device has the service ID; -ENOMEM.
 */
int ib_cm_listen(struct ib_cm_id *cm_id, __be64 service_id)
{
	int ret;

	mutex_lock(&ibcm_lock);
	ret = ibcm_listen_locked(to_ibcm(cm_id), service_id);
	mutex_unlock(&ibcm_lock);
	return ret;
}
EXPORT_SYMBOL(ib_cm_listen);

/**
 * ib_cm_insert_listen() - a listen on (@device, @service_id), shared
 * @device: the device
 * @cm_handler: the handler of the listen
 * @service_id: its service ID
 *
 * An existing listen for @device and @service_id with the same handler
 * and a NULL context is returned with its share count raised; each
 * ib_destroy_cm_id() lowers it and the last one removes the listen.
 *
 * Context: process context; may sleep.
 * Return: the listening id; ERR_PTR(-EINVAL) if a listen for the pair has
 * another handler or a context, or the service ID is reserved;
 * ERR_PTR(-ENOMEM).
 */
struct ib_cm_id *ib_cm_insert_listen(struct ib_device *device,
				     ib_cm_handler cm_handler,
				     __be64 service_id)
{
	struct ib_cm_id *cm_id;
	struct ibcm_id *me;
	bool dying;
	int ret;

	mutex_lock(&ibcm_lock);
again:
	me = ibcm_find_listen(device, service_id, &dying);
	if (me) {
		if (me->id.cm_handler != cm_handler || me->id.context) {
			cm_id = ERR_PTR(-EINVAL);
		} else {
			me->share++;
			cm_id = &me->id;
		}
		goto out;
	}
	cm_id = ib_create_cm_id(device, cm_handler, NULL);
	if (IS_ERR(cm_id))
		goto out;
	ret = ibcm_listen_locked(to_ibcm(cm_id), service_id);
	if (ret) {
		pdcm_destroy_id(to_ibcm(cm_id)->pd);
		ibcm_put(to_ibcm(cm_id));
		cm_id = ERR_PTR(ret == -EBUSY ? -EINVAL : ret);
		/* another insert made the listen while we waited: share it */
		if (ret == -EBUSY && ibcm_find_listen(device, service_id, &dying))
			goto again;
	}
out:
	mutex_unlock(&ibcm_lock);
	return cm_id;
}
EXPORT_SYMBOL(ib_cm_insert_listen);

/* ---- events -------------------------------------------------------- */

static const struct {
	s8 type;		/* enum ib_cm_event_type, -1: not passed on */
	u8 pdata;		/* private data size, 0: none */
} ibcm_events[PDCM_NUM_EVENTS] = {
	[PDCM_REQ_ERROR] = { IB_CM_REQ_ERROR, 0 },
	[PDCM_REQ_RECEIVED] = { IB_CM_REQ_RECEIVED, IB_CM_REQ_PRIVATE_DATA_SIZE },
	[PDCM_REP_ERROR] = { IB_CM_REP_ERROR, 0 },
	[PDCM_REP_RECEIVED] = { IB_CM_REP_RECEIVED, IB_CM_REP_PRIVATE_DATA_SIZE },
	[PDCM_RTU_RECEIVED] = { IB_CM_RTU_RECEIVED, IB_CM_RTU_PRIVATE_DATA_SIZE },
	[PDCM_USER_ESTABLISHED] = { IB_CM_USER_ESTABLISHED, 0 },
	[PDCM_DREQ_ERROR] = { IB_CM_DREQ_ERROR, 0 },
	[PDCM_DREQ_RECEIVED] = { IB_CM_DREQ_RECEIVED, IB_CM_DREQ_PRIVATE_DATA_SIZE },
	[PDCM_DREP_RECEIVED] = { IB_CM_DREP_RECEIVED, IB_CM_DREP_PRIVATE_DATA_SIZE },
	[PDCM_TIMEWAIT_EXIT] = { IB_CM_TIMEWAIT_EXIT, 0 },
	[PDCM_MRA_RECEIVED] = { IB_CM_MRA_RECEIVED, IB_CM_MRA_PRIVATE_DATA_SIZE },
	[PDCM_REJ_RECEIVED] = { IB_CM_REJ_RECEIVED, IB_CM_REJ_PRIVATE_DATA_SIZE },
	[PDCM_SIDR_REQ_ERROR] = { IB_CM_SIDR_REQ_ERROR, 0 },
	[PDCM_SIDR_REQ_RECEIVED] = { IB_CM_SIDR_REQ_RECEIVED,
				     IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE },
	[PDCM_SIDR_REP_RECEIVED] = { IB_CM_SIDR_REP_RECEIVED,
				     IB_CM_SIDR_REP_PRIVATE_DATA_SIZE },
	[PDCM_SEND_ERROR] = { -1, 0 },
	[PDCM_LAP_RECEIVED] = { IB_CM_LAP_RECEIVED, IB_CM_LAP_PRIVATE_DATA_SIZE },
};

/*
 * What an event points to while its handler runs: ib_cm's users copy what
 * they keep (rdma_cm copies the paths and the private data), so the
 * delivering call's stack holds it, not every id.
 */
struct ibcm_delivery {
	struct sa_path_rec path;	/* the primary path of a REQ */
	struct sa_path_rec alt;		/* the alternate of a REQ or LAP */
	/* private data zero padded to the message's whole field (RTU and
	 * DREP have the largest, 224 bytes)
	 */
	u8 pdata[IB_CM_RTU_PRIVATE_DATA_SIZE];
};

/* A path of pdcm's, as ib_cm delivers it: with the service ID. */
static struct sa_path_rec *ibcm_path(struct ibcm_id *me,
				     const struct sa_path_rec *from,
				     struct sa_path_rec *to)
{
	if (!from)
		return NULL;
	*to = *from;
	to->service_id = me->pd->service_id;
	return to;
}

static void ibcm_req_param(struct ibcm_id *me, struct ibcm_id *listener,
			   const struct pdcm_req_event_param *p,
			   struct ib_cm_req_event_param *q,
			   struct ibcm_delivery *d)
{
	struct sa_path_rec *path = ibcm_path(me, p->primary_path, &d->path);

	if (p->sgid_attr)
		path->rec_type =
			sa_conv_gid_to_pathrec_type(p->sgid_attr->gid_type);
	q->listen_id = &listener->id;
	q->bth_pkey = p->bth_pkey;
	q->port = p->port;
	q->primary_path = path;
	/* InfiniBand only: its record type is the primary's, IB */
	q->alternate_path = ibcm_path(me, p->alternate_path, &d->alt);
	q->ppath_sgid_attr = p->sgid_attr;
	q->remote_ca_guid = p->remote_ca_guid;
	q->remote_qkey = p->remote_qkey;
	q->remote_qpn = p->remote_qpn;
	q->qp_type = p->qp_type;
	q->starting_psn = p->starting_psn;
	q->responder_resources = p->responder_resources;
	q->initiator_depth = p->initiator_depth;
	q->local_cm_response_timeout = p->local_cm_response_timeout;
	q->flow_control = p->flow_control;
	q->remote_cm_response_timeout = p->remote_cm_response_timeout;
	q->retry_count = p->retry_count;
	q->rnr_retry_count = p->rnr_retry_count;
	q->srq = p->srq;
	q->ece.vendor_id = p->ece.vendor_id;
	q->ece.attr_mod = p->ece.attr_mod;
}

static void ibcm_rep_param(const struct pdcm_rep_event_param *p,
			   struct ib_cm_rep_event_param *q)
{
	q->remote_ca_guid = p->remote_ca_guid;
	q->remote_qkey = p->remote_qkey;
	q->remote_qpn = p->remote_qpn;
	q->starting_psn = p->starting_psn;
	q->responder_resources = p->responder_resources;
	q->initiator_depth = p->initiator_depth;
	q->target_ack_delay = p->target_ack_delay;
	q->failover_accepted = p->failover_accepted;
	q->flow_control = p->flow_control;
	q->rnr_retry_count = p->rnr_retry_count;
	q->srq = p->srq;
	q->ece.vendor_id = p->ece.vendor_id;
	q->ece.attr_mod = p->ece.attr_mod;
}

static void ibcm_params(struct ibcm_id *me, struct ibcm_id *listener,
			const struct pdcm_event *pev, struct ib_cm_event *ev,
			struct ibcm_delivery *d)
{
	switch (pev->event) {
	case PDCM_REQ_RECEIVED:
		ibcm_req_param(me, listener, &pev->param.req_rcvd,
			       &ev->param.req_rcvd, d);
		break;
	case PDCM_LAP_RECEIVED:
		ev->param.lap_rcvd.alternate_path =
			ibcm_path(me, pev->param.lap_rcvd.alternate_path,
				  &d->alt);
		break;
	case PDCM_REP_RECEIVED:
		ibcm_rep_param(&pev->param.rep_rcvd, &ev->param.rep_rcvd);
		break;
	case PDCM_REJ_RECEIVED:
		ev->param.rej_rcvd.reason = pev->param.rej_rcvd.reason;
		ev->param.rej_rcvd.ari = (void *)pev->param.rej_rcvd.ari;
		ev->param.rej_rcvd.ari_length = pev->param.rej_rcvd.ari_length;
		break;
	case PDCM_MRA_RECEIVED:
		ev->param.mra_rcvd.service_timeout =
			pev->param.mra_rcvd.service_timeout;
		break;
	case PDCM_SIDR_REQ_RECEIVED:
		ev->param.sidr_req_rcvd.listen_id = &listener->id;
		ev->param.sidr_req_rcvd.service_id =
			pev->param.sidr_req_rcvd.service_id;
		ev->param.sidr_req_rcvd.sgid_attr =
			pev->param.sidr_req_rcvd.sgid_attr;
		ev->param.sidr_req_rcvd.bth_pkey =
			pev->param.sidr_req_rcvd.bth_pkey;
		ev->param.sidr_req_rcvd.port = pev->param.sidr_req_rcvd.port;
		ev->param.sidr_req_rcvd.pkey = pev->param.sidr_req_rcvd.pkey;
		break;
	case PDCM_SIDR_REP_RECEIVED:
		ev->param.sidr_rep_rcvd.status = pev->param.sidr_rep_rcvd.status;
		ev->param.sidr_rep_rcvd.qkey = pev->param.sidr_rep_rcvd.qkey;
		ev->param.sidr_rep_rcvd.qpn = pev->param.sidr_rep_rcvd.qpn;
		ev->param.sidr_rep_rcvd.info =
			(void *)pev->param.sidr_rep_rcvd.info;
		ev->param.sidr_rep_rcvd.info_len =
			pev->param.sidr_rep_rcvd.info_len;
		/*
		 * rdma_cm builds the UD address from it (by the GID's value
		 * without: a VLAN's link-local GID is its parent's too)
		 */
		ev->param.sidr_rep_rcvd.sgid_attr =
			pev->param.sidr_rep_rcvd.sgid_attr;
		break;
	case PDCM_REQ_ERROR:
	case PDCM_REP_ERROR:
	case PDCM_DREQ_ERROR:
	case PDCM_SIDR_REQ_ERROR:
		ev->param.send_status = pev->param.send_status;
		break;
	default:
		break;
	}
}

/*
 * pdcm's handler of every facade id: one event at a time per id, in
 * process context.  A non-zero return makes pdcm destroy the pdcm_id
 * (with REJ, unless -ENOMEM); the ibcm_id is freed here first.
 */
static int ibcm_handler(struct pdcm_id *pd, const struct pdcm_event *pev)
{
	struct ibcm_id *me = pd->context, *listener = NULL;
	struct ib_cm_event ev = {};
	struct ibcm_delivery d;
	unsigned int size;
	int ret;

	if (pev->event >= PDCM_NUM_EVENTS || ibcm_events[pev->event].type < 0)
		return 0;
	if (pev->event == PDCM_REQ_RECEIVED ||
	    pev->event == PDCM_SIDR_REQ_RECEIVED) {
		/* a new passive id, still carrying the listen's context */
		listener = pev->event == PDCM_REQ_RECEIVED ?
			   pev->param.req_rcvd.listen_context :
			   pev->param.sidr_req_rcvd.listen_context;
		me = ibcm_alloc(pd->device, listener->id.cm_handler,
				listener->id.context);
		if (!me)
			return -ENOMEM;	/* no REJ: the peer retries */
		me->pd = pd;
		pd->context = me;
	}
	ibcm_sync(me);
	ev.event = ibcm_events[pev->event].type;
	ibcm_params(me, listener, pev, &ev, &d);
	size = ibcm_events[pev->event].pdata;
	if (size) {
		/* ib_cm's users read the whole field of the message */
		unsigned int len = min_t(unsigned int, pev->private_data_len,
					 size);

		if (len && pev->private_data)
			memcpy(d.pdata, pev->private_data, len);
		else
			len = 0;
		memset(d.pdata + len, 0, size - len);
		ev.private_data = d.pdata;
	}
	ret = me->id.cm_handler(&me->id, &ev);
	if (ret) {
		/* pdcm destroys the pdcm_id; nothing reaches @me again */
		ibcm_put(me);
		return ret;
	}
	ibcm_sync(me);
	return 0;
}

/* ---- sending ------------------------------------------------------- */

/* The local port a path starts from: its GID entry's, or by lookup. */
static int ibcm_port_of(struct ib_device *device, struct sa_path_rec *path,
			const struct ib_gid_attr *sgid_attr, u32 *port)
{
	const struct ib_gid_attr *attr;

	if (sgid_attr) {
		*port = sgid_attr->port_num;
		return 0;
	}
	if (!device)
		return -EINVAL;
	attr = rdma_find_gid(device, &path->sgid,
			     sa_conv_pathrec_to_gid_type(path), NULL);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	*port = attr->port_num;
	rdma_put_gid_attr(attr);
	return 0;
}

/**
 * ib_send_cm_req() - send a connection request (active side)
 * @cm_id: an id in IB_CM_IDLE
 * @param: the request; its alternate path goes with it (InfiniBand:
 *	the QP's, for path migration); the OPA inbound and outbound paths
 *	are not sent (Documentation/ibcm.rst)
 *
 * Context: process context; may sleep.
 * Return: 0 (the id is in IB_CM_REQ_SENT); -EINVAL in the wrong state or
 * for bad parameters; -ENODEV if pdcm does not run on the port; another
 * negative errno from the transport.
 */
int ib_send_cm_req(struct ib_cm_id *cm_id, struct ib_cm_req_param *param)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	struct pdcm_req_param p = {};
	int ret;

	if (!param || !param->primary_path)
		return -EINVAL;
	ret = ibcm_port_of(cm_id->device, param->primary_path,
			   param->ppath_sgid_attr, &p.port);
	if (ret)
		return ret;
	p.primary_path = param->primary_path;
	p.alternate_path = param->alternate_path;
	p.sgid_attr = param->ppath_sgid_attr;
	p.service_id = param->service_id;
	p.qp_num = param->qp_num;
	p.qp_type = param->qp_type;
	p.starting_psn = param->starting_psn;
	p.private_data = param->private_data;
	p.private_data_len = param->private_data_len;
	p.responder_resources = param->responder_resources;
	p.initiator_depth = param->initiator_depth;
	p.remote_cm_response_timeout = param->remote_cm_response_timeout;
	p.local_cm_response_timeout = param->local_cm_response_timeout;
	p.flow_control = param->flow_control;
	p.retry_count = param->retry_count;
	p.rnr_retry_count = param->rnr_retry_count;
	p.max_cm_retries = param->max_cm_retries;
	p.srq = param->srq;
	p.ece.vendor_id = param->ece.vendor_id;
	p.ece.attr_mod = param->ece.attr_mod;
	ret = pdcm_send_req(me->pd, &p);
	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_req);

/**
 * ib_send_cm_rep() - accept a connection request (passive side)
 * @cm_id: an id in IB_CM_REQ_RCVD or IB_CM_MRA_REQ_SENT
 * @param: the reply
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in IB_CM_REP_SENT); -EINVAL in the wrong state or
 * for bad parameters; another negative errno from the transport.
 */
int ib_send_cm_rep(struct ib_cm_id *cm_id, struct ib_cm_rep_param *param)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	struct pdcm_rep_param p = {};
	int ret;

	if (!param)
		return -EINVAL;
	p.qp_num = param->qp_num;
	p.starting_psn = param->starting_psn;
	p.private_data = param->private_data;
	p.private_data_len = param->private_data_len;
	p.responder_resources = param->responder_resources;
	p.initiator_depth = param->initiator_depth;
	p.failover_accepted = param->failover_accepted;
	p.flow_control = param->flow_control;
	p.rnr_retry_count = param->rnr_retry_count;
	p.srq = param->srq;
	p.ece.vendor_id = param->ece.vendor_id;
	p.ece.attr_mod = param->ece.attr_mod;
	ret = pdcm_send_rep(me->pd, &p);
	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rep);

/**
 * ib_send_cm_rtu() - complete the connection (active side)
 * @cm_id: an id in IB_CM_REP_RCVD or IB_CM_MRA_REP_SENT
 * @private_data: up to 224 bytes, or NULL
 * @private_data_len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is IB_CM_ESTABLISHED); -EINVAL in the wrong state or
 * for bad parameters; another negative errno from the transport.
 */
int ib_send_cm_rtu(struct ib_cm_id *cm_id, const void *private_data,
		   u8 private_data_len)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	int ret = pdcm_send_rtu(me->pd, private_data, private_data_len);

	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rtu);

/**
 * ib_send_cm_dreq() - start a disconnect
 * @cm_id: an id in IB_CM_ESTABLISHED
 * @private_data: up to 220 bytes, or NULL
 * @private_data_len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in IB_CM_DREQ_SENT); -EINVAL in any other state
 * (rdma_disconnect() then answers with a DREP) or for bad parameters;
 * another negative errno from the transport.
 */
int ib_send_cm_dreq(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	int ret = pdcm_send_dreq(me->pd, private_data, private_data_len);

	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_dreq);

/**
 * ib_send_cm_drep() - answer a disconnect request
 * @cm_id: an id in IB_CM_DREQ_RCVD
 * @private_data: up to 224 bytes, or NULL
 * @private_data_len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in IB_CM_TIMEWAIT); -EINVAL in the wrong state or
 * for bad parameters; another negative errno when the DREP could not be
 * sent (the id is in IB_CM_TIMEWAIT all the same, as in ib_cm).
 */
int ib_send_cm_drep(struct ib_cm_id *cm_id, const void *private_data,
		    u8 private_data_len)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	int ret = pdcm_send_drep(me->pd, private_data, private_data_len);

	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_drep);

/**
 * ib_send_cm_rej() - reject a connection request or reply
 * @cm_id: an id with a request or reply to reject
 * @reason: enum ib_cm_rej_reason
 * @ari: additional rejection information, up to 72 bytes, or NULL
 * @ari_length: its length
 * @private_data: up to 148 bytes, or NULL
 * @private_data_len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is IB_CM_IDLE); -EINVAL in the wrong state or for bad
 * parameters; another negative errno from the transport.
 */
int ib_send_cm_rej(struct ib_cm_id *cm_id, enum ib_cm_rej_reason reason,
		   void *ari, u8 ari_length, const void *private_data,
		   u8 private_data_len)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	int ret = pdcm_send_rej(me->pd, reason, ari, ari_length, private_data,
				private_data_len);

	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_rej);

#ifdef PDCM_IBCM_PREPARE_MRA
/*
 * The service timeout of the MRA that ib_prepare_cm_mra() arms: 4.096 us
 * * 2^24, about 69 s, the value the in-tree ib_cm puts in every MRA from
 * 6.16 on.
 */
#define IBCM_MRA_SERVICE_TIMEOUT	24

/**
 * ib_prepare_cm_mra() - arm an MRA for a REQ or REP that comes again
 * @cm_id: an id in IB_CM_REQ_RCVD or IB_CM_REP_RCVD
 *
 * The MRA (service timeout 24, no private data) goes on the wire only
 * when the peer's REQ, REP or LAP arrives again, and for a REQ also once
 * ib_pdcm's early_mra_pct (default 75; 0: never) of the peer's wait for
 * an answer has passed.  The id moves to IB_CM_MRA_REQ_SENT or
 * IB_CM_MRA_REP_SENT, or, established with a LAP received, its lap_state
 * to IB_CM_MRA_LAP_SENT.
 *
 * Context: any context that may take a spinlock.
 * Return: 0; -EINVAL in any other state (an id already MRAed included);
 * -ENOMEM.
 */
int ib_prepare_cm_mra(struct ib_cm_id *cm_id)
{
	struct ibcm_id *me = to_ibcm(cm_id);
	enum pdcm_state state = READ_ONCE(me->pd->state);
	int ret;

	if (state != PDCM_REQ_RCVD && state != PDCM_REP_RCVD &&
	    (state != PDCM_ESTABLISHED ||
	     READ_ONCE(me->pd->lap_state) != PDCM_LAP_RCVD))
		return -EINVAL;
	ret = pdcm_send_mra(me->pd, PDCM_MRA_FLAG_DELAY | IBCM_MRA_SERVICE_TIMEOUT,
			    NULL, 0);
	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_prepare_cm_mra);
#else
/**
 * ib_send_cm_mra() - ask the peer for more time
 * @cm_id: an id in IB_CM_REQ_RCVD or IB_CM_REP_RCVD (or already MRAed),
 *	or established with a LAP received (lap_state IB_CM_LAP_RCVD, which
 *	moves to IB_CM_MRA_LAP_SENT)
 * @service_timeout: the time asked for (5 bits), optionally ORed with
 *	IB_CM_MRA_FLAG_DELAY: the MRA then goes out only if the peer's
 *	message arrives again, and for a REQ also once ib_pdcm's
 *	early_mra_pct (default 75; 0: never) of the peer's wait has passed
 * @private_data: up to 222 bytes, or NULL
 * @private_data_len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0; -EINVAL in the wrong state or for bad parameters; another
 * negative errno from the transport.
 */
int ib_send_cm_mra(struct ib_cm_id *cm_id, u8 service_timeout,
		   const void *private_data, u8 private_data_len)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	int ret;

	BUILD_BUG_ON(IB_CM_MRA_FLAG_DELAY != PDCM_MRA_FLAG_DELAY);
	ret = pdcm_send_mra(me->pd, service_timeout, private_data,
			    private_data_len);
	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_mra);
#endif

/**
 * ib_send_cm_sidr_req() - resolve a service ID to a UD QP (active side)
 * @cm_id: an id in IB_CM_IDLE
 * @param: the request
 *
 * Context: process context; may sleep.
 * Return: 0 (the id is in IB_CM_SIDR_REQ_SENT); -EINVAL in the wrong
 * state or for bad parameters; -ENODEV if pdcm does not run on the port;
 * another negative errno from the transport.
 */
int ib_send_cm_sidr_req(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_req_param *param)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	struct pdcm_sidr_req_param p = {};
	int ret;

	if (!param || !param->path)
		return -EINVAL;
	ret = ibcm_port_of(cm_id->device, param->path, param->sgid_attr,
			   &p.port);
	if (ret)
		return ret;
	p.path = param->path;
	p.sgid_attr = param->sgid_attr;
	p.service_id = param->service_id;
	p.timeout_ms = min_t(unsigned long, param->timeout_ms, UINT_MAX);
	p.max_cm_retries = param->max_cm_retries;
	p.private_data = param->private_data;
	p.private_data_len = param->private_data_len;
	ret = pdcm_send_sidr_req(me->pd, &p);
	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_req);

/**
 * ib_send_cm_sidr_rep() - answer a SIDR request (passive side)
 * @cm_id: an id in IB_CM_SIDR_REQ_RCVD
 * @param: the answer (of @param->ece.vendor_id the low 16 bits, as
 *	ib_cm sends them)
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is IB_CM_IDLE); -EINVAL in the wrong state or for bad
 * parameters; another negative errno from the transport.
 */
int ib_send_cm_sidr_rep(struct ib_cm_id *cm_id,
			struct ib_cm_sidr_rep_param *param)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	struct pdcm_sidr_rep_param p = {};
	int ret;

	if (!param)
		return -EINVAL;
	p.qp_num = param->qp_num;
	p.qkey = param->qkey;
	p.status = param->status;
	p.info = param->info;
	p.info_length = param->info_length;
	p.private_data = param->private_data;
	p.private_data_len = param->private_data_len;
	/* the low 16 bits of the vendor ID, as ib_cm puts them in a SIDR_REP */
	p.ece.vendor_id = param->ece.vendor_id & 0xffff;
	p.ece.attr_mod = param->ece.attr_mod;
	ret = pdcm_send_sidr_rep(me->pd, &p);
	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_send_cm_sidr_rep);

/**
 * ib_cm_notify() - tell the CM what the QP saw
 * @cm_id: the id
 * @event: IB_EVENT_COMM_EST: data arrived before the RTU; the id becomes
 *	ESTABLISHED and an IB_CM_USER_ESTABLISHED event follows.
 *	IB_EVENT_PATH_MIG: the QP migrated to its alternate path, which
 *	becomes the id's (its MADs go there); an established id with no LAP
 *	received only, whose lap_state becomes IB_CM_LAP_IDLE
 *
 * Context: any, including QP event handlers (atomic).
 * Return: 0; -EISCONN if already established (COMM_EST); -EINVAL in
 * another wrong state or for another event; -ENOMEM.
 */
int ib_cm_notify(struct ib_cm_id *cm_id, enum ib_event_type event)
{
	struct ibcm_id *me = ibcm_out(cm_id);
	enum pdcm_state state = READ_ONCE(me->pd->state);
	int ret;

	switch (event) {
	case IB_EVENT_COMM_EST:
		ret = pdcm_notify(me->pd, event);
		if (ret == -EINVAL && state == PDCM_ESTABLISHED)
			ret = -EISCONN;
		break;
	case IB_EVENT_PATH_MIG:
		ret = pdcm_notify(me->pd, event);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	ibcm_sync(me);
	return ret;
}
EXPORT_SYMBOL(ib_cm_notify);

/**
 * ib_cm_init_qp_attr() - the QP attributes for the next QP state
 * @cm_id: a connected or connecting id
 * @qp_attr: @qp_attr->qp_state says which state (INIT, RTR, RTS); the
 *	rest is filled in
 * @qp_attr_mask: set to the attributes filled in
 *
 * Context: any context that may take a spinlock.
 * Return: 0, or -EINVAL if the id's state does not allow that QP state.
 */
int ib_cm_init_qp_attr(struct ib_cm_id *cm_id, struct ib_qp_attr *qp_attr,
		       int *qp_attr_mask)
{
	return pdcm_init_qp_attr(to_ibcm(cm_id)->pd, qp_attr, qp_attr_mask);
}
EXPORT_SYMBOL(ib_cm_init_qp_attr);

/* IBA Vol. 1 Table 112, in this module's own words. */
static const char * const ibcm_rej_text[] = {
	[IB_CM_REJ_NO_QP] = "no QP available",
	[IB_CM_REJ_NO_EEC] = "no EE context available",
	[IB_CM_REJ_NO_RESOURCES] = "no resources",
	[IB_CM_REJ_TIMEOUT] = "timed out",
	[IB_CM_REJ_UNSUPPORTED] = "request not supported",
	[IB_CM_REJ_INVALID_COMM_ID] = "invalid communication ID",
	[IB_CM_REJ_INVALID_COMM_INSTANCE] = "invalid communication instance",
	[IB_CM_REJ_INVALID_SERVICE_ID] = "invalid service ID",
	[IB_CM_REJ_INVALID_TRANSPORT_TYPE] = "invalid transport type",
	[IB_CM_REJ_STALE_CONN] = "stale connection",
	[IB_CM_REJ_RDC_NOT_EXIST] = "RD channel does not exist",
	[IB_CM_REJ_INVALID_GID] = "primary remote GID rejected",
	[IB_CM_REJ_INVALID_LID] = "primary remote LID rejected",
	[IB_CM_REJ_INVALID_SL] = "primary SL rejected",
	[IB_CM_REJ_INVALID_TRAFFIC_CLASS] = "primary traffic class rejected",
	[IB_CM_REJ_INVALID_HOP_LIMIT] = "primary hop limit rejected",
	[IB_CM_REJ_INVALID_PACKET_RATE] = "primary packet rate rejected",
	[IB_CM_REJ_INVALID_ALT_GID] = "alternate remote GID rejected",
	[IB_CM_REJ_INVALID_ALT_LID] = "alternate remote LID rejected",
	[IB_CM_REJ_INVALID_ALT_SL] = "alternate SL rejected",
	[IB_CM_REJ_INVALID_ALT_TRAFFIC_CLASS] = "alternate traffic class rejected",
	[IB_CM_REJ_INVALID_ALT_HOP_LIMIT] = "alternate hop limit rejected",
	[IB_CM_REJ_INVALID_ALT_PACKET_RATE] = "alternate packet rate rejected",
	[IB_CM_REJ_PORT_CM_REDIRECT] = "port and CM redirection",
	[IB_CM_REJ_PORT_REDIRECT] = "port redirection",
	[IB_CM_REJ_INVALID_MTU] = "path MTU not supported",
	[IB_CM_REJ_INSUFFICIENT_RESP_RESOURCES] = "too few responder resources",
	[IB_CM_REJ_CONSUMER_DEFINED] = "rejected by the consumer",
	[IB_CM_REJ_INVALID_RNR_RETRY] = "RNR retry count not supported",
	[IB_CM_REJ_DUPLICATE_LOCAL_COMM_ID] = "duplicate local communication ID",
	[IB_CM_REJ_INVALID_CLASS_VERSION] = "class version not supported",
	[IB_CM_REJ_INVALID_FLOW_LABEL] = "primary flow label rejected",
	[IB_CM_REJ_INVALID_ALT_FLOW_LABEL] = "alternate flow label rejected",
	[IB_CM_REJ_VENDOR_OPTION_NOT_SUPPORTED] = "vendor option not supported",
};

/**
 * ibcm_reject_msg() - a REJ reason in words
 * @reason: enum ib_cm_rej_reason
 *
 * Context: any.
 * Return: a constant string, "unrecognized reason" for unknown values.
 */
const char *__attribute_const__ ibcm_reject_msg(int reason)
{
	if (reason >= 0 && reason < ARRAY_SIZE(ibcm_rej_text) &&
	    ibcm_rej_text[reason])
		return ibcm_rej_text[reason];
	return "unrecognized reason";
}
EXPORT_SYMBOL(ibcm_reject_msg);

static int __init ibcm_init(void)
{
	BUILD_BUG_ON((int)PDCM_LAP_UNINIT != (int)IB_CM_LAP_UNINIT);
	BUILD_BUG_ON((int)PDCM_LAP_IDLE != (int)IB_CM_LAP_IDLE);
	BUILD_BUG_ON((int)PDCM_LAP_RCVD != (int)IB_CM_LAP_RCVD);
	BUILD_BUG_ON((int)PDCM_MRA_LAP_SENT != (int)IB_CM_MRA_LAP_SENT);
	return 0;
}

static void __exit ibcm_exit(void)
{
	/* rdma_cm and the other users hold the module while they have ids */
	WARN_ON(!list_empty(&ibcm_listens));
}

module_init(ibcm_init);
module_exit(ibcm_exit);

MODULE_AUTHOR("pdcm");
MODULE_DESCRIPTION("InfiniBand CM interface (ib_cm) on pdcm");
MODULE_LICENSE("Dual BSD/GPL");
/* dkms refuses a module whose version "exactly matches" the kernel's */
MODULE_VERSION("0.1");
MODULE_IMPORT_NS(PDCM_NS(PDCM));

__diag_pop();
