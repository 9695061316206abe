// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SIDR over UD QPs.
 *
 * Passive ("sidr_listen SID"): a UD QP with receives posted and a listen
 * on SID; a SIDR_REQ is answered with pdcm_send_sidr_rep() (the QP's
 * number and Q_Key).  Each datagram is verified and echoed to its sender
 * through an address handle made from the work completion.
 *
 * Active ("sidr SID DST"): SIDR_REQ with an RDMA CM header, wait for the
 * SIDR_REP; on success a UD QP sends one patterned datagram to the
 * resolved QPN/Q_Key through an address handle made from the path, and
 * checks the echo.  One record per command.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/slab.h>
#include <rdma/ib_cache.h>

#include "ulp.h"

#define ULP_SIDR_BUFS		16
#define ULP_SIDR_BUF_SIZE	(4096 + ULP_GRH_LEN)
#define ULP_SIDR_ECHO_MS	5000

static void ulp_sl_recv_done(struct ib_cq *cq, struct ib_wc *wc);

static void ulp_sl_repost(struct ulp_sidr_listener *s, struct ulp_buf *b)
{
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	if (!s->closing && ulp_post_recv(b, ulp_sl_recv_done))
		atomic_inc(&s->errors);
	spin_unlock_irqrestore(&s->lock, flags);
}

static void ulp_sl_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_sidr_listener *s = b->ctx;

	if (b->ah) {
		rdma_destroy_ah(b->ah, RDMA_DESTROY_AH_SLEEPABLE);
		b->ah = NULL;
		ulp_put(ULP_OBJ_AH);
	}
	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&s->echoed);
	else if (wc->status != IB_WC_WR_FLUSH_ERR)
		atomic_inc(&s->errors);
	ulp_sl_repost(s, b);
}

/* Completion handlers of this CQ may sleep: they make address handles. */
static void ulp_sl_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_sidr_listener *s = b->ctx;
	unsigned long flags;
	struct ib_ah *ah;
	u32 len;
	int ret = -ESHUTDOWN;

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			atomic_inc(&s->errors);
		return;
	}
	ib_dma_sync_single_for_cpu(b->res->dev, b->dma, b->size,
				   DMA_BIDIRECTIONAL);
	atomic_inc(&s->datagrams);
	len = wc->byte_len > ULP_GRH_LEN ? wc->byte_len - ULP_GRH_LEN : 0;
	if (ulp_verify(b->va + ULP_GRH_LEN, len)) {
		atomic_inc(&s->verified);
	} else {
		atomic_inc(&s->bad);
		if (s->verify) {
			ulp_sl_repost(s, b);
			return;
		}
	}

	ah = ib_create_ah_from_wc(s->res.pd, wc, b->va, s->res.port);
	if (IS_ERR(ah)) {
		ulp_dbg("sidr echo: no AH from the completion: %ld\n",
			PTR_ERR(ah));
		atomic_inc(&s->errors);
		ulp_sl_repost(s, b);
		return;
	}
	ulp_get(ULP_OBJ_AH);
	b->ah = ah;
	spin_lock_irqsave(&s->lock, flags);
	if (!s->closing)
		ret = ulp_post_send(b, ULP_GRH_LEN, len, ulp_sl_send_done, ah,
				    wc->src_qp, s->qkey);
	spin_unlock_irqrestore(&s->lock, flags);
	if (ret) {
		if (ret != -ESHUTDOWN)
			atomic_inc(&s->errors);
		rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
		b->ah = NULL;
		ulp_put(ULP_OBJ_AH);
		ulp_sl_repost(s, b);
	}
}

static struct ulp_sidr_listener *ulp_sidr_find_ctx(void *ctx)
{
	struct ulp_sidr_listener *s;

	list_for_each_entry(s, &ulp_sidr_listeners, node)
		if (s == ctx && s->id)
			return s;
	return NULL;
}

static int ulp_sidr_passive_handler(struct pdcm_id *id,
				    const struct pdcm_event *ev)
{
	const struct pdcm_sidr_req_event_param *p = &ev->param.sidr_req_rcvd;
	struct pdcm_sidr_rep_param rep = {};
	struct ulp_sidr_listener *s;

	if (ev->event == PDCM_REQ_RECEIVED)
		return -EPROTONOSUPPORT;	/* not ours: pdcm rejects, frees */
	if (ev->event != PDCM_SIDR_REQ_RECEIVED)
		return 0;
	/* ulp_lock keeps @s from being freed while we answer. */
	mutex_lock(&ulp_lock);
	s = ulp_sidr_find_ctx(p->listen_context);
	if (s) {
		atomic_inc(&s->reqs);
		rep.qp_num = s->res.qp->qp_num;
		rep.qkey = s->qkey;
		rep.status = PDCM_SIDR_SUCCESS;
		if (pdcm_send_sidr_rep(id, &rep))
			atomic_inc(&s->errors);
	}
	mutex_unlock(&ulp_lock);
	if (!s) {
		rep.status = PDCM_SIDR_UNSUPPORTED;
		pdcm_send_sidr_rep(id, &rep);
	}
	return 1;	/* answered: pdcm destroys the request's id */
}

