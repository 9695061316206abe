// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * softib_cm: CM handshakes and UD datagrams between two ports of a softib
 * device (or any IB device), driven from debugfs.
 *
 *   /sys/kernel/debug/softib_cm/ctl      write one command per write
 *   /sys/kernel/debug/softib_cm/results  one line per command run
 *
 * Commands:
 *
 *   connect DEV PORT_A [DEV_B:]PORT_B [grh=0|1] [sid=N] [listen=0|1]
 *	  [pkey=N]
 *	listen on PORT_B, connect from PORT_A over a hand-built IB path
 *	(no SM, no SA: the ports' LIDs and GIDs, P_Key 0xFFFF), with an RC
 *	QP on each side taken through INIT, RTR and RTS by pdcm's
 *	attributes; REQ, REP, RTU, then DREQ and DREP.  grh=1 puts a GRH in
 *	the path (hop limit 2); listen=0 connects to nobody (REJ 8); pkey
 *	puts another P_Key than 0xFFFF in the path.  alt=PA2:PB2 adds an
 *	alternate path from port PA2 of DEV to port PB2 of DEV_B: both QPs
 *	load it (IB_QP_ALT_PATH, IB_MIG_REARM), both sides report a path
 *	migration once established, and the DREQ and DREP then take it.
 *	"conn N result=ok ..." records it.
 *   ud DEV PORT_A [DEV_B:]PORT_B [qkey=N] [pkey_index=N] [grh=0|1]
 *	a UD QP on each port (Q_Key 0x11110000, P_Key index 0 on the
 *	receiver); one datagram from A to B sent with @qkey and
 *	@pkey_index; "ud N received=0|1 ..." says whether it arrived.
 *   sidr DEV PORT_A [DEV_B:]PORT_B [grh=0|1]
 *	a SIDR listen (service 0x51d1) on PORT_B answering with QPN 0x5151 and Q_Key
 *	0x11110000; SIDR_REQ from PORT_A over the same hand-built path;
 *	"sidr N status=0 ..." records the answer.
 *
 * PORT_B is on DEV unless DEV_B names another device (softib ndevs=2:
 * the wire routes by LID across devices).  The pdcm API only
 * (<rdma/pdcm.h>) and the verbs: no ib_cm.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_sa.h>
#include <rdma/pdcm.h>
#include <rdma/pdcm_ns.h>

#include "../kunit/ibdev.h"
#include "scm.h"

MODULE_DESCRIPTION("softib_cm: CM handshakes over softib ports (test)");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(PDCM_NS(PDCM));

#define SCM_UD_QKEY	0x11110000U
#define SCM_UD_LEN	64
#define SCM_UD_RLEN	(sizeof(struct ib_grh) + SCM_UD_LEN)
#define SCM_MAX_LINES	256

/* The results lines, under scm_mutex, which also serialises commands. */
static DEFINE_MUTEX(scm_mutex);
static LIST_HEAD(scm_lines);
static unsigned int scm_nlines;
static unsigned int scm_seq;
static struct dentry *scm_debugfs;

struct scm_line {
	struct list_head node;
	char text[];
};

static void scm_add_line(const char *text)
{
	struct scm_line *l;

	lockdep_assert_held(&scm_mutex);
	if (scm_nlines >= SCM_MAX_LINES)
		return;
	l = kmalloc(sizeof(*l) + strlen(text) + 1, GFP_KERNEL);
	if (!l)
		return;
	strcpy(l->text, text);
	list_add_tail(&l->node, &scm_lines);
	scm_nlines++;
}

/* --- connect --------------------------------------------------------------- */

/*
 * One connection run.  The handlers (pdcm's workqueue) write the fields;
 * the command reads them after the completion that follows each write.
 * @err: the first error either side saw
 */
struct scm_conn {
	struct ib_device *dev;		/* the passive side's */
	u32 port_a;
	u32 port_b;
	struct scm_side a;
	struct scm_side b;
	struct pdcm_id *passive;
	struct completion rep_done;
	struct completion rtu_done;
	struct completion dreq_done;
	struct completion drep_done;
	int err;
	int rej_reason;
	u32 req_port;
	u32 req_slid;
	u32 req_dlid;
	u8 req_hop_limit;
	u32 req_remote_qpn;
	u32 rep_remote_qpn;
	u32 rtr_dlid[2];
	bool rtr_grh[2];
	u16 req_bth_pkey;
	u16 req_path_pkey;
	u32 req_alt_dlid;
	u32 rtr_alt_dlid[2];
	u32 rtr_alt_port[2];
	bool rts_rearm[2];
	int mig[2];
};

static void scm_set_err(struct scm_conn *c, int err)
{
	if (!c->err)
		c->err = err;
}

/* @qp to @state with pdcm's attributes; the RTR address is recorded. */
static int scm_modify(struct scm_conn *c, struct pdcm_id *id, struct ib_qp *qp,
		      enum ib_qp_state state, int side)
{
	struct ib_qp_attr attr = {};
	int mask = 0;
	int ret;

	attr.qp_state = state;
	ret = pdcm_init_qp_attr(id, &attr, &mask);
	if (ret)
		return ret;
	if (state == IB_QPS_RTR) {
		c->rtr_dlid[side] = rdma_ah_get_dlid(&attr.ah_attr);
		c->rtr_grh[side] = !!(rdma_ah_get_ah_flags(&attr.ah_attr) &
				      IB_AH_GRH);
		if (mask & IB_QP_ALT_PATH) {
			c->rtr_alt_dlid[side] =
				rdma_ah_get_dlid(&attr.alt_ah_attr);
			c->rtr_alt_port[side] = attr.alt_port_num;
		}
	}
	if (state == IB_QPS_RTS)
		c->rts_rearm[side] = (mask & IB_QP_PATH_MIG_STATE) &&
				     attr.path_mig_state == IB_MIG_REARM;
	return ib_modify_qp(qp, &attr, mask);
}

static int scm_active_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct scm_conn *c = id->context;
	int ret;

	switch (ev->event) {
	case PDCM_REP_RECEIVED:
		c->rep_remote_qpn = ev->param.rep_rcvd.remote_qpn;
		ret = scm_modify(c, id, c->a.qp, IB_QPS_RTR, 0);
		if (!ret)
			ret = scm_modify(c, id, c->a.qp, IB_QPS_RTS, 0);
		if (!ret)
			ret = pdcm_send_rtu(id, NULL, 0);
		if (ret)
			scm_set_err(c, ret);
		complete(&c->rep_done);
		return 0;
	case PDCM_REJ_RECEIVED:
		c->rej_reason = ev->param.rej_rcvd.reason;
		scm_set_err(c, -ECONNREFUSED);
		complete(&c->rep_done);
		return 0;
	case PDCM_REQ_ERROR:
		scm_set_err(c, -ETIMEDOUT);
		complete(&c->rep_done);
		return 0;
	case PDCM_DREP_RECEIVED:
		complete(&c->drep_done);
		return 0;
	case PDCM_DREQ_ERROR:
		scm_set_err(c, -ETIMEDOUT);
		complete(&c->drep_done);
		return 0;
	default:
		return 0;
	}
}

