// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kDAPL commands: IAs, shared backlog groups, PSPs and RSPs whose CR
 * upcall accepts (an EP with its own RC QP), rejects or holds each CR, and
 * connects that open EPs, move data both ways and disconnect.  Every CR
 * is logged with what pdcm_dat_cr_query() gives.  A PSP in echo mode
 * sends each message back as it came, for peers with their own data
 * (rdma-core's rdma_client); a connect with remote=1 talks to a passive
 * end on another host (rdma_server, or this module there).
 */
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/pdcm_dat.h>

#include "shim.h"

#define ST_DAT_MSGS	4
#define ST_DAT_SIZE	1024
#define ST_DAT_HELD	16
#define ST_DAT_MAX_EPS	16

enum st_dat_mode { ST_ACCEPT, ST_REJECT, ST_HOLD, ST_ECHO };

struct st_ia {
	struct list_head node;
	char name[ST_NAME_LEN];
	struct pdcm_dat_ia *ia;
};

struct st_group {
	struct list_head node;
	char name[ST_NAME_LEN];
	struct pdcm_backlog *g;
};

struct st_pep;

struct st_sp {
	struct list_head node;
	char name[ST_NAME_LEN];
	struct st_ia *ia;
	struct pdcm_dat_sp *sp;
	bool rsp;
	bool used;			/* RSP: its CR came, the handle is gone */
	u32 msgs;			/* its EPs' messages each way */
	u32 size;			/* and their size */
	enum st_dat_mode mode;		/* under st_lock */
	struct pdcm_dat_cr *held[ST_DAT_HELD];	/* under st_lock */
	unsigned int nheld;
	struct st_pep *rsp_pep;		/* under st_lock */
	atomic_t crs;
	atomic_t accepted;
	atomic_t rejected;
};

/* A passive EP: on st_peps from its CR on (an RSP's from the RSP on). */
struct st_pep {
	struct list_head node;
	unsigned int seq;		/* 1, 2, ... in creation order */
	char spname[ST_NAME_LEN];
	struct pdcm_dat_ep *ep;
	struct st_ep v;
	u32 remote_qpn;			/* under st_lock */
	bool established, disconnected, failed;
};

struct st_aep {
	struct pdcm_dat_ep *ep;
	struct st_ep v;
	const char *result;
	u16 reason;
	char pdata[32];
	ktime_t t0;
	s64 us;
	bool final, established, disconnected;
	bool remote;			/* the passive end is elsewhere */
	u32 peer_wait;			/* s to wait for the peer's DREQ */
};

static LIST_HEAD(st_ias);
static LIST_HEAD(st_groups);
static LIST_HEAD(st_sps);
static LIST_HEAD(st_peps);
static unsigned int st_dat_runs;
static unsigned int st_pep_seq;

#define ST_FIND(list, type, nm) ({					\
	type *_o, *_f = NULL;						\
	list_for_each_entry(_o, list, node)				\
		if (!strcmp(_o->name, nm))				\
			_f = _o;					\
	_f; })

static void st_copy_pdata(char *dst, size_t size, const void *src, size_t len)
{
	size_t n = src ? min(len, size - 1) : 0;

	if (n)
		memcpy(dst, src, n);
	dst[n] = '\0';
}

static int st_dat_modify_cr(struct pdcm_dat_cr *cr, struct st_ep *v,
			    enum ib_qp_state state, u32 rq_psn)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask = 0, ret;

	ret = pdcm_dat_cr_init_qp_attr(cr, &attr, &mask);
	if (ret)
		return ret;
	if (rq_psn)
		attr.rq_psn = rq_psn;
	return st_ep_modify(v, &attr, mask);
}

static int st_dat_modify_ep(struct pdcm_dat_ep *ep, struct st_ep *v,
			    enum ib_qp_state state)
{
	struct ib_qp_attr attr = { .qp_state = state };
	int mask = 0, ret;

	ret = pdcm_dat_ep_init_qp_attr(ep, &attr, &mask);
	if (ret)
		return ret;
	return st_ep_modify(v, &attr, mask);
}

