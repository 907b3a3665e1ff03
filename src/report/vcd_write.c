/* vcd_write.c: PLACEHOLDER on the integration branch issue16 (helper h-vcd replaces it). */
#include <stdio.h>

#include "report/vcd_write.h"

struct vcd_write *vcd_write_open(const char *path, const char *gtkw_path, const char *input,
                                 char *const *inputs, int input_count, char *err, size_t len)
{
	(void)gtkw_path, (void)input, (void)inputs, (void)input_count;
	snprintf(err, len, "%s: --vcd is not built yet", path);
	return NULL;
}

void vcd_write_sink(struct vcd_write *w, struct timeline_sink *out)
{
	(void)w, (void)out;
}

bool vcd_write_close(struct vcd_write *w, bool keep, char *err, size_t len)
{
	(void)w, (void)keep, (void)err, (void)len;
	return false;
}
