// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cmdemux: the userspace ends of the REQ dispatch benchmark
 * (tests/vm/scenarios/bench_demux.sh, Documentation/performance.rst).
 *
 *   cmdemux bind IP...                 exit 0 once an rdma_cm id binds to
 *                                      every IP (their GIDs are in the
 *                                      table), else 1
 *   cmdemux listen PORT IP...          one rdma_listen() per IP on PORT, so
 *                                      that rdma_cm's own demux picks the
 *                                      listener of each REQ; every connect
 *                                      request is rejected
 *   cmdemux connect COUNT PORT IP...   COUNT connects, one at a time, to
 *                                      the IPs in turn; each waits for the
 *                                      answer, then destroys its id
 *
 * The connecting ids have no QP: only the REQ and its answer matter.
 * connect prints "cmdemux: n=COUNT rejected=R answered=A failed=F".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/rdma_cma.h>

#define TIMEOUT_MS	2000

static void die(const char *what)
{
	fprintf(stderr, "cmdemux: %s: %s\n", what, strerror(errno));
	exit(2);
}

static struct sockaddr_in addr_of(const char *ip, int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };

	if (inet_pton(AF_INET, ip, &sin.sin_addr) != 1) {
		fprintf(stderr, "cmdemux: not an IPv4 address: %s\n", ip);
		exit(2);
	}
	return sin;
}

/* The next event on @ch; its type, acked. */
static enum rdma_cm_event_type next_event(struct rdma_event_channel *ch)
{
	struct rdma_cm_event *ev;
	enum rdma_cm_event_type type;

	if (rdma_get_cm_event(ch, &ev))
		die("rdma_get_cm_event");
	type = ev->event;
	rdma_ack_cm_event(ev);
	return type;
}

static int do_bind(struct rdma_event_channel *ch, int n, char **ips)
{
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		struct sockaddr_in sin = addr_of(ips[i], 0);
		struct rdma_cm_id *id;

		if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP))
			die("rdma_create_id");
		if (rdma_bind_addr(id, (struct sockaddr *)&sin) || !id->verbs)
			bad++;
		rdma_destroy_id(id);
	}
	if (bad)
		printf("cmdemux: %d of %d addresses do not bind\n", bad, n);
	return !!bad;
}

static int do_listen(struct rdma_event_channel *ch, int port, int n, char **ips)
{
	struct rdma_cm_event *ev;
	int i;

	for (i = 0; i < n; i++) {
		struct sockaddr_in sin = addr_of(ips[i], port);
		struct rdma_cm_id *id;

		if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP))
			die("rdma_create_id");
		if (rdma_bind_addr(id, (struct sockaddr *)&sin))
			die(ips[i]);
		if (rdma_listen(id, 1024))
			die("rdma_listen");
	}
	printf("cmdemux: listening n=%d\n", n);
	fflush(stdout);
	for (;;) {
		if (rdma_get_cm_event(ch, &ev))
			die("rdma_get_cm_event");
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			struct rdma_cm_id *child = ev->id;

			rdma_reject(child, NULL, 0);
			rdma_ack_cm_event(ev);
			rdma_destroy_id(child);
		} else {
			rdma_ack_cm_event(ev);
		}
	}
	return 0;
}

/* One connect to @sin; the event that ended it. */
static enum rdma_cm_event_type connect_one(struct rdma_event_channel *ch,
					   struct sockaddr_in *sin,
					   unsigned int qpn)
{
	struct rdma_conn_param param = {
		.retry_count = 7,
		.rnr_retry_count = 7,
		.qp_num = qpn,
	};
	enum rdma_cm_event_type type;
	struct rdma_cm_id *id;

	if (rdma_create_id(ch, &id, NULL, RDMA_PS_TCP))
		die("rdma_create_id");
	type = RDMA_CM_EVENT_ADDR_ERROR;
	if (rdma_resolve_addr(id, NULL, (struct sockaddr *)sin, TIMEOUT_MS))
		goto out;
	type = next_event(ch);
	if (type != RDMA_CM_EVENT_ADDR_RESOLVED)
		goto out;
	type = RDMA_CM_EVENT_ROUTE_ERROR;
	if (rdma_resolve_route(id, TIMEOUT_MS))
		goto out;
	type = next_event(ch);
	if (type != RDMA_CM_EVENT_ROUTE_RESOLVED)
		goto out;
	type = RDMA_CM_EVENT_CONNECT_ERROR;
	if (rdma_connect(id, &param))
		goto out;
	type = next_event(ch);
out:
	rdma_destroy_id(id);
	return type;
}

static int do_connect(struct rdma_event_channel *ch, long count, int port,
		      int n, char **ips)
{
	long i, rejected = 0, answered = 0, failed = 0;

	for (i = 0; i < count; i++) {
		struct sockaddr_in sin = addr_of(ips[i % n], port);

		switch (connect_one(ch, &sin, 0x100 + (i & 0xffff))) {
		case RDMA_CM_EVENT_REJECTED:
			rejected++;
			break;
		case RDMA_CM_EVENT_CONNECT_RESPONSE:
		case RDMA_CM_EVENT_ESTABLISHED:
			answered++;
			break;
		default:
			failed++;
		}
	}
	printf("cmdemux: n=%ld rejected=%ld answered=%ld failed=%ld\n",
	       count, rejected, answered, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *ch;

	if (argc < 3)
		goto usage;
	ch = rdma_create_event_channel();
	if (!ch)
		die("rdma_create_event_channel");
	if (!strcmp(argv[1], "bind"))
		return do_bind(ch, argc - 2, argv + 2);
	if (!strcmp(argv[1], "listen") && argc >= 4)
		return do_listen(ch, atoi(argv[2]), argc - 3, argv + 3);
	if (!strcmp(argv[1], "connect") && argc >= 5)
		return do_connect(ch, atol(argv[2]), atoi(argv[3]), argc - 4,
				  argv + 4);
usage:
	fprintf(stderr, "usage: cmdemux bind IP... | listen PORT IP... | connect N PORT IP...\n");
	return 2;
}
