/* scramble8b10b.c: the scrambling of an 8b/10b link from its idle and its
 * CRCs (scramble8b10b.h). */
#include "read/lanes/scramble8b10b.h"

#include <string.h>

#include "core/record.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

#define IDLE_VOTES 4u

void scramble_detect_init(struct scramble_detect *d, enum lane_scrambling cfg)
{
	d->mode = cfg;
	d->forced = cfg != LANE_SCRAMBLE_AUTO;
	d->vote = LANE_SCRAMBLE_AUTO;
	d->votes = 0;
}

void scramble_idle_vote(struct scramble_detect *d, uint8_t raw, uint8_t key)
{
	enum lane_scrambling v;
	if (d->mode != LANE_SCRAMBLE_AUTO || key == 0)
		return; /* settled, or a key of 00h says nothing */
	if (raw == 0)
		v = LANE_SCRAMBLE_NO;
	else if (raw == key)
		v = LANE_SCRAMBLE_YES;
	else {
		d->votes = 0; /* idle that is neither: no evidence */
		return;
	}
	if (v != d->vote) {
		d->vote = v;
		d->votes = 0;
	}
	if (++d->votes >= IDLE_VOTES)
		d->mode = v;
}

/* The packet's CRC checks (bytes as they are). */
static bool crc_good(enum lane_packet_kind kind, bool nullified, const uint8_t *b, size_t len)
{
	if (kind == LANE_DLLP) {
		uint8_t crc[2];
		if (len != DLLP_WIRE_LEN || nullified)
			return false;
		dllp_crc16_bytes(b, crc);
		return memcmp(crc, b + 4, 2) == 0;
	}
	if (len < 2u + 4u + 4u)
		return false;
	uint8_t lcrc[4];
	tlp_lcrc_bytes(b, len - 4, lcrc);
	if (nullified)
		for (int i = 0; i < 4; i++)
			lcrc[i] = (uint8_t)~lcrc[i];
	return memcmp(lcrc, b + len - 4, 4) == 0;
}

static void xor_keys(uint8_t *b, const uint8_t *keys, size_t len)
{
	for (size_t i = 0; i < len; i++)
		b[i] ^= keys[i];
}

void scramble_packet_vote(struct scramble_detect *d, enum lane_packet_kind kind, bool nullified,
                          uint8_t *bytes, const uint8_t *keys, size_t len)
{
	if (d->mode != LANE_SCRAMBLE_AUTO)
		return;
	bool plain = crc_good(kind, nullified, bytes, len);
	xor_keys(bytes, keys, len);
	bool scrambled = crc_good(kind, nullified, bytes, len);
	xor_keys(bytes, keys, len);
	if (plain != scrambled)
		d->mode = plain ? LANE_SCRAMBLE_NO : LANE_SCRAMBLE_YES;
}
