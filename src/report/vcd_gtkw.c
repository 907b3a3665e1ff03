/* vcd_gtkw.c: the GTKWave save file of a --vcd waveform (FILE.gtkw, or
 * --gtkw FILE), so that `gtkwave FILE.vcd FILE.gtkw` opens it with the
 * signals grouped and the credits drawn as steps.
 *
 * The format is GTKWave's own (its manual, "Save File Format"; the flag
 * bits of its analyzer.h): "[dumpfile] \"path\"", "[timestart] t", then
 * the traces in order, each a full hierarchical name ("a.b.c[11:0]" for a
 * vector, as GTKWave names it), preceded by "@flags" in hex:
 *
 *   0x000004 TR_DEC      0x000400 TR_SIGNED       0x020000 TR_ANALOG_BLANK_STRETCH
 *   0x000002 TR_HEX      0x008000 TR_ANALOG_STEP  0x800000 TR_GRP_BEGIN
 *   0x000008 TR_BIN      0x000200 TR_BLANK        0x1000000 TR_GRP_END
 *   0x000020 TR_RJUSTIFY
 *
 * A group is a blank trace "-name" with TR_GRP_BEGIN|TR_BLANK before its
 * traces and one with TR_GRP_END|TR_BLANK after; an analog trace is made
 * taller by blank traces "-" flagged TR_ANALOG_BLANK_STRETCH after it. */
#include "autoconfig.h"

#include <errno.h>
#include <string.h>

#include "report/vcd_write_internal.h"

#define TR_HEX 0x2u
#define TR_DEC 0x4u
#define TR_BIN 0x8u
#define TR_RJUSTIFY 0x20u
#define TR_BLANK 0x200u
#define TR_SIGNED 0x400u
#define TR_ANALOG_STEP 0x8000u
#define TR_ANALOG_BLANK_STRETCH 0x20000u
#define TR_GRP_BEGIN 0x800000u
#define TR_GRP_END 0x1000000u

/* Rows an analog credit trace takes (itself and its stretch rows). */
#define ANALOG_ROWS 3

static unsigned role_flags(enum vcd_role role)
{
	switch (role) {
	case ROLE_PULSE:
	case ROLE_FLAG:
		return TR_BIN | TR_RJUSTIFY;
	case ROLE_SIGNED:
		return TR_SIGNED | TR_RJUSTIFY;
	case ROLE_AVAILABLE:
		/* signed: -1 is the infinite marker */
		return TR_ANALOG_STEP | TR_SIGNED | TR_RJUSTIFY;
	case ROLE_COUNTER:
		/* as the findings' sentences print CL and CC */
		return TR_HEX | TR_RJUSTIFY;
	case ROLE_RECORD:
	case ROLE_ENUM:
	case ROLE_NUMBER:
		break;
	}
	return TR_DEC | TR_RJUSTIFY;
}

/* A group's name: the scope's path below dllpcheck, '.' as ' '
 * ("link0 port_down vc0"). */
static void put_group(FILE *fp, unsigned flags, const char *path)
{
	const char *p = strchr(path, '.');
	fprintf(fp, "@%x\n-", flags);
	for (p = p ? p + 1 : path; *p; p++)
		fputc(*p == '.' ? ' ' : *p, fp);
	fputc('\n', fp);
}

static void gtkw_scope_begin(void *ctx, const char *name, const char *path)
{
	(void)name;
	if (strchr(path, '.')) /* not the top scope, dllpcheck */
		put_group(ctx, TR_GRP_BEGIN | TR_BLANK, path);
}

static void gtkw_scope_end(void *ctx, const char *name, const char *path)
{
	(void)name;
	if (strchr(path, '.'))
		put_group(ctx, TR_GRP_END | TR_BLANK, path);
}

static void gtkw_var(void *ctx, const struct vcd_var *v, const char *path)
{
	FILE *fp = ctx;
	fprintf(fp, "@%x\n%s.%s", role_flags(v->role), path, v->name);
	if (v->kind == VAR_INTEGER)
		fputs("[31:0]", fp);
	else if (v->sig->width > 1)
		fprintf(fp, "[%u:0]", v->sig->width - 1u);
	fputc('\n', fp);
	if (v->role == ROLE_AVAILABLE) {
		fprintf(fp, "@%x\n", TR_ANALOG_BLANK_STRETCH);
		for (unsigned i = 1; i < ANALOG_ROWS; i++)
			fputs("-\n", fp);
	}
}

/* GTKWave reads the path between the quotes as it is: a path it could
 * not read back is left out (the command line names the VCD anyway). */
static bool quotable(const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if (*c < 0x20 || *c == 0x7f || *c == '"')
			return false;
	return true;
}

bool vcd_gtkw_write(struct vcd_write *w)
{
	FILE *fp = w->gtkw.fp;
	fprintf(fp, "[*] dllpcheck %s: the shadow model's waveform (dllpcheck(1), THE WAVEFORM)\n",
	        PACKAGE_VERSION);
	if (quotable(w->vcd_name))
		fprintf(fp, "[dumpfile] \"%s\"\n", w->vcd_name);
	fputs("[timestart] 0\n", fp);
	struct vcd_walker walker = { gtkw_scope_begin, gtkw_scope_end, gtkw_var, fp };
	vcd_walk(w, &walker);
	if (ferror(fp)) {
		w->failed = true;
		snprintf(w->error, sizeof(w->error), "--gtkw %s: cannot write: %s", w->gtkw_name,
		         strerror(errno));
		return false;
	}
	return true;
}
