/* crc32.h: the register update of the reflected CRC-32 (polynomial
 * 04C11DB7h mirrored to EDB88320h, the zlib/Ethernet CRC) that the LCRC
 * and the ECRC use [3.2].  The caller starts the register at FFFFFFFFh
 * and complements it at the end: neither is done here, so that a CRC over
 * pieces is a chain of updates.
 */
#ifndef DLLPCHECK_CRC32_H
#define DLLPCHECK_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The register after absorbing the n bytes at p (p is not read when n is
 * 0, so it may be NULL).  Carry-less multiply folding on x86-64 CPUs that
 * have PCLMULQDQ, otherwise crc32_update_portable(): the same result. */
uint32_t crc32_update(uint32_t reg, const uint8_t *p, size_t n);

/* The same by table lookups (slicing-by-8), on any CPU; exported so that
 * the tests compare the two. */
uint32_t crc32_update_portable(uint32_t reg, const uint8_t *p, size_t n);

#endif
