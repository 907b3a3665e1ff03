/* fuzz_lib_copy.c: the memcpy() of the fuzzers' jansson, checked inline.
 *
 * jansson is not built with the sanitizers, so ASan sees its memory only
 * through the libc calls it intercepts.  jansson's lexer keeps every byte
 * of a string or number it reads with a memcpy() of one byte
 * (strbuffer_append_byte()), and through ASan's interceptor each of those
 * costs a range check of both sides and an indirect call: 17% of
 * fuzz_merge's time on its seeds, whose parts are reports of 3 to 12 KB.
 *
 * When configure finds the static libjansson.a (Debian's libjansson-dev
 * has it) and objcopy, the fuzzers link a copy of it in which memcpy is
 * renamed fuzz_lib_memcpy (Makefile.am, tests/fuzz/libjansson-fuzz.a).
 * This function copies a short block byte by byte in code built with
 * ASan, so that every byte read and written is still checked, each by
 * the inline shadow test of ordinary code; a longer block goes to memcpy()
 * and its interceptor as before.  Nothing jansson copies is checked less:
 * only the way of checking changes.  It is not the code under test (no
 * coverage), and must not become a call to memcpy() itself (no_builtin). */
#include <stddef.h>
#include <string.h>

void *fuzz_lib_memcpy(void *dst, const void *src, size_t n);

__attribute__((no_sanitize("coverage"), no_builtin("memcpy"))) void *
fuzz_lib_memcpy(void *dst, const void *src, size_t n)
{
	if (n > 16)
		return memcpy(dst, src, n);
	unsigned char *d = dst;
	const unsigned char *s = src;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return dst;
}
