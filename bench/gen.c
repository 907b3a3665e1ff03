/* gen.c: the benchmark's and the tests' capture generator.
 *
 *   gen -n RECORDS [-s SEED] [-m default|txn] [-p OUT.pcap] [-t OUT.trace]
 *       [-y hex|symbolic]
 *
 * Writes one clean capture of exactly RECORDS records, as a pcap in the
 * encapsulation of capture-format.md section 1 (-p) and/or as a text trace
 * of section 2 (-t): the same records, the same times.  The text form
 * carries each packet's bytes in hex by default (what a simulation monitor
 * dumps); -y symbolic writes "TLP MWr32 seq=N len=N ..." / "UpdateFC-P ..."
 * lines instead, which the text reader encodes itself (with -m txn they
 * carry the header keys req= tag= addr= ... of the text grammar).
 *
 * The traffic is that of a Root Port (port D) and an Endpoint (port U) on
 * one link with Max_Payload_Size 256 bytes and Max_Read_Request_Size 512:
 *
 *   - link-up, VC0 initialisation both ways (InitFC1 then InitFC2, P NP
 *     Cpl); port D advertises finite credits for every type, port U finite
 *     P and NP and infinite completion credits;
 *   - then TLPs in both directions, by the mix (-m):
 *     default: MWr32/MWr64 (1 DW doorbells to 64 DW), MRd32/MRd64 (1 to
 *       128 DW) answered by CplD pieces of at most 64 DW, CfgRd0/CfgWr0
 *       from port D answered by CplD/Cpl, MsgD and Msg (Vendor_Defined
 *       Type 1, local; Assert_INTA only upstream); about 60% TLPs;
 *     txn: every non-posted kind, answered by the partner as the
 *       transaction layer wants it (rules.md "The transaction layer";
 *       notes/tl-facts.md section 2): memory reads of 1 to 128 DW at
 *       varied addresses and byte enables (never across 4 KB), split at
 *       the completer's Read Completion Boundary (64 bytes for the Root
 *       Port, 128 for the Endpoint) into pieces of at most MPS, with the
 *       Byte Count of the bytes still owed and the Lower Address of each
 *       piece's first byte, several pieces of different requests
 *       interleaved; MRdLk (CplDLk); IORd/IOWr, CfgRd0/1, CfgWr0/1 from
 *       port D (Byte Count 4); FetchAdd, Swap, CAS (CplD of the operand
 *       size, Byte Count the operand size), DMWr (Cpl, Byte Count 4);
 *       several Requester IDs a side, 8-bit and 10-bit tags (0..255 and
 *       256..1023), never one outstanding twice; messages with their
 *       routing, the right way and on TC0 (INTx, ERR_*, PM_PME, PME_TO_Ack,
 *       LTR up; Set_Slot_Power_Limit (MsgD 1 DW), PME_Turn_Off, Unlock,
 *       OBFF down; Vendor_Defined both ways); MWr never across 4 KB; about
 *       70% TLPs;
 *   - every completion of either mix carries its request's Requester ID,
 *     Tag and TC, and every request is answered well within 50 ms;
 *   - the receiver Acks its partner's TLPs (often, and always before 8 are
 *     outstanding), frees their credits when it Acks them and returns them
 *     in UpdateFCs (absolute counters modulo 256 / 4096, so they wrap
 *     every few hundred TLPs, as do the 12-bit sequence numbers); a shadow
 *     of each transmitter's limit makes the receiver send an UpdateFC
 *     before a TLP would fail the credit gate; every finite class gets an
 *     UpdateFC at least every 10 us;
 *   - times in ns, always increasing, roughly at the pace of a Gen3 x8
 *     link (a DW per half nanosecond plus framing).
 *
 * No Naks and no replays: dllpcheck must report nothing at all on it
 * (--fail-on info exits 0).  The last closing comment lines of the text
 * form, and the standard error, give the counts: records, TLPs, and per
 * direction of the requests the requests by kind, those completed, those
 * still outstanding at the end, their completions and the longest time a
 * request waited for its last completion.
 *
 * It links libdllpcheck.a: dllp_encode, tlp_encode and the pcap writer are
 * the project's own, so the bytes are those dllpcheck itself would build.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/record.h"
#include "read/pcap_writer.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

enum ctype { PH, PD, NPH, NPD, CPLH, CPLD, NCT };
static const char *const class_name[3] = { "P", "NP", "Cpl" };

#define QCAP 4096u /* outstanding TLPs per direction (seq space) */
#define MPS_DW 64u /* Max_Payload_Size 256 bytes */
#define MRRS_DW 128u /* Max_Read_Request_Size 512 bytes */
#define NPEND 8u /* default mix: requests a port completes at once */
#define NPEND_TXN 48u /* txn mix */
#define NREQ 64u /* the table of requests to complete (>= both) */
#define UPDATE_EVERY_NS 10000u

struct outstanding {
	uint16_t seq;
	uint8_t cls;
	uint16_t data;
};

