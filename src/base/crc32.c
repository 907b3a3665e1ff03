/* crc32.c: the CRC-32 register update of crc32.h: table lookups
 * (slicing-by-8) on any CPU, carry-less multiply folding on x86-64 CPUs
 * with PCLMULQDQ.
 * specification: spec-digest.md section 3.2 (the LCRC; the ECRC [3.3] is
 * the same CRC).
 */
#include "base/crc32.h"

#include <stdbool.h>

/* Row 0 of the tables is the byte-at-a-time table. */
#include "base/crc32_slice8.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Slicing-by-8: the register absorbs 4 bytes, and the 8 bytes are looked
 * up at once, each in the row that advances it over the bytes after it.
 * The same register as the byte-at-a-time loop (row 0).  The tail is
 * looked up the same way, four bytes at once (rows 3-0) and then the
 * last 1 to 3 (rows 2-0): the TLP records are 2 bytes more than a whole
 * number of DWs, so most tails are 6 bytes (and 2-14 after the fold),
 * and a byte at a time would cost a dependent lookup each. */
uint32_t crc32_update_portable(uint32_t reg, const uint8_t *p, size_t n)
{
	const uint32_t(*t)[256] = crc32_slice8;

	for (; n >= 8; p += 8, n -= 8) {
		uint32_t lo = reg ^ le32(p), hi = le32(p + 4);

		reg = t[7][lo & 0xFFu] ^ t[6][lo >> 8 & 0xFFu] ^ t[5][lo >> 16 & 0xFFu] ^
		      t[4][lo >> 24] ^ t[3][hi & 0xFFu] ^ t[2][hi >> 8 & 0xFFu] ^
		      t[1][hi >> 16 & 0xFFu] ^ t[0][hi >> 24];
	}
	if (n >= 4) {
		uint32_t w = reg ^ le32(p);

		reg = t[3][w & 0xFFu] ^ t[2][w >> 8 & 0xFFu] ^ t[1][w >> 16 & 0xFFu] ^
		      t[0][w >> 24];
		p += 4;
		n -= 4;
	}
	/* The last 1 to 3 bytes at once too: each looked up in the row that
	 * advances it over the bytes after it, the register's untouched high
	 * bytes shifted down past them. */
	switch (n) {
	case 3: {
		uint32_t w = reg ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16);

		reg = (reg >> 24) ^ t[2][w & 0xFFu] ^ t[1][w >> 8 & 0xFFu] ^ t[0][w >> 16 & 0xFFu];
		break;
	}
	case 2: {
		uint32_t w = reg ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8);

		reg = (reg >> 16) ^ t[1][w & 0xFFu] ^ t[0][w >> 8 & 0xFFu];
		break;
	}
	case 1:
		reg = (reg >> 8) ^ t[0][(reg ^ p[0]) & 0xFFu];
		break;
	default:
		break;
	}
	return reg;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32_HAVE_FOLD 1

#include <immintrin.h>
#include <stdatomic.h>

/* Shorter inputs go through the tables: the fold's fixed cost, the
 * reduction from 128 to 32 bits (five dependent multiplies), is more than
 * the table lookups it saves below about 32 bytes; from 32 to 47 bytes
 * the two take the same time, the fold with fewer instructions. */
#define FOLD_MIN_BYTES 32u

/* Folding constants of the reflected polynomial, from "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ Instruction"
 * (Gopal, Ozturk et al., Intel, 2009) as the Linux kernel's
 * arch/x86/crypto/crc32-pclmul_asm.S (CONSTANT_R1..R5, CONSTANT_RU,
 * CRCPOLY_TRUE_LE_FULL) and Chromium's zlib crc32_simd.c (k1k2, k3k4,
 * k5k0, poly) have them.  Each R is a power of x mod P(x), bit-reflected
 * and shifted left by one for the reflected product:
 *   R1 = x^(4*128+32) mod P, R2 = x^(4*128-32) mod P: 64 bytes forward
 *   R3 = x^(128+32) mod P,   R4 = x^(128-32) mod P:   16 bytes forward
 *   R5 = x^64 mod P:                                  64 -> 32 bits
 *   MU = x^64 / P (the Barrett quotient), P = P(x) itself, 33 bits. */
#define CRC32_R1 0x154442bd4LL
#define CRC32_R2 0x1c6e41596LL
#define CRC32_R3 0x1751997d0LL
#define CRC32_R4 0x0ccaa009eLL
#define CRC32_R5 0x163cd6124LL
#define CRC32_MU 0x1f7011641LL
#define CRC32_P 0x1db710641LL