static void st_dat_pep_upcall(void *data, const struct pdcm_dat_event *ev)
{
	struct st_pep *pep = data;

	switch (ev->event_number) {
	case PDCM_DAT_CONNECTION_EVENT_ESTABLISHED:
		pep->established = true;
		if (!pep->v.echo)	/* echo: the peer speaks first */
			st_ep_send_all(&pep->v, pep->v.qp->qp_num);
		break;
	case PDCM_DAT_CONNECTION_EVENT_DISCONNECTED:
		pep->disconnected = true;
		break;
	case PDCM_DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR:
		pep->failed = true;
		break;
	default:
		break;
	}
	wake_up_all(&st_wq);
}

static struct st_pep *st_pep_create(struct st_sp *sp)
{
	struct pdcm_dat_ep_attr attr = {};
	struct st_pep *pep;
	int ret;

	pep = kzalloc(sizeof(*pep), GFP_KERNEL);
	if (!pep)
		return ERR_PTR(-ENOMEM);
	strscpy(pep->spname, sp->name, sizeof(pep->spname));
	ret = st_ep_create(&pep->v, sp->msgs, sp->size);
	if (ret) {
		kfree(pep);
		return ERR_PTR(ret);
	}
	pep->v.echo = sp->mode == ST_ECHO;
	attr.qp_num = pep->v.qp->qp_num;
	attr.starting_psn = pep->v.psn;
	attr.evd.func = st_dat_pep_upcall;
	attr.evd.instance_data = pep;
	pep->ep = pdcm_dat_ep_create(sp->ia->ia, &attr);
	if (IS_ERR(pep->ep)) {
		ret = PTR_ERR(pep->ep);
		st_ep_destroy(&pep->v);
		kfree(pep);
		return ERR_PTR(ret);
	}
	st_get(ST_DAT_EP);
	mutex_lock(&st_lock);
	pep->seq = ++st_pep_seq;
	mutex_unlock(&st_lock);
	return pep;
}

static void st_pep_free(struct st_pep *pep)
{
	pdcm_dat_ep_free(pep->ep);
	st_ep_destroy(&pep->v);
	kfree(pep);
	st_put(ST_DAT_EP);
}

/* Accept @cr on a new EP (the RSP's for an RSP), or reject it. */
static void st_dat_answer(struct st_sp *sp, struct pdcm_dat_cr *cr,
			  enum st_dat_mode mode)
{
	const struct pdcm_dat_cr_param *p = pdcm_dat_cr_query(cr);
	char pd[ST_NAME_LEN + 4];
	struct st_pep *pep;
	int ret;

	if (mode == ST_REJECT) {
		snprintf(pd, sizeof(pd), "rej:%s", sp->name);
		pdcm_dat_cr_reject(cr, pd, strlen(pd) + 1);
		atomic_inc(&sp->rejected);
		return;
	}
	if (p->local_ep_handle) {
		mutex_lock(&st_lock);
		pep = sp->rsp_pep;
		if (pep)
			pep->remote_qpn = p->remote_qpn;
		mutex_unlock(&st_lock);
		if (!pep || pep->ep != p->local_ep_handle) {
			pdcm_dat_cr_reject(cr, NULL, 0);
			return;
		}
	} else {
		pep = st_pep_create(sp);
		if (IS_ERR(pep)) {
			pdcm_dat_cr_reject(cr, NULL, 0);
			return;
		}
		pep->remote_qpn = p->remote_qpn;
		mutex_lock(&st_lock);
		list_add_tail(&pep->node, &st_peps);
		mutex_unlock(&st_lock);
	}
	/* rdma_cm's order: RTR and RTS before the REP */
	ret = st_dat_modify_cr(cr, &pep->v, IB_QPS_INIT, 0);
	if (!ret)
		ret = st_ep_post_recvs(&pep->v);
	if (!ret)
		ret = st_dat_modify_cr(cr, &pep->v, IB_QPS_RTR, pep->v.psn);
	if (!ret)
		ret = st_dat_modify_cr(cr, &pep->v, IB_QPS_RTS, 0);
	snprintf(pd, sizeof(pd), "acc:%s", sp->name);
	if (!ret)
		ret = pdcm_dat_cr_accept(cr, pep->ep, pd, strlen(pd) + 1);
	if (ret) {
		st_log("cr_accept_failed %s err=%d", sp->name, ret);
		pdcm_dat_cr_reject(cr, NULL, 0);
		return;
	}
	atomic_inc(&sp->accepted);
}

