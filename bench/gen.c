/* gen.c: the benchmark's capture generator.
 *
 *   gen -n RECORDS [-s SEED] [-p OUT.pcap] [-t OUT.trace] [-y hex|symbolic]
 *
 * Writes one clean capture of exactly RECORDS records, as a pcap in the
 * encapsulation of capture-format.md section 1 (-p) and/or as a text trace
 * of section 2 (-t): the same records, the same times.  The text form
 * carries each packet's bytes in hex by default (what a simulation monitor
 * dumps); -y symbolic writes "TLP MWr32 seq=N len=N" / "UpdateFC-P ..."
 * lines instead, which the text reader encodes itself.
 *
 * The traffic is that of a Root Port (port D) and an Endpoint (port U) on
 * one link with Max_Payload_Size 256 bytes and Max_Read_Request_Size 512:
 *
 *   - link-up, VC0 initialisation both ways (InitFC1 then InitFC2, P NP
 *     Cpl); port D advertises finite credits for every type, port U finite
 *     P and NP and infinite completion credits;
 *   - then TLPs in both directions: MWr32/MWr64 (1 DW doorbells to 64 DW),
 *     MRd32/MRd64 (1 to 128 DW) answered by CplD pieces of at most 64 DW,
 *     CfgRd0/CfgWr0 from port D answered by CplD/Cpl, MsgD and Msg;
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
 * (--fail-on info exits 0).  The last closing comment line of the text
 * form, and the standard error, give the counts.
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

#include "wire/dllp.h"
#include "read/pcap_writer.h"
#include "core/record.h"
#include "wire/tlp.h"

enum ctype { PH, PD, NPH, NPD, CPLH, CPLD, NCT };
static const char *const class_name[3] = { "P", "NP", "Cpl" };

#define QCAP 4096u      /* outstanding TLPs per direction (seq space) */
#define MPS_DW 64u      /* Max_Payload_Size 256 bytes */
#define MRRS_DW 128u    /* Max_Read_Request_Size 512 bytes */
#define NPEND 8u        /* reads in flight per requester */
#define UPDATE_EVERY_NS 10000u

struct outstanding { uint16_t seq; uint8_t cls; uint16_t data; };

struct port {            /* indexed by the direction it transmits in */
	uint16_t nseq;
	struct outstanding q[QCAP];
	unsigned qh, qt;     /* ring: qh..qt outstanding */
	uint64_t cl[NCT];    /* the credit limit this transmitter works against */
	uint64_t cc[NCT];    /* credits consumed */
	/* as a receiver: */
	unsigned adv[NCT];   /* what it advertised, 0 = infinite */
	uint64_t freed[NCT]; /* freed, not yet returned in an UpdateFC */
	uint64_t lastupd[3];
	/* reads it must complete (requested by the partner): len DW and
	 * whether completions carry data */
	unsigned pend_len[NPEND];
	uint8_t pend_data[NPEND];
	unsigned pend_h, pend_n;
};

static struct port port[2];
static uint64_t now_ns;
static uint64_t records, limit_records;
static uint64_t n_tlp, n_ack, n_update, n_init;
static uint64_t charged[2][NCT];
static FILE *text;
static int text_symbolic;
static struct pcap_writer *pw;
static uint32_t rs;

static unsigned rnd(unsigned k)  /* Park-Miller, 0 .. k-1 */
{
	rs = (uint32_t)((uint64_t)rs * 16807u % 2147483647u);
	return rs % k;
}

static const char *dirname_(int d) { return d ? "up" : "down"; }

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
static int emit(int d, enum rec_kind kind, const uint8_t *b, size_t n,
                const char *symbolic, uint64_t dt)
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

static int emit_fc(int d, enum dllp_type type, int cls, unsigned hdr,
                   unsigned data, uint64_t dt)
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
		         type == DLLP_UPDATEFC ? "UpdateFC" :
		         type == DLLP_INITFC1 ? "InitFC1" : "InitFC2",
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

/* ---- the model ------------------------------------------------------- */

