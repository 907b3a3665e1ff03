/* version.h: what --version prints (issue 18): the program's version and
 * those of the libraries it runs with. */
#ifndef DLLPCHECK_VERSION_H
#define DLLPCHECK_VERSION_H

#include <stdio.h>

/* "dllpcheck V", then one line per library: the version it runs with
 * (the shared library's own answer), and the one it was built against
 * where the two differ (a library upgraded under the binary). */
void version_print(FILE *out);

#endif