static void st_dat_cr_upcall(void *data, const struct pdcm_dat_event *ev)
{
	const struct pdcm_dat_cr_arrival_event_data *a = &ev->cr_arrival;
	const struct pdcm_dat_cr_param *p;
	struct st_sp *sp = data;
	enum st_dat_mode mode;
	char pd[PDCM_DAT_REQ_PDATA_SIZE + 1];

	if (ev->event_number != PDCM_DAT_CONNECTION_REQUEST_EVENT)
		return;
	p = pdcm_dat_cr_query(a->cr_handle);
	st_copy_pdata(pd, sizeof(pd), p->private_data, p->private_data_size);
	st_log("cr %s local=%pISpc arrival=%pISpc remote=%pISc rport=%u pdata=%s len=%zu",
	       sp->name, &p->local_ia_address, a->local_ia_address_ptr,
	       &p->remote_ia_address, p->remote_port_qual, pd,
	       p->private_data_size);
	atomic_inc(&sp->crs);
	mutex_lock(&st_lock);
	if (sp->rsp)
		sp->used = true;
	mode = sp->mode;
	if (mode == ST_HOLD && sp->nheld < ST_DAT_HELD) {
		sp->held[sp->nheld++] = a->cr_handle;
		mutex_unlock(&st_lock);
		return;
	}
	mutex_unlock(&st_lock);
	st_dat_answer(sp, a->cr_handle, mode == ST_HOLD ? ST_REJECT : mode);
}

static int st_dat_ia(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct st_ia *ia;
	int ret;

	if (argc < 3 || strlen(argv[1]) >= ST_NAME_LEN ||
	    st_parse_addr(argv[2], 0, &ss))
		return -EINVAL;
	ia = kzalloc(sizeof(*ia), GFP_KERNEL);
	if (!ia)
		return -ENOMEM;
	strscpy(ia->name, argv[1], sizeof(ia->name));
	ia->ia = pdcm_dat_ia_open(st_dev, 1, (struct sockaddr *)&ss);
	if (IS_ERR(ia->ia)) {
		ret = PTR_ERR(ia->ia);
		kfree(ia);
		return ret;
	}
	st_get(ST_DAT_IA);
	mutex_lock(&st_lock);
	list_add_tail(&ia->node, &st_ias);
	mutex_unlock(&st_lock);
	return 0;
}

static int st_dat_group(int argc, char **argv)
{
	struct st_group *g;
	u32 limit;
	int ret;

	if (argc < 3 || strlen(argv[1]) >= ST_NAME_LEN ||
	    kstrtou32(argv[2], 0, &limit))
		return -EINVAL;
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	strscpy(g->name, argv[1], sizeof(g->name));
	g->g = pdcm_backlog_create(limit);
	if (IS_ERR(g->g)) {
		ret = PTR_ERR(g->g);
		kfree(g);
		return ret;
	}
	st_get(ST_GROUP);
	mutex_lock(&st_lock);
	list_add_tail(&g->node, &st_groups);
	mutex_unlock(&st_lock);
	return 0;
}

