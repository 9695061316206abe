// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_shim_test: the SDP and kDAPL shims with real RC QPs, for the VM
 * scenarios shim_sdp.sh and shim_kdapl.sh.
 *
 *   /sys/kernel/debug/pdcm_shim/ctl	  one command per write
 *   /sys/kernel/debug/pdcm_shim/results  log lines, objects, live counts
 *
 * Commands (Documentation/shims.rst, "Tested in a VM"):
 *
 *   sdp_listen NAME ADDR PORT [backlog=N] [adverts=N]
 *   sdp_unlisten NAME
 *   sdp_connect DST PORT [src=IP] [msgs=N] [size=N] [adverts=N]
 *	  [desrem=N] [timeout=S] [remote=1]
 *   ia NAME ADDR
 *   group NAME LIMIT
 *   psp NAME IA QUAL [group=G] [backlog=N] [rej_overflow=1]
 *	  [mode=accept|reject|hold|echo] [msgs=N] [size=N]
 *   rsp NAME IA QUAL
 *   sp_mode NAME accept|reject	  also answers the CRs held so far
 *   sp_free NAME
 *   dat_connect IA DST QUAL [count=N] [timeout=S] [msgs=N] [size=N]
 *	  [verify=0] [remote=1] [peer_disconnect=S]
 *   close			  free everything, keep the log
 *
 * A connect command blocks until its connections are set up, have moved
 * data both ways and are disconnected (or failed), and logs one line per
 * connection.  The device is the module parameter dev (rxe0).
 *
 * remote=1: the passive end is on another host.  The connect waits for
 * its own messages to arrive and its sends to complete (the peer has
 * them), instead of looking at the local passive end.  The passive ends
 * stay listed in results (sdp_pconn, pep lines) until close.
 * peer_disconnect=S: wait up to S seconds for the peer's DREQ before
 * sending one.  mode=echo: each message is sent back as it came, not
 * verified (rdma_client's).  verify=0: a message of the right size
 * counts (rdma_server's own data).
 */
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rdma/pdcm_ns.h>

#include "../kunit/ibdev.h"
#include "shim.h"

MODULE_DESCRIPTION("pdcm shim test: SDP and kDAPL with RC QPs over debugfs");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(PDCM_NS(PDCM));
MODULE_IMPORT_NS(PDCM_NS(PDCM_SDP));
MODULE_IMPORT_NS(PDCM_NS(PDCM_DAT));

static char *st_dev_name = "rxe0";
module_param_named(dev, st_dev_name, charp, 0444);
MODULE_PARM_DESC(dev, "the RDMA device to use (default rxe0)");

atomic_t st_live[ST_OBJ_NR];
DECLARE_WAIT_QUEUE_HEAD(st_wq);
DEFINE_MUTEX(st_lock);			/* the object lists */
struct ib_device *st_dev;

static DEFINE_MUTEX(st_log_lock);
static LIST_HEAD(st_log_lines);
static struct dentry *st_debugfs;

static const char *const st_obj_names[ST_OBJ_NR] = {
	[ST_SDP_LISTENER] = "sdp_listeners",
	[ST_SDP_CONN] = "sdp_conns",
	[ST_DAT_IA] = "ias",
	[ST_DAT_SP] = "sps",
	[ST_DAT_EP] = "eps",
	[ST_GROUP] = "groups",
	[ST_PD] = "pds",
	[ST_CQ] = "cqs",
	[ST_QP] = "qps",
	[ST_BUF] = "bufs",
	[ST_RUN] = "runs",
};

struct st_line {
	struct list_head node;
	char text[];
};

/**
 * st_log() - add a line to results
 * @fmt: printf format
 */
void st_log(const char *fmt, ...)
{
	struct st_line *l;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	l = kmalloc(sizeof(*l) + n + 1, GFP_KERNEL);
	if (!l)
		return;
	va_start(ap, fmt);
	vsnprintf(l->text, n + 1, fmt, ap);
	va_end(ap);
	mutex_lock(&st_log_lock);
	list_add_tail(&l->node, &st_log_lines);
	mutex_unlock(&st_log_lock);
}

static void st_log_free(void)
{
	struct st_line *l, *tmp;

	list_for_each_entry_safe(l, tmp, &st_log_lines, node) {
		list_del(&l->node);
		kfree(l);
	}
}

/**
 * st_device() - look the device up once
 *
 * Return: 0 or -ENODEV.
 */
int st_device(void)
{
	int ret = 0;

	mutex_lock(&st_lock);
	if (!st_dev)
		st_dev = pdcm_test_device_get(st_dev_name);
	if (!st_dev)
		ret = -ENODEV;
	mutex_unlock(&st_lock);
	return ret;
}

/**
 * st_parse_addr() - an IPv4 or IPv6 address with @port
 * @s: the address ("0.0.0.0" and "::" are wildcards)
 * @port: host order
 * @ss: the result
 *
 * Return: 0 or -EINVAL.
 */
int st_parse_addr(const char *s, u16 port, struct sockaddr_storage *ss)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (in4_pton(s, -1, (u8 *)&sin->sin_addr.s_addr, -1, NULL)) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		return 0;
	}
	if (in6_pton(s, -1, sin6->sin6_addr.s6_addr, -1, NULL)) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		return 0;
	}
	return -EINVAL;
}

