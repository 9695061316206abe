// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rocetos [-v] IFACE SECONDS: count the RoCE v2 packets that cross IFACE
 * for SECONDS (or until SIGTERM/SIGINT), by direction, by what they carry
 * -- CM MADs (BTH destination QP 1) or connection traffic (any other QP) --
 * and by IPv4 TOS / IPv6 traffic class, then print one line per group:
 *
 *   out data tos 0x68 packets 42
 *   in mad tos 0x00 packets 3
 *
 * With -v, by 802.1Q VLAN ID instead of TOS ("none": untagged), for the
 * parent netdev of a VLAN, where both kinds of frames cross:
 *
 *   out mad vlan 100 packets 4
 *   in data vlan none packets 2
 *
 * A frame's tag is in its bytes, or (a received frame, whose tag the stack
 * has stripped, or one sent with the tag offloaded) in the packet's
 * auxiliary data (PACKET_AUXDATA).
 *
 * A guest-side probe for the traffic class a QP sends with (Documentation/
 * interop.rst): rxe puts its address's traffic class into the IP header.
 * Packets are read from an AF_PACKET socket bound to IFACE; RoCE v2 is
 * UDP to port 4791, over Ethernet with or without one VLAN tag.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ROCEV2_PORT	4791
#define BTH_LEN		12

#define NO_VLAN		4096	/* untagged, in vlan_counts */

/* [direction][mad?][tos] */
static unsigned long counts[2][2][256];
/* [direction][mad?][VLAN ID or NO_VLAN] */
static unsigned long vlan_counts[2][2][NO_VLAN + 1];
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * The TOS and the BTH's destination QP of a RoCE v2 frame, and its VLAN ID
 * if it carries a tag (else *vlan is left alone), or -1.
 */
static int parse(const uint8_t *p, size_t len, uint8_t *tos, uint32_t *dqp,
		 unsigned int *vlan)
{
	const uint8_t *udp, *bth;
	uint16_t type;
	size_t off = 12;

	if (len < off + 2)
		return -1;
	type = p[off] << 8 | p[off + 1];
	off += 2;
	if (type == ETH_P_8021Q) {
		if (len < off + 4)
			return -1;
		*vlan = (p[off] << 8 | p[off + 1]) & 0xfff;
		type = p[off + 2] << 8 | p[off + 3];
		off += 4;
	}
	if (type == ETH_P_IP) {
		size_t ihl;

		if (len < off + 20 || (p[off] >> 4) != 4 || p[off + 9] != IPPROTO_UDP)
			return -1;
		ihl = (p[off] & 0xf) * 4;
		*tos = p[off + 1];
		udp = p + off + ihl;
	} else if (type == ETH_P_IPV6) {
		if (len < off + 40 || (p[off] >> 4) != 6 || p[off + 6] != IPPROTO_UDP)
			return -1;
		*tos = (p[off] & 0xf) << 4 | p[off + 1] >> 4;
		udp = p + off + 40;
	} else {
		return -1;
	}
	if ((size_t)(udp - p) + 8 + BTH_LEN > len)
		return -1;
	if ((udp[2] << 8 | udp[3]) != ROCEV2_PORT)
		return -1;
	bth = udp + 8;
	*dqp = (uint32_t)bth[5] << 16 | bth[6] << 8 | bth[7];
	return 0;
}

/* The VLAN ID the stack saw on a frame (its auxiliary data), or NO_VLAN. */
static unsigned int aux_vlan(struct msghdr *msg)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		struct tpacket_auxdata aux;

		if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA)
			continue;
		memcpy(&aux, CMSG_DATA(c), sizeof(aux));
		if (aux.tp_status & TP_STATUS_VLAN_VALID)
			return aux.tp_vlan_tci & 0xfff;
	}
	return NO_VLAN;
}

static void print_counts(int by_vlan)
{
	int d, m, k;

	for (d = 1; d >= 0; d--)
		for (m = 0; m < 2; m++) {
			const char *dir = d ? "out" : "in";
			const char *what = m ? "mad" : "data";

			for (k = 0; !by_vlan && k < 256; k++)
				if (counts[d][m][k])
					printf("%s %s tos 0x%02x packets %lu\n",
					       dir, what, k, counts[d][m][k]);
			for (k = 0; by_vlan && k <= NO_VLAN; k++) {
				if (!vlan_counts[d][m][k])
					continue;
				if (k == NO_VLAN)
					printf("%s %s vlan none packets %lu\n",
					       dir, what, vlan_counts[d][m][k]);
				else
					printf("%s %s vlan %d packets %lu\n",
					       dir, what, k, vlan_counts[d][m][k]);
			}
		}
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct pollfd pfd;
	struct timespec t0, t;
	uint8_t buf[9000];
	char cbuf[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	int by_vlan = 0, one = 1;
	double secs;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "-v")) {
		by_vlan = 1;
		argc--;
		argv++;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s [-v] IFACE SECONDS\n", argv[0]);
		return 2;
	}
	secs = atof(argv[2]);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	if (setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one))) {
		perror("PACKET_AUXDATA");
		return 1;
	}
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex(argv[1]);
	if (!sll.sll_ifindex || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror(argv[1]);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	/* ready: the caller may start the traffic */
	printf("listening on %s\n", argv[1]);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (!stop) {
		struct sockaddr_ll from;
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr msg = {
			.msg_name = &from, .msg_namelen = sizeof(from),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		unsigned int vlan;
		uint32_t dqp;
		uint8_t tc;
		ssize_t n;
		int out;

		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 >= secs)
			break;
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = recvmsg(fd, &msg, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			perror("recvmsg");
			return 1;
		}
		vlan = aux_vlan(&msg);
		if (parse(buf, n, &tc, &dqp, &vlan))
			continue;
		out = from.sll_pkttype == PACKET_OUTGOING;
		counts[out][dqp == 1][tc]++;
		vlan_counts[out][dqp == 1][vlan]++;
	}
	print_counts(by_vlan);
	return 0;
}
