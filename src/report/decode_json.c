/* decode_json.c: --decode --format=jsonl: one JSON object per record with
 * every decoded field, so that a capture can be queried with jq.  The keys
 * are described by schema/dllpcheck-decode.schema.json. */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>

#include "base/utf8.h"
#include "core/rules.h"
#include "report/decode_print.h"
#include "wire/fc_arith.h"

static const char *crc_status_name(enum crc_status s)
{
	switch (s) {
	case CRC_GOOD:
		return "ok";
	case CRC_BAD:
		return "bad";
	case CRC_NULLIFIED:
		return "nullified";
	default:
		return "none";
	}
}

static void set_int(json_t *o, const char *key, json_int_t v)
{
	json_object_set_new(o, key, json_integer(v));
}

static void position(json_t *o, const struct srcpos *pos)
{
	json_object_set_new(o, "file", json_string_outside(pos->file ? pos->file : ""));
	set_int(o, "record", (json_int_t)pos->record_no);
	if (pos->line)
		set_int(o, "line", (json_int_t)pos->line);
	set_int(o, "byte_offset", (json_int_t)pos->byte_offset);
	if (pos->has_source_packet)
		set_int(o, "source_packet", (json_int_t)pos->source_packet);
}

static json_t *dllp_json(const struct dllp *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string(dllp_name(d)));
	set_int(o, "type_byte", d->type_byte);
	switch (d->type) {
	case DLLP_ACK:
	case DLLP_NAK:
		set_int(o, "acknak_seq", d->acknak_seq);
		break;
	case DLLP_INITFC1:
	case DLLP_INITFC2:
	case DLLP_UPDATEFC:
	case DLLP_MRINITFC1:
	case DLLP_MRINITFC2:
	case DLLP_MRUPDATEFC: {
		bool init = d->type == DLLP_INITFC1 || d->type == DLLP_INITFC2;
		json_object_set_new(o, "fc_class", json_string(fc_class_name(d->fc_class)));
		set_int(o, "vc", d->vc);
		set_int(o, "hdr_scale", d->hdr_scale);
		set_int(o, "hdr_fc", d->hdr_fc);
		set_int(o, "data_scale", d->data_scale);
		set_int(o, "data_fc", d->data_fc);
		/* the credits the fields stand for; null = infinite (init only) */
		json_object_set_new(o, "hdr_credits",
		                    init && d->hdr_fc == 0
		                            ? json_null()
		                            : json_integer((json_int_t)d->hdr_fc
		                                           << fc_scale_shift(d->hdr_scale)));
		json_object_set_new(o, "data_credits",
		                    init && d->data_fc == 0
		                            ? json_null()
		                            : json_integer((json_int_t)d->data_fc
		                                           << fc_scale_shift(d->data_scale)));
		break;
	}
	case DLLP_FEATURE:
		json_object_set_new(o, "feature_ack", json_boolean(d->feature_ack));
		set_int(o, "feature_support", d->feature_support);
		json_object_set_new(o, "scaled_fc_supported",
		                    json_boolean(d->feature_support & 1u));
		break;
	default:
		set_int(o, "payload", d->content);
		break;
	}
	json_object_set_new(o, "crc", json_string(crc_status_name(d->crc)));
	if (d->crc != CRC_ABSENT) {
		set_int(o, "crc_field", d->crc_field);
		set_int(o, "crc_expected", d->crc_expected);
	}
	return o;
}

static bool is_config(enum tlp_kind kind)
{
	return kind == TLP_CFGRD0 || kind == TLP_CFGWR0 || kind == TLP_CFGRD1 || kind == TLP_CFGWR1;
}

static bool is_atomic(enum tlp_kind kind)
{
	return kind == TLP_FETCHADD || kind == TLP_SWAP || kind == TLP_CAS;
}

/* The header fields of a transaction [spec-digest 4.1], only with the
 * whole header in the record, each where the kind's header has it (as
 * the text listing, decode_print.c).  The address is a hex string: a
 * 64-bit one does not fit a JSON number exactly (jq's are doubles). */
static void tlp_header_json(json_t *o, const struct tlp *t)
{
	char addr[24];
	const char *name;

	if (!t->header_known || t->kind == TLP_KIND_UNKNOWN)
		return;
	set_int(o, "requester_id", t->requester_id);
	set_int(o, "tag", t->tag);
	if (tlp_kind_is_completion(t->kind)) {
		set_int(o, "completer_id", t->completer_id);
		set_int(o, "cpl_status", t->cpl_status);
		json_object_set_new(o, "cpl_status_name",
		                    json_string(tlp_cpl_status_name(t->cpl_status)));
		json_object_set_new(o, "bcm", json_boolean(t->bcm));
		set_int(o, "byte_count_field", t->byte_count_field);
		set_int(o, "byte_count", tlp_byte_count(t->byte_count_field));
		set_int(o, "lower_address", t->lower_address);
	} else if (tlp_kind_is_message(t->kind)) {
		set_int(o, "msg_code", t->msg_code);
		name = tlp_msg_code_name(t->msg_code);
		if (name)
			json_object_set_new(o, "msg_code_name", json_string(name));
	} else if (is_config(t->kind)) {
		set_int(o, "target_id", t->target_id);
		set_int(o, "cfg_register", t->cfg_register);
		set_int(o, "first_be", t->first_be);
		set_int(o, "last_be", t->last_be);
	} else {
		snprintf(addr, sizeof(addr), t->hdr_dw == 4 ? "0x%016" PRIX64 : "0x%08" PRIX64,
		         t->address);
		json_object_set_new(o, "address", json_string(addr));
		if (!is_atomic(t->kind)) {
			set_int(o, "first_be", t->first_be);
			set_int(o, "last_be", t->last_be);
		}
	}
}