static int scm_req_received(struct scm_conn *c, struct pdcm_id *id,
			    const struct pdcm_req_event_param *req)
{
	struct pdcm_rep_param rep = {};
	int ret;

	id->context = c;
	c->passive = id;
	c->req_port = req->port;
	c->req_slid = be32_to_cpu(sa_path_get_slid(req->primary_path));
	c->req_dlid = be32_to_cpu(sa_path_get_dlid(req->primary_path));
	c->req_hop_limit = req->primary_path->hop_limit;
	c->req_remote_qpn = req->remote_qpn;
	c->req_bth_pkey = req->bth_pkey;
	c->req_path_pkey = be16_to_cpu(req->primary_path->pkey);
	if (req->alternate_path)
		c->req_alt_dlid =
			be32_to_cpu(sa_path_get_dlid(req->alternate_path));
	ret = scm_side_create(&c->b, c->dev, req->port, IB_QPT_RC,
			      IB_POLL_WORKQUEUE);
	if (ret) {
		c->b.qp = NULL;
		return ret;
	}
	ret = scm_modify(c, id, c->b.qp, IB_QPS_INIT, 1);
	if (!ret)
		ret = scm_modify(c, id, c->b.qp, IB_QPS_RTR, 1);
	if (ret)
		return ret;
	rep.qp_num = c->b.qp->qp_num;
	rep.starting_psn = 0x4242;
	rep.responder_resources = req->responder_resources;
	rep.initiator_depth = req->initiator_depth;
	rep.flow_control = 1;
	rep.rnr_retry_count = 7;
	return pdcm_send_rep(id, &rep);
}

