/* config.c: the defaults of a run. */
#include <string.h>

#include "cli/config.h"

void config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = MODE_ANALYZE;
	cfg->format = OUT_TEXT;
	cfg->reader.format = INPUT_AUTO;
	cfg->reader.dlt = 147; /* LINKTYPE_USER0 */
	csv_options_init(&cfg->csv);
	cfg->reader.csv = &cfg->csv;
	lane_options_init(&cfg->lanes);
	cfg->reader.lanes = &cfg->lanes;
	cfg->fail_on = SEV_ERROR;
	for (unsigned i = 0; i < RULE_COUNT; i++)
		cfg->rule_enabled[i] = true;
	fc_options_init(&cfg->fc);
	cfg->jobs = 1;
}
