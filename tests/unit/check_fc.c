/* check_fc.c: the modulo counter helpers at the wrap, the option parsers,
 * and the shadow model's transitions driven packet by packet. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_parse.h"
#include "model/fc_internal.h"
#include "suites.h"
#include "wire/fc_arith.h"

/* The digest's worked example [5.2]: CL=05h CC=05h need 1 is blocked with
 * gap FFh; CC=04h passes with gap 0. */
START_TEST(test_gate_worked_example)
{
	uint32_t gap;
	ck_assert(!fc_gate_allows(0x05, 0x05, 1, 8, &gap));
	ck_assert_uint_eq(gap, 0xFF);
	ck_assert(fc_gate_allows(0x05, 0x04, 1, 8, &gap));
	ck_assert_uint_eq(gap, 0);
}
END_TEST

/* The gate across the wrap: CL=02h after wrapping, CC=FEh: 4 may go, 5 not. */
START_TEST(test_gate_at_wrap)
{
	uint32_t gap;
	ck_assert(fc_gate_allows(0x02, 0xFE, 4, 8, &gap));
	ck_assert_uint_eq(gap, 0);
	ck_assert(!fc_gate_allows(0x02, 0xFE, 5, 8, &gap));
	ck_assert_uint_eq(gap, 0xFF);
	/* 12-bit data counter */
	ck_assert(fc_gate_allows(0x010, 0xFF0, 0x20, 12, &gap));
	ck_assert(!fc_gate_allows(0x010, 0xFF0, 0x21, 12, &gap));
	ck_assert_uint_eq(gap, 0xFFF);
	/* exactly half the range ahead still passes (<= 2^N/2) */
	ck_assert(fc_gate_allows(0x80, 0x00, 0, 8, &gap));
	ck_assert_uint_eq(gap, 0x80);
	ck_assert(!fc_gate_allows(0x81, 0x00, 0, 8, &gap));
}
END_TEST

/* Regress: a wrap to 0 moves forward; a step back does not. */
START_TEST(test_regress_at_wrap)
{
	ck_assert(!fc_regresses(0xFF, 0x00, 8));
	ck_assert(!fc_regresses(0xF0, 0x10, 8));
	ck_assert(fc_regresses(0x10, 0x0F, 8));
	ck_assert(fc_regresses(0x000, 0xFFF, 12));
	ck_assert(!fc_regresses(0xFFF, 0x7FE, 12)); /* 0x7FF ahead: <= half */
	ck_assert(!fc_regresses(0x3FC, 0x000, 10));
}
END_TEST

/* Widths, shifts and maxima per scale [1.5 table]. */
START_TEST(test_scale_tables)
{
	ck_assert_uint_eq(fc_hdr_width(0), 8);
	ck_assert_uint_eq(fc_hdr_width(1), 8);
	ck_assert_uint_eq(fc_hdr_width(2), 10);
	ck_assert_uint_eq(fc_hdr_width(3), 12);
	ck_assert_uint_eq(fc_data_width(2), 14);
	ck_assert_uint_eq(fc_data_width(3), 16);
	ck_assert_uint_eq(fc_hdr_max(0), 127);
	ck_assert_uint_eq(fc_data_max(1), 2047);
	ck_assert_uint_eq(fc_hdr_max(2), 508);
	ck_assert_uint_eq(fc_data_max(2), 8188);
	ck_assert_uint_eq(fc_hdr_max(3), 2032);
	ck_assert_uint_eq(fc_data_max(3), 32752);
	ck_assert_uint_eq(fc_sub(0x0000, 0x0001, 16), 0xFFFF);
	ck_assert_uint_eq(fc_add(0x3FFF, 2, 14), 1);
}
END_TEST

/* --tc-map, --role, --mps and --initial-credits accept what the man page
 * says and refuse the rest. */
