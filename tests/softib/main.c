// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * softib: a test-only software InfiniBand device.
 *
 * Each device (sib0, sib1, ...) is a CA of link layer InfiniBand with
 * @nports ports, all ACTIVE, with a LID from the module parameters and no
 * subnet manager.  UD sends (QP0, QP1 and ordinary UD QPs) travel over an
 * in-memory wire (wire.c) to whichever softib port of the machine has the
 * destination LID.  RC QPs can be created and moved through their states,
 * but carry no data.  Documentation/testing.rst, "softib", says what is
 * modelled and what is not.  Never installed: a test module.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <rdma/ib_mad.h>

#include "softib.h"

MODULE_DESCRIPTION("softib: a software InfiniBand device for CM tests");
MODULE_LICENSE("Dual BSD/GPL");

static unsigned int ndevs = 1;
module_param(ndevs, uint, 0444);
MODULE_PARM_DESC(ndevs, "devices (sib0, ...), 1-4 (default 1)");

static unsigned int nports = 2;
module_param(nports, uint, 0444);
MODULE_PARM_DESC(nports, "ports per device, 1-8 (default 2)");

static ushort lid_base;
module_param(lid_base, ushort, 0444);
MODULE_PARM_DESC(lid_base,
		 "port P of device D gets LID lid_base + D * nports + P (default 0: 1, 2, ...)");

static ushort sm_lid;
module_param(sm_lid, ushort, 0444);
MODULE_PARM_DESC(sm_lid, "the SM LID ports report (default 0: none, so no SA traffic)");

static ushort pkey = 0x8001;
module_param(pkey, ushort, 0444);
MODULE_PARM_DESC(pkey, "the P_Key at index 1, after 0xFFFF (default 0x8001)");

static unsigned long long guid_base = 0x02005e0000a10000ULL;
module_param(guid_base, ullong, 0444);
MODULE_PARM_DESC(guid_base,
		 "node GUID of device D is guid_base + D * 256, its port P's GUID that + P");

const char *const sib_counter_names[SIB_NR_COUNTERS] = {
	[SIB_TX_LID] = "tx_lid",
	[SIB_TX_GRH] = "tx_grh",
	[SIB_TX_CM_LID] = "tx_cm_lid",
	[SIB_TX_CM_GRH] = "tx_cm_grh",
	[SIB_RX] = "rx",
	[SIB_DROP_LID] = "drop_lid",
	[SIB_DROP_WIRE] = "drop_wire",
	[SIB_DROP_QP] = "drop_qp",
	[SIB_DROP_QKEY] = "drop_qkey",
	[SIB_DROP_PKEY] = "drop_pkey",
	[SIB_DROP_NORECV] = "drop_norecv",
	[SIB_DROP_LEN] = "drop_len",
	[SIB_CQ_OVERFLOW] = "cq_overflow",
};

/* the device list and the QP tables the wire looks QPs up in */
DEFINE_MUTEX(sib_table_mutex);
LIST_HEAD(sib_devs);
struct workqueue_struct *sib_comp_wq;

static struct sib_dev *sib_devices[SIB_MAX_DEVS];
static struct dentry *sib_debugfs;

/**
 * sib_pkey() - the P_Key at an index of every port's table
 * @index: below SIB_PKEY_TBL_LEN
 *
 * Context: any.
 * Return: 0xFFFF at index 0, the pkey parameter at index 1.
 */
u16 sib_pkey(u16 index)
{
	return index ? pkey : 0xffff;
}

/**
 * sib_port_gid() - a port's only GID: fe80::/64 and the port GUID
 * @port: the port
 * @gid: filled in
 *
 * Context: any.
 */
void sib_port_gid(const struct sib_port *port, union ib_gid *gid)
{
	gid->global.subnet_prefix = cpu_to_be64(0xfe80000000000000ULL);
	gid->global.interface_id = port->guid;
}

