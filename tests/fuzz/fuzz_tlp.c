/* fuzz_tlp: tlp_decode() on the input.
 *
 *   byte 0   bit 0: has_seq, bit 1: has_lcrc, bit 2: run the encoder
 *            round trip below
 *   byte 1   how much longer than the record the packet was on the wire
 *            (0: not truncated; 1..127: that many bytes; 128..255:
 *            (n - 127) * 64 bytes)
 *   rest     the record bytes, copied to a buffer of exactly their size
 *
 * Invariants: status TLP_OK implies a known kind, one header credit and
 * ceil(payload_dw / 4) data credits; CRC_GOOD implies lcrc_field ==
 * lcrc_expected, CRC_NULLIFIED lcrc_field == ~lcrc_expected; a truncated
 * record is TLP_TRUNCATED with the LCRC absent; without a sequence field
 * the LCRC is absent.
 *
 * With byte 0 bit 2, bytes 2..6 also describe a tlp_spec; tlp_encode()
 * builds it and tlp_decode() must read it back: status OK, same kind, TC,
 * TD, sequence number, payload, LCRC good (or nullified when asked).
 * A violated invariant traps (__builtin_trap). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "wire/tlp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_tlp(const struct tlp *t, size_t len, size_t wire_len,
                      bool has_seq, bool has_lcrc, enum tlp_status st)
{
	FUZZ_ASSERT(st == t->status);
	FUZZ_ASSERT((unsigned)t->status <= TLP_ERR_TOO_LONG);
	FUZZ_ASSERT((unsigned)t->kind < TLP_KIND_COUNT);
	FUZZ_ASSERT(t->has_seq == has_seq);
	FUZZ_ASSERT(t->prefix_count <= TLP_PREFIX_MAX);
	FUZZ_ASSERT(t->prefix_local_count <= t->prefix_count);
	FUZZ_ASSERT(tlp_kind_name(t->kind) != NULL);
	FUZZ_ASSERT(tlp_status_text(t->status) != NULL);
	if (t->status == TLP_OK) {
		FUZZ_ASSERT(t->kind != TLP_KIND_UNKNOWN);
		FUZZ_ASSERT((unsigned)t->fc_class < FC_CLASS_COUNT);
		FUZZ_ASSERT(t->hdr_credits == 1);
		FUZZ_ASSERT(t->data_credits == (t->payload_dw + 3) / 4);
		FUZZ_ASSERT(t->payload_dw == (t->has_data ? t->length_dw : 0u));
		FUZZ_ASSERT(t->length_dw >= 1 && t->length_dw <= 1024);
		FUZZ_ASSERT(t->hdr_dw == 3 || t->hdr_dw == 4);
		FUZZ_ASSERT(t->tc <= 7);
		/* the bytes add up: seq, prefixes, header, payload, digest, LCRC */
		size_t expect = (has_seq ? 2u : 0u) + 4u * t->prefix_count +
		                4u * t->hdr_dw + 4u * t->payload_dw +
		                (t->td ? 4u : 0u) + (has_lcrc ? 4u : 0u);
		FUZZ_ASSERT(expect == len);
	}
	switch (t->lcrc) {
	case CRC_GOOD:
		FUZZ_ASSERT(t->lcrc_field == t->lcrc_expected);
		break;
	case CRC_NULLIFIED:
		FUZZ_ASSERT(t->lcrc_field == ~t->lcrc_expected);
		break;
	case CRC_BAD:
		FUZZ_ASSERT(t->lcrc_field != t->lcrc_expected &&
		            t->lcrc_field != ~t->lcrc_expected);
		break;
	case CRC_ABSENT:
		break;
	}
	if (wire_len > len) {
		FUZZ_ASSERT(t->status == TLP_TRUNCATED);
		FUZZ_ASSERT(t->lcrc == CRC_ABSENT);
	} else {
		FUZZ_ASSERT(t->status != TLP_TRUNCATED);
	}
	if (!has_seq || !has_lcrc)
		FUZZ_ASSERT(t->lcrc == CRC_ABSENT);
	if (has_seq && t->status != TLP_ERR_TOO_SHORT)
		FUZZ_ASSERT(t->seq <= 0xFFF && t->seq_reserved <= 0xF);
}

static void round_trip(const uint8_t *p)
{
	struct tlp_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.kind = (enum tlp_kind)(p[0] % TLP_KIND_UNKNOWN);
	spec.addr64 = p[0] & 0x80;
	spec.length_dw = (uint16_t)(((p[1] | p[2] << 8) & 0x3FF) + 1);
	spec.tc = p[2] >> 2 & 7;
	spec.td = p[2] & 0x20;
	spec.has_seq = p[2] & 0x40;
	spec.has_lcrc = p[2] & 0x80;
	spec.seq = (uint16_t)((p[3] | p[4] << 8) & 0xFFF);
	spec.nullify = p[4] & 0x10;
	spec.msg_routing = (uint8_t)((p[4] >> 5) % 6); /* 110b, 111b reserved */

	static uint8_t buf[TLP_MAX_RECORD_LEN];
	size_t n = tlp_encode(&spec, buf, sizeof(buf));
	FUZZ_ASSERT(n > 0);
	uint8_t *copy = malloc(n);
	FUZZ_ASSERT(copy != NULL);
	memcpy(copy, buf, n);

	struct tlp t;
	enum tlp_status st = tlp_decode(copy, n, n, spec.has_seq, spec.has_lcrc, &t);
	check_tlp(&t, n, n, spec.has_seq, spec.has_lcrc, st);
	FUZZ_ASSERT(st == TLP_OK);
	FUZZ_ASSERT(t.kind == spec.kind);
	FUZZ_ASSERT(t.tc == spec.tc && t.td == spec.td);
	if (spec.has_seq)
		FUZZ_ASSERT(t.seq == spec.seq);
	if (t.has_data)
		FUZZ_ASSERT(t.payload_dw == spec.length_dw);
	if (spec.has_seq && spec.has_lcrc)
		FUZZ_ASSERT(t.lcrc == (spec.nullify ? CRC_NULLIFIED : CRC_GOOD));
	if (t.kind == TLP_MSG || t.kind == TLP_MSGD)
		FUZZ_ASSERT(t.msg_routing == spec.msg_routing);

	/* the mnemonic reads back as the kind */
	const char *mn = tlp_mnemonic(spec.kind, spec.addr64);
	enum tlp_kind k;
	bool a64;
	FUZZ_ASSERT(mn != NULL);
	FUZZ_ASSERT(tlp_mnemonic_parse(mn, strlen(mn), &k, &a64));
	FUZZ_ASSERT(k == spec.kind);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	bool has_seq = data[0] & 1, has_lcrc = data[0] & 2;
	size_t extra = data[1] < 128 ? data[1] : (size_t)(data[1] - 127) * 64;
	size_t len = size - 2;
	size_t wire_len = len + extra;

	/* exactly len bytes on the heap: ASan sees any read past them */
	uint8_t *bytes = len ? malloc(len) : NULL;
	if (len) {
		FUZZ_ASSERT(bytes != NULL);
		memcpy(bytes, data + 2, len);
	}
	struct tlp t;
	memset(&t, 0x5A, sizeof(t));
	enum tlp_status st = tlp_decode(bytes, len, wire_len, has_seq, has_lcrc, &t);
	check_tlp(&t, len, wire_len, has_seq, has_lcrc, st);
	free(bytes);

	if ((data[0] & 4) && size >= 7)
		round_trip(data + 2);
	return 0;
}