static int st_dat_sp(int argc, char **argv, bool rsp)
{
	struct pdcm_dat_sp_attr attr = {};
	const char *mode, *gname;
	struct st_group *g = NULL;
	struct st_sp *sp;
	int ret;

	if (argc < 4 || strlen(argv[1]) >= ST_NAME_LEN)
		return -EINVAL;
	sp = kzalloc(sizeof(*sp), GFP_KERNEL);
	if (!sp)
		return -ENOMEM;
	strscpy(sp->name, argv[1], sizeof(sp->name));
	sp->rsp = rsp;
	mode = st_opt(argc, argv, "mode") ?: "accept";
	sp->mode = !strcmp(mode, "reject") ? ST_REJECT :
		   !strcmp(mode, "hold") ? ST_HOLD :
		   !strcmp(mode, "echo") ? ST_ECHO : ST_ACCEPT;
	sp->msgs = st_opt_u32(argc, argv, "msgs", ST_DAT_MSGS);
	sp->size = st_opt_u32(argc, argv, "size", ST_DAT_SIZE);
	ret = kstrtou64(argv[3], 0, &attr.conn_qual);
	if (ret)
		goto err;
	attr.evd.func = st_dat_cr_upcall;
	attr.evd.instance_data = sp;
	attr.backlog = st_opt_u32(argc, argv, "backlog", 0);
	if (st_opt_u32(argc, argv, "rej_overflow", 0))
		attr.flags |= PDCM_DAT_SP_REJ_ON_OVERFLOW;
	gname = st_opt(argc, argv, "group");
	mutex_lock(&st_lock);
	sp->ia = ST_FIND(&st_ias, struct st_ia, argv[2]);
	if (gname)
		g = ST_FIND(&st_groups, struct st_group, gname);
	ret = -ENOENT;
	if (!sp->ia || (gname && !g) || ST_FIND(&st_sps, struct st_sp, sp->name))
		goto err_unlock;
	mutex_unlock(&st_lock);
	attr.backlog_group = g ? g->g : NULL;
	if (rsp) {
		sp->rsp_pep = st_pep_create(sp);
		if (IS_ERR(sp->rsp_pep)) {
			ret = PTR_ERR(sp->rsp_pep);
			goto err;
		}
		mutex_lock(&st_lock);
		list_add_tail(&sp->rsp_pep->node, &st_peps);
		mutex_unlock(&st_lock);
		sp->sp = pdcm_dat_rsp_create(sp->ia->ia, &attr, sp->rsp_pep->ep);
	} else {
		sp->sp = pdcm_dat_psp_create(sp->ia->ia, &attr);
	}
	if (IS_ERR(sp->sp)) {
		ret = PTR_ERR(sp->sp);
		st_log("sp %s refused err=%d dat_status=%d", sp->name, ret,
		       pdcm_dat_status(ret));
		goto err;	/* an RSP's EP stays on st_peps for close */
	}
	st_get(ST_DAT_SP);
	mutex_lock(&st_lock);
	list_add_tail(&sp->node, &st_sps);
	mutex_unlock(&st_lock);
	return 0;

err_unlock:
	mutex_unlock(&st_lock);
err:
	kfree(sp);
	return ret;
}

/* Answer the CRs held so far; later ones get @mode at once. */
static int st_dat_sp_mode(int argc, char **argv)
{
	struct pdcm_dat_cr *held[ST_DAT_HELD];
	enum st_dat_mode mode;
	unsigned int i, n;
	struct st_sp *sp;

	if (argc < 3)
		return -EINVAL;
	mode = !strcmp(argv[2], "reject") ? ST_REJECT : ST_ACCEPT;
	mutex_lock(&st_lock);
	sp = ST_FIND(&st_sps, struct st_sp, argv[1]);
	if (!sp) {
		mutex_unlock(&st_lock);
		return -ENOENT;
	}
	sp->mode = mode;
	n = sp->nheld;
	memcpy(held, sp->held, n * sizeof(held[0]));
	sp->nheld = 0;
	mutex_unlock(&st_lock);
	for (i = 0; i < n; i++)
		st_dat_answer(sp, held[i], mode);
	return 0;
}

static void st_dat_sp_free(struct st_sp *sp)
{
	unsigned int i;

	for (i = 0; i < sp->nheld; i++)
		pdcm_dat_cr_reject(sp->held[i], NULL, 0);
	if (sp->rsp) {
		if (!sp->used)
			pdcm_dat_rsp_free(sp->sp);
	} else {
		pdcm_dat_psp_free(sp->sp);
	}
	kfree(sp);
	st_put(ST_DAT_SP);
}