/* Only these functions use the instructions, so the rest of the program
 * runs on any x86-64; have_fold() checks before the first call. */
#define FOLD_TARGET __attribute__((target("pclmul,sse4.1")))

static inline __m128i load16(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* One step: the 128-bit remainder so far is carried forward past the
 * bytes that k spans (its low half, the earlier bytes, times the k's low
 * constant, its high half times the high one) and the next block is
 * added. */
FOLD_TARGET
static inline __m128i fold(__m128i acc, __m128i k, __m128i next)
{
	__m128i lo = _mm_clmulepi64_si128(acc, k, 0x00);
	__m128i hi = _mm_clmulepi64_si128(acc, k, 0x11);

	return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

/* The register over the whole 16-byte blocks of p (n >= 16), then the
 * tables over the rest.  The register enters XORed into the first 4
 * bytes, as in the table loop.  From 64 bytes on, four lanes 64 bytes
 * apart fold independently (the multiplies of one round overlap; one lane
 * would wait on each), and are then folded into one. */
FOLD_TARGET
static uint32_t crc32_update_fold(uint32_t reg, const uint8_t *p, size_t n)
{
	const __m128i k12 = _mm_set_epi64x(CRC32_R2, CRC32_R1);
	const __m128i k34 = _mm_set_epi64x(CRC32_R4, CRC32_R3);
	const __m128i k5 = _mm_set_epi64x(0, CRC32_R5);
	const __m128i mu_p = _mm_set_epi64x(CRC32_MU, CRC32_P);
	const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i acc = _mm_xor_si128(load16(p), _mm_cvtsi32_si128((int)reg));

	if (n >= 64) {
		__m128i l1 = acc, l2 = load16(p + 16), l3 = load16(p + 32), l4 = load16(p + 48);

		for (p += 64, n -= 64; n >= 64; p += 64, n -= 64) {
			l1 = fold(l1, k12, load16(p));
			l2 = fold(l2, k12, load16(p + 16));
			l3 = fold(l3, k12, load16(p + 32));
			l4 = fold(l4, k12, load16(p + 48));
		}
		acc = fold(fold(fold(l1, k34, l2), k34, l3), k34, l4);
	} else {
		p += 16;
		n -= 16;
	}
	for (; n >= 16; p += 16, n -= 16)
		acc = fold(acc, k34, load16(p));

	/* 128 -> 64 bits: the low half times x^(128-32) onto the high half;
	 * this also appends the 32 zero bits that the CRC's remainder is of. */
	acc = _mm_xor_si128(_mm_srli_si128(acc, 8), _mm_clmulepi64_si128(acc, k34, 0x10));
	/* 64 -> 32 + 32 bits: the low 32 bits times x^64 onto the rest. */
	acc = _mm_xor_si128(_mm_srli_si128(acc, 4),
	                    _mm_clmulepi64_si128(_mm_and_si128(acc, low32), k5, 0x00));
	/* Barrett reduction 64 -> 32 bits: the quotient q by P is the top
	 * 32 bits of the value (the low 32 here, reflected) times MU, and
	 * the remainder, value + q*P, is left in bits 63:32. */
	__m128i q = _mm_clmulepi64_si128(_mm_and_si128(acc, low32), mu_p, 0x10);
	__m128i qp = _mm_clmulepi64_si128(_mm_and_si128(q, low32), mu_p, 0x00);

	reg = (uint32_t)_mm_extract_epi32(_mm_xor_si128(acc, qp), 1);
	return crc32_update_portable(reg, p, n);
}

/* Whether the CPU has PCLMULQDQ and SSE4.1 (pextrd), asked once: 0 not
 * yet known, 1 no, 2 yes.  Threads that race on the first call store the
 * same value. */
static bool have_fold(void)
{
	static atomic_int known;
	int v = atomic_load_explicit(&known, memory_order_relaxed);

	if (v == 0) {
		v = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") ? 2 : 1;
		atomic_store_explicit(&known, v, memory_order_relaxed);
	}
	return v == 2;
}
#endif

uint32_t crc32_update(uint32_t reg, const uint8_t *p, size_t n)
{
#ifdef CRC32_HAVE_FOLD
	if (n >= FOLD_MIN_BYTES && have_fold())
		return crc32_update_fold(reg, p, n);
#endif
	return crc32_update_portable(reg, p, n);
}
