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

/* The smallest and largest payload (after the pseudo-header) of each kind
 * as it was on the wire; reason set when the record is not of a legal
 * size. */
static bool record_size_ok(const struct record *rec, char *reason, size_t reason_len)
{
	uint32_t min, max;
	const char *what;
	switch (rec->kind) {
	case REC_DLLP:
		min = max = rec->flags & REC_F_NO_CRC ? DLLP_CONTENT_LEN : DLLP_WIRE_LEN;
		what = rec->flags & REC_F_NO_CRC ? "a DLLP without CRC" : "a DLLP";
		break;
	case REC_TLP:
		/* sequence field, a 3 DW header, LCRC */
		min = (rec->flags & REC_F_NO_SEQ ? 0u : 2u) + 12u +
		      (rec->flags & REC_F_NO_CRC ? 0u : 4u);
		max = TLP_MAX_RECORD_LEN;
		what = "a TLP";
		break;
	case REC_EVENT:
		min = max = EVENT_LEN;
		what = "a link event";
		break;
	default:
		snprintf(reason, reason_len, "unknown record kind %u", (unsigned)rec->kind);
		return false;
	}
	if (rec->wire_len < min || rec->wire_len > max) {
		if (min == max)
			snprintf(reason, reason_len, "%s is %u bytes, this record has %u", what,
			         min, rec->wire_len);
		else
			snprintf(reason, reason_len, "%s is %u to %u bytes, this record has %u",
			         what, min, max, rec->wire_len);
		return false;
	}
	return true;
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

bool record_check(const struct record *rec, char *reason, size_t reason_len)
{
	return record_size_ok(rec, reason, reason_len) &&
	       (rec->kind != REC_EVENT || event_ok(rec, reason, reason_len));
}
