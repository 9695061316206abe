/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * softib_ibcm's bench mode (bench.c), called from its ctl file (ibcm.c).
 */
#ifndef _SOFTIB_BENCH_H
#define _SOFTIB_BENCH_H

#include <rdma/ib_verbs.h>

void sib_bench_run(struct ib_device *dev, u32 pa, u32 pb, u32 n, u32 conc,
		   bool hold, char *line);

#endif /* _SOFTIB_BENCH_H */