static int scm_passive_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct scm_conn *c = id->context;
	int ret;

	switch (ev->event) {
	case PDCM_REQ_RECEIVED:
		ret = scm_req_received(c, id, &ev->param.req_rcvd);
		if (ret) {
			scm_set_err(c, ret);
			c->passive = NULL;	/* pdcm destroys it */
			complete(&c->rtu_done);
		}
		return ret;
	case PDCM_RTU_RECEIVED:
		ret = scm_modify(c, id, c->b.qp, IB_QPS_RTS, 1);
		if (ret)
			scm_set_err(c, ret);
		complete(&c->rtu_done);
		return 0;
	case PDCM_REP_ERROR:
		scm_set_err(c, -ETIMEDOUT);
		complete(&c->rtu_done);
		return 0;
	case PDCM_DREQ_RECEIVED:
		ret = pdcm_send_drep(id, NULL, 0);
		if (ret)
			scm_set_err(c, ret);
		complete(&c->dreq_done);
		return 0;
	default:
		return 0;
	}
}

static bool scm_wait(struct completion *done)
{
	return wait_for_completion_timeout(done, SCM_WAIT) != 0;
}

static void scm_connect(struct ib_device *dev, u32 pa, struct ib_device *devb,
			u32 pb, bool grh, u64 sid, bool do_listen, u16 pkey,
			u32 alt_a, u32 alt_b, char *line)
{
	struct pdcm_listen_attr la = {};
	struct pdcm_req_param req = {};
	struct pdcm_id *listen = NULL, *active = NULL;
	struct sa_path_rec path = {}, alt = {};
	union ib_gid gid_a, gid_b;
	int sa = -1, sb = -1;
	u16 lid_a = 0, lid_b = 0;
	const char *result = "ok";
	struct scm_conn *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		snprintf(line, SCM_LINE, "result=error err=%d", -ENOMEM);
		return;
	}
	c->dev = devb;
	c->port_a = pa;
	c->port_b = pb;
	init_completion(&c->rep_done);
	init_completion(&c->rtu_done);
	init_completion(&c->dreq_done);
	init_completion(&c->drep_done);

	ret = scm_port_addr(dev, pa, &lid_a, &gid_a);
	if (!ret)
		ret = scm_port_addr(devb, pb, &lid_b, &gid_b);
	if (!ret)
		ret = scm_side_create(&c->a, dev, pa, IB_QPT_RC, IB_POLL_WORKQUEUE);
	if (ret) {
		c->a.qp = NULL;
		goto out;
	}

	if (do_listen) {
		listen = pdcm_create_id(devb, scm_passive_handler, c);
		if (IS_ERR_OR_NULL(listen)) {
			ret = listen ? PTR_ERR(listen) : -ENOMEM;
			listen = NULL;
			goto out;
		}
		la.service_id = cpu_to_be64(sid);
		la.port = pb;
		ret = pdcm_listen(listen, &la);
		if (ret)
			goto out;
	}
	active = pdcm_create_id(dev, scm_active_handler, c);
	if (IS_ERR_OR_NULL(active)) {
		ret = active ? PTR_ERR(active) : -ENOMEM;
		active = NULL;
		goto out;
	}

	scm_ib_path(&path, &gid_a, lid_a, &gid_b, lid_b, grh);
	path.pkey = cpu_to_be16(pkey);
	if (alt_a) {
		u16 lid_a2, lid_b2;
		union ib_gid gid_a2, gid_b2;

		ret = scm_port_addr(dev, alt_a, &lid_a2, &gid_a2);
		if (!ret)
			ret = scm_port_addr(devb, alt_b, &lid_b2, &gid_b2);
		if (ret)
			goto out;
		scm_ib_path(&alt, &gid_a2, lid_a2, &gid_b2, lid_b2, grh);
		alt.pkey = path.pkey;
		req.alternate_path = &alt;
	}

	req.primary_path = &path;
	req.port = pa;
	req.service_id = cpu_to_be64(sid);
	req.qp_num = c->a.qp->qp_num;
	req.qp_type = IB_QPT_RC;
	req.starting_psn = 0x1234;
	req.responder_resources = 1;
	req.initiator_depth = 1;
	req.remote_cm_response_timeout = 16;
	req.local_cm_response_timeout = 16;
	req.flow_control = 1;
	req.retry_count = 7;
	req.rnr_retry_count = 7;
	req.max_cm_retries = 3;
	ret = pdcm_send_req(active, &req);
	if (!ret)
		ret = scm_modify(c, active, c->a.qp, IB_QPS_INIT, 0);
	if (ret)
		goto out;
	if (!scm_wait(&c->rep_done)) {
		result = "timeout";
		goto out;
	}
	if (c->err)		/* REJ, or the REP could not be handled */
		goto out;
	if (!scm_wait(&c->rtu_done)) {
		result = "timeout";
		goto out;
	}
	if (c->err)
		goto out;
	sa = scm_qp_state(c->a.qp);
	sb = scm_qp_state(c->b.qp);
	if (alt_a) {
		/* as after the QPs' IB_EVENT_PATH_MIG: the DREQ goes the new way */
		c->mig[0] = pdcm_notify(active, IB_EVENT_PATH_MIG);
		c->mig[1] = pdcm_notify(c->passive, IB_EVENT_PATH_MIG);
	}
	ret = pdcm_send_dreq(active, NULL, 0);
	if (ret)
		goto out;
	if (!scm_wait(&c->dreq_done) || !scm_wait(&c->drep_done))
		result = "timeout";