START_TEST(test_option_parsers)
{
	char err[256];
	uint8_t map[8] = { 0 };
	ck_assert(parse_tc_map("1=1,7=3", map, err, sizeof(err)));
	ck_assert_uint_eq(map[1], 1);
	ck_assert_uint_eq(map[7], 3);
	ck_assert(!parse_tc_map("0=1", map, err, sizeof(err)));
	ck_assert(!parse_tc_map("8=1", map, err, sizeof(err)));
	ck_assert(!parse_tc_map("1=", map, err, sizeof(err)));
	ck_assert(!parse_tc_map("", map, err, sizeof(err)));

	enum port_role role[DIR_COUNT] = { ROLE_UNKNOWN, ROLE_UNKNOWN };
	ck_assert(parse_roles("down=root-port,up=endpoint", role, err, sizeof(err)));
	ck_assert_int_eq(role[DIR_DOWN], ROLE_ROOT_PORT);
	ck_assert_int_eq(role[DIR_UP], ROLE_ENDPOINT);
	ck_assert(!parse_roles("down=endpoint", role, err, sizeof(err)));
	ck_assert(!parse_roles("up=root-port", role, err, sizeof(err)));
	ck_assert(!parse_roles("side=switch", role, err, sizeof(err)));
	ck_assert(!parse_roles("up=bridge", role, err, sizeof(err)));

	uint32_t mps = 0;
	ck_assert(parse_mps("256", &mps, err, sizeof(err)));
	ck_assert_uint_eq(mps, 256);
	ck_assert(!parse_mps("300", &mps, err, sizeof(err)));
	ck_assert(!parse_mps("8192", &mps, err, sizeof(err)));
	ck_assert(!parse_mps("64", &mps, err, sizeof(err)));

	static struct initial_credit ic[DIR_COUNT][FC_VC_COUNT][CT_COUNT];
	memset(ic, 0, sizeof(ic));
	ck_assert(parse_initial_credits("up:2:PH=8,pd=64,CplH=inf", ic, err, sizeof(err)));
	ck_assert(ic[DIR_UP][2][CT_PH].given);
	ck_assert_uint_eq(ic[DIR_UP][2][CT_PH].credits, 8);
	ck_assert_uint_eq(ic[DIR_UP][2][CT_PD].credits, 64);
	ck_assert(ic[DIR_UP][2][CT_CPLH].infinite);
	ck_assert(!ic[DIR_UP][2][CT_NPH].given);
	ck_assert(!parse_initial_credits("up:8:PH=1", ic, err, sizeof(err)));
	ck_assert(!parse_initial_credits("left:0:PH=1", ic, err, sizeof(err)));
	ck_assert(!parse_initial_credits("up:0:XH=1", ic, err, sizeof(err)));
	ck_assert(!parse_initial_credits("up:0:PH=0", ic, err, sizeof(err)));
	ck_assert(!parse_initial_credits("up:0:PH=2033", ic, err, sizeof(err)));
}
END_TEST

/* ---- the model, packet by packet --------------------------------------- */

struct harness {
	struct fc_options opts;
	struct finding_sink sink;
	struct fc_model model;
	uint8_t bytes[64];
	uint64_t record_no;
	enum rule_id last_rule;
	struct finding last;
};

static void harness_emit(void *ctx, const struct finding *f)
{
	struct harness *h = ctx;
	h->last = *f;
	h->last_rule = f->rule;
}

static void harness_init(struct harness *h)
{
	memset(h, 0, sizeof(*h));
	fc_options_init(&h->opts);
	finding_sink_init(&h->sink, harness_emit, h);
	fc_model_init(&h->model, &h->opts, &h->sink);
}

static uint64_t findings(const struct harness *h)
{
	uint64_t n = 0;
	for (unsigned s = 0; s < SEV_COUNT; s++)
		n += h->sink.count_by_severity[s];
	return n;
}

static void feed(struct harness *h, enum rec_kind kind, enum link_dir dir, size_t len)
{
	struct record rec;
	memset(&rec, 0, sizeof(rec));
	rec.kind = kind;
	rec.dir = dir;
	rec.bytes = h->bytes;
	rec.len = rec.wire_len = (uint32_t)len;
	rec.pos.file = "harness";
	rec.pos.record_no = ++h->record_no;
	rec.time_ps = h->record_no * 1000;
	struct packet pkt;
	packet_decode(&rec, &pkt);
	fc_model_apply(&h->model, &pkt, true);
}

