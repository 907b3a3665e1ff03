/* out_file.c: outputs that never overwrite an input and appear only when
 * complete (out_file.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out_file.h"

/* Which input, if any, is the file st: the same device and inode. */
static const char *same_as_input(const struct stat *st, char *const *inputs, int n)
{
	for (int i = 0; i < n; i++) {
		struct stat in;
		int rc = strcmp(inputs[i], "-") == 0 ? fstat(STDIN_FILENO, &in)
		                                     : stat(inputs[i], &in);
		if (rc == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino)
			return strcmp(inputs[i], "-") == 0 ? "- (standard input)" : inputs[i];
	}
	return NULL;
}

/* path with its directory resolved (realpath), or as given. */
static void resolved(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
	         slash ? path : ".");
	if (realpath(dir, real))
		snprintf(buf, len, "%s/%s", real, slash ? slash + 1 : path);
	else
		snprintf(buf, len, "%s", path);
}

bool out_file_same(const char *a, const char *b)
{
	struct stat sa, sb;
	bool has_a = stat(a, &sa) == 0, has_b = stat(b, &sb) == 0;
	if (has_a && has_b)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (has_a != has_b)
		return false;
	char ra[2 * PATH_MAX], rb[2 * PATH_MAX];
	resolved(a, ra, sizeof(ra));
	resolved(b, rb, sizeof(rb));
	return strcmp(ra, rb) == 0;
}

/* The temporary files being written, removed if a signal ends the run
 * (Ctrl-C, kill, a closed pipe) so that none is left behind: a handler
 * may read them at any moment, so a slot is filled before it is counted
 * and emptied (NULL) in place.  A process state by nature (a signal has
 * no other way to find them); out_file_forget_all() clears it in a
 * forked worker, whose parent owns the files. */
#define OUT_FILE_LIVE_MAX 16
static const char *volatile live_tmp[OUT_FILE_LIVE_MAX];
static volatile sig_atomic_t live_count;
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void remove_live_and_raise(int sig)
{
	for (sig_atomic_t i = 0; i < live_count; i++)
		if (live_tmp[i])
			unlink(live_tmp[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void live_add(const char *tmp)
{
	if (live_count == 0) {
		for (size_t i = 0; i < sizeof(cleanup_signals) / sizeof(cleanup_signals[0]); i++) {
			struct sigaction old;
			/* a signal ignored (nohup) stays ignored */
			if (sigaction(cleanup_signals[i], NULL, &old) == 0 &&
			    old.sa_handler == SIG_DFL)
				signal(cleanup_signals[i], remove_live_and_raise);
		}
	}
	for (sig_atomic_t i = 0; i < live_count; i++) {
		if (!live_tmp[i]) {
			live_tmp[i] = tmp;
			return;
		}
	}
	if (live_count < OUT_FILE_LIVE_MAX) {
		live_tmp[live_count] = tmp;
		live_count = live_count + 1;
	}
}

static void live_remove(const char *tmp)
{
	for (sig_atomic_t i = 0; i < live_count; i++)
		if (live_tmp[i] == tmp)
			live_tmp[i] = NULL;
}

void out_file_forget_all(void)
{
	for (sig_atomic_t i = 0; i < live_count; i++)
		live_tmp[i] = NULL;
}

bool out_file_open(struct out_file *of, const char *path, const char *what, bool allow_stdout,
                   char *const *inputs, int input_count, char *err, size_t errlen)
{
	memset(of, 0, sizeof(*of));
	if (allow_stdout && strcmp(path, "-") == 0) {
		of->fp = stdout;
		return true;
	}
	struct stat st;
	bool exists = stat(path, &st) == 0; /* through a symbolic link */
	if (exists) {
		const char *input = same_as_input(&st, inputs, input_count);
		if (input) {
			snprintf(err, errlen,
			         "%s %s: the output is the input %s (the same file: "
			         "device %lu, inode %lu); refusing to overwrite it",
			         what, path, input, (unsigned long)st.st_dev,
			         (unsigned long)st.st_ino);
			return false;
		}
	}
	if (exists && !S_ISREG(st.st_mode)) {
		/* /dev/null, a FIFO: never renamed over */
		of->fp = fopen(path, "w");
		if (!of->fp) {
			snprintf(err, errlen, "%s %s: cannot write: %s", what, path,
			         strerror(errno));
			return false;
		}
		return true;
	}
	/* the file a symbolic link names is the one replaced, not the link */
	of->path = exists ? realpath(path, NULL) : strdup(path);
	size_t n = of->path ? strlen(of->path) : 0;
	static const char suffix[] = ".dllpcheck-XXXXXX";
	of->tmp = of->path ? malloc(n + sizeof(suffix)) : NULL;
	if (!of->tmp) {
		snprintf(err, errlen, "%s %s: out of memory", what, path);
		goto fail;
	}
	memcpy(of->tmp, of->path, n);
	memcpy(of->tmp + n, suffix, sizeof(suffix));
	int fd = mkstemp(of->tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s %s: cannot write (a temporary file beside it): %s", what,
		         path, strerror(errno));
		goto fail;
	}
	/* the mode a new file (or the old one) would have, not mkstemp's 0600 */
	mode_t mode;
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) != 0 || !(of->fp = fdopen(fd, "w"))) {
		snprintf(err, errlen, "%s %s: cannot write: %s", what, path, strerror(errno));
		close(fd);
		unlink(of->tmp);
		goto fail;
	}
	live_add(of->tmp);
	return true;
fail:
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	return false;
}

bool out_file_finish(struct out_file *of, bool keep, char *err, size_t errlen)
{
	bool ok = true;
	if (of->tmp) {
		live_remove(of->tmp);
		if (keep && rename(of->tmp, of->path) != 0) {
			snprintf(err, errlen,
			         "%s: cannot rename the finished output into "
			         "place: %s",
			         of->path, strerror(errno));
			ok = false;
		}
		if (!keep || !ok)
			unlink(of->tmp);
	}
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	of->fp = NULL;
	return ok;
}
