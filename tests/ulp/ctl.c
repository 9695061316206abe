// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_ulp: a test ULP for pdcm, driven from debugfs.
 *
 *   /sys/kernel/debug/pdcm_ulp/ctl	write one command per write
 *   /sys/kernel/debug/pdcm_ulp/results	listeners, runs, live objects
 *   /sys/kernel/debug/pdcm_ulp/conns	one line per connection of a run
 *
 * Commands (Documentation/testing.rst, "Test ULP"):
 *
 *   listen NAME SID ADDR|ipv4|ipv6|any [dev=NAME|all] [port=N]
 *	  [mode=accept|hold|reject|fail|echo|serve|rping] [backlog=N]
 *	  [msgs=N] [size=N] [from=IP] [delay=MS] [mra=N] [mra_delay=0|1]
 *   destroy_listener NAME
 *   connect COUNT SID DST [SRC] [MSGS] [SIZE] [src=IP] [msgs=N] [size=N]
 *	  [dev=NAME] [port=N] [timeout=S] [cm_timeout=N] [retries=N]
 *	  [timewait=0|1] [verify=0|1] [peer_disc=0|1] [pkey=N] [bg=0|1]
 *   sidr_listen SID [dev=NAME] [port=N] [qkey=N] [verify=0|1]
 *   sidr SID DST [SRC] [size=N] [dev=NAME] [port=N] [timeout=S]
 *	  [retries=N] [qkey=N] [verify=0|1]
 *   rping SID DST [SRC] [count=N] [size=N] [dev=NAME] [port=N]
 *	  [timeout=S] [cm_timeout=N] [retries=N] [timewait=0|1]
 *   close	destroy every id and verbs object; keep the results
 *   reset	close, then forget the results
 *
 * SID is a number (0x...) or tcp:PORT / udp:PORT, rdma_cm's port spaces
 * (0x0000000001060000 | PORT, 0x0000000001110000 | PORT).  "connect" and
 * "sidr" block until they are over (at most their timeout) and a record
 * of what happened is in results either way; the write fails only when
 * nothing could be started.  With bg=1 a "connect" runs in the
 * background (a work item of ulp_bg_wq) and the write returns once it
 * has begun, so that the module can be unloaded while it runs: the exit
 * aborts it.  The ULP uses nothing of pdcm but <rdma/pdcm.h>.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <net/route.h>

#include "../../cm/compat.h"
#include "ulp.h"

MODULE_DESCRIPTION("pdcm test ULP: listeners, RC runs, SIDR over debugfs");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(PDCM_NS(PDCM));

atomic_t ulp_live[ULP_OBJ_NR];
bool ulp_verbose;
module_param_named(verbose, ulp_verbose, bool, 0644);
MODULE_PARM_DESC(verbose, "log every CM event (default off)");

DEFINE_MUTEX(ulp_lock);		/* the lists and records (ulp.h) */
LIST_HEAD(ulp_listeners);
LIST_HEAD(ulp_sidr_listeners);
LIST_HEAD(ulp_records);
DECLARE_WAIT_QUEUE_HEAD(ulp_idle_wq);
DECLARE_WAIT_QUEUE_HEAD(ulp_run_wq);
atomic_t ulp_abort_gen;
unsigned int ulp_run_seq;
struct workqueue_struct *ulp_wq;

/* Serialises the configuration commands, close/reset and device removal. */
static DEFINE_MUTEX(ulp_ctl_mutex);

struct ulp_dev {
	struct list_head node;		/* in ulp_devs, under ulp_lock */
	struct ib_device *ibdev;
};

static LIST_HEAD(ulp_devs);
static struct dentry *ulp_debugfs;

static const char *const ulp_obj_names[ULP_OBJ_NR] = {
	[ULP_OBJ_LISTENER] = "listeners",
	[ULP_OBJ_CONN] = "conns",
	[ULP_OBJ_ID] = "ids",
	[ULP_OBJ_PD] = "pds",
	[ULP_OBJ_CQ] = "cqs",
	[ULP_OBJ_QP] = "qps",
	[ULP_OBJ_AH] = "ahs",
	[ULP_OBJ_BUF] = "bufs",
	[ULP_OBJ_MR] = "mrs",
	[ULP_OBJ_RUN] = "runs",
};

