// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * softib_ibcm: the connect run of softib_cm (cm.c), written against
 * <rdma/ib_cm.h> instead of pdcm's API, so that the same handshake runs
 * on the kernel's ib_cm (the reference) and on pdcm's drop-in
 * (compat/ib_cm.ko, which exports the same symbols with the same CRCs).
 *
 *   /sys/kernel/debug/softib_ibcm/ctl      "connect DEV PORT_A PORT_B
 *                                          [grh=0|1] [listen=0|1]", or
 *                                          "bench DEV PORT_A PORT_B n=N
 *                                          conc=C [hold=1]" (bench.c)
 *   /sys/kernel/debug/softib_ibcm/results  "conn N ..." lines, as
 *                                          softib_cm's, and "bench N ..."
 *
 * The listen is on the device (ib_cm has no per-port listen), service
 * 0x5ce2; the rest is as in softib_cm.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rdma/ib_cm.h>

#include "../kunit/ibdev.h"
#include "scm.h"
#include "bench.h"

MODULE_DESCRIPTION("softib_ibcm: CM handshakes over softib ports on <rdma/ib_cm.h> (test)");
MODULE_LICENSE("Dual BSD/GPL");

#define SIC_SID		0x5ce2
#define SIC_MAX_LINES	256

/* The results lines, under sic_mutex. */
static DEFINE_MUTEX(sic_mutex);
static LIST_HEAD(sic_lines);
static unsigned int sic_nlines;
static unsigned int sic_seq;
static struct dentry *sic_debugfs;

struct sic_line {
	struct list_head node;
	char text[];
};

/*
 * One connection run, as struct scm_conn in cm.c: the handlers (the CM's
 * workqueue) write the fields, the command reads them after the
 * completion that follows each write.
 */
struct sic_conn {
	struct ib_device *dev;
	struct scm_side a;
	struct scm_side b;
	struct ib_cm_id *passive;
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
};

static void sic_set_err(struct sic_conn *c, int err)
{
	if (!c->err)
		c->err = err;
}

static int sic_modify(struct sic_conn *c, struct ib_cm_id *id, struct ib_qp *qp,
		      enum ib_qp_state state, int side)
{
	struct ib_qp_attr attr = {};
	int mask = 0;
	int ret;

	attr.qp_state = state;
	ret = ib_cm_init_qp_attr(id, &attr, &mask);
	if (ret)
		return ret;
	if (state == IB_QPS_RTR) {
		c->rtr_dlid[side] = rdma_ah_get_dlid(&attr.ah_attr);
		c->rtr_grh[side] = !!(rdma_ah_get_ah_flags(&attr.ah_attr) &
				      IB_AH_GRH);
	}
	return ib_modify_qp(qp, &attr, mask);
}

static int sic_active_handler(struct ib_cm_id *id, const struct ib_cm_event *ev)
{
	struct sic_conn *c = id->context;
	int ret;

	switch (ev->event) {
	case IB_CM_REP_RECEIVED:
		c->rep_remote_qpn = ev->param.rep_rcvd.remote_qpn;
		ret = sic_modify(c, id, c->a.qp, IB_QPS_RTR, 0);
		if (!ret)
			ret = sic_modify(c, id, c->a.qp, IB_QPS_RTS, 0);
		if (!ret)
			ret = ib_send_cm_rtu(id, NULL, 0);
		if (ret)
			sic_set_err(c, ret);
		complete(&c->rep_done);
		return 0;
	case IB_CM_REJ_RECEIVED:
		c->rej_reason = ev->param.rej_rcvd.reason;
		sic_set_err(c, -ECONNREFUSED);
		complete(&c->rep_done);
		return 0;
	case IB_CM_REQ_ERROR:
		sic_set_err(c, -ETIMEDOUT);
		complete(&c->rep_done);
		return 0;
	case IB_CM_DREP_RECEIVED:
		complete(&c->drep_done);
		return 0;
	case IB_CM_DREQ_ERROR:
		sic_set_err(c, -ETIMEDOUT);
		complete(&c->drep_done);
		return 0;
	default:
		return 0;
	}
}

static int sic_req_received(struct sic_conn *c, struct ib_cm_id *id,
			    const struct ib_cm_req_event_param *req)
{
	struct ib_cm_rep_param rep = {};
	int ret;

	c->passive = id;
	c->req_port = req->port;
	c->req_slid = be32_to_cpu(sa_path_get_slid(req->primary_path));
	c->req_dlid = be32_to_cpu(sa_path_get_dlid(req->primary_path));
	c->req_hop_limit = req->primary_path->hop_limit;
	c->req_remote_qpn = req->remote_qpn;
	ret = scm_side_create(&c->b, c->dev, req->port, IB_QPT_RC,
			      IB_POLL_WORKQUEUE);
	if (ret) {
		c->b.qp = NULL;
		return ret;
	}
	ret = sic_modify(c, id, c->b.qp, IB_QPS_INIT, 1);
	if (!ret)
		ret = sic_modify(c, id, c->b.qp, IB_QPS_RTR, 1);
	if (ret)
		return ret;
	rep.qp_num = c->b.qp->qp_num;
	rep.starting_psn = 0x4242;
	rep.responder_resources = req->responder_resources;
	rep.initiator_depth = req->initiator_depth;
	rep.flow_control = 1;
	rep.rnr_retry_count = 7;
	return ib_send_cm_rep(id, &rep);
}

