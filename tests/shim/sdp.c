// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SDP commands: listeners on (address, port), and connects that set
 * up an SDP connection on RC QPs, move data both ways and disconnect.
 * The passive side sizes its QP from the Hello (bufs messages of
 * localrcvsz bytes) and answers a Hello Ack with the listener's adverts.
 * Passive connections are listed in results (sdp_pconn) until the local
 * connect that made them frees them, or until close when the active end
 * is on another host (sdp_connect remote=1).
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/pdcm_sdp.h>

#include "shim.h"

struct st_sdp_listener {
	struct list_head node;		/* st_sdp_listeners, under st_lock */
	char name[ST_NAME_LEN];
	struct pdcm_sdp_listener *l;
	u8 adverts;
	atomic_t reqs;
	atomic_t accepted;
};

/* A passive connection: on st_sdp_pconns from its request on. */
struct st_sdp_pconn {
	struct list_head node;
	unsigned int seq;		/* 1, 2, ... in request order */
	struct pdcm_sdp_conn *conn;
	char lname[ST_NAME_LEN];
	struct pdcm_sdp_conn_info info;	/* copied at the request */
	struct st_ep ep;
	bool connected, disconnected, closed;
};

struct st_sdp_aconn {
	struct pdcm_sdp_conn *conn;
	struct pdcm_sdp_conn_info info;	/* copied at CONNECTED */
	struct st_ep ep;
	bool connected, rejected, error, disconnected, closed;
	int status;
};

static LIST_HEAD(st_sdp_listeners);
static LIST_HEAD(st_sdp_pconns);
static unsigned int st_sdp_runs;
static unsigned int st_sdp_pconn_seq;
static atomic_t st_sdp_sport = ATOMIC_INIT(0);

static int st_sdp_modify(struct pdcm_sdp_conn *conn, struct st_ep *ep,
			 enum ib_qp_state state, u32 rq_psn)
{
	struct ib_qp_attr attr = {};
	int mask = 0, ret;

	attr.qp_state = state;
	ret = pdcm_sdp_init_qp_attr(conn, &attr, &mask);
	if (ret)
		return ret;
	if (rq_psn)
		attr.rq_psn = rq_psn;
	return st_ep_modify(ep, &attr, mask);
}

static int st_sdp_request(struct pdcm_sdp_conn *conn,
			  struct st_sdp_listener *sl,
			  const struct pdcm_sdp_conn_info *info)
{
	struct pdcm_sdp_accept_param ap = {};
	struct st_sdp_pconn *pc;
	int ret;

	atomic_inc(&sl->reqs);
	pc = kzalloc(sizeof(*pc), GFP_KERNEL);
	if (!pc)
		return -ENOMEM;
	pc->conn = conn;
	pc->info = *info;
	strscpy(pc->lname, sl->name, sizeof(pc->lname));
	ret = st_ep_create(&pc->ep, info->peer_bufs, info->peer_rcvsz);
	if (ret) {
		kfree(pc);
		return ret;
	}
	st_get(ST_SDP_CONN);
	pdcm_sdp_set_context(conn, pc);
	mutex_lock(&st_lock);
	pc->seq = ++st_sdp_pconn_seq;
	list_add_tail(&pc->node, &st_sdp_pconns);
	mutex_unlock(&st_lock);
	/* rdma_cm's order: RTR and RTS before the Hello Ack goes out */
	ret = st_sdp_modify(conn, &pc->ep, IB_QPS_INIT, 0);
	if (!ret)
		ret = st_ep_post_recvs(&pc->ep);
	if (!ret)
		ret = st_sdp_modify(conn, &pc->ep, IB_QPS_RTR, pc->ep.psn);
	if (!ret)
		ret = st_sdp_modify(conn, &pc->ep, IB_QPS_RTS, 0);
	if (ret)
		return pdcm_sdp_reject(conn) ?: 0;
	ap.qp_num = pc->ep.qp->qp_num;
	ap.starting_psn = pc->ep.psn;
	ap.hah.bufs = pc->ep.msgs;
	ap.hah.ext_max_adverts = sl->adverts;
	ap.hah.actrcvsz = pc->ep.size;
	ret = pdcm_sdp_accept(conn, &ap);
	if (ret)
		return pdcm_sdp_reject(conn) ?: 0;
	atomic_inc(&sl->accepted);
	return 0;
}