static void fc_dllp(struct harness *h, enum link_dir dir, enum dllp_type type, enum fc_class cls,
                    unsigned hdr, unsigned data)
{
	struct dllp d;
	memset(&d, 0, sizeof(d));
	d.type = type;
	d.fc_class = cls;
	d.hdr_fc = (uint8_t)hdr;
	d.data_fc = (uint16_t)data;
	dllp_encode(&d, h->bytes);
	feed(h, REC_DLLP, dir, 6);
}

static void event(struct harness *h, unsigned code)
{
	h->bytes[0] = (uint8_t)code;
	h->bytes[1] = h->bytes[2] = h->bytes[3] = 0;
	feed(h, REC_EVENT, DIR_DOWN, 4);
}

static void mwr(struct harness *h, enum link_dir dir, unsigned seq, unsigned dw)
{
	struct tlp_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.kind = TLP_MWR;
	spec.seq = (uint16_t)seq;
	spec.length_dw = (uint16_t)dw;
	spec.has_seq = spec.has_lcrc = true;
	static uint8_t big[TLP_MAX_RECORD_LEN];
	size_t n = tlp_encode(&spec, big, sizeof(big));
	struct record rec;
	memset(&rec, 0, sizeof(rec));
	rec.kind = REC_TLP;
	rec.dir = dir;
	rec.bytes = big;
	rec.len = rec.wire_len = (uint32_t)n;
	rec.pos.file = "harness";
	rec.pos.record_no = ++h->record_no;
	rec.time_ps = h->record_no * 1000;
	struct packet pkt;
	packet_decode(&rec, &pkt);
	fc_model_apply(&h->model, &pkt, true);
}

/* A full VC0 initialisation: each side advertises P hdr/data, NP 8/8,
 * Cpl infinite, InitFC1 then InitFC2. */
static void init_vc0(struct harness *h, unsigned ph, unsigned pd)
{
	event(h, EV_LINK_UP);
	for (int phase = 0; phase < 2; phase++) {
		enum dllp_type t = phase ? DLLP_INITFC2 : DLLP_INITFC1;
		for (unsigned d = 0; d < DIR_COUNT; d++) {
			fc_dllp(h, d, t, FC_P, ph, pd);
			fc_dllp(h, d, t, FC_NP, 8, 8);
			fc_dllp(h, d, t, FC_CPL, 0, 0);
		}
	}
}

static const struct fc_vc *vc0(const struct harness *h)
{
	return &h->model.links[0]->vc[0];
}

/* FI1 comes with the third class advertised; completion with the next
 * InitFC2 after it; nothing is reported on a clean initialisation. */
START_TEST(test_init_progress)
{
	struct harness h;
	harness_init(&h);
	event(&h, EV_LINK_UP);
	fc_dllp(&h, DIR_DOWN, DLLP_INITFC1, FC_P, 4, 64);
	fc_dllp(&h, DIR_DOWN, DLLP_INITFC1, FC_NP, 4, 4);
	ck_assert(!vc0(&h)->port[DIR_UP].fi1);
	fc_dllp(&h, DIR_DOWN, DLLP_INITFC1, FC_CPL, 0, 0);
	ck_assert(vc0(&h)->port[DIR_UP].fi1);
	ck_assert(!vc0(&h)->port[DIR_UP].complete);
	fc_dllp(&h, DIR_DOWN, DLLP_INITFC1, FC_P, 4, 64); /* a repeat: no completion */
	ck_assert(!vc0(&h)->port[DIR_UP].complete);
	ck_assert(!vc0(&h)->port[DIR_DOWN].fi1);
	fc_dllp(&h, DIR_UP, DLLP_INITFC1, FC_P, 4, 64);
	fc_dllp(&h, DIR_UP, DLLP_INITFC1, FC_NP, 4, 4);
	fc_dllp(&h, DIR_UP, DLLP_INITFC1, FC_CPL, 0, 0);
	ck_assert(vc0(&h)->port[DIR_DOWN].fi1);
	fc_dllp(&h, DIR_DOWN, DLLP_INITFC2, FC_P, 4, 64);
	ck_assert(vc0(&h)->port[DIR_UP].complete);
	ck_assert(!vc0(&h)->port[DIR_DOWN].complete);
	ck_assert_uint_eq(findings(&h), 0);
	fc_model_free(&h.model);
}
END_TEST