const char *const ulp_result_names[ULP_RES_NR] = {
	[ULP_RES_NONE] = "none",
	[ULP_RES_OK] = "ok",
	[ULP_RES_REJ] = "rej",
	[ULP_RES_REQ_ERROR] = "req_error",
	[ULP_RES_TIMEOUT] = "timeout",
	[ULP_RES_PEER_DISC] = "peer_disconnect",
	[ULP_RES_DATA_ERROR] = "data_error",
	[ULP_RES_ERROR] = "error",
};

/* --- records --- */

void ulp_record_add(struct ulp_record *rec)
{
	mutex_lock(&ulp_lock);
	list_add_tail(&rec->node, &ulp_records);
	mutex_unlock(&ulp_lock);
}

void ulp_records_free(void)
{
	struct ulp_record *rec, *tmp;

	mutex_lock(&ulp_lock);
	list_for_each_entry_safe(rec, tmp, &ulp_records, node) {
		list_del(&rec->node);
		kvfree(rec->conns);
		kfree(rec);
	}
	ulp_run_seq = 0;
	mutex_unlock(&ulp_lock);
}

/* "L1:50,L2:50": which listener (named in the REP) took how many. */
static void ulp_show_tally(struct seq_file *m, const struct ulp_record *rec)
{
	const char *names[8];
	u32 counts[8], n = 0, i, j;

	for (i = 0; i < rec->count; i++) {
		const char *name = rec->conns[i].listener;

		if (!rec->conns[i].established || !name[0])
			continue;
		for (j = 0; j < n && strcmp(names[j], name); j++)
			;
		if (j == n) {
			if (n == ARRAY_SIZE(names))
				continue;
			names[n] = name;
			counts[n++] = 0;
		}
		counts[j]++;
	}
	if (!n)
		seq_puts(m, "-");
	for (j = 0; j < n; j++)
		seq_printf(m, "%s%s:%u", j ? "," : "", names[j], counts[j]);
}

/*
 * "8:3,28:1": how many of a run's connections got a REJ with each reason,
 * in the order first seen; "-" when none did.  Reasons beyond the eighth
 * distinct one are summed as "more:N", so no REJ goes uncounted.
 */
static void ulp_show_rej_tally(struct seq_file *m, const struct ulp_record *rec)
{
	u32 reasons[8], counts[8], n = 0, more = 0, i, j;

	for (i = 0; i < rec->count; i++) {
		const struct ulp_conn_record *c = &rec->conns[i];

		if (c->result != ULP_RES_REJ)
			continue;
		for (j = 0; j < n && reasons[j] != c->rej_reason; j++)
			;
		if (j == n) {
			if (n == ARRAY_SIZE(reasons)) {
				more++;
				continue;
			}
			reasons[n] = c->rej_reason;
			counts[n++] = 0;
		}
		counts[j]++;
	}
	if (!n)
		seq_puts(m, "-");
	for (j = 0; j < n; j++)
		seq_printf(m, "%s%u:%u", j ? "," : "", reasons[j], counts[j]);
	if (more)
		seq_printf(m, ",more:%u", more);
}

/* An "rping" run: its one connection. */
static void ulp_show_rping(struct seq_file *m, const struct ulp_record *r)
{
	const struct ulp_conn_record *c = &r->conns[0];

	seq_printf(m,
		   "rping %u sid=0x%016llx src=%s dst=%s count=%u size=%u result=%s rej_reason=%u established=%u pings=%u verified=%llu bad=%u rd_atomic=%u dest_rd_atomic=%u drep=%u timewait=%u setup_us=%u elapsed_us=%llu err=%d\n",
		   r->no, be64_to_cpu(r->sid), r->src, r->dst, r->msgs,
		   r->size, ulp_result_names[c->result], c->rej_reason,
		   c->established, c->pings, c->verified, c->bad,
		   c->rd_atomic, c->dest_rd_atomic, c->drep, c->timewait,
		   c->established ? c->setup_us : 0, r->elapsed_us, c->err);
}