static int sic_passive_handler(struct ib_cm_id *id, const struct ib_cm_event *ev)
{
	struct sic_conn *c = id->context;	/* the listen's, inherited */
	int ret;

	switch (ev->event) {
	case IB_CM_REQ_RECEIVED:
		ret = sic_req_received(c, id, &ev->param.req_rcvd);
		if (ret) {
			sic_set_err(c, ret);
			c->passive = NULL;	/* the CM destroys it */
			complete(&c->rtu_done);
		}
		return ret;
	case IB_CM_RTU_RECEIVED:
		ret = sic_modify(c, id, c->b.qp, IB_QPS_RTS, 1);
		if (ret)
			sic_set_err(c, ret);
		complete(&c->rtu_done);
		return 0;
	case IB_CM_REP_ERROR:
		sic_set_err(c, -ETIMEDOUT);
		complete(&c->rtu_done);
		return 0;
	case IB_CM_DREQ_RECEIVED:
		ret = ib_send_cm_drep(id, NULL, 0);
		if (ret)
			sic_set_err(c, ret);
		complete(&c->dreq_done);
		return 0;
	default:
		return 0;
	}
}

static bool sic_wait(struct completion *done)
{
	return wait_for_completion_timeout(done, SCM_WAIT) != 0;
}

static void sic_connect(struct ib_device *dev, u32 pa, u32 pb, bool grh,
			bool do_listen, char *line)
{
	struct ib_cm_id *listen = NULL, *active = NULL;
	struct ib_cm_req_param req = {};
	struct sa_path_rec path;
	union ib_gid gid_a, gid_b;
	u16 lid_a = 0, lid_b = 0;
	const char *result = "ok";
	int sa = -1, sb = -1;
	struct sic_conn *c;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		snprintf(line, SCM_LINE, "result=error err=%d", -ENOMEM);
		return;
	}
	c->dev = dev;
	init_completion(&c->rep_done);
	init_completion(&c->rtu_done);
	init_completion(&c->dreq_done);
	init_completion(&c->drep_done);

	ret = scm_port_addr(dev, pa, &lid_a, &gid_a);
	if (!ret)
		ret = scm_port_addr(dev, pb, &lid_b, &gid_b);
	if (!ret)
		ret = scm_side_create(&c->a, dev, pa, IB_QPT_RC, IB_POLL_WORKQUEUE);
	if (ret) {
		c->a.qp = NULL;
		goto out;
	}
	if (do_listen) {
		listen = ib_create_cm_id(dev, sic_passive_handler, c);
		if (IS_ERR(listen)) {
			ret = PTR_ERR(listen);
			listen = NULL;
			goto out;
		}
		ret = ib_cm_listen(listen, cpu_to_be64(SIC_SID));
		if (ret)
			goto out;
	}
	active = ib_create_cm_id(dev, sic_active_handler, c);
	if (IS_ERR(active)) {
		ret = PTR_ERR(active);
		active = NULL;
		goto out;
	}

	scm_ib_path(&path, &gid_a, lid_a, &gid_b, lid_b, grh);
	req.primary_path = &path;
	req.service_id = cpu_to_be64(SIC_SID);
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
	ret = ib_send_cm_req(active, &req);
	if (!ret)
		ret = sic_modify(c, active, c->a.qp, IB_QPS_INIT, 0);
	if (ret)
		goto out;
	if (!sic_wait(&c->rep_done)) {
		result = "timeout";
		goto out;
	}
	if (c->err)		/* REJ, or the REP could not be handled */
		goto out;
	if (!sic_wait(&c->rtu_done)) {
		result = "timeout";
		goto out;
	}
	if (c->err)
		goto out;
	sa = scm_qp_state(c->a.qp);
	sb = scm_qp_state(c->b.qp);
	ret = ib_send_cm_dreq(active, NULL, 0);
	if (ret)
		goto out;
	if (!sic_wait(&c->dreq_done) || !sic_wait(&c->drep_done))
		result = "timeout";
out:
	if (!ret)
		ret = c->err;
	if (ret && !strcmp(result, "ok"))
		result = c->rej_reason ? "rej" : "error";
	if (active)
		ib_destroy_cm_id(active);
	if (c->passive)
		ib_destroy_cm_id(c->passive);
	if (listen)
		ib_destroy_cm_id(listen);
	snprintf(line, SCM_LINE, SCM_CONN_FMT,
		 result, ret, c->rej_reason, lid_a, lid_b, c->req_port,
		 c->req_slid, c->req_dlid, c->req_hop_limit,
		 c->a.qp && c->req_remote_qpn == c->a.qp->qp_num,
		 c->b.qp && c->rep_remote_qpn == c->b.qp->qp_num,
		 c->rtr_dlid[0], c->rtr_grh[0], c->rtr_dlid[1], c->rtr_grh[1],
		 sa, sb);
	scm_side_destroy(&c->b);
	scm_side_destroy(&c->a);
	kfree(c);
}

