/* csv_sniff.c: what a line is: a header (and how it splits), an Agilent
 * record line, an FPGA sniffer line, a text trace line, or part of a
 * table of unknown columns; and csv_sniff(), which tells an export from a
 * text trace by its first bytes.  specification: capture-format.md
 * section 3; issue 12 (tables of unknown columns). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/ascii.h"
#include "base/number.h"
#include "base/time_unit.h"
#include "read/csv/csv_internal.h"

/* Whether --map names a column by its name (mapped_name_field() can find
 * one): asked once per line, not once per cell. */
static bool names_mapped(const struct csv_options *o)
{
	for (int f = 0; o != NULL && f < CSV_F_COUNT; f++) {
		if (o->map[f].how == CSV_MAP_NAME)
			return true;
	}
	return false;
}

/* The field --map names the column of (normalised name norm), or -1. */
static int mapped_name_field(const struct csv_options *o, const char *norm)
{
	for (int f = 0; o != NULL && f < CSV_F_COUNT; f++) {
		char mn[CSV_NAME_MAX];

		if (o->map[f].how != CSV_MAP_NAME)
			continue;
		csv_normalise_name(o->map[f].name, strlen(o->map[f].name), mn, sizeof(mn), NULL, 0);
		if (strcmp(mn, norm) == 0)
			return f;
	}
	return -1;
}

/* Distinct known fields among the cells (by alias, or named by --map;
 * the packet number not counted); 0 unless a header: two known, one of
 * them primary, and for blank-split columns at least half the cells
 * known, so a line of prose ("the DLLP seq test") is no header. */
static unsigned header_score(const char *buf, const struct csv_cell *cells, unsigned n,
                             const struct csv_options *o, bool aligned)
{
	unsigned seen = 0, count = 0, known_cells = 0, cells_used = 0;
	bool primary = false, by_name = names_mapped(o);

	for (unsigned i = 0; i < n; i++) {
		char norm[CSV_NAME_MAX];
		int f;

		if (cells[i].len == 0)
			continue;
		cells_used++;
		if (cells[i].len >= CSV_NAME_MAX * 2)
			continue;
		csv_normalise_name(buf + cells[i].off, cells[i].len, norm, sizeof(norm), NULL, 0);
		f = by_name ? mapped_name_field(o, norm) : -1;
		if (f < 0)
			f = csv_column_field(buf + cells[i].off, cells[i].len, norm);
		/* A row-number column is in many tables that are no export, and
		 * "packet" in many a sentence: it does not make a header
		 * (detection as before issue 12). */
		if (f == CSV_F_PACKET)
			continue;
		known_cells += f >= 0;
		if (f < 0 || (seen & (1u << f)))
			continue;
		seen |= 1u << f;
		count++;
		primary |= csv_field_is_primary(f);
	}
	if (aligned && known_cells * 2 < cells_used)
		return 0;
	return count >= 2 && primary ? count : 0;
}

/* The split of line that makes the best header, by groups: the best of
 * the delimiters the line holds; else aligned columns with two blanks
 * between names; else with one ("Time (ns)" must not become two names
 * when a tab or two blanks separate the columns).  The --delimiter in o
 * leaves one choice.  Returns the score (0: not a header). */