static void ulp_show_record(struct seq_file *m, const struct ulp_record *r)
{
	if (r->kind == ULP_REC_RPING) {
		ulp_show_rping(m, r);
		return;
	}
	if (r->kind == ULP_REC_SIDR) {
		seq_printf(m,
			   "sidr %u sid=0x%016llx src=%s dst=%s status=%d qpn=%u qkey=0x%x size=%u sent=%u echoed=%u verified=%u resolve_us=%u\n",
			   r->no, be64_to_cpu(r->sid), r->src, r->dst,
			   r->status, r->qpn, r->qkey, r->size, r->sent,
			   r->echoed, r->dgram_verified, r->rtt_us);
		return;
	}
	seq_printf(m,
		   "run %u sid=0x%016llx src=%s dst=%s count=%u msgs=%u size=%u connected=%u failed=%u timedout=%u rej=%u disconnected=%u timewait=%u verified=%llu setup_us_min=%u setup_us_avg=%llu setup_us_max=%u connect_us=%llu elapsed_us=%llu cps=%llu listeners=",
		   r->no, be64_to_cpu(r->sid), r->src, r->dst, r->count,
		   r->msgs, r->size, r->connected, r->failed, r->timedout,
		   r->rej, r->disconnected, r->timewait,
		   r->verified, r->setup_min,
		   r->connected ? div_u64(r->setup_sum, r->connected) : 0,
		   r->setup_max, r->connect_us, r->elapsed_us, r->cps);
	ulp_show_tally(m, r);
	seq_puts(m, " rej_reasons=");
	ulp_show_rej_tally(m, r);
	seq_putc(m, '\n');
}

static int ulp_results_show(struct seq_file *m, void *unused)
{
	struct ulp_record *rec;
	int i;

	mutex_lock(&ulp_lock);
	ulp_show_listeners(m);
	ulp_show_sidr_listeners(m);
	list_for_each_entry(rec, &ulp_records, node)
		ulp_show_record(m, rec);
	mutex_unlock(&ulp_lock);
	seq_puts(m, "live");
	for (i = 0; i < ULP_OBJ_NR; i++)
		seq_printf(m, " %s=%d", ulp_obj_names[i],
			   atomic_read(&ulp_live[i]));
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ulp_results);

static int ulp_conns_show(struct seq_file *m, void *unused)
{
	struct ulp_record *rec;
	u32 i;

	mutex_lock(&ulp_lock);
	list_for_each_entry(rec, &ulp_records, node) {
		if (rec->kind != ULP_REC_RUN)
			continue;
		for (i = 0; i < rec->count; i++) {
			const struct ulp_conn_record *c = &rec->conns[i];

			seq_printf(m,
				   "conn %u %u dst=%s result=%s rej_reason=%u established=%u setup_us=%u verified=%llu drep=%u dreq_rcvd=%u timewait=%u listener=%s err=%d\n",
				   rec->no, i, rec->dst,
				   ulp_result_names[c->result], c->rej_reason,
				   c->established, c->setup_us, c->verified,
				   c->drep, c->dreq_rcvd, c->timewait,
				   c->listener[0] ? c->listener : "-", c->err);
		}
	}
	mutex_unlock(&ulp_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ulp_conns);

/* --- devices --- */

static int ulp_add_one(struct ib_device *ibdev)
{
	struct ulp_dev *d = kzalloc(sizeof(*d), GFP_KERNEL);

	if (!d)
		return -ENOMEM;
	d->ibdev = ibdev;
	mutex_lock(&ulp_lock);
	list_add_tail(&d->node, &ulp_devs);
	mutex_unlock(&ulp_lock);
	return 0;
}

/* Abort the runs, destroy every listener.  ulp_ctl_mutex held. */
static void ulp_close_all(void)
{
	atomic_inc(&ulp_abort_gen);
	wake_up_all(&ulp_run_wq);
	/*
	 * 1,000 connections take about 220 s to end on one TCG vCPU, and
	 * 17,000 took over 120 s on a slow host: an idle wait, which the
	 * hung-task detector leaves alone.
	 */
	if (!wait_event_idle_timeout(ulp_idle_wq,
				     !atomic_read(&ulp_live[ULP_OBJ_RUN]), 600 * HZ))
		pr_warn("pdcm_ulp: runs still going after 600 s\n");
	ulp_destroy_all_listeners();
	ulp_sidr_destroy_all();
}

static void ulp_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct ulp_dev *d, *found = NULL;

	mutex_lock(&ulp_ctl_mutex);
	mutex_lock(&ulp_lock);
	list_for_each_entry(d, &ulp_devs, node)
		if (d->ibdev == ibdev) {
			found = d;
			list_del(&d->node);
			break;
		}
	mutex_unlock(&ulp_lock);
	/* Simplest correct answer for a test ULP: everything goes. */
	ulp_close_all();
	mutex_unlock(&ulp_ctl_mutex);
	kfree(found);
}