/* A request its receiver still owes completions for. */
struct request {
	enum tlp_kind kind; /* the request's */
	uint16_t requester, tag;
	uint8_t ri; /* the requester's index */
	uint16_t completer;
	uint8_t tc;
	uint64_t cur, end; /* memory reads: next byte to return, end */
	uint16_t cpl_dw; /* other kinds: the completion's length (0: Cpl) */
	uint16_t cpl_bc; /* ... its Byte Count */
	uint64_t sent_ns;
};

struct port { /* indexed by the direction it transmits in */
	uint16_t nseq;
	struct outstanding q[QCAP];
	unsigned qh, qt; /* ring: qh..qt outstanding */
	uint64_t cl[NCT]; /* the credit limit this transmitter works against */
	uint64_t cc[NCT]; /* credits consumed */
	/* as a receiver: */
	unsigned adv[NCT]; /* what it advertised, 0 = infinite */
	uint64_t freed[NCT]; /* freed, not yet returned in an UpdateFC */
	uint64_t lastupd[3];
	/* as a completer: the partner's requests it must answer, oldest
	 * first */
	struct request pend[NREQ];
	unsigned pend_n;
	unsigned rcb; /* its Read Completion Boundary, bytes */
	/* as a requester: tags outstanding, by requester index and tag */
	uint8_t tag_busy[4][1024];
	unsigned next_tag; /* default mix: the next 8-bit tag to try */
};

/* Requester IDs: port D (the Root Port and three more Root Complex functions),
 * port U (four functions of the Endpoint; INTx from function 0 only,
 * tl-facts.md section 1). */
static const uint16_t requesters[2][4] = { { 0x0000, 0x0008, 0x0010, 0x0018 },
	                                   { 0x0100, 0x0101, 0x0102, 0x0103 } };

/* per direction of the requests (the requester's) */
struct txn_counts {
	uint64_t requests[TLP_KIND_COUNT];
	uint64_t completed, completions, msgs;
	uint64_t max_latency_ns;
};

static struct port port[2];
static struct txn_counts tcount[2];
static uint64_t now_ns;
static uint64_t records, limit_records;
static uint64_t n_tlp, n_ack, n_update, n_init;
static uint64_t charged[2][NCT];
static FILE *text;
static int text_symbolic, mix_txn;
static struct pcap_writer *pw;
static uint32_t rs;

static unsigned rnd(unsigned k) /* Park-Miller, 0 .. k-1 */
{
	rs = (uint32_t)((uint64_t)rs * 16807u % 2147483647u);
	return rs % k;
}

static const char *dirname_(int d)
{
	return d ? "up" : "down";
}

/* ---- output ---------------------------------------------------------- */

static char hexbuf[2 * (PCAP_PSEUDO_HDR_LEN + TLP_MAX_RECORD_LEN) + 64];

static void put_time_dir(int d)
{
	fprintf(text, "%lluns %s ", (unsigned long long)now_ns, dirname_(d));
}

static void put_hex_line(const char *kind, const uint8_t *b, size_t n)
{
	static const char dig[] = "0123456789abcdef";
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		hexbuf[o++] = dig[b[i] >> 4];
		hexbuf[o++] = dig[b[i] & 15];
	}
	fputs(kind, text);
	fputc(' ', text);
	fwrite(hexbuf, 1, o, text);
	fputc('\n', text);
}

/* One record; false once RECORDS are written (the caller stops). */
static int emit(int d, enum rec_kind kind, const uint8_t *b, size_t n, const char *symbolic,
                uint64_t dt)
{
	if (records >= limit_records)
		return 0;
	now_ns += dt;
	records++;
	if (pw) {
		struct record rec;
		memset(&rec, 0, sizeof(rec));
		rec.time_ps = now_ns * 1000u;
		rec.kind = kind;
		rec.dir = d ? DIR_UP : DIR_DOWN;
		rec.bytes = b;
		rec.len = rec.wire_len = (uint32_t)n;
		pcap_writer_write(pw, &rec);
	}
	if (text) {
		put_time_dir(d);
		if (kind == REC_EVENT)
			fputs("EVENT link-up\n", text);
		else if (text_symbolic)
			fprintf(text, "%s\n", symbolic);
		else
			put_hex_line(kind == REC_DLLP ? "DLLP" : "TLP", b, n);
	}
	return 1;
}

static int emit_fc(int d, enum dllp_type type, int cls, unsigned hdr, unsigned data, uint64_t dt)
{
	struct dllp x;
	uint8_t b[6];
	char sym[96] = "";
	memset(&x, 0, sizeof(x));
	x.type = type;
	x.fc_class = (enum fc_class)cls;
	x.vc = 0;
	x.hdr_fc = (uint8_t)hdr;
	x.data_fc = (uint16_t)data;
	dllp_encode(&x, b);
	if (text_symbolic)
		snprintf(sym, sizeof(sym), "%s-%s vc=0 hdr=%u data=%u",
		         type == DLLP_UPDATEFC  ? "UpdateFC"
		         : type == DLLP_INITFC1 ? "InitFC1"
		                                : "InitFC2",
		         class_name[cls], hdr, data);
	return emit(d, REC_DLLP, b, 6, sym, dt);
}