/* Charging: new TLPs are charged once; a replay (same sequence number) is
 * not; the gate fails exactly one past the limit. */
START_TEST(test_charge_replay_and_gate)
{
	struct harness h;
	harness_init(&h);
	init_vc0(&h, 2, 64);
	const struct fc_credit *ph = &vc0(&h)->port[DIR_UP].credit[CT_PH];
	const struct fc_credit *pd = &vc0(&h)->port[DIR_UP].credit[CT_PD];
	mwr(&h, DIR_UP, 0, 16);
	ck_assert_uint_eq(ph->consumed, 1);
	ck_assert_uint_eq(pd->consumed, 4);
	mwr(&h, DIR_UP, 0, 16); /* replay: the receiver has it already */
	ck_assert_uint_eq(ph->consumed, 1);
	ck_assert_uint_eq(h.model.links[0]->tlps_not_charged[DIR_UP], 1);
	ck_assert_uint_eq(findings(&h), 1);
	ck_assert_int_eq(h.last_rule, R_DL_SEQ_DUPLICATE);
	mwr(&h, DIR_UP, 1, 16); /* exactly at the limit */
	ck_assert_uint_eq(findings(&h), 1);
	mwr(&h, DIR_UP, 2, 1); /* one past */
	ck_assert_uint_eq(findings(&h), 2);
	ck_assert_int_eq(h.last_rule, R_FC_CREDIT_OVERRUN);
	ck_assert_int_eq(h.last.credit_type, CT_PH);
	ck_assert_int_eq(h.last.evidence[0].value, 2); /* CL */
	ck_assert_int_eq(h.last.evidence[1].value, 2); /* CC */
	ck_assert_uint_eq(ph->consumed, 3); /* charged anyway */
	fc_model_free(&h.model);
}
END_TEST

/* UpdateFC limits wrap: 0 after 0xFF is progress, not a regress; a step
 * back is a regress; the limit follows the wire either way. */
START_TEST(test_update_wrap_and_regress)
{
	struct harness h;
	harness_init(&h);
	init_vc0(&h, 32, 256);
	const struct fc_credit *ph = &vc0(&h)->port[DIR_UP].credit[CT_PH];
	/* 40 TLPs of 1 DW, returned by UpdateFCs: CC and CL pass 0xFF */
	unsigned seq = 0;
	for (unsigned round = 0; round < 10; round++) {
		for (unsigned k = 0; k < 30; k++)
			mwr(&h, DIR_UP, seq++, 1);
		fc_dllp(&h, DIR_DOWN, DLLP_UPDATEFC, FC_P, (32 + seq) & 0xFF, (256 + seq) & 0xFFF);
	}
	ck_assert_uint_eq(findings(&h), 0);
	ck_assert_uint_eq(ph->consumed, 300 & 0xFF);
	ck_assert_uint_eq(ph->limit, (32 + 300) & 0xFF);
	fc_dllp(&h, DIR_DOWN, DLLP_UPDATEFC, FC_P, (31 + seq) & 0xFF, (256 + seq) & 0xFFF);
	ck_assert_uint_eq(findings(&h), 1);
	ck_assert_int_eq(h.last_rule, R_FC_UPDATE_LIMIT_REGRESS);
	ck_assert_uint_eq(ph->limit, (31 + 300) & 0xFF);
	fc_model_free(&h.model);
}
END_TEST

