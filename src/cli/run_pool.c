/* run_pool.c: -j N as a pool of N worker processes started once (issue 18;
 * run_pool.h).
 *
 * Each worker is forked at the start with a socket pair to the parent and
 * one temporary file of its own.  The parent hands a worker a task, the
 * index of an input (or of a run of small consecutive ones); the worker
 * analyses each (run_one), appends its part of the report to its
 * temporary file and answers, input by input, with where the part lies in
 * that file and the input's result.  The parent writes the parts out in input order
 * (pread from the worker's file: the file is shared, its offset is not
 * touched), so the output is byte for byte that of -j 1, and hands the
 * worker the next input at once: a worker never waits for an earlier
 * input to finish.  A worker's file is rewound when every part in it has
 * been written out, so the disk it uses is the parts not yet written.
 *
 * The set-up an input costs is a message and a copy of its part (the
 * fork, the file and the socket are paid once per worker; a task's
 * message once per run of small inputs).  Memory is
 * the results of at most RUN_POOL_AHEAD inputs ahead of the one written
 * next.  A worker that dies fails the input it had (the report says so)
 * and is replaced.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/run.h"
#include "cli/run_pool.h"

#define RUN_POOL_AHEAD 256
/* A task is a run of consecutive inputs, up to this many and this many
 * bytes: 1000 captures of a few hundred bytes each cost a message, a
 * wake-up of the parent and of a worker per input otherwise, more than
 * their analysis (an input of unknown size, standard input or a FIFO, is
 * a task of its own). */
#define RUN_POOL_CHUNK_INPUTS 32
#define RUN_POOL_CHUNK_BYTES (1u << 20)

/* parent -> worker */
struct pool_task {
	int32_t index; /* the first input; -1: exit */
	int32_t count; /* inputs index .. index + count - 1 */
	uint64_t offset; /* where in the worker's file its part goes: 0 once
	                  * every part in it was written out */
};

/* worker -> parent */
struct pool_done {
	int32_t index;
	uint8_t ok; /* the part was written to the file */
	uint64_t offset, length; /* of the part in the worker's file */
	struct input_result result;
};

struct pool_worker {
	pid_t pid; /* 0: none */
	int sock; /* the parent's end; -1: none */
	FILE *file; /* the parts (shared with the worker) */
	int task; /* the next input it is to answer for, -1: idle */
	int task_end; /* one past the last input of its task */
	unsigned pending; /* its parts done and not yet written out */
	uint64_t end; /* the end of the last part in its file */
};

struct pool_input {
	bool done;
	bool failed; /* no part: the report tells the error at its place */
	int worker; /* whose file holds the part */
	uint64_t offset, length;
};