static int st_dat_sp_free_cmd(int argc, char **argv)
{
	struct st_sp *sp;

	if (argc < 2)
		return -EINVAL;
	mutex_lock(&st_lock);
	sp = ST_FIND(&st_sps, struct st_sp, argv[1]);
	if (sp)
		list_del(&sp->node);
	mutex_unlock(&st_lock);
	if (!sp)
		return -ENOENT;
	st_dat_sp_free(sp);
	return 0;
}

static void st_dat_aep_upcall(void *data, const struct pdcm_dat_event *ev)
{
	const struct pdcm_dat_connection_event_data *c = &ev->connect;
	struct st_aep *a = data;
	int ret;

	switch (ev->event_number) {
	case PDCM_DAT_CONNECTION_EVENT_ESTABLISHED:
		a->us = ktime_us_delta(ktime_get(), a->t0);
		st_copy_pdata(a->pdata, sizeof(a->pdata), c->private_data,
			      c->private_data_size);
		ret = st_dat_modify_ep(c->ep_handle, &a->v, IB_QPS_INIT);
		if (!ret)
			ret = st_ep_post_recvs(&a->v);
		if (!ret)
			ret = st_dat_modify_ep(c->ep_handle, &a->v, IB_QPS_RTR);
		if (!ret)
			ret = st_dat_modify_ep(c->ep_handle, &a->v, IB_QPS_RTS);
		if (!ret)
			ret = st_ep_send_all(&a->v, a->v.qp->qp_num);
		a->result = ret ? "qp_error" : "ok";
		a->established = !ret;
		break;
	case PDCM_DAT_CONNECTION_EVENT_PEER_REJECTED:
		a->result = "peer_rej";
		a->reason = c->reason;
		st_copy_pdata(a->pdata, sizeof(a->pdata), c->private_data,
			      c->private_data_size);
		break;
	case PDCM_DAT_CONNECTION_EVENT_NON_PEER_REJECTED:
		a->result = "non_peer_rej";
		a->reason = c->reason;
		break;
	case PDCM_DAT_CONNECTION_EVENT_TIMED_OUT:
		a->result = "timeout";
		break;
	case PDCM_DAT_CONNECTION_EVENT_UNREACHABLE:
		a->result = "unreachable";
		break;
	case PDCM_DAT_CONNECTION_EVENT_DISCONNECTED:
		a->disconnected = true;
		break;
	default:
		break;
	}
	if (ev->event_number != PDCM_DAT_CONNECTION_EVENT_DISCONNECTED)
		a->final = true;
	wake_up_all(&st_wq);
}

static struct st_pep *st_dat_peer(u32 qpn)
{
	struct st_pep *pep, *found = NULL;

	mutex_lock(&st_lock);
	list_for_each_entry(pep, &st_peps, node)
		if (pep->remote_qpn == qpn)
			found = pep;
	mutex_unlock(&st_lock);
	return found;
}

static bool st_dat_all_final(struct st_aep *a, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!a[i].final)
			return false;
	return true;
}

/* The peer's DREQ, if asked to wait for it; else (or without it) ours. */
static const char *st_dat_disconnect(struct st_aep *a, struct st_pep *pep,
				     const char **result)
{
	const char *by = "peer";

	if (!a->peer_wait ||
	    !wait_event_timeout(st_wq, a->disconnected, a->peer_wait * HZ)) {
		by = a->disconnected ? "peer" : "local";
		pdcm_dat_ep_disconnect(a->ep);
	}
	if (!wait_event_timeout(st_wq, a->disconnected &&
				(!pep || pep->disconnected), 10 * HZ))
		*result = "disconnect_timeout";
	return by;
}