/* the NAME=VALUE words of a command, each into the u32 of its name */
static int sic_args(char **argv, int argc, const char *const *names,
		    u32 **vals, int nvals)
{
	int i, j;

	for (i = 0; i < argc; i++) {
		for (j = 0; j < nvals; j++) {
			size_t l = strlen(names[j]);

			if (!strncmp(argv[i], names[j], l) && argv[i][l] == '=')
				break;
		}
		if (j == nvals ||
		    kstrtou32(argv[i] + strlen(names[j]) + 1, 0, vals[j]))
			return -EINVAL;
	}
	return 0;
}

/*
 * "connect DEV PORT_A PORT_B [grh=0|1] [listen=0|1]" or
 * "bench DEV PORT_A PORT_B n=N conc=C [hold=0|1]"
 */
static int sic_run(char *cmd)
{
	static const char *const conn_names[] = { "grh", "listen" };
	static const char *const bench_names[] = { "n", "conc", "hold" };
	u32 pa, pb, grh = 0, do_listen = 1, n = 0, conc = 1, hold = 0;
	u32 *conn_vals[] = { &grh, &do_listen };
	u32 *bench_vals[] = { &n, &conc, &hold };
	struct ib_device *dev;
	char *argv[8], *p, *line;
	int argc = 0, i, ret;
	struct sic_line *l;
	bool bench;

	while ((p = strsep(&cmd, " \t\n")) && argc < ARRAY_SIZE(argv))
		if (*p)
			argv[argc++] = p;
	if (argc < 4 || kstrtou32(argv[2], 0, &pa) ||
	    kstrtou32(argv[3], 0, &pb))
		return -EINVAL;
	bench = !strcmp(argv[0], "bench");
	if (!bench && strcmp(argv[0], "connect"))
		return -EINVAL;
	if (bench)
		ret = sic_args(argv + 4, argc - 4, bench_names, bench_vals,
			       ARRAY_SIZE(bench_vals));
	else
		ret = sic_args(argv + 4, argc - 4, conn_names, conn_vals,
			       ARRAY_SIZE(conn_vals));
	if (ret || (bench && (!n || !conc)))
		return -EINVAL;
	dev = pdcm_test_device_get(argv[1]);
	if (!dev)
		return -ENODEV;
	line = kmalloc(SCM_LINE, GFP_KERNEL);
	if (!line) {
		ib_device_put(dev);
		return -ENOMEM;
	}
	mutex_lock(&sic_mutex);
	if (bench)
		i = scnprintf(line, SCM_LINE, "bench %u %s %u->%u ", ++sic_seq,
			      argv[1], pa, pb);
	else
		i = scnprintf(line, SCM_LINE, "conn %u %s %u->%u grh=%u ",
			      ++sic_seq, argv[1], pa, pb, grh);
	mutex_unlock(&sic_mutex);
	if (bench)
		sib_bench_run(dev, pa, pb, n, conc, hold, line + i);
	else
		sic_connect(dev, pa, pb, grh, do_listen, line + i);
	ib_device_put(dev);

	mutex_lock(&sic_mutex);
	l = sic_nlines < SIC_MAX_LINES ?
	    kmalloc(sizeof(*l) + strlen(line) + 1, GFP_KERNEL) : NULL;
	if (l) {
		strcpy(l->text, line);
		list_add_tail(&l->node, &sic_lines);
		sic_nlines++;
	}
	mutex_unlock(&sic_mutex);
	kfree(line);
	return 0;
}

static DEFINE_MUTEX(sic_cmd_mutex);	/* one command at a time */

static ssize_t sic_ctl_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char *cmd;
	int ret;

	if (len > 256)
		return -EINVAL;
	cmd = memdup_user_nul(ubuf, len);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	mutex_lock(&sic_cmd_mutex);
	ret = sic_run(cmd);
	mutex_unlock(&sic_cmd_mutex);
	kfree(cmd);
	return ret ? ret : len;
}

static const struct file_operations sic_ctl_fops = {
	.owner = THIS_MODULE,
	.write = sic_ctl_write,
};

static int sic_results_show(struct seq_file *m, void *unused)
{
	struct sic_line *l;

	mutex_lock(&sic_mutex);
	list_for_each_entry(l, &sic_lines, node)
		seq_printf(m, "%s\n", l->text);
	mutex_unlock(&sic_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sic_results);

static int __init sic_init(void)
{
	sic_debugfs = debugfs_create_dir("softib_ibcm", NULL);
	debugfs_create_file("ctl", 0200, sic_debugfs, NULL, &sic_ctl_fops);
	debugfs_create_file("results", 0400, sic_debugfs, NULL,
			    &sic_results_fops);
	return 0;
}

static void __exit sic_exit(void)
{
	struct sic_line *l, *tmp;

	debugfs_remove_recursive(sic_debugfs);
	list_for_each_entry_safe(l, tmp, &sic_lines, node)
		kfree(l);
}

module_init(sic_init);
module_exit(sic_exit);
