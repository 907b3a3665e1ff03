/* csv_columns.c: column names of an export's header, normalised and
 * looked up in the alias table, and the field names --map and
 * --dump-columns use.  specification: capture-format.md section 3
 * (the aliases are what the man page lists). */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "base/ascii.h"
#include "read/csv/csv_internal.h"

/* Appends the normalised form of s[0..len) to out (size bytes).  Every
 * header cell, and every cell of a line that may be one, comes through
 * here, so it walks pointers (an index costs a traced comparison under
 * the fuzzer); tests/unit/check_csv_columns.c compares it with the plain
 * loop. */
void csv_normalise_into(const char *s, size_t len, char *out, size_t size)
{
	const char *end = s + len;
	char *o = out + strlen(out), *last = out + size - 1;

	for (; s < end && o < last; s++) {
		if (!is_name_drop(*s))
			*o++ = ascii_lower(*s);
	}
	*o = '\0';
}

/* The first '(' or '[' of s[0..len), or NULL: two memchr, not a test per
 * byte. */
static const char *first_open(const char *s, size_t len)
{
	const char *paren = memchr(s, '(', len);
	const char *bracket = memchr(s, '[', paren != NULL ? (size_t)(paren - s) : len);

	return bracket != NULL ? bracket : paren;
}

void csv_normalise_name(const char *s, size_t len, char *name, size_t name_size, char *unit,
                        size_t unit_size)
{
	const char *open, *close;

	if (name_size > 0)
		name[0] = '\0';
	if (unit_size > 0)
		unit[0] = '\0';
	csv_trim(&s, &len);
	open = first_open(s, len);
	close = open == NULL
	                ? NULL
	                : memchr(open + 1, *open == '(' ? ')' : ']', len - (size_t)(open + 1 - s));
	if (close != NULL) {
		/* "Time (ns)": the name is what is outside, the unit inside. */
		if (name_size > 0)
			csv_normalise_into(s, (size_t)(open - s), name, name_size);
		if (unit_size > 0)
			csv_normalise_into(open + 1, (size_t)(close - open) - 1, unit, unit_size);
		if (name_size > 0)
			csv_normalise_into(close + 1, len - (size_t)(close + 1 - s), name,
			                   name_size);
		return;
	}
	/* no bracket, or the first one never closes */
	if (name_size > 0)
		csv_normalise_into(s, len, name, name_size);
}

struct alias {
	const char *name; /* normalised */
	enum csv_field field;
	bool ticks;
};

/* Sorted by name (strcmp order) for csv_field_lookup()'s binary search;
 * the unit suite looks every entry up through csv_alias_at().  CSV_F_PACKET
 * is the analyzer's own numbering of the rows ("Packet #", "No.", "Index",
 * "Frame"; a bare "#" too, see csv_column_field()). */