unsigned csv_guess_header(const char *line, size_t len, char *scratch, struct csv_cell *cells,
                          const struct csv_options *o, struct split_mode *best)
{
	char forced = o != NULL ? o->delimiter : CSV_DELIM_AUTO;
	static const char delims[] = { ',', '\t', ';', '|' };
	struct split_mode modes[ARRAY_LEN(delims) + 2];
	unsigned nmodes = 0, best_score = 0;
	size_t b = csv_skip_blanks(line, len, 0);

	/* Names, not numbers: a line starting with a digit is data. */
	if (b == len || is_digit(line[b]))
		return 0;

	if (forced == CSV_DELIM_AUTO || forced == CSV_DELIM_ALIGNED) {
		for (size_t i = 0; forced == CSV_DELIM_AUTO && i < ARRAY_LEN(delims); i++) {
			if (memchr(line, delims[i], len) != NULL)
				modes[nmodes++] =
				        (struct split_mode){ CSV_LAYOUT_DELIMITED, delims[i], 0 };
		}
		modes[nmodes++] = (struct split_mode){ CSV_LAYOUT_ALIGNED, 0, 2 };
		modes[nmodes++] = (struct split_mode){ CSV_LAYOUT_ALIGNED, 0, 1 };
	} else {
		modes[nmodes++] = (struct split_mode){ CSV_LAYOUT_DELIMITED, forced, 0 };
	}
	*best = modes[0];
	for (unsigned m = 0; m < nmodes; m++) {
		unsigned n, score;

		/* A later group is tried only when no earlier one made a header
		 * (and is not split to no use). */
		if (best_score > 0 && modes[m].layout == CSV_LAYOUT_ALIGNED &&
		    (best->layout == CSV_LAYOUT_DELIMITED || best->min_run != modes[m].min_run))
			break;
		n = csv_split_copy(line, len, scratch, &modes[m], cells);
		score = header_score(scratch, cells, n, o, modes[m].layout == CSV_LAYOUT_ALIGNED);
		if (score > best_score) {
			best_score = score;
			*best = modes[m];
		}
	}
	return best_score;
}

static size_t skip_word(const char *s, size_t len, size_t p)
{
	while (p < len && !is_blank(s[p]))
		p++;
	return p;
}

bool csv_parse_agilent(const char *s, size_t len, struct agilent_line *a)
{
	size_t p = csv_skip_blanks(s, len, 0), q;
	const char *colon;

	a->dir_off = p;
	p = skip_word(s, len, p);
	a->dir_len = p - a->dir_off;
	p = csv_skip_blanks(s, len, p);
	q = skip_word(s, len, p);
	if (a->dir_len == 0 || !ascii_eq_nocase(s + p, q - p, "record"))
		return false;
	p = csv_skip_blanks(s, len, q);
	if (p >= len || !is_digit(s[p]))
		return false;
	a->rec_off = p;
	while (p < len && is_digit(s[p]))
		p++;
	a->rec_len = p - a->rec_off;
	p = csv_skip_blanks(s, len, p);
	if (p >= len || s[p] != '@')
		return false;
	p = csv_skip_blanks(s, len, p + 1);
	colon = memchr(s + p, ':', len - p);
	if (colon == NULL)
		return false;
	a->time_off = p;
	q = (size_t)(colon - s);
	/* "(+8ns)", the gap since the previous record, is not needed. */
	for (size_t i = p; i < q; i++) {
		if (s[i] == '(') {
			q = i;
			break;
		}
	}
	while (q > p && is_blank(s[q - 1]))
		q--;
	a->time_len = q - p;
	a->hex_off = (size_t)(colon - s) + 1;
	return a->time_len > 0;
}

/* "<-, 1234560, ns, 0x5c, 0x80, ...": arrow, time, unit, bytes. */
bool csv_is_fpga_line(const char *line, size_t len, char *scratch, struct csv_cell *cells)
{
	static const struct split_mode comma = { CSV_LAYOUT_DELIMITED, ',', 0 };
	unsigned n = csv_split_copy(line, len, scratch, &comma, cells);

	if (n < 4)
		return false;
	if (!ascii_eq_nocase(scratch + cells[0].off, cells[0].len, "->") &&
	    !ascii_eq_nocase(scratch + cells[0].off, cells[0].len, "<-"))
		return false;
	if (cells[1].len == 0 || !is_digit(scratch[cells[1].off]))
		return false;
	if (time_unit_find_nocase(scratch + cells[2].off, cells[2].len) == NULL)
		return false;
	return cells[3].len > 2 && csv_starts_nocase(scratch + cells[3].off, cells[3].len, "0x");
}

/* A text trace line: "TIME down|up ...", TIME possibly followed by its
 * unit as a word. */