/* A link event starts a new epoch: consumed back to 0, FI1 cleared; a TLP
 * before re-initialisation is fc.init.tlp-before-init. */
START_TEST(test_epoch_reset)
{
	struct harness h;
	harness_init(&h);
	init_vc0(&h, 8, 64);
	mwr(&h, DIR_UP, 0, 4);
	ck_assert_uint_eq(vc0(&h)->port[DIR_UP].credit[CT_PH].consumed, 1);
	event(&h, EV_HOT_RESET);
	ck_assert_uint_eq(vc0(&h)->port[DIR_UP].credit[CT_PH].consumed, 0);
	ck_assert(!vc0(&h)->port[DIR_UP].fi1);
	mwr(&h, DIR_UP, 0, 4);
	ck_assert_int_eq(h.last_rule, R_FC_INIT_TLP_BEFORE_INIT);
	fc_model_free(&h.model);
}
END_TEST

/* Mid-stream: without an epoch start nothing is charged or reported; the
 * limit is learned from an UpdateFC. */
START_TEST(test_mid_stream_unknown)
{
	struct harness h;
	harness_init(&h);
	mwr(&h, DIR_UP, 100, 16);
	mwr(&h, DIR_UP, 101, 16);
	fc_dllp(&h, DIR_DOWN, DLLP_UPDATEFC, FC_P, 5, 50);
	mwr(&h, DIR_UP, 102, 1024);
	ck_assert_uint_eq(findings(&h), 0);
	ck_assert_int_eq(vc0(&h)->state, VC_UNKNOWN);
	ck_assert_uint_eq(vc0(&h)->tlps_while_unknown, 3);
	ck_assert(vc0(&h)->port[DIR_UP].credit[CT_PH].limit_known);
	ck_assert(!vc0(&h)->port[DIR_UP].credit[CT_PH].consumed_known);
	fc_model_free(&h.model);
}
END_TEST

/* --initial-credits makes a mid-stream capture checkable from its start. */
START_TEST(test_initial_credits)
{
	struct harness h;
	harness_init(&h);
	char err[128];
	ck_assert(parse_initial_credits("down:0:PH=1,PD=4", h.opts.initial, err, sizeof(err)));
	mwr(&h, DIR_UP, 7, 16);
	ck_assert_uint_eq(findings(&h), 0);
	mwr(&h, DIR_UP, 8, 16);
	ck_assert_uint_eq(h.sink.count_by_rule[R_FC_CREDIT_OVERRUN], 2); /* PH and PD */
	fc_model_free(&h.model);
}
END_TEST

static void acknak(struct harness *h, enum link_dir dir, enum dllp_type type, unsigned seq)
{
	struct dllp d;
	memset(&d, 0, sizeof(d));
	d.type = type;
	d.acknak_seq = (uint16_t)seq;
	dllp_encode(&d, h->bytes);
	feed(h, REC_DLLP, dir, 6);
}

/* Ack/Nak arithmetic across the 4095 -> 0 wrap, learnt mid-stream:
 * ACKD_SEQ learnt from the first Ack; an Ack past the newest TLP is
 * dl.ack.unknown-seq; one for an outstanding TLP is not. */
START_TEST(test_acknak_at_wrap)
{
	struct harness h;
	harness_init(&h);
	mwr(&h, DIR_UP, 4094, 1);
	mwr(&h, DIR_UP, 4095, 1);
	mwr(&h, DIR_UP, 0, 1);
	mwr(&h, DIR_UP, 1, 1);
	acknak(&h, DIR_DOWN, DLLP_ACK, 4093); /* learnt */
	acknak(&h, DIR_DOWN, DLLP_ACK, 0); /* 3 of 4 outstanding */
	ck_assert_uint_eq(findings(&h), 0);
	ck_assert_uint_eq(h.model.links[0]->dl[DIR_UP].ackd_seq, 0);
	acknak(&h, DIR_DOWN, DLLP_ACK, 3); /* never sent */
	ck_assert_uint_eq(findings(&h), 1);
	ck_assert_int_eq(h.last_rule, R_DL_ACK_UNKNOWN_SEQ);
	ck_assert_uint_eq(h.model.links[0]->dl[DIR_UP].ackd_seq, 0); /* discarded */
	acknak(&h, DIR_DOWN, DLLP_NAK, 1); /* the newest: fine */
	ck_assert_uint_eq(findings(&h), 1);
	fc_model_free(&h.model);
}
END_TEST