static void st_dat_finish(unsigned int run, u32 i, struct st_aep *a)
{
	struct st_pep *pep = NULL;
	const char *result = a->result ?: "no_answer";
	const char *by = "-";
	char tail[64];

	if (a->established && a->remote) {
		/* the peer has our messages once our sends complete */
		if (!wait_event_timeout(st_wq, st_ep_rx_done(&a->v) &&
					st_ep_tx_done(&a->v), 10 * HZ))
			result = "data_timeout";
		by = st_dat_disconnect(a, NULL, &result);
	} else if (a->established) {
		pep = st_dat_peer(a->v.qp->qp_num);
		if (!pep)
			result = "no_peer";
		else if (!wait_event_timeout(st_wq, st_ep_rx_done(&a->v) &&
					     st_ep_rx_done(&pep->v), 10 * HZ))
			result = "data_timeout";
		by = st_dat_disconnect(a, pep, &result);
	}
	/*
	 * rx: messages verified by the active end / the passive end / sent
	 * (remote: the passive end's count is not known here: 0)
	 */
	snprintf(tail, sizeof(tail), "rx_bytes=%d tx=%d disconnect=%s",
		 atomic_read(&a->v.rx_bytes), atomic_read(&a->v.tx_ok), by);
	st_log("dat_conn %u.%u result=%s reason=%u pdata=%s sp=%s rx=%d/%d/%u bad=%d us=%lld %s",
	       run, i, result, a->reason, a->pdata[0] ? a->pdata : "-",
	       pep ? pep->spname : "-", atomic_read(&a->v.rx_ok),
	       pep ? atomic_read(&pep->v.rx_ok) : 0, a->v.msgs,
	       atomic_read(&a->v.tx_bad) + atomic_read(&a->v.rx_bad) +
	       (pep ? atomic_read(&pep->v.tx_bad) : 0), a->us, tail);
	if (a->ep) {
		pdcm_dat_ep_free(a->ep);
		st_put(ST_DAT_EP);
	}
	st_ep_destroy(&a->v);
	if (pep && pep->disconnected) {
		mutex_lock(&st_lock);
		list_del(&pep->node);
		mutex_unlock(&st_lock);
		st_pep_free(pep);
	}
}

