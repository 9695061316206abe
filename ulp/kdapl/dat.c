// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_kdapl: DAT's IA / PSP / RSP / CR / EP connection model on pdcm's
 * public API.
 *
 * Service points.  A PSP or RSP is one pdcm listen on the RDMA CM TCP
 * service ID of its conn_qual, scoped to its IA's device and port, with
 * the compare of the IA's address (pdcm_compare_cma_addr()), or for a
 * wildcard IA (0.0.0.0, ::) of its family (pdcm_compare_cma_family()).
 * So two service points of one IA on one conn_qual are the same listen
 * and the second is -EADDRINUSE (DAT_CONN_QUAL_IN_USE), while IAs of
 * different addresses on one device -- and a wildcard IA beside them --
 * each have their own, demultiplexed by pdcm; a backlog group makes their
 * backlogs one.
 *
 * An RSP is single use: the first CR marks it used and queues it for
 * destruction (a handler cannot destroy a pdcm_id); a CR that arrives
 * before the listen is gone gets REJ 8, what pdcm answers after.
 * pdcm_dat_ia_flush() waits for used RSPs to be gone.
 *
 * Connections.  struct pdcm_dat_conn is the context of a connection's
 * pdcm_id: created with the CR (passive) or by ep_connect (active); an EP
 * points to it once it accepts or connects.  Freeing a CR (reject) or an
 * EP from the upcall that reported it is noted and done when the upcall
 * returns, by returning non-zero to pdcm.
 */
#include <linux/err.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>

#include <rdma/pdcm_dat.h>

MODULE_DESCRIPTION("pdcm_kdapl: kernel DAT connection model on the pdcm CM");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(PDCM_NS(PDCM));

/* rdma_cm's defaults for what DAT does not say. */
#define DAT_CM_TIMEOUT		20
#define DAT_CM_RETRIES		15
#define DAT_RETRY_COUNT		7
#define DAT_RNR_RETRY		7
#define DAT_EPHEMERAL_FIRST	32768
#define DAT_EPHEMERAL_COUNT	28232	/* 32768..60999, Linux's range */

struct pdcm_dat_ia {
	struct ib_device *device;
	u32 port;
	struct sockaddr_storage addr;
	spinlock_t lock;		/* the SPs' used/freeing, @reap */
	struct list_head reap;		/* used RSPs to destroy */
	struct work_struct reap_work;
};

struct pdcm_dat_sp {
	struct pdcm_dat_ia *ia;
	struct pdcm_id *id;
	struct pdcm_dat_upcall evd;
	u64 conn_qual;
	struct pdcm_dat_ep *rsp_ep;	/* RSP: its EP */
	bool rsp;
	bool used;			/* RSP: took its CR */
	bool freeing;
	struct list_head reap_node;
};

struct pdcm_dat_conn;

struct pdcm_dat_cr {
	struct pdcm_dat_conn *conn;
	struct pdcm_dat_cr_param param;
	u8 responder_resources;
	u8 initiator_depth;
	u8 flow_control;
	u8 rnr_retry_count;
};

struct pdcm_dat_conn {
	struct pdcm_id *id;
	struct pdcm_dat_ia *ia;
	spinlock_t lock;		/* the flags and @ep */
	bool in_upcall;
	bool free_on_return;
	bool dead;
	bool active;
	struct pdcm_dat_ep *ep;
	struct pdcm_dat_cr cr;		/* passive */
	struct sa_path_rec path;	/* active */
};

struct pdcm_dat_ep {
	struct pdcm_dat_ia *ia;
	struct pdcm_dat_ep_attr attr;
	struct pdcm_dat_conn *conn;
};

static atomic_t dat_next_port = ATOMIC_INIT(0);

static size_t dat_sa_len(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET ? sizeof(struct sockaddr_in) :
					  sizeof(struct sockaddr_in6);
}

static bool dat_family_ok(const struct sockaddr *sa)
{
	return sa && (sa->sa_family == AF_INET || sa->sa_family == AF_INET6);
}

