// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The one place that instantiates pdcm's tracepoints (trace.h). */
#define CREATE_TRACE_POINTS
#include "trace.h"
