/* vcd_parse.h: a streaming reader of Value Change Dump files (IEEE
 * 1364-2005 clause 18, four-state), as simulators and logic analyzers
 * write them (capture-format.md section 4 "Input").
 *
 * vcd_read_header() reads the declarations up to $enddefinitions and
 * lists every $var with its full dotted scope path.  The caller then
 * watches the variables it needs, giving each a slot number; vcd_next()
 * returns the value changes of watched variables only, and the time
 * steps, in file order.  Nothing grows with the length of the file:
 * unwatched changes are skipped without being stored.
 */
#ifndef DLLPCHECK_VCD_PARSE_H
#define DLLPCHECK_VCD_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct vcd_var {
	const char *path; /* "tb.rp.txdata0": scopes and name joined by '.' */
	const char *name; /* the last part (inside path) */
	const char *kind; /* "wire", "reg", "logic", "string", ... */
	const char *id; /* the identifier code */
	unsigned width; /* the $var size */
	bool has_range; /* a reference "[msb:lsb]" or "[bit]" was given */
	int msb, lsb;
	uint64_t line; /* of the $var */
};

/* Where the input failed or a line was skipped, and why. */
struct vcd_error {
	uint64_t line;
	uint64_t byte_offset;
	char reason[200];
};

enum vcd_event {
	VCD_TIME, /* *time_ps is the new current time */
	VCD_CHANGE, /* *ch holds a watched variable's new value */
	VCD_BAD, /* a line that does not parse: *err says where; call again */
	VCD_EOF,
	VCD_FATAL, /* cannot go on (read error, out of memory): *err */
};

struct vcd_change {
	unsigned slot; /* as given to vcd_watch */
	uint64_t value; /* bits 0 = 0 or 1 values, the lowest 64 bits */
	uint64_t unknown; /* bits that were x or z (value bit 0 there) */
	uint64_t line; /* of the change */
	uint64_t byte_offset;
};

struct vcd_parser;

/* Does not take fp: the caller closes it after vcd_free(). */
struct vcd_parser *vcd_new(FILE *fp, const char *file);
/* false with *err filled when the header cannot be read (no
 * $enddefinitions, a $timescale that is not one, ...). */
bool vcd_read_header(struct vcd_parser *p, struct vcd_error *err);
size_t vcd_var_count(const struct vcd_parser *p);
const struct vcd_var *vcd_var_at(const struct vcd_parser *p, size_t index);
/* The $timescale in femtoseconds (1 fs .. 100 s); 1 ns = 1e6 when the
 * file gives none (the IEEE default is not defined; simulators write 1ns
 * or 1ps; the choice is reported by --dump-columns). */
uint64_t vcd_timescale_fs(const struct vcd_parser *p);
/* Deliver this variable's changes as slot.  Variables sharing an
 * identifier code are the same signal: watching one watches its code.
 * false: the variable is wider than 64 bits or slot is out of range. */
bool vcd_watch(struct vcd_parser *p, size_t index, unsigned slot);
enum vcd_event vcd_next(struct vcd_parser *p, uint64_t *time_ps, struct vcd_change *ch,
                        struct vcd_error *err);
/* Bytes read so far (uncompressed) and the current line. */
uint64_t vcd_bytes_read(const struct vcd_parser *p);
/* Added by the reader (h-vcd): the line and line-start byte offset of
 * what vcd_next() returned last (the #time of a VCD_TIME), so that a
 * symbol's edge names the line a user finds in the file. */
void vcd_position(const struct vcd_parser *p, uint64_t *line, uint64_t *byte_offset);
/* Added: for the unit test of the speed trick: whether the vector parser
 * that reads eight '0'/'1' characters at a time gives what the plain one
 * gives for s[0..n). */
bool vcd_bits_agree(const char *s, size_t n);
/* Added: whether the file gave a $timescale (else the 1 ns default). */
bool vcd_timescale_given(const struct vcd_parser *p);
void vcd_free(struct vcd_parser *p);

#endif