static int sib_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
			    struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;
	memset(attr, 0, sizeof(*attr));
	attr->sys_image_guid = ibdev->node_guid;
	attr->max_mr_size = U64_MAX;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = SIB_MAX_QP;
	attr->max_qp_wr = SIB_MAX_QP_WR;
	attr->max_send_sge = SIB_MAX_SGE;
	attr->max_recv_sge = SIB_MAX_SGE;
	attr->max_sge_rd = 1;
	attr->max_cq = SIB_MAX_QP;
	attr->max_cqe = SIB_MAX_CQE;
	attr->max_mr = SIB_MAX_QP;
	attr->max_pd = SIB_MAX_QP;
	attr->max_qp_rd_atom = 16;
	attr->max_qp_init_rd_atom = 16;
	attr->max_res_rd_atom = 16 * SIB_MAX_QP;
	attr->max_ah = 65536;
	attr->max_pkeys = SIB_PKEY_TBL_LEN;
	attr->local_ca_ack_delay = 15;
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	return 0;
}

static int sib_query_port(struct ib_device *ibdev, u32 num,
			  struct ib_port_attr *attr)
{
	struct sib_dev *sdev = to_sdev(ibdev);
	struct sib_port *port = sib_port(sdev, num);
	unsigned long flags;

	/* the core zeroed @attr */
	attr->subnet_prefix = 0xfe80000000000000ULL;
	attr->state = IB_PORT_ACTIVE;
	attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_4096;
	attr->gid_tbl_len = SIB_GID_TBL_LEN;
	attr->pkey_tbl_len = SIB_PKEY_TBL_LEN;
	spin_lock_irqsave(&sdev->lock, flags);
	attr->port_cap_flags = port->cap_flags;
	spin_unlock_irqrestore(&sdev->lock, flags);
	attr->max_msg_sz = SIB_MAX_PAYLOAD;
	attr->bad_pkey_cntr = atomic64_read(&port->counters[SIB_DROP_PKEY]);
	attr->qkey_viol_cntr = atomic64_read(&port->counters[SIB_DROP_QKEY]);
	attr->lid = port->lid;
	attr->sm_lid = sm_lid;
	attr->lmc = 0;
	attr->max_vl_num = 1;
	attr->sm_sl = 0;
	attr->subnet_timeout = 18;
	attr->active_width = IB_WIDTH_4X;
	attr->active_speed = IB_SPEED_EDR;
	return 0;
}

static int sib_modify_port(struct ib_device *ibdev, u32 num, int mask,
			   struct ib_port_modify *props)
{
	struct sib_dev *sdev = to_sdev(ibdev);
	struct sib_port *port = sib_port(sdev, num);
	unsigned long flags;

	if (mask & ~(IB_PORT_SHUTDOWN | IB_PORT_INIT_TYPE |
		     IB_PORT_RESET_QKEY_CNTR))
		return -EOPNOTSUPP;
	if (mask & IB_PORT_SHUTDOWN)
		return -EOPNOTSUPP;	/* ports stay ACTIVE */
	spin_lock_irqsave(&sdev->lock, flags);
	port->cap_flags |= props->set_port_cap_mask;
	port->cap_flags &= ~props->clr_port_cap_mask;
	spin_unlock_irqrestore(&sdev->lock, flags);
	if (mask & IB_PORT_RESET_QKEY_CNTR)
		atomic64_set(&port->counters[SIB_DROP_QKEY], 0);
	return 0;
}