/* Listener and passive connections; closed from the ctl side only. */
static int st_sdp_passive_handler(struct pdcm_sdp_conn *conn,
				  const struct pdcm_sdp_event *ev)
{
	struct st_sdp_pconn *pc;

	if (ev->type == PDCM_SDP_CONNECT_REQUEST)
		return st_sdp_request(conn, pdcm_sdp_context(conn), ev->info);
	pc = pdcm_sdp_context(conn);
	switch (ev->type) {
	case PDCM_SDP_CONNECTED:
		pc->connected = true;
		st_ep_send_all(&pc->ep, pc->ep.qp->qp_num);
		break;
	case PDCM_SDP_DISCONNECTED:
	case PDCM_SDP_ERROR:
		pc->disconnected = true;
		break;
	case PDCM_SDP_CLOSED:
		pc->closed = true;
		break;
	default:
		break;
	}
	wake_up_all(&st_wq);
	return 0;
}

static int st_sdp_active_handler(struct pdcm_sdp_conn *conn,
				 const struct pdcm_sdp_event *ev)
{
	struct st_sdp_aconn *ac = pdcm_sdp_context(conn);
	int ret;

	switch (ev->type) {
	case PDCM_SDP_CONNECTED:
		ac->info = *ev->info;
		ret = st_sdp_modify(conn, &ac->ep, IB_QPS_INIT, 0);
		if (!ret)
			ret = st_ep_post_recvs(&ac->ep);
		if (!ret)
			ret = st_sdp_modify(conn, &ac->ep, IB_QPS_RTR, 0);
		if (!ret)
			ret = st_sdp_modify(conn, &ac->ep, IB_QPS_RTS, 0);
		if (!ret)
			ret = st_ep_send_all(&ac->ep, ac->ep.qp->qp_num);
		if (ret) {
			ac->error = true;
			ac->status = ret;
		} else {
			ac->connected = true;
		}
		break;
	case PDCM_SDP_REJECTED:
		ac->rejected = true;
		ac->status = ev->status;
		break;
	case PDCM_SDP_ERROR:
		ac->error = true;
		ac->status = ev->status;
		break;
	case PDCM_SDP_DISCONNECTED:
		ac->disconnected = true;
		break;
	case PDCM_SDP_CLOSED:
		ac->closed = true;
		break;
	default:
		break;
	}
	wake_up_all(&st_wq);
	return 0;
}

static struct st_sdp_listener *st_sdp_find(const char *name)
{
	struct st_sdp_listener *sl;

	list_for_each_entry(sl, &st_sdp_listeners, node)
		if (!strcmp(sl->name, name))
			return sl;
	return NULL;
}

static int st_sdp_listen(int argc, char **argv)
{
	struct pdcm_sdp_listen_param p = {};
	struct sockaddr_storage ss;
	struct st_sdp_listener *sl;
	u16 port;
	int ret;

	if (argc < 4 || strlen(argv[1]) >= ST_NAME_LEN || kstrtou16(argv[3], 0, &port) ||
	    st_parse_addr(argv[2], port, &ss))
		return -EINVAL;
	sl = kzalloc(sizeof(*sl), GFP_KERNEL);
	if (!sl)
		return -ENOMEM;
	strscpy(sl->name, argv[1], sizeof(sl->name));
	sl->adverts = st_opt_u32(argc, argv, "adverts", 4);
	p.addr = (struct sockaddr *)&ss;
	p.backlog = st_opt_u32(argc, argv, "backlog", 0);
	p.handler = st_sdp_passive_handler;
	p.context = sl;
	mutex_lock(&st_lock);
	if (st_sdp_find(sl->name)) {
		ret = -EEXIST;
		goto err;
	}
	sl->l = pdcm_sdp_listen(&p);
	if (IS_ERR(sl->l)) {
		ret = PTR_ERR(sl->l);
		goto err;
	}
	list_add_tail(&sl->node, &st_sdp_listeners);
	st_get(ST_SDP_LISTENER);
	mutex_unlock(&st_lock);
	return 0;
err:
	mutex_unlock(&st_lock);
	kfree(sl);
	return ret;
}