out:
	if (!ret)
		ret = c->err;
	if (ret && !strcmp(result, "ok"))
		result = c->rej_reason ? "rej" : "error";
	if (active)
		pdcm_destroy_id(active);
	if (c->passive)
		pdcm_destroy_id(c->passive);
	if (listen)
		pdcm_destroy_id(listen);
	snprintf(line, SCM_LINE,
		 SCM_CONN_FMT,
		 result, ret, c->rej_reason, lid_a, lid_b, c->req_port,
		 c->req_slid, c->req_dlid, c->req_hop_limit,
		 c->a.qp && c->req_remote_qpn == c->a.qp->qp_num,
		 c->b.qp && c->rep_remote_qpn == c->b.qp->qp_num,
		 c->rtr_dlid[0], c->rtr_grh[0], c->rtr_dlid[1], c->rtr_grh[1],
		 sa, sb);
	scnprintf(line + strlen(line), SCM_LINE - strlen(line),
		  " bth_pkey=0x%04x path_pkey=0x%04x", c->req_bth_pkey,
		  c->req_path_pkey);
	if (alt_a)
		scnprintf(line + strlen(line), SCM_LINE - strlen(line),
			  " req_alt_dlid=%u rtr_alt_a=%u/%u rtr_alt_b=%u/%u rearm_a=%d rearm_b=%d mig_a=%d mig_b=%d",
			  c->req_alt_dlid, c->rtr_alt_dlid[0], c->rtr_alt_port[0],
			  c->rtr_alt_dlid[1], c->rtr_alt_port[1], c->rts_rearm[0],
			  c->rts_rearm[1], c->mig[0], c->mig[1]);
	scm_side_destroy(&c->b);
	scm_side_destroy(&c->a);
	kfree(c);
}