static int sib_get_port_immutable(struct ib_device *ibdev, u32 num,
				  struct ib_port_immutable *imm)
{
	imm->pkey_tbl_len = SIB_PKEY_TBL_LEN;
	imm->gid_tbl_len = SIB_GID_TBL_LEN;
	imm->core_cap_flags = RDMA_CORE_PORT_IBA_IB;
	imm->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static int sib_query_gid(struct ib_device *ibdev, u32 num, int index,
			 union ib_gid *gid)
{
	if (index != 0)
		return -EINVAL;
	sib_port_gid(sib_port(to_sdev(ibdev), num), gid);
	return 0;
}

static int sib_query_pkey(struct ib_device *ibdev, u32 num, u16 index,
			  u16 *value)
{
	if (index >= SIB_PKEY_TBL_LEN)
		return -EINVAL;
	*value = sib_pkey(index);
	return 0;
}

static const struct ib_device_ops sib_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.query_device = sib_query_device,
	.query_port = sib_query_port,
	.modify_port = sib_modify_port,
	.get_port_immutable = sib_get_port_immutable,
	.query_gid = sib_query_gid,
	.query_pkey = sib_query_pkey,
	.alloc_pd = sib_alloc_pd,
	.dealloc_pd = sib_dealloc_pd,
	.get_dma_mr = sib_get_dma_mr,
	.reg_user_mr = sib_reg_user_mr,
	.dereg_mr = sib_dereg_mr,
	.create_cq = sib_create_cq,
	.destroy_cq = sib_destroy_cq,
	.poll_cq = sib_poll_cq,
	.req_notify_cq = sib_req_notify_cq,
	.create_qp = sib_create_qp,
	.modify_qp = sib_modify_qp,
	.query_qp = sib_query_qp,
	.destroy_qp = sib_destroy_qp,
	.post_send = sib_post_send,
	.post_recv = sib_post_recv,
	.create_ah = sib_create_ah,
	.query_ah = sib_query_ah,
	.destroy_ah = sib_destroy_ah,

	INIT_RDMA_OBJ_SIZE(ib_ah, sib_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, sib_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, sib_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, sib_qp, ibqp),
};

/* --- debugfs: softib/<dev>/counters, softib/wire ----------------------- */

static int sib_counters_show(struct seq_file *m, void *unused)
{
	struct sib_dev *sdev = m->private;
	unsigned int p, c;

	for (p = 0; p < sdev->nports; p++) {
		struct sib_port *port = &sdev->port[p];

		seq_printf(m, "port=%u lid=%u", port->num, port->lid);
		for (c = 0; c < SIB_NR_COUNTERS; c++)
			seq_printf(m, " %s=%lld", sib_counter_names[c],
				   (long long)atomic64_read(&port->counters[c]));
		seq_putc(m, '\n');
	}
	return 0;
}

static int sib_counters_open(struct inode *inode, struct file *file)
{
	return single_open(file, sib_counters_show, inode->i_private);
}

/* Any write clears the device's counters. */
static ssize_t sib_counters_write(struct file *file, const char __user *buf,
				  size_t len, loff_t *ppos)
{
	struct sib_dev *sdev = file_inode(file)->i_private;
	unsigned int p, c;

	for (p = 0; p < sdev->nports; p++)
		for (c = 0; c < SIB_NR_COUNTERS; c++)
			atomic64_set(&sdev->port[p].counters[c], 0);
	return len;
}

static const struct file_operations sib_counters_fops = {
	.owner = THIS_MODULE,
	.open = sib_counters_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = sib_counters_write,
};

static int sib_wire_show(struct seq_file *m, void *unused)
{
	sib_wire_log_show(m);
	return 0;
}

static int sib_wire_open(struct inode *inode, struct file *file)
{
	return single_open(file, sib_wire_show, NULL);
}

/* Any write empties the wire log. */
static ssize_t sib_wire_write(struct file *file, const char __user *buf,
			      size_t len, loff_t *ppos)
{
	sib_wire_log_clear();
	return len;
}

static const struct file_operations sib_wire_fops = {
	.owner = THIS_MODULE,
	.open = sib_wire_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = sib_wire_write,
};

/* --- devices -------------------------------------------------------------- */

static struct sib_dev *sib_dev_add(unsigned int d)
{
	u64 node_guid = guid_base + d * 256ULL;
	struct sib_dev *sdev;
	unsigned int p;
	int ret;

