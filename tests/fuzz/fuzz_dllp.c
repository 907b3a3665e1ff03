/* fuzz_dllp: dllp_decode() on the input, with and without CRC, at every
 * length 0..8 (only 6 with CRC and 4 without decode); names of what was
 * decoded; and, on the first 6 bytes, the encode/decode round trip:
 *
 *   d1 = decode(x), y = encode(d1), d2 = decode(y), z = encode(d2)
 *   - d2 has d1's typed fields (type, type byte, seq, FC fields, feature
 *     fields; the content too except for Ack/Nak, whose reserved bits
 *     encode drops), a good CRC, and z == y (encode is a fixed point);
 *   - y == x whenever x had a good CRC and no reserved Ack/Nak bits set;
 *   - the 4-byte (no CRC) decode of x agrees with the 6-byte one.
 * A violated invariant traps (__builtin_trap). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire/dllp.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static void check_names(const struct dllp *d)
{
	const char *n = dllp_name(d);
	FUZZ_ASSERT(n != NULL && n[0] != '\0');
	n = dllp_type_name(d->type);
	FUZZ_ASSERT(n != NULL && n[0] != '\0');
	n = fc_class_name(d->fc_class);
	FUZZ_ASSERT(n != NULL && n[0] != '\0');
}

static void check_decoded(const struct dllp *d)
{
	FUZZ_ASSERT((unsigned)d->type < DLLP_TYPE_COUNT);
	FUZZ_ASSERT((unsigned)d->fc_class < FC_CLASS_COUNT);
	FUZZ_ASSERT(d->content <= 0xFFFFFFu);
	FUZZ_ASSERT(d->acknak_seq <= 0xFFFu);
	FUZZ_ASSERT(d->vc <= 7 && d->hdr_scale <= 3 && d->data_scale <= 3);
	FUZZ_ASSERT(d->data_fc <= 0xFFFu);
	FUZZ_ASSERT(d->feature_support <= 0x7FFFFFu);
	if (d->crc == CRC_GOOD)
		FUZZ_ASSERT(d->crc_field == d->crc_expected);
	if (d->crc == CRC_BAD)
		FUZZ_ASSERT(d->crc_field != d->crc_expected);
	FUZZ_ASSERT(d->crc == CRC_GOOD || d->crc == CRC_BAD || d->crc == CRC_ABSENT);
	check_names(d);
}

static bool same_fields(const struct dllp *a, const struct dllp *b)
{
	if (a->type != b->type || a->type_byte != b->type_byte)
		return false;
	if (a->acknak_seq != b->acknak_seq || a->fc_class != b->fc_class ||
	    a->vc != b->vc || a->hdr_scale != b->hdr_scale ||
	    a->hdr_fc != b->hdr_fc || a->data_scale != b->data_scale ||
	    a->data_fc != b->data_fc || a->feature_ack != b->feature_ack ||
	    a->feature_support != b->feature_support)
		return false;
	if (a->type == DLLP_ACK || a->type == DLLP_NAK)
		return (a->content & 0xFFFu) == (b->content & 0xFFFu);
	return a->content == b->content;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dllp d;
	size_t max = size < 8 ? size : 8;

	/* every length: exactly the one form decodes, nothing else is read
	 * (the input buffer is exactly size bytes: ASan checks the reads) */
	for (size_t len = 0; len <= max; len++) {
		for (int crc = 0; crc <= 1; crc++) {
			memset(&d, 0xA5, sizeof(d));
			enum dllp_decode_status st = dllp_decode(data, len, crc, &d);
			size_t want = crc ? DLLP_WIRE_LEN : DLLP_CONTENT_LEN;
			if (len < want)
				FUZZ_ASSERT(st == DLLP_DECODE_SHORT);
			else if (len > want)
				FUZZ_ASSERT(st == DLLP_DECODE_LONG);
			else
				FUZZ_ASSERT(st == DLLP_DECODE_OK);
			if (st != DLLP_DECODE_OK) {
				FUZZ_ASSERT(all_zero(&d, sizeof(d)));
				continue;
			}
			check_decoded(&d);
			FUZZ_ASSERT(d.type_byte == data[0]);
			if (!crc)
				FUZZ_ASSERT(d.crc == CRC_ABSENT);
			else
				FUZZ_ASSERT(d.crc == CRC_GOOD || d.crc == CRC_BAD);
		}
	}

	if (size < DLLP_WIRE_LEN)
		return 0;

	/* the round trip on the first 6 bytes */
	uint8_t x[DLLP_WIRE_LEN], y[DLLP_WIRE_LEN], z[DLLP_WIRE_LEN];
	memcpy(x, data, sizeof(x));
	struct dllp d1, d2, d4;
	FUZZ_ASSERT(dllp_decode(x, 6, true, &d1) == DLLP_DECODE_OK);
	dllp_encode(&d1, y);
	FUZZ_ASSERT(dllp_decode(y, 6, true, &d2) == DLLP_DECODE_OK);
	FUZZ_ASSERT(d2.crc == CRC_GOOD);
	FUZZ_ASSERT(same_fields(&d1, &d2));
	dllp_encode(&d2, z);
	FUZZ_ASSERT(memcmp(y, z, sizeof(y)) == 0);
	if (d1.crc == CRC_GOOD &&
	    !((d1.type == DLLP_ACK || d1.type == DLLP_NAK) && d1.content > 0xFFFu))
		FUZZ_ASSERT(memcmp(x, y, sizeof(x)) == 0);

	/* the CRC the encoder wrote is the one dllp_crc16_bytes() gives */
	uint8_t crc[2];
	dllp_crc16_bytes(y, crc);
	FUZZ_ASSERT(crc[0] == y[4] && crc[1] == y[5]);
	FUZZ_ASSERT(d1.crc_expected == (uint16_t)(crc[0] << 8 | crc[1]) ||
	            memcmp(x, y, 4) != 0);

	/* without the CRC: the same fields, CRC absent, same expected CRC */
	FUZZ_ASSERT(dllp_decode(x, 4, false, &d4) == DLLP_DECODE_OK);
	FUZZ_ASSERT(d4.crc == CRC_ABSENT);
	FUZZ_ASSERT(same_fields(&d1, &d4) && d1.content == d4.content);
	FUZZ_ASSERT(d4.crc_expected == d1.crc_expected);

	/* an FC DLLP's type byte is what dllp_fc_type_byte() builds */
	if (dllp_is_fc(d1.type))
		FUZZ_ASSERT(dllp_fc_type_byte(d1.type, d1.fc_class, d1.vc) == x[0]);
	return 0;
}
