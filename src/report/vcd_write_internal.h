/* vcd_write_internal.h: the signals of one --vcd waveform, shared by the
 * VCD writer (vcd_write.c) and its GTKWave save file (vcd_gtkw.c).
 * Private to report/.
 *
 * A signal exists once it was written: its identifier code is given at
 * its first value, and only signals with a code are declared (the VCD
 * header and the save file walk the same table, vcd_walk()).  The table
 * is fixed per link (allocated at the link's first value), so memory is
 * bounded by FC_LINK_COUNT links whatever the capture's length. */
#ifndef DLLPCHECK_VCD_WRITE_INTERNAL_H
#define DLLPCHECK_VCD_WRITE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/out_file.h"
#include "base/spool.h"
#include "core/rules.h"
#include "model/fc_model.h"

struct vcd_sig {
	uint32_t code; /* identifier number + 1; 0: never written, not declared */
	uint8_t width; /* bits (CL, CC: the largest counter width seen) */
	uint8_t code_len;
	char code_str[6]; /* the identifier code (vcd_code()), NUL-terminated */
	/* the value written last (integers: two's complement), VCD_TOLD_X
	 * for x, VCD_TOLD_NONE before the first (put() compares one word) */
	uint64_t told;
};

/* Values no signal has: the widest one (a record number) counts records,
 * and a run does not read 2^63 of them. */
#define VCD_TOLD_X (UINT64_C(1) << 63)
#define VCD_TOLD_NONE (VCD_TOLD_X | 1u)

/* The signals of one credit type, in the order they are declared. */
enum vcd_credit_sig { VCD_AVAILABLE, VCD_CL, VCD_CC, VCD_UNCERTAIN, VCD_CREDIT_SIGS };

struct vcd_credit {
	struct vcd_sig sig[VCD_CREDIT_SIGS];
	bool told; /* a value was told: the uncertain flag follows may_lag */
	bool limit_uncertain; /* as told last */
};

struct vcd_vc {
	struct vcd_sig init;
	struct vcd_credit ct[CT_COUNT];
};

enum vcd_port_sig { VCD_NEXT_SEQ, VCD_ACKD_SEQ, VCD_TLPS, VCD_REQUESTS, VCD_PORT_SIGS };

struct vcd_port {
	struct vcd_sig sig[VCD_PORT_SIGS];
	bool may_lag; /* consumed_may_lag as told last */
	struct vcd_vc vc[FC_VC_COUNT];
};

struct vcd_link {
	struct vcd_sig state;
	struct vcd_port port[DIR_COUNT];
};

/* A rule's pulse: 1 from its finding's time to the next later time
 * written. */
enum vcd_pulse {
	PULSE_LOW = 0,
	PULSE_RAISED, /* 1, raised at the time being written */
	PULSE_DUE, /* 1, raised before it: falls in the time being written */
};

struct vcd_findings {
	struct vcd_sig rule[RULE_COUNT];
	uint8_t pulse[RULE_COUNT]; /* enum vcd_pulse */
	unsigned pulses_high; /* rules not PULSE_LOW */
	struct vcd_sig record, link;
	/* record and link hold the first finding of a time: a signal changes
	 * once a time (a later finding at the same time only pulses) */
	bool told_at_time;
	uint64_t told_time_ps;
};

#define VCD_BUF_SIZE 65536

struct vcd_write {
	struct out_file vcd; /* the VCD (see vcd_write.c for its two ways) */
	struct out_file gtkw; /* the save file (gtkw.fp NULL: none) */
	bool gtkw_open;
	char *vcd_name; /* the VCD's path, as given (messages, [dumpfile]) */
	char *gtkw_name;
	char *input; /* the capture's name, for the header's comment */
	/* the value changes, as they come, for an output that is a device
	 * or a FIFO (base/spool.h); NULL for a regular file, where they go
	 * into the output itself, after the room kept for the header */
	FILE *body;
	uint64_t header_room; /* bytes kept before the body; 0: none yet */
	char buf[VCD_BUF_SIZE]; /* the body's pending bytes */
	size_t buf_len;
	bool has_time; /* a #time was written */
	uint64_t time_ps; /* the time being written */
	uint32_t codes; /* identifier codes given */
	bool failed;
	char error[512]; /* the first error, naming the file */
	struct vcd_findings findings;
	struct vcd_link *link_sigs[FC_LINK_COUNT];
};

/* The declaration of one signal, as the walk meets it. */
enum vcd_var_kind {
	VAR_WIRE, /* $var wire W */
	VAR_INTEGER, /* $var integer 32 (signed) */
};

enum vcd_role {
	ROLE_PULSE, /* a finding's 1-bit pulse */
	ROLE_RECORD, /* a record number */
	ROLE_SIGNED, /* a signed integer (link) */
	ROLE_AVAILABLE, /* credits available: an analog step trace */
	ROLE_COUNTER, /* CL, CC */
	ROLE_FLAG, /* 1-bit flag */
	ROLE_ENUM, /* init, link state */
	ROLE_NUMBER, /* sequence numbers, counts */
};

struct vcd_var {
	const struct vcd_sig *sig;
	enum vcd_var_kind kind;
	enum vcd_role role;
	const char *name;
};

struct vcd_walker {
	/* a scope with at least one declared signal begins / ends;
	 * path is its hierarchical name ("dllpcheck.link0.port_down") */
	void (*scope_begin)(void *ctx, const char *name, const char *path);
	void (*scope_end)(void *ctx, const char *name, const char *path);
	void (*var)(void *ctx, const struct vcd_var *v, const char *path);
	void *ctx;
};

/* Every declared signal, scope by scope: dllpcheck > findings, then
 * dllpcheck > link<N> > port_down, port_up > vc<N>, in index order. */
void vcd_walk(const struct vcd_write *w, const struct vcd_walker *walker);

/* An identifier code (printable ASCII 33..126, shortest first) of code
 * number n (sig->code - 1) into out (at least 8 bytes); returns its
 * length. */
unsigned vcd_code(uint32_t n, char *out);

/* Writes the GTKWave save file of w (vcd_gtkw.c); false with w->error
 * set when it cannot be written. */
bool vcd_gtkw_write(struct vcd_write *w);

#endif
