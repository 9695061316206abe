// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rdsecho: RDS datagrams over the kernel's rds_rdma transport, whose
 * connections rdma_cm sets up (and so, on a drop-in guest, pdcm's
 * ib_cm), for the ULP scenario of RDS (Documentation/ibcm.rst).  Debian
 * ships no RDS userspace (no rds-tools), hence this.
 *
 *   rdsecho -s ADDR [-p PORT] [-n N]        server: echo N messages back
 *   rdsecho -c ADDR PEER [-p PORT] [-n N]   client: send N numbered 4 KiB
 *                                           messages, read each echo,
 *                                           compare
 *
 * Both sockets are bound to the RDMA transport (SO_RDS_TRANSPORT
 * RDS_TRANS_IB): if rds_rdma cannot carry them, bind() fails rather than
 * RDS falling back to TCP.  Prints "rdsecho: N messages ok" and exits 0,
 * or says what went wrong and exits 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/rds.h>

#ifndef AF_RDS
#define AF_RDS		21
#endif
#ifndef SOL_RDS
#define SOL_RDS		276
#endif
#define MSG_LEN		4096
#define WAIT_MS		60000

static void fill(unsigned char *buf, unsigned int seq)
{
	unsigned int i;

	for (i = 0; i < MSG_LEN; i++)
		buf[i] = (unsigned char)(seq * 131 + i * 7);
	memcpy(buf, &seq, sizeof(seq));
}

static int open_rds(const char *addr, int port)
{
	int tr = RDS_TRANS_IB, fd;
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };

	fd = socket(AF_RDS, SOCK_SEQPACKET, 0);
	if (fd < 0) {
		perror("rdsecho: socket(AF_RDS)");
		return -1;
	}
	if (setsockopt(fd, SOL_RDS, SO_RDS_TRANSPORT, &tr, sizeof(tr))) {
		perror("rdsecho: SO_RDS_TRANSPORT");
		return -1;
	}
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		fprintf(stderr, "rdsecho: bad address %s\n", addr);
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		perror("rdsecho: bind");
		return -1;
	}
	return fd;
}

/* one message into buf within WAIT_MS, its sender in *from */
static int recv_one(int fd, unsigned char *buf, struct sockaddr_in *from)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	socklen_t len = sizeof(*from);
	ssize_t n;

	if (poll(&p, 1, WAIT_MS) != 1) {
		fprintf(stderr, "rdsecho: nothing received in %d ms\n", WAIT_MS);
		return -1;
	}
	n = recvfrom(fd, buf, MSG_LEN, 0, (struct sockaddr *)from, &len);
	if (n != MSG_LEN) {
		fprintf(stderr, "rdsecho: received %zd bytes, expected %d: %s\n",
			n, MSG_LEN, n < 0 ? strerror(errno) : "");
		return -1;
	}
	return 0;
}

/* sendto, retried while RDS's send buffer is full */
static int send_one(int fd, const unsigned char *buf, const struct sockaddr_in *to)
{
	int tries;

	for (tries = 0; tries < 6000; tries++) {
		if (sendto(fd, buf, MSG_LEN, 0, (const struct sockaddr *)to,
			   sizeof(*to)) == MSG_LEN)
			return 0;
		if (errno != ENOBUFS && errno != EAGAIN && errno != ENOMEM)
			break;
		usleep(10000);
	}
	perror("rdsecho: sendto");
	return -1;
}

int main(int argc, char **argv)
{
	static unsigned char buf[MSG_LEN], want[MSG_LEN];
	const char *mode = NULL, *addr = NULL, *peer = NULL;
	int port = 18634, n = 100, i, fd, opt;
	struct sockaddr_in to = { .sin_family = AF_INET }, from;

	while ((opt = getopt(argc, argv, "s:c:p:n:")) != -1) {
		switch (opt) {
		case 's':
		case 'c':
			mode = opt == 's' ? "server" : "client";
			addr = optarg;
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'n':
			n = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (!mode || (mode[0] == 'c' && optind >= argc)) {
		fprintf(stderr, "usage: rdsecho -s ADDR | -c ADDR PEER [-p PORT] [-n N]\n");
		return 2;
	}
	fd = open_rds(addr, mode[0] == 's' ? port : port + 1);
	if (fd < 0)
		return 1;
	if (mode[0] == 's') {
		for (i = 0; i < n; i++) {
			if (recv_one(fd, buf, &from) || send_one(fd, buf, &from))
				return 1;
		}
		printf("rdsecho: %d messages ok\n", n);
		return 0;
	}
	peer = argv[optind];
	to.sin_port = htons(port);
	if (inet_pton(AF_INET, peer, &to.sin_addr) != 1) {
		fprintf(stderr, "rdsecho: bad address %s\n", peer);
		return 1;
	}
	for (i = 0; i < n; i++) {
		fill(want, i);
		if (send_one(fd, want, &to) || recv_one(fd, buf, &from))
			return 1;
		if (memcmp(buf, want, MSG_LEN)) {
			fprintf(stderr, "rdsecho: echo %d differs\n", i);
			return 1;
		}
	}
	printf("rdsecho: %d messages ok\n", n);
	return 0;
}