static int emit_ack(int d, uint16_t seq)
{
	struct dllp x;
	uint8_t b[6];
	char sym[32] = "";
	memset(&x, 0, sizeof(x));
	x.type = DLLP_ACK;
	x.acknak_seq = seq;
	dllp_encode(&x, b);
	if (text_symbolic)
		snprintf(sym, sizeof(sym), "Ack seq=%u", seq);
	n_ack++;
	return emit(d, REC_DLLP, b, 6, sym, 2);
}

/* The symbolic line of a TLP: the header keys of the text grammar for what
 * the spec gives (tl-common.md), so that the text reader builds the same
 * bytes. */
static void sym_tlp(char *sym, size_t cap, const struct tlp_spec *s)
{
	const struct tlp_fields *h = &s->hdr;
	int n = snprintf(sym, cap, "TLP %s seq=%u len=%u", tlp_mnemonic(s->kind, s->addr64), s->seq,
	                 s->length_dw);
#define ADD(...)                                                              \
	do {                                                                  \
		if (n > 0 && (size_t)n < cap)                                 \
			n += snprintf(sym + n, cap - (size_t)n, __VA_ARGS__); \
	} while (0)
	if (h->requester_given)
		ADD(" req=%04x", h->requester_id);
	if (h->tag_given)
		ADD(" tag=%u", h->tag);
	if (h->address_given) {
		if (s->kind == TLP_CFGRD0 || s->kind == TLP_CFGWR0 || s->kind == TLP_CFGRD1 ||
		    s->kind == TLP_CFGWR1)
			ADD(" target=%04x reg=%u", (unsigned)(h->address >> 16),
			    (unsigned)(h->address & 0xFFFu));
		else
			ADD(" addr=%llx", (unsigned long long)h->address);
	}
	if (h->be_given)
		ADD(" fbe=%x lbe=%x", h->first_be, h->last_be);
	if (h->completer_given)
		ADD(" completer=%04x", h->completer_id);
	if (h->byte_count_given)
		ADD(" bc=%u", h->byte_count);
	if (h->lower_address_given)
		ADD(" la=%u", h->lower_address);
	if (h->msg_code_given)
		ADD(" code=%u route=%u", h->msg_code, s->msg_routing);
#undef ADD
}

/* ---- the model ------------------------------------------------------- */

static int hdr_type(int cls)
{
	return 2 * cls;
}
static int data_type(int cls)
{
	return 2 * cls + 1;
}
static int finite(int x, int ty)
{
	return port[!x].adv[ty] > 0;
}
static uint64_t avail(int x, int ty)
{
	return port[x].cl[ty] - port[x].cc[ty];
}

/* receiver p Acks every outstanding TLP of its partner and frees their
 * credits */
static int ack_all(int p)
{
	struct port *x = &port[!p];
	if (x->qh == x->qt)
		return 1;
	if (!emit_ack(p, x->q[(x->qt - 1) % QCAP].seq))
		return 0;
	for (; x->qh != x->qt; x->qh++) {
		struct outstanding *o = &x->q[x->qh % QCAP];
		port[p].freed[hdr_type(o->cls)] += 1;
		port[p].freed[data_type(o->cls)] += o->data;
	}
	return 1;
}

/* receiver p returns what it freed for class cls */
static int update(int p, int cls)
{
	struct port *r = &port[p], *x = &port[!p];
	int ht = hdr_type(cls), dt = data_type(cls);
	if (r->adv[ht] == 0 && r->adv[dt] == 0)
		return 1;
	x->cl[ht] += r->freed[ht];
	r->freed[ht] = 0;
	x->cl[dt] += r->freed[dt];
	r->freed[dt] = 0;
	unsigned hf = r->adv[ht] ? (unsigned)(x->cl[ht] % 256u) : 0;
	unsigned df = r->adv[dt] ? (unsigned)(x->cl[dt] % 4096u) : 0;
	r->lastupd[cls] = now_ns;
	n_update++;
	return emit_fc(p, DLLP_UPDATEFC, cls, hf, df, 2);
}

static int fits(int x, int cls, unsigned dcred)
{
	int ht = hdr_type(cls), dt = data_type(cls);
	return !((finite(x, ht) && avail(x, ht) < 1) ||
	         (dcred > 0 && finite(x, dt) && avail(x, dt) < dcred));
}

/* the flow-control class of a kind [spec-digest 4.2] */
static int kind_class(enum tlp_kind k)
{
	if (tlp_kind_is_completion(k))
		return 2;
	if (tlp_kind_is_nonposted(k))
		return 1;
	return 0; /* MWr, Msg, MsgD */
}

static int has_data(enum tlp_kind k)
{
	switch (k) {
	case TLP_MWR:
	case TLP_MSGD:
	case TLP_IOWR:
	case TLP_CFGWR0:
	case TLP_CFGWR1:
	case TLP_CPLD:
	case TLP_CPLDLK:
	case TLP_FETCHADD:
	case TLP_SWAP:
	case TLP_CAS:
	case TLP_DMWR:
		return 1;
	default:
		return 0;
	}
}