static const struct alias alias_table[] = {
	{ "absolutetime", CSV_F_TIME, false },
	{ "abstime", CSV_F_TIME, false },
	{ "acknakseq", CSV_F_ACKNAK_SEQ, false },
	{ "acknakseqno", CSV_F_ACKNAK_SEQ, false },
	{ "acknakseqnum", CSV_F_ACKNAK_SEQ, false },
	{ "ackseq", CSV_F_ACKNAK_SEQ, false },
	{ "ackseqnum", CSV_F_ACKNAK_SEQ, false },
	{ "bytes", CSV_F_RAW, false },
	{ "ch", CSV_F_DIR, false },
	{ "channel", CSV_F_DIR, false },
	{ "cycle", CSV_F_TIME, true },
	{ "cycles", CSV_F_TIME, true },
	{ "data", CSV_F_RAW, false },
	{ "datacredits", CSV_F_DATA_FC, false },
	{ "datafc", CSV_F_DATA_FC, false },
	{ "datafcscale", CSV_F_DATA_SCALE, false },
	{ "datascale", CSV_F_DATA_SCALE, false },
	{ "dir", CSV_F_DIR, false },
	{ "direction", CSV_F_DIR, false },
	{ "dllp", CSV_F_DLLP_TYPE, false },
	{ "dllptype", CSV_F_DLLP_TYPE, false },
	{ "elapsed", CSV_F_TIME, false },
	{ "elapsedtime", CSV_F_TIME, false },
	{ "fmt", CSV_F_TLP_TYPE, false },
	{ "fmttype", CSV_F_TLP_TYPE, false },
	{ "frame", CSV_F_PACKET, false },
	{ "frameno", CSV_F_PACKET, false },
	{ "framenum", CSV_F_PACKET, false },
	{ "framenumber", CSV_F_PACKET, false },
	{ "hdrcredits", CSV_F_HDR_FC, false },
	{ "hdrfc", CSV_F_HDR_FC, false },
	{ "hdrfcscale", CSV_F_HDR_SCALE, false },
	{ "hdrscale", CSV_F_HDR_SCALE, false },
	{ "headercredits", CSV_F_HDR_FC, false },
	{ "headerfc", CSV_F_HDR_FC, false },
	{ "headerscale", CSV_F_HDR_SCALE, false },
	{ "hex", CSV_F_RAW, false },
	{ "hexdata", CSV_F_RAW, false },
	{ "idx", CSV_F_PACKET, false },
	{ "index", CSV_F_PACKET, false },
	{ "kind", CSV_F_KIND, false },
	{ "layer", CSV_F_KIND, false },
	{ "len", CSV_F_LENGTH, false },
	{ "length", CSV_F_LENGTH, false },
	{ "link", CSV_F_LINK, false },
	{ "linkdir", CSV_F_DIR, false },
	{ "linkdirection", CSV_F_DIR, false },
	{ "linkid", CSV_F_LINK, false },
	{ "linkindex", CSV_F_LINK, false },
	{ "linkno", CSV_F_LINK, false },
	{ "no", CSV_F_PACKET, false },
	{ "nr", CSV_F_PACKET, false },
	{ "num", CSV_F_PACKET, false },
	{ "number", CSV_F_PACKET, false },
	{ "packet", CSV_F_PACKET, false },
	{ "packetdata", CSV_F_RAW, false },
	{ "packetid", CSV_F_PACKET, false },
	{ "packetno", CSV_F_PACKET, false },
	{ "packetnum", CSV_F_PACKET, false },
	{ "packetnumber", CSV_F_PACKET, false },
	{ "packettype", CSV_F_KIND, false },
	{ "payload", CSV_F_RAW, false },
	{ "pkt", CSV_F_PACKET, false },
	{ "pktid", CSV_F_PACKET, false },
	{ "pktno", CSV_F_PACKET, false },
	{ "pktnum", CSV_F_PACKET, false },
	{ "pktnumber", CSV_F_PACKET, false },
	{ "pkttype", CSV_F_KIND, false },
	{ "port", CSV_F_DIR, false },
	{ "protocol", CSV_F_KIND, false },
	{ "raw", CSV_F_RAW, false },
	{ "rawbytes", CSV_F_RAW, false },
	{ "rawdata", CSV_F_RAW, false },
	{ "sample", CSV_F_TIME, true },
	{ "samplenumber", CSV_F_TIME, true },
	{ "samples", CSV_F_TIME, true },
	{ "seq", CSV_F_SEQ, false },
	{ "seqno", CSV_F_SEQ, false },
	{ "seqnum", CSV_F_SEQ, false },
	{ "sequence", CSV_F_SEQ, false },
	{ "sequencenumber", CSV_F_SEQ, false },
	{ "side", CSV_F_DIR, false },
	{ "starttime", CSV_F_TIME, false },
	{ "symbols", CSV_F_RAW, false },
	{ "tc", CSV_F_TC, false },
	{ "tick", CSV_F_TIME, true },
	{ "ticks", CSV_F_TIME, true },
	{ "time", CSV_F_TIME, false },
	{ "timestamp", CSV_F_TIME, false },
	{ "tlp", CSV_F_TLP_TYPE, false },
	{ "tlplen", CSV_F_LENGTH, false },
	{ "tlplength", CSV_F_LENGTH, false },
	{ "tlpseq", CSV_F_SEQ, false },
	{ "tlpseqnum", CSV_F_SEQ, false },
	{ "tlptype", CSV_F_TLP_TYPE, false },
	{ "trafficclass", CSV_F_TC, false },
	{ "ts", CSV_F_TIME, false },
	{ "type", CSV_F_KIND, false },
	{ "vc", CSV_F_VC, false },
	{ "vcid", CSV_F_VC, false },
	{ "virtualchannel", CSV_F_VC, false },
};

const char *const csv_field_names[CSV_F_COUNT] = {
	[CSV_F_TIME] = "time",
	[CSV_F_DIR] = "dir",
	[CSV_F_LINK] = "link",
	[CSV_F_KIND] = "type",
	[CSV_F_DLLP_TYPE] = "dllp-type",
	[CSV_F_TLP_TYPE] = "tlp-type",
	[CSV_F_VC] = "vc",
	[CSV_F_HDR_FC] = "hdr-fc",
	[CSV_F_DATA_FC] = "data-fc",
	[CSV_F_HDR_SCALE] = "hdr-scale",
	[CSV_F_DATA_SCALE] = "data-scale",
	[CSV_F_SEQ] = "seq",
	[CSV_F_ACKNAK_SEQ] = "acknak-seq",
	[CSV_F_LENGTH] = "length",
	[CSV_F_TC] = "tc",
	[CSV_F_RAW] = "raw",
	[CSV_F_PACKET] = "packet",
};

const char *csv_field_name(enum csv_field f)
{
	return (unsigned)f < CSV_F_COUNT ? csv_field_names[f] : "?";
}

int csv_field_lookup(const char *norm, bool *ticks)
{
	/* A binary search: a header search looks up every cell of up to
	 * CSV_HEADER_SEARCH lines split six ways, and most cells match no
	 * alias (a scan of the 101 names was half of a fuzzed export's time). */
	size_t lo = 0, hi = ARRAY_LEN(alias_table);

	if (ticks != NULL)
		*ticks = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(norm, alias_table[mid].name);

		if (c == 0) {
			if (ticks != NULL)
				*ticks = alias_table[mid].ticks;
			return (int)alias_table[mid].field;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

const char *csv_alias_at(size_t i, int *field)
{
	if (i >= ARRAY_LEN(alias_table))
		return NULL;
	if (field != NULL)
		*field = (int)alias_table[i].field;
	return alias_table[i].name;
}

/* The field a header cell names (raw text s, normalised norm), or -1: its
 * aliases, and a bare "#" (normalised to nothing) for the packet number. */
int csv_column_field(const char *s, size_t len, const char *norm)
{
	if (norm[0] == '\0') {
		csv_trim(&s, &len);
		return len == 1 && s[0] == '#' ? CSV_F_PACKET : -1;
	}
	return csv_field_lookup(norm, NULL);
}

/* Fields that make a line a header (with one more known column). */
bool csv_field_is_primary(int f)
{
	return f == CSV_F_TIME || f == CSV_F_KIND || f == CSV_F_DLLP_TYPE || f == CSV_F_TLP_TYPE ||
	       f == CSV_F_RAW;
}
