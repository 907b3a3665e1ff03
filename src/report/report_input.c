/* report_input.c: what the reports read of an input's links, from the
 * model of the run or from the views a --merge read back (report.h). */
#include <string.h>

#include "model/fc_view.h"
#include "report/report.h"

bool report_input_link(const struct input_report *r, unsigned index, struct fc_link_view *out)
{
	if (r->model)
		return fc_model_view_link(r->model, index, out);
	for (unsigned i = 0; i < r->link_count && r->link_index[i] <= index; i++) {
		if (r->link_index[i] == index) {
			memcpy(out, &r->link_views[i], sizeof(*out));
			return true;
		}
	}
	return false;
}

unsigned report_input_next_link(const struct input_report *r, unsigned from)
{
	if (r->model)
		return fc_model_next_link(r->model, from);
	for (unsigned i = 0; r->merged && i < r->link_count; i++)
		if (r->link_index[i] >= from)
			return r->link_index[i] < FC_LINK_COUNT ? r->link_index[i] : FC_LINK_COUNT;
	return FC_LINK_COUNT;
}

static const char *const vc_state_names[] = {
	[VC_UNKNOWN] = "unknown",
	[VC_IDLE] = "not-initialised",
	[VC_INIT] = "initialised",
	[VC_GIVEN] = "given",
};

const char *report_vc_state_name(unsigned state)
{
	return state < sizeof(vc_state_names) / sizeof(vc_state_names[0]) ? vc_state_names[state]
	                                                                  : NULL;
}
