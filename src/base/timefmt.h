/* timefmt.h: the one way times are printed: seconds with picosecond
 * digits, so output is exact and deterministic. */
#ifndef DLLPCHECK_TIMEFMT_H
#define DLLPCHECK_TIMEFMT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#define TIME_PS_FMT "%" PRIu64 ".%012" PRIu64
#define TIME_PS_ARGS(ps) \
	((uint64_t)((ps) / UINT64_C(1000000000000))), ((uint64_t)((ps) % UINT64_C(1000000000000)))

#endif
