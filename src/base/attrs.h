/* attrs.h: the compiler attributes dllpcheck uses, empty where the
 * compiler has none. */
#ifndef DLLPCHECK_ATTRS_H
#define DLLPCHECK_ATTRS_H

#if defined(__GNUC__) || defined(__clang__)
/* printf-style arguments checked against the format */
#define PRINTF_LIKE(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
/* For the code that reports a problem (a finding, a malformed record):
 * out of line and laid out apart, so that the path every good record
 * takes stays short. */
#define COLD_PATH __attribute__((cold, noinline))
/* A step of the per-record path shared by two callers (the pcap readers'
 * framing: our encapsulation and another tool's), inlined into both so
 * that the common one pays no call. */
#define HOT_INLINE inline __attribute__((always_inline))
#else
#define PRINTF_LIKE(fmt_index, first_arg)
#define COLD_PATH
#define HOT_INLINE inline
#endif

#endif
