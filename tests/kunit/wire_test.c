// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite "pdcm_wire": the CM wire codec (cm/wire.c).
 *
 * The oracle is the kernel's own description of the CM MADs:
 * <rdma/ibta_vol1_c12.h> read and written with IBA_GET, IBA_SET and
 * IBA_GET_MEM_PTR (<rdma/iba.h>), on the struct cm_*_msg types that header
 * declares with CM_STRUCT().  For every message a visitor below pairs each
 * of those field definitions with the pdcm struct member it must equal.
 * The suite takes no offsets or widths from pdcm: it learns each field's
 * width by letting its IBA_SET write all ones into an empty MAD.
 *
 * On top of that: randomized round trips (fixed seed), boundary values of
 * every field in both directions, hand-written golden MADs
 * (wire_vectors.h), every decode errno, encode's refusals, reserved bits,
 * and a decode fuzz loop.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_mad.h>
#include <rdma/ibta_vol1_c12.h>

#include "../../cm/compat.h"
#include "../../cm/wire.h"
#include "wire_vectors.h"

MODULE_IMPORT_NS(PDCM_NS(EXPORTED_FOR_KUNIT_TESTING));

#define WIRE_SEED	0x7064636d77697265ULL	/* "pdcmwire" */
#define RT_ITERATIONS	5000
#define FUZZ_ITERATIONS	5000
#define NR_ATTRS	(PDCM_ATTR_LAST - PDCM_ATTR_FIRST + 1)

/* ------------------------------------------------------------------ */
/* The oracle                                                          */

/*
 * struct or_field - one c12 field, as seen at the last visit
 * @name: the c12 field name, without the CM_ prefix
 * @wire: IBA_GET of the field in the visited MAD (integers)
 * @set: writes the field with IBA_SET (integers)
 * @moff: offset of the pdcm member in struct pdcm_msg
 * @msize: size of the pdcm member
 * @woff: byte strings: offset of the field in the MAD
 * @shift: the field holds member bits [shift + width - 1:shift]
 * @width: width in bits, learnt from @set
 * @low: a less significant piece of a split member
 * @mem: a byte string (IBA_GET_MEM_PTR), compared byte for byte
 */
struct or_field {
	const char *name;
	u64 wire;
	void (*set)(void *mad, u64 val);
	size_t moff;
	size_t msize;
	size_t woff;
	unsigned int shift;
	unsigned int width;
	bool low;
	bool mem;
};

#define OR_MAX_FIELDS	64

struct oracle {
	struct pdcm_msg *msg;
	u8 *wire;
	u16 attr;
	bool overflow;
	unsigned int n;
	struct or_field f[OR_MAX_FIELDS];
};

static struct or_field *or_next(struct oracle *c)
{
	if (c->n >= OR_MAX_FIELDS) {
		c->overflow = true;
		return NULL;
	}
	return &c->f[c->n++];
}

static void or_int(struct oracle *c, const char *name, u64 wire,
		   void (*set)(void *mad, u64 val), void *member, size_t msize,
		   unsigned int shift, bool low)
{
	struct or_field *f = or_next(c);

	if (!f)
		return;
	f->name = name;
	f->wire = wire;
	f->set = set;
	f->moff = (u8 *)member - (u8 *)c->msg;
	f->msize = msize;
	f->shift = shift;
	f->low = low;
	f->mem = false;
}

static void or_mem(struct oracle *c, const char *name, void *field,
		   void *member, size_t msize)
{
	struct or_field *f = or_next(c);

	if (!f)
		return;
	f->name = name;
	f->set = NULL;
	f->moff = (u8 *)member - (u8 *)c->msg;
	f->msize = msize;
	f->woff = (u8 *)field - c->wire;
	f->width = 8 * msize;
	f->mem = true;
}

/*
 * A c12 integer field: a setter made from IBA_SET, and a visitor entry.
 * F is the c12 name without its CM_ prefix: pasting the prefix back keeps
 * the name from being expanded before IBA_GET/IBA_SET see it.
 */