/* --- sidr ----------------------------------------------------------------- */

#define SCM_SIDR_SID	0x51d1
#define SCM_SIDR_QPN	0x5151

/*
 * One SIDR run: the passive handler fills @req_port and @req_pkey before
 * it answers, the active one the rest before @done.
 */
struct scm_sidr {
	struct completion done;
	int status;
	u32 qpn;
	u32 qkey;
	u32 req_port;
	u16 req_pkey;
};

static int scm_sidr_passive(struct pdcm_id *id, const struct pdcm_event *ev)
{
	const struct pdcm_sidr_req_event_param *p = &ev->param.sidr_req_rcvd;
	struct pdcm_sidr_rep_param rep = {};
	struct scm_sidr *r;

	if (ev->event == PDCM_REQ_RECEIVED)
		return -EPROTONOSUPPORT;	/* not ours: pdcm rejects */
	if (ev->event != PDCM_SIDR_REQ_RECEIVED)
		return 0;
	r = p->listen_context;
	r->req_port = p->port;
	r->req_pkey = p->pkey;
	rep.qp_num = SCM_SIDR_QPN;
	rep.qkey = SCM_UD_QKEY;
	rep.status = PDCM_SIDR_SUCCESS;
	pdcm_send_sidr_rep(id, &rep);
	return 1;	/* answered: pdcm destroys the request's id */
}

static int scm_sidr_active(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct scm_sidr *r = id->context;

	switch (ev->event) {
	case PDCM_SIDR_REP_RECEIVED:
		r->status = ev->param.sidr_rep_rcvd.status;
		r->qpn = ev->param.sidr_rep_rcvd.qpn;
		r->qkey = ev->param.sidr_rep_rcvd.qkey;
		break;
	case PDCM_SIDR_REQ_ERROR:
		r->status = -ETIMEDOUT;
		break;
	default:
		return 0;
	}
	complete(&r->done);
	return 0;
}

static void scm_sidr(struct ib_device *dev, u32 pa, struct ib_device *devb,
		     u32 pb, bool grh, char *line)
{
	struct pdcm_sidr_req_param req = {};
	struct pdcm_listen_attr la = {};
	struct pdcm_id *listen = NULL, *active = NULL;
	struct sa_path_rec path;
	union ib_gid gid_a, gid_b;
	u16 lid_a = 0, lid_b = 0;
	struct scm_sidr *r;
	int ret;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r) {
		snprintf(line, SCM_LINE, "status=%d", -ENOMEM);
		return;
	}
	init_completion(&r->done);
	r->status = -EINPROGRESS;
	ret = scm_port_addr(dev, pa, &lid_a, &gid_a);
	if (!ret)
		ret = scm_port_addr(devb, pb, &lid_b, &gid_b);
	if (ret)
		goto out;
	listen = pdcm_create_id(devb, scm_sidr_passive, r);
	if (IS_ERR_OR_NULL(listen)) {
		ret = listen ? PTR_ERR(listen) : -ENOMEM;
		listen = NULL;
		goto out;
	}
	la.service_id = cpu_to_be64(SCM_SIDR_SID);
	la.port = pb;
	ret = pdcm_listen(listen, &la);
	if (ret)
		goto out;
	active = pdcm_create_id(dev, scm_sidr_active, r);
	if (IS_ERR_OR_NULL(active)) {
		ret = active ? PTR_ERR(active) : -ENOMEM;
		active = NULL;
		goto out;
	}
	scm_ib_path(&path, &gid_a, lid_a, &gid_b, lid_b, grh);
	req.path = &path;
	req.port = pa;
	req.service_id = cpu_to_be64(SCM_SIDR_SID);
	req.timeout_ms = 1000;
	req.max_cm_retries = 2;
	ret = pdcm_send_sidr_req(active, &req);
	if (!ret && !wait_for_completion_timeout(&r->done, SCM_WAIT))
		ret = -ETIMEDOUT;
