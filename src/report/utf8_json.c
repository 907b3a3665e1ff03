/* utf8_json.c: JSON strings of text from outside (file names, reasons). */
#include <jansson.h>

#include "base/utf8.h"

json_t *json_string_outside(const char *s)
{
	if (utf8_valid(s))
		return json_string(s);
	char buf[1024];
	utf8_escape(s, buf, sizeof(buf));
	return json_string(buf);
}