static bool dat_any_addr(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr ==
		       htonl(INADDR_ANY);
	return ipv6_addr_any(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

static void dat_set_port(struct sockaddr_storage *ss, u16 port)
{
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

/* ---- connections and upcalls ----------------------------------------- */

/*
 * Call @evd for @c; returns what our pdcm handler must return: non-zero
 * when the upcall freed @c (now gone).
 */
static int dat_upcall(struct pdcm_dat_conn *c, const struct pdcm_dat_upcall *evd,
		      const struct pdcm_dat_event *ev)
{
	bool gone;

	spin_lock_irq(&c->lock);
	if (c->dead) {
		spin_unlock_irq(&c->lock);
		return 0;
	}
	c->in_upcall = true;
	spin_unlock_irq(&c->lock);

	evd->func(evd->instance_data, ev);

	spin_lock_irq(&c->lock);
	c->in_upcall = false;
	gone = c->free_on_return;
	if (gone)
		c->dead = true;
	spin_unlock_irq(&c->lock);
	if (!gone)
		return 0;
	kfree(c);
	return 1;
}

/* A connection event for @c's EP, if it still has one. */
static int dat_conn_event(struct pdcm_dat_conn *c,
			  enum pdcm_dat_event_number num,
			  const struct pdcm_event *pev, u16 reason)
{
	struct pdcm_dat_event ev = { .event_number = num };
	struct pdcm_dat_upcall evd;

	spin_lock_irq(&c->lock);
	if (!c->ep) {
		spin_unlock_irq(&c->lock);
		return 0;
	}
	evd = c->ep->attr.evd;
	ev.connect.ep_handle = c->ep;
	spin_unlock_irq(&c->lock);
	if (pev && pev->private_data) {
		ev.connect.private_data = pev->private_data;
		ev.connect.private_data_size = pev->private_data_len;
	}
	ev.connect.reason = reason;
	return dat_upcall(c, &evd, &ev);
}

/* Destroy @c's id and free it, or have its running upcall do it. */
static void dat_conn_free(struct pdcm_dat_conn *c)
{
	spin_lock_irq(&c->lock);
	c->ep = NULL;
	if (c->in_upcall) {
		c->free_on_return = true;
		spin_unlock_irq(&c->lock);
		return;
	}
	c->dead = true;
	spin_unlock_irq(&c->lock);
	pdcm_destroy_id(c->id);
	kfree(c);
}

static void dat_sp_reap(struct work_struct *work)
{
	struct pdcm_dat_ia *ia = container_of(work, struct pdcm_dat_ia,
					      reap_work);
	struct pdcm_dat_sp *sp;

	for (;;) {
		spin_lock_irq(&ia->lock);
		sp = list_first_entry_or_null(&ia->reap, struct pdcm_dat_sp,
					      reap_node);
		if (sp)
			list_del(&sp->reap_node);
		spin_unlock_irq(&ia->lock);
		if (!sp)
			return;
		pdcm_destroy_id(sp->id);
		kfree(sp);
	}
}

/* A REQ at a PSP or RSP: a new CR. */
static int dat_cr_arrival(struct pdcm_id *id, const struct pdcm_event *pev)
{
	const struct pdcm_req_event_param *p = &pev->param.req_rcvd;
	struct pdcm_dat_sp *sp = id->context;
	struct pdcm_dat_ia *ia = sp->ia;
	struct pdcm_dat_event ev = {
		.event_number = PDCM_DAT_CONNECTION_REQUEST_EVENT,
	};
	struct pdcm_dat_cr_param *cp;
	struct pdcm_dat_conn *c;
	bool refuse = false;

	if (p->addr.kind != PDCM_ADDR_CMA) {	/* cannot match our compares */
		pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
		return 1;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;			/* nothing sent: the peer retries */

	spin_lock_irq(&ia->lock);
	if (sp->rsp) {
		refuse = sp->used || sp->freeing;
		if (!refuse) {
			sp->used = true;
			list_add_tail(&sp->reap_node, &ia->reap);
		}
	}
	spin_unlock_irq(&ia->lock);
	if (refuse) {
		kfree(c);
		pdcm_send_rej(id, PDCM_REJ_INVALID_SERVICE_ID, NULL, 0, NULL, 0);
		return 1;
	}
	if (sp->rsp)
		schedule_work(&ia->reap_work);	/* waits for us to return */

	spin_lock_init(&c->lock);
	c->id = id;
	c->ia = ia;
	c->cr.conn = c;
	c->cr.responder_resources = p->responder_resources;
	c->cr.initiator_depth = p->initiator_depth;
	c->cr.flow_control = p->flow_control;
	c->cr.rnr_retry_count = p->rnr_retry_count;
	cp = &c->cr.param;
	cp->local_ia_address = p->addr.dst;
	cp->remote_ia_address = p->addr.src;
	cp->remote_port_qual = ntohs(p->addr.src.ss_family == AF_INET ?
				     ((struct sockaddr_in *)&p->addr.src)->sin_port :
				     ((struct sockaddr_in6 *)&p->addr.src)->sin6_port);
	cp->private_data_size = PDCM_DAT_REQ_PDATA_SIZE;
	memcpy(cp->private_data, (const u8 *)pev->private_data +
	       PDCM_CMA_HDR_SIZE,
	       min_t(size_t, PDCM_DAT_REQ_PDATA_SIZE,
		     pev->private_data_len - PDCM_CMA_HDR_SIZE));
	cp->local_ep_handle = sp->rsp_ep;
	cp->remote_qpn = p->remote_qpn;
	cp->remote_psn = p->starting_psn;
	cp->port = p->port;
	id->context = c;

	ev.cr_arrival.sp_handle = sp;
	ev.cr_arrival.local_ia_address_ptr =
		(const struct sockaddr *)&cp->local_ia_address;
	ev.cr_arrival.conn_qual = sp->conn_qual;
	ev.cr_arrival.cr_handle = &c->cr;
	return dat_upcall(c, &sp->evd, &ev);
}

static int dat_rep(struct pdcm_dat_conn *c, const struct pdcm_event *pev)
{
	int ret;

	ret = dat_conn_event(c, PDCM_DAT_CONNECTION_EVENT_ESTABLISHED, pev, 0);
	if (!ret)
		pdcm_send_rtu(c->id, NULL, 0);
	return ret;
}

static int dat_rej(struct pdcm_dat_conn *c, const struct pdcm_event *pev)
{
	u16 reason = pev->param.rej_rcvd.reason;
	enum pdcm_dat_event_number num;

	if (!c->active)
		num = PDCM_DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR;
	else if (reason == PDCM_REJ_CONSUMER_DEFINED)
		num = PDCM_DAT_CONNECTION_EVENT_PEER_REJECTED;
	else if (reason == PDCM_REJ_TIMEOUT)
		num = PDCM_DAT_CONNECTION_EVENT_TIMED_OUT;
	else
		num = PDCM_DAT_CONNECTION_EVENT_NON_PEER_REJECTED;
	return dat_conn_event(c, num, pev, reason);
}

static int dat_cm_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct pdcm_dat_conn *c = id->context;

	switch (ev->event) {
	case PDCM_REQ_RECEIVED:
		return dat_cr_arrival(id, ev);
	case PDCM_REP_RECEIVED:
		return dat_rep(c, ev);
	case PDCM_RTU_RECEIVED:
	case PDCM_USER_ESTABLISHED:
		return dat_conn_event(c, PDCM_DAT_CONNECTION_EVENT_ESTABLISHED,
				      NULL, 0);
	case PDCM_REJ_RECEIVED:
		return dat_rej(c, ev);
	case PDCM_REQ_ERROR:
		return dat_conn_event(c, PDCM_DAT_CONNECTION_EVENT_TIMED_OUT,
				      NULL, 0);
	case PDCM_REP_ERROR:
		return dat_conn_event(c,
				      PDCM_DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR,
				      NULL, 0);
	case PDCM_SEND_ERROR:
		return dat_conn_event(c, c->active ?
				      PDCM_DAT_CONNECTION_EVENT_UNREACHABLE :
				      PDCM_DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR,
				      NULL, 0);
	case PDCM_DREQ_RECEIVED:
		pdcm_send_drep(id, NULL, 0);
		fallthrough;
	case PDCM_DREP_RECEIVED:
	case PDCM_DREQ_ERROR:
		return dat_conn_event(c, PDCM_DAT_CONNECTION_EVENT_DISCONNECTED,
				      NULL, 0);
	default:
		return 0;
	}
}

/* ---- IA --------------------------------------------------------------- */

/**
 * pdcm_dat_ia_open() - open an interface adapter
 * @device: the RDMA device
 * @port: its port, or 0 for any (passive side only)
 * @addr: the IA's IP address (AF_INET or AF_INET6; port ignored);
 *	0.0.0.0 or :: makes a wildcard IA whose service points take CRs to
 *	any address of the family and report it in the CR
 *
 * Context: process context; may sleep.
 * Return: the IA, or ERR_PTR(-EINVAL), ERR_PTR(-EAFNOSUPPORT),
 * ERR_PTR(-ENOMEM).
 */
struct pdcm_dat_ia *pdcm_dat_ia_open(struct ib_device *device, u32 port,
				     const struct sockaddr *addr)
{
	struct pdcm_dat_ia *ia;

	if (!device)
		return ERR_PTR(-EINVAL);
	if (!dat_family_ok(addr))
		return ERR_PTR(-EAFNOSUPPORT);
	ia = kzalloc(sizeof(*ia), GFP_KERNEL);
	if (!ia)
		return ERR_PTR(-ENOMEM);
	ia->device = device;
	ia->port = port;
	memcpy(&ia->addr, addr, dat_sa_len(addr));
	dat_set_port(&ia->addr, 0);
	spin_lock_init(&ia->lock);
	INIT_LIST_HEAD(&ia->reap);
	INIT_WORK(&ia->reap_work, dat_sp_reap);
	return ia;
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ia_open, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ia_flush() - wait until used RSPs are gone
 * @ia: the IA
 *
 * After it returns, the conn_qual of every RSP that has reported its CR
 * is free again.
 *
 * Context: process context; sleeps.  Not from an upcall.
 * Return: nothing.
 */
void pdcm_dat_ia_flush(struct pdcm_dat_ia *ia)
{
	flush_work(&ia->reap_work);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ia_flush, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ia_close() - close an IA
 * @ia: the IA, or NULL; its PSPs, unused RSPs and EPs must be freed
 *
 * Context: process context; sleeps.  Not from an upcall.
 * Return: nothing.
 */
void pdcm_dat_ia_close(struct pdcm_dat_ia *ia)
{
	if (!ia)
		return;
	flush_work(&ia->reap_work);
	WARN_ON(!list_empty(&ia->reap));
	kfree(ia);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ia_close, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ia_address() - the IA's address
 * @ia: the IA
 *
 * Context: Any context.
 * Return: the address given to pdcm_dat_ia_open(), port 0.
 */
const struct sockaddr *pdcm_dat_ia_address(const struct pdcm_dat_ia *ia)
{
	return (const struct sockaddr *)&ia->addr;
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ia_address, PDCM_NS(PDCM_DAT));

/* ---- service points --------------------------------------------------- */

static struct pdcm_dat_sp *dat_sp_create(struct pdcm_dat_ia *ia,
					 const struct pdcm_dat_sp_attr *attr,
					 struct pdcm_dat_ep *rsp_ep, bool rsp)
{
	struct pdcm_listen_attr la = {};
	struct pdcm_compare cmp = {};
	const struct sockaddr *a = (const struct sockaddr *)&ia->addr;
	struct pdcm_dat_sp *sp;
	int ret;

	if (!attr || !attr->conn_qual || !attr->evd.func ||
	    attr->flags & ~PDCM_DAT_SP_REJ_ON_OVERFLOW)
		return ERR_PTR(-EINVAL);
	ret = dat_any_addr(a) ? pdcm_compare_cma_family(&cmp, a->sa_family) :
				pdcm_compare_cma_addr(&cmp, a);
	if (ret)
		return ERR_PTR(ret);
	sp = kzalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return ERR_PTR(-ENOMEM);
	sp->ia = ia;
	sp->evd = attr->evd;
	sp->conn_qual = attr->conn_qual;
	sp->rsp = rsp;
	sp->rsp_ep = rsp_ep;
	INIT_LIST_HEAD(&sp->reap_node);
	sp->id = pdcm_create_id(ia->device, dat_cm_handler, sp);
	if (IS_ERR(sp->id)) {
		ret = PTR_ERR(sp->id);
		goto free;
	}
	la.service_id = pdcm_dat_service_id(attr->conn_qual);
	la.compare = &cmp;
	la.port = ia->port;
	la.backlog = attr->backlog;
	la.backlog_group = attr->backlog_group;
	if (attr->flags & PDCM_DAT_SP_REJ_ON_OVERFLOW)
		la.flags |= PDCM_LISTEN_REJ_ON_OVERFLOW;
	ret = pdcm_listen(sp->id, &la);
	if (ret)
		goto destroy;
	return sp;

destroy:
	pdcm_destroy_id(sp->id);
free:
	kfree(sp);
	return ERR_PTR(ret);
}

/**
 * pdcm_dat_psp_create() - create a public service point (dat_psp_create)
 * @ia: the IA
 * @attr: conn_qual, the EVD for CRs, backlog
 *
 * Persistent: every CR to the IA's address (any address of the family,
 * for a wildcard IA) on the conn_qual's service ID reaches @attr->evd
 * until pdcm_dat_psp_free().
 *
 * Context: process context; may sleep.
 * Return: the PSP; ERR_PTR(-EADDRINUSE) (DAT_CONN_QUAL_IN_USE) if the IA
 * has a service point on the conn_qual already; -EINVAL; -ENOMEM.
 */
struct pdcm_dat_sp *pdcm_dat_psp_create(struct pdcm_dat_ia *ia,
					const struct pdcm_dat_sp_attr *attr)
{
	return dat_sp_create(ia, attr, NULL, false);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_psp_create, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_psp_free() - free a public service point
 * @psp: the PSP, or NULL
 *
 * CRs it reported stay valid.
 *
 * Context: process context; sleeps.  Not from an upcall.
 * Return: nothing.
 */
void pdcm_dat_psp_free(struct pdcm_dat_sp *psp)
{
	if (!psp)
		return;
	pdcm_destroy_id(psp->id);
	kfree(psp);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_psp_free, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_rsp_create() - create a reserved service point (dat_rsp_create)
 * @ia: the IA
 * @attr: as for a PSP
 * @ep: the EP the CR is meant for (reported in the CR), or NULL
 *
 * Single use: the first CR is reported and the RSP is gone with it; the
 * handle must not be used after that event.  Further CRs get REJ 8.
 *
 * Context: process context; may sleep.
 * Return: the RSP, or ERR_PTR() as pdcm_dat_psp_create().
 */
struct pdcm_dat_sp *pdcm_dat_rsp_create(struct pdcm_dat_ia *ia,
					const struct pdcm_dat_sp_attr *attr,
					struct pdcm_dat_ep *ep)
{
	return dat_sp_create(ia, attr, ep, true);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_rsp_create, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_rsp_free() - free a reserved service point before its CR
 * @rsp: the RSP, or NULL
 *
 * If a CR is being reported right now, the RSP goes with it instead.
 *
 * Context: process context; sleeps.  Not from an upcall.
 * Return: nothing.
 */
void pdcm_dat_rsp_free(struct pdcm_dat_sp *rsp)
{
	struct pdcm_dat_ia *ia;
	bool used;

	if (!rsp)
		return;
	ia = rsp->ia;
	spin_lock_irq(&ia->lock);
	used = rsp->used;
	rsp->freeing = true;
	spin_unlock_irq(&ia->lock);
	if (used)
		return;
	pdcm_destroy_id(rsp->id);
	kfree(rsp);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_rsp_free, PDCM_NS(PDCM_DAT));

/* ---- CRs -------------------------------------------------------------- */

/**
 * pdcm_dat_cr_query() - the parameters of a CR (dat_cr_query)
 * @cr: the CR
 *
 * Context: Any context.
 * Return: the CR's parameters, valid until it is accepted or rejected.
 */
const struct pdcm_dat_cr_param *pdcm_dat_cr_query(const struct pdcm_dat_cr *cr)
{
	return &cr->param;
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_cr_query, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_cr_init_qp_attr() - QP attributes before accepting
 * @cr: the CR
 * @attr: @attr->qp_state INIT or RTR; filled in
 * @mask: gets the ib_modify_qp() mask
 *
 * Context: Any context.
 * Return: what pdcm_init_qp_attr() returns.
 */
int pdcm_dat_cr_init_qp_attr(struct pdcm_dat_cr *cr, struct ib_qp_attr *attr,
			     int *mask)
{
	return pdcm_init_qp_attr(cr->conn->id, attr, mask);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_cr_init_qp_attr, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_cr_accept() - accept a CR on an EP (dat_cr_accept)
 * @cr: the CR; not to be used afterwards
 * @ep: a fresh EP of the same IA (or the RSP's EP)
 * @private_data: REP private data, or NULL
 * @len: its length, at most PDCM_DAT_REP_PDATA_SIZE
 *
 * Sends the REP with @ep's QP; @ep gets ESTABLISHED with the RTU.
 *
 * Context: process context, or the upcall that reported @cr.
 * Return: 0; -EINVAL for bad arguments; -EISCONN if @ep is in use; or
 * what pdcm_send_rep() returns (the peer may have given up: the CR is
 * then still to be rejected, which frees it).
 */
int pdcm_dat_cr_accept(struct pdcm_dat_cr *cr, struct pdcm_dat_ep *ep,
		       const void *private_data, size_t len)
{
	struct pdcm_dat_conn *c = cr->conn;
	struct pdcm_rep_param rep = {};
	int ret;

	if (!ep || len > PDCM_DAT_REP_PDATA_SIZE || (len && !private_data))
		return -EINVAL;
	if (ep->conn)
		return -EISCONN;
	rep.qp_num = ep->attr.qp_num;
	rep.starting_psn = ep->attr.starting_psn;
	rep.private_data = private_data;
	rep.private_data_len = len;
	rep.responder_resources = min(ep->attr.responder_resources,
				      cr->responder_resources);
	rep.initiator_depth = min(ep->attr.initiator_depth,
				  cr->initiator_depth);
	rep.failover_accepted = 1;	/* not supported */
	rep.flow_control = cr->flow_control;
	rep.rnr_retry_count = cr->rnr_retry_count;

	spin_lock_irq(&c->lock);
	c->ep = ep;
	spin_unlock_irq(&c->lock);
	ep->conn = c;
	ret = pdcm_send_rep(c->id, &rep);
	if (ret) {
		spin_lock_irq(&c->lock);
		c->ep = NULL;
		spin_unlock_irq(&c->lock);
		ep->conn = NULL;
	}
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_cr_accept, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_cr_reject() - reject a CR and free it (dat_cr_reject)
 * @cr: the CR; not to be used afterwards
 * @private_data: REJ private data, or NULL
 * @len: its length, at most PDCM_DAT_REJ_PDATA_SIZE
 *
 * Sends REJ 28 (consumer defined): the peer sees PEER_REJECTED.
 *
 * Context: process context, or the upcall that reported @cr.
 * Return: 0; -EINVAL for a bad length (nothing happens); or what
 * pdcm_send_rej() returns (the CR is freed all the same).
 */
int pdcm_dat_cr_reject(struct pdcm_dat_cr *cr, const void *private_data,
		       size_t len)
{
	int ret;

	if (len > PDCM_DAT_REJ_PDATA_SIZE || (len && !private_data))
		return -EINVAL;
	ret = pdcm_send_rej(cr->conn->id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0,
			    private_data, len);
	dat_conn_free(cr->conn);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_cr_reject, PDCM_NS(PDCM_DAT));

/* ---- EPs -------------------------------------------------------------- */

/**
 * pdcm_dat_ep_create() - create an endpoint (dat_ep_create)
 * @ia: the IA
 * @attr: the consumer's QP and the EVD for connection events
 *
 * Context: process context; may sleep.
 * Return: the EP, or ERR_PTR(-EINVAL), ERR_PTR(-ENOMEM).
 */
struct pdcm_dat_ep *pdcm_dat_ep_create(struct pdcm_dat_ia *ia,
				       const struct pdcm_dat_ep_attr *attr)
{
	struct pdcm_dat_ep *ep;

	if (!ia || !attr || !attr->evd.func)
		return ERR_PTR(-EINVAL);
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return ERR_PTR(-ENOMEM);
	ep->ia = ia;
	ep->attr = *attr;
	return ep;
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ep_create, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ep_connect() - connect an EP (dat_ep_connect)
 * @ep: a fresh EP of an IA with a specific address and a port
 * @remote_ia_address: the peer's address (port ignored)
 * @remote_conn_qual: the peer's conn_qual
 * @private_data: consumer private data, or NULL
 * @len: its length, at most PDCM_DAT_REQ_PDATA_SIZE
 * @path: path to the peer, or NULL to resolve one (RoCE)
 *
 * Sends a REQ whose private data is an RDMA CM header (the IA's address,
 * an ephemeral source port, @remote_ia_address) followed by
 * @private_data, to the conn_qual's RDMA CM TCP service ID.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL for bad arguments; -EADDRNOTAVAIL from a wildcard
 * IA or one without a port; -EISCONN if @ep is in use; or what
 * pdcm_resolve_path() and pdcm_send_req() return.
 */
int pdcm_dat_ep_connect(struct pdcm_dat_ep *ep,
			const struct sockaddr *remote_ia_address,
			u64 remote_conn_qual, const void *private_data,
			size_t len, struct sa_path_rec *path)
{
	struct pdcm_dat_ia *ia = ep->ia;
	const struct sockaddr *src = (const struct sockaddr *)&ia->addr;
	struct pdcm_req_param req = {};
	struct sockaddr_storage sport;
	u8 pdata[PDCM_CMA_HDR_SIZE + PDCM_DAT_REQ_PDATA_SIZE] = {};
	struct pdcm_dat_conn *c;
	int ret;

	if (!dat_family_ok(remote_ia_address) ||
	    remote_ia_address->sa_family != src->sa_family ||
	    !remote_conn_qual || len > PDCM_DAT_REQ_PDATA_SIZE ||
	    (len && !private_data))
		return -EINVAL;
	if (dat_any_addr(src) || !ia->port)
		return -EADDRNOTAVAIL;
	if (ep->conn)
		return -EISCONN;

	memcpy(&sport, src, dat_sa_len(src));
	dat_set_port(&sport, DAT_EPHEMERAL_FIRST +
		     (u32)atomic_inc_return(&dat_next_port) %
		     DAT_EPHEMERAL_COUNT);
	ret = pdcm_cma_hdr_build(pdata, sizeof(pdata),
				 (const struct sockaddr *)&sport,
				 remote_ia_address);
	if (ret)
		return ret;
	if (len)
		memcpy(pdata + PDCM_CMA_HDR_SIZE, private_data, len);

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	spin_lock_init(&c->lock);
	c->ia = ia;
	c->active = true;
	c->ep = ep;
	if (path)
		c->path = *path;
	else
		ret = pdcm_resolve_path(ia->device, ia->port, src,
					remote_ia_address, &c->path);
	if (ret)
		goto free;
	c->id = pdcm_create_id(ia->device, dat_cm_handler, c);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		goto free;
	}
	req.primary_path = &c->path;
	req.port = ia->port;
	req.service_id = pdcm_dat_service_id(remote_conn_qual);
	req.qp_num = ep->attr.qp_num;
	req.qp_type = IB_QPT_RC;
	req.starting_psn = ep->attr.starting_psn;
	req.private_data = pdata;
	req.private_data_len = sizeof(pdata);
	req.responder_resources = ep->attr.responder_resources;
	req.initiator_depth = ep->attr.initiator_depth;
	req.remote_cm_response_timeout = DAT_CM_TIMEOUT;
	req.local_cm_response_timeout = DAT_CM_TIMEOUT;
	req.flow_control = 1;
	req.retry_count = DAT_RETRY_COUNT;
	req.rnr_retry_count = DAT_RNR_RETRY;
	req.max_cm_retries = DAT_CM_RETRIES;
	ep->conn = c;
	ret = pdcm_send_req(c->id, &req);
	if (ret)
		goto destroy;
	return 0;

destroy:
	ep->conn = NULL;
	pdcm_destroy_id(c->id);
free:
	kfree(c);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ep_connect, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ep_disconnect() - disconnect an EP (dat_ep_disconnect, graceful)
 * @ep: a connected EP
 *
 * Sends DREQ; DISCONNECTED follows with the DREP or its timeout.
 *
 * Context: process context, or an upcall of @ep.
 * Return: 0; -ENOTCONN if @ep has no connection; or what pdcm_send_dreq()
 * returns.
 */
int pdcm_dat_ep_disconnect(struct pdcm_dat_ep *ep)
{
	if (!ep->conn)
		return -ENOTCONN;
	return pdcm_send_dreq(ep->conn->id, NULL, 0);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ep_disconnect, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ep_free() - free an EP and its connection (dat_ep_free)
 * @ep: the EP, or NULL; not to be used afterwards
 *
 * pdcm sends what the connection's state requires (REJ in a handshake,
 * DREQ when connected).
 *
 * Context: process context; sleeps.  Or an upcall of @ep (its connection
 * goes when the upcall returns).
 * Return: nothing.
 */
void pdcm_dat_ep_free(struct pdcm_dat_ep *ep)
{
	if (!ep)
		return;
	if (ep->conn)
		dat_conn_free(ep->conn);
	kfree(ep);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ep_free, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ep_init_qp_attr() - QP attributes for an EP's next transition
 * @ep: the EP, accepted or connecting
 * @attr: @attr->qp_state says which (INIT, RTR, RTS); filled in
 * @mask: gets the ib_modify_qp() mask
 *
 * Context: Any context.
 * Return: -ENOTCONN without a connection, else what pdcm_init_qp_attr()
 * returns.
 */
int pdcm_dat_ep_init_qp_attr(struct pdcm_dat_ep *ep, struct ib_qp_attr *attr,
			     int *mask)
{
	if (!ep->conn)
		return -ENOTCONN;
	return pdcm_init_qp_attr(ep->conn->id, attr, mask);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ep_init_qp_attr, PDCM_NS(PDCM_DAT));

/**
 * pdcm_dat_ep_notify() - pass a QP event on (IB_EVENT_COMM_EST)
 * @ep: the EP
 * @event: the QP's event
 *
 * Context: Any context.
 * Return: -ENOTCONN without a connection, else what pdcm_notify()
 * returns.
 */
int pdcm_dat_ep_notify(struct pdcm_dat_ep *ep, enum ib_event_type event)
{
	if (!ep->conn)
		return -ENOTCONN;
	return pdcm_notify(ep->conn->id, event);
}
EXPORT_SYMBOL_NS_GPL(pdcm_dat_ep_notify, PDCM_NS(PDCM_DAT));