#define OR_SETTER(F)							\
static void set_##F(void *mad, u64 val)					\
{									\
	IBA_SET(CM_##F, mad, val);					\
}

#define OR_U(c, w, F, e)						\
	or_int(c, #F, IBA_GET(CM_##F, w), set_##F, &(e), sizeof(e), 0, false)
/* The top piece of a member split over fields, at bit @sh of the member */
#define OR_HI(c, w, F, e, sh)						\
	or_int(c, #F, IBA_GET(CM_##F, w), set_##F, &(e), sizeof(e), sh, false)
/* A lower piece */
#define OR_LO(c, w, F, e, sh)						\
	or_int(c, #F, IBA_GET(CM_##F, w), set_##F, &(e), sizeof(e), sh, true)
/* A byte string */
#define OR_MEM(c, w, F, e)						\
	or_mem(c, #F, IBA_GET_MEM_PTR(CM_##F, w), &(e), sizeof(e))

OR_SETTER(REQ_LOCAL_COMM_ID)
OR_SETTER(REQ_VENDOR_ID)
OR_SETTER(REQ_SERVICE_ID)
OR_SETTER(REQ_LOCAL_CA_GUID)
OR_SETTER(REQ_LOCAL_Q_KEY)
OR_SETTER(REQ_LOCAL_QPN)
OR_SETTER(REQ_RESPONDER_RESOURCES)
OR_SETTER(REQ_LOCAL_EECN)
OR_SETTER(REQ_INITIATOR_DEPTH)
OR_SETTER(REQ_REMOTE_EECN)
OR_SETTER(REQ_REMOTE_CM_RESPONSE_TIMEOUT)
OR_SETTER(REQ_TRANSPORT_SERVICE_TYPE)
OR_SETTER(REQ_END_TO_END_FLOW_CONTROL)
OR_SETTER(REQ_STARTING_PSN)
OR_SETTER(REQ_LOCAL_CM_RESPONSE_TIMEOUT)
OR_SETTER(REQ_RETRY_COUNT)
OR_SETTER(REQ_PARTITION_KEY)
OR_SETTER(REQ_PATH_PACKET_PAYLOAD_MTU)
OR_SETTER(REQ_RDC_EXISTS)
OR_SETTER(REQ_RNR_RETRY_COUNT)
OR_SETTER(REQ_MAX_CM_RETRIES)
OR_SETTER(REQ_SRQ)
OR_SETTER(REQ_EXTENDED_TRANSPORT_TYPE)
OR_SETTER(REQ_PRIMARY_LOCAL_PORT_LID)
OR_SETTER(REQ_PRIMARY_REMOTE_PORT_LID)
OR_SETTER(REQ_PRIMARY_FLOW_LABEL)
OR_SETTER(REQ_PRIMARY_PACKET_RATE)
OR_SETTER(REQ_PRIMARY_TRAFFIC_CLASS)
OR_SETTER(REQ_PRIMARY_HOP_LIMIT)
OR_SETTER(REQ_PRIMARY_SL)
OR_SETTER(REQ_PRIMARY_SUBNET_LOCAL)
OR_SETTER(REQ_PRIMARY_LOCAL_ACK_TIMEOUT)
OR_SETTER(REQ_ALTERNATE_LOCAL_PORT_LID)
OR_SETTER(REQ_ALTERNATE_REMOTE_PORT_LID)
OR_SETTER(REQ_ALTERNATE_FLOW_LABEL)
OR_SETTER(REQ_ALTERNATE_PACKET_RATE)
OR_SETTER(REQ_ALTERNATE_TRAFFIC_CLASS)
OR_SETTER(REQ_ALTERNATE_HOP_LIMIT)
OR_SETTER(REQ_ALTERNATE_SL)
OR_SETTER(REQ_ALTERNATE_SUBNET_LOCAL)
OR_SETTER(REQ_ALTERNATE_LOCAL_ACK_TIMEOUT)
OR_SETTER(REQ_SAP_SUPPORTED)

static void visit_req(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_req *r = &m->req;
	struct pdcm_path *p = &r->primary_path;
	struct pdcm_path *a = &r->alternate_path;

	OR_U(c, w, REQ_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, REQ_VENDOR_ID, r->vendor_id);
	OR_U(c, w, REQ_SERVICE_ID, r->service_id);
	OR_U(c, w, REQ_LOCAL_CA_GUID, r->local_ca_guid);
	OR_U(c, w, REQ_LOCAL_Q_KEY, r->local_qkey);
	OR_U(c, w, REQ_LOCAL_QPN, r->local_qpn);
	OR_U(c, w, REQ_RESPONDER_RESOURCES, r->responder_resources);
	OR_U(c, w, REQ_LOCAL_EECN, r->local_eecn);
	OR_U(c, w, REQ_INITIATOR_DEPTH, r->initiator_depth);
	OR_U(c, w, REQ_REMOTE_EECN, r->remote_eecn);
	OR_U(c, w, REQ_REMOTE_CM_RESPONSE_TIMEOUT,
	     r->remote_cm_response_timeout);
	OR_U(c, w, REQ_TRANSPORT_SERVICE_TYPE, r->transport_type);
	OR_U(c, w, REQ_END_TO_END_FLOW_CONTROL, r->end_to_end_flow_control);
	OR_U(c, w, REQ_STARTING_PSN, r->starting_psn);
	OR_U(c, w, REQ_LOCAL_CM_RESPONSE_TIMEOUT,
	     r->local_cm_response_timeout);
	OR_U(c, w, REQ_RETRY_COUNT, r->retry_count);
	OR_U(c, w, REQ_PARTITION_KEY, r->pkey);
	OR_U(c, w, REQ_PATH_PACKET_PAYLOAD_MTU, r->path_mtu);
	OR_U(c, w, REQ_RDC_EXISTS, r->rdc_exists);
	OR_U(c, w, REQ_RNR_RETRY_COUNT, r->rnr_retry_count);
	OR_U(c, w, REQ_MAX_CM_RETRIES, r->max_cm_retries);
	OR_U(c, w, REQ_SRQ, r->srq);
	OR_U(c, w, REQ_EXTENDED_TRANSPORT_TYPE, r->ext_transport_type);
	OR_U(c, w, REQ_PRIMARY_LOCAL_PORT_LID, p->local_lid);
	OR_U(c, w, REQ_PRIMARY_REMOTE_PORT_LID, p->remote_lid);
	OR_MEM(c, w, REQ_PRIMARY_LOCAL_PORT_GID, p->local_gid);
	OR_MEM(c, w, REQ_PRIMARY_REMOTE_PORT_GID, p->remote_gid);
	OR_U(c, w, REQ_PRIMARY_FLOW_LABEL, p->flow_label);
	OR_U(c, w, REQ_PRIMARY_PACKET_RATE, p->packet_rate);
	OR_U(c, w, REQ_PRIMARY_TRAFFIC_CLASS, p->traffic_class);
	OR_U(c, w, REQ_PRIMARY_HOP_LIMIT, p->hop_limit);
	OR_U(c, w, REQ_PRIMARY_SL, p->sl);
	OR_U(c, w, REQ_PRIMARY_SUBNET_LOCAL, p->subnet_local);
	OR_U(c, w, REQ_PRIMARY_LOCAL_ACK_TIMEOUT, p->local_ack_timeout);
	OR_U(c, w, REQ_ALTERNATE_LOCAL_PORT_LID, a->local_lid);
	OR_U(c, w, REQ_ALTERNATE_REMOTE_PORT_LID, a->remote_lid);
	OR_MEM(c, w, REQ_ALTERNATE_LOCAL_PORT_GID, a->local_gid);
	OR_MEM(c, w, REQ_ALTERNATE_REMOTE_PORT_GID, a->remote_gid);
	OR_U(c, w, REQ_ALTERNATE_FLOW_LABEL, a->flow_label);
	OR_U(c, w, REQ_ALTERNATE_PACKET_RATE, a->packet_rate);
	OR_U(c, w, REQ_ALTERNATE_TRAFFIC_CLASS, a->traffic_class);
	OR_U(c, w, REQ_ALTERNATE_HOP_LIMIT, a->hop_limit);
	OR_U(c, w, REQ_ALTERNATE_SL, a->sl);
	OR_U(c, w, REQ_ALTERNATE_SUBNET_LOCAL, a->subnet_local);
	OR_U(c, w, REQ_ALTERNATE_LOCAL_ACK_TIMEOUT, a->local_ack_timeout);
	OR_U(c, w, REQ_SAP_SUPPORTED, r->sap_supported);
	OR_MEM(c, w, REQ_PRIVATE_DATA, r->private_data);
}

OR_SETTER(MRA_LOCAL_COMM_ID)
OR_SETTER(MRA_REMOTE_COMM_ID)
OR_SETTER(MRA_MESSAGE_MRAED)
OR_SETTER(MRA_SERVICE_TIMEOUT)

static void visit_mra(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_mra *r = &m->mra;

	OR_U(c, w, MRA_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, MRA_REMOTE_COMM_ID, r->remote_comm_id);
	OR_U(c, w, MRA_MESSAGE_MRAED, r->msg_mraed);
	OR_U(c, w, MRA_SERVICE_TIMEOUT, r->service_timeout);
	OR_MEM(c, w, MRA_PRIVATE_DATA, r->private_data);
}

OR_SETTER(REJ_LOCAL_COMM_ID)
OR_SETTER(REJ_REMOTE_COMM_ID)
OR_SETTER(REJ_MESSAGE_REJECTED)
OR_SETTER(REJ_REJECTED_INFO_LENGTH)
OR_SETTER(REJ_REASON)

static void visit_rej(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_rej *r = &m->rej;

	OR_U(c, w, REJ_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, REJ_REMOTE_COMM_ID, r->remote_comm_id);
	OR_U(c, w, REJ_MESSAGE_REJECTED, r->msg_rejected);
	OR_U(c, w, REJ_REJECTED_INFO_LENGTH, r->ari_len);
	OR_U(c, w, REJ_REASON, r->reason);
	OR_MEM(c, w, REJ_ARI, r->ari);
	OR_MEM(c, w, REJ_PRIVATE_DATA, r->private_data);
}

OR_SETTER(REP_LOCAL_COMM_ID)
OR_SETTER(REP_REMOTE_COMM_ID)
OR_SETTER(REP_LOCAL_Q_KEY)
OR_SETTER(REP_LOCAL_QPN)
OR_SETTER(REP_VENDOR_ID_H)
OR_SETTER(REP_LOCAL_EE_CONTEXT_NUMBER)
OR_SETTER(REP_VENDOR_ID_M)
OR_SETTER(REP_STARTING_PSN)
OR_SETTER(REP_VENDOR_ID_L)
OR_SETTER(REP_RESPONDER_RESOURCES)
OR_SETTER(REP_INITIATOR_DEPTH)
OR_SETTER(REP_TARGET_ACK_DELAY)
OR_SETTER(REP_FAILOVER_ACCEPTED)
OR_SETTER(REP_END_TO_END_FLOW_CONTROL)
OR_SETTER(REP_RNR_RETRY_COUNT)
OR_SETTER(REP_SRQ)
OR_SETTER(REP_LOCAL_CA_GUID)

static void visit_rep(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_rep *r = &m->rep;

	OR_U(c, w, REP_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, REP_REMOTE_COMM_ID, r->remote_comm_id);
	OR_U(c, w, REP_LOCAL_Q_KEY, r->local_qkey);
	OR_U(c, w, REP_LOCAL_QPN, r->local_qpn);
	OR_HI(c, w, REP_VENDOR_ID_H, r->vendor_id, 16);
	OR_U(c, w, REP_LOCAL_EE_CONTEXT_NUMBER, r->local_eecn);
	OR_LO(c, w, REP_VENDOR_ID_M, r->vendor_id, 8);
	OR_U(c, w, REP_STARTING_PSN, r->starting_psn);
	OR_LO(c, w, REP_VENDOR_ID_L, r->vendor_id, 0);
	OR_U(c, w, REP_RESPONDER_RESOURCES, r->responder_resources);
	OR_U(c, w, REP_INITIATOR_DEPTH, r->initiator_depth);
	OR_U(c, w, REP_TARGET_ACK_DELAY, r->target_ack_delay);
	OR_U(c, w, REP_FAILOVER_ACCEPTED, r->failover_accepted);
	OR_U(c, w, REP_END_TO_END_FLOW_CONTROL, r->end_to_end_flow_control);
	OR_U(c, w, REP_RNR_RETRY_COUNT, r->rnr_retry_count);
	OR_U(c, w, REP_SRQ, r->srq);
	OR_U(c, w, REP_LOCAL_CA_GUID, r->local_ca_guid);
	OR_MEM(c, w, REP_PRIVATE_DATA, r->private_data);
}

OR_SETTER(RTU_LOCAL_COMM_ID)
OR_SETTER(RTU_REMOTE_COMM_ID)

static void visit_rtu(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_rtu *r = &m->rtu;

	OR_U(c, w, RTU_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, RTU_REMOTE_COMM_ID, r->remote_comm_id);
	OR_MEM(c, w, RTU_PRIVATE_DATA, r->private_data);
}

OR_SETTER(DREQ_LOCAL_COMM_ID)
OR_SETTER(DREQ_REMOTE_COMM_ID)
OR_SETTER(DREQ_REMOTE_QPN_EECN)

static void visit_dreq(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_dreq *r = &m->dreq;

	OR_U(c, w, DREQ_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, DREQ_REMOTE_COMM_ID, r->remote_comm_id);
	OR_U(c, w, DREQ_REMOTE_QPN_EECN, r->remote_qpn_eecn);
	OR_MEM(c, w, DREQ_PRIVATE_DATA, r->private_data);
}

OR_SETTER(DREP_LOCAL_COMM_ID)
OR_SETTER(DREP_REMOTE_COMM_ID)

static void visit_drep(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_drep *r = &m->drep;

	OR_U(c, w, DREP_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, DREP_REMOTE_COMM_ID, r->remote_comm_id);
	OR_MEM(c, w, DREP_PRIVATE_DATA, r->private_data);
}

OR_SETTER(SIDR_REQ_REQUESTID)
OR_SETTER(SIDR_REQ_PARTITION_KEY)
OR_SETTER(SIDR_REQ_SERVICEID)

static void visit_sidr_req(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_sidr_req *r = &m->sidr_req;

	OR_U(c, w, SIDR_REQ_REQUESTID, r->request_id);
	OR_U(c, w, SIDR_REQ_PARTITION_KEY, r->pkey);
	OR_U(c, w, SIDR_REQ_SERVICEID, r->service_id);
	OR_MEM(c, w, SIDR_REQ_PRIVATE_DATA, r->private_data);
}

OR_SETTER(SIDR_REP_REQUESTID)
OR_SETTER(SIDR_REP_STATUS)
OR_SETTER(SIDR_REP_ADDITIONAL_INFORMATION_LENGTH)
OR_SETTER(SIDR_REP_VENDOR_ID_H)
OR_SETTER(SIDR_REP_QPN)
OR_SETTER(SIDR_REP_VENDOR_ID_L)
OR_SETTER(SIDR_REP_SERVICEID)
OR_SETTER(SIDR_REP_Q_KEY)

static void visit_sidr_rep(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_sidr_rep *r = &m->sidr_rep;

	OR_U(c, w, SIDR_REP_REQUESTID, r->request_id);
	OR_U(c, w, SIDR_REP_STATUS, r->status);
	OR_U(c, w, SIDR_REP_ADDITIONAL_INFORMATION_LENGTH, r->info_len);
	OR_HI(c, w, SIDR_REP_VENDOR_ID_H, r->vendor_id, 8);
	OR_U(c, w, SIDR_REP_QPN, r->qpn);
	OR_LO(c, w, SIDR_REP_VENDOR_ID_L, r->vendor_id, 0);
	OR_U(c, w, SIDR_REP_SERVICEID, r->service_id);
	OR_U(c, w, SIDR_REP_Q_KEY, r->qkey);
	OR_MEM(c, w, SIDR_REP_ADDITIONAL_INFORMATION, r->info);
	OR_MEM(c, w, SIDR_REP_PRIVATE_DATA, r->private_data);
}

OR_SETTER(LAP_LOCAL_COMM_ID)
OR_SETTER(LAP_REMOTE_COMM_ID)
OR_SETTER(LAP_REMOTE_QPN_EECN)
OR_SETTER(LAP_REMOTE_CM_RESPONSE_TIMEOUT)
OR_SETTER(LAP_ALTERNATE_LOCAL_PORT_LID)
OR_SETTER(LAP_ALTERNATE_REMOTE_PORT_LID)
OR_SETTER(LAP_ALTERNATE_FLOW_LABEL)
OR_SETTER(LAP_ALTERNATE_TRAFFIC_CLASS)
OR_SETTER(LAP_ALTERNATE_HOP_LIMIT)
OR_SETTER(LAP_ALTERNATE_PACKET_RATE)
OR_SETTER(LAP_ALTERNATE_SL)
OR_SETTER(LAP_ALTERNATE_SUBNET_LOCAL)
OR_SETTER(LAP_ALTERNATE_LOCAL_ACK_TIMEOUT)

static void visit_lap(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_lap *r = &m->lap;
	struct pdcm_path *a = &r->alternate_path;

	OR_U(c, w, LAP_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, LAP_REMOTE_COMM_ID, r->remote_comm_id);
	OR_U(c, w, LAP_REMOTE_QPN_EECN, r->remote_qpn_eecn);
	OR_U(c, w, LAP_REMOTE_CM_RESPONSE_TIMEOUT,
	     r->remote_cm_response_timeout);
	OR_U(c, w, LAP_ALTERNATE_LOCAL_PORT_LID, a->local_lid);
	OR_U(c, w, LAP_ALTERNATE_REMOTE_PORT_LID, a->remote_lid);
	OR_MEM(c, w, LAP_ALTERNATE_LOCAL_PORT_GID, a->local_gid);
	OR_MEM(c, w, LAP_ALTERNATE_REMOTE_PORT_GID, a->remote_gid);
	OR_U(c, w, LAP_ALTERNATE_FLOW_LABEL, a->flow_label);
	OR_U(c, w, LAP_ALTERNATE_TRAFFIC_CLASS, a->traffic_class);
	OR_U(c, w, LAP_ALTERNATE_HOP_LIMIT, a->hop_limit);
	OR_U(c, w, LAP_ALTERNATE_PACKET_RATE, a->packet_rate);
	OR_U(c, w, LAP_ALTERNATE_SL, a->sl);
	OR_U(c, w, LAP_ALTERNATE_SUBNET_LOCAL, a->subnet_local);
	OR_U(c, w, LAP_ALTERNATE_LOCAL_ACK_TIMEOUT, a->local_ack_timeout);
	OR_MEM(c, w, LAP_PRIVATE_DATA, r->private_data);
}

OR_SETTER(APR_LOCAL_COMM_ID)
OR_SETTER(APR_REMOTE_COMM_ID)
OR_SETTER(APR_ADDITIONAL_INFORMATION_LENGTH)
OR_SETTER(APR_AR_STATUS)

static void visit_apr(struct oracle *c, void *w, struct pdcm_msg *m)
{
	struct pdcm_apr *r = &m->apr;

	OR_U(c, w, APR_LOCAL_COMM_ID, r->local_comm_id);
	OR_U(c, w, APR_REMOTE_COMM_ID, r->remote_comm_id);
	OR_U(c, w, APR_ADDITIONAL_INFORMATION_LENGTH, r->info_len);
	OR_U(c, w, APR_AR_STATUS, r->ap_status);
	OR_MEM(c, w, APR_ADDITIONAL_INFORMATION, r->info);
	OR_MEM(c, w, APR_PRIVATE_DATA, r->private_data);
}

typedef void (*or_visit_fn)(struct oracle *c, void *w, struct pdcm_msg *m);

static const or_visit_fn or_visitors[NR_ATTRS] = {
	[PDCM_ATTR_REQ - PDCM_ATTR_FIRST] = visit_req,
	[PDCM_ATTR_MRA - PDCM_ATTR_FIRST] = visit_mra,
	[PDCM_ATTR_REJ - PDCM_ATTR_FIRST] = visit_rej,
	[PDCM_ATTR_REP - PDCM_ATTR_FIRST] = visit_rep,
	[PDCM_ATTR_RTU - PDCM_ATTR_FIRST] = visit_rtu,
	[PDCM_ATTR_DREQ - PDCM_ATTR_FIRST] = visit_dreq,
	[PDCM_ATTR_DREP - PDCM_ATTR_FIRST] = visit_drep,
	[PDCM_ATTR_SIDR_REQ - PDCM_ATTR_FIRST] = visit_sidr_req,
	[PDCM_ATTR_SIDR_REP - PDCM_ATTR_FIRST] = visit_sidr_rep,
	[PDCM_ATTR_LAP - PDCM_ATTR_FIRST] = visit_lap,
	[PDCM_ATTR_APR - PDCM_ATTR_FIRST] = visit_apr,
};

/* Width of a c12 integer field: the bits its IBA_SET of all ones sets */
static unsigned int or_setter_width(void (*set)(void *mad, u64 val))
{
	u8 buf[PDCM_MAD_SIZE] = {};
	unsigned int i, width = 0;

	set(buf, ~0ULL);
	for (i = 0; i < sizeof(buf); i++)
		width += hweight8(buf[i]);
	return width;
}

/* Read every c12 field of message @attr in @wire, paired with @msg */
static void or_visit(struct oracle *c, u16 attr, u8 *wire,
		     struct pdcm_msg *msg)
{
	bool fresh = c->attr != attr;
	unsigned int i;

	c->attr = attr;
	c->msg = msg;
	c->wire = wire;
	c->n = 0;
	or_visitors[attr - PDCM_ATTR_FIRST](c, wire, msg);
	for (i = 0; fresh && i < c->n; i++)
		if (!c->f[i].mem)
			c->f[i].width = or_setter_width(c->f[i].set);
}

/* ------------------------------------------------------------------ */
/* Messages as plain memory                                            */

static u64 mload(const void *p, size_t size)
{
	switch (size) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return *(const u16 *)p;
	case 4:
		return *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

static void mstore(void *p, size_t size, u64 val)
{
	switch (size) {
	case 1:
		*(u8 *)p = val;
		break;
	case 2:
		*(u16 *)p = val;
		break;
	case 4:
		*(u32 *)p = val;
		break;
	default:
		*(u64 *)p = val;
		break;
	}
}

static u64 width_max(unsigned int width)
{
	return width >= 64 ? ~0ULL : BIT_ULL(width) - 1;
}

/* The value of field @f in @m, as the wire holds it */
static u64 msg_field_get(const struct pdcm_msg *m, const struct or_field *f)
{
	return (mload((const u8 *)m + f->moff, f->msize) >> f->shift) &
	       width_max(f->width);
}

static void msg_field_set(struct pdcm_msg *m, const struct or_field *f, u64 val)
{
	void *p = (u8 *)m + f->moff;
	u64 mask = width_max(f->width) << f->shift;

	mstore(p, f->msize,
	       (mload(p, f->msize) & ~mask) | ((val << f->shift) & mask));
}

/* The name of the field or member at byte @off of a struct pdcm_msg */
static const char *or_name_at(const struct oracle *c, size_t off)
{
	unsigned int i;

	if (off < sizeof(struct pdcm_mad_hdr))
		return "hdr";
	for (i = 0; i < c->n; i++)
		if (off >= c->f[i].moff && off < c->f[i].moff + c->f[i].msize)
			return c->f[i].name;
	return "a length or padding";
}

/* Compare each c12 field of the last visit with its pdcm member */
static bool or_check(struct kunit *test, const struct oracle *c)
{
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, c->overflow);
	for (i = 0; i < c->n; i++) {
		const struct or_field *f = &c->f[i];
		const u8 *mem = (const u8 *)c->msg + f->moff;

		if (f->mem) {
			if (memcmp(c->wire + f->woff, mem, f->msize)) {
				KUNIT_FAIL(test, "%s: MAD bytes %*ph differ from pdcm's %*ph",
					   f->name, (int)min_t(size_t, f->msize, 16),
					   c->wire + f->woff,
					   (int)min_t(size_t, f->msize, 16), mem);
				return false;
			}
		} else if (f->wire != msg_field_get(c->msg, f)) {
			KUNIT_FAIL(test, "%s: IBA_GET 0x%llx, pdcm member 0x%llx",
				   f->name, f->wire, msg_field_get(c->msg, f));
			return false;
		}
	}
	return true;
}

static bool msg_equal(struct kunit *test, const struct oracle *c,
		      const struct pdcm_msg *got, const struct pdcm_msg *want,
		      const char *what)
{
	const u8 *g = (const u8 *)got, *w = (const u8 *)want;
	size_t i;

	for (i = 0; i < sizeof(*got) && g[i] == w[i]; i++)
		;
	if (i == sizeof(*got))
		return true;
	KUNIT_FAIL(test, "%s: struct differs at byte %zu (%s): got %02x want %02x",
		   what, i, or_name_at(c, i), g[i], w[i]);
	return false;
}

static bool bytes_equal(struct kunit *test, const u8 *got, const u8 *want,
			size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n && got[i] == want[i]; i++)
		;
	if (i == n)
		return true;
	KUNIT_FAIL(test, "%s: MAD byte %zu is %02x, want %02x", what, i,
		   got[i], want[i]);
	return false;
}

/*
 * The byte areas, with sizes from the spec (not from pdcm): private data,
 * and the areas counted by a length field on the wire.
 */
static u8 *pdata_of(struct pdcm_msg *m, u8 **len, unsigned int *size)
{
	switch (m->hdr.attr_id) {
	case PDCM_ATTR_REQ:
		*len = &m->req.private_data_len;
		*size = 92;
		return m->req.private_data;
	case PDCM_ATTR_MRA:
		*len = &m->mra.private_data_len;
		*size = 222;
		return m->mra.private_data;
	case PDCM_ATTR_REJ:
		*len = &m->rej.private_data_len;
		*size = 148;
		return m->rej.private_data;
	case PDCM_ATTR_REP:
		*len = &m->rep.private_data_len;
		*size = 196;
		return m->rep.private_data;
	case PDCM_ATTR_RTU:
		*len = &m->rtu.private_data_len;
		*size = 224;
		return m->rtu.private_data;
	case PDCM_ATTR_DREQ:
		*len = &m->dreq.private_data_len;
		*size = 220;
		return m->dreq.private_data;
	case PDCM_ATTR_DREP:
		*len = &m->drep.private_data_len;
		*size = 224;
		return m->drep.private_data;
	case PDCM_ATTR_SIDR_REQ:
		*len = &m->sidr_req.private_data_len;
		*size = 216;
		return m->sidr_req.private_data;
	case PDCM_ATTR_SIDR_REP:
		*len = &m->sidr_rep.private_data_len;
		*size = 136;
		return m->sidr_rep.private_data;
	case PDCM_ATTR_LAP:
		*len = &m->lap.private_data_len;
		*size = 168;
		return m->lap.private_data;
	default:
		*len = &m->apr.private_data_len;
		*size = 148;
		return m->apr.private_data;
	}
}

static u8 *var_of(struct pdcm_msg *m, u8 **len, unsigned int *size)
{
	*size = 72;
	switch (m->hdr.attr_id) {
	case PDCM_ATTR_REJ:
		*len = &m->rej.ari_len;
		return m->rej.ari;
	case PDCM_ATTR_SIDR_REP:
		*len = &m->sidr_rep.info_len;
		return m->sidr_rep.info;
	case PDCM_ATTR_APR:
		*len = &m->apr.info_len;
		return m->apr.info;
	default:
		return NULL;
	}
}

/* What decode gives back for a message encode accepted */
static void normalize(struct pdcm_msg *m)
{
	unsigned int size;
	u8 *p, *len;

	p = pdata_of(m, &len, &size);
	if (*len < size)
		memset(p + *len, 0, size - *len);
	*len = size;
	p = var_of(m, &len, &size);
	if (p && *len < size)
		memset(p + *len, 0, size - *len);
}

/* The errno decode must give for @m (the spec's reserved values) */
static int expect_decode_err(const struct pdcm_msg *m)
{
	switch (m->hdr.attr_id) {
	case PDCM_ATTR_REQ:
		if (m->req.transport_type == 2 ||
		    (m->req.transport_type == 3 &&
		     m->req.ext_transport_type != 1))
			return -EPROTOTYPE;
		if (m->req.path_mtu < 1 || m->req.path_mtu > 5)
			return -EBADMSG;
		return 0;
	case PDCM_ATTR_MRA:
		return m->mra.msg_mraed == 3 ? -EBADMSG : 0;
	case PDCM_ATTR_REJ:
		if (m->rej.ari_len > 72)
			return -EOVERFLOW;
		return m->rej.msg_rejected == 3 ? -EBADMSG : 0;
	case PDCM_ATTR_REP:
		return m->rep.failover_accepted == 3 ? -EBADMSG : 0;
	case PDCM_ATTR_SIDR_REP:
		if (m->sidr_rep.info_len > 72)
			return -EOVERFLOW;
		return m->sidr_rep.status > 5 ? -EBADMSG : 0;
	case PDCM_ATTR_APR:
		if (m->apr.info_len > 72)
			return -EOVERFLOW;
		return m->apr.ap_status > 13 ? -EBADMSG : 0;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* Random valid messages                                               */

struct wire_ctx {
	struct rnd_state rs;
	struct oracle *c;
	struct pdcm_msg *m, *m2, *out;
	u8 *wire, *wire2;
};

static struct wire_ctx *wire_ctx(struct kunit *test, u64 seed)
{
	struct wire_ctx *x = kunit_kzalloc(test, sizeof(*x), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, x);
	prandom_seed_state(&x->rs, WIRE_SEED ^ seed);
	x->c = kunit_kzalloc(test, sizeof(*x->c), GFP_KERNEL);
	x->m = kunit_kzalloc(test, sizeof(*x->m), GFP_KERNEL);
	x->m2 = kunit_kzalloc(test, sizeof(*x->m2), GFP_KERNEL);
	x->out = kunit_kzalloc(test, sizeof(*x->out), GFP_KERNEL);
	/* exactly one MAD, so that KASAN sees any access past it */
	x->wire = kunit_kzalloc(test, PDCM_MAD_SIZE, GFP_KERNEL);
	x->wire2 = kunit_kzalloc(test, PDCM_MAD_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, x->c);
	KUNIT_ASSERT_NOT_NULL(test, x->m);
	KUNIT_ASSERT_NOT_NULL(test, x->m2);
	KUNIT_ASSERT_NOT_NULL(test, x->out);
	KUNIT_ASSERT_NOT_NULL(test, x->wire);
	KUNIT_ASSERT_NOT_NULL(test, x->wire2);
	return x;
}

static u32 rnd32(struct wire_ctx *x)
{
	return prandom_u32_state(&x->rs);
}

static u64 rnd64(struct wire_ctx *x)
{
	return (u64)rnd32(x) << 32 | rnd32(x);
}

/* Bring a random message's enumerations and lengths into range */
static void make_valid(struct wire_ctx *x, struct pdcm_msg *m)
{
	static const u8 transports[] = { 0, 1, 3 };
	unsigned int size;
	u8 *p, *len;

	switch (m->hdr.attr_id) {
	case PDCM_ATTR_REQ:
		m->req.transport_type = transports[rnd32(x) % 3];
		if (m->req.transport_type == 3)
			m->req.ext_transport_type = 1;
		m->req.path_mtu = 1 + rnd32(x) % 5;
		break;
	case PDCM_ATTR_MRA:
		m->mra.msg_mraed = rnd32(x) % 3;
		break;
	case PDCM_ATTR_REJ:
		m->rej.msg_rejected = rnd32(x) % 3;
		break;
	case PDCM_ATTR_REP:
		m->rep.failover_accepted = rnd32(x) % 3;
		break;
	case PDCM_ATTR_SIDR_REP:
		m->sidr_rep.status = rnd32(x) % 6;
		break;
	case PDCM_ATTR_APR:
		m->apr.ap_status = rnd32(x) % 14;
		break;
	}
	p = var_of(m, &len, &size);
	if (p) {
		*len = rnd32(x) % (size + 1);
		memset(p + *len, 0, size - *len);
	}
	p = pdata_of(m, &len, &size);
	*len = rnd32(x) % (size + 1);
	memset(p + *len, 0, size - *len);
}

/* A random message that encode must accept, every c12 field random */
static void gen_msg(struct wire_ctx *x, u16 attr, struct pdcm_msg *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, attr, rnd64(x));
	m->hdr.status = rnd32(x);
	m->hdr.class_specific = rnd32(x);
	m->hdr.attr_mod = rnd32(x);
	or_visit(x->c, attr, x->wire, m);
	for (i = 0; i < x->c->n; i++) {
		const struct or_field *f = &x->c->f[i];

		if (f->mem)
			prandom_bytes_state(&x->rs, (u8 *)m + f->moff, f->msize);
		else
			msg_field_set(m, f, rnd64(x));
	}
	make_valid(x, m);
}

/* gen_msg() and encode it into x->wire */
static void gen_wire(struct kunit *test, struct wire_ctx *x, u16 attr,
		     struct pdcm_msg *m)
{
	gen_msg(x, attr, m);
	KUNIT_ASSERT_EQ(test, pdcm_wire_encode(m, x->wire), 0);
}

/* ------------------------------------------------------------------ */
/* Bit helpers and small API                                           */

static void wire_test_bits(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 1);
	u8 buf[24], ref[24];
	unsigned int pos, width, i, it;

	for (it = 0; it < 4; it++) {
		for (pos = 0; pos < 24; pos++) {
			for (width = 1; width <= 64; width++) {
				u64 val = rnd64(x), got;

				if (pos % 8 + width > 64)
					continue;
				prandom_bytes_state(&x->rs, buf, sizeof(buf));
				memcpy(ref, buf, sizeof(ref));
				/* bit by bit, most significant first */
				for (i = 0; i < width; i++) {
					unsigned int b = pos + i;
					bool on = val >> (width - 1 - i) & 1;

					ref[b / 8] &= ~(0x80 >> b % 8);
					ref[b / 8] |= on ? 0x80 >> b % 8 : 0;
				}
				pdcm_wire_set_bits(buf, pos, width, val);
				KUNIT_ASSERT_EQ_MSG(test, memcmp(buf, ref, sizeof(buf)), 0,
						    "set pos %u width %u", pos, width);
				got = pdcm_wire_get_bits(buf, pos, width);
				KUNIT_ASSERT_EQ_MSG(test, got, val & width_max(width),
						    "get pos %u width %u", pos, width);
			}
		}
	}
}

static void wire_test_attr_names(struct kunit *test)
{
	static const char * const names[NR_ATTRS] = {
		"REQ", "MRA", "REJ", "REP", "RTU", "DREQ", "DREP",
		"SIDR_REQ", "SIDR_REP", "LAP", "APR",
	};
	unsigned int i;

	for (i = 0; i < NR_ATTRS; i++)
		KUNIT_EXPECT_STREQ(test, pdcm_wire_attr_name(0x10 + i), names[i]);
	KUNIT_EXPECT_STREQ(test, pdcm_wire_attr_name(0x0000), "UNKNOWN");
	KUNIT_EXPECT_STREQ(test, pdcm_wire_attr_name(0x0001), "UNKNOWN");
	KUNIT_EXPECT_STREQ(test, pdcm_wire_attr_name(0x000f), "UNKNOWN");
	KUNIT_EXPECT_STREQ(test, pdcm_wire_attr_name(0x001b), "UNKNOWN");
	KUNIT_EXPECT_STREQ(test, pdcm_wire_attr_name(0xffff), "UNKNOWN");
}

/* Private data sizes against <rdma/ib_cm.h> and the c12 bit widths */
static void wire_test_pdata_sizes(struct kunit *test)
{
	static const struct {
		u16 attr;
		unsigned int size;
	} t[] = {
		{ PDCM_ATTR_REQ, IB_CM_REQ_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_MRA, IB_CM_MRA_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_REJ, IB_CM_REJ_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_REP, IB_CM_REP_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_RTU, IB_CM_RTU_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_DREQ, IB_CM_DREQ_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_DREP, IB_CM_DREP_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_SIDR_REQ, IB_CM_SIDR_REQ_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_SIDR_REP, IB_CM_SIDR_REP_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_LAP, IB_CM_LAP_PRIVATE_DATA_SIZE },
		{ PDCM_ATTR_APR, IB_CM_APR_PRIVATE_DATA_SIZE },
	};
	struct wire_ctx *x = wire_ctx(test, 2);
	unsigned int i, size;
	void *mad;
	u8 *len;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		x->m->hdr.attr_id = t[i].attr;
		pdata_of(x->m, &len, &size);
		KUNIT_EXPECT_EQ(test, size, t[i].size);
		KUNIT_EXPECT_EQ(test, pdcm_wire_pdata_size(t[i].attr), t[i].size);
	}
	KUNIT_EXPECT_EQ(test, pdcm_wire_pdata_size(0x000f), 0U);
	KUNIT_EXPECT_EQ(test, pdcm_wire_pdata_size(0x001b), 0U);
	KUNIT_EXPECT_EQ(test, sizeof(x->m->rej.ari), (size_t)IB_CM_REJ_ARI_LENGTH);
	KUNIT_EXPECT_EQ(test, sizeof(x->m->apr.info), (size_t)IB_CM_APR_INFO_LENGTH);
	KUNIT_EXPECT_EQ(test, sizeof(x->m->sidr_rep.info),
			(size_t)IB_CM_SIDR_REP_INFO_LENGTH);
	/* every message is exactly one MAD, private data last */
	KUNIT_EXPECT_EQ(test, sizeof(struct cm_req_msg), (size_t)PDCM_MAD_SIZE);
	mad = x->wire;
	KUNIT_EXPECT_PTR_EQ(test, (u8 *)IBA_GET_MEM_PTR(CM_REQ_PRIVATE_DATA, mad) +
			    IB_CM_REQ_PRIVATE_DATA_SIZE, x->wire + PDCM_MAD_SIZE);
}

static void wire_test_timeout_ms(struct kunit *test)
{
	unsigned int t;

	for (t = 0; t <= 8; t++)
		KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(t), 1U);
	KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(9), 2U);
	KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(18), 1024U);
	KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(20), 4096U);	/* ~4.3 s */
	KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(24), 65536U);	/* ~68.7 s */
	KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(31), 1U << 23);
	KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(32), 1U << 23);
	KUNIT_EXPECT_EQ(test, pdcm_timeout_ms(~0U), 1U << 23);
}

