/* decode_print.c: the --decode listing.  One line per record:
 *
 *   RECORD TIME linkN DIR KIND fields... crc-status
 *
 * A TLP's fields: seq, prefixes, the mnemonic (and a message's routing),
 * tc, len, td, ep, the header fields of the transaction (req= tag= and
 * the kind's own), the flow-control class and cost, ecrc= when TD, lcrc=.
 *
 * Deterministic: no wall-clock time, numbers in fixed formats. */
#include <inttypes.h>

#include "base/timefmt.h"
#include "report/decode_print.h"
#include "wire/fc_arith.h"

static const char *const scale_suffix[4] = { "", "[x1]", "[x4]", "[x16]" };

/* An FC field: "inf" for a zero at initialisation [5.4], else the credit
 * count it stands for (field << 0/2/4 [1.5]). */
static void print_fc_field(FILE *out, const char *name, unsigned field, unsigned scale,
                           bool is_init)
{
	if (field == 0 && is_init)
		fprintf(out, " %s=inf%s", name, scale_suffix[scale]);
	else
		fprintf(out, " %s=%u%s", name, field << fc_scale_shift(scale), scale_suffix[scale]);
}

static void print_crc16(FILE *out, const struct dllp *d)
{
	switch (d->crc) {
	case CRC_GOOD:
		fputs(" crc=ok", out);
		break;
	case CRC_BAD:
		fprintf(out, " crc=BAD(0x%04X,expected=0x%04X)", d->crc_field, d->crc_expected);
		break;
	default:
		fputs(" crc=none", out);
		break;
	}
}

static void print_dllp(FILE *out, const struct dllp *d)
{
	fprintf(out, " DLLP %s", dllp_name(d));
	switch (d->type) {
	case DLLP_ACK:
	case DLLP_NAK:
		fprintf(out, " seq=0x%03X", d->acknak_seq);
		break;
	case DLLP_INITFC1:
	case DLLP_INITFC2:
	case DLLP_UPDATEFC: {
		bool is_init = d->type != DLLP_UPDATEFC;
		fprintf(out, " vc=%u", d->vc);
		print_fc_field(out, "hdr", d->hdr_fc, d->hdr_scale, is_init);
		print_fc_field(out, "data", d->data_fc, d->data_scale, is_init);
		break;
	}
	case DLLP_FEATURE:
		fprintf(out, " ack=%d supported=0x%06" PRIX32 "%s", d->feature_ack ? 1 : 0,
		        d->feature_support, d->feature_support & 1u ? " (scaled-fc)" : "");
		break;
	case DLLP_PM_ENTER_L1:
	case DLLP_PM_ENTER_L23:
	case DLLP_PM_AS_REQUEST_L1:
	case DLLP_PM_REQUEST_ACK:
		if (d->content)
			fprintf(out, " reserved=0x%06" PRIX32, d->content);
		break;
	case DLLP_NOP:
	case DLLP_VENDOR:
		fprintf(out, " data=0x%06" PRIX32, d->content);
		break;
	default:
		fprintf(out, " type=0x%02X data=0x%06" PRIX32, d->type_byte, d->content);
		break;
	}
	print_crc16(out, d);
}

static bool is_config(enum tlp_kind kind)
{
	return kind == TLP_CFGRD0 || kind == TLP_CFGWR0 || kind == TLP_CFGRD1 || kind == TLP_CFGWR1;
}

static bool is_atomic(enum tlp_kind kind)
{
	return kind == TLP_FETCHADD || kind == TLP_SWAP || kind == TLP_CAS;
}

/* What a transaction is followed by [spec-digest 4.1], written as the
 * text trace's keys (man dllpcheck-capture(5)) so that a line can be
 * copied back into a trace: the transaction ID (req=, tag=) first, then
 * the address and byte enables of a request (none for AtomicOps, where
 * they are reserved), the target and register of a configuration one,
 * the code of a message, the completer, status, Byte Count and Lower
 * Address of a completion.  Only with the whole header in the record. */
static void print_tlp_header(FILE *out, const struct tlp *t)
{
	const char *name;

	if (!t->header_known || t->kind == TLP_KIND_UNKNOWN)
		return;
	fprintf(out, " req=%04X tag=0x%02X", t->requester_id, t->tag);
	if (tlp_kind_is_completion(t->kind)) {
		fprintf(out, " completer=%04X", t->completer_id);
		name = tlp_cpl_status_name(t->cpl_status);
		if (t->cpl_status == TLP_CPL_SC || t->cpl_status == TLP_CPL_UR ||
		    t->cpl_status == TLP_CPL_CRS || t->cpl_status == TLP_CPL_CA)
			fprintf(out, " status=%s", name);
		else
			fprintf(out, " status=%u", t->cpl_status); /* reserved */
		if (t->bcm)
			fputs(" bcm", out);
		fprintf(out, " bc=%u la=0x%02X", tlp_byte_count(t->byte_count_field),
		        t->lower_address);
	} else if (tlp_kind_is_message(t->kind)) {
		name = tlp_msg_code_name(t->msg_code);
		if (name)
			fprintf(out, " code=%s", name);
		else
			fprintf(out, " code=0x%02X", t->msg_code);
	} else if (is_config(t->kind)) {
		fprintf(out, " target=%04X reg=0x%03X fbe=%X lbe=%X", t->target_id, t->cfg_register,
		        t->first_be, t->last_be);
	} else {
		if (t->hdr_dw == 4)
			fprintf(out, " addr=0x%016" PRIX64, t->address);
		else
			fprintf(out, " addr=0x%08" PRIX64, t->address);
		if (!is_atomic(t->kind))
			fprintf(out, " fbe=%X lbe=%X", t->first_be, t->last_be);
	}
}