static int st_dat_connect(int argc, char **argv)
{
	struct pdcm_dat_ep_attr attr = {};
	struct sockaddr_storage dst;
	struct pdcm_dat_ia *ia;
	struct st_ia *sia;
	struct st_aep *a;
	unsigned int run;
	u32 n, i, tmo, msgs, size;
	bool remote, noverify;
	char pd[24];
	u64 qual;
	int ret;

	if (argc < 4 || st_parse_addr(argv[2], 0, &dst) ||
	    kstrtou64(argv[3], 0, &qual))
		return -EINVAL;
	n = st_opt_u32(argc, argv, "count", 1);
	tmo = st_opt_u32(argc, argv, "timeout", 30);
	msgs = st_opt_u32(argc, argv, "msgs", ST_DAT_MSGS);
	size = st_opt_u32(argc, argv, "size", ST_DAT_SIZE);
	remote = st_opt_u32(argc, argv, "remote", 0);
	noverify = !st_opt_u32(argc, argv, "verify", 1);
	if (!n || n > ST_DAT_MAX_EPS)
		return -EINVAL;
	mutex_lock(&st_lock);
	sia = ST_FIND(&st_ias, struct st_ia, argv[1]);
	ia = sia ? sia->ia : NULL;
	run = ++st_dat_runs;
	mutex_unlock(&st_lock);
	if (!ia)
		return -ENOENT;
	a = kcalloc(n, sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	st_get(ST_RUN);
	for (i = 0; i < n; i++) {
		a[i].result = "setup_error";
		a[i].remote = remote;
		a[i].peer_wait = st_opt_u32(argc, argv, "peer_disconnect", 0);
		ret = st_ep_create(&a[i].v, msgs, size);
		if (ret) {
			a[i].final = true;
			continue;
		}
		a[i].v.noverify = noverify;
		attr.qp_num = a[i].v.qp->qp_num;
		attr.starting_psn = a[i].v.psn;
		attr.evd.func = st_dat_aep_upcall;
		attr.evd.instance_data = &a[i];
		a[i].ep = pdcm_dat_ep_create(ia, &attr);
		if (IS_ERR(a[i].ep)) {
			a[i].ep = NULL;
			a[i].final = true;
			continue;
		}
		st_get(ST_DAT_EP);
		a[i].result = NULL;
		snprintf(pd, sizeof(pd), "st:%u.%u", run, i);
		a[i].t0 = ktime_get();
		ret = pdcm_dat_ep_connect(a[i].ep, (struct sockaddr *)&dst,
					  qual, pd, strlen(pd) + 1, NULL);
		if (ret) {
			a[i].result = "connect_error";
			a[i].reason = -ret;
			a[i].final = true;
		}
	}
	wait_event_timeout(st_wq, st_dat_all_final(a, n), tmo * HZ);
	for (i = 0; i < n; i++)
		st_dat_finish(run, i, &a[i]);
	kfree(a);
	st_put(ST_RUN);
	return 0;
}

/**
 * st_dat_cmd() - run a kDAPL command
 * @argc: argument count
 * @argv: the command and its arguments
 *
 * Return: 0 or a negative errno.
 */
int st_dat_cmd(int argc, char **argv)
{
	if (!strcmp(argv[0], "ia"))
		return st_dat_ia(argc, argv);
	if (!strcmp(argv[0], "group"))
		return st_dat_group(argc, argv);
	if (!strcmp(argv[0], "psp"))
		return st_dat_sp(argc, argv, false);
	if (!strcmp(argv[0], "rsp"))
		return st_dat_sp(argc, argv, true);
	if (!strcmp(argv[0], "sp_mode"))
		return st_dat_sp_mode(argc, argv);
	if (!strcmp(argv[0], "sp_free"))
		return st_dat_sp_free_cmd(argc, argv);
	if (!strcmp(argv[0], "dat_connect"))
		return st_dat_connect(argc, argv);
	return -EINVAL;
}

/**
 * st_dat_close() - free every kDAPL object: SPs, EPs, IAs, groups
 */
void st_dat_close(void)
{
	struct st_group *g, *gtmp;
	struct st_pep *pep, *ptmp;
	struct st_sp *sp, *stmp;
	struct st_ia *ia, *itmp;
	LIST_HEAD(sps);
	LIST_HEAD(peps);
	LIST_HEAD(ias);
	LIST_HEAD(groups);

	mutex_lock(&st_lock);
	list_splice_init(&st_sps, &sps);
	list_splice_init(&st_peps, &peps);
	list_splice_init(&st_ias, &ias);
	list_splice_init(&st_groups, &groups);
	mutex_unlock(&st_lock);
	list_for_each_entry_safe(sp, stmp, &sps, node)
		st_dat_sp_free(sp);
	list_for_each_entry_safe(pep, ptmp, &peps, node)
		st_pep_free(pep);
	list_for_each_entry_safe(ia, itmp, &ias, node) {
		pdcm_dat_ia_close(ia->ia);
		kfree(ia);
		st_put(ST_DAT_IA);
	}
	list_for_each_entry_safe(g, gtmp, &groups, node) {
		pdcm_backlog_put(g->g);
		kfree(g);
		st_put(ST_GROUP);
	}
}

/**
 * st_dat_show() - the service points and passive EPs (st_lock held)
 * @m: results
 */
void st_dat_show(struct seq_file *m)
{
	struct st_pep *pep;
	struct st_sp *sp;

	list_for_each_entry(sp, &st_sps, node)
		seq_printf(m, "sp %s crs=%d accepted=%d rejected=%d held=%u\n",
			   sp->name, atomic_read(&sp->crs),
			   atomic_read(&sp->accepted),
			   atomic_read(&sp->rejected), sp->nheld);
	list_for_each_entry(pep, &st_peps, node)
		seq_printf(m, "pep %u sp=%s established=%d disconnected=%d failed=%d rx=%d/%u rx_bytes=%d rx_bad=%d tx=%d tx_bad=%d\n",
			   pep->seq, pep->spname, READ_ONCE(pep->established),
			   READ_ONCE(pep->disconnected), READ_ONCE(pep->failed),
			   atomic_read(&pep->v.rx_ok), pep->v.msgs,
			   atomic_read(&pep->v.rx_bytes),
			   atomic_read(&pep->v.rx_bad),
			   atomic_read(&pep->v.tx_ok),
			   atomic_read(&pep->v.tx_bad));
}