static void wire_test_init_hdr(struct kunit *test)
{
	struct pdcm_mad_hdr hdr;

	memset(&hdr, 0xa5, sizeof(hdr));
	pdcm_wire_init_hdr(&hdr, PDCM_ATTR_DREQ, 0x0000000400000009ULL);
	KUNIT_EXPECT_EQ(test, hdr.base_version, 1);
	KUNIT_EXPECT_EQ(test, hdr.mgmt_class, IB_MGMT_CLASS_CM);
	KUNIT_EXPECT_EQ(test, hdr.class_version, 2);
	KUNIT_EXPECT_EQ(test, hdr.method, IB_MGMT_METHOD_SEND);
	KUNIT_EXPECT_EQ(test, hdr.status, 0);
	KUNIT_EXPECT_EQ(test, hdr.class_specific, 0);
	KUNIT_EXPECT_EQ(test, hdr.tid, 0x0000000400000009ULL);
	KUNIT_EXPECT_EQ(test, hdr.attr_id, PDCM_ATTR_DREQ);
	KUNIT_EXPECT_EQ(test, hdr.attr_mod, 0U);
}

/* The MAD header against struct ib_mad_hdr, both directions */
static void wire_test_hdr_oracle(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 3);
	struct ib_mad_hdr *h = (struct ib_mad_hdr *)x->wire;
	unsigned int i;

	for (i = 0; i < 500; i++) {
		u16 attr = PDCM_ATTR_FIRST + i % NR_ATTRS;

		gen_wire(test, x, attr, x->m);
		KUNIT_ASSERT_EQ(test, h->base_version, IB_MGMT_BASE_VERSION);
		KUNIT_ASSERT_EQ(test, h->mgmt_class, IB_MGMT_CLASS_CM);
		KUNIT_ASSERT_EQ(test, h->class_version, 2);
		KUNIT_ASSERT_EQ(test, h->method, IB_MGMT_METHOD_SEND);
		KUNIT_ASSERT_EQ(test, be16_to_cpu(h->status), x->m->hdr.status);
		KUNIT_ASSERT_EQ(test, be16_to_cpu(h->class_specific),
				x->m->hdr.class_specific);
		KUNIT_ASSERT_EQ(test, be64_to_cpu(h->tid), x->m->hdr.tid);
		KUNIT_ASSERT_EQ(test, be16_to_cpu(h->attr_id), attr);
		KUNIT_ASSERT_EQ(test, be16_to_cpu(h->resv), 0);
		KUNIT_ASSERT_EQ(test, be32_to_cpu(h->attr_mod), x->m->hdr.attr_mod);

		h->status = cpu_to_be16(rnd32(x));
		h->class_specific = cpu_to_be16(rnd32(x));
		h->tid = cpu_to_be64(rnd64(x));
		h->attr_mod = cpu_to_be32(rnd32(x));
		KUNIT_ASSERT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
						       x->out), 0);
		KUNIT_ASSERT_EQ(test, x->out->hdr.status, be16_to_cpu(h->status));
		KUNIT_ASSERT_EQ(test, x->out->hdr.class_specific,
				be16_to_cpu(h->class_specific));
		KUNIT_ASSERT_EQ(test, x->out->hdr.tid, be64_to_cpu(h->tid));
		KUNIT_ASSERT_EQ(test, x->out->hdr.attr_id, attr);
		KUNIT_ASSERT_EQ(test, x->out->hdr.attr_mod,
				be32_to_cpu(h->attr_mod));
	}
}

