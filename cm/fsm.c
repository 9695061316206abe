// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The connection state machine, in one table.
 *
 * Every state change of a pdcm_id goes through pdcm_fsm_step(): a call in
 * a state the table does not list returns -EINVAL and changes nothing, a
 * received message in such a state is dropped by the caller (and counted).
 * What a transition does besides changing the state -- which message goes
 * out, which timer runs, which event the ULP sees -- lives with the
 * message it belongs to in conn.c and sidr.c; this file only says what is
 * legal, so the whole protocol can be read (and tested) from one place.
 *
 * States and names follow IBA Vol. 1 12.9 and ib_cm.  Active side:
 * IDLE -> REQ_SENT [-> MRA_REQ_RCVD] -> REP_RCVD [-> MRA_REP_SENT] ->
 * ESTABLISHED (we send RTU).  Passive side: REQ_RCVD [-> MRA_REQ_SENT] ->
 * REP_SENT [-> MRA_REP_RCVD] -> ESTABLISHED (RTU or COMM_EST).  Then
 * ESTABLISHED -> DREQ_SENT | DREQ_RCVD -> TIMEWAIT -> IDLE.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/lockdep.h>

#include "cm.h"
#include "trace.h"

struct pdcm_transition {
	u8 from;
	u8 ev;
	u8 to;
};

#define T(from, ev, to)	{ PDCM_##from, PDCM_EV_##ev, PDCM_##to }