/* a new TLP from x, after the partner made room if needed; s has the kind,
 * the header size, the length and the header fields */
static int send_spec(int x, struct tlp_spec *s)
{
	int p = !x, cls = kind_class(s->kind);
	unsigned dcred = has_data(s->kind) ? (s->length_dw + 3u) / 4u : 0;
	if (!fits(x, cls, dcred)) {
		if (!ack_all(p) || !update(p, cls))
			return 0;
		if (!fits(x, cls, dcred)) {
			fprintf(stderr, "gen: a TLP of %u DW does not fit\n", s->length_dw);
			exit(1);
		}
	}
	s->seq = port[x].nseq;
	s->has_seq = s->has_lcrc = true;
	uint8_t b[TLP_MAX_RECORD_LEN];
	size_t n = tlp_encode(s, b, sizeof(b));
	if (n == 0) {
		fprintf(stderr, "gen: tlp_encode failed\n");
		exit(1);
	}
	char sym[256] = "";
	if (text_symbolic)
		sym_tlp(sym, sizeof(sym), s);
	if (!emit(x, REC_TLP, b, n, sym, 2 + (n + 1) / 2))
		return 0;
	struct port *t = &port[x];
	struct outstanding *o = &t->q[t->qt++ % QCAP];
	o->seq = t->nseq;
	o->cls = (uint8_t)cls;
	o->data = (uint16_t)dcred;
	t->cc[hdr_type(cls)] += 1;
	t->cc[data_type(cls)] += dcred;
	charged[x][hdr_type(cls)] += 1;
	charged[x][data_type(cls)] += dcred;
	t->nseq = (uint16_t)((t->nseq + 1) % 4096u);
	n_tlp++;
	return 1;
}

static void spec_init(struct tlp_spec *s, enum tlp_kind kind, int addr64, unsigned len)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->addr64 = addr64;
	s->length_dw = (uint16_t)len;
	s->msg_routing = 4; /* local */
}

/* ---- requests and their completions ----------------------------------- */

static unsigned low_zero(unsigned be)
{
	return be ? (unsigned)__builtin_ctz(be) : 0;
}

/* a free tag of requester ri of port x: the default mix counts through the
 * 8-bit tags, the txn mix takes 8-bit and 10-bit tags at random; never
 * one that is outstanding [tl-facts.md section 7] */
static uint16_t take_tag(int x, unsigned ri)
{
	struct port *t = &port[x];
	unsigned tag;
	for (;;) {
		if (mix_txn)
			tag = rnd(2) ? rnd(256) : 256 + rnd(768);
		else
			tag = t->next_tag++ % 256u;
		if (!t->tag_busy[ri][tag])
			break;
	}
	t->tag_busy[ri][tag] = 1;
	return (uint16_t)tag;
}

/* sends request s from x (requester index ri) and gives its partner the
 * completion to owe: a memory read from byte start for bytes, or one
 * completion of cpl_dw DW (0: Cpl) with Byte Count cpl_bc */
static int request(int x, unsigned ri, struct tlp_spec *s, uint64_t start, unsigned bytes,
                   unsigned cpl_dw, unsigned cpl_bc, uint16_t completer)
{
	struct port *c = &port[!x];
	s->hdr.requester_given = s->hdr.tag_given = true;
	s->hdr.requester_id = requesters[x][ri];
	s->hdr.tag = take_tag(x, ri);
	if (!send_spec(x, s))
		return 0;
	struct request *r = &c->pend[c->pend_n++];
	memset(r, 0, sizeof(*r));
	r->kind = s->kind;
	r->requester = s->hdr.requester_id;
	r->tag = s->hdr.tag;
	r->ri = (uint8_t)ri;
	r->completer = completer;
	r->tc = s->tc;
	r->cur = start;
	r->end = start + bytes;
	r->cpl_dw = (uint16_t)cpl_dw;
	r->cpl_bc = (uint16_t)cpl_bc;
	r->sent_ns = now_ns;
	tcount[x].requests[s->kind]++;
	return 1;
}

static int is_read(enum tlp_kind k)
{
	return k == TLP_MRD || k == TLP_MRDLK;
}

/* the end of the next completion of read r from completer c: the end of
 * the request, or an RCB boundary between [tl-facts.md section 2, "Read
 * Completion Boundary"], with a payload of at most MPS; the default mix
 * takes the longest piece, the txn mix one at random */
static uint64_t piece_end(const struct port *c, const struct request *r)
{
	uint64_t ends[8];
	unsigned n = 0;
	uint64_t lo = r->cur & ~3ull;
	for (uint64_t b = (r->cur / c->rcb + 1) * c->rcb; b < r->end && n < 8; b += c->rcb) {
		if (b - lo > MPS_DW * 4)
			break;
		ends[n++] = b;
	}
	if (((r->end + 3) & ~3ull) - lo <= MPS_DW * 4 && n < 8)
		ends[n++] = r->end;
	if (n == 0) {
		fprintf(stderr, "gen: no completion boundary for a read\n");
		exit(1);
	}
	return mix_txn ? ends[rnd(n)] : ends[n - 1];
}