/* ------------------------------------------------------------------ */
/* Per message: round trips and the c12 oracle in both directions      */

/*
 * Thousands of random valid messages: encode, check every field with
 * IBA_GET, decode back to the same struct, re-encode to the same bytes.
 */
static void do_roundtrip(struct kunit *test, u16 attr)
{
	struct wire_ctx *x = wire_ctx(test, attr);
	unsigned int i;

	for (i = 0; i < RT_ITERATIONS; i++) {
		gen_wire(test, x, attr, x->m);
		or_visit(x->c, attr, x->wire, x->m);
		if (!or_check(test, x->c))
			return;
		KUNIT_ASSERT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
						       x->out), 0);
		normalize(x->m);
		if (!msg_equal(test, x->c, x->out, x->m, "decode(encode(m))"))
			return;
		KUNIT_ASSERT_EQ(test, pdcm_wire_encode(x->out, x->wire2), 0);
		if (!bytes_equal(test, x->wire2, x->wire, PDCM_MAD_SIZE,
				 "encode(decode(w))"))
			return;
	}
}

/* Values worth trying in a field of @width bits */
static unsigned int boundary_values(unsigned int width, u64 *v)
{
	u64 max = width_max(width);

	v[0] = 0;
	v[1] = 1;
	v[2] = max;
	v[3] = max - 1;
	v[4] = max >> 1;
	v[5] = BIT_ULL(width - 1);
	v[6] = 0x5555555555555555ULL & max;
	v[7] = 0xaaaaaaaaaaaaaaaaULL & max;
	return 8;
}