/**
 * ulp_sidr_listen() - answer SIDR_REQs for @sid with a UD QP on @dev
 * @sid: service ID
 * @dev: the device
 * @port: its port
 * @qkey: Q_Key of the QP, sent in the SIDR_REP and used for echoes
 * @verify: echo only datagrams with the ULP's pattern
 *
 * Context: process, ctl serialised.
 * Return: 0 or a negative errno.
 */
int ulp_sidr_listen(__be64 sid, struct ib_device *dev, u32 port, u32 qkey,
		    bool verify)
{
	struct pdcm_listen_attr attr = { .service_id = sid, .port = port };
	struct ulp_sidr_listener *s;
	struct pdcm_id *id;
	unsigned int i;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->sid = sid;
	s->qkey = qkey;
	s->verify = verify;
	strscpy(s->devname, dev_name(&dev->dev), sizeof(s->devname));
	spin_lock_init(&s->lock);
	ret = ulp_res_create(&s->res, dev, port, IB_QPT_UD, ULP_SIDR_BUFS,
			     ULP_SIDR_BUF_SIZE, s, NULL);
	if (ret)
		goto free;
	ret = ulp_modify_ud(&s->res, 0xffff, qkey);
	for (i = 0; !ret && i < s->res.nbufs; i++)
		ret = ulp_post_recv(&s->res.bufs[i], ulp_sl_recv_done);
	if (ret)
		goto free_res;

	id = pdcm_create_id(dev, ulp_sidr_passive_handler, s);
	if (IS_ERR_OR_NULL(id)) {
		ret = id ? PTR_ERR(id) : -ENOMEM;
		goto free_res;
	}
	ulp_get(ULP_OBJ_ID);
	mutex_lock(&ulp_lock);
	s->id = id;
	list_add_tail(&s->node, &ulp_sidr_listeners);
	mutex_unlock(&ulp_lock);
	ret = pdcm_listen(id, &attr);
	if (ret) {
		mutex_lock(&ulp_lock);
		list_del(&s->node);
		s->id = NULL;
		mutex_unlock(&ulp_lock);
		pdcm_destroy_id(id);
		ulp_put(ULP_OBJ_ID);
		goto free_res;
	}
	ulp_get(ULP_OBJ_LISTENER);
	return 0;

free_res:
	s->closing = true;
	ulp_res_destroy(&s->res);
free:
	kfree(s);
	return ret;
}

static void ulp_sidr_close(struct ulp_sidr_listener *s)
{
	unsigned long flags;
	struct pdcm_id *id;

	mutex_lock(&ulp_lock);
	id = s->id;
	s->id = NULL;
	mutex_unlock(&ulp_lock);
	if (!id)
		return;
	pdcm_destroy_id(id);
	ulp_put(ULP_OBJ_ID);
	spin_lock_irqsave(&s->lock, flags);
	s->closing = true;
	spin_unlock_irqrestore(&s->lock, flags);
	ulp_res_destroy(&s->res);
	ulp_put(ULP_OBJ_LISTENER);
}

/* Close every SIDR listener; records stay.  Context: ctl serialised. */
void ulp_sidr_destroy_all(void)
{
	struct ulp_sidr_listener *s;

	/* Entries are only added and freed under the ctl serialisation. */
	list_for_each_entry(s, &ulp_sidr_listeners, node)
		ulp_sidr_close(s);
}

/* Close and free them all.  Context: ctl serialised. */
void ulp_sidr_free_all(void)
{
	struct ulp_sidr_listener *s, *tmp;

	ulp_sidr_destroy_all();
	mutex_lock(&ulp_lock);
	list_for_each_entry_safe(s, tmp, &ulp_sidr_listeners, node) {
		list_del(&s->node);
		kfree(s);
	}
	mutex_unlock(&ulp_lock);
}