static json_t *tlp_json(const struct tlp *t)
{
	static const enum credit_type hdr_ct[FC_CLASS_COUNT] = { CT_PH, CT_NPH, CT_CPLH };
	json_t *o = json_object();
	/* a record cut before its sequence field has none to show */
	if (t->seq_present)
		set_int(o, "seq", t->seq);
	json_t *prefixes = json_array();
	for (unsigned i = 0; i < t->prefix_count; i++)
		json_array_append_new(prefixes, json_integer(t->prefix_type[i]));
	json_object_set_new(o, "prefixes", prefixes);
	json_object_set_new(o, "type",
	                    t->kind == TLP_KIND_UNKNOWN
	                            ? json_null()
	                            : json_string(tlp_mnemonic(t->kind, t->hdr_dw == 4)));
	set_int(o, "fmt", t->fmt);
	set_int(o, "type_field", t->type);
	set_int(o, "header_dw", t->hdr_dw);
	set_int(o, "tc", t->tc);
	json_object_set_new(o, "td", json_boolean(t->td));
	json_object_set_new(o, "ep", json_boolean(t->ep));
	set_int(o, "attr", t->attr);
	set_int(o, "length_field", t->length_field);
	set_int(o, "length_dw", t->length_dw);
	set_int(o, "payload_dw", t->payload_dw);
	if (t->kind == TLP_MSG || t->kind == TLP_MSGD) {
		set_int(o, "msg_routing", t->msg_routing);
		json_object_set_new(o, "msg_routing_name",
		                    json_string(tlp_msg_routing_name(t->msg_routing)));
	}
	tlp_header_json(o, t);
	if (t->kind != TLP_KIND_UNKNOWN && t->status == TLP_OK) {
		json_object_set_new(o, "fc_class", json_string(fc_class_name(t->fc_class)));
		json_t *cost = json_object();
		set_int(cost, credit_type_name(hdr_ct[t->fc_class]), t->hdr_credits);
		set_int(cost, credit_type_name((enum credit_type)(hdr_ct[t->fc_class] + 1)),
		        t->data_credits);
		json_object_set_new(o, "credits", cost);
	}
	json_object_set_new(o, "status",
	                    json_string(t->status == TLP_OK ? "ok" : tlp_status_text(t->status)));
	/* the TLP Digest [3.3]: "none" when TD is set but it was not checked
	 * (a truncated or malformed TLP) */
	if (t->td) {
		json_object_set_new(o, "ecrc", json_string(crc_status_name(t->ecrc)));
		if (t->ecrc != CRC_ABSENT) {
			set_int(o, "ecrc_field", t->ecrc_field);
			set_int(o, "ecrc_expected", t->ecrc_expected);
		}
	}
	json_object_set_new(o, "lcrc", json_string(crc_status_name(t->lcrc)));
	if (t->lcrc != CRC_ABSENT) {
		set_int(o, "lcrc_field", t->lcrc_field);
		set_int(o, "lcrc_expected", t->lcrc_expected);
	}
	return o;
}

void decode_json_packet(FILE *out, const struct packet *pkt)
{
	const struct record *rec = pkt->rec;
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("record"));
	position(o, &rec->pos);
	set_int(o, "time_ps", (json_int_t)rec->time_ps);
	set_int(o, "link", rec->link);
	json_object_set_new(o, "direction", json_string(link_dir_name(rec->dir)));
	static const char *const kinds[] = {
		[REC_DLLP] = "dllp", [REC_TLP] = "tlp", [REC_EVENT] = "event"
	};
	json_object_set_new(o, "kind", json_string(kinds[rec->kind]));
	set_int(o, "captured_bytes", rec->len);
	set_int(o, "wire_bytes", rec->wire_len);
	json_object_set_new(o, "truncated", json_boolean(pkt->truncated));
	json_object_set_new(o, "phy_error", json_boolean(rec->flags & REC_F_PHY_ERROR));
	switch (rec->kind) {
	case REC_DLLP:
		if (!pkt->truncated)
			json_object_set_new(o, "dllp", dllp_json(&pkt->u.dllp));
		break;
	case REC_TLP:
		json_object_set_new(o, "tlp", tlp_json(&pkt->u.tlp));
		break;
	case REC_EVENT: {
		json_t *ev = json_object();
		json_object_set_new(ev, "name", json_string(link_event_name(pkt->u.event.code)));
		if (pkt->u.event.code == EV_VC_ENABLE)
			set_int(ev, "vc", pkt->u.event.arg);
		json_object_set_new(o, "event", ev);
		break;
	}
	}
	json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(o);
}

void decode_json_malformed(FILE *out, const struct reader_malformed *bad)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("malformed"));
	position(o, &bad->pos);
	if (bad->column)
		set_int(o, "column", bad->column);
	if (bad->has_lane)
		set_int(o, "lane", bad->lane);
	json_object_set_new(o, "reason", json_string_outside(bad->reason));
	json_dumpf(o, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(o);
}