static bool is_text_trace_line(const char *s, size_t len)
{
	size_t p = csv_skip_blanks(s, len, 0), q;

	if (p >= len || !is_digit(s[p]))
		return false;
	for (int word = 0; word < 2; word++) {
		p = csv_skip_blanks(s, len, skip_word(s, len, p));
		q = skip_word(s, len, p);
		if (ascii_eq_nocase(s + p, q - p, "down") || ascii_eq_nocase(s + p, q - p, "up"))
			return true;
	}
	return false;
}

/* ---- A delimited table whose columns are not known (issue 12) ----
 *
 * An export whose header names no known column must not be read as a
 * text trace (a malformed line per row): it is recognised by its shape
 * alone, a header line of at least two short cells (not a number, not
 * starting with a digit: text trace records and data rows do) split by
 * one of , TAB ; | and then at least SHAPE_MIN_ROWS lines of the same
 * number of cells.  Blank lines and '#' comments are skipped; any other
 * line ends the table, and may start the next one.  A text trace never
 * has this shape: every line that is no comment starts with its time.
 * An export is one table from near its top to its end, so a table that
 * starts after SHAPE_BANNER_MAX lines, or ends early (a Markdown table
 * in prose, a few lines of a script), is none: such files stay what they
 * were (text), and no message calls them an export. */

/* Text a header or row can be: no control bytes but TAB (and the '\r' of
 * a CRLF line end); bytes from 0x80 are UTF-8 letters ("Zeit (\xc2\xb5s)"). */
static bool shape_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return false;
	}
	return true;
}

/* A character of a column name: letters (UTF-8 ones too), digits, blanks
 * and the punctuation names and units use ("Time (us)", "Seq_Num #",
 * "Len [DW]", "Data/Ctl", "%", "Rx+Tx", "AT&T", "Lane's"); not code or
 * markup ('*', '=', '{', '<', '$', '\\', '"', '!' ...). */
static bool shape_name_char(char ch)
{
	unsigned char c = (unsigned char)ch;

	return c >= 0x80 || is_alnum(ch) || (ch != '\0' && strchr(" _-.#()[]/%+&':", ch) != NULL);
}

/* Whether the cells (split from buf) can be a header's names: at least
 * two, each short, of name characters only, with a letter, not starting
 * with a digit. */
static bool shape_names(const char *buf, const struct csv_cell *cells, unsigned n)
{
	unsigned named = 0;

	for (unsigned i = 0; i < n; i++) {
		const char *c = buf + cells[i].off;
		struct number_dec num;

		if (cells[i].len == 0)
			continue;
		bool letter = cells[i].len == 1 && c[0] == '#'; /* "#": a packet number */

		if (cells[i].len > SHAPE_NAME_MAX || is_digit(c[0]))
			return false;
		for (uint32_t k = 0; k < cells[i].len; k++) {
			if (!shape_name_char(c[k]))
				return false;
			letter |=
			        (unsigned char)c[k] >= 0x80 || (is_alnum(c[k]) && !is_digit(c[k]));
		}
		if (!letter)
			return false; /* a table rule ("---") or a number-like cell */
		number_scan_decimal(c, cells[i].len, false, &num);
		if (num.any && num.used == cells[i].len)
			return false;
		named++;
	}
	return named >= 2;
}

/* Whether one of a row's cells starts with a digit: an export's rows
 * carry numbers (times, packet numbers, bytes). */
static bool shape_row_digits(const char *buf, const struct csv_cell *cells, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (cells[i].len > 0 && is_digit(buf[cells[i].off]))
			return true;
	}
	return false;
}

/* Feeds one line (len bytes, at most CSV_SNIFF_LINE) to the shape; forced
 * is the --delimiter, CSV_DELIM_AUTO to guess it from the header. */
