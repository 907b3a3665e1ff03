/* version.c: --version (version.h).  The libraries are asked at run time
 * (pcap_lib_version, jansson_version_str, zlibVersion, ZSTD_versionString):
 * a bug report then names what the binary really ran with. */
#include "autoconfig.h"

#include <jansson.h>
#include <pcap/pcap.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "cli/version.h"

static void library_line(FILE *out, const char *name, const char *runs, const char *built)
{
	if (strcmp(runs, built) == 0)
		fprintf(out, "%s %s\n", name, runs);
	else
		fprintf(out, "%s %s (built with %s)\n", name, runs, built);
}

void version_print(FILE *out)
{
	fprintf(out, "%s\n", PACKAGE_STRING);
	/* pcap_lib_version() says "libpcap version 1.10.3 (with TPACKET_V3)" */
	fprintf(out, "%s\n", pcap_lib_version());
	library_line(out, "Jansson", jansson_version_str(), JANSSON_VERSION);
	library_line(out, "zlib", zlibVersion(), ZLIB_VERSION);
	library_line(out, "libzstd", ZSTD_versionString(), ZSTD_VERSION_STRING);
}
