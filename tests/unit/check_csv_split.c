/* check_csv_split.c: the delimited-line splitter (read/csv/csv_split.c),
 * which walks pointers and finds delimiters and quotes with memchr,
 * against the plain byte-by-byte splitter it replaced (below, as it was):
 * the same cells, the same unterminated quote and the same bytes left in
 * the line (quoted cells are unescaped in place), for many random lines
 * made of the characters that matter, and for the edge cases written
 * out. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "read/csv/csv_internal.h"
#include "suites.h"
#include "xorshift.h"

/* ------------------------------------------------------------------ */
/* The reference: csv_split_delimited() before it walked pointers */

static bool plain_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static unsigned plain_split(char *line, size_t len, char delim, struct csv_cell *cells,
                            unsigned max, unsigned *unterminated)
{
	unsigned n = 0;
	size_t p = 0;

	*unterminated = 0;
	for (;;) {
		size_t start, w, end;

		while (p < len && line[p] != delim && plain_blank(line[p]))
			p++;
		start = p;
		if (p < len && line[p] == '"') {
			size_t r = p + 1;

			w = p + 1;
			for (;;) {
				if (r >= len) {
					*unterminated = (unsigned)p + 1;
					break;
				}
				if (line[r] == '"') {
					if (r + 1 < len && line[r + 1] == '"') {
						line[w++] = '"';
						r += 2;
						continue;
					}
					r++;
					break;
				}
				line[w++] = line[r++];
			}
			while (r < len && line[r] != delim)
				line[w++] = line[r++];
			end = w;
			p = r;
			start++;
		} else {
			const char *d = memchr(line + p, delim, len - p);

			p = d != NULL ? (size_t)(d - line) : len;
			end = p;
		}
		while (end > start && plain_blank(line[end - 1]))
			end--;
		if (n < max) {
			cells[n].off = (uint32_t)start;
			cells[n].len = (uint32_t)(end - start);
			cells[n].col = (uint32_t)start + 1;
			n++;
		}
		if (p >= len)
			break;
		p++;
	}
	return n;
}

/* ------------------------------------------------------------------ */

#define LINE_MAX_TEST 48
#define CELLS_MAX 8

/* Both splitters agree on line[0 .. len) at delim with room for max
 * cells.  Asserts only on a difference: an assertion that holds still
 * costs Check a write, and this runs 200,000 times. */
static void check_same(const char *line, size_t len, char delim, unsigned max)
{
	char a[LINE_MAX_TEST], b[LINE_MAX_TEST];
	struct csv_cell ca[CELLS_MAX + 1], cb[CELLS_MAX + 1];
	unsigned ua = 99, ub = 99, na, nb;

	memcpy(a, line, len);
	memcpy(b, line, len);
	memset(ca, 0xA5, sizeof(ca));
	memset(cb, 0xA5, sizeof(cb));
	na = csv_split_delimited(a, len, delim, ca, max, &ua);
	nb = plain_split(b, len, delim, cb, max, &ub);
	if (na != nb || ua != ub)
		ck_abort_msg("%u cells, unterminated %u; plain %u, %u: '%.*s' at '%c'", na, ua, nb,
		             ub, (int)len, line, delim);
	if (memcmp(ca, cb, sizeof(ca)) != 0)
		ck_abort_msg("the cells differ (or one past max is written): '%.*s' at '%c'",
		             (int)len, line, delim);
	if (memcmp(a, b, len) != 0)
		ck_abort_msg("the line is left different: '%.*s' at '%c'", (int)len, line, delim);
}

START_TEST(test_split_edge_cases)
{
	static const char *const lines[] = {
		"",
		",",
		" , ",
		"a,b,c",
		" a , b ,c ",
		"\"a\",\"b\"",
		"\"a,b\",c",
		"\"a\"\"b\",c",
		"\"\"\"\",x",
		"\"a\" tail,b",
		"\"a\" tail",
		"\"unterminated,b",
		"\"",
		"a,\"",
		"\"\"",
		"\"a\"\"",
		"  \"x\"  ,  ",
		"a,,b,",
		"\t\ta\t,\tb",
		"a\"b,c",
	};
	static const char delims[] = { ',', ';', '\t', ' ', '"' };

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		for (size_t d = 0; d < sizeof(delims); d++) {
			check_same(lines[i], strlen(lines[i]), delims[d], CELLS_MAX);
			check_same(lines[i], strlen(lines[i]), delims[d], 1);
			check_same(lines[i], strlen(lines[i]), delims[d], 0);
		}
	}
}
END_TEST

/* Lines of 0 to LINE_MAX_TEST - 1 characters, mostly delimiters, quotes,
 * blanks and letters, some any byte; split at one of the delimiters
 * (a blank among them) with room for 0 to CELLS_MAX cells. */
START_TEST(test_split_random_lines)
{
	static const char alphabet[] = ",,;\t  \"\"\"ab5\r|";
	static const char delims[] = { ',', ';', '\t', '|', ' ' };
	uint32_t state = 0xC5F1A7EDu;
	unsigned quoted = 0, unterminated_seen = 0;
	char line[LINE_MAX_TEST];

	for (int k = 0; k < 200000; k++) {
		size_t len = next_random(&state) % sizeof(line);
		char delim = delims[next_random(&state) % sizeof(delims)];
		unsigned max = next_random(&state) % (CELLS_MAX + 1);
		struct csv_cell cells[CELLS_MAX];
		unsigned u;

		for (size_t i = 0; i < len; i++) {
			uint32_t r = next_random(&state);

			line[i] = r % 16 == 0 ? (char)(r >> 8)
			                      : alphabet[(r >> 8) % (sizeof(alphabet) - 1)];
		}
		check_same(line, len, delim, max);
		quoted += memchr(line, '"', len) != NULL;
		csv_split_delimited(line, len, delim, cells, CELLS_MAX, &u);
		unterminated_seen += u != 0;
	}
	/* the lines reach quoted cells and unterminated ones, often */
	ck_assert_uint_gt(quoted, 50000);
	ck_assert_uint_gt(unterminated_seen, 20000);
}
END_TEST

Suite *suite_csv_split(void)
{
	Suite *s = suite_create("csv_split");
	TCase *tc = tcase_create("delimited");

	tcase_add_test(tc, test_split_edge_cases);
	tcase_add_test(tc, test_split_random_lines);
	suite_add_tcase(s, tc);
	return s;
}
