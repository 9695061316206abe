// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * failnth N FILE TEXT: write TEXT to FILE (one write) with the N-th fault
 * injection point this thread passes during it made to fail
 * (/proc/thread-self/fail-nth, Documentation/fault-injection/), then
 * disarm.  Prints "ret=<0 or -errno> injected=<0|1> left=<L>": with
 * nothing injected, the write passed N - L points, so a first run with a
 * large N counts them.  Exit status 0 whatever the write did, 2 if the
 * injection could not be set up.
 *
 * The file is opened before arming and nothing else runs while armed, so
 * the points counted are those of the write alone: for the test ULP's
 * debugfs ctl (tests/ulp/), those of the command, in the caller's context.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char arm[16], left[16] = "";
	int fd, nfd, len, err = 0;
	ssize_t r;

	if (argc != 4 || atoi(argv[1]) < 1) {
		fprintf(stderr, "usage: failnth N FILE TEXT\n");
		return 2;
	}
	fd = open(argv[2], O_WRONLY);
	nfd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0 || nfd < 0) {
		perror("failnth: open");
		return 2;
	}
	len = snprintf(arm, sizeof(arm), "%d", atoi(argv[1]));
	if (write(nfd, arm, len) != len) {
		perror("failnth: arm");
		return 2;
	}
	r = write(fd, argv[3], strlen(argv[3]));
	if (r < 0)
		err = errno;
	/* what is left of N: 0 once the failure was injected */
	if (pread(nfd, left, sizeof(left) - 1, 0) <= 0 ||
	    write(nfd, "0", 1) != 1) {
		perror("failnth: disarm");
		return 2;
	}
	printf("ret=%d injected=%d left=%d\n", -err, atoi(left) == 0,
	       atoi(left));
	return 0;
}