static void st_sdp_listener_free(struct st_sdp_listener *sl)
{
	pdcm_sdp_listener_destroy(sl->l);
	kfree(sl);
	st_put(ST_SDP_LISTENER);
}

static int st_sdp_unlisten(int argc, char **argv)
{
	struct st_sdp_listener *sl;

	if (argc < 2)
		return -EINVAL;
	mutex_lock(&st_lock);
	sl = st_sdp_find(argv[1]);
	if (sl)
		list_del(&sl->node);
	mutex_unlock(&st_lock);
	if (!sl)
		return -ENOENT;
	st_sdp_listener_free(sl);
	return 0;
}

static void st_sdp_pconn_free(struct st_sdp_pconn *pc)
{
	pdcm_sdp_close(pc->conn);
	st_ep_destroy(&pc->ep);
	kfree(pc);
	st_put(ST_SDP_CONN);
}

static struct st_sdp_pconn *st_sdp_peer(u32 qpn)
{
	struct st_sdp_pconn *pc, *found = NULL;

	mutex_lock(&st_lock);
	list_for_each_entry(pc, &st_sdp_pconns, node)
		if (pc->info.remote_qpn == qpn)
			found = pc;
	mutex_unlock(&st_lock);
	return found;
}

#define ST_WAIT(cond, s) wait_event_timeout(st_wq, cond, (s) * HZ)

/* The line of a connection that reached its listener. */
static void st_sdp_log(unsigned int run, const struct sockaddr_storage *dst,
		       const char *result, struct st_sdp_aconn *ac,
		       struct st_sdp_pconn *pc)
{
	const struct pdcm_sdp_conn_info *a = &ac->info;
	const struct pdcm_sdp_conn_info *p = pc ? &pc->info : NULL;
	char *buf = kmalloc(512, GFP_KERNEL);
	int n = 0;

	if (!buf)
		return;
	n += scnprintf(buf + n, 512 - n, "sdp_conn %u dst=%pISpc result=%s",
		       run, dst, result);
	n += scnprintf(buf + n, 512 - n, " listener=%s a_local=%pISpc",
		       pc ? pc->lname : "remote", &a->local);
	n += scnprintf(buf + n, 512 - n, " a_peer=%pISpc a_peer_bufs=%u",
		       &a->peer, a->peer_bufs);
	n += scnprintf(buf + n, 512 - n, " a_peer_adverts=%u a_peer_rcvsz=%u",
		       a->peer_max_adverts, a->peer_rcvsz);
	if (pc) {
		n += scnprintf(buf + n, 512 - n, " p_local=%pISpc p_peer=%pISpc",
			       &p->local, &p->peer);
		n += scnprintf(buf + n, 512 - n,
			       " p_peer_bufs=%u p_peer_adverts=%u",
			       p->peer_bufs, p->peer_max_adverts);
		n += scnprintf(buf + n, 512 - n,
			       " p_peer_desrem=%u p_peer_rcvsz=%u",
			       p->peer_desremrcvsz, p->peer_rcvsz);
		n += scnprintf(buf + n, 512 - n, " p_rx=%d/%u",
			       atomic_read(&pc->ep.rx_ok), pc->ep.msgs);
	}
	n += scnprintf(buf + n, 512 - n, " a_rx=%d/%u a_tx=%d/%u tx_bad=%d",
		       atomic_read(&ac->ep.rx_ok), ac->ep.msgs,
		       atomic_read(&ac->ep.tx_ok), ac->ep.msgs,
		       atomic_read(&ac->ep.tx_bad) +
		       (pc ? atomic_read(&pc->ep.tx_bad) : 0));
	st_log("%s", buf);
	kfree(buf);
}