static struct ib_client ulp_client = {
	.name = "pdcm_ulp",
	.add = ulp_add_one,
	.remove = ulp_remove_one,
};

/* The device named @name, the first one for NULL; ulp_lock held. */
static struct ib_device *ulp_find_dev(const char *name)
{
	struct ulp_dev *d;

	lockdep_assert_held(&ulp_lock);
	list_for_each_entry(d, &ulp_devs, node)
		if (!name || !strcmp(dev_name(&d->ibdev->dev), name))
			return d->ibdev;
	return NULL;
}

/* --- parsing --- */

#define ULP_MAX_ARGS	16

struct ulp_opts {
	const char *dev, *src, *mode, *from;
	u32 port, msgs, size, backlog, timeout, cm_timeout, retries, timewait;
	u32 verify, qkey, count, delay, mra, mra_delay, peer_disc, uc, pkey;
	u32 bg;
	const char *pos[ULP_MAX_ARGS];	/* positional words */
	int npos;
};

static int ulp_parse_sid(const char *s, __be64 *sid)
{
	u64 v, space = 0;
	u16 port;

	if (!strncmp(s, "tcp:", 4))
		space = 0x0106;
	else if (!strncmp(s, "udp:", 4))
		space = 0x0111;
	if (space) {
		if (kstrtou16(s + 4, 0, &port))
			return -EINVAL;
		*sid = cpu_to_be64(space << 16 | port);
		return 0;
	}
	if (kstrtou64(s, 0, &v))
		return -EINVAL;
	*sid = cpu_to_be64(v);
	return 0;
}

/**
 * ulp_parse_addr() - an IPv4 or IPv6 address in text
 * @s: the text
 * @ss: filled with the address, family set, port 0
 *
 * Context: any.
 * Return: 0, or -EINVAL if @s is neither.
 */
