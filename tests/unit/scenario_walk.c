/* scenario_walk.c: the scenario inputs and their options (scenario_walk.h). */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_parse.h"
#include "scenario_walk.h"

void scenario_options(struct config *cfg, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return;
	char text[1024];
	size_t n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	char err[256] = "";
	char *save = NULL;
	for (char *opt = strtok_r(text, " \t\n", &save); opt;
	     opt = strtok_r(NULL, " \t\n", &save)) {
		char *val = strchr(opt, '=');
		if (val && strncmp(opt, "--", 2) == 0)
			*val++ = '\0';
		else
			val = strtok_r(NULL, " \t\n", &save);
		ck_assert_msg(val != NULL, "%s: %s without a value", path, opt);
		bool ok;
		if (strcmp(opt, "--role") == 0)
			ok = parse_roles(val, cfg->fc.role, err, sizeof(err));
		else if (strcmp(opt, "--mps") == 0)
			ok = parse_mps(val, &cfg->fc.mps, err, sizeof(err));
		else if (strcmp(opt, "--mrrs") == 0)
			ok = parse_mrrs(val, &cfg->fc.mrrs, err, sizeof(err));
		else if (strcmp(opt, "--cpl-timeout") == 0) {
			ok = parse_microseconds(val, &cfg->fc.cpl_timeout_ps, err, sizeof(err));
			cfg->fc.tag_reuse_window_ps = cfg->fc.cpl_timeout_ps;
		} else if (strcmp(opt, "--tc-map") == 0)
			ok = parse_tc_map(val, cfg->fc.tc_to_vc, err, sizeof(err));
		else if (strcmp(opt, "--initial-credits") == 0)
			ok = parse_initial_credits(val, cfg->fc.initial, err, sizeof(err));
		else
			ck_abort_msg("%s: option %s is new to scenario_walk.c's "
			             "scenario_options(): add it there",
			             path, opt);
		ck_assert_msg(ok, "%s: %s %s: %s", path, opt, val, err);
	}
}

unsigned scenario_each(void (*each)(const char *input, struct config *cfg, void *ctx), void *ctx)
{
	char top[4096];
	snprintf(top, sizeof(top), "%s/tests/scenarios", SRCDIR);
	DIR *dir = opendir(top);
	ck_assert_msg(dir != NULL, "cannot open %s", top);
	unsigned inputs = 0;
	struct dirent *de;
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char sub[4096 + 256];
		snprintf(sub, sizeof(sub), "%s/%s", top, de->d_name);
		DIR *cases = opendir(sub);
		if (!cases)
			continue;
		struct dirent *ce;
		while ((ce = readdir(cases)) != NULL) {
			const char *dot = strrchr(ce->d_name, '.');
			if (!dot || (strcmp(dot, ".trace") != 0 && strcmp(dot, ".pcap") != 0))
				continue;
			char input[8192], args[8192];
			snprintf(input, sizeof(input), "%s/%s", sub, ce->d_name);
			struct config cfg;
			config_init(&cfg);
			snprintf(args, sizeof(args), "%s/%.*s.args", sub, (int)(dot - ce->d_name),
			         ce->d_name);
			FILE *own = fopen(args, "r");
			if (own)
				fclose(own);
			else
				snprintf(args, sizeof(args), "%s/args", sub);
			scenario_options(&cfg, args);
			each(input, &cfg, ctx);
			inputs++;
		}
		closedir(cases);
	}
	closedir(dir);
	return inputs;
}