/**
 * st_opt() - the value of "key=value" among the arguments
 * @argc: argument count
 * @argv: the arguments
 * @key: the key
 *
 * Return: the value, or NULL.
 */
const char *st_opt(int argc, char **argv, const char *key)
{
	size_t n = strlen(key);
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], key, n) && argv[i][n] == '=')
			return argv[i] + n + 1;
	return NULL;
}

/**
 * st_opt_u32() - a numeric option
 * @argc: argument count
 * @argv: the arguments
 * @key: the key
 * @def: its default
 *
 * Return: the value, or @def if absent or not a number.
 */
u32 st_opt_u32(int argc, char **argv, const char *key, u32 def)
{
	const char *v = st_opt(argc, argv, key);
	u32 x;

	if (!v || kstrtou32(v, 0, &x))
		return def;
	return x;
}

/* --- the endpoint: PD, CQ, RC QP, buffers; the data pattern --- */

struct st_hdr {
	__be32 magic;
	__be32 tag;
	__be32 seq;
	__be32 len;
};

#define ST_MAGIC	0x50534854U	/* "PSHT" */

static u8 st_byte(u32 tag, u32 seq, u32 i)
{
	return (u8)(tag * 11 + seq * 29 + i);
}

static void st_fill(void *buf, u32 len, u32 tag, u32 seq)
{
	struct st_hdr *h = buf;
	u8 *p = buf;
	u32 i;

	h->magic = cpu_to_be32(ST_MAGIC);
	h->tag = cpu_to_be32(tag);
	h->seq = cpu_to_be32(seq);
	h->len = cpu_to_be32(len);
	for (i = sizeof(*h); i < len; i++)
		p[i] = st_byte(tag, seq, i);
}

static bool st_verify(const void *buf, u32 len)
{
	const struct st_hdr *h = buf;
	const u8 *p = buf;
	u32 tag, seq, i;

	if (len < sizeof(*h) || h->magic != cpu_to_be32(ST_MAGIC) ||
	    be32_to_cpu(h->len) != len)
		return false;
	tag = be32_to_cpu(h->tag);
	seq = be32_to_cpu(h->seq);
	for (i = sizeof(*h); i < len; i++)
		if (p[i] != st_byte(tag, seq, i))
			return false;
	return true;
}

static void st_send_done(struct ib_cq *cq, struct ib_wc *wc);

/* Send what @b received back, from its send buffer, with its length. */
static void st_echo(struct st_ep *ep, struct st_buf *b, u32 len)
{
	struct st_buf *s = &ep->bufs[ep->msgs + (b - ep->bufs)];
	struct ib_sge sge = {
		.addr = s->dma,
		.length = len,
		.lkey = ep->pd->local_dma_lkey,
	};
	struct ib_send_wr wr = {
		.wr_cqe = &s->cqe,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IB_WR_SEND,
		.send_flags = IB_SEND_SIGNALED,
	};

	memcpy(s->va, b->va, len);
	s->cqe.done = st_send_done;
	ib_dma_sync_single_for_device(st_dev, s->dma, ep->size,
				      DMA_BIDIRECTIONAL);
	if (ib_post_send(ep->qp, &wr, NULL))
		atomic_inc(&ep->tx_bad);
}

static void st_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct st_buf *b = container_of(wc->wr_cqe, struct st_buf, cqe);
	struct st_ep *ep = b->ep;
	bool ok;

	ib_dma_sync_single_for_cpu(cq->device, b->dma, ep->size,
				   DMA_BIDIRECTIONAL);
	if (wc->status == IB_WC_SUCCESS) {
		atomic_add(wc->byte_len, &ep->rx_bytes);
		if (ep->echo)
			ok = true;
		else if (ep->noverify)
			ok = wc->byte_len == ep->size;
		else
			ok = st_verify(b->va, wc->byte_len);
		atomic_inc(ok ? &ep->rx_ok : &ep->rx_bad);
		if (ep->echo)
			st_echo(ep, b, wc->byte_len);
	} else if (wc->status != IB_WC_WR_FLUSH_ERR) {
		atomic_inc(&ep->rx_bad);
	}
	wake_up_all(&st_wq);
}