/* After link-up only Ack FFFh is valid; TLP 0 makes Ack 0 valid; a Nak
 * makes the replay in order (no duplicate); a TLP two ahead is out of
 * order. */
START_TEST(test_sequence_after_reset)
{
	struct harness h;
	harness_init(&h);
	init_vc0(&h, 32, 256);
	acknak(&h, DIR_DOWN, DLLP_ACK, 0xFFF);
	ck_assert_uint_eq(findings(&h), 0);
	acknak(&h, DIR_DOWN, DLLP_ACK, 0);
	ck_assert_int_eq(h.last_rule, R_DL_ACK_UNKNOWN_SEQ);
	mwr(&h, DIR_UP, 0, 1);
	mwr(&h, DIR_UP, 1, 1);
	acknak(&h, DIR_DOWN, DLLP_NAK, 0); /* seq 1 lost at the receiver */
	mwr(&h, DIR_UP, 1, 1); /* replay: in order */
	ck_assert_uint_eq(findings(&h), 1);
	mwr(&h, DIR_UP, 3, 1); /* 2 skipped */
	ck_assert_uint_eq(findings(&h), 2);
	ck_assert_int_eq(h.last_rule, R_DL_SEQ_OUT_OF_ORDER);
	fc_model_free(&h.model);
}
END_TEST

/* fc_link_new() writes a new link's unknown VCs on its zeroes, only the
 * fields not 0: the link is byte for byte what vc_unknown() on every VC
 * makes of it (which changes nothing of a link so made). */
START_TEST(test_new_link_vcs_unknown)
{
	static struct fc_options opts;
	static struct finding_sink sink;
	static struct fc_model m;
	fc_options_init(&opts);
	finding_sink_init(&sink, NULL, NULL);
	fc_model_init(&m, &opts, &sink);
	struct fc_link *made = fc_link_get(&m, 3);
	ck_assert_ptr_nonnull(made);
	struct fc_link *plain = malloc(sizeof(*plain));
	ck_assert_ptr_nonnull(plain);
	memcpy(plain, made, sizeof(*plain));
	fc_link_vcs_unknown_plain(plain);
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		ck_assert_msg(memcmp(&made->vc[vc], &plain->vc[vc], sizeof(made->vc[vc])) == 0,
		              "VC%u of a new link is not what vc_unknown() makes", vc);
	ck_assert(memcmp(made, plain, sizeof(*made)) == 0);
	free(plain);
	fc_model_free(&m);
}
END_TEST

Suite *suite_fc(void)
{
	Suite *s = suite_create("fc");
	TCase *arith = tcase_create("arith");
	tcase_add_test(arith, test_gate_worked_example);
	tcase_add_test(arith, test_gate_at_wrap);
	tcase_add_test(arith, test_regress_at_wrap);
	tcase_add_test(arith, test_scale_tables);
	suite_add_tcase(s, arith);
	TCase *opts = tcase_create("options");
	tcase_add_test(opts, test_option_parsers);
	suite_add_tcase(s, opts);
	TCase *model = tcase_create("model");
	tcase_add_test(model, test_new_link_vcs_unknown);
	tcase_add_test(model, test_init_progress);
	tcase_add_test(model, test_charge_replay_and_gate);
	tcase_add_test(model, test_update_wrap_and_regress);
	tcase_add_test(model, test_epoch_reset);
	tcase_add_test(model, test_mid_stream_unknown);
	tcase_add_test(model, test_initial_credits);
	tcase_add_test(model, test_acknak_at_wrap);
	tcase_add_test(model, test_sequence_after_reset);
	suite_add_tcase(s, model);
	return s;
}