int ulp_parse_addr(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (void *)ss;
	struct sockaddr_in6 *sin6 = (void *)ss;

	memset(ss, 0, sizeof(*ss));
	if (in4_pton(s, -1, (u8 *)&sin->sin_addr, -1, NULL)) {
		sin->sin_family = AF_INET;
		return 0;
	}
	if (in6_pton(s, -1, (u8 *)&sin6->sin6_addr, -1, NULL)) {
		sin6->sin6_family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

static bool ulp_is_addr(const char *s)
{
	struct sockaddr_storage ss;

	return !ulp_parse_addr(s, &ss);
}

static int ulp_parse_opts(int argc, char **argv, struct ulp_opts *o)
{
	static const struct {
		const char *key;
		size_t off;
	} nums[] = {
		{ "port", offsetof(struct ulp_opts, port) },
		{ "msgs", offsetof(struct ulp_opts, msgs) },
		{ "size", offsetof(struct ulp_opts, size) },
		{ "backlog", offsetof(struct ulp_opts, backlog) },
		{ "timeout", offsetof(struct ulp_opts, timeout) },
		{ "cm_timeout", offsetof(struct ulp_opts, cm_timeout) },
		{ "retries", offsetof(struct ulp_opts, retries) },
		{ "timewait", offsetof(struct ulp_opts, timewait) },
		{ "verify", offsetof(struct ulp_opts, verify) },
		{ "qkey", offsetof(struct ulp_opts, qkey) },
		{ "count", offsetof(struct ulp_opts, count) },
		{ "delay", offsetof(struct ulp_opts, delay) },
		{ "mra", offsetof(struct ulp_opts, mra) },
		{ "mra_delay", offsetof(struct ulp_opts, mra_delay) },
		{ "peer_disc", offsetof(struct ulp_opts, peer_disc) },
		{ "uc", offsetof(struct ulp_opts, uc) },
		{ "pkey", offsetof(struct ulp_opts, pkey) },
		{ "bg", offsetof(struct ulp_opts, bg) },
	};
	int i;
	size_t k;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			o->pos[o->npos++] = argv[i];
			continue;
		}
		*eq++ = '\0';
		if (!strcmp(argv[i], "dev")) {
			o->dev = eq;
		} else if (!strcmp(argv[i], "src")) {
			o->src = eq;
		} else if (!strcmp(argv[i], "mode")) {
			o->mode = eq;
		} else if (!strcmp(argv[i], "from")) {
			o->from = eq;
		} else {
			for (k = 0; k < ARRAY_SIZE(nums); k++)
				if (!strcmp(argv[i], nums[k].key))
					break;
			if (k == ARRAY_SIZE(nums) ||
			    kstrtou32(eq, 0, (u32 *)((char *)o + nums[k].off)))
				return -EINVAL;
		}
	}
	return 0;
}

/* The source address the route to @dst would use (IPv4 only). */
static int ulp_default_src(const struct sockaddr_storage *dst,
			   struct sockaddr_storage *src)
{
	const struct sockaddr_in *d = (const void *)dst;
	struct sockaddr_in *s = (void *)src;
	struct flowi4 fl4 = {};
	struct rtable *rt;

	if (dst->ss_family != AF_INET)
		return -EDESTADDRREQ;
	fl4.daddr = d->sin_addr.s_addr;
	rt = ip_route_output_key(&init_net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	ip_rt_put(rt);
	memset(src, 0, sizeof(*src));
	s->sin_family = AF_INET;
	s->sin_addr.s_addr = fl4.saddr;
	return 0;
}

/*
 * connect COUNT SID DST [SRC] [MSGS] [SIZE] ... and sidr SID DST [SRC]
 * ...: fill @a from the words after the command (@first: index of SID).
 */
static int ulp_parse_active(struct ulp_opts *o, int first,
			    struct ulp_connect_args *a)
{
	const char *src = o->src;
	int p = first + 2;
	int ret;

	if (o->npos < first + 2 || ulp_parse_sid(o->pos[first], &a->sid) ||
	    ulp_parse_addr(o->pos[first + 1], &a->dst))
		return -EINVAL;
	if (p < o->npos && ulp_is_addr(o->pos[p]))
		src = o->pos[p++];
	if (p < o->npos && kstrtou32(o->pos[p++], 0, &o->msgs))
		return -EINVAL;
	if (p < o->npos && kstrtou32(o->pos[p++], 0, &o->size))
		return -EINVAL;
	if (p < o->npos)
		return -EINVAL;
	if (src)
		ret = ulp_parse_addr(src, &a->src);
	else
		ret = ulp_default_src(&a->dst, &a->src);
	if (ret)
		return ret;
	if (a->src.ss_family != a->dst.ss_family)
		return -EINVAL;