static void st_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct st_buf *b = container_of(wc->wr_cqe, struct st_buf, cqe);

	if (wc->status == IB_WC_SUCCESS)
		atomic_inc(&b->ep->tx_ok);
	else
		atomic_inc(&b->ep->tx_bad);
	wake_up_all(&st_wq);
}

/**
 * st_ep_destroy() - free what st_ep_create() made (also partially)
 * @ep: the endpoint
 */
void st_ep_destroy(struct st_ep *ep)
{
	unsigned int i;

	if (ep->qp) {
		ib_destroy_qp(ep->qp);
		ep->qp = NULL;
		st_put(ST_QP);
	}
	if (ep->cq) {
		ib_free_cq(ep->cq);
		ep->cq = NULL;
		st_put(ST_CQ);
	}
	for (i = 0; i < ep->nbufs; i++) {
		ib_dma_unmap_single(st_dev, ep->bufs[i].dma, ep->size,
				    DMA_BIDIRECTIONAL);
		kfree(ep->bufs[i].va);
		st_put(ST_BUF);
	}
	kfree(ep->bufs);
	ep->bufs = NULL;
	ep->nbufs = 0;
	if (ep->pd) {
		ib_dealloc_pd(ep->pd);
		ep->pd = NULL;
		st_put(ST_PD);
	}
}

/**
 * st_ep_create() - PD, CQ, RC QP (RESET) and 2 * @msgs buffers
 * @ep: zeroed; filled in, and freed again on error
 * @msgs: messages each way
 * @size: bytes each
 *
 * Return: 0 or a negative errno.
 */
int st_ep_create(struct st_ep *ep, u32 msgs, u32 size)
{
	struct ib_qp_init_attr init = {};
	int ret;

	if (!msgs || msgs > ST_MAX_MSGS || size < ST_MIN_SIZE ||
	    size > ST_MAX_SIZE)
		return -EINVAL;
	ep->msgs = msgs;
	ep->size = size;
	ep->psn = get_random_u32() & 0xffffff;
	ep->pd = ib_alloc_pd(st_dev, 0);
	if (IS_ERR(ep->pd)) {
		ret = PTR_ERR(ep->pd);
		ep->pd = NULL;
		return ret;
	}
	st_get(ST_PD);
	ep->cq = ib_alloc_cq(st_dev, ep, 2 * msgs + 2, 0, IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->cq)) {
		ret = PTR_ERR(ep->cq);
		ep->cq = NULL;
		goto err;
	}
	st_get(ST_CQ);
	init.send_cq = ep->cq;
	init.recv_cq = ep->cq;
	init.cap.max_send_wr = msgs;
	init.cap.max_recv_wr = msgs;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.sq_sig_type = IB_SIGNAL_ALL_WR;
	init.qp_type = IB_QPT_RC;
	init.port_num = 1;
	ep->qp = ib_create_qp(ep->pd, &init);
	if (IS_ERR(ep->qp)) {
		ret = PTR_ERR(ep->qp);
		ep->qp = NULL;
		goto err;
	}
	st_get(ST_QP);
	ep->bufs = kcalloc(2 * msgs, sizeof(*ep->bufs), GFP_KERNEL);
	if (!ep->bufs) {
		ret = -ENOMEM;
		goto err;
	}
	for (; ep->nbufs < 2 * msgs; ep->nbufs++) {
		struct st_buf *b = &ep->bufs[ep->nbufs];

		b->ep = ep;
		b->va = kzalloc(size, GFP_KERNEL);
		if (!b->va) {
			ret = -ENOMEM;
			goto err;
		}
		b->dma = ib_dma_map_single(st_dev, b->va, size,
					   DMA_BIDIRECTIONAL);
		if (ib_dma_mapping_error(st_dev, b->dma)) {
			kfree(b->va);
			ret = -ENOMEM;
			goto err;
		}
		st_get(ST_BUF);
	}
	return 0;

err:
	st_ep_destroy(ep);
	return ret;
}

/**
 * st_ep_post_recvs() - post the receive buffers (QP in INIT or later)
 * @ep: the endpoint
 *
 * Return: 0 or what ib_post_recv() returns.
 */
