/* fuzz_lib_copy_check: that fuzz_lib_copy.c's memcpy, which the fuzzers'
 * jansson calls, is still checked by ASan (tests/fuzz/check-lib-copy runs
 * it).  "copy N" copies N bytes of a 4-byte block into a 64-byte one,
 * "write N" N bytes of a 64-byte block into a 4-byte one: past 4, ASan
 * must stop it (a short copy takes the byte loop, a long one memcpy()). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *fuzz_lib_memcpy(void *dst, const void *src, size_t n);

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "copy") != 0 && strcmp(argv[1], "write") != 0)) {
		fprintf(stderr, "usage: fuzz_lib_copy_check copy|write N\n");
		return 2;
	}
	size_t n = (size_t)strtoul(argv[2], NULL, 10);
	bool write_past = strcmp(argv[1], "write") == 0;
	unsigned char *small = malloc(4), *large = malloc(64);
	if (!small || !large)
		return 2;
	memset(small, 1, 4);
	memset(large, 2, 64);
	if (write_past)
		fuzz_lib_memcpy(small, large, n);
	else
		fuzz_lib_memcpy(large, small, n);
	printf("copied %zu bytes\n", n);
	free(small);
	free(large);
	return 0;
}
