/* merge_jo.c: the reading of a --merge part's JSON objects, key by key
 * (merge_read_internal.h): a key read once, a key the writer never writes
 * named as a fault, numbers and names checked, a part's first fault kept
 * with its line. */
#include "autoconfig.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/merge_read_internal.h"
#include "report/report.h"

void merge_fail(struct merge_reader *m, const char *fmt, ...)
{
	if (m->failed)
		return;
	m->failed = true;
	int n = snprintf(m->err, sizeof(m->err), "%s: line %" PRIu64 ": ", m->name, m->line);
	if (n < 0 || (size_t)n >= sizeof(m->err))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m->err + n, sizeof(m->err) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* ---- a place's path, written for a message only ------------------------- */

/* s after the n bytes of buf, cut to fit (a path only names the place) */
static void path_put(char *buf, size_t len, size_t *n, const char *s)
{
	size_t k = strlen(s);
	if (k > len - 1 - *n)
		k = len - 1 - *n;
	memcpy(buf + *n, s, k);
	*n += k;
	buf[*n] = '\0';
}

/* "." between j's path and a key of j's: none after the line's empty path */
const char *jo_sep(const struct jo *j)
{
	return j->parent || j->name[0] || j->index != JO_NO_INDEX ? "." : "";
}

/* j's path after the n bytes of buf: its parent's, jo_sep()'s ".", its
 * name and "[index]" */
static void path_write(const struct jo *j, char *buf, size_t len, size_t *n)
{
	if (j->parent) {
		path_write(j->parent, buf, len, n);
		path_put(buf, len, n, jo_sep(j->parent));
	}
	path_put(buf, len, n, j->name);
	if (j->index != JO_NO_INDEX) {
		char item[32];
		snprintf(item, sizeof(item), "[%zu]", j->index);
		path_put(buf, len, n, item);
	}
}

const char *jo_path(struct jo *j)
{
	size_t n = 0;
	j->path[0] = '\0';
	path_write(j, j->path, sizeof(j->path), &n);
	return j->path;
}

/* j at its place, nothing read yet (j->o is the caller's) */
void jo_place(struct jo *j, struct merge_reader *m, const struct jo *parent, const char *name,
              size_t index)
{
	j->m = m;
	j->o = NULL;
	j->parent = parent;
	j->name = name;
	j->index = index;
	j->used = 0;
	j->read_bits = 0;
}

static bool jo_open_at(struct merge_reader *m, struct jo *j, json_t *v, const struct jo *parent,
                       const char *name, size_t index)
{
	jo_place(j, m, parent, name, index);
	j->o = v;
	if (!json_is_object(v)) {
		merge_fail(m, "%s is not an object", jo_sep(j)[0] ? jo_path(j) : "the line");
		return false;
	}
	return true;
}

/* The object v at place ("" the line, "summary.by_severity", ...). */
bool jo_open(struct merge_reader *m, struct jo *j, json_t *v, const char *place)
{
	return jo_open_at(m, j, v, NULL, place, JO_NO_INDEX);
}

/* The object v, item index of parent's array key. */
bool jo_open_item(struct jo *parent, struct jo *j, json_t *v, const char *key, size_t index)
{
	return jo_open_at(parent->m, j, v, parent, key, index);
}

/* ---- an object's keys, each read once ------------------------------------ */

/* A bit of value v's address: the values read are searched only when
 * v's bit is among theirs (an object's keys are each read once, mostly,
 * and a search of them all for each was 4% of fuzz_merge's time). */
static uint64_t jo_value_bit(const json_t *v)
{
	return UINT64_C(1) << (((uintptr_t)v >> 4) & 63);
}

/* The value of key; NULL (a fault unless optional) when there is none. */
json_t *jo_get(struct jo *j, const char *key, bool optional)
{
	json_t *v = j->o ? json_object_get(j->o, key) : NULL;
	if (v) {
		/* a key read again has the value it had; another key has
		 * another value, but for null, true and false (one each) */
		uint64_t bit = jo_value_bit(v);
		if (j->read_bits & bit) {
			size_t n = j->used < 24 ? j->used : 24;
			for (size_t i = 0; i < n; i++)
				if (j->read_v[i] == v && strcmp(j->read[i], key) == 0)
					return v; /* read again */
		}
		j->read_bits |= bit;
		if (j->used < 24) {
			j->read[j->used] = key;
			j->read_v[j->used] = v;
		}
		j->used++;
	} else if (!optional)
		merge_fail(j->m, "key %s%s%s missing", jo_path(j), jo_sep(j), key);
	return v;
}

/* Every key read: one more is a key no report writes. */
void jo_end(struct jo *j)
{
	if (!j->o || j->used == json_object_size(j->o))
		return;
	const char *key;
	json_t *v;
	json_object_foreach(j->o, key, v)
	{
		(void)v;
		size_t i = 0;
		while (i < j->used && i < 24 && strcmp(j->read[i], key) != 0)
			i++;
		if (i < j->used && i < 24)
			continue;
		merge_fail(j->m, "unexpected key %s%s%s", jo_path(j), jo_sep(j), key);
		return;
	}
}

bool jo_child(struct jo *j, const char *key, struct jo *child)
{
	json_t *v = jo_get(j, key, false);
	if (!v) {
		jo_place(child, j->m, j, key, JO_NO_INDEX);
		return false;
	}
	return jo_open_at(j->m, child, v, j, key, JO_NO_INDEX);
}

bool jo_value_u64(struct jo *j, const char *key, json_t *v, uint64_t max, uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > max) {
		merge_fail(j->m, "%s%s%s is not a number from 0 to %" PRIu64, jo_path(j), jo_sep(j),
		           key, max);
		return false;
	}
	*out = (uint64_t)json_integer_value(v);
	return true;
}

