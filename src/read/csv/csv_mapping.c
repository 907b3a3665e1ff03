/* csv_mapping.c: the fields' columns (the header's aliases, then --map),
 * the units the header and options give their values, and the columns an
 * export cannot be read without.  specification: capture-format.md
 * section 3. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/ascii.h"
#include "base/time_unit.h"
#include "read/csv/csv_internal.h"

static void column_list(const struct csv_reader *r, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < r->ncols && o + 1 < size; i++) {
		int n = snprintf(out + o, size - o, "%s#%u '%s'", i ? ", " : "", i + 1,
		                 r->cols[i].name);

		if (n < 0)
			break;
		o += (size_t)n;
	}
}

static int column_by_name(const struct csv_reader *r, const char *name)
{
	char norm[CSV_NAME_MAX];

	csv_normalise_name(name, strlen(name), norm, sizeof(norm), NULL, 0);
	for (unsigned i = 0; i < r->ncols; i++) {
		if (ascii_eq_nocase(name, strlen(name), r->cols[i].name))
			return (int)i;
	}
	for (unsigned i = 0; i < r->ncols; i++) {
		if (norm[0] != '\0' && strcmp(norm, r->cols[i].norm) == 0)
			return (int)i;
	}
	return -1;
}

static bool apply_map(struct csv_reader *r, char *err, size_t errlen)
{
	char list[512];

	for (int f = 0; f < CSV_F_COUNT; f++) {
		const struct csv_map_entry *m = &r->o.map[f];
		int c = -1;

		switch (m->how) {
		case CSV_MAP_AUTO:
			continue;
		case CSV_MAP_NONE:
			break;
		case CSV_MAP_INDEX:
			if (r->header_line_no != 0 && m->index > r->ncols)
				return csv_set_err(err, errlen,
				                   "%s: --map %s=#%u: the header has %u columns",
				                   r->name, csv_field_names[f], m->index, r->ncols);
			c = (int)m->index - 1;
			break;
		case CSV_MAP_NAME:
			if (r->header_line_no == 0)
				return csv_set_err(err, errlen,
				                   "%s: --map %s=%s: no header "
				                   "to find it in; use #N",
				                   r->name, csv_field_names[f], m->name);
			c = column_by_name(r, m->name);
			if (c < 0) {
				column_list(r, list, sizeof(list));
				return csv_set_err(err, errlen,
				                   "%s: --map %s=%s: no such column (%s)", r->name,
				                   csv_field_names[f], m->name, list);
			}
			break;
		}
		r->field_col[f] = c;
		r->field_src[f] = c < 0 ? CSV_SRC_NONE : CSV_SRC_MAP;
	}
	return true;
}

static bool unit_is_bytes(const char *unit)
{
	return strcmp(unit, "bytes") == 0 || strcmp(unit, "byte") == 0 || strcmp(unit, "b") == 0;
}

/* What the header's units and the options say about the values. */
static bool set_units(struct csv_reader *r, char *err, size_t errlen)
{
	int tc = r->field_col[CSV_F_TIME];
	int dc = r->field_col[CSV_F_DATA_FC];
	int lc = r->field_col[CSV_F_LENGTH];
	bool ticks = false;
	int pow = 12;
	const struct time_unit *u;

	if (tc >= 0 && (unsigned)tc < r->ncols) {
		const struct csv_column *c = &r->cols[tc];

		csv_field_lookup(c->norm, &ticks);
		ticks |= csv_ticks_unit(c->unit, strlen(c->unit));
		u = time_unit_find_nocase(c->unit, strlen(c->unit));
		if (c->unit[0] != '\0' && u != NULL)
			pow = u->pow10;
		if (ticks && r->o.clock_period_fs == 0)
			return csv_set_err(err, errlen,
			                   "%s: column #%d '%s' counts clock ticks: give "
			                   "--clock-period",
			                   r->name, tc + 1, c->name);
	}
	if (r->o.time_unit_pow >= 0)
		pow = r->o.time_unit_pow;
	r->time_pow = pow;
	r->time_ticks = r->o.clock_period_fs != 0;
	r->data_fc_bytes = dc >= 0 && (unsigned)dc < r->ncols && unit_is_bytes(r->cols[dc].unit);
	r->length_bytes = lc >= 0 && (unsigned)lc < r->ncols && unit_is_bytes(r->cols[lc].unit);
	return true;
}

/* The column an export cannot be read without, as a message; NULL when
 * it has them all. */
static const char *missing_column(const struct csv_reader *r)
{
	if (r->field_col[CSV_F_DIR] < 0)
		return "no direction column: name one with --map dir=COLUMN";
	if (r->field_col[CSV_F_RAW] < 0 && r->field_col[CSV_F_KIND] < 0 &&
	    r->field_col[CSV_F_DLLP_TYPE] < 0 && r->field_col[CSV_F_TLP_TYPE] < 0)
		return "no raw-bytes or packet-type column: name one with "
		       "--map raw=COLUMN or --map type=COLUMN";
	return NULL;
}

bool csv_resolve_mapping(struct csv_reader *r, char *err, size_t errlen)
{
	const char *missing;

	for (unsigned i = 0; i < r->ncols; i++) {
		int f = r->cols[i].field;

		if (f >= 0 && r->field_col[f] < 0) {
			r->field_col[f] = (int)i;
			r->field_src[f] = CSV_SRC_ALIAS;
		}
	}
	if (!apply_map(r, err, errlen) || !set_units(r, err, errlen))
		return false;
	missing = missing_column(r);
	if (missing == NULL)
		return true;
	/* --dump-columns shows what is missing instead of failing on it. */
	if (r->o.dump_only) {
		if (r->problem[0] == '\0')
			snprintf(r->problem, sizeof(r->problem), "%s", missing);
		return true;
	}
	return csv_set_err(err, errlen, "%s: %s", r->name, missing);
}