/* The TLP Digest [3.3], when TD says there is one: none when it was not
 * checked (a truncated or malformed TLP). */
/* " lcrc=ok", " ecrc=BAD(0x...,expected=0x...)", ...: a 32-bit CRC's
 * status as the text listing spells it. */
static void print_crc32(FILE *out, const char *name, enum crc_status status, uint32_t field,
                        uint32_t expected)
{
	switch (status) {
	case CRC_GOOD:
		fprintf(out, " %s=ok", name);
		break;
	case CRC_NULLIFIED:
		fprintf(out, " %s=nullified", name);
		break;
	case CRC_BAD:
		fprintf(out, " %s=BAD(0x%08" PRIX32 ",expected=0x%08" PRIX32 ")", name, field,
		        expected);
		break;
	default:
		fprintf(out, " %s=none", name);
		break;
	}
}

static void print_ecrc(FILE *out, const struct tlp *t)
{
	if (t->td)
		print_crc32(out, "ecrc", t->ecrc, t->ecrc_field, t->ecrc_expected);
}

static void print_tlp(FILE *out, const struct tlp *t, bool truncated)
{
	fputs(" TLP", out);
	if (t->seq_present) /* not for a record cut before its sequence field */
		fprintf(out, " seq=0x%03X", t->seq);
	if (t->prefix_count) {
		fputs(" prefix=[", out);
		for (unsigned i = 0; i < t->prefix_count; i++)
			fprintf(out, "%s0x%02X", i ? "," : "", t->prefix_type[i]);
		fputc(']', out);
	}
	if (t->kind == TLP_KIND_UNKNOWN)
		fprintf(out, " fmt=%u type=0x%02X", t->fmt, t->type);
	else
		fprintf(out, " %s", tlp_mnemonic(t->kind, t->hdr_dw == 4));
	if (t->kind == TLP_MSG || t->kind == TLP_MSGD)
		fprintf(out, " route=%s", tlp_msg_routing_name(t->msg_routing));
	fprintf(out, " tc=%u", t->tc);
	/* Length is reserved in TLPs that neither carry nor request data
	 * (Cpl, CplLk, Msg) [4.1]: print it only where it means something. */
	if (t->has_data || t->fc_class == FC_NP || t->kind == TLP_KIND_UNKNOWN)
		fprintf(out, " len=%u", t->length_dw);
	if (t->td)
		fputs(" td", out);
	if (t->ep)
		fputs(" ep", out);
	print_tlp_header(out, t);
	if (t->kind != TLP_KIND_UNKNOWN && t->status == TLP_OK)
		fprintf(out, " %s %sH=%u %sD=%u", fc_class_name(t->fc_class),
		        fc_class_name(t->fc_class), t->hdr_credits, fc_class_name(t->fc_class),
		        t->data_credits);
	if (t->status != TLP_OK && !truncated)
		fprintf(out, " malformed(%s)", tlp_status_text(t->status));
	print_ecrc(out, t);
	print_crc32(out, "lcrc", t->lcrc, t->lcrc_field, t->lcrc_expected);
}

void decode_print_packet(FILE *out, const struct packet *pkt)
{
	const struct record *rec = pkt->rec;
	fprintf(out, "%" PRIu64 " " TIME_PS_FMT " link%u %s", rec->pos.record_no,
	        TIME_PS_ARGS(rec->time_ps), rec->link, link_dir_name(rec->dir));
	switch (rec->kind) {
	case REC_DLLP:
		if (pkt->truncated)
			fprintf(out, " DLLP type=0x%02X", pkt->u.dllp.type_byte);
		else
			print_dllp(out, &pkt->u.dllp);
		break;
	case REC_TLP:
		print_tlp(out, &pkt->u.tlp, pkt->truncated);
		break;
	case REC_EVENT:
		fprintf(out, " EVENT %s", link_event_name(pkt->u.event.code));
		if (pkt->u.event.code == EV_VC_ENABLE)
			fprintf(out, " vc=%u", pkt->u.event.arg);
		break;
	}
	if (pkt->truncated)
		fprintf(out, " truncated(%u of %u bytes)", rec->len, rec->wire_len);
	if (rec->flags & REC_F_PHY_ERROR)
		fputs(" phy-error", out);
	/* last, so the columns before it stay those of every other input */
	if (rec->pos.has_source_packet)
		fprintf(out, " packet=%" PRIu64, rec->pos.source_packet);
	fputc('\n', out);
}

void decode_print_note(FILE *out, const struct reader_malformed *bad)
{
	fputs("# note", out);
	if (bad->pos.has_source_packet)
		fprintf(out, " packet %" PRIu64, bad->pos.source_packet);
	fprintf(out, " offset %" PRIu64 ": %s\n", bad->pos.byte_offset, bad->reason);
}

void decode_print_malformed(FILE *out, const struct reader_malformed *bad)
{
	fprintf(out, "%" PRIu64 " malformed", bad->pos.record_no);
	if (bad->pos.line)
		fprintf(out, " line %" PRIu64, bad->pos.line);
	if (bad->pos.has_source_packet)
		fprintf(out, " packet %" PRIu64, bad->pos.source_packet);
	if (bad->column)
		fprintf(out, " column %u", bad->column);
	if (bad->has_lane)
		fprintf(out, " lane %u", bad->lane);
	fprintf(out, " offset %" PRIu64 ": %s\n", bad->pos.byte_offset, bad->reason);
}
