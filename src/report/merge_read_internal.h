/* merge_read_internal.h: what merge_read.c and merge_jo.c share (private
 * to src/report/): a part's faults, and an object's keys read once each. */
#ifndef DLLPCHECK_MERGE_READ_INTERNAL_H
#define DLLPCHECK_MERGE_READ_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "report/merge_read.h"

/* An object of a part, or (a chart's tuples) an array item: its place is
 * its parent's, a name and an index, and its path ("links[0].vcs[1].down")
 * is written only for a message (jo_path()), not for each object read. */
#define JO_NO_INDEX SIZE_MAX
struct jo {
	struct merge_reader *m;
	json_t *o;
	const struct jo *parent; /* NULL: name is the whole place */
	const char *name; /* a key of parent's, or a place ("" the line) */
	size_t index; /* of the array name, or JO_NO_INDEX */
	char path[160]; /* jo_path()'s */
	size_t used;
	const char *read[24]; /* the keys read, to name one that was not */
	const json_t *read_v[24]; /* and their values (jo_get) */
	uint64_t read_bits; /* jo_value_bit() of each value read */
};

void merge_fail(struct merge_reader *m, const char *fmt, ...) PRINTF_LIKE(2, 3);
void jo_place(struct jo *j, struct merge_reader *m, const struct jo *parent, const char *name,
              size_t index);
const char *jo_path(struct jo *j);
bool jo_open(struct merge_reader *m, struct jo *j, json_t *v, const char *place);
bool jo_open_item(struct jo *parent, struct jo *j, json_t *v, const char *key, size_t index);
const char *jo_sep(const struct jo *j);
json_t *jo_get(struct jo *j, const char *key, bool optional);
void jo_end(struct jo *j);
bool jo_child(struct jo *j, const char *key, struct jo *child);
bool jo_value_u64(struct jo *j, const char *key, json_t *v, uint64_t max, uint64_t *out);
uint64_t jo_num(struct jo *j, const char *key, uint64_t max, bool nullable, bool *has);
uint64_t jo_u64(struct jo *j, const char *key);
uint32_t jo_u32(struct jo *j, const char *key);
bool jo_bool(struct jo *j, const char *key);
bool jo_flag(struct jo *j, const char *key);
const char *jo_str(struct jo *j, const char *key);
int jo_name(struct jo *j, const char *key, const char *(*name)(unsigned), unsigned count);
json_t *jo_array(struct jo *j, const char *key, size_t max, bool up_to);
const char *merge_dir_name(unsigned d);
const char *merge_ct_name(unsigned c);
const char *merge_sev_name(unsigned s);
const char *merge_role_name(unsigned r);
const char *merge_kind_name(unsigned k);
const char *merge_status_name(unsigned s);
/* merge_read.c, for merge_chart.c */
void merge_check_version(struct merge_reader *m, struct jo *j);
bool merge_same_file(struct merge_reader *m, const char *file);
/* merge_chart.c: a finding of the input (its marker's series kept), the
 * charts line, a chart line, the end of the input's charts */
void merge_chart_finding(struct merge_reader *m, const struct finding *f);
void merge_read_charts(struct merge_reader *m, struct jo *j);
void merge_read_chart(struct merge_reader *m, struct jo *j);
void merge_charts_end(struct merge_reader *m);
void jo_counts(struct jo *parent, const char *key, const char *(*name)(unsigned), unsigned count,
               uint64_t *counts);

#endif