	a->port = o->port ?: 1;
	a->msgs = o->msgs;
	a->size = o->size ?: 1024;
	a->timeout_ms = (o->timeout ?: 20) * MSEC_PER_SEC;
	a->cm_timeout = o->cm_timeout ?: 20;
	a->cm_retries = o->retries ?: 3;
	a->wait_timewait = o->timewait != 0;
	a->peer_disc = o->peer_disc != 0;
	a->verify = o->verify != 0;
	a->qkey = o->qkey ?: ULP_QKEY;
	a->qp_type = o->uc ? IB_QPT_UC : IB_QPT_RC;
	a->pkey = o->pkey;
	if (o->pkey > 0xffff || a->size < ULP_MIN_MSG || a->size > ULP_MAX_MSG ||
	    o->timeout > 3600 || a->cm_timeout > 31 || a->cm_retries > 15)
		return -EINVAL;
	return 0;
}

/* Pick the device and count the run in, atomically w.r.t. removal. */
static int ulp_run_begin(struct ulp_connect_args *a, const char *dev)
{
	int ret = 0;

	mutex_lock(&ulp_lock);
	a->dev = ulp_find_dev(dev);
	if (a->dev) {
		a->no = ++ulp_run_seq;
		a->gen = atomic_read(&ulp_abort_gen);
		ulp_get(ULP_OBJ_RUN);
	} else {
		ret = -ENODEV;
	}
	mutex_unlock(&ulp_lock);
	return ret;
}

static void ulp_run_end(void)
{
	ulp_put(ULP_OBJ_RUN);
	wake_up_all(&ulp_idle_wq);
}

/* Background runs: work items, so that the exit can flush them. */
static struct workqueue_struct *ulp_bg_wq;

struct ulp_bg_run {
	struct work_struct work;
	struct ulp_connect_args a;
};

static void ulp_bg_work(struct work_struct *work)
{
	struct ulp_bg_run *bg = container_of(work, struct ulp_bg_run, work);
	int ret;

	ret = ulp_run(&bg->a, &ulp_connect_ops);
	if (ret)
		ulp_dbg("background run %u: %d\n", bg->a.no, ret);
	kfree(bg);
	ulp_run_end();
}

static int ulp_cmd_connect(struct ulp_opts *o, bool sidr)
{
	struct ulp_connect_args a = {};
	struct ulp_bg_run *bg = NULL;
	u32 count = 1;
	int ret;

	if (!sidr && (o->npos < 2 || kstrtou32(o->pos[1], 0, &count) ||
		      !count || count > ULP_MAX_CONNS))
		return -EINVAL;
	ret = ulp_parse_active(o, sidr ? 1 : 2, &a);
	if (ret)
		return ret;
	if (sidr && !o->size)
		a.size = 256;
	a.count = count;
	if (o->bg) {
		if (sidr)
			return -EINVAL;
		bg = kzalloc(sizeof(*bg), GFP_KERNEL);
		if (!bg)
			return -ENOMEM;
	}
	ret = ulp_run_begin(&a, o->dev);
	if (ret) {
		kfree(bg);
		return ret;
	}
	if (bg) {
		/* the run keeps its arguments; ulp_bg_work() ends it */
		bg->a = a;
		INIT_WORK(&bg->work, ulp_bg_work);
		queue_work(ulp_bg_wq, &bg->work);
		return 0;
	}
	ret = sidr ? ulp_sidr(&a) : ulp_run(&a, &ulp_connect_ops);
	ulp_run_end();
	return ret;
}

/* rping SID DST [SRC] ...: one rping client connection, count= pings. */
static int ulp_cmd_rping(struct ulp_opts *o)
{
	struct ulp_connect_args a = {};
	int ret;

	ret = ulp_parse_active(o, 1, &a);
	if (ret)
		return ret;
	a.count = 1;
	a.msgs = o->count ?: 10;
	if (!o->size)
		a.size = 64;	/* rping's default */
	if (a.size < ULP_RPING_MIN_SIZE || a.size > ULP_RPING_MAX_SIZE ||
	    a.msgs > ULP_RPING_MAX_COUNT)
		return -EINVAL;
	ret = ulp_run_begin(&a, o->dev);
	if (ret)
		return ret;
	ret = ulp_run(&a, &ulp_rping_run_ops);
	ulp_run_end();
	return ret;
}

static int ulp_cmd_listen(struct ulp_opts *o)
{
	struct ulp_listen_opts lo = { .mode = ULP_MODE_ACCEPT };
	struct ib_device *dev = NULL;
	__be64 sid;
	int ret;

	if (o->npos != 4 || ulp_parse_sid(o->pos[2], &sid))
		return -EINVAL;
	if (o->mode) {
		ret = match_string(ulp_mode_names, ULP_MODE_NR, o->mode);
		if (ret < 0)
			return ret;
		lo.mode = ret;
	}
	if (o->msgs > ULP_SERVE_MAX_MSGS ||
	    (o->size && (o->size < ULP_MIN_MSG || o->size > ULP_MAX_MSG)) ||
	    o->delay > ULP_MAX_DELAY_MS || o->mra > 31 ||
	    (o->mra_delay && !o->mra) ||
	    (o->from && strscpy(lo.from, o->from, sizeof(lo.from)) < 0))
		return -EINVAL;
	lo.backlog = o->backlog;
	lo.msgs = o->msgs ?: 10;
	lo.size = o->size ?: (lo.mode == ULP_MODE_RPING ?
			      ULP_RPING_LISTEN_SIZE : 100);
	lo.delay_ms = o->delay;
	lo.mra = o->mra;
	lo.mra_delay = o->mra_delay != 0;
	if (o->dev && strcmp(o->dev, "all")) {
		mutex_lock(&ulp_lock);
		dev = ulp_find_dev(o->dev);
		mutex_unlock(&ulp_lock);
		if (!dev)
			return -ENODEV;
	}
	/* ulp_ctl_mutex keeps @dev: its removal takes it too. */
	return ulp_listen(o->pos[1], sid, o->pos[3], dev, o->port, &lo);
}

static int ulp_cmd_sidr_listen(struct ulp_opts *o)
{
	struct ib_device *dev;
	__be64 sid;

	if (o->npos != 2 || ulp_parse_sid(o->pos[1], &sid))
		return -EINVAL;
	mutex_lock(&ulp_lock);
	dev = ulp_find_dev(o->dev);
	mutex_unlock(&ulp_lock);
	if (!dev)
		return -ENODEV;
	return ulp_sidr_listen(sid, dev, o->port ?: 1, o->qkey ?: ULP_QKEY,
			       o->verify != 0);
}

static int ulp_exec(int argc, char **argv)
{
	struct ulp_opts *o;
	const char *cmd = argv[0];
	int ret;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->timewait = 1;	/* default: wait for the timewait exit */
	o->verify = 1;
	ret = ulp_parse_opts(argc, argv, o);
	if (ret)
		goto out;

	/* The runs take the ctl mutex only to start: they may block long. */
	if (!strcmp(cmd, "connect") || !strcmp(cmd, "sidr")) {
		ret = ulp_cmd_connect(o, cmd[0] == 's');
		goto out;
	}
	if (!strcmp(cmd, "rping")) {
		ret = ulp_cmd_rping(o);
		goto out;
	}
	mutex_lock(&ulp_ctl_mutex);
	if (!strcmp(cmd, "listen")) {
		ret = ulp_cmd_listen(o);
	} else if (!strcmp(cmd, "destroy_listener")) {
		ret = o->npos == 2 ? ulp_destroy_listener(o->pos[1]) : -EINVAL;
	} else if (!strcmp(cmd, "sidr_listen")) {
		ret = ulp_cmd_sidr_listen(o);
	} else if (!strcmp(cmd, "close") || !strcmp(cmd, "reset")) {
		ulp_close_all();
		if (cmd[0] == 'r') {
			ulp_free_listeners();
			ulp_sidr_free_all();
			ulp_records_free();
		}
	} else {
		ret = -EOPNOTSUPP;
	}
	mutex_unlock(&ulp_ctl_mutex);
out:
	if (ret)
		ulp_dbg("'%s': %d\n", cmd, ret);
	kfree(o);
	return ret;
}

static ssize_t ulp_ctl_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char *buf, *p, *argv[ULP_MAX_ARGS];
	int argc = 0, ret;

