/* record.c: names of directions and link events (capture-format.md). */
#include <string.h>

#include "core/record.h"

static const char *const event_names[EV_LAST + 1] = {
	[EV_LINK_UP] = "link-up",     [EV_LINK_DOWN] = "link-down",
	[EV_HOT_RESET] = "hot-reset", [EV_RECOVERY] = "recovery",
	[EV_PORT_RESET] = "port-reset", [EV_VC_ENABLE] = "vc-enable",
};

const char *link_dir_name(enum link_dir dir)
{
	return dir == DIR_UP ? "up" : "down";
}

const char *link_event_name(unsigned code)
{
	if (code >= EV_FIRST && code <= EV_LAST)
		return event_names[code];
	return "unknown-event";
}

unsigned link_event_from_name(const char *name, size_t len)
{
	for (unsigned code = EV_FIRST; code <= EV_LAST; code++) {
		if (strlen(event_names[code]) == len &&
		    memcmp(event_names[code], name, len) == 0)
			return code;
	}
	return 0;
}