	sdev = ib_alloc_device(sib_dev, ibdev);
	if (!sdev)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&sdev->lock);
	xa_init_flags(&sdev->qps, XA_FLAGS_ALLOC);
	sdev->next_qpn = 2;
	sdev->nports = nports;
	for (p = 0; p < nports; p++) {
		struct sib_port *port = &sdev->port[p];

		port->dev = sdev;
		port->num = p + 1;
		port->lid = lid_base + d * nports + p + 1;
		port->guid = cpu_to_be64(node_guid + p + 1);
	}
	sdev->ibdev.node_type = RDMA_NODE_IB_CA;
	sdev->ibdev.node_guid = cpu_to_be64(node_guid);
	sdev->ibdev.phys_port_cnt = nports;
	sdev->ibdev.num_comp_vectors = 1;
	sdev->ibdev.local_dma_lkey = 0;
	snprintf(sdev->ibdev.node_desc, sizeof(sdev->ibdev.node_desc),
		 "softib device %u", d);
	ib_set_device_ops(&sdev->ibdev, &sib_dev_ops);

	/* the wire finds its ports from now on; none is used before */
	mutex_lock(&sib_table_mutex);
	list_add_tail(&sdev->node, &sib_devs);
	mutex_unlock(&sib_table_mutex);

	/* NULL DMA device: virtual DMA, an SGE's address is a kernel pointer */
	ret = ib_register_device(&sdev->ibdev, "sib%d", NULL);
	if (ret) {
		mutex_lock(&sib_table_mutex);
		list_del(&sdev->node);
		mutex_unlock(&sib_table_mutex);
		xa_destroy(&sdev->qps);
		ib_dealloc_device(&sdev->ibdev);
		return ERR_PTR(ret);
	}
	sdev->debugfs = debugfs_create_dir(dev_name(&sdev->ibdev.dev),
					   sib_debugfs);
	debugfs_create_file("counters", 0600, sdev->debugfs, sdev,
			    &sib_counters_fops);
	return sdev;
}

static void sib_dev_remove(struct sib_dev *sdev)
{
	debugfs_remove_recursive(sdev->debugfs);
	/* the clients (MAD, CM, umad) go first, with their QPs */
	ib_unregister_device(&sdev->ibdev);
	mutex_lock(&sib_table_mutex);
	list_del(&sdev->node);
	mutex_unlock(&sib_table_mutex);
	WARN_ON(!xa_empty(&sdev->qps));
	xa_destroy(&sdev->qps);
	ib_dealloc_device(&sdev->ibdev);
}

static void sib_devs_remove(void)
{
	int d;

	for (d = SIB_MAX_DEVS - 1; d >= 0; d--) {
		if (sib_devices[d])
			sib_dev_remove(sib_devices[d]);
		sib_devices[d] = NULL;
	}
}

static int __init sib_init(void)
{
	unsigned int d;
	int ret;

	if (!ndevs || ndevs > SIB_MAX_DEVS || !nports || nports > SIB_MAX_PORTS)
		return -EINVAL;
	if (lid_base + ndevs * nports >= be16_to_cpu(IB_MULTICAST_LID_BASE) ||
	    sm_lid >= be16_to_cpu(IB_MULTICAST_LID_BASE))
		return -EINVAL;
	sib_comp_wq = alloc_workqueue("softib_comp", WQ_UNBOUND, 0);
	if (!sib_comp_wq)
		return -ENOMEM;
	ret = sib_wire_init();
	if (ret)
		goto err_wq;
	sib_debugfs = debugfs_create_dir("softib", NULL);
	debugfs_create_file("wire", 0600, sib_debugfs, NULL, &sib_wire_fops);
	for (d = 0; d < ndevs; d++) {
		struct sib_dev *sdev = sib_dev_add(d);

		if (IS_ERR(sdev)) {
			ret = PTR_ERR(sdev);
			pr_err("softib: device %u: %d\n", d, ret);
			goto err_devs;
		}
		sib_devices[d] = sdev;
	}
	return 0;

err_devs:
	sib_devs_remove();
	debugfs_remove_recursive(sib_debugfs);
	sib_wire_exit();
err_wq:
	destroy_workqueue(sib_comp_wq);
	return ret;
}

static void __exit sib_exit(void)
{
	sib_devs_remove();
	debugfs_remove_recursive(sib_debugfs);
	sib_wire_exit();
	destroy_workqueue(sib_comp_wq);
}

module_init(sib_init);
module_exit(sib_exit);