out:
	if (active)
		pdcm_destroy_id(active);	/* no handler runs after this */
	if (listen)
		pdcm_destroy_id(listen);
	snprintf(line, SCM_LINE,
		 "status=%d err=%d qpn_ok=%d qkey_ok=%d req_port=%u req_pkey=0x%04x lid_a=%u lid_b=%u",
		 r->status, ret, r->qpn == SCM_SIDR_QPN, r->qkey == SCM_UD_QKEY,
		 r->req_port, r->req_pkey, lid_a, lid_b);
	kfree(r);
}

/* --- ud ------------------------------------------------------------------- */

static int scm_ud_rts(struct ib_qp *qp, u32 port, u16 pkey_index)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.pkey_index = pkey_index,
		.port_num = port,
		.qkey = SCM_UD_QKEY,
	};
	int ret;

	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_QKEY);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTR;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (ret)
		return ret;
	attr.qp_state = IB_QPS_RTS;
	attr.sq_psn = 0;
	return ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_SQ_PSN);
}

static void scm_ud(struct ib_device *dev, u32 pa, struct ib_device *devb,
		   u32 pb, u32 qkey, u16 pkey_index, bool grh, char *line)
{
	struct scm_side a = {}, b = {};
	struct rdma_ah_attr ah_attr = {};
	struct ib_ud_wr wr = {};
	struct ib_recv_wr rwr = {};
	const struct ib_send_wr *bad;
	const struct ib_recv_wr *rbad;
	struct ib_sge sge, rsge;
	struct ib_wc wc = {}, swc;
	union ib_gid gid_a, gid_b;
	struct ib_ah *ah = NULL;
	u16 lid_a = 0, lid_b = 0;
	bool received = false;
	u8 *sbuf, *rbuf;
	int ret, i;

	sbuf = kzalloc(SCM_UD_LEN, GFP_KERNEL);
	rbuf = kzalloc(SCM_UD_RLEN, GFP_KERNEL);
	if (!sbuf || !rbuf) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < SCM_UD_LEN; i++)
		sbuf[i] = i ^ 0x5a;
	ret = scm_port_addr(dev, pa, &lid_a, &gid_a);
	if (!ret)
		ret = scm_port_addr(devb, pb, &lid_b, &gid_b);
	if (!ret)
		ret = scm_side_create(&a, dev, pa, IB_QPT_UD, IB_POLL_DIRECT);
	if (ret) {
		a.qp = NULL;
		goto out;
	}
	ret = scm_side_create(&b, devb, pb, IB_QPT_UD, IB_POLL_DIRECT);
	if (ret) {
		b.qp = NULL;
		goto out;
	}
	/* an ordinary UD QP sends with its own P_Key index */
	ret = scm_ud_rts(a.qp, pa, pkey_index);
	if (!ret)
		ret = scm_ud_rts(b.qp, pb, 0);
	if (ret)
		goto out;

	/* virtual DMA: the address is the buffer's */
	rsge.addr = ib_dma_map_single(devb, rbuf, SCM_UD_RLEN, DMA_FROM_DEVICE);
	rsge.length = SCM_UD_RLEN;
	rsge.lkey = b.pd->local_dma_lkey;
	rwr.wr_id = 2;
	rwr.sg_list = &rsge;
	rwr.num_sge = 1;
	ret = ib_post_recv(b.qp, &rwr, &rbad);
	if (ret)
		goto out;

	ah_attr.type = rdma_ah_find_type(dev, pa);
	rdma_ah_set_dlid(&ah_attr, lid_b);
	rdma_ah_set_port_num(&ah_attr, pa);
	if (grh)
		rdma_ah_set_grh(&ah_attr, &gid_b, 0, 0, 2, 0);
	ah = rdma_create_ah(a.pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		ah = NULL;
		goto out;
	}
	sge.addr = ib_dma_map_single(dev, sbuf, SCM_UD_LEN, DMA_TO_DEVICE);
	sge.length = SCM_UD_LEN;
	sge.lkey = a.pd->local_dma_lkey;
	wr.wr.wr_id = 1;
	wr.wr.opcode = IB_WR_SEND;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.wr.sg_list = &sge;
	wr.wr.num_sge = 1;
	wr.ah = ah;
	wr.remote_qpn = b.qp->qp_num;
	wr.remote_qkey = qkey;
	wr.pkey_index = pkey_index;
	ret = ib_post_send(a.qp, &wr.wr, &bad);
	if (ret)
		goto out;
	/* the send completes at once; the receive within a second, or never */
	for (i = 0; i < 100 && !received; i++) {
		while (ib_poll_cq(b.cq, 1, &wc) > 0)
			if (wc.wr_id == 2)
				received = true;
		if (!received)
			usleep_range(10000, 11000);
	}
	while (ib_poll_cq(a.cq, 1, &swc) > 0)
		;
