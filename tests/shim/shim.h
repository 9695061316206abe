/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm_shim_test: drives the SDP and kDAPL shims with RC QPs, from
 * debugfs.  main.c has the module, debugfs, the verbs endpoint and the
 * data pattern; sdp.c and dat.c the two shims' commands.
 */
#ifndef _PDCM_SHIM_TEST_H
#define _PDCM_SHIM_TEST_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/socket.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>

#define ST_NAME_LEN	16
#define ST_MAX_MSGS	32
#define ST_MAX_SIZE	8192
#define ST_MIN_SIZE	16

/* Objects the module holds ("live" in results); all 0 when idle. */
enum st_obj {
	ST_SDP_LISTENER,
	ST_SDP_CONN,
	ST_DAT_IA,
	ST_DAT_SP,
	ST_DAT_EP,
	ST_GROUP,
	ST_PD,
	ST_CQ,
	ST_QP,
	ST_BUF,
	ST_RUN,
	ST_OBJ_NR
};

extern atomic_t st_live[ST_OBJ_NR];
extern wait_queue_head_t st_wq;		/* any event of any connection */
extern struct mutex st_lock;		/* the object lists */
extern struct ib_device *st_dev;	/* the device, once looked up */

static inline void st_get(enum st_obj o)
{
	atomic_inc(&st_live[o]);
}

static inline void st_put(enum st_obj o)
{
	atomic_dec(&st_live[o]);
}

struct st_ep;

/**
 * struct st_buf - one DMA-mapped message buffer
 * @cqe: its completion
 * @ep: its endpoint
 * @va: the memory
 * @dma: its mapping
 */
struct st_buf {
	struct ib_cqe cqe;
	struct st_ep *ep;
	void *va;
	u64 dma;
};

/**
 * struct st_ep - the verbs side of one end: PD, CQ, RC QP, buffers
 * @pd: the PD
 * @cq: the CQ
 * @qp: the QP
 * @bufs: @msgs receive buffers, then @msgs send buffers
 * @nbufs: buffers allocated
 * @msgs: messages each way
 * @size: bytes per message
 * @psn: the QP's starting PSN
 * @echo: send every message received back, unverified, from a send
 *	buffer (the peer's data is its own: rdma-core's tools)
 * @noverify: a message of @size bytes counts as verified (peers that
 *	send their own data)
 * @rx_ok: messages received and verified (echoed, with @echo)
 * @rx_bad: receives that failed or did not verify
 * @rx_bytes: bytes received successfully
 * @tx_ok: sends completed
 * @tx_bad: sends that failed
 */
struct st_ep {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct st_buf *bufs;
	unsigned int nbufs;
	u32 msgs;
	u32 size;
	u32 psn;
	bool echo;
	bool noverify;
	atomic_t rx_ok;
	atomic_t rx_bad;
	atomic_t rx_bytes;
	atomic_t tx_ok;
	atomic_t tx_bad;
};

int st_ep_create(struct st_ep *ep, u32 msgs, u32 size);
void st_ep_destroy(struct st_ep *ep);
int st_ep_post_recvs(struct st_ep *ep);
int st_ep_send_all(struct st_ep *ep, u32 tag);
bool st_ep_rx_done(struct st_ep *ep);
bool st_ep_tx_done(struct st_ep *ep);
int st_ep_modify(struct st_ep *ep, struct ib_qp_attr *attr, int mask);

int st_device(void);
void st_log(const char *fmt, ...) __printf(1, 2);
int st_parse_addr(const char *s, u16 port, struct sockaddr_storage *ss);
const char *st_opt(int argc, char **argv, const char *key);
u32 st_opt_u32(int argc, char **argv, const char *key, u32 def);

int st_sdp_cmd(int argc, char **argv);
void st_sdp_close(void);
void st_sdp_show(struct seq_file *m);
int st_dat_cmd(int argc, char **argv);
void st_dat_close(void);
void st_dat_show(struct seq_file *m);

#endif /* _PDCM_SHIM_TEST_H */
