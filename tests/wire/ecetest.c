// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ecetest: one rdma_cm connection that carries ECE options both ways and
 * prints what each side received, for the ib_cm drop-in's ECE scenario
 * (Documentation/interop.rst).
 *
 *   ecetest -s ADDR [-p PORT]   server: listen, take one REQ, print the
 *                               client's options, accept with our own
 *   ecetest -c ADDR [-p PORT]   client: connect with our options, print
 *                               the server's from the REP
 *
 * Each side prints "remote_ece vendor_id=0x... options=0x..." once.  The
 * connection uses no QP of its own (rdma_cm's external-QP mode: a QPN in
 * the connection parameters, rdma_establish() on the active side), which
 * is where librdmacm sends rdma_set_local_ece()'s options as they are.
 * The client's options are 0x0002c9/0x1234567, the server's
 * 0x00a0b1/0x7654321; librdmacm's accept answers with the requester's
 * vendor ID and the server's options, so the client reads
 * 0x0002c9/0x7654321 from the REP (the same on ib_cm and on pdcm).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/rdma_cma.h>

#define CLIENT_VENDOR	0x0002c9
#define CLIENT_OPTIONS	0x1234567
#define SERVER_VENDOR	0x00a0b1
#define SERVER_OPTIONS	0x7654321

static struct rdma_event_channel *ch;

/* The next event, which must be @want; its id in *@id. */
static int expect(enum rdma_cm_event_type want, struct rdma_cm_id **id)
{
	struct rdma_cm_event *ev;

	if (rdma_get_cm_event(ch, &ev)) {
		perror("rdma_get_cm_event");
		return -1;
	}
	if (ev->event != want) {
		fprintf(stderr, "event %s (status %d), expected %s\n",
			rdma_event_str(ev->event), ev->status,
			rdma_event_str(want));
		rdma_ack_cm_event(ev);
		return -1;
	}
	if (id)
		*id = ev->id;
	rdma_ack_cm_event(ev);
	return 0;
}

static void print_remote(struct rdma_cm_id *id)
{
	struct ibv_ece ece = {};

	if (rdma_get_remote_ece(id, &ece)) {
		perror("rdma_get_remote_ece");
		return;
	}
	printf("remote_ece vendor_id=0x%06x options=0x%x\n", ece.vendor_id,
	       ece.options);
}

static int set_local(struct rdma_cm_id *id, unsigned int vendor,
		     unsigned int options)
{
	struct ibv_ece ece = { .vendor_id = vendor, .options = options };

	if (rdma_set_local_ece(id, &ece)) {
		perror("rdma_set_local_ece");
		return -1;
	}
	return 0;
}

static int server(struct rdma_cm_id *id, struct sockaddr *sa)
{
	struct rdma_conn_param p = { .qp_num = 0x1234, .retry_count = 7,
				     .rnr_retry_count = 7 };
	struct rdma_cm_id *child;

	if (rdma_bind_addr(id, sa) || rdma_listen(id, 1)) {
		perror("listen");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	if (expect(RDMA_CM_EVENT_CONNECT_REQUEST, &child))
		return 1;
	print_remote(child);
	if (set_local(child, SERVER_VENDOR, SERVER_OPTIONS) ||
	    rdma_accept(child, &p)) {
		perror("rdma_accept");
		return 1;
	}
	if (expect(RDMA_CM_EVENT_ESTABLISHED, NULL) ||
	    expect(RDMA_CM_EVENT_DISCONNECTED, NULL))
		return 1;
	rdma_disconnect(child);
	rdma_destroy_id(child);
	printf("server done\n");
	return 0;
}

static int client(struct rdma_cm_id *id, struct sockaddr *sa)
{
	struct rdma_conn_param p = { .qp_num = 0x4321, .retry_count = 7,
				     .rnr_retry_count = 7 };

	if (rdma_resolve_addr(id, NULL, sa, 2000) ||
	    expect(RDMA_CM_EVENT_ADDR_RESOLVED, NULL) ||
	    rdma_resolve_route(id, 2000) ||
	    expect(RDMA_CM_EVENT_ROUTE_RESOLVED, NULL)) {
		fprintf(stderr, "resolving failed\n");
		return 1;
	}
	if (set_local(id, CLIENT_VENDOR, CLIENT_OPTIONS) ||
	    rdma_connect(id, &p)) {
		perror("rdma_connect");
		return 1;
	}
	if (expect(RDMA_CM_EVENT_CONNECT_RESPONSE, NULL))
		return 1;
	print_remote(id);
	if (rdma_establish(id)) {
		perror("rdma_establish");
		return 1;
	}
	rdma_disconnect(id);
	expect(RDMA_CM_EVENT_DISCONNECTED, NULL);
	printf("client done\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *addr = NULL, *port = "7475";
	struct addrinfo *ai, hints = { .ai_family = AF_UNSPEC };
	struct rdma_cm_id *id;
	int opt, srv = 0, ret;

	while ((opt = getopt(argc, argv, "s:c:p:")) != -1) {
		switch (opt) {
		case 's':
			srv = 1;
			addr = optarg;
			break;
		case 'c':
			addr = optarg;
			break;
		case 'p':
			port = optarg;
			break;
		default:
			return 2;
		}
	}
	if (!addr) {
		fprintf(stderr, "usage: %s -s|-c ADDR [-p PORT]\n", argv[0]);
		return 2;
	}
	if (getaddrinfo(addr, port, &hints, &ai)) {
		fprintf(stderr, "%s: bad address\n", addr);
		return 2;
	}
	ch = rdma_create_event_channel();
	if (!ch || rdma_create_id(ch, &id, NULL, RDMA_PS_TCP)) {
		perror("rdma_create_id");
		return 1;
	}
	ret = srv ? server(id, ai->ai_addr) : client(id, ai->ai_addr);
	rdma_destroy_id(id);
	rdma_destroy_event_channel(ch);
	freeaddrinfo(ai);
	return ret;
}