/* Every allowed (state, event) and where it leads; nothing else is. */
static const struct pdcm_transition pdcm_fsm_table[] = {
	T(IDLE, LISTEN, LISTEN),
	T(IDLE, SEND_REQ, REQ_SENT),
	T(IDLE, RX_REQ, REQ_RCVD),
	T(IDLE, SEND_SIDR_REQ, SIDR_REQ_SENT),
	T(IDLE, RX_SIDR_REQ, SIDR_REQ_RCVD),

	/* active side, waiting for the REP */
	T(REQ_SENT, RX_MRA, MRA_REQ_RCVD),
	T(REQ_SENT, RX_REP, REP_RCVD),
	T(REQ_SENT, RX_REJ, IDLE),
	T(REQ_SENT, RX_REJ_STALE, TIMEWAIT),
	T(REQ_SENT, TIMEOUT, IDLE),
	T(REQ_SENT, SEND_REJ, IDLE),
	T(MRA_REQ_RCVD, RX_REP, REP_RCVD),
	T(MRA_REQ_RCVD, RX_REJ, IDLE),
	T(MRA_REQ_RCVD, RX_REJ_STALE, TIMEWAIT),
	T(MRA_REQ_RCVD, TIMEOUT, IDLE),
	T(MRA_REQ_RCVD, SEND_REJ, IDLE),

	/* passive side, deciding */
	T(REQ_RCVD, SEND_MRA, MRA_REQ_SENT),
	T(REQ_RCVD, SEND_REP, REP_SENT),
	T(REQ_RCVD, SEND_REJ, IDLE),
	T(REQ_RCVD, RX_REJ, IDLE),
	T(REQ_RCVD, RX_REJ_STALE, TIMEWAIT),
	T(MRA_REQ_SENT, SEND_MRA, MRA_REQ_SENT),
	T(MRA_REQ_SENT, SEND_REP, REP_SENT),
	T(MRA_REQ_SENT, SEND_REJ, IDLE),
	T(MRA_REQ_SENT, RX_REJ, IDLE),
	T(MRA_REQ_SENT, RX_REJ_STALE, TIMEWAIT),

	/* passive side, waiting for the RTU */
	T(REP_SENT, RX_MRA, MRA_REP_RCVD),
	T(REP_SENT, RX_RTU, ESTABLISHED),
	T(REP_SENT, COMM_EST, ESTABLISHED),
	T(REP_SENT, RX_REJ, IDLE),
	T(REP_SENT, RX_REJ_STALE, TIMEWAIT),
	T(REP_SENT, SEND_REJ, TIMEWAIT),
	T(REP_SENT, TIMEOUT, IDLE),
	T(REP_SENT, RX_DREQ, DREQ_RCVD),
	T(MRA_REP_RCVD, RX_RTU, ESTABLISHED),
	T(MRA_REP_RCVD, COMM_EST, ESTABLISHED),
	T(MRA_REP_RCVD, RX_REJ, IDLE),
	T(MRA_REP_RCVD, RX_REJ_STALE, TIMEWAIT),
	T(MRA_REP_RCVD, SEND_REJ, TIMEWAIT),
	T(MRA_REP_RCVD, TIMEOUT, IDLE),
	T(MRA_REP_RCVD, RX_DREQ, DREQ_RCVD),

	/* active side, has the REP */
	T(REP_RCVD, SEND_MRA, MRA_REP_SENT),
	T(REP_RCVD, SEND_RTU, ESTABLISHED),
	T(REP_RCVD, SEND_REJ, IDLE),
	T(REP_RCVD, RX_REJ, TIMEWAIT),
	T(REP_RCVD, RX_REJ_STALE, TIMEWAIT),
	T(MRA_REP_SENT, SEND_MRA, MRA_REP_SENT),
	T(MRA_REP_SENT, SEND_RTU, ESTABLISHED),
	T(MRA_REP_SENT, SEND_REJ, IDLE),
	T(MRA_REP_SENT, RX_REJ, TIMEWAIT),
	T(MRA_REP_SENT, RX_REJ_STALE, TIMEWAIT),

	/* connected, and leaving */
	T(ESTABLISHED, SEND_DREQ, DREQ_SENT),
	T(ESTABLISHED, RX_DREQ, DREQ_RCVD),
	T(ESTABLISHED, RX_REJ, TIMEWAIT),
	T(ESTABLISHED, RX_REJ_STALE, TIMEWAIT),
	T(DREQ_SENT, RX_DREP, TIMEWAIT),
	T(DREQ_SENT, RX_DREQ, DREQ_RCVD),
	T(DREQ_SENT, TIMEOUT, TIMEWAIT),
	T(DREQ_SENT, RX_REJ, TIMEWAIT),
	T(DREQ_SENT, RX_REJ_STALE, TIMEWAIT),
	T(DREQ_RCVD, SEND_DREP, TIMEWAIT),
	T(DREQ_RCVD, RX_DREP, TIMEWAIT),	/* our crossed DREQ's answer */
	T(TIMEWAIT, TIMEWAIT_DONE, IDLE),

	/* SIDR */
	T(SIDR_REQ_SENT, RX_SIDR_REP, IDLE),
	T(SIDR_REQ_SENT, TIMEOUT, IDLE),
	T(SIDR_REQ_RCVD, SEND_SIDR_REP, IDLE),
};

#undef T

/**
 * pdcm_fsm_next() - the state an event leads to
 * @state: current state
 * @ev: the event
 *
 * Context: any.
 * Return: the next state, or -EINVAL if @ev is not allowed in @state.
 */
int pdcm_fsm_next(enum pdcm_state state, enum pdcm_fsm_event ev)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pdcm_fsm_table); i++)
		if (pdcm_fsm_table[i].from == state && pdcm_fsm_table[i].ev == ev)
			return pdcm_fsm_table[i].to;
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_fsm_next);

/**
 * pdcm_fsm_step() - apply an event to a connection
 * @conn: the connection
 * @ev: the event
 *
 * Context: conn->lock held.
 * Return: the new state, or -EINVAL (state unchanged) if @ev is not
 * allowed in the current state.
 */