/* A number 0..max; *has false for null when nullable. */
uint64_t jo_num(struct jo *j, const char *key, uint64_t max, bool nullable, bool *has)
{
	uint64_t v = 0;
	json_t *x = jo_get(j, key, false);
	if (has)
		*has = false;
	if (!x)
		return 0;
	if (nullable && json_is_null(x))
		return 0;
	if (jo_value_u64(j, key, x, max, &v) && has)
		*has = true;
	return v;
}

uint64_t jo_u64(struct jo *j, const char *key)
{
	return jo_num(j, key, INT64_MAX, false, NULL);
}

uint32_t jo_u32(struct jo *j, const char *key)
{
	return (uint32_t)jo_num(j, key, UINT32_MAX, false, NULL);
}

bool jo_bool(struct jo *j, const char *key)
{
	json_t *v = jo_get(j, key, false);
	if (v && !json_is_boolean(v))
		merge_fail(j->m, "%s%s%s is not true or false", jo_path(j), jo_sep(j), key);
	return json_is_true(v);
}

/* An optional key written only as true. */
bool jo_flag(struct jo *j, const char *key)
{
	json_t *v = jo_get(j, key, true);
	if (v && !json_is_true(v))
		merge_fail(j->m, "%s%s%s is written only as true", jo_path(j), jo_sep(j), key);
	return v != NULL;
}

const char *jo_str(struct jo *j, const char *key)
{
	json_t *v = jo_get(j, key, false);
	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		merge_fail(j->m, "%s%s%s is not a string", jo_path(j), jo_sep(j), key);
		return NULL;
	}
	return json_string_value(v);
}

/* A string that must be one of names[0..count). */
int jo_name(struct jo *j, const char *key, const char *(*name)(unsigned), unsigned count)
{
	const char *s = jo_str(j, key);
	if (!s)
		return -1;
	for (unsigned i = 0; i < count; i++)
		if (name(i) && strcmp(s, name(i)) == 0)
			return (int)i;
	merge_fail(j->m, "%s%s%s: unknown value \"%.60s\"", jo_path(j), jo_sep(j), key, s);
	return -1;
}

/* An array of exactly max (or, up_to, at most max) items. */
json_t *jo_array(struct jo *j, const char *key, size_t max, bool up_to)
{
	json_t *v = jo_get(j, key, false);
	if (!v)
		return NULL;
	if (!json_is_array(v) || json_array_size(v) > max ||
	    (!up_to && json_array_size(v) != max)) {
		merge_fail(j->m, "%s%s%s is not an array of %s%zu items", jo_path(j), jo_sep(j),
		           key, up_to ? "at most " : "", max);
		return NULL;
	}
	return v;
}

/* ---- names as the writers spell them ------------------------------------- */

const char *merge_dir_name(unsigned d)
{
	return link_dir_name((enum link_dir)d);
}
const char *merge_ct_name(unsigned c)
{
	return credit_type_name((enum credit_type)c);
}
const char *merge_sev_name(unsigned s)
{
	return severity_name((enum severity)s);
}
const char *merge_role_name(unsigned r)
{
	return port_role_name((enum port_role)r);
}
const char *merge_kind_name(unsigned k)
{
	return tlp_kind_name((enum tlp_kind)k);
}
const char *merge_status_name(unsigned s)
{
	return tl_status_view_name((enum tl_status_view)s);
}

/* An object whose keys are all names of names[] (each at most once),
 * each a number: counts[i]. */
void jo_counts(struct jo *parent, const char *key, const char *(*name)(unsigned), unsigned count,
               uint64_t *counts)
{
	struct jo j;
	if (!jo_child(parent, key, &j))
		return;
	const char *k;
	json_t *v;
	json_object_foreach(j.o, k, v)
	{
		unsigned i = 0;
		while (i < count && (!name(i) || strcmp(k, name(i)) != 0))
			i++;
		if (i == count) {
			merge_fail(parent->m, "%s: unknown key \"%.60s\"", jo_path(&j), k);
			return;
		}
		jo_value_u64(&j, k, v, INT64_MAX, &counts[i]);
	}
}