static int st_sdp_connect(int argc, char **argv)
{
	struct pdcm_sdp_connect_param p = {};
	struct sockaddr_storage src, dst;
	struct st_sdp_pconn *pc = NULL;
	struct st_sdp_aconn *ac;
	const char *result = "ok";
	u32 msgs, size, tmo;
	unsigned int run;
	u16 port, sport;
	bool remote;
	int ret;

	if (argc < 3 || kstrtou16(argv[2], 0, &port) ||
	    st_parse_addr(argv[1], port, &dst))
		return -EINVAL;
	sport = 40000 + atomic_inc_return(&st_sdp_sport) % 20000;
	if (st_parse_addr(st_opt(argc, argv, "src") ?: argv[1], sport, &src))
		return -EINVAL;
	msgs = st_opt_u32(argc, argv, "msgs", 4);
	size = st_opt_u32(argc, argv, "size", 1024);
	tmo = st_opt_u32(argc, argv, "timeout", 20);
	remote = st_opt_u32(argc, argv, "remote", 0);
	ac = kzalloc(sizeof(*ac), GFP_KERNEL);
	if (!ac)
		return -ENOMEM;
	ret = st_ep_create(&ac->ep, msgs, size);
	if (ret) {
		kfree(ac);
		return ret;
	}
	st_get(ST_RUN);
	st_get(ST_SDP_CONN);
	mutex_lock(&st_lock);
	run = ++st_sdp_runs;
	mutex_unlock(&st_lock);

	p.device = st_dev;
	p.port = 1;
	p.src = (struct sockaddr *)&src;
	p.dst = (struct sockaddr *)&dst;
	p.qp_num = ac->ep.qp->qp_num;
	p.starting_psn = ac->ep.psn;
	p.hello.bufs = msgs;
	p.hello.max_adverts = st_opt_u32(argc, argv, "adverts", 3);
	p.hello.desremrcvsz = st_opt_u32(argc, argv, "desrem", 65536);
	p.hello.localrcvsz = size;
	p.handler = st_sdp_active_handler;
	p.context = ac;
	ac->conn = pdcm_sdp_connect(&p);
	if (IS_ERR(ac->conn)) {
		ret = PTR_ERR(ac->conn);
		ac->conn = NULL;
		st_log("sdp_conn %u dst=%pISpc result=connect_error status=%d",
		       run, &dst, ret);
		goto out;
	}
	if (!ST_WAIT(ac->connected || ac->rejected || ac->error, tmo)) {
		result = "timeout";
	} else if (ac->rejected) {
		result = "rej";
	} else if (ac->error) {
		result = "error";
	} else if (remote) {
		/* the peer has our messages once our sends complete */
		if (!ST_WAIT(st_ep_rx_done(&ac->ep) &&
			     st_ep_tx_done(&ac->ep), 10))
			result = "data_timeout";
	} else {
		pc = st_sdp_peer(ac->ep.qp->qp_num);
		if (!pc)
			result = "no_peer";
		else if (!ST_WAIT(st_ep_rx_done(&ac->ep) &&
				  st_ep_rx_done(&pc->ep), 10))
			result = "data_timeout";
	}
	if (ac->connected) {
		pdcm_sdp_disconnect(ac->conn);
		if (!ST_WAIT(ac->disconnected && (!pc || pc->disconnected), 10))
			result = "disconnect_timeout";
		else if (!ST_WAIT(ac->closed && (!pc || pc->closed), 20))
			result = "timewait_timeout";
	}
	if (pc || (remote && ac->connected))
		st_sdp_log(run, &dst, result, ac, pc);
	else
		st_log("sdp_conn %u dst=%pISpc result=%s status=%d", run,
		       &dst, result, ac->status);
	pdcm_sdp_close(ac->conn);
	if (pc && pc->closed) {
		mutex_lock(&st_lock);
		list_del(&pc->node);
		mutex_unlock(&st_lock);
		st_sdp_pconn_free(pc);
	}
out:
	st_ep_destroy(&ac->ep);
	kfree(ac);
	st_put(ST_SDP_CONN);
	st_put(ST_RUN);
	return 0;
}