int pdcm_fsm_step(struct pdcm_conn *conn, enum pdcm_fsm_event ev)
	__must_hold(&conn->lock)
{
	enum pdcm_state old = conn->id.state;
	int next;

	lockdep_assert_held(&conn->lock);
	next = pdcm_fsm_next(old, ev);
	if (next < 0) {
		trace_pdcm_fsm_refused(conn, ev);
		return next;
	}
	conn->id.state = next;
	trace_pdcm_fsm_transition(conn, old, ev);
	return next;
}

static const char *const pdcm_fsm_event_names[PDCM_NUM_FSM_EVENTS] = {
	[PDCM_EV_LISTEN] = "listen",
	[PDCM_EV_SEND_REQ] = "send_req",
	[PDCM_EV_RX_REQ] = "rx_req",
	[PDCM_EV_SEND_MRA] = "send_mra",
	[PDCM_EV_RX_MRA] = "rx_mra",
	[PDCM_EV_SEND_REP] = "send_rep",
	[PDCM_EV_RX_REP] = "rx_rep",
	[PDCM_EV_SEND_RTU] = "send_rtu",
	[PDCM_EV_RX_RTU] = "rx_rtu",
	[PDCM_EV_COMM_EST] = "comm_est",
	[PDCM_EV_SEND_REJ] = "send_rej",
	[PDCM_EV_RX_REJ] = "rx_rej",
	[PDCM_EV_RX_REJ_STALE] = "rx_rej_stale",
	[PDCM_EV_TIMEOUT] = "timeout",
	[PDCM_EV_SEND_DREQ] = "send_dreq",
	[PDCM_EV_RX_DREQ] = "rx_dreq",
	[PDCM_EV_SEND_DREP] = "send_drep",
	[PDCM_EV_RX_DREP] = "rx_drep",
	[PDCM_EV_TIMEWAIT_DONE] = "timewait_done",
	[PDCM_EV_SEND_SIDR_REQ] = "send_sidr_req",
	[PDCM_EV_RX_SIDR_REQ] = "rx_sidr_req",
	[PDCM_EV_SEND_SIDR_REP] = "send_sidr_rep",
	[PDCM_EV_RX_SIDR_REP] = "rx_sidr_rep",
};

/**
 * pdcm_fsm_event_name() - printable name of an FSM event
 * @ev: the event
 *
 * Context: any.
 * Return: a static string.
 */
const char *pdcm_fsm_event_name(enum pdcm_fsm_event ev)
{
	return ev < PDCM_NUM_FSM_EVENTS ? pdcm_fsm_event_names[ev] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_fsm_event_name);

static const char *const pdcm_state_names[PDCM_NUM_STATES] = {
	[PDCM_IDLE] = "IDLE",
	[PDCM_LISTEN] = "LISTEN",
	[PDCM_REQ_SENT] = "REQ_SENT",
	[PDCM_REQ_RCVD] = "REQ_RCVD",
	[PDCM_MRA_REQ_SENT] = "MRA_REQ_SENT",
	[PDCM_MRA_REQ_RCVD] = "MRA_REQ_RCVD",
	[PDCM_REP_SENT] = "REP_SENT",
	[PDCM_REP_RCVD] = "REP_RCVD",
	[PDCM_MRA_REP_SENT] = "MRA_REP_SENT",
	[PDCM_MRA_REP_RCVD] = "MRA_REP_RCVD",
	[PDCM_ESTABLISHED] = "ESTABLISHED",
	[PDCM_DREQ_SENT] = "DREQ_SENT",
	[PDCM_DREQ_RCVD] = "DREQ_RCVD",
	[PDCM_TIMEWAIT] = "TIMEWAIT",
	[PDCM_SIDR_REQ_SENT] = "SIDR_REQ_SENT",
	[PDCM_SIDR_REQ_RCVD] = "SIDR_REQ_RCVD",
};

/**
 * pdcm_state_name() - printable name of a pdcm_id state
 * @state: the state
 *
 * Context: any.
 * Return: a static string.
 */