/* One "sidr_listener" line each; ulp_lock held. */
void ulp_show_sidr_listeners(struct seq_file *m)
{
	struct ulp_sidr_listener *s;

	list_for_each_entry(s, &ulp_sidr_listeners, node)
		seq_printf(m,
			   "sidr_listener sid=0x%016llx dev=%s state=%s qpn=%u qkey=0x%x reqs=%d datagrams=%d verified=%d bad=%d echoed=%d errors=%d\n",
			   be64_to_cpu(s->sid), s->devname,
			   s->id ? "listening" : "destroyed",
			   s->id ? s->res.qp->qp_num : 0, s->qkey,
			   atomic_read(&s->reqs), atomic_read(&s->datagrams),
			   atomic_read(&s->verified), atomic_read(&s->bad),
			   atomic_read(&s->echoed), atomic_read(&s->errors));
}

/* --- active side --- */

struct ulp_sidr_client {
	bool answered;
	int status;
	u32 qpn, qkey;
	/* datagram */
	bool sent, echoed, echo_ok;
	bool verify;
	u32 size;
};

static int ulp_sidr_active_handler(struct pdcm_id *id,
				   const struct pdcm_event *ev)
{
	struct ulp_sidr_client *c = id->context;

	if (c->answered)
		return 0;
	switch (ev->event) {
	case PDCM_SIDR_REP_RECEIVED:
		c->status = ev->param.sidr_rep_rcvd.status;
		c->qpn = ev->param.sidr_rep_rcvd.qpn;
		c->qkey = ev->param.sidr_rep_rcvd.qkey;
		break;
	case PDCM_SIDR_REQ_ERROR:
		c->status = -ETIMEDOUT;
		break;
	case PDCM_SEND_ERROR:
		c->status = -EIO;
		break;
	default:
		return 0;
	}
	/* status, qpn, qkey before the flag ulp_sidr() tests */
	smp_store_release(&c->answered, true);
	wake_up_all(&ulp_run_wq);
	return 0;
}

static void ulp_sc_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_sidr_client *c = b->ctx;

	if (wc->status != IB_WC_SUCCESS)
		return;
	/* pairs with the acquire in ulp_sidr_datagram() */
	smp_store_release(&c->sent, true);
	wake_up_all(&ulp_run_wq);
}

static void ulp_sc_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ulp_buf *b = container_of(wc->wr_cqe, struct ulp_buf, cqe);
	struct ulp_sidr_client *c = b->ctx;
	struct ulp_buf *sb = &b->res->bufs[0];

	if (wc->status != IB_WC_SUCCESS)
		return;
	ib_dma_sync_single_for_cpu(b->res->dev, b->dma, b->size,
				   DMA_BIDIRECTIONAL);
	c->echo_ok = wc->byte_len == c->size + ULP_GRH_LEN &&
		     (!c->verify ||
		      !memcmp(b->va + ULP_GRH_LEN, sb->va, c->size));
	/* echo_ok before the flag ulp_sidr_datagram() tests */
	smp_store_release(&c->echoed, true);
	wake_up_all(&ulp_run_wq);
}

static bool ulp_sc_answered(struct ulp_sidr_client *c, int gen)
{
	/* pairs with the release in ulp_sidr_active_handler() */
	return smp_load_acquire(&c->answered) ||
	       atomic_read(&ulp_abort_gen) != gen;
}

static bool ulp_sc_datagram_done(struct ulp_sidr_client *c, int gen)
{
	/* pairs with the releases in the completion handlers */
	return (smp_load_acquire(&c->sent) && smp_load_acquire(&c->echoed)) ||
	       atomic_read(&ulp_abort_gen) != gen;
}

static struct ib_ah *ulp_ah_from_path(struct ulp_qpres *r,
				      struct sa_path_rec *path)
{
	const struct ib_gid_attr *gid_attr;
	struct rdma_ah_attr ah_attr;
	struct ib_ah *ah;
	int ret;

	gid_attr = rdma_find_gid_by_port(r->dev, &path->sgid,
					 sa_conv_pathrec_to_gid_type(path),
					 r->port, NULL);
	if (IS_ERR(gid_attr))
		return ERR_CAST(gid_attr);
	ret = ib_init_ah_attr_from_path(r->dev, r->port, path, &ah_attr,
					gid_attr);
	rdma_put_gid_attr(gid_attr);
	if (ret)
		return ERR_PTR(ret);
	ah = rdma_create_ah(r->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	rdma_destroy_ah_attr(&ah_attr);
	return ah;
}

/* Send one datagram to the resolved QP and wait for its echo. */
static int ulp_sidr_datagram(const struct ulp_connect_args *a,
			     struct ulp_sidr_client *c,
			     struct sa_path_rec *path)
{
	struct ulp_qpres res;
	struct ib_ah *ah;
	int ret;