static const u8 byte_patterns[] = { 0x00, 0xff, 0x5a };

/*
 * Encode direction: every field of a valid message set in turn to its
 * boundary values; encode must refuse exactly the reserved ones, and
 * IBA_GET must read back every field of the result.
 */
static void do_iba_get(struct kunit *test, u16 attr)
{
	struct wire_ctx *x = wire_ctx(test, attr + 100);
	unsigned int k, j, nv, size;
	u64 v[8];
	u8 *len;

	gen_msg(x, attr, x->m);
	or_visit(x->c, attr, x->wire, x->m);
	for (k = 0; k < x->c->n; k++) {
		const struct or_field f = x->c->f[k];

		nv = f.mem ? ARRAY_SIZE(byte_patterns) : boundary_values(f.width, v);
		for (j = 0; j < nv; j++) {
			int want;

			memcpy(x->m2, x->m, sizeof(*x->m2));
			if (f.mem) {
				memset((u8 *)x->m2 + f.moff, byte_patterns[j], f.msize);
				/* send the whole area */
				if (pdata_of(x->m2, &len, &size) == (u8 *)x->m2 + f.moff ||
				    var_of(x->m2, &len, &size) == (u8 *)x->m2 + f.moff)
					*len = size;
			} else {
				msg_field_set(x->m2, &f, v[j]);
			}
			want = expect_decode_err(x->m2);
			if (want) {
				KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_encode(x->m2, x->wire),
						    -EINVAL, "%s = 0x%llx", f.name, v[j]);
				continue;
			}
			KUNIT_ASSERT_EQ_MSG(test, pdcm_wire_encode(x->m2, x->wire), 0,
					    "%s = 0x%llx", f.name, v[j]);
			normalize(x->m2);
			or_visit(x->c, attr, x->wire, x->m2);
			if (!or_check(test, x->c))
				return;
		}
	}
}

/*
 * Decode direction: every field of a valid MAD written in turn with
 * IBA_SET (or its bytes filled); decode must give the errno of a reserved
 * value, or the struct with exactly that member changed.
 */
static void do_iba_set(struct kunit *test, u16 attr)
{
	struct wire_ctx *x = wire_ctx(test, attr + 200);
	unsigned int k, j, nv;
	u64 v[8];

	gen_wire(test, x, attr, x->m);
	memcpy(x->wire2, x->wire, PDCM_MAD_SIZE);
	normalize(x->m);
	or_visit(x->c, attr, x->wire2, x->m);
	for (k = 0; k < x->c->n; k++) {
		const struct or_field f = x->c->f[k];

		nv = f.mem ? ARRAY_SIZE(byte_patterns) : boundary_values(f.width, v);
		for (j = 0; j < nv; j++) {
			int want, ret;

			memcpy(x->wire, x->wire2, PDCM_MAD_SIZE);
			memcpy(x->m2, x->m, sizeof(*x->m2));
			if (f.mem) {
				memset(x->wire + f.woff, byte_patterns[j], f.msize);
				memset((u8 *)x->m2 + f.moff, byte_patterns[j], f.msize);
			} else {
				f.set(x->wire, v[j]);
				msg_field_set(x->m2, &f, v[j]);
			}
			normalize(x->m2);
			want = expect_decode_err(x->m2);
			ret = pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out);
			KUNIT_ASSERT_EQ_MSG(test, ret, want, "%s = 0x%llx", f.name, v[j]);
			if (!want && !msg_equal(test, x->c, x->out, x->m2, f.name))
				return;
		}
	}
}

#define WIRE_MSG_CASES(name, attr)					\
static void wire_test_roundtrip_##name(struct kunit *test)		\
{									\
	do_roundtrip(test, attr);					\
}

#define WIRE_GET_CASES(name, attr)					\
static void wire_test_iba_get_##name(struct kunit *test)		\
{									\
	do_iba_get(test, attr);						\
}

#define WIRE_SET_CASES(name, attr)					\
static void wire_test_iba_set_##name(struct kunit *test)		\
{									\
	do_iba_set(test, attr);						\
}

WIRE_MSG_CASES(req, PDCM_ATTR_REQ)
WIRE_MSG_CASES(mra, PDCM_ATTR_MRA)
WIRE_MSG_CASES(rej, PDCM_ATTR_REJ)
WIRE_MSG_CASES(rep, PDCM_ATTR_REP)
WIRE_MSG_CASES(rtu, PDCM_ATTR_RTU)
WIRE_MSG_CASES(dreq, PDCM_ATTR_DREQ)
WIRE_MSG_CASES(drep, PDCM_ATTR_DREP)
WIRE_MSG_CASES(sidr_req, PDCM_ATTR_SIDR_REQ)
WIRE_MSG_CASES(sidr_rep, PDCM_ATTR_SIDR_REP)
WIRE_MSG_CASES(lap, PDCM_ATTR_LAP)
WIRE_MSG_CASES(apr, PDCM_ATTR_APR)

WIRE_GET_CASES(req, PDCM_ATTR_REQ)
WIRE_GET_CASES(mra, PDCM_ATTR_MRA)
WIRE_GET_CASES(rej, PDCM_ATTR_REJ)
WIRE_GET_CASES(rep, PDCM_ATTR_REP)
WIRE_GET_CASES(rtu, PDCM_ATTR_RTU)
WIRE_GET_CASES(dreq, PDCM_ATTR_DREQ)
WIRE_GET_CASES(drep, PDCM_ATTR_DREP)
WIRE_GET_CASES(sidr_req, PDCM_ATTR_SIDR_REQ)
WIRE_GET_CASES(sidr_rep, PDCM_ATTR_SIDR_REP)
WIRE_GET_CASES(lap, PDCM_ATTR_LAP)
WIRE_GET_CASES(apr, PDCM_ATTR_APR)

WIRE_SET_CASES(req, PDCM_ATTR_REQ)
WIRE_SET_CASES(mra, PDCM_ATTR_MRA)
WIRE_SET_CASES(rej, PDCM_ATTR_REJ)
WIRE_SET_CASES(rep, PDCM_ATTR_REP)
WIRE_SET_CASES(rtu, PDCM_ATTR_RTU)
WIRE_SET_CASES(dreq, PDCM_ATTR_DREQ)
WIRE_SET_CASES(drep, PDCM_ATTR_DREP)
WIRE_SET_CASES(sidr_req, PDCM_ATTR_SIDR_REQ)
WIRE_SET_CASES(sidr_rep, PDCM_ATTR_SIDR_REP)
WIRE_SET_CASES(lap, PDCM_ATTR_LAP)
WIRE_SET_CASES(apr, PDCM_ATTR_APR)

/* ------------------------------------------------------------------ */
/* Golden MADs (wire_vectors.h)                                        */

static const union ib_gid gid_v4_1 = { .raw = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1 } };
static const union ib_gid gid_v4_2 = { .raw = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 2 } };

/* The RDMA CM header of an IPv4 connect from 10.0.0.1 to 10.0.0.2 */
static void cma_hdr_v4(u8 *pdata, u16 port)
{
	pdata[0] = 0x00;	/* cma_version */
	pdata[1] = 0x40;	/* IPv4 */
	pdata[2] = port >> 8;
	pdata[3] = port & 0xff;
	memcpy(pdata + 16, &gid_v4_1.raw[12], 4);
	memcpy(pdata + 32, &gid_v4_2.raw[12], 4);
}

/* Decode @vec to @want, and encode @want to @vec */
static void check_golden(struct kunit *test, struct wire_ctx *x,
			 const u8 *vec, struct pdcm_msg *want)
{
	or_visit(x->c, want->hdr.attr_id, x->wire, want);
	KUNIT_ASSERT_EQ(test, pdcm_wire_encode(want, x->wire), 0);
	bytes_equal(test, x->wire, vec, PDCM_MAD_SIZE, "encode(golden)");
	KUNIT_ASSERT_EQ(test, pdcm_wire_decode(vec, PDCM_MAD_SIZE, x->out), 0);
	normalize(want);
	msg_equal(test, x->c, x->out, want, "decode(golden)");
}

/* The REQ a stock rping sent (captured) */
static void wire_test_golden_req(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 4);
	struct pdcm_req *r = &x->m->req;

	pdcm_wire_init_hdr(&x->m->hdr, PDCM_ATTR_REQ, 0x00000002cdd85960ULL);
	r->local_comm_id = 0x6059d8cd;
	r->service_id = 0x0000000001061c06ULL;
	r->local_ca_guid = 0x505400fffe00000aULL;
	r->local_qpn = 0x11;
	r->responder_resources = 1;
	r->initiator_depth = 1;
	r->remote_cm_response_timeout = 20;
	r->transport_type = PDCM_TRANSPORT_RC;
	r->starting_psn = 0x1bcf6a;
	r->local_cm_response_timeout = 20;
	r->retry_count = 7;
	r->pkey = 0xffff;
	r->path_mtu = IB_MTU_1024;
	r->rnr_retry_count = 7;
	r->max_cm_retries = 15;
	r->primary_path.local_lid = 0xffff;
	r->primary_path.remote_lid = 0xffff;
	r->primary_path.local_gid = gid_v4_1;
	r->primary_path.remote_gid = gid_v4_2;
	r->primary_path.flow_label = 0xba370;
	r->primary_path.hop_limit = 64;
	r->primary_path.local_ack_timeout = 19;
	cma_hdr_v4(r->private_data, 0xe356);
	r->private_data_len = 36;
	check_golden(test, x, pdcm_vec_req_rping, x->m);

	/* what the listen table will look at */
	KUNIT_EXPECT_EQ(test, x->out->req.service_id, 0x0000000001061c06ULL);
	KUNIT_EXPECT_EQ(test, x->out->req.private_data_len, 92);
	KUNIT_EXPECT_EQ(test, x->out->req.private_data[1] & 0xf0, 0x40);
	KUNIT_EXPECT_EQ(test, x->out->req.private_data[35], 2);
}