/**
 * st_sdp_cmd() - run an sdp_* command
 * @argc: argument count
 * @argv: the command and its arguments
 *
 * Return: 0 or a negative errno.
 */
int st_sdp_cmd(int argc, char **argv)
{
	if (!strcmp(argv[0], "sdp_listen"))
		return st_sdp_listen(argc, argv);
	if (!strcmp(argv[0], "sdp_unlisten"))
		return st_sdp_unlisten(argc, argv);
	if (!strcmp(argv[0], "sdp_connect"))
		return st_sdp_connect(argc, argv);
	return -EINVAL;
}

/**
 * st_sdp_close() - free every SDP listener and passive connection
 */
void st_sdp_close(void)
{
	struct st_sdp_listener *sl, *stmp;
	struct st_sdp_pconn *pc, *ptmp;
	LIST_HEAD(ls);
	LIST_HEAD(ps);

	mutex_lock(&st_lock);
	list_splice_init(&st_sdp_listeners, &ls);
	list_splice_init(&st_sdp_pconns, &ps);
	mutex_unlock(&st_lock);
	list_for_each_entry_safe(sl, stmp, &ls, node)
		st_sdp_listener_free(sl);
	list_for_each_entry_safe(pc, ptmp, &ps, node)
		st_sdp_pconn_free(pc);
}

/**
 * st_sdp_show() - listeners, passive connections, the shim's counters
 *	(st_lock held)
 * @m: results
 */
void st_sdp_show(struct seq_file *m)
{
	struct st_sdp_listener *sl;
	struct st_sdp_pconn *pc;
	struct pdcm_sdp_stats s;

	list_for_each_entry(sl, &st_sdp_listeners, node)
		seq_printf(m, "sdp_listener %s reqs=%d accepted=%d\n",
			   sl->name, atomic_read(&sl->reqs),
			   atomic_read(&sl->accepted));
	list_for_each_entry(pc, &st_sdp_pconns, node) {
		const struct pdcm_sdp_conn_info *p = &pc->info;

		seq_printf(m, "sdp_pconn %u listener=%s p_local=%pISpc p_peer=%pISpc",
			   pc->seq, pc->lname, &p->local, &p->peer);
		seq_printf(m, " p_peer_bufs=%u p_peer_adverts=%u p_peer_desrem=%u p_peer_rcvsz=%u",
			   p->peer_bufs, p->peer_max_adverts,
			   p->peer_desremrcvsz, p->peer_rcvsz);
		seq_printf(m, " p_rx=%d/%u p_tx=%d/%u rx_bad=%d tx_bad=%d connected=%d disconnected=%d closed=%d\n",
			   atomic_read(&pc->ep.rx_ok), pc->ep.msgs,
			   atomic_read(&pc->ep.tx_ok), pc->ep.msgs,
			   atomic_read(&pc->ep.rx_bad),
			   atomic_read(&pc->ep.tx_bad), READ_ONCE(pc->connected),
			   READ_ONCE(pc->disconnected), READ_ONCE(pc->closed));
	}
	pdcm_sdp_get_stats(&s);
	seq_printf(m, "sdp_stats requests=%llu accepted=%llu rejected=%llu malformed=%llu no_listener=%llu bad_hello_ack=%llu\n",
		   s.requests, s.accepted, s.rejected, s.malformed,
		   s.no_listener, s.bad_hello_ack);
}