out:
	if (received) {
		snprintf(line, SCM_LINE,
			 "received=1 status=%d byte_len=%u slid=%u src_qp_ok=%d pkey_index=%u grh=%d data_ok=%d",
			 wc.status, wc.byte_len, wc.slid,
			 wc.src_qp == a.qp->qp_num, wc.pkey_index,
			 !!(wc.wc_flags & IB_WC_GRH),
			 !memcmp(rbuf + sizeof(struct ib_grh), sbuf, SCM_UD_LEN));
	} else {
		snprintf(line, SCM_LINE, "received=0 err=%d", ret);
	}
	if (ah)
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	scm_side_destroy(&b);
	scm_side_destroy(&a);
	kfree(rbuf);
	kfree(sbuf);
}

/* --- debugfs ---------------------------------------------------------------- */

static int scm_parse_u32(const char *arg, const char *key, u32 *v)
{
	size_t n = strlen(key);

	if (strncmp(arg, key, n) || arg[n] != '=')
		return 0;
	return kstrtou32(arg + n + 1, 0, v) ? -EINVAL : 1;
}

static int scm_run(char *cmd)
{
	char *argv[8], *p, *line, *portb, *nameb;
	u32 pa, pb, grh = 0, qkey = SCM_UD_QKEY, pkey_index = 0, sid = 0x5ce1;
	u32 do_listen = 1, pkey = 0xffff, alt_a = 0, alt_b = 0;
	struct ib_device *dev, *devb;
	bool is_conn, is_sidr;
	int argc = 0, i, ret = 0;

	while ((p = strsep(&cmd, " \t\n")) && argc < ARRAY_SIZE(argv))
		if (*p)
			argv[argc++] = p;
	if (argc < 4)
		return -EINVAL;
	is_conn = !strcmp(argv[0], "connect");
	is_sidr = !strcmp(argv[0], "sidr");
	if (!is_conn && !is_sidr && strcmp(argv[0], "ud"))
		return -EINVAL;
	portb = argv[3];
	nameb = strsep(&portb, ":");
	if (!portb) {		/* PORT_B alone: on DEV */
		portb = nameb;
		nameb = argv[1];
	}
	if (kstrtou32(argv[2], 0, &pa) || kstrtou32(portb, 0, &pb))
		return -EINVAL;
	for (i = 4; i < argc && ret >= 0; i++) {
		ret = scm_parse_u32(argv[i], "grh", &grh);
		if (!ret && is_sidr)
			ret = -EINVAL;
		if (!ret)
			ret = scm_parse_u32(argv[i], is_conn ? "sid" : "qkey",
					    is_conn ? &sid : &qkey);
		if (!ret)
			ret = scm_parse_u32(argv[i], is_conn ? "listen" : "pkey_index",
					    is_conn ? &do_listen : &pkey_index);
		if (!ret && is_conn)
			ret = scm_parse_u32(argv[i], "pkey", &pkey);
		if (!ret && is_conn && !strncmp(argv[i], "alt=", 4))
			ret = sscanf(argv[i] + 4, "%u:%u", &alt_a, &alt_b) == 2 &&
			      alt_a && alt_b ? 1 : -EINVAL;
		if (!ret)
			ret = -EINVAL;
	}
	if (ret < 0)
		return ret;
	if (pkey > U16_MAX)
		return -EINVAL;
	dev = pdcm_test_device_get(argv[1]);
	if (!dev)
		return -ENODEV;
	devb = pdcm_test_device_get(nameb);
	line = devb ? kmalloc(SCM_LINE, GFP_KERNEL) : NULL;
	if (!line) {
		if (devb)
			ib_device_put(devb);
		ib_device_put(dev);
		return devb ? -ENOMEM : -ENODEV;
	}
	mutex_lock(&scm_mutex);
	scm_seq++;
	i = scnprintf(line, SCM_LINE, "%s %u %s %u->%s:%u grh=%u ",
		      is_conn ? "conn" : argv[0], scm_seq, argv[1], pa, nameb,
		      pb, grh);
	mutex_unlock(&scm_mutex);
	/* (run outside the mutex: the results stay readable meanwhile) */
	if (is_conn)
		scm_connect(dev, pa, devb, pb, grh, sid, do_listen, pkey,
			    alt_a, alt_b, line + i);
	else if (is_sidr)
		scm_sidr(dev, pa, devb, pb, grh, line + i);
	else
		scm_ud(dev, pa, devb, pb, qkey, pkey_index, grh, line + i);
	ib_device_put(devb);
	ib_device_put(dev);
	mutex_lock(&scm_mutex);
	scm_add_line(line);
	mutex_unlock(&scm_mutex);
	kfree(line);
	return 0;
}