/* The SIDR_REQ a stock udaddy sent (captured) */
static void wire_test_golden_sidr_req(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 5);
	struct pdcm_sidr_req *r = &x->m->sidr_req;

	pdcm_wire_init_hdr(&x->m->hdr, PDCM_ATTR_SIDR_REQ,
			   0x00000002cdd85961ULL);
	r->request_id = 0x6159d8cd;
	r->pkey = 0xffff;
	r->service_id = 0x0000000001111c06ULL;
	cma_hdr_v4(r->private_data, 0xa396);
	r->private_data_len = 36;
	check_golden(test, x, pdcm_vec_sidr_req_udaddy, x->m);
}

static void wire_test_golden_rej(struct kunit *test)
{
	static const u8 guid[8] = { 0x50, 0x54, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x0b };
	struct wire_ctx *x = wire_ctx(test, 6);
	struct pdcm_rej *r = &x->m->rej;

	pdcm_wire_init_hdr(&x->m->hdr, PDCM_ATTR_REJ, 0x0000000255e50bbdULL);
	r->local_comm_id = 0xbd0be555;
	r->remote_comm_id = 0;
	r->msg_rejected = PDCM_MSG_RESPONSE_OTHER;
	r->reason = IB_CM_REJ_TIMEOUT;
	memcpy(r->ari, guid, sizeof(guid));
	r->ari_len = sizeof(guid);
	check_golden(test, x, pdcm_vec_rej_timeout, x->m);
}

static void wire_test_golden_rep(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 7);
	struct pdcm_rep *r = &x->m->rep;

	pdcm_wire_init_hdr(&x->m->hdr, PDCM_ATTR_REP, 0x0123456789abcdefULL);
	x->m->hdr.attr_mod = 1;
	r->local_comm_id = 0x11223344;
	r->remote_comm_id = 0x55667788;
	r->local_qkey = 0x99aabbcc;
	r->local_qpn = 0x123456;
	r->vendor_id = 0xabcdef;
	r->local_eecn = 0x654321;
	r->starting_psn = 0xfedcba;
	r->responder_resources = 4;
	r->initiator_depth = 8;
	r->target_ack_delay = 31;
	r->failover_accepted = PDCM_FAILOVER_REJECTED;
	r->end_to_end_flow_control = 1;
	r->rnr_retry_count = 5;
	r->srq = 1;
	r->local_ca_guid = 0x0102030405060708ULL;
	put_unaligned_be32(0xdeadbeef, r->private_data);
	r->private_data_len = 4;
	check_golden(test, x, pdcm_vec_rep, x->m);
}

static void wire_test_golden_dreq(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 8);
	struct pdcm_dreq *r = &x->m->dreq;

	pdcm_wire_init_hdr(&x->m->hdr, PDCM_ATTR_DREQ, 0x000000010000002aULL);
	r->local_comm_id = 0xdeadbeef;
	r->remote_comm_id = 0x01020304;
	r->remote_qpn_eecn = 0xabcdef;
	r->private_data[0] = 1;
	r->private_data[1] = 2;
	r->private_data[2] = 3;
	r->private_data_len = 3;
	check_golden(test, x, pdcm_vec_dreq, x->m);
}

static void wire_test_golden_lap(struct kunit *test)
{
	static const union ib_gid lgid = { .raw = {
		0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x02, 0x11, 0x22, 0xff, 0xfe, 0x33, 0x44, 0x55 } };
	static const union ib_gid rgid = { .raw = {
		0xfe, 0x80, 0, 0, 0, 0, 0, 0,
		0x02, 0x66, 0x77, 0xff, 0xfe, 0x88, 0x99, 0xaa } };
	struct wire_ctx *x = wire_ctx(test, 9);
	struct pdcm_lap *r = &x->m->lap;
	struct pdcm_path *a = &r->alternate_path;

	pdcm_wire_init_hdr(&x->m->hdr, PDCM_ATTR_LAP, 0x0000000300000007ULL);
	r->local_comm_id = 0x0a0b0c0d;
	r->remote_comm_id = 0x1a1b1c1d;
	r->remote_qpn_eecn = 0x42;
	r->remote_cm_response_timeout = 19;
	a->local_lid = 0x1234;
	a->remote_lid = 0x5678;
	a->local_gid = lgid;
	a->remote_gid = rgid;
	a->flow_label = 0xabcde;
	a->traffic_class = 0x2e;
	a->hop_limit = 0xff;
	a->packet_rate = 0x2a;
	a->sl = 9;
	a->subnet_local = 1;
	a->local_ack_timeout = 14;
	memcpy(r->private_data, "LAP", 3);
	r->private_data_len = 3;
	check_golden(test, x, pdcm_vec_lap, x->m);
}

/* ------------------------------------------------------------------ */
/* Decode errors                                                       */

/* A copy of the golden REQ with byte @off set to @val must give @err */
static void expect_req_byte(struct kunit *test, struct wire_ctx *x,
			    unsigned int off, u8 val, int err)
{
	memcpy(x->wire, pdcm_vec_req_rping, PDCM_MAD_SIZE);
	x->wire[off] = val;
	KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			    err, "MAD byte %u = 0x%02x", off, val);
}

static void wire_test_decode_truncated(struct kunit *test)
{
	static const size_t lens[] = { 0, 1, 23, 24, 100, 255 };
	struct wire_ctx *x = wire_ctx(test, 10);
	unsigned int i;
	u8 *buf;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		/* exactly as long as claimed: KASAN catches a longer read */
		buf = kunit_kmalloc(test, max_t(size_t, lens[i], 1), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, buf);
		memcpy(buf, pdcm_vec_req_rping, lens[i]);
		KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_decode(buf, lens[i], x->out),
				    -EMSGSIZE, "len %zu", lens[i]);
	}
	buf = kunit_kzalloc(test, 300, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, pdcm_vec_req_rping, PDCM_MAD_SIZE);
	memset(buf + PDCM_MAD_SIZE, 0xff, 300 - PDCM_MAD_SIZE);
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(buf, 300, x->out), 0);
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(buf, PDCM_MAD_SIZE, x->out), 0);
}

static void wire_test_decode_base_version(struct kunit *test)
{
	static const u8 bad[] = { 0x00, 0x02, 0x80, 0x81, 0xff };
	struct wire_ctx *x = wire_ctx(test, 11);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_req_byte(test, x, 0, bad[i], -EPROTO);
	expect_req_byte(test, x, 0, 0x01, 0);
}

static void wire_test_decode_mgmt_class(struct kunit *test)
{
	static const u8 bad[] = {
		IB_MGMT_CLASS_SUBN_LID_ROUTED, IB_MGMT_CLASS_SUBN_ADM,
		IB_MGMT_CLASS_PERF_MGMT, IB_MGMT_CLASS_BM,
		IB_MGMT_CLASS_DEVICE_MGMT, IB_MGMT_CLASS_SNMP,
		IB_MGMT_CLASS_SUBN_DIRECTED_ROUTE, 0x00, 0x87, 0xff,
	};
	struct wire_ctx *x = wire_ctx(test, 12);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_req_byte(test, x, 1, bad[i], -ENOMSG);
	expect_req_byte(test, x, 1, IB_MGMT_CLASS_CM, 0);
}

static void wire_test_decode_class_version(struct kunit *test)
{
	static const u8 bad[] = { 0, 1, 3, 0x12, 0xff };
	struct wire_ctx *x = wire_ctx(test, 13);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_req_byte(test, x, 2, bad[i], -EPROTONOSUPPORT);
	expect_req_byte(test, x, 2, 2, 0);
}

static void wire_test_decode_method(struct kunit *test)
{
	static const u8 bad[] = {
		0x00, IB_MGMT_METHOD_GET, IB_MGMT_METHOD_SET,
		IB_MGMT_METHOD_GET_RESP, IB_MGMT_METHOD_TRAP,
		IB_MGMT_METHOD_REPORT, IB_MGMT_METHOD_SEND | IB_MGMT_METHOD_RESP,
		0x13, 0x7f, 0xff,
	};
	struct wire_ctx *x = wire_ctx(test, 14);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		expect_req_byte(test, x, 3, bad[i], -EOPNOTSUPP);
	expect_req_byte(test, x, 3, IB_MGMT_METHOD_SEND, 0);
}

static void wire_test_decode_attr_id(struct kunit *test)
{
	static const u16 bad[] = {
		0x0000, 0x0001 /* ClassPortInfo */, 0x000f, 0x001b, 0x0020,
		0x0110, 0x1000, 0xff10, 0xffff,
	};
	struct wire_ctx *x = wire_ctx(test, 15);
	struct ib_mad_hdr *h = (struct ib_mad_hdr *)x->wire;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(x->wire, pdcm_vec_req_rping, PDCM_MAD_SIZE);
		h->attr_id = cpu_to_be16(bad[i]);
		KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
							   x->out),
				    -EBADRQC, "attr 0x%04x", bad[i]);
	}
	/* any CM attribute decodes the same bytes as its own message */
	for (i = PDCM_ATTR_FIRST; i <= PDCM_ATTR_LAST; i++) {
		memcpy(x->wire, pdcm_vec_req_rping, PDCM_MAD_SIZE);
		h->attr_id = cpu_to_be16(i);
		KUNIT_EXPECT_NE(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
						       x->out), -EBADRQC);
	}
}

/*
 * Write @val with a c12 setter into a random valid MAD of message @attr
 * and expect @err from decode (and a zeroed struct on error).
 */
static void expect_set(struct kunit *test, struct wire_ctx *x, u16 attr,
		       void (*set)(void *mad, u64 val), u64 val, int err)
{
	gen_wire(test, x, attr, x->m);
	set(x->wire, val);
	KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			    err, "attr 0x%x value 0x%llx", attr, val);
	if (err)
		KUNIT_EXPECT_TRUE(test, !memchr_inv(x->out, 0, sizeof(*x->out)));
}

static void wire_test_decode_req_transport(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 16);
	unsigned int ext;

	for (ext = 0; ext < 8; ext++) {
		/* 2 is reserved whatever the extended type */
		memcpy(x->wire, pdcm_vec_req_rping, PDCM_MAD_SIZE);
		set_REQ_EXTENDED_TRANSPORT_TYPE(x->wire, ext);
		set_REQ_TRANSPORT_SERVICE_TYPE(x->wire, 2);
		KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
						       x->out), -EPROTOTYPE);
		/* 3 is extended: only XRC (1) exists */
		set_REQ_TRANSPORT_SERVICE_TYPE(x->wire, 3);
		KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
						       x->out),
				ext == PDCM_EXT_TRANSPORT_XRC ? 0 : -EPROTOTYPE);
		/* RC and UC ignore the extended type */
		set_REQ_TRANSPORT_SERVICE_TYPE(x->wire, 1);
		KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
						       x->out), 0);
		KUNIT_EXPECT_EQ(test, x->out->req.transport_type, PDCM_TRANSPORT_UC);
		KUNIT_EXPECT_EQ(test, x->out->req.ext_transport_type, ext);
	}
}