/* Reads or writes exactly n bytes; false at an error or the end. */
static bool io_all(int fd, void *buf, size_t n, bool writing)
{
	char *p = buf;
	while (n) {
		/* MSG_NOSIGNAL: a peer gone is an error here, not a SIGPIPE */
		ssize_t k = writing ? send(fd, p, n, MSG_NOSIGNAL) : read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* ---- the worker ------------------------------------------------------------ */

static _Noreturn void worker_main(const struct config *cfg, int sock, FILE *file)
{
	for (;;) {
		struct pool_task task;
		if (!io_all(sock, &task, sizeof(task), false) || task.index < 0)
			_exit(0);
		uint64_t end = task.offset;
		bool placed = fseeko(file, (off_t)end, SEEK_SET) == 0;
		for (int32_t k = 0; k < task.count; k++) {
			struct pool_done done;
			memset(&done, 0, sizeof(done));
			done.index = task.index + k;
			done.offset = end;
			run_one(cfg, done.index, file, &done.result);
			bool ok = placed && fflush(file) == 0;
			off_t now = ftello(file);
			ok = ok && now >= (off_t)end;
			done.ok = ok;
			done.length = ok ? (uint64_t)now - end : 0;
			if (ok)
				end = (uint64_t)now;
			fflush(stderr);
			/* each answered at once: the parent writes it out as soon
			 * as the inputs before it are */
			if (!io_all(sock, &done, sizeof(done), true))
				_exit(3);
		}
	}
}

/* ---- the parent ------------------------------------------------------------ */

struct pool {
	const struct config *cfg;
	uint64_t *sizes; /* of each input, UINT64_MAX: not a regular file */
	FILE *out;
	struct input_result *results;
	struct pool_worker *workers;
	int worker_count;
	struct pool_input *inputs;
	int next_start, next_emit;
};

/* Starts worker wi (its file, made once, is kept: parts of a worker that
 * died may still be in it). */
static bool worker_start(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	int sv[2];
	w->pid = 0;
	w->sock = -1;
	w->task = -1;
	if (!w->file)
		w->file = tmpfile();
	if (!w->file || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return false;
	fflush(p->out);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return false;
	}
	if (pid == 0) {
		close(sv[0]);
		/* the other workers' sockets are the parent's: a worker holding
		 * them would keep them open when the parent is gone */
		for (int j = 0; j < p->worker_count; j++)
			if (j != wi && p->workers[j].sock >= 0)
				close(p->workers[j].sock);
		worker_main(p->cfg, sv[1], w->file);
	}
	close(sv[1]);
	w->pid = pid;
	w->sock = sv[0];
	return true;
}

static void worker_stop(struct pool_worker *w)
{
	if (w->sock >= 0) {
		struct pool_task quit = { -1, 0, 0 };
		(void)io_all(w->sock, &quit, sizeof(quit), true);
		close(w->sock);
		w->sock = -1;
	}
	if (w->pid > 0) {
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
		w->pid = 0;
	}
}

/* Copies length bytes at offset of file to out. */
static bool copy_part(FILE *file, uint64_t offset, uint64_t length, FILE *out)
{
	char buf[65536];
	int fd = fileno(file);
	while (length) {
		size_t want = length < sizeof(buf) ? (size_t)length : sizeof(buf);
		ssize_t k = pread(fd, buf, want, (off_t)offset);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || fwrite(buf, 1, (size_t)k, out) != (size_t)k)
			return false;
		offset += (uint64_t)k;
		length -= (uint64_t)k;
	}
	return true;
}

static void input_failed(struct pool_input *in, struct input_result *res, const char *path,
                         const char *why)
{
	in->failed = true;
	in->length = 0;
	memset(res, 0, sizeof(*res));
	res->status = EXIT_ERROR;
	snprintf(res->error, sizeof(res->error), "%s: %s", path, why);
	fprintf(stderr, "dllpcheck: %s\n", res->error);
}

static bool pool_give(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	if (w->pending == 0)
		w->end = 0; /* every part in its file is written out */
	/* the next inputs, as many as make a task */
	int n = p->cfg->input_count, first = p->next_start, count = 1;
	uint64_t bytes = p->sizes[first];
	while (count < RUN_POOL_CHUNK_INPUTS && first + count < n &&
	       first + count < p->next_emit + RUN_POOL_AHEAD && bytes < RUN_POOL_CHUNK_BYTES &&
	       p->sizes[first + count] <= RUN_POOL_CHUNK_BYTES - bytes)
		bytes += p->sizes[first + count++];
	struct pool_task task = { first, count, w->end };
	if (!io_all(w->sock, &task, sizeof(task), true))
		return false;
	w->task = first;
	w->task_end = first + count;
	p->next_start = first + count;
	return true;
}

/* A worker's answer (or its end); false when it is lost. */
static bool pool_answer(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	struct pool_done done;
	if (!io_all(w->sock, &done, sizeof(done), false) || done.index != w->task)
		return false;
	struct pool_input *in = &p->inputs[done.index];
	in->done = true;
	in->worker = wi;
	in->offset = done.offset;
	in->length = done.length;
	if (done.ok) {
		p->results[done.index] = done.result;
		w->pending++;
		w->end = done.offset + done.length;
	} else {
		in->length = 0;
		input_failed(in, &p->results[done.index], p->cfg->inputs[done.index],
		             "its part of the report could not be written (a temporary file)");
	}
	if (++w->task == w->task_end)
		w->task = -1;
	return true;
}

/* The worker wi is lost with the input it had: that input fails, and a
 * new worker takes its place (false when none can be started). */
static bool pool_replace(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	for (int i = w->task; i >= 0 && i < w->task_end; i++) {
		struct pool_input *in = &p->inputs[i];
		in->done = true;
		in->worker = -1;
		input_failed(in, &p->results[i], p->cfg->inputs[i], "the analysis process failed");
	}
	if (w->sock >= 0)
		close(w->sock);
	w->sock = -1;
	if (w->pid > 0)
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	w->pid = 0;
	/* parts of it not yet written stay in its file, which is kept,
	 * with pending and end */
	return worker_start(p, wi);
}

/* Writes out every input done in order; returns the run's status so far. */
static void pool_emit(struct pool *p, int *status)
{
	while (p->next_emit < p->next_start && p->inputs[p->next_emit].done) {
		int i = p->next_emit;
		struct pool_input *in = &p->inputs[i];
		run_report_between(p->cfg, p->out, i);
		if (in->worker >= 0) {
			struct pool_worker *w = &p->workers[in->worker];
			if (in->length && !copy_part(w->file, in->offset, in->length, p->out))
				input_failed(in, &p->results[i], p->cfg->inputs[i],
				             "its part of the report could not be read back");
			if (w->pending && !in->failed)
				w->pending--;
		}
		if (in->failed) /* told on standard error already */
			run_input_error(p->cfg, p->cfg->inputs[i], NULL, p->out, NULL,
			                p->results[i].error);
		if (p->results[i].status > *status)
			*status = p->results[i].status;
		p->next_emit++;
	}
}

int run_pool(const struct config *cfg, FILE *out, struct input_result *results)
{
	int n = cfg->input_count;
	struct pool p = {
		.cfg = cfg,
		.out = out,
		.results = results,
		.worker_count = cfg->jobs < n ? cfg->jobs : n,
	};
	p.workers = calloc((size_t)p.worker_count, sizeof(*p.workers));
	p.inputs = calloc((size_t)n, sizeof(*p.inputs));
	p.sizes = calloc((size_t)n, sizeof(*p.sizes));
	struct pollfd *fds = calloc((size_t)p.worker_count, sizeof(*fds));
	if (!p.workers || !p.inputs || !p.sizes || !fds) {
		fprintf(stderr, "dllpcheck: out of memory\n");
		free(p.workers);
		free(p.inputs);
		free(p.sizes);
		free(fds);
		return EXIT_ERROR;
	}
	for (int i = 0; i < n; i++) {
		struct stat st;
		bool regular = strcmp(cfg->inputs[i], "-") != 0 && stat(cfg->inputs[i], &st) == 0 &&
		               S_ISREG(st.st_mode);
		p.sizes[i] = regular ? (uint64_t)st.st_size : UINT64_MAX;
	}
	int status = EXIT_CLEAN, started = 0;
	for (int wi = 0; wi < p.worker_count; wi++)
		p.workers[wi].sock = -1;
	for (int wi = 0; wi < p.worker_count; wi++) {
		if (worker_start(&p, wi))
			started++;
		else
			fprintf(stderr, "dllpcheck: cannot start a worker: %s\n", strerror(errno));
	}
	if (!started) {
		/* no worker at all: the inputs one after the other, here */
		for (int i = 0; i < n; i++) {
			run_report_between(cfg, out, i);
			run_one(cfg, i, out, &results[i]);
			if (results[i].status > status)
				status = results[i].status;
		}
		p.next_emit = n;
	}
	while (p.next_emit < n) {
		pool_emit(&p, &status);
		if (p.next_emit >= n)
			break;
		/* every idle worker gets the next input (at most RUN_POOL_AHEAD
		 * ahead of the one written next) */
		for (int wi = 0; wi < p.worker_count; wi++) {
			struct pool_worker *w = &p.workers[wi];
			if (w->sock < 0 || w->task >= 0 || p.next_start >= n ||
			    p.next_start >= p.next_emit + RUN_POOL_AHEAD)
				continue;
			if (!pool_give(&p, wi) && !pool_replace(&p, wi))
				fprintf(stderr, "dllpcheck: cannot restart a worker: %s\n",
				        strerror(errno));
		}
		int busy = 0, alive = 0;
		for (int wi = 0; wi < p.worker_count; wi++) {
			fds[wi].fd = p.workers[wi].task >= 0 ? p.workers[wi].sock : -1;
			fds[wi].events = POLLIN;
			fds[wi].revents = 0;
			busy += p.workers[wi].task >= 0;
			alive += p.workers[wi].sock >= 0;
		}
		if (!busy && alive)
			continue; /* (cannot be: an input not done has a worker) */
		if (!busy) {
			/* not one worker left (none could be restarted): the
			 * inputs not started fail */
			for (; p.next_start < n; p.next_start++) {
				p.inputs[p.next_start].done = true;
				p.inputs[p.next_start].worker = -1;
				input_failed(&p.inputs[p.next_start], &results[p.next_start],
				             cfg->inputs[p.next_start],
				             "no analysis process could be started");
			}
			continue;
		}
		if (poll(fds, (nfds_t)p.worker_count, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "dllpcheck: poll: %s\n", strerror(errno));
			break;
		}
		for (int wi = 0; wi < p.worker_count; wi++)
			if (fds[wi].revents && !pool_answer(&p, wi) && !pool_replace(&p, wi))
				fprintf(stderr, "dllpcheck: cannot restart a worker: %s\n",
				        strerror(errno));
	}
	for (int wi = 0; wi < p.worker_count; wi++) {
		worker_stop(&p.workers[wi]);
		if (p.workers[wi].file)
			fclose(p.workers[wi].file);
	}
	free(p.workers);
	free(p.inputs);
	free(p.sizes);
	free(fds);
	return status;
}