	if (len > 512)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = buf;
	while (p) {
		char *w = strsep(&p, " \t\n");

		if (!*w)
			continue;
		if (argc == ULP_MAX_ARGS) {
			kfree(buf);
			return -E2BIG;
		}
		argv[argc++] = w;
	}
	ret = argc ? ulp_exec(argc, argv) : -EINVAL;
	kfree(buf);
	return ret ? ret : len;
}

static const struct file_operations ulp_ctl_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ulp_ctl_write,
	.llseek = noop_llseek,
};

static int __init ulp_init(void)
{
	int ret;

	ulp_wq = alloc_workqueue("pdcm_ulp", WQ_MEM_RECLAIM | PDCM_WQ_PERCPU, 0);
	if (!ulp_wq)
		return -ENOMEM;
	/* each background run sleeps in its work item until it is over */
	ulp_bg_wq = alloc_workqueue("pdcm_ulp_bg", WQ_UNBOUND, 0);
	if (!ulp_bg_wq) {
		destroy_workqueue(ulp_wq);
		return -ENOMEM;
	}
	ret = ib_register_client(&ulp_client);
	if (ret) {
		destroy_workqueue(ulp_bg_wq);
		destroy_workqueue(ulp_wq);
		return ret;
	}
	ulp_debugfs = debugfs_create_dir("pdcm_ulp", NULL);
	debugfs_create_file("ctl", 0200, ulp_debugfs, NULL, &ulp_ctl_fops);
	debugfs_create_file("results", 0444, ulp_debugfs, NULL,
			    &ulp_results_fops);
	debugfs_create_file("conns", 0444, ulp_debugfs, NULL,
			    &ulp_conns_fops);
	return 0;
}

