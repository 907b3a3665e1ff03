/* record.c: names of directions and link events (capture-format.md). */
#include <stdio.h>
#include <string.h>

#include "core/record.h"

static const char *const event_names[EV_LAST + 1] = {
	[EV_LINK_UP] = "link-up",   [EV_LINK_DOWN] = "link-down",   [EV_HOT_RESET] = "hot-reset",
	[EV_RECOVERY] = "recovery", [EV_PORT_RESET] = "port-reset", [EV_VC_ENABLE] = "vc-enable",
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
		if (strlen(event_names[code]) == len && memcmp(event_names[code], name, len) == 0)
			return code;
	}
	return 0;
}

/* reason set when the record is not of a legal size. */
static bool record_size_ok(const struct record *rec, char *reason, size_t reason_len)
{
	uint32_t min, max;
	if (!record_size_range(rec, &min, &max)) {
		snprintf(reason, reason_len, "unknown record kind %u", (unsigned)rec->kind);
		return false;
	}
	if (rec->wire_len >= min && rec->wire_len <= max)
		return true;
	const char *what = rec->kind == REC_DLLP
	                           ? (rec->flags & REC_F_NO_CRC ? "a DLLP without CRC" : "a DLLP")
	                   : rec->kind == REC_TLP ? "a TLP"
	                                          : "a link event";
	if (min == max)
		snprintf(reason, reason_len, "%s is %u bytes, this record has %u", what, min,
		         rec->wire_len);
	else
		snprintf(reason, reason_len, "%s is %u to %u bytes, this record has %u", what, min,
		         max, rec->wire_len);
	return false;
}

static bool event_ok(const struct record *rec, char *reason, size_t reason_len)
{
	if (record_truncated(rec)) {
		snprintf(reason, reason_len, "link event truncated to %u bytes", rec->len);
		return false;
	}
	unsigned code = rec->bytes[0], arg = rec->bytes[1];
	if (code < EV_FIRST || code > EV_LAST) {
		snprintf(reason, reason_len, "unknown link event code %u", code);
		return false;
	}
	if (code == EV_VC_ENABLE ? (arg < 1 || arg > 7) : arg != 0) {
		snprintf(reason, reason_len, "link event %s with argument %u",
		         link_event_name(code), arg);
		return false;
	}
	return true;
}

bool record_check_full(const struct record *rec, char *reason, size_t reason_len)
{
	return record_size_ok(rec, reason, reason_len) &&
	       (rec->kind != REC_EVENT || event_ok(rec, reason, reason_len));
}
