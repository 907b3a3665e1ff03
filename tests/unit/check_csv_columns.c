/* check_csv_columns.c: the normalising of column names
 * (read/csv/csv_columns.c), which walks pointers and finds the unit's
 * brackets with memchr, against the plain loops it replaced (below, as
 * they were): the same name and unit for many random header cells made
 * of the characters that matter, with room of every size, and for the
 * edge cases written out. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/ascii.h"
#include "read/csv/csv_internal.h"
#include "read/csv/reader_csv.h"
#include "suites.h"
#include "xorshift.h"

/* ------------------------------------------------------------------ */
/* The reference: csv_normalise_into() and csv_normalise_name() before
 * they walked pointers */

static bool plain_drop(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '_' ||
	       c == '-' || c == '.' || c == '#';
}

static void plain_into(const char *s, size_t len, char *out, size_t size)
{
	size_t o = strlen(out);

	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (!plain_drop(s[i]))
			out[o++] = ascii_lower(s[i]);
	}
	out[o] = '\0';
}

static void plain_name(const char *s, size_t len, char *name, size_t name_size, char *unit,
                       size_t unit_size)
{
	if (name_size > 0)
		name[0] = '\0';
	if (unit_size > 0)
		unit[0] = '\0';
	csv_trim(&s, &len);
	for (size_t i = 0; i < len; i++) {
		char close = s[i] == '(' ? ')' : s[i] == '[' ? ']' : '\0';
		const char *end;

		if (close == '\0')
			continue;
		end = memchr(s + i + 1, close, len - i - 1);
		if (end == NULL)
			break;
		if (name_size > 0)
			plain_into(s, i, name, name_size);
		if (unit_size > 0)
			plain_into(s + i + 1, (size_t)(end - s) - i - 1, unit, unit_size);
		if (name_size > 0)
			plain_into(end + 1, len - (size_t)(end + 1 - s), name, name_size);
		return;
	}
	if (name_size > 0)
		plain_into(s, len, name, name_size);
}

/* ------------------------------------------------------------------ */

#define ROOM 24

/* Both agree on s[0 .. len) with name_size and unit_size bytes of room
 * (0 for none), writing nothing past it.  Asserts only on a difference:
 * an assertion that holds still costs Check a write. */
static void check_same(const char *s, size_t len, size_t name_size, size_t unit_size)
{
	char na[ROOM + 4], nb[ROOM + 4], ua[ROOM + 4], ub[ROOM + 4];

	memset(na, 'Z', sizeof(na));
	memset(nb, 'Z', sizeof(nb));
	memset(ua, 'Z', sizeof(ua));
	memset(ub, 'Z', sizeof(ub));
	csv_normalise_name(s, len, na, name_size, unit_size > 0 ? ua : NULL, unit_size);
	plain_name(s, len, nb, name_size, unit_size > 0 ? ub : NULL, unit_size);
	if (memcmp(na, nb, sizeof(na)) != 0 || memcmp(ua, ub, sizeof(ua)) != 0)
		ck_abort_msg("'%.*s' (room %zu, %zu): name '%.*s' unit '%.*s'; plain '%.*s' '%.*s'",
		             (int)len, s, name_size, unit_size, ROOM, na, ROOM, ua, ROOM, nb, ROOM,
		             ub);
}

START_TEST(test_names_edge_cases)
{
	static const char *const cells[] = {
		"",
		"  ",
		"Time",
		"Time (ns)",
		"Time [us] stamp",
		"Len [DW",
		"Len (DW]",
		"a[b(c)d]e",
		"a(b[c]d)e",
		"(",
		"()",
		"[]x",
		" Seq_Num # ",
		"Time (ns",
		"x (y) (z)",
		"\tRaw-Data.\r",
	};

	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		for (size_t room = 0; room <= ROOM; room++) {
			check_same(cells[i], strlen(cells[i]), room, room);
			check_same(cells[i], strlen(cells[i]), room, 0);
			check_same(cells[i], strlen(cells[i]), ROOM, room);
		}
	}
}
END_TEST

/* Cells of 0 to 39 characters, mostly letters, the dropped characters
 * and brackets, some any byte; with room for 0 to ROOM bytes each. */
START_TEST(test_names_random_cells)
{
	static const char alphabet[] = "aBcZ09 _-.#\t()[]()";
	uint32_t state = 0x5EEDC011u;
	unsigned with_unit = 0;
	char s[40];

	for (int k = 0; k < 200000; k++) {
		size_t len = next_random(&state) % sizeof(s);
		size_t name_size = next_random(&state) % (ROOM + 1);
		size_t unit_size = next_random(&state) % (ROOM + 1);
		char unit[ROOM];

		for (size_t i = 0; i < len; i++) {
			uint32_t r = next_random(&state);

			s[i] = r % 16 == 0 ? (char)(r >> 8)
			                   : alphabet[(r >> 8) % (sizeof(alphabet) - 1)];
		}
		check_same(s, len, name_size, unit_size);
		csv_normalise_name(s, len, NULL, 0, unit, sizeof(unit));
		with_unit += unit[0] != '\0';
	}
	/* the cells reach units, often */
	ck_assert_uint_gt(with_unit, 30000);
}
END_TEST

Suite *suite_csv_columns(void)
{
	Suite *s = suite_create("csv_columns");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_names_edge_cases);
	tcase_add_test(tc, test_names_random_cells);
	suite_add_tcase(s, tc);
	return s;
}