static DEFINE_MUTEX(scm_cmd_mutex);	/* one command at a time */

static ssize_t scm_ctl_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char *cmd;
	int ret;

	if (len > 256)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, len);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	mutex_lock(&scm_cmd_mutex);
	ret = scm_run(cmd);
	mutex_unlock(&scm_cmd_mutex);
	kfree(cmd);
	return ret ? ret : len;
}

static const struct file_operations scm_ctl_fops = {
	.owner = THIS_MODULE,
	.write = scm_ctl_write,
};

static int scm_results_show(struct seq_file *m, void *unused)
{
	struct scm_line *l;

	mutex_lock(&scm_mutex);
	list_for_each_entry(l, &scm_lines, node)
		seq_printf(m, "%s\n", l->text);
	mutex_unlock(&scm_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(scm_results);

static int __init scm_init(void)
{
	scm_debugfs = debugfs_create_dir("softib_cm", NULL);
	debugfs_create_file("ctl", 0200, scm_debugfs, NULL, &scm_ctl_fops);
	debugfs_create_file("results", 0400, scm_debugfs, NULL,
			    &scm_results_fops);
	return 0;
}

static void __exit scm_exit(void)
{
	struct scm_line *l, *tmp;

	debugfs_remove_recursive(scm_debugfs);
	list_for_each_entry_safe(l, tmp, &scm_lines, node)
		kfree(l);
}

module_init(scm_init);
module_exit(scm_exit);
