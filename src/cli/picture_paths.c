/* picture_paths.c: the pictures' files (picture_paths.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/out_file.h"
#include "cli/picture_paths.h"

/* A device or a FIFO (/dev/null): written in place, never renamed. */
static bool not_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

/* Where the extension of path begins (its end when it has none). */
static const char *extension(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(path, '.');
	if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : path))
		dot = path + strlen(path);
	return dot;
}

static void batch_path(const char *given, const struct config *cfg, int index, char *buf,
                       size_t len)
{
	if (cfg->input_count <= 1 || not_regular(given)) {
		snprintf(buf, len, "%s", given);
		return;
	}
	const char *dot = extension(given);
	snprintf(buf, len, "%.*s-%d%s", (int)(dot - given), given, index + 1, dot);
}

void picture_paths(const struct config *cfg, int index, char *vcd, size_t vcd_len, char *gtkw,
                   size_t gtkw_len, bool *has_gtkw)
{
	batch_path(cfg->vcd_path, cfg, index, vcd, vcd_len);
	*has_gtkw = true;
	if (cfg->gtkw_path) {
		batch_path(cfg->gtkw_path, cfg, index, gtkw, gtkw_len);
	} else if (not_regular(vcd)) {
		*has_gtkw = false;
	} else {
		const char *dot = extension(vcd);
		snprintf(gtkw, gtkw_len, "%.*s.gtkw", (int)(dot - vcd), vcd);
	}
}

void annotate_path(const struct config *cfg, int index, char *buf, size_t len)
{
	batch_path(cfg->annotate_path, cfg, index, buf, len);
}

/* The annotated capture of input index and the other outputs: -o, and the
 * input's VCD and save file. */
static bool annotate_check(const struct config *cfg, int index, char *err, size_t len)
{
	char ann[4096], vcd[4096], gtkw[4096];
	annotate_path(cfg, index, ann, sizeof(ann));
	bool has_vcd = cfg->vcd_path != NULL, has_gtkw = false;
	if (has_vcd)
		picture_paths(cfg, index, vcd, sizeof(vcd), gtkw, sizeof(gtkw), &has_gtkw);
	const char *clash = NULL, *with = NULL;
	if (cfg->output_path && strcmp(cfg->output_path, "-") != 0 &&
	    out_file_same(cfg->output_path, ann))
		clash = "-o", with = cfg->output_path;
	else if (has_vcd && out_file_same(vcd, ann))
		clash = "--vcd", with = vcd;
	else if (has_gtkw && out_file_same(gtkw, ann))
		clash = "--gtkw", with = gtkw;
	if (!clash)
		return true;
	snprintf(err, len,
	         "%s %.1000s and the annotated capture (--annotate %.1000s) would be one file: "
	         "give each output a name of its own",
	         clash, with, ann);
	return false;
}

bool picture_paths_check(const struct config *cfg, char *err, size_t len)
{
	for (int i = 0; cfg->annotate_path && i < cfg->input_count; i++)
		if (!annotate_check(cfg, i, err, len))
			return false;
	if (!cfg->vcd_path)
		return true;
	for (int i = 0; i < cfg->input_count; i++) {
		char vcd[4096], gtkw[4096];
		bool has_gtkw;
		picture_paths(cfg, i, vcd, sizeof(vcd), gtkw, sizeof(gtkw), &has_gtkw);
		const char *clash = NULL, *with = NULL;
		if (has_gtkw && out_file_same(vcd, gtkw))
			clash = "--gtkw", with = gtkw;
		else if (cfg->output_path && strcmp(cfg->output_path, "-") != 0 &&
		         out_file_same(cfg->output_path, vcd))
			clash = "-o", with = cfg->output_path;
		else if (cfg->output_path && has_gtkw && strcmp(cfg->output_path, "-") != 0 &&
		         out_file_same(cfg->output_path, gtkw))
			clash = "-o", with = cfg->output_path;
		if (clash) {
			snprintf(err, len,
			         "%s %.1000s and the waveform's files (%.1000s%s%.1000s) would be "
			         "one "
			         "file: give each output a name of its own",
			         clash, with, vcd, has_gtkw ? ", " : "", has_gtkw ? gtkw : "");
			return false;
		}
	}
	return true;
}