/* port x sends the next completion of its i-th pending request */
static int complete(int x, unsigned i)
{
	struct port *c = &port[x];
	struct request *r = &c->pend[i];
	struct tlp_spec s;
	int last;
	if (is_read(r->kind)) {
		uint64_t e = piece_end(c, r);
		unsigned dw = (unsigned)((((e + 3) & ~3ull) - (r->cur & ~3ull)) / 4);
		spec_init(&s, r->kind == TLP_MRDLK ? TLP_CPLDLK : TLP_CPLD, 0, dw);
		/* the bytes still owed, this piece's included; the
		 * address of its first byte [tl-facts.md section 2] */
		s.hdr.byte_count_given = s.hdr.lower_address_given = true;
		s.hdr.byte_count = (uint16_t)(r->end - r->cur);
		s.hdr.lower_address = (uint8_t)(r->cur & 0x7Fu);
		r->cur = e;
		last = e == r->end;
	} else {
		spec_init(&s, r->cpl_dw ? TLP_CPLD : TLP_CPL, 0, r->cpl_dw ? r->cpl_dw : 1);
		s.hdr.byte_count_given = s.hdr.lower_address_given = true;
		s.hdr.byte_count = r->cpl_bc;
		s.hdr.lower_address = 0;
		last = 1;
	}
	s.tc = r->tc;
	s.hdr.requester_given = s.hdr.tag_given = s.hdr.completer_given = true;
	s.hdr.requester_id = r->requester;
	s.hdr.tag = r->tag;
	s.hdr.completer_id = r->completer;
	if (!send_spec(x, &s))
		return 0;
	int rq = !x; /* the requester's port */
	tcount[rq].completions++;
	if (last) {
		uint64_t lat = now_ns - r->sent_ns;
		if (lat > tcount[rq].max_latency_ns)
			tcount[rq].max_latency_ns = lat;
		tcount[rq].completed++;
		port[rq].tag_busy[r->ri][r->tag] = 0;
		memmove(r, r + 1, (c->pend_n - i - 1) * sizeof(*r));
		c->pend_n--;
	}
	return 1;
}

/* an address in a 4 KB page for len DW that stays in it: 32-bit below
 * 4 GiB, 64-bit above [tl-facts.md section 4] */
static uint64_t page_address(int addr64, unsigned len)
{
	uint64_t page = addr64 ? ((uint64_t)(1 + rnd(15)) << 32) + ((uint64_t)rnd(1u << 20) << 12)
	                       : 0x80000000ull + ((uint64_t)rnd(1u << 18) << 12);
	unsigned off = rnd(1024u - len + 1u) * 4u;
	if (rnd(4) == 0)
		off &= ~(rnd(2) ? 63u : 127u); /* now and then on a boundary */
	return page + off;
}

/* a memory read from x: the default mix at the encoder's address with all
 * bytes enabled, the txn mix anywhere in a page with varied byte enables */
static int send_read(int x, enum tlp_kind kind)
{
	int addr64 = (int)rnd(2);
	unsigned ri = rnd(4), len, fbe, lbe;
	struct tlp_spec s;
	if (!mix_txn) {
		len = rnd(4) ? 1 + rnd(16) : 16u * (1 + rnd(MRRS_DW / 16));
		spec_init(&s, kind, addr64, len);
		/* the encoder's address is 4 KB aligned; Lower Address 0 */
		return request(x, ri, &s, 0, len * 4, 0, 0, x ? 0x0000 : 0x0100);
	}
	unsigned r = rnd(8);
	if (kind == TLP_MRDLK)
		len = 1 + rnd(8);
	else if (r < 2)
		len = 1;
	else if (r < 4)
		len = 2 + rnd(15);
	else
		len = 16 + rnd(MRRS_DW - 15);
	if (len == 1) {
		fbe = rnd(16); /* 0000b is a zero-length read; gaps allowed */
		lbe = 0;
	} else {
		static const unsigned fb[4] = { 0xF, 0xE, 0xC, 0x8 },
		                      lb[4] = { 0xF, 0x7, 0x3, 0x1 };
		fbe = fb[rnd(4)];
		lbe = lb[rnd(4)];
	}
	uint64_t a = page_address(addr64, len);
	spec_init(&s, kind, addr64, len);
	s.hdr.address_given = s.hdr.be_given = true;
	s.hdr.address = a;
	s.hdr.first_be = (uint8_t)fbe;
	s.hdr.last_be = (uint8_t)lbe;
	return request(x, ri, &s, a + low_zero(fbe),
	               tlp_read_bytes(len, (uint8_t)fbe, (uint8_t)lbe), 0, 0,
	               x ? 0x0000 : requesters[1][ri]);
}

/* another non-posted request from x (txn mix): I/O and configuration from
 * the Root Port only, locked reads from it only, AtomicOps and DMWr both
 * ways */