	c->size = a->size;
	c->verify = a->verify;
	ret = ulp_res_create(&res, a->dev, a->port, IB_QPT_UD, 2,
			     a->size + ULP_GRH_LEN, c, NULL);
	if (ret)
		return ret;
	ret = ulp_modify_ud(&res, be16_to_cpu(path->pkey), a->qkey);
	if (ret)
		goto out;
	ah = ulp_ah_from_path(&res, path);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto out;
	}
	ulp_get(ULP_OBJ_AH);
	ret = ulp_post_recv(&res.bufs[1], ulp_sc_recv_done);
	if (!ret) {
		ulp_fill(res.bufs[0].va, a->size, a->no, 0, 0);
		ret = ulp_post_send(&res.bufs[0], 0, a->size, ulp_sc_send_done,
				    ah, c->qpn, c->qkey);
	}
	if (!ret)
		wait_event_interruptible_timeout(ulp_run_wq,
						 ulp_sc_datagram_done(c, a->gen),
						 msecs_to_jiffies(ULP_SIDR_ECHO_MS));
	/* The QP goes before the AH that its send may still use. */
	ib_destroy_qp(res.qp);
	res.qp = NULL;
	ulp_put(ULP_OBJ_QP);
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	ulp_put(ULP_OBJ_AH);
out:
	ulp_res_destroy(&res);
	return ret;
}

/**
 * ulp_sidr() - resolve @a->sid at @a->dst, then send it a datagram
 * @a: destination, device, size of the datagram, timeout
 *
 * Context: process; sleeps up to @a->timeout_ms plus the echo wait.
 * Return: 0 once recorded, or a negative errno if nothing was sent.
 */
int ulp_sidr(const struct ulp_connect_args *a)
{
	struct pdcm_sidr_req_param param = {};
	struct sockaddr_storage src = a->src, dst = a->dst;
	u8 pdata[PDCM_CMA_HDR_SIZE] = {};
	struct ulp_sidr_client *c;
	struct ulp_record *rec;
	struct sa_path_rec path;
	struct pdcm_id *id;
	ktime_t t0;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!c || !rec) {
		kfree(c);
		kfree(rec);
		return -ENOMEM;
	}
	rec->kind = ULP_REC_SIDR;
	rec->no = a->no;
	rec->sid = a->sid;
	rec->size = a->size;
	snprintf(rec->src, sizeof(rec->src), "%pISc", &a->src);
	snprintf(rec->dst, sizeof(rec->dst), "%pISc", &a->dst);

	id = pdcm_create_id(a->dev, ulp_sidr_active_handler, c);
	if (IS_ERR_OR_NULL(id)) {
		ret = id ? PTR_ERR(id) : -ENOMEM;
		goto out;
	}
	ulp_get(ULP_OBJ_ID);
	ret = pdcm_resolve_path(a->dev, a->port, (struct sockaddr *)&a->src,
				(struct sockaddr *)&a->dst, &path);
	if (!ret) {
		__be16 sport = cpu_to_be16(0xc000 | (rec->no & 0x3fff));

		if (src.ss_family == AF_INET)
			((struct sockaddr_in *)&src)->sin_port = sport;
		else
			((struct sockaddr_in6 *)&src)->sin6_port = sport;
		ret = pdcm_cma_hdr_build(pdata, sizeof(pdata),
					 (struct sockaddr *)&src,
					 (struct sockaddr *)&dst);
	}
	if (!ret) {
		param.path = &path;
		param.port = a->port;
		param.service_id = a->sid;
		param.timeout_ms = 1000;
		param.max_cm_retries = a->cm_retries;
		param.private_data = pdata;
		param.private_data_len = sizeof(pdata);
		t0 = ktime_get();
		ret = pdcm_send_sidr_req(id, &param);
	}
	if (!ret) {
		wait_event_interruptible_timeout(ulp_run_wq,
						 ulp_sc_answered(c, a->gen),
						 msecs_to_jiffies(a->timeout_ms));
		rec->rtt_us = ktime_us_delta(ktime_get(), t0);
	}
	pdcm_destroy_id(id);	/* no handler runs after this */
	ulp_put(ULP_OBJ_ID);
	if (ret)
		goto out;

	rec->status = c->answered ? c->status : -ETIMEDOUT;
	rec->qpn = c->qpn;
	rec->qkey = c->qkey;
	if (c->answered && c->status == PDCM_SIDR_SUCCESS) {
		ret = ulp_sidr_datagram(a, c, &path);
		if (ret)
			ulp_dbg("sidr %u: datagram failed: %d\n", rec->no, ret);
		ret = 0;
		rec->sent = c->sent;
		rec->echoed = c->echoed;
		rec->dgram_verified = c->echo_ok;
	}
out:
	if (ret)
		rec->status = ret;
	ulp_record_add(rec);
	kfree(c);
	return ret;
}