static void wire_test_decode_req_mtu(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 17);
	unsigned int mtu;

	for (mtu = 0; mtu < 16; mtu++) {
		memcpy(x->wire, pdcm_vec_req_rping, PDCM_MAD_SIZE);
		set_REQ_PATH_PACKET_PAYLOAD_MTU(x->wire, mtu);
		KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
							   x->out),
				    mtu >= IB_MTU_256 && mtu <= IB_MTU_4096 ? 0 : -EBADMSG,
				    "mtu %u", mtu);
	}
}

static void wire_test_decode_mra_mraed(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 18);
	unsigned int v;

	for (v = 0; v < 4; v++)
		expect_set(test, x, PDCM_ATTR_MRA, set_MRA_MESSAGE_MRAED, v,
			   v == 3 ? -EBADMSG : 0);
}

static void wire_test_decode_rej_rejected(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 19);
	unsigned int v;

	for (v = 0; v < 4; v++)
		expect_set(test, x, PDCM_ATTR_REJ, set_REJ_MESSAGE_REJECTED, v,
			   v == 3 ? -EBADMSG : 0);
}

static void wire_test_decode_rej_ari_len(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 20);
	unsigned int v;

	for (v = 0; v < 128; v++)
		expect_set(test, x, PDCM_ATTR_REJ, set_REJ_REJECTED_INFO_LENGTH,
			   v, v > 72 ? -EOVERFLOW : 0);
}

static void wire_test_decode_rep_failover(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 21);
	unsigned int v;

	for (v = 0; v < 4; v++)
		expect_set(test, x, PDCM_ATTR_REP, set_REP_FAILOVER_ACCEPTED, v,
			   v == 3 ? -EBADMSG : 0);
}

static void wire_test_decode_sidr_rep_status(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 22);
	unsigned int v;

	for (v = 0; v < 256; v++)
		expect_set(test, x, PDCM_ATTR_SIDR_REP, set_SIDR_REP_STATUS, v,
			   v > IB_SIDR_UNSUPPORTED_VERSION ? -EBADMSG : 0);
}

static void wire_test_decode_sidr_rep_info_len(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 23);
	unsigned int v;

	for (v = 0; v < 256; v++)
		expect_set(test, x, PDCM_ATTR_SIDR_REP,
			   set_SIDR_REP_ADDITIONAL_INFORMATION_LENGTH, v,
			   v > 72 ? -EOVERFLOW : 0);
}

static void wire_test_decode_apr_status(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 24);
	unsigned int v;

	for (v = 0; v < 256; v++)
		expect_set(test, x, PDCM_ATTR_APR, set_APR_AR_STATUS, v,
			   v > IB_CM_APR_INVALID_SL ? -EBADMSG : 0);
}

static void wire_test_decode_apr_info_len(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 25);
	unsigned int v;

	for (v = 0; v < 256; v++)
		expect_set(test, x, PDCM_ATTR_APR,
			   set_APR_ADDITIONAL_INFORMATION_LENGTH, v,
			   v > 72 ? -EOVERFLOW : 0);
}

/* Header errors are found before body errors, in the documented order */
static void wire_test_decode_error_order(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 26);

	memcpy(x->wire, pdcm_vec_req_rping, PDCM_MAD_SIZE);
	set_REQ_TRANSPORT_SERVICE_TYPE(x->wire, 2);
	set_REQ_PATH_PACKET_PAYLOAD_MTU(x->wire, 0);
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-EPROTOTYPE);
	x->wire[17] = 0x0f;	/* attribute ID */
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-EBADRQC);
	x->wire[3] = IB_MGMT_METHOD_GET;
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-EOPNOTSUPP);
	x->wire[2] = 1;
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-EPROTONOSUPPORT);
	x->wire[1] = IB_MGMT_CLASS_SUBN_ADM;
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-ENOMSG);
	x->wire[0] = 2;
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, 10, x->out), -EMSGSIZE);
}

/* A failed decode leaves nothing half-decoded behind */
static void wire_test_decode_error_zeroes(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 27);

	gen_wire(test, x, PDCM_ATTR_REJ, x->m);
	set_REJ_REJECTED_INFO_LENGTH(x->wire, 100);
	memset(x->out, 0xa5, sizeof(*x->out));
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-EOVERFLOW);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(x->out, 0, sizeof(*x->out)));

	gen_wire(test, x, PDCM_ATTR_APR, x->m);
	set_APR_AR_STATUS(x->wire, 200);
	memset(x->out, 0xa5, sizeof(*x->out));
	KUNIT_EXPECT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out),
			-EBADMSG);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(x->out, 0, sizeof(*x->out)));
}

/*
 * Every bit some c12 field (or the MAD header) covers, for message @attr;
 * the remaining bits are reserved.
 */
static void field_bits(struct wire_ctx *x, u16 attr, u8 *mask)
{
	unsigned int i;

	memset(mask, 0, PDCM_MAD_SIZE);
	memset(mask, 0xff, sizeof(struct ib_mad_hdr));
	mask[18] = 0;	/* MAD header "resv" */
	mask[19] = 0;
	or_visit(x->c, attr, mask, x->m);
	for (i = 0; i < x->c->n; i++) {
		const struct or_field *f = &x->c->f[i];

		if (f->mem)
			memset(mask + f->woff, 0xff, f->msize);
		else
			f->set(mask, ~0ULL);
	}
}

/* Encode writes zeros in every reserved bit and past every length */
static void wire_test_encode_reserved_zero(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 28);
	u8 *mask = kunit_kzalloc(test, PDCM_MAD_SIZE, GFP_KERNEL);
	unsigned int a, i, j, size;
	u8 *p, *len;

	KUNIT_ASSERT_NOT_NULL(test, mask);
	for (a = PDCM_ATTR_FIRST; a <= PDCM_ATTR_LAST; a++) {
		field_bits(x, a, mask);
		for (i = 0; i < 200; i++) {
			gen_msg(x, a, x->m);
			/* garbage past the lengths must not reach the wire */
			p = pdata_of(x->m, &len, &size);
			memset(p + *len, 0xee, size - *len);
			p = var_of(x->m, &len, &size);
			if (p)
				memset(p + *len, 0xee, size - *len);
			KUNIT_ASSERT_EQ(test, pdcm_wire_encode(x->m, x->wire), 0);
			for (j = 0; j < PDCM_MAD_SIZE; j++)
				KUNIT_ASSERT_EQ_MSG(test, x->wire[j] & ~mask[j], 0,
						    "%s: reserved bits in MAD byte %u",
						    pdcm_wire_attr_name(a), j);
			KUNIT_ASSERT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
							       x->out), 0);
			normalize(x->m);
			if (!msg_equal(test, x->c, x->out, x->m, "garbage tail"))
				return;
		}
	}
}

/* Decode ignores reserved bits */
static void wire_test_decode_reserved_ignored(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 29);
	u8 *mask = kunit_kzalloc(test, PDCM_MAD_SIZE, GFP_KERNEL);
	unsigned int a, i, j;

	KUNIT_ASSERT_NOT_NULL(test, mask);
	for (a = PDCM_ATTR_FIRST; a <= PDCM_ATTR_LAST; a++) {
		field_bits(x, a, mask);
		for (i = 0; i < 50; i++) {
			gen_wire(test, x, a, x->m);
			memcpy(x->wire2, x->wire, PDCM_MAD_SIZE);
			for (j = 0; j < PDCM_MAD_SIZE; j++)
				x->wire[j] |= ~mask[j] & (u8)rnd32(x);
			KUNIT_ASSERT_EQ(test, pdcm_wire_decode(x->wire, PDCM_MAD_SIZE,
							       x->out), 0);
			normalize(x->m);
			if (!msg_equal(test, x->c, x->out, x->m, "reserved bits set"))
				return;
			KUNIT_ASSERT_EQ(test, pdcm_wire_encode(x->out, x->wire), 0);
			if (!bytes_equal(test, x->wire, x->wire2, PDCM_MAD_SIZE,
					 "re-encode clears reserved bits"))
				return;
		}
	}
}

/*
 * The two IDs that name a connection, from the codec's table
 * (pdcm_wire_sender_id/receiver_id), against <rdma/ibta_vol1_c12.h>'s
 * fields of the encoded MAD, in the message built and in its decoded copy
 */
#define ID_PAIR(M)							\
	do {								\
		snd = IBA_GET(CM_##M##_LOCAL_COMM_ID, w);		\
		rcv = IBA_GET(CM_##M##_REMOTE_COMM_ID, w);		\
	} while (0)

static void wire_test_comm_ids(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 40);
	void *w = x->wire;
	unsigned int a, it;

	for (it = 0; it < 64; it++) {
		for (a = PDCM_ATTR_FIRST; a <= PDCM_ATTR_LAST; a++) {
			u32 snd = 0, rcv = 0;

			gen_wire(test, x, a, x->m);
			switch (a) {
			case PDCM_ATTR_REQ:
				snd = IBA_GET(CM_REQ_LOCAL_COMM_ID, w);
				break;
			case PDCM_ATTR_MRA:
				ID_PAIR(MRA);
				break;
			case PDCM_ATTR_REJ:
				ID_PAIR(REJ);
				break;
			case PDCM_ATTR_REP:
				ID_PAIR(REP);
				break;
			case PDCM_ATTR_RTU:
				ID_PAIR(RTU);
				break;
			case PDCM_ATTR_DREQ:
				ID_PAIR(DREQ);
				break;
			case PDCM_ATTR_DREP:
				ID_PAIR(DREP);
				break;
			case PDCM_ATTR_SIDR_REQ:
				snd = IBA_GET(CM_SIDR_REQ_REQUESTID, w);
				break;
			case PDCM_ATTR_SIDR_REP:
				rcv = IBA_GET(CM_SIDR_REP_REQUESTID, w);
				break;
			case PDCM_ATTR_LAP:
				ID_PAIR(LAP);
				break;
			case PDCM_ATTR_APR:
				ID_PAIR(APR);
				break;
			}
			KUNIT_ASSERT_EQ(test, pdcm_wire_decode(w, PDCM_MAD_SIZE, x->out), 0);
			KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_sender_id(x->m), snd,
					    "%s", pdcm_wire_attr_name(a));
			KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_receiver_id(x->m), rcv,
					    "%s", pdcm_wire_attr_name(a));
			KUNIT_EXPECT_EQ(test, pdcm_wire_sender_id(x->out), snd);
			KUNIT_EXPECT_EQ(test, pdcm_wire_receiver_id(x->out), rcv);
		}
	}
	/* not a CM message: no IDs, whatever its bytes */
	memset(x->m, 0xa5, sizeof(*x->m));
	for (a = 0; a < 0x40; a++) {
		if (a >= PDCM_ATTR_FIRST && a <= PDCM_ATTR_LAST)
			continue;
		x->m->hdr.attr_id = a;
		KUNIT_EXPECT_EQ(test, pdcm_wire_sender_id(x->m), 0U);
		KUNIT_EXPECT_EQ(test, pdcm_wire_receiver_id(x->m), 0U);
	}
}

/* ------------------------------------------------------------------ */
/* Encode refusals                                                     */