static int send_other(int x)
{
	static const enum tlp_kind down_kinds[] = { TLP_MRDLK,  TLP_IORD,     TLP_IOWR,
		                                    TLP_CFGRD0, TLP_CFGWR0,   TLP_CFGRD1,
		                                    TLP_CFGWR1, TLP_FETCHADD, TLP_SWAP,
		                                    TLP_CAS,    TLP_DMWR };
	static const enum tlp_kind up_kinds[] = { TLP_FETCHADD, TLP_SWAP, TLP_CAS, TLP_DMWR };
	enum tlp_kind k = x ? up_kinds[rnd(4)] : down_kinds[rnd(11)];
	unsigned ri = rnd(4);
	uint16_t completer = x ? 0x0000 : requesters[1][ri];
	struct tlp_spec s;
	switch (k) {
	case TLP_MRDLK:
		return send_read(x, k);
	case TLP_IORD:
	case TLP_IOWR:
		spec_init(&s, k, 0, 1);
		s.hdr.address_given = s.hdr.be_given = true;
		s.hdr.address = 0x1000u + rnd(0x4000) * 4u;
		s.hdr.first_be = (uint8_t)(1 + rnd(15));
		return request(x, ri, &s, 0, 0, k == TLP_IORD, 4, completer);
	case TLP_CFGRD0:
	case TLP_CFGWR0:
	case TLP_CFGRD1:
	case TLP_CFGWR1: {
		/* Type 0 to a function of the Endpoint, Type 1 to a bus
		 * below it; the completer is the target */
		int t1 = k == TLP_CFGRD1 || k == TLP_CFGWR1;
		uint16_t target =
		        t1 ? (uint16_t)(0x0200u + rnd(8) * 8u + rnd(2)) : requesters[1][rnd(4)];
		spec_init(&s, k, 0, 1);
		s.hdr.address_given = s.hdr.be_given = true;
		s.hdr.address = (uint64_t)target << 16 | rnd(1024) * 4u;
		s.hdr.first_be = (uint8_t)(1 + rnd(15));
		return request(x, ri, &s, 0, 0, k == TLP_CFGRD0 || k == TLP_CFGRD1, 4, target);
	}
	case TLP_FETCHADD:
	case TLP_SWAP:
	case TLP_CAS: {
		/* operand 4 or 8 bytes (CAS also 16; its Length holds two
		 * operands), the address aligned to it [tl-facts.md
		 * section 4]; the completion returns one operand, Byte
		 * Count its size [section 2] */
		unsigned op = k == TLP_CAS ? 4u << rnd(3) : 4u << rnd(2);
		unsigned len = (k == TLP_CAS ? 2 * op : op) / 4;
		int addr64 = (int)rnd(2);
		spec_init(&s, k, addr64, len);
		s.hdr.address_given = true;
		s.hdr.address = page_address(addr64, 4) & ~(uint64_t)(op - 1);
		return request(x, ri, &s, 0, 0, op / 4, op, completer);
	}
	default: { /* DMWr: a Cpl, Byte Count 4 ("all other types") */
		unsigned len = 1 + rnd(16);
		int addr64 = (int)rnd(2);
		spec_init(&s, k, addr64, len);
		s.hdr.address_given = true;
		s.hdr.address = page_address(addr64, len);
		return request(x, ri, &s, 0, 0, 0, 4, completer);
	}
	}
}

/* a message from x the right way and on TC0 [tl-facts.md section 1] */
static int send_msg(int x)
{
	struct msgdef {
		const char *name;
		unsigned dw;
		int reqfn0;
	};
	static const struct msgdef up_msgs[] = {
		{ "Assert_INTA", 0, 1 }, { "Deassert_INTA", 0, 1 },
		{ "Assert_INTB", 0, 1 }, { "Deassert_INTB", 0, 1 },
		{ "ERR_COR", 0, 0 },     { "ERR_NONFATAL", 0, 0 },
		{ "ERR_FATAL", 0, 0 },   { "PM_PME", 0, 0 },
		{ "PME_TO_Ack", 0, 1 },  { "LTR", 0, 1 },
		{ NULL, 0, 0 },          { NULL, 8, 0 },
	};
	static const struct msgdef down_msgs[] = {
		{ "Set_Slot_Power_Limit", 1, 0 },
		{ "PME_Turn_Off", 0, 0 },
		{ "Unlock", 0, 0 },
		{ "PM_Active_State_Nak", 0, 0 },
		{ "OBFF", 0, 0 },
		{ NULL, 0, 0 },
		{ NULL, 8, 0 },
	};
	const struct msgdef *m = x ? &up_msgs[rnd(12)] : &down_msgs[rnd(7)];
	uint8_t code = 0x7F; /* NULL: Vendor_Defined Type 1, local */
	if (m->name && !tlp_msg_code_parse(m->name, strlen(m->name), &code)) {
		fprintf(stderr, "gen: no message code %s\n", m->name);
		exit(1);
	}
	unsigned dw = m->name || m->dw == 0 ? m->dw : 1 + rnd(m->dw);
	struct tlp_spec s;
	spec_init(&s, dw ? TLP_MSGD : TLP_MSG, 1, dw ? dw : 1);
	s.msg_routing = m->name ? tlp_msg_code_routing(code) : 4;
	s.hdr.msg_code_given = s.hdr.requester_given = true;
	s.hdr.msg_code = code;
	s.hdr.requester_id = requesters[x][m->reqfn0 ? 0 : rnd(4)];
	tcount[x].msgs++;
	return send_spec(x, &s);
}