enum shape_event csv_shape_feed(struct shape *sh, const char *line, size_t len, char forced,
                                char *scratch, struct csv_cell *cells)
{
	size_t b = csv_skip_blanks(line, len, 0);
	struct split_mode mode = { CSV_LAYOUT_DELIMITED, 0, 0 };
	unsigned unterminated, n;

	if (b == len || line[b] == '#')
		return SHAPE_NONE;
	if (sh->lines < UINT32_MAX)
		sh->lines++;
	if (len > CSV_SNIFF_LINE || !shape_text(line, len) || forced == CSV_DELIM_ALIGNED) {
		sh->have = false;
		return SHAPE_BREAK;
	}
	if (sh->have) {
		memcpy(scratch, line, len);
		n = csv_split_delimited(scratch, len, sh->delim, cells, CSV_MAX_COLS,
		                        &unterminated);
		if (n == sh->ncells && unterminated == 0) {
			sh->rows++;
			sh->digits |= shape_row_digits(scratch, cells, n);
			return SHAPE_ROW;
		}
	}
	sh->have = false;
	mode.delim = forced != CSV_DELIM_AUTO ? forced : csv_guess_delimiter(line, len);
	if (is_digit(line[b]) || mode.delim == 0 || sh->lines > SHAPE_BANNER_MAX)
		return SHAPE_BREAK;
	memcpy(scratch, line, len);
	n = csv_split_delimited(scratch, len, mode.delim, cells, CSV_MAX_COLS, &unterminated);
	if (n < 2 || unterminated != 0 || !shape_names(scratch, cells, n))
		return SHAPE_BREAK;
	sh->have = true;
	sh->delim = mode.delim;
	sh->ncells = n;
	sh->rows = 0;
	sh->digits = false;
	return SHAPE_HEADER;
}

/* A table that runs to the end of the lines looked at. */
bool csv_shape_is_table(const struct shape *sh)
{
	return sh->have && sh->rows >= SHAPE_MIN_ROWS && sh->digits;
}

/* A table that ended, before (the shape before the line that ended it),
 * when it was long enough for what ended it to be a trailer. */
bool csv_shape_was_table(const struct shape *before, enum shape_event ev)
{
	return (ev == SHAPE_HEADER || ev == SHAPE_BREAK) && before->have &&
	       before->rows >= SHAPE_LONG_ROWS && before->digits;
}

bool csv_sniff(const unsigned char *head, size_t len)
{
	char line[CSV_SNIFF_LINE], scratch[CSV_SNIFF_LINE];
	struct csv_cell cells[CSV_MAX_COLS];
	const char *s = (const char *)head;
	size_t p = csv_strip_bom(s, len);
	struct shape sh = { false, 0, 0, 0, 0, false };
	bool table = false; /* a long table that ended */

	while (p < len) {
		const char *nl = memchr(s + p, '\n', len - p);
		size_t end = nl ? (size_t)(nl - s) : len;
		size_t n = end - p > sizeof(line) ? sizeof(line) : end - p;
		size_t b;
		struct split_mode mode;
		struct agilent_line a;
		struct shape before = sh;
		bool cut = end - p > sizeof(line);
		enum shape_event ev;

		memcpy(line, s + p, n);
		p = end + 1;
		b = csv_skip_blanks(line, n, 0);
		if (b == n || line[b] == '#' || memchr(line, '\0', n) != NULL) {
			if (b != n && line[b] != '#') {
				table |= csv_shape_was_table(&sh, SHAPE_BREAK);
				sh.have = false;
				sh.lines++;
			}
			continue;
		}
		if (is_text_trace_line(line, n))
			return false;
		if (csv_guess_header(line, n, scratch, cells, NULL, &mode) > 0 ||
		    csv_parse_agilent(line, n, &a) || csv_is_fpga_line(line, n, scratch, cells))
			return true;
		/* an export with unknown columns: the reader says so when it
		 * opens it (csv_find_header()) */
		if (cut) {
			/* longer than any line a table is judged by */
			table |= csv_shape_was_table(&sh, SHAPE_BREAK);
			sh.have = false;
			sh.lines++;
			continue;
		}
		ev = csv_shape_feed(&sh, line, n, CSV_DELIM_AUTO, scratch, cells);
		if (ev != SHAPE_ROW && nl == NULL)
			sh = before; /* the head may end inside its last line */
		else
			table |= csv_shape_was_table(&before, ev);
	}
	return table || csv_shape_is_table(&sh);
}