const char *pdcm_state_name(enum pdcm_state state)
{
	return state < PDCM_NUM_STATES ? pdcm_state_names[state] : "?";
}
EXPORT_SYMBOL_NS_GPL(pdcm_state_name, PDCM_NS(PDCM));

static const char *const pdcm_event_names[PDCM_NUM_EVENTS] = {
	[PDCM_REQ_ERROR] = "REQ_ERROR",
	[PDCM_REQ_RECEIVED] = "REQ_RECEIVED",
	[PDCM_REP_ERROR] = "REP_ERROR",
	[PDCM_REP_RECEIVED] = "REP_RECEIVED",
	[PDCM_RTU_RECEIVED] = "RTU_RECEIVED",
	[PDCM_USER_ESTABLISHED] = "USER_ESTABLISHED",
	[PDCM_DREQ_ERROR] = "DREQ_ERROR",
	[PDCM_DREQ_RECEIVED] = "DREQ_RECEIVED",
	[PDCM_DREP_RECEIVED] = "DREP_RECEIVED",
	[PDCM_TIMEWAIT_EXIT] = "TIMEWAIT_EXIT",
	[PDCM_MRA_RECEIVED] = "MRA_RECEIVED",
	[PDCM_REJ_RECEIVED] = "REJ_RECEIVED",
	[PDCM_SIDR_REQ_ERROR] = "SIDR_REQ_ERROR",
	[PDCM_SIDR_REQ_RECEIVED] = "SIDR_REQ_RECEIVED",
	[PDCM_SIDR_REP_RECEIVED] = "SIDR_REP_RECEIVED",
	[PDCM_SEND_ERROR] = "SEND_ERROR",
	[PDCM_LAP_RECEIVED] = "LAP_RECEIVED",
};

/**
 * pdcm_event_name() - printable name of an event type
 * @event: the event type
 *
 * Context: any.
 * Return: a static string.
 */
const char *pdcm_event_name(enum pdcm_event_type event)
{
	return event < PDCM_NUM_EVENTS ? pdcm_event_names[event] : "?";
}
EXPORT_SYMBOL_NS_GPL(pdcm_event_name, PDCM_NS(PDCM));

/**
 * pdcm_rej_reason_name() - printable name of a REJ reason
 * @reason: the reason code (IBA Vol. 1 Table 112)
 *
 * Context: any.
 * Return: a static string.
 */
const char *pdcm_rej_reason_name(u16 reason)
{
	switch (reason) {
	case PDCM_REJ_NO_QP: return "NO_QP";
	case PDCM_REJ_NO_RESOURCES: return "NO_RESOURCES";
	case PDCM_REJ_TIMEOUT: return "TIMEOUT";
	case PDCM_REJ_UNSUPPORTED: return "UNSUPPORTED";
	case PDCM_REJ_INVALID_COMM_ID: return "INVALID_COMM_ID";
	case PDCM_REJ_INVALID_COMM_INSTANCE: return "INVALID_COMM_INSTANCE";
	case PDCM_REJ_INVALID_SERVICE_ID: return "INVALID_SERVICE_ID";
	case PDCM_REJ_INVALID_TRANSPORT_TYPE: return "INVALID_TRANSPORT_TYPE";
	case PDCM_REJ_STALE_CONN: return "STALE_CONN";
	case PDCM_REJ_INVALID_GID: return "INVALID_GID";
	case PDCM_REJ_INVALID_ALT_GID: return "INVALID_ALT_GID";
	case PDCM_REJ_INVALID_MTU: return "INVALID_MTU";
	case PDCM_REJ_CONSUMER_DEFINED: return "CONSUMER_DEFINED";
	case PDCM_REJ_INVALID_CLASS_VERSION: return "INVALID_CLASS_VERSION";
	default: return "OTHER";
	}
}
EXPORT_SYMBOL_NS_GPL(pdcm_rej_reason_name, PDCM_NS(PDCM));