static unsigned write_len(void)
{
	unsigned r = rnd(20);
	if (r < 5)
		return 1; /* doorbells, flags */
	if (r < 8)
		return 2 + rnd(15);
	return 16u << rnd(3); /* 64, 128, 256 bytes */
}

static int send_write(int x)
{
	struct tlp_spec s;
	int addr64 = rnd(3) == 0;
	unsigned len = write_len();
	spec_init(&s, TLP_MWR, addr64, len);
	if (mix_txn) {
		s.hdr.address_given = true;
		s.hdr.address = page_address(addr64, len);
	}
	return send_spec(x, &s);
}

static int initfc(int phase)
{
	for (int cls = 0; cls < 3; cls++)
		for (int d = 0; d < 2; d++) {
			n_init++;
			if (!emit_fc(d, phase == 1 ? DLLP_INITFC1 : DLLP_INITFC2, cls,
			             port[d].adv[hdr_type(cls)], port[d].adv[data_type(cls)], 2))
				return 0;
		}
	return 1;
}

static int periodic(void)
{
	for (int p = 0; p < 2; p++)
		for (int cls = 0; cls < 3; cls++) {
			if (port[p].adv[hdr_type(cls)] == 0 && port[p].adv[data_type(cls)] == 0)
				continue;
			if (now_ns - port[p].lastupd[cls] > UPDATE_EVERY_NS && !update(p, cls))
				return 0;
		}
	return 1;
}

/* the default mix: about 60% TLPs */
static int round_default(int x, unsigned r)
{
	int p = !x;
	struct port *t = &port[x];
	if (t->pend_n > 0 && r < 35)
		return complete(x, 0); /* a piece for the oldest request */
	if (r < 65)
		return send_write(x);
	if (r < 80 && port[p].pend_n < NPEND)
		return send_read(x, TLP_MRD);
	if (r < 86 && x == 0 && port[p].pend_n < NPEND) {
		struct tlp_spec s;
		int wr = (int)rnd(2);
		spec_init(&s, wr ? TLP_CFGWR0 : TLP_CFGRD0, 0, 1);
		/* the encoder's target: bus 1, device 0, function 0 */
		return request(x, 0, &s, 0, 0, !wr, 4, 0x0100);
	}
	struct tlp_spec s;
	int d = r < 93;
	spec_init(&s, d ? TLP_MSGD : TLP_MSG, 1, d ? 1 + rnd(8) : 1);
	if (x == 0) { /* Assert_INTA goes up only: Vendor_Defined down */
		s.hdr.msg_code_given = true;
		s.hdr.msg_code = 0x7F;
	}
	tcount[x].msgs++;
	return send_spec(x, &s);
}

/* the txn mix: every kind, pieces of different reads interleaved */
static int round_txn(int x, unsigned r)
{
	int p = !x;
	struct port *t = &port[x];
	if (t->pend_n > 0 && r < 42)
		return complete(x, rnd(t->pend_n < 4 ? t->pend_n : 4));
	if (r < 58)
		return send_write(x);
	if (r < 80 && port[p].pend_n < NPEND_TXN)
		return send_read(x, TLP_MRD);
	if (r < 93 && port[p].pend_n < NPEND_TXN)
		return send_other(x);
	return send_msg(x);
}

static int round_(void)
{
	if (!periodic())
		return 0;
	int x = (int)rnd(2), p = !x;
	unsigned r = rnd(100);
	if (!(mix_txn ? round_txn(x, r) : round_default(x, r)))
		return 0;
	/* the partner Acks now and then, and returns credits with it */
	unsigned o = port[x].qt - port[x].qh;
	if (o >= 8 || rnd(mix_txn ? 5 : 3) == 0) {
		if (!ack_all(p))
			return 0;
		if (rnd(mix_txn ? 3 : 2) == 0)
			for (int cls = 0; cls < 3; cls++)
				if (port[p].freed[hdr_type(cls)] && !update(p, cls))
					return 0;
	}
	return 1;
}

/* the closing counts, per direction of the requests */
static void put_counts(FILE *f, const char *lead)
{
	for (int d = 0; d < 2; d++) {
		const struct txn_counts *c = &tcount[d];
		uint64_t req = 0;
		for (int k = 0; k < TLP_KIND_COUNT; k++)
			req += c->requests[k];
		fprintf(f,
		        "%stxn %s requests %llu completed %llu outstanding %u completions %llu "
		        "messages %llu max-latency-ns %llu kinds",
		        lead, dirname_(d), (unsigned long long)req,
		        (unsigned long long)c->completed, port[!d].pend_n,
		        (unsigned long long)c->completions, (unsigned long long)c->msgs,
		        (unsigned long long)c->max_latency_ns);
		for (int k = 0; k < TLP_KIND_COUNT; k++)
			if (c->requests[k])
				fprintf(f, " %s=%llu", tlp_kind_name((enum tlp_kind)k),
				        (unsigned long long)c->requests[k]);
		fputc('\n', f);
	}
}

