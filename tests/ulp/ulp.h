/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm_ulp: a test ULP for pdcm, driven from debugfs.  Shared declarations
 * of its parts: ctl.c (module, devices, debugfs, command parsing), qp.c
 * (verbs resources and the data pattern), passive.c (listeners), active.c
 * (connection runs), sidr.c (SIDR over UD) and rping.c (rdma-core's rping
 * protocol: a listener mode and a kind of run).
 */
#ifndef _PDCM_ULP_H
#define _PDCM_ULP_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <rdma/pdcm.h>

#define ULP_NAME_LEN		16
#define ULP_ADDR_LEN		48	/* "%pISc" of an IPv6 address, or "any" */
#define ULP_MIN_MSG		16	/* the pattern header */
#define ULP_MAX_MSG		65536
#define ULP_MAX_CONNS		65536
#define ULP_QKEY		0x0050444dU	/* UD Q_Key of both SIDR ends */
#define ULP_MAGIC		0x50444d55U	/* "PDMU": REQ token, pattern */
#define ULP_REP_TAG		"pdcm_ulp:"	/* REP private data: tag + name */
#define ULP_GRH_LEN		40	/* UD receive buffers start with it */

/* Objects the ULP holds; "live" in results.  Each must be 0 when idle. */
enum ulp_obj {
	ULP_OBJ_LISTENER,	/* listeners with a pdcm_id (incl. SIDR) */
	ULP_OBJ_CONN,		/* active + passive connection structs */
	ULP_OBJ_ID,		/* pdcm_ids the ULP owns */
	ULP_OBJ_PD,
	ULP_OBJ_CQ,
	ULP_OBJ_QP,
	ULP_OBJ_AH,
	ULP_OBJ_BUF,		/* DMA-mapped message buffers */
	ULP_OBJ_MR,		/* fast-registration MRs (rping) */
	ULP_OBJ_RUN,		/* connect / sidr commands in progress */
	ULP_OBJ_NR
};

extern atomic_t ulp_live[ULP_OBJ_NR];
extern bool ulp_verbose;

static inline void ulp_get(enum ulp_obj o)
{
	atomic_inc(&ulp_live[o]);
}

static inline void ulp_put(enum ulp_obj o)
{
	atomic_dec(&ulp_live[o]);
}