static void __exit ulp_exit(void)
{
	int i, left = 0;

	debugfs_remove_recursive(ulp_debugfs);
	/* what the exit finds, for the unload tests (fault_remove.sh) */
	pr_info("pdcm_ulp: unloading with %d runs, %d conns, %d ids, %d qps live\n",
		atomic_read(&ulp_live[ULP_OBJ_RUN]),
		atomic_read(&ulp_live[ULP_OBJ_CONN]),
		atomic_read(&ulp_live[ULP_OBJ_ID]),
		atomic_read(&ulp_live[ULP_OBJ_QP]));
	mutex_lock(&ulp_ctl_mutex);
	ulp_close_all();
	mutex_unlock(&ulp_ctl_mutex);
	/*
	 * The background runs saw the abort: each tears its connections
	 * down and records itself, which they must do before the records go.
	 */
	destroy_workqueue(ulp_bg_wq);
	mutex_lock(&ulp_ctl_mutex);
	ulp_free_listeners();
	ulp_sidr_free_all();
	ulp_records_free();
	mutex_unlock(&ulp_ctl_mutex);
	ib_unregister_client(&ulp_client);

	/* A REQ handler that found its listener dying may still be ending. */
	for (i = 0; i < 100; i++) {
		left = atomic_read(&ulp_live[ULP_OBJ_CONN]) +
		       atomic_read(&ulp_live[ULP_OBJ_ID]);
		if (!left)
			break;
		msleep(100);
	}
	for (i = 0; i < ULP_OBJ_NR; i++)
		if (atomic_read(&ulp_live[i]))
			pr_err("pdcm_ulp: %d %s left at unload\n",
			       atomic_read(&ulp_live[i]), ulp_obj_names[i]);
	destroy_workqueue(ulp_wq);
}

module_init(ulp_init);
module_exit(ulp_exit);