static void usage(void)
{
	fprintf(stderr,
	        "usage: gen -n RECORDS [-s SEED] [-m default|txn] [-p OUT.pcap] [-t OUT.trace]\n"
	        "           [-y hex|symbolic]\n"
	        "  -m txn: every request kind answered by split completions, 10-bit tags,\n"
	        "          messages the right way (see the head of bench/gen.c)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *pcap_path = NULL, *text_path = NULL;
	unsigned long seed = 12345;
	int c;
	while ((c = getopt(argc, argv, "n:s:m:p:t:y:")) != -1) {
		switch (c) {
		case 'n':
			limit_records = strtoull(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			if (strcmp(optarg, "txn") == 0)
				mix_txn = 1;
			else if (strcmp(optarg, "default") == 0)
				mix_txn = 0;
			else
				usage();
			break;
		case 'p':
			pcap_path = optarg;
			break;
		case 't':
			text_path = optarg;
			break;
		case 'y':
			if (strcmp(optarg, "symbolic") == 0)
				text_symbolic = 1;
			else if (strcmp(optarg, "hex") == 0)
				text_symbolic = 0;
			else
				usage();
			break;
		default:
			usage();
		}
	}
	if (limit_records == 0 || optind != argc || (!pcap_path && !text_path))
		usage();
	rs = (uint32_t)(seed % 2147483646u + 1);

	char err[256];
	if (pcap_path) {
		FILE *pcap_fp = fopen(pcap_path, "wb");
		if (!pcap_fp) {
			fprintf(stderr, "gen: %s: %s\n", pcap_path, strerror(errno));
			return 1;
		}
		if (!(pw = pcap_writer_open(pcap_fp, pcap_path, 147, err, sizeof(err)))) {
			fprintf(stderr, "gen: %s\n", err);
			return 1;
		}
	}
	static char textbuf[1 << 20];
	if (text_path) {
		text = fopen(text_path, "w");
		if (!text) {
			perror(text_path);
			return 1;
		}
		setvbuf(text, textbuf, _IOFBF, sizeof(textbuf));
		fprintf(text,
		        "# bench/gen -n %llu -s %lu -m %s: a clean capture, no finding expected\n",
		        (unsigned long long)limit_records, seed, mix_txn ? "txn" : "default");
	}

	/* receive buffers: adv[type] of the advertising port; 0 = infinite */
	static const unsigned adv_down[NCT] = { 32, 512, 16, 16, 32, 256 };
	static const unsigned adv_up[NCT] = { 32, 256, 16, 16, 0, 0 };
	for (int t = 0; t < NCT; t++) {
		port[0].adv[t] = adv_down[t];
		port[1].adv[t] = adv_up[t];
		port[1].cl[t] = adv_down[t]; /* up transmits against down's */
		port[0].cl[t] = adv_up[t];
	}
	/* Read Completion Boundary: a Root Complex's is 64 or 128 bytes,
	 * every other element's 128 [tl-facts.md section 2] */
	port[0].rcb = 64;
	port[1].rcb = 128;

	uint8_t ev[4] = { 1, 0, 0, 0 }; /* link-up */
	if (emit(0, REC_EVENT, ev, 4, "", 0) && initfc(1) && initfc(2)) {
		for (int p = 0; p < 2; p++)
			for (int cls = 0; cls < 3; cls++)
				port[p].lastupd[cls] = now_ns;
		while (round_())
			;
	}

	if (text) {
		fprintf(text,
		        "# records %llu tlps %llu acks %llu updates %llu charged down PH %llu PD "
		        "%llu up PH %llu PD %llu\n",
		        (unsigned long long)records, (unsigned long long)n_tlp,
		        (unsigned long long)n_ack, (unsigned long long)n_update,
		        (unsigned long long)charged[0][PH], (unsigned long long)charged[0][PD],
		        (unsigned long long)charged[1][PH], (unsigned long long)charged[1][PD]);
		put_counts(text, "# ");
		if (fclose(text) != 0) {
			perror(text_path);
			return 1;
		}
	}
	if (pw && !pcap_writer_close(pw, err, sizeof(err))) {
		fprintf(stderr, "gen: %s\n", err);
		return 1;
	}
	fprintf(stderr,
	        "gen: %llu records: %llu TLPs, %llu Acks, %llu UpdateFCs, %llu InitFCs, 1 event; "
	        "%.3f ms of link time\n",
	        (unsigned long long)records, (unsigned long long)n_tlp, (unsigned long long)n_ack,
	        (unsigned long long)n_update, (unsigned long long)n_init, now_ns / 1e6);
	put_counts(stderr, "gen: ");
	return 0;
}
