/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Tracepoints of pdcm (trace system "pdcm"): every state transition, every
 * refused transition, every MAD dropped and every REJ sent, with reasons,
 * and every event handed to a ULP's handler.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM pdcm

#if !defined(_PDCM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _PDCM_TRACE_H

#include <linux/tracepoint.h>
#include <rdma/pdcm.h>

#include "cm.h"
#include "compat.h"

TRACE_DEFINE_ENUM(PDCM_IDLE);
TRACE_DEFINE_ENUM(PDCM_LISTEN);
TRACE_DEFINE_ENUM(PDCM_REQ_SENT);
TRACE_DEFINE_ENUM(PDCM_REQ_RCVD);
TRACE_DEFINE_ENUM(PDCM_MRA_REQ_SENT);
TRACE_DEFINE_ENUM(PDCM_MRA_REQ_RCVD);
TRACE_DEFINE_ENUM(PDCM_REP_SENT);
TRACE_DEFINE_ENUM(PDCM_REP_RCVD);
TRACE_DEFINE_ENUM(PDCM_MRA_REP_SENT);
TRACE_DEFINE_ENUM(PDCM_MRA_REP_RCVD);
TRACE_DEFINE_ENUM(PDCM_ESTABLISHED);
TRACE_DEFINE_ENUM(PDCM_DREQ_SENT);
TRACE_DEFINE_ENUM(PDCM_DREQ_RCVD);
TRACE_DEFINE_ENUM(PDCM_TIMEWAIT);
TRACE_DEFINE_ENUM(PDCM_SIDR_REQ_SENT);
TRACE_DEFINE_ENUM(PDCM_SIDR_REQ_RCVD);

#define show_pdcm_state(s)	__print_symbolic(s,		\
	{ PDCM_IDLE, "IDLE" },			\
	{ PDCM_LISTEN, "LISTEN" },			\
	{ PDCM_REQ_SENT, "REQ_SENT" },			\
	{ PDCM_REQ_RCVD, "REQ_RCVD" },			\
	{ PDCM_MRA_REQ_SENT, "MRA_REQ_SENT" },			\
	{ PDCM_MRA_REQ_RCVD, "MRA_REQ_RCVD" },			\
	{ PDCM_REP_SENT, "REP_SENT" },			\
	{ PDCM_REP_RCVD, "REP_RCVD" },			\
	{ PDCM_MRA_REP_SENT, "MRA_REP_SENT" },			\
	{ PDCM_MRA_REP_RCVD, "MRA_REP_RCVD" },			\
	{ PDCM_ESTABLISHED, "ESTABLISHED" },			\
	{ PDCM_DREQ_SENT, "DREQ_SENT" },			\
	{ PDCM_DREQ_RCVD, "DREQ_RCVD" },			\
	{ PDCM_TIMEWAIT, "TIMEWAIT" },			\
	{ PDCM_SIDR_REQ_SENT, "SIDR_REQ_SENT" },			\
	{ PDCM_SIDR_REQ_RCVD, "SIDR_REQ_RCVD" })

TRACE_EVENT(pdcm_fsm_transition,
	    TP_PROTO(const struct pdcm_conn *conn, enum pdcm_state from, int ev),
	    TP_ARGS(conn, from, ev),
	    TP_STRUCT__entry(__field(u32, local_id)
			     __field(u32, remote_id)
			     __field(unsigned long, from)
			     __field(unsigned long, to)
			     __string(event, pdcm_fsm_event_name(ev))),
	    TP_fast_assign(__entry->local_id = be32_to_cpu(conn->id.local_id);
			   __entry->remote_id = be32_to_cpu(conn->id.remote_id);
			   __entry->from = from;
			   __entry->to = conn->id.state;
			   PDCM_ASSIGN_STR(event, pdcm_fsm_event_name(ev));),
	    TP_printk("local_id=0x%08x remote_id=0x%08x %s -> %s on %s",
		      __entry->local_id, __entry->remote_id,
		      show_pdcm_state(__entry->from), show_pdcm_state(__entry->to),
		      __get_str(event))
);