/* One bit above any field that is narrower than its member: -EINVAL */
static void wire_test_encode_field_overflow(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 30);
	unsigned int a, k, checked = 0;

	for (a = PDCM_ATTR_FIRST; a <= PDCM_ATTR_LAST; a++) {
		gen_msg(x, a, x->m);
		or_visit(x->c, a, x->wire, x->m);
		for (k = 0; k < x->c->n; k++) {
			const struct or_field *f = &x->c->f[k];
			unsigned int top = f->shift + f->width;
			void *p;

			if (f->mem || f->low || top >= 8 * f->msize)
				continue;
			memcpy(x->m2, x->m, sizeof(*x->m2));
			p = (u8 *)x->m2 + f->moff;
			mstore(p, f->msize, mload(p, f->msize) | BIT_ULL(top));
			KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_encode(x->m2, x->wire),
					    -EINVAL, "%s: bit %u set", f->name, top);
			KUNIT_EXPECT_TRUE(test, !memchr_inv(x->wire, 0, PDCM_MAD_SIZE));
			mstore(p, f->msize, ~0ULL);
			KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_encode(x->m2, x->wire),
					    -EINVAL, "%s: all ones", f->name);
			checked++;
		}
	}
	/*
	 * Every field narrower than its member: REQ 27 (16 + 5 per path +
	 * SAP), MRA 2, REJ 2, REP 9, DREQ 1, LAP 7, SIDR_REP 2.
	 */
	KUNIT_EXPECT_EQ(test, checked, 50U);
}

static void wire_test_encode_pdata_too_long(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 31);
	unsigned int a, size;
	u8 *len;

	for (a = PDCM_ATTR_FIRST; a <= PDCM_ATTR_LAST; a++) {
		gen_msg(x, a, x->m);
		pdata_of(x->m, &len, &size);
		*len = size;
		KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), 0);
		*len = size + 1;
		KUNIT_EXPECT_EQ_MSG(test, pdcm_wire_encode(x->m, x->wire), -EINVAL,
				    "%s pdata %u", pdcm_wire_attr_name(a), *len);
		*len = 255;
		KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
		*len = 0;
		KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), 0);
	}
}

static void wire_test_encode_info_too_long(struct kunit *test)
{
	static const u16 attrs[] = {
		PDCM_ATTR_REJ, PDCM_ATTR_SIDR_REP, PDCM_ATTR_APR,
	};
	struct wire_ctx *x = wire_ctx(test, 32);
	unsigned int i, size;
	u8 *len;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		gen_msg(x, attrs[i], x->m);
		var_of(x->m, &len, &size);
		*len = 72;
		KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), 0);
		*len = 73;	/* still fits the length field */
		KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
		*len = 127;
		KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
	}
}

static void wire_test_encode_bad_hdr(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 33);
	struct pdcm_mad_hdr *h = &x->m->hdr;

	gen_msg(x, PDCM_ATTR_RTU, x->m);
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), 0);

	h->base_version = 2;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
	KUNIT_EXPECT_TRUE(test, !memchr_inv(x->wire, 0, PDCM_MAD_SIZE));
	h->base_version = 1;
	h->mgmt_class = IB_MGMT_CLASS_SUBN_ADM;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
	h->mgmt_class = IB_MGMT_CLASS_CM;
	h->class_version = 1;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
	h->class_version = 2;
	h->method = IB_MGMT_METHOD_GET_RESP;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
	h->method = IB_MGMT_METHOD_SEND;
	h->attr_id = 0x000f;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
	h->attr_id = 0x001b;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), -EINVAL);
	h->attr_id = PDCM_ATTR_RTU;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(x->m, x->wire), 0);
}

/* Encode refuses what decode would refuse */
static void wire_test_encode_reserved_values(struct kunit *test)
{
	struct wire_ctx *x = wire_ctx(test, 34);
	struct pdcm_msg *m = x->m;

	gen_msg(x, PDCM_ATTR_REQ, m);
	m->req.transport_type = 2;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
	m->req.transport_type = PDCM_TRANSPORT_EXT;
	m->req.ext_transport_type = 0;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
	m->req.ext_transport_type = PDCM_EXT_TRANSPORT_XRC;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), 0);
	m->req.path_mtu = 0;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
	m->req.path_mtu = 6;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);

	gen_msg(x, PDCM_ATTR_MRA, m);
	m->mra.msg_mraed = 3;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
	gen_msg(x, PDCM_ATTR_REJ, m);
	m->rej.msg_rejected = 3;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
	gen_msg(x, PDCM_ATTR_REP, m);
	m->rep.failover_accepted = 3;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
	gen_msg(x, PDCM_ATTR_SIDR_REP, m);
	m->sidr_rep.status = 6;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
	gen_msg(x, PDCM_ATTR_APR, m);
	m->apr.ap_status = 14;
	KUNIT_EXPECT_EQ(test, pdcm_wire_encode(m, x->wire), -EINVAL);
}

/* ------------------------------------------------------------------ */
/* Fuzz                                                                */

/*
 * Random bytes behind a CM header: decode either refuses with a
 * documented errno, or gives a message that encodes and decodes back to
 * itself.  KASAN watches the exact-size buffers.
 */
static void wire_test_decode_fuzz(struct kunit *test)
{
	static const int errnos[] = {
		-EOVERFLOW, -EPROTOTYPE, -EBADMSG, -EBADRQC,
	};
	struct wire_ctx *x = wire_ctx(test, 35);
	unsigned int i, j, ok = 0;
	int ret;

	for (i = 0; i < FUZZ_ITERATIONS; i++) {
		prandom_bytes_state(&x->rs, x->wire, PDCM_MAD_SIZE);
		x->wire[0] = 1;
		x->wire[1] = IB_MGMT_CLASS_CM;
		x->wire[2] = 2;
		x->wire[3] = IB_MGMT_METHOD_SEND;
		x->wire[16] = 0;
		x->wire[17] = PDCM_ATTR_FIRST + rnd32(x) % (NR_ATTRS + 1);
		ret = pdcm_wire_decode(x->wire, PDCM_MAD_SIZE, x->out);
		if (ret) {
			for (j = 0; j < ARRAY_SIZE(errnos) && errnos[j] != ret; j++)
				;
			KUNIT_ASSERT_LT_MSG(test, j, ARRAY_SIZE(errnos),
					    "unexpected errno %d", ret);
			continue;
		}
		ok++;
		KUNIT_ASSERT_EQ(test, pdcm_wire_encode(x->out, x->wire2), 0);
		KUNIT_ASSERT_EQ(test, pdcm_wire_decode(x->wire2, PDCM_MAD_SIZE,
						       x->m), 0);
		or_visit(x->c, x->out->hdr.attr_id, x->wire2, x->m);
		if (!msg_equal(test, x->c, x->m, x->out, "fuzz"))
			return;
	}
	KUNIT_EXPECT_GT(test, ok, FUZZ_ITERATIONS / 4);
}

static struct kunit_case pdcm_wire_cases[] = {
	KUNIT_CASE(wire_test_bits),
	KUNIT_CASE(wire_test_attr_names),
	KUNIT_CASE(wire_test_pdata_sizes),
	KUNIT_CASE(wire_test_timeout_ms),
	KUNIT_CASE(wire_test_init_hdr),
	KUNIT_CASE(wire_test_hdr_oracle),
	KUNIT_CASE(wire_test_roundtrip_req),
	KUNIT_CASE(wire_test_roundtrip_mra),
	KUNIT_CASE(wire_test_roundtrip_rej),
	KUNIT_CASE(wire_test_roundtrip_rep),
	KUNIT_CASE(wire_test_roundtrip_rtu),
	KUNIT_CASE(wire_test_roundtrip_dreq),
	KUNIT_CASE(wire_test_roundtrip_drep),
	KUNIT_CASE(wire_test_roundtrip_sidr_req),
	KUNIT_CASE(wire_test_roundtrip_sidr_rep),
	KUNIT_CASE(wire_test_roundtrip_lap),
	KUNIT_CASE(wire_test_roundtrip_apr),
	KUNIT_CASE(wire_test_iba_get_req),
	KUNIT_CASE(wire_test_iba_get_mra),
	KUNIT_CASE(wire_test_iba_get_rej),
	KUNIT_CASE(wire_test_iba_get_rep),
	KUNIT_CASE(wire_test_iba_get_rtu),
	KUNIT_CASE(wire_test_iba_get_dreq),
	KUNIT_CASE(wire_test_iba_get_drep),
	KUNIT_CASE(wire_test_iba_get_sidr_req),
	KUNIT_CASE(wire_test_iba_get_sidr_rep),
	KUNIT_CASE(wire_test_iba_get_lap),
	KUNIT_CASE(wire_test_iba_get_apr),
	KUNIT_CASE(wire_test_iba_set_req),
	KUNIT_CASE(wire_test_iba_set_mra),
	KUNIT_CASE(wire_test_iba_set_rej),
	KUNIT_CASE(wire_test_iba_set_rep),
	KUNIT_CASE(wire_test_iba_set_rtu),
	KUNIT_CASE(wire_test_iba_set_dreq),
	KUNIT_CASE(wire_test_iba_set_drep),
	KUNIT_CASE(wire_test_iba_set_sidr_req),
	KUNIT_CASE(wire_test_iba_set_sidr_rep),
	KUNIT_CASE(wire_test_iba_set_lap),
	KUNIT_CASE(wire_test_iba_set_apr),
	KUNIT_CASE(wire_test_golden_req),
	KUNIT_CASE(wire_test_golden_sidr_req),
	KUNIT_CASE(wire_test_golden_rej),
	KUNIT_CASE(wire_test_golden_rep),
	KUNIT_CASE(wire_test_golden_dreq),
	KUNIT_CASE(wire_test_golden_lap),
	KUNIT_CASE(wire_test_decode_truncated),
	KUNIT_CASE(wire_test_decode_base_version),
	KUNIT_CASE(wire_test_decode_mgmt_class),
	KUNIT_CASE(wire_test_decode_class_version),
	KUNIT_CASE(wire_test_decode_method),
	KUNIT_CASE(wire_test_decode_attr_id),
	KUNIT_CASE(wire_test_decode_req_transport),
	KUNIT_CASE(wire_test_decode_req_mtu),
	KUNIT_CASE(wire_test_decode_mra_mraed),
	KUNIT_CASE(wire_test_decode_rej_rejected),
	KUNIT_CASE(wire_test_decode_rej_ari_len),
	KUNIT_CASE(wire_test_decode_rep_failover),
	KUNIT_CASE(wire_test_decode_sidr_rep_status),
	KUNIT_CASE(wire_test_decode_sidr_rep_info_len),
	KUNIT_CASE(wire_test_decode_apr_status),
	KUNIT_CASE(wire_test_decode_apr_info_len),
	KUNIT_CASE(wire_test_decode_error_order),
	KUNIT_CASE(wire_test_decode_error_zeroes),
	KUNIT_CASE(wire_test_decode_reserved_ignored),
	KUNIT_CASE(wire_test_encode_reserved_zero),
	KUNIT_CASE(wire_test_encode_field_overflow),
	KUNIT_CASE(wire_test_encode_pdata_too_long),
	KUNIT_CASE(wire_test_encode_info_too_long),
	KUNIT_CASE(wire_test_encode_bad_hdr),
	KUNIT_CASE(wire_test_encode_reserved_values),
	KUNIT_CASE(wire_test_decode_fuzz),
	KUNIT_CASE(wire_test_comm_ids),
	{}
};

static struct kunit_suite pdcm_wire_suite = {
	.name = "pdcm_wire",
	.test_cases = pdcm_wire_cases,
};

kunit_test_suite(pdcm_wire_suite);
