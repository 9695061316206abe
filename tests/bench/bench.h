/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The three listen tables pdcm_bench.ko times, behind one small interface.
 * Each lookup does what a CM does with its answer: it takes a reference
 * on the listen it finds and the caller's side drops it again.
 */
#ifndef _PDCM_BENCH_H
#define _PDCM_BENCH_H

#include <linux/types.h>
#include <rdma/pdcm.h>

struct ib_device;

/* Request private data is laid out at this stride, 8-byte aligned. */
#define BENCH_PD_STRIDE	96

/**
 * struct bench_ops - one listen table implementation
 * @name: column title
 * @create: an empty table, or NULL
 * @destroy: free the table and every listen in it
 * @insert: add a listen on @dev; @cmp NULL is a wildcard; 0 or a
 *	negative errno (the table's own verdict)
 * @lookup: the context of the listen a request reaches, or NULL
 */
struct bench_ops {
	const char *name;
	void *(*create)(void);
	void (*destroy)(void *tab);
	int (*insert)(void *tab, struct ib_device *dev, __be64 sid,
		      const struct pdcm_compare *cmp, void *ctx);
	void *(*lookup)(void *tab, struct ib_device *dev, u32 port,
			__be64 sid, const u8 *pdata);
};

extern const struct bench_ops bench_linear_ops;
extern const struct bench_ops bench_rb2006_ops;

#endif /* _PDCM_BENCH_H */