#define ulp_dbg(fmt, ...)						\
	do {								\
		if (ulp_verbose)					\
			pr_info("pdcm_ulp: " fmt, ##__VA_ARGS__);	\
	} while (0)

/*
 * ulp_lock protects every list below and the records hanging off them;
 * the counters in the listener structs are atomics.
 */
extern struct mutex ulp_lock;
extern struct list_head ulp_listeners;		/* struct ulp_listener */
extern struct list_head ulp_sidr_listeners;	/* struct ulp_sidr_listener */
extern struct list_head ulp_records;		/* struct ulp_record */
extern wait_queue_head_t ulp_idle_wq;		/* ULP_OBJ_RUN reached 0 */
extern unsigned int ulp_run_seq;		/* numbers runs, under ulp_lock */
extern struct workqueue_struct *ulp_wq;

/*
 * Runs (connect, sidr) wait on ulp_run_wq for their connections or for
 * ulp_abort_gen to change: close, reset and device removal abort them.
 */
extern wait_queue_head_t ulp_run_wq;
extern atomic_t ulp_abort_gen;

/* --- qp.c: verbs resources of one endpoint ---------------------------- */

struct ulp_qpres;

struct ulp_buf {
	struct ib_cqe cqe;
	struct ulp_qpres *res;
	void *ctx;		/* the owning connection or listener */
	void *va;
	u64 dma;
	u32 size;
	struct ib_ah *ah;	/* UD echo in flight from this buffer */
};

#define ULP_RES_MRS	2

/*
 * @mrs: MRs the owner allocated on @pd (ULP_OBJ_MR each); ulp_res_destroy()
 * deregisters them once the QP and the CQ are gone, before the PD.
 */
struct ulp_qpres {
	struct ib_device *dev;
	u32 port;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ulp_buf *bufs;
	unsigned int nbufs;
	struct ib_mr *mrs[ULP_RES_MRS];
};

int ulp_res_create(struct ulp_qpres *r, struct ib_device *dev, u32 port,
		   enum ib_qp_type type, unsigned int nbufs, u32 size,
		   void *ctx, void (*qp_event)(struct ib_event *ev, void *ctx));
void ulp_res_destroy(struct ulp_qpres *r);
int ulp_post_recv(struct ulp_buf *b,
		  void (*done)(struct ib_cq *cq, struct ib_wc *wc));
int ulp_post_send(struct ulp_buf *b, u32 offset, u32 len,
		  void (*done)(struct ib_cq *cq, struct ib_wc *wc),
		  struct ib_ah *ah, u32 remote_qpn, u32 remote_qkey);
int ulp_modify_qp_cm(struct pdcm_id *id, struct ib_qp *qp,
		     enum ib_qp_state state, u32 rq_psn);
int ulp_modify_ud(struct ulp_qpres *r, u16 pkey, u32 qkey);

void ulp_fill(void *buf, u32 len, u32 run, u32 idx, u32 seq);
bool ulp_verify(const void *buf, u32 len);

struct ulp_rping;

/*
 * What the data path of one RC connection uses, on either side: its id,
 * its verbs resources (their buffers' and QP's context is the ulp_ep), and
 * @closing under @lock, which every post and every queueing of
 * @dreq_work checks.  Once ulp_ep_quiesce() has returned, nothing posts or
 * queues any more.
 */
struct ulp_ep {
	struct pdcm_id *id;
	struct ulp_qpres res;
	spinlock_t lock;		/* @closing vs. posting and queueing */
	bool closing;
	struct work_struct dreq_work;	/* disconnect from process context */
	struct ulp_rping *rping;	/* rping's data path state, or NULL */
};

void ulp_ep_init(struct ulp_ep *ep, work_func_t dreq_work);
void ulp_ep_quiesce(struct ulp_ep *ep);
void ulp_ep_free(struct ulp_ep *ep, bool destroy_id);
bool ulp_ep_queue_dreq(struct ulp_ep *ep);
void ulp_ep_qp_event(struct ib_event *ev, void *ctx);
int ulp_ep_post_recv(struct ulp_ep *ep, struct ulp_buf *b,
		     void (*done)(struct ib_cq *cq, struct ib_wc *wc));
int ulp_ep_post_send(struct ulp_ep *ep, struct ulp_buf *b, u32 len,
		     void (*done)(struct ib_cq *cq, struct ib_wc *wc));
int ulp_ep_post_rdma(struct ulp_ep *ep, struct ulp_buf *b, u32 len,
		     enum ib_wr_opcode op, u64 raddr, u32 rkey,
		     void (*done)(struct ib_cq *cq, struct ib_wc *wc));

/* The connection whose buffer @b is. */
static inline struct ulp_ep *ulp_buf_ep(const struct ulp_buf *b)
{
	return b->ctx;
}

/*
 * What an active side puts after the RDMA CM header in the REQ: the
 * passive side sizes its buffers from it and the pattern names the run.
 */
struct ulp_req_token {
	__be32 magic;
	__be32 run;
	__be32 idx;
	__be32 msgs;
	__be32 size;
};

#define ULP_REQ_PDATA_LEN	(PDCM_CMA_HDR_SIZE + sizeof(struct ulp_req_token))

/* The source port connection @idx of run @run puts in its RDMA CM header. */
static inline u16 ulp_req_sport(u32 run, u32 idx)
{
	return 0xc000 | ((run * 131 + idx) & 0x3fff);
}

/* --- rping.c: rdma-core's rping protocol ----------------------------- */

#define ULP_RPING_MIN_SIZE	26	/* rping's smallest -S */
#define ULP_RPING_MAX_SIZE	65535	/* and its largest */
#define ULP_RPING_MAX_COUNT	1000000	/* pings of one "rping" */
#define ULP_RPING_LISTEN_SIZE	65536	/* a server's default buffer size */

struct ulp_pconn;
struct ulp_aconn;

/*
 * rping's data path state of one connection: the server's (in a ulp_pconn
 * of a mode rping listener) or the client's (in the ulp_aconn of an
 * "rping" run).  @step and what follows belong to the completion handlers.
 */
struct ulp_rping {
	struct ulp_ep *ep;
	struct ulp_pconn *pc;		/* server */
	struct ulp_aconn *ac;		/* client */
	u32 size;			/* of each buffer */
	bool stopped;			/* server, under ep->lock */
	struct ib_cqe reg_cqe;		/* client: the IB_WR_REG_MRs */
	int step;			/* enum ulp_rstep (rping.c) */
	u64 raddr;			/* the last advertisement */
	u32 rkey, rlen;
	u32 len, wlen;			/* server: bytes read, written */
	u32 regs;			/* client: registrations done */
	u32 pings;			/* finished */
};

/* Tags the structs a pdcm_id's context may point to. */
enum ulp_ctx_kind {
	ULP_CTX_LISTENER = 0x4c495354,
	ULP_CTX_PCONN = 0x50434f4e,
};

/* --- passive.c ------------------------------------------------------- */

/*
 * What a listener does with a REQ: accept it; hold it (QP made, no REP);
 * reject it (REJ CONSUMER_DEFINED, no QP); fail (QP made and taken to RTR,
 * then the error path: REJ NO_RESOURCES, everything freed).  Two accept
 * variants speak rdma-core's example tools: echo (echo any data, count
 * its bytes unverified: rdma_client) and serve (ucmatose's server: once
 * established send @msgs messages of @size bytes, take as many back, then
 * disconnect).  Mode rping is rdma-core's rping server, with its own data
 * path (rping.c).
 */
enum ulp_mode {
	ULP_MODE_ACCEPT, ULP_MODE_HOLD, ULP_MODE_REJECT, ULP_MODE_FAIL,
	ULP_MODE_ECHO, ULP_MODE_SERVE, ULP_MODE_RPING, ULP_MODE_NR
};

extern const char *const ulp_mode_names[ULP_MODE_NR];

#define ULP_SERVE_MAX_MSGS	64
#define ULP_MAX_DELAY_MS	3600000

/*
 * How a listener is set up ("listen" options): @mode and @backlog as
 * above; mode serve's @msgs and @size; @from: also compare the RDMA CM
 * header's source address ("" for none); @delay_ms: an accepting mode
 * takes its QP to RTR at once but sends the REP only that much later;
 * @mra: send an MRA asking for that service timeout (1-31, 0 for none)
 * as soon as the REQ arrives, or, with @mra_delay, when a duplicate REQ
 * does (PDCM_MRA_FLAG_DELAY).
 */
struct ulp_listen_opts {
	enum ulp_mode mode;
	u32 backlog;
	u32 msgs, size;
	char from[ULP_ADDR_LEN];
	u32 delay_ms;
	u8 mra;
	bool mra_delay;
};

struct ulp_listener;

/*
 * What a listener's mode does with the connections passive.c sets up:
 * passive.c's modes have one table, mode rping (rping.c) another.
 * @setup: check the REQ and make @pc's resources (context &pc->ep);
 * @post_recvs: the receives, with the QP in INIT; @established: RTU or
 * COMM_EST, once; @dreq_work: @pc->ep's; @show: the mode's fields of the
 * "listener" line, or NULL.
 */
struct ulp_pconn_ops {
	int (*setup)(struct ulp_pconn *pc, const struct pdcm_event *ev);
	int (*post_recvs)(struct ulp_pconn *pc);
	void (*established)(struct ulp_pconn *pc);
	work_func_t dreq_work;
	void (*show)(struct seq_file *m, const struct ulp_listener *l);
};

extern const struct ulp_pconn_ops ulp_rping_pconn_ops;

struct ulp_listener {
	u32 kind;			/* ULP_CTX_LISTENER */
	struct kref ref;		/* the list's, and one per pconn */
	struct list_head node;		/* in ulp_listeners */
	char name[ULP_NAME_LEN];
	char addr[ULP_ADDR_LEN];
	char devname[IB_DEVICE_NAME_MAX];
	__be64 sid;
	struct ulp_listen_opts o;
	const struct ulp_pconn_ops *ops;	/* of @o.mode */
	struct pdcm_compare cmp;
	struct pdcm_id *id;		/* NULL once destroyed */
	bool dying;			/* under ulp_lock */
	struct list_head conns;		/* struct ulp_pconn, under ulp_lock */
	atomic_t reqs, established, dreq, drep, timewait, rejected;
	atomic_t errors, bad, addr_errors, live;
	atomic64_t bytes;
	/* what pdcm parsed from the last REQ's RDMA CM header, under ulp_lock */
	char req_src[ULP_ADDR_LEN + 8], req_dst[ULP_ADDR_LEN + 8];
	atomic_t uc_reqs;		/* REQs for a UC connection */
	/* mode rping */
	atomic_t pings, verified;
	atomic_t rd_atomic, dest_rd_atomic;	/* the last connection's QP */
	atomic64_t read, written;
};

/*
 * The passive side of a connection.  Until it is on its listener's list
 * the REQ handler owns it; then whoever takes it off the list under
 * ulp_lock does (passive.c).
 */
struct ulp_pconn {
	u32 kind;			/* ULP_CTX_PCONN */
	struct list_head node;		/* in ->l->conns, under ulp_lock */
	struct ulp_listener *l;		/* holds a reference */
	struct ulp_ep ep;
	bool detached;			/* under ulp_lock: a close owns it */
	bool established;		/* pdcm handler only */
	struct delayed_work rep_work;	/* listener's delay: the REP */
	u8 responder_resources;		/* the REQ's, for the REP */
	u8 initiator_depth;
	u32 nrecv;			/* receives: bufs[0, nrecv) */
	u32 psn;			/* our receive PSN, in the REP */
	union {
		struct {		/* mode serve: completions */
			u32 sent, rcvd;
		} serve;
		struct ulp_rping rping;
	};
};

int ulp_listen(const char *name, __be64 sid, const char *addr,
	       struct ib_device *dev, u32 port,
	       const struct ulp_listen_opts *o);
int ulp_destroy_listener(const char *name);
void ulp_destroy_all_listeners(void);
void ulp_free_listeners(void);
void ulp_show_listeners(struct seq_file *m);

/* --- results of connections, ctl.c ---------------------------------- */

enum ulp_conn_result {
	ULP_RES_NONE,		/* never started */
	ULP_RES_OK,		/* connected, data verified, disconnected */
	ULP_RES_REJ,		/* REJ received, reason in rej_reason */
	ULP_RES_REQ_ERROR,	/* REQ unanswered after all retries */
	ULP_RES_TIMEOUT,	/* the command's timeout passed */
	ULP_RES_PEER_DISC,	/* the peer disconnected first */
	ULP_RES_DATA_ERROR,	/* bad echo or failed work completion */
	ULP_RES_ERROR,		/* local error (verbs, pdcm call) */
	ULP_RES_NR
};

extern const char *const ulp_result_names[ULP_RES_NR];

enum ulp_record_kind { ULP_REC_RUN, ULP_REC_SIDR, ULP_REC_RPING };

struct ulp_conn_record {
	u8 result;
	u8 established;
	u8 drep;
	u8 dreq_rcvd;		/* the peer disconnected */
	u8 timewait;
	u16 rej_reason;
	int err;
	u32 setup_us;
	u64 verified;		/* bytes echoed right (rping: pings) */
	char listener[ULP_NAME_LEN];
	u32 pings, bad;		/* rping */
	u8 rd_atomic, dest_rd_atomic;	/* rping: the QP's, after RTS */
};

/* --- active.c -------------------------------------------------------- */

struct ulp_connect_args {
	struct ib_device *dev;
	u32 port;
	__be64 sid;
	struct sockaddr_storage src, dst;
	u32 count, msgs, size;
	unsigned int timeout_ms;
	u8 cm_timeout, cm_retries;
	bool wait_timewait;
	bool peer_disc;		/* after the data wait for the peer's DREQ */
	bool verify;		/* compare echoes, not just their length */
	u32 qkey;		/* sidr: the UD QP's Q_Key */
	enum ib_qp_type qp_type;	/* connect: IB_QPT_RC or (uc=1) UC */
	u16 pkey;		/* connect: this P_Key in the path, not 0xffff */
	unsigned int no;	/* run number */
	int gen;		/* ulp_abort_gen when it began */
};

/*
 * What differs between the kinds of run, "connect" (echoed messages) and
 * "rping": @kind of the record; @nbufs buffers of a->size per connection;
 * @token: the REQ carries struct ulp_req_token after the RDMA CM header;
 * @setup: resources made, before the REQ; @start: the data phase, with
 * the RTU sent (if a->msgs), under ac->mutex.
 */
struct ulp_run_ops {
	enum ulp_record_kind kind;
	unsigned int nbufs;
	bool token;
	int (*setup)(struct ulp_aconn *ac);
	int (*start)(struct ulp_aconn *ac);
};

extern const struct ulp_run_ops ulp_connect_ops;
extern const struct ulp_run_ops ulp_rping_run_ops;

struct ulp_run {
	const struct ulp_connect_args *a;
	const struct ulp_run_ops *ops;
	unsigned int no;
	struct ulp_aconn *conns;
	atomic_t pending;
};

/*
 * One connection of a run.  @mutex serialises the pdcm handler, the DREQ
 * work and the command thread (CM state, @done).  Completion handlers of
 * one CQ run one at a time and never sleep: they own the data fields (and
 * @rec's counters), post through ulp_ep_post_*() and hand disconnecting
 * to the DREQ work with ulp_aconn_data_end().
 */
struct ulp_aconn {
	struct ulp_run *run;
	u32 idx;
	struct ulp_ep ep;
	struct mutex mutex;		/* CM state, @done */
	bool done;			/* under @mutex */
	bool data_ended;		/* under ep.lock */
	bool data_err;
	struct sa_path_rec path;
	ktime_t t_req, t_est;
	struct ulp_conn_record rec;
	union {
		struct {		/* connect: bufs[0] send, bufs[1] receive */
			u32 seq;
			bool sdone, rdone;
		} echo;
		struct ulp_rping rping;
	};
};

int ulp_run(const struct ulp_connect_args *a, const struct ulp_run_ops *ops);
void ulp_aconn_data_end(struct ulp_aconn *ac, bool err);

/* --- sidr.c ---------------------------------------------------------- */

struct ulp_sidr_listener {
	struct list_head node;		/* in ulp_sidr_listeners */
	__be64 sid;
	char devname[IB_DEVICE_NAME_MAX];
	struct pdcm_id *id;
	struct ulp_qpres res;
	u32 qkey;			/* of the QP, in the SIDR_REP, echoes */
	bool verify;			/* echo only what ulp_verify() accepts */
	spinlock_t lock;		/* closing vs. posting */
	bool closing;
	atomic_t reqs, datagrams, verified, bad, echoed, errors;
};

int ulp_sidr_listen(__be64 sid, struct ib_device *dev, u32 port, u32 qkey,
		    bool verify);
void ulp_sidr_destroy_all(void);
void ulp_sidr_free_all(void);
void ulp_show_sidr_listeners(struct seq_file *m);
int ulp_sidr(const struct ulp_connect_args *a);

/* --- records, ctl.c ------------------------------------------------- */

struct ulp_record {
	struct list_head node;		/* in ulp_records */
	enum ulp_record_kind kind;
	unsigned int no;
	__be64 sid;
	char src[ULP_ADDR_LEN], dst[ULP_ADDR_LEN];
	u32 count, msgs, size;
	/* run */
	u32 connected, failed, timedout, rej, disconnected;
	u32 timewait;
	u64 verified;
	u32 setup_min, setup_max;
	u64 setup_sum;
	u64 connect_us, elapsed_us, cps;
	struct ulp_conn_record *conns;	/* [count] */
	/* sidr */
	int status;		/* SIDR_REP status, or -errno */
	u32 qpn, qkey;
	u32 sent, echoed, dgram_verified;
	u32 rtt_us;
};

void ulp_record_add(struct ulp_record *rec);
int ulp_parse_addr(const char *s, struct sockaddr_storage *ss);
void ulp_records_free(void);

#endif /* _PDCM_ULP_H */