TRACE_EVENT(pdcm_fsm_refused,
	    TP_PROTO(const struct pdcm_conn *conn, int ev),
	    TP_ARGS(conn, ev),
	    TP_STRUCT__entry(__field(u32, local_id)
			     __field(unsigned long, state)
			     __string(event, pdcm_fsm_event_name(ev))),
	    TP_fast_assign(__entry->local_id = be32_to_cpu(conn->id.local_id);
			   __entry->state = conn->id.state;
			   PDCM_ASSIGN_STR(event, pdcm_fsm_event_name(ev));),
	    TP_printk("local_id=0x%08x %s not allowed in %s",
		      __entry->local_id, __get_str(event),
		      show_pdcm_state(__entry->state))
);

TRACE_EVENT(pdcm_drop,
	    TP_PROTO(u16 attr_id, u32 comm_id, const char *why),
	    TP_ARGS(attr_id, comm_id, why),
	    TP_STRUCT__entry(__field(u16, attr_id)
			     __field(u32, comm_id)
			     __string(why, why)),
	    TP_fast_assign(__entry->attr_id = attr_id;
			   __entry->comm_id = comm_id;
			   PDCM_ASSIGN_STR(why, why);),
	    TP_printk("%s comm_id=0x%08x dropped: %s",
		      pdcm_wire_attr_name(__entry->attr_id), __entry->comm_id,
		      __get_str(why))
);

/* Just before a ULP's handler is called (as rdma_cma's cm_event_handler). */
TRACE_EVENT(pdcm_event,
	    TP_PROTO(const struct pdcm_conn *conn, int event),
	    TP_ARGS(conn, event),
	    TP_STRUCT__entry(__field(u32, local_id)
			     __field(u32, remote_id)
			     __field(int, event)),
	    TP_fast_assign(__entry->local_id = be32_to_cpu(conn->id.local_id);
			   __entry->remote_id = be32_to_cpu(conn->id.remote_id);
			   __entry->event = event;),
	    TP_printk("local_id=0x%08x remote_id=0x%08x %s (%d)",
		      __entry->local_id, __entry->remote_id,
		      pdcm_event_name(__entry->event), __entry->event)
);

TRACE_EVENT(pdcm_send_rej,
	    TP_PROTO(u32 local_id, u32 remote_id, u16 reason),
	    TP_ARGS(local_id, remote_id, reason),
	    TP_STRUCT__entry(__field(u32, local_id)
			     __field(u32, remote_id)
			     __field(u16, reason)),
	    TP_fast_assign(__entry->local_id = local_id;
			   __entry->remote_id = remote_id;
			   __entry->reason = reason;),
	    TP_printk("local_id=0x%08x remote_id=0x%08x reason=%u (%s)",
		      __entry->local_id, __entry->remote_id, __entry->reason,
		      pdcm_rej_reason_name(__entry->reason))
);

TRACE_EVENT(pdcm_mad,
	    TP_PROTO(bool tx, u16 attr_id, u32 local_id, u32 remote_id, u64 tid),
	    TP_ARGS(tx, attr_id, local_id, remote_id, tid),
	    TP_STRUCT__entry(__field(bool, tx)
			     __field(u16, attr_id)
			     __field(u32, local_id)
			     __field(u32, remote_id)
			     __field(u64, tid)),
	    TP_fast_assign(__entry->tx = tx;
			   __entry->attr_id = attr_id;
			   __entry->local_id = local_id;
			   __entry->remote_id = remote_id;
			   __entry->tid = tid;),
	    TP_printk("%s %s local_id=0x%08x remote_id=0x%08x tid=0x%016llx",
		      __entry->tx ? "tx" : "rx", pdcm_wire_attr_name(__entry->attr_id),
		      __entry->local_id, __entry->remote_id, __entry->tid)
);

#endif /* _PDCM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