static int hdr_type(int cls) { return 2 * cls; }
static int data_type(int cls) { return 2 * cls + 1; }
static int finite(int x, int ty) { return port[!x].adv[ty] > 0; }
static uint64_t avail(int x, int ty) { return port[x].cl[ty] - port[x].cc[ty]; }

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
	x->cl[ht] += r->freed[ht]; r->freed[ht] = 0;
	x->cl[dt] += r->freed[dt]; r->freed[dt] = 0;
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

static int kind_class(enum tlp_kind k)
{
	switch (k) {
	case TLP_MWR: case TLP_MSG: case TLP_MSGD: return 0;
	case TLP_MRD: case TLP_CFGRD0: case TLP_CFGWR0: return 1;
	default: return 2;
	}
}

static int has_data(enum tlp_kind k)
{
	return k == TLP_MWR || k == TLP_MSGD || k == TLP_CFGWR0 || k == TLP_CPLD;
}

/* a new TLP from x, after the partner made room if needed */
static int send(int x, enum tlp_kind kind, int addr64, unsigned len)
{
	int p = !x, cls = kind_class(kind);
	unsigned dcred = has_data(kind) ? (len + 3) / 4 : 0;
	if (!fits(x, cls, dcred)) {
		if (!ack_all(p) || !update(p, cls))
			return 0;
		if (!fits(x, cls, dcred)) {
			fprintf(stderr, "gen: a TLP of %u DW does not fit\n", len);
			exit(1);
		}
	}
	struct tlp_spec s;
	memset(&s, 0, sizeof(s));
	s.kind = kind;
	s.addr64 = addr64;
	s.seq = port[x].nseq;
	s.length_dw = (uint16_t)len;
	s.msg_routing = 4; /* local */
	s.has_seq = s.has_lcrc = true;
	uint8_t b[TLP_MAX_RECORD_LEN];
	size_t n = tlp_encode(&s, b, sizeof(b));
	if (n == 0) {
		fprintf(stderr, "gen: tlp_encode failed\n");
		exit(1);
	}
	char sym[64] = "";
	if (text_symbolic)
		snprintf(sym, sizeof(sym), "TLP %s seq=%u len=%u",
		         tlp_mnemonic(kind, addr64), s.seq, len);
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

static unsigned write_len(void)
{
	unsigned r = rnd(20);
	if (r < 5) return 1;                       /* doorbells, flags */
	if (r < 8) return 2 + rnd(15);
	return 16u << rnd(3);                      /* 64, 128, 256 bytes */
}

static int initfc(int phase)
{
	for (int cls = 0; cls < 3; cls++)
		for (int d = 0; d < 2; d++) {
			n_init++;
			if (!emit_fc(d, phase == 1 ? DLLP_INITFC1 : DLLP_INITFC2, cls,
			             port[d].adv[hdr_type(cls)],
			             port[d].adv[data_type(cls)], 2))
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

static int round_(void)
{
	if (!periodic())
		return 0;
	int x = (int)rnd(2), p = !x;
	unsigned r = rnd(100);
	struct port *t = &port[x];
	int ok;
	if (t->pend_n > 0 && r < 35) {
		/* a completion piece for the oldest read from the partner */
		unsigned i = t->pend_h;
		if (!t->pend_data[i]) {
			ok = send(x, TLP_CPL, 0, 1);
			t->pend_len[i] = 0;
		} else {
			unsigned len = t->pend_len[i] > MPS_DW ? MPS_DW : t->pend_len[i];
			ok = send(x, TLP_CPLD, 0, len);
			t->pend_len[i] -= len;
		}
		if (t->pend_len[i] == 0) {
			t->pend_h = (t->pend_h + 1) % NPEND;
			t->pend_n--;
		}
	} else if (r < 65) {
		ok = send(x, TLP_MWR, rnd(3) == 0, write_len());
	} else if (r < 80 && port[p].pend_n < NPEND) {
		unsigned len = rnd(4) ? 1 + rnd(16) : 16u * (1 + rnd(MRRS_DW / 16));
		ok = send(x, TLP_MRD, (int)rnd(2), len);
		struct port *c = &port[p];
		unsigned i = (c->pend_h + c->pend_n++) % NPEND;
		c->pend_len[i] = len;
		c->pend_data[i] = 1;
	} else if (r < 86 && x == 0 && port[p].pend_n < NPEND) {
		int wr = (int)rnd(2);
		ok = send(x, wr ? TLP_CFGWR0 : TLP_CFGRD0, 0, 1);
		struct port *c = &port[p];
		unsigned i = (c->pend_h + c->pend_n++) % NPEND;
		c->pend_len[i] = 1;
		c->pend_data[i] = (uint8_t)!wr;
	} else if (r < 93) {
		ok = send(x, TLP_MSGD, 1, 1 + rnd(8));
	} else {
		ok = send(x, TLP_MSG, 1, 1);
	}
	if (!ok)
		return 0;
	/* the partner Acks now and then, and returns credits with it */
	unsigned o = port[x].qt - port[x].qh;
	if (o >= 8 || rnd(3) == 0) {
		if (!ack_all(p))
			return 0;
		if (rnd(2) == 0)
			for (int cls = 0; cls < 3; cls++)
				if (port[p].freed[hdr_type(cls)] && !update(p, cls))
					return 0;
	}
	return 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: gen -n RECORDS [-s SEED] [-p OUT.pcap] [-t OUT.trace] [-y hex|symbolic]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *pcap_path = NULL, *text_path = NULL;
	unsigned long seed = 12345;
	int c;
	while ((c = getopt(argc, argv, "n:s:p:t:y:")) != -1) {
		switch (c) {
		case 'n': limit_records = strtoull(optarg, NULL, 10); break;
		case 's': seed = strtoul(optarg, NULL, 10); break;
		case 'p': pcap_path = optarg; break;
		case 't': text_path = optarg; break;
		case 'y':
			if (strcmp(optarg, "symbolic") == 0) text_symbolic = 1;
			else if (strcmp(optarg, "hex") == 0) text_symbolic = 0;
			else usage();
			break;
		default: usage();
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
		fprintf(text, "# bench/gen -n %llu -s %lu: a clean capture, no finding expected\n",
		        (unsigned long long)limit_records, seed);
	}

	/* receive buffers: adv[type] of the advertising port; 0 = infinite */
	static const unsigned adv_down[NCT] = { 32, 512, 16, 16, 32, 256 };
	static const unsigned adv_up[NCT] = { 32, 256, 16, 16, 0, 0 };
	for (int t = 0; t < NCT; t++) {
		port[0].adv[t] = adv_down[t];
		port[1].adv[t] = adv_up[t];
		port[1].cl[t] = adv_down[t];  /* up transmits against down's */
		port[0].cl[t] = adv_up[t];
	}

	uint8_t ev[4] = { 1, 0, 0, 0 }; /* link-up */
	if (emit(0, REC_EVENT, ev, 4, "", 0) && initfc(1) && initfc(2)) {
		for (int p = 0; p < 2; p++)
			for (int cls = 0; cls < 3; cls++)
				port[p].lastupd[cls] = now_ns;
		while (round_())
			;
	}

	if (text) {
		fprintf(text, "# records %llu tlps %llu acks %llu updates %llu charged down PH %llu PD %llu up PH %llu PD %llu\n",
		        (unsigned long long)records, (unsigned long long)n_tlp,
		        (unsigned long long)n_ack, (unsigned long long)n_update,
		        (unsigned long long)charged[0][PH], (unsigned long long)charged[0][PD],
		        (unsigned long long)charged[1][PH], (unsigned long long)charged[1][PD]);
		if (fclose(text) != 0) {
			perror(text_path);
			return 1;
		}
	}
	if (pw && !pcap_writer_close(pw, err, sizeof(err))) {
		fprintf(stderr, "gen: %s\n", err);
		return 1;
	}
	fprintf(stderr, "gen: %llu records: %llu TLPs, %llu Acks, %llu UpdateFCs, %llu InitFCs, 1 event; %.3f ms of link time\n",
	        (unsigned long long)records, (unsigned long long)n_tlp,
	        (unsigned long long)n_ack, (unsigned long long)n_update,
	        (unsigned long long)n_init, now_ns / 1e6);
	return 0;
}