int st_ep_post_recvs(struct st_ep *ep)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ep->msgs; i++) {
		struct st_buf *b = &ep->bufs[i];
		struct ib_sge sge = {
			.addr = b->dma,
			.length = ep->size,
			.lkey = ep->pd->local_dma_lkey,
		};
		struct ib_recv_wr wr = {
			.wr_cqe = &b->cqe,
			.sg_list = &sge,
			.num_sge = 1,
		};

		b->cqe.done = st_recv_done;
		ib_dma_sync_single_for_device(st_dev, b->dma, ep->size,
					      DMA_BIDIRECTIONAL);
		ret = ib_post_recv(ep->qp, &wr, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * st_ep_send_all() - send @ep->msgs pattern messages (QP in RTS)
 * @ep: the endpoint
 * @tag: goes into every message's header
 *
 * Return: 0 or what ib_post_send() returns.
 */
int st_ep_send_all(struct st_ep *ep, u32 tag)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ep->msgs; i++) {
		struct st_buf *b = &ep->bufs[ep->msgs + i];
		struct ib_sge sge = {
			.addr = b->dma,
			.length = ep->size,
			.lkey = ep->pd->local_dma_lkey,
		};
		struct ib_send_wr wr = {
			.wr_cqe = &b->cqe,
			.sg_list = &sge,
			.num_sge = 1,
			.opcode = IB_WR_SEND,
			.send_flags = IB_SEND_SIGNALED,
		};

		st_fill(b->va, ep->size, tag, i);
		b->cqe.done = st_send_done;
		ib_dma_sync_single_for_device(st_dev, b->dma, ep->size,
					      DMA_BIDIRECTIONAL);
		ret = ib_post_send(ep->qp, &wr, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * st_ep_rx_done() - has every message arrived (or failed)?
 * @ep: the endpoint
 *
 * Return: true when rx_ok + rx_bad reached @ep->msgs.
 */
bool st_ep_rx_done(struct st_ep *ep)
{
	return atomic_read(&ep->rx_ok) + atomic_read(&ep->rx_bad) >=
	       ep->msgs;
}

/**
 * st_ep_tx_done() - has every send completed (or failed)?
 * @ep: the endpoint
 *
 * Return: true when tx_ok + tx_bad reached @ep->msgs.
 */
bool st_ep_tx_done(struct st_ep *ep)
{
	return atomic_read(&ep->tx_ok) + atomic_read(&ep->tx_bad) >=
	       ep->msgs;
}

/**
 * st_ep_modify() - ib_modify_qp() with what a shim's init_qp_attr gave
 * @ep: the endpoint
 * @attr: the attributes
 * @mask: their mask
 *
 * Return: what ib_modify_qp() returns.
 */
int st_ep_modify(struct st_ep *ep, struct ib_qp_attr *attr, int mask)
{
	int ret = ib_modify_qp(ep->qp, attr, mask);

	if (ret)
		pr_info("pdcm_shim_test: modify QP %u to %d: %d\n",
			ep->qp->qp_num, attr->qp_state, ret);
	return ret;
}

/* --- debugfs --- */

static int st_close_all(void)
{
	if (atomic_read(&st_live[ST_RUN]))
		return -EBUSY;
	st_sdp_close();
	st_dat_close();
	return 0;
}

static ssize_t st_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char *buf, **argv;
	int argc, ret;

	if (len > 512)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	argv = argv_split(GFP_KERNEL, buf, &argc);
	kfree(buf);
	if (!argv)
		return -ENOMEM;
	if (!argc)
		ret = -EINVAL;
	else if (!strcmp(argv[0], "close"))
		ret = st_close_all();
	else if (st_device())
		ret = -ENODEV;
	else if (!strncmp(argv[0], "sdp_", 4))
		ret = st_sdp_cmd(argc, argv);
	else
		ret = st_dat_cmd(argc, argv);
	argv_free(argv);
	return ret ? ret : len;
}

static const struct file_operations st_ctl_fops = {
	.owner = THIS_MODULE,
	.write = st_ctl_write,
	.llseek = noop_llseek,
};

static int st_results_show(struct seq_file *m, void *v)
{
	struct st_line *l;
	int i;

	mutex_lock(&st_log_lock);
	list_for_each_entry(l, &st_log_lines, node)
		seq_printf(m, "%s\n", l->text);
	mutex_unlock(&st_log_lock);
	mutex_lock(&st_lock);
	st_sdp_show(m);
	st_dat_show(m);
	mutex_unlock(&st_lock);
	seq_puts(m, "live");
	for (i = 0; i < ST_OBJ_NR; i++)
		seq_printf(m, " %s=%d", st_obj_names[i],
			   atomic_read(&st_live[i]));
	seq_putc(m, '\n');
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(st_results);

static int __init st_init(void)
{
	st_debugfs = debugfs_create_dir("pdcm_shim", NULL);
	debugfs_create_file("ctl", 0200, st_debugfs, NULL, &st_ctl_fops);
	debugfs_create_file("results", 0444, st_debugfs, NULL,
			    &st_results_fops);
	return 0;
}

static void __exit st_exit(void)
{
	int i;

	debugfs_remove_recursive(st_debugfs);
	st_close_all();
	for (i = 0; i < ST_OBJ_NR; i++)
		if (atomic_read(&st_live[i]))
			pr_warn("pdcm_shim_test: %d %s left at unload\n",
				atomic_read(&st_live[i]), st_obj_names[i]);
	if (st_dev)
		ib_device_put(st_dev);
	st_log_free();
}

module_init(st_init);
module_exit(st_exit);
