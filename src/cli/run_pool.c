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
 * input to finish; while it works on one task it is sent the next (a run
 * of small inputs only), so it never waits for the parent between two.
 * A worker's file is rewound when every part in it has been written out
 * and the written parts' blocks are given back as they go, so the disk
 * it uses is the parts not yet written.
 *
 * An input that is not a regular file (standard input, a FIFO, a device)
 * is read by the parent itself at its turn, as -j 1 reads it: two workers
 * must not share one stream, and its order among the others is the
 * order its bytes are read in.  So is an input whose part a worker could
 * not write (a full /tmp): analysed again here, never failed for it.
 *
 * A worker's standard error is a second temporary file, its messages
 * copied to the parent's standard error at their input's turn as well:
 * the messages, too, come in the order -j 1 gives them.
 *
 * The set-up an input costs is a message and a copy of its part (the
 * fork, the file and the socket are paid once per worker; a task's
 * message once per run of small inputs).  Memory is
 * the results of at most RUN_POOL_AHEAD inputs ahead of the one written
 * next.  A worker that dies fails the input it was on (the report says
 * so) and is replaced; the rest of its task is handed out again.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/out_file.h"
#include "cli/run.h"
#include "cli/run_pool.h"

#define RUN_POOL_AHEAD 256
/* A task is a run of consecutive inputs, up to this many and this many
 * bytes: 1000 captures of a few hundred bytes each cost a message, a
 * wake-up of the parent and of a worker per input otherwise, more than
 * their analysis.  Never more than a 2 * workers'th of the inputs left
 * (guided self-scheduling: a small batch is still spread over every
 * worker), and a compressed input, whose cost its size on disk does not
 * tell, is a task of its own. */
#define RUN_POOL_CHUNK_INPUTS 32
#define RUN_POOL_CHUNK_BYTES (1u << 20)

/* parent -> worker */
struct pool_task {
	int32_t index; /* the first input; -1: exit */
	int32_t count; /* inputs index .. index + count - 1 */
	/* where in the worker's files its parts and messages go (0 once
	 * every part in them was written out), or POOL_GO_ON: where the
	 * task before ended (a task sent while it works on that one) */
	uint64_t offset, err_offset;
};
#define POOL_GO_ON UINT64_MAX

/* worker -> parent */
struct pool_done {
	int32_t index;
	uint8_t ok; /* the part was written to the file */
	int32_t write_errno; /* !ok: why */
	uint64_t offset, length; /* of the part in the worker's file */
	uint64_t err_offset, err_length; /* of its messages */
	struct input_result result;
};

struct pool_worker {
	pid_t pid; /* 0: none */
	int sock; /* the parent's end; -1: none */
	FILE *file; /* the parts (shared with the worker) */
	FILE *errfile; /* the worker's standard error */
	int task; /* the next input it is to answer for, -1: idle */
	int task_end; /* one past the last input of its task */
	/* the task it has next, sent while it works on this one so that it
	 * never waits for the parent between two (-1: none) */
	int queued, queued_end;
	unsigned pending; /* its parts done and not yet written out */
	uint64_t end; /* the end of the last part in its file */
	uint64_t err_end; /* and of the last messages in its errfile */
	/* the parts written out are given back to the file system (a
	 * worker kept busy is seldom rewound) up to here; false where it
	 * cannot punch holes */
	uint64_t punched;
	bool no_punch;
	/* its answers as read: a burst of small inputs' in one read */
	unsigned char answers[8 * sizeof(struct pool_done)];
	size_t answers_len;
};

struct pool_input {
	bool assigned; /* in a worker's task (or run here) */
	bool here; /* the parent analyses it at its turn */
	bool done;
	bool failed; /* no part: the report tells the error at its place */
	bool counted; /* its part is one of its worker's pending */
	int worker; /* whose file holds the part */
	uint64_t offset, length;
	uint64_t err_offset, err_length; /* its messages in the worker's errfile */
	bool again; /* here, after a worker could not write its part */
	char again_why[64];
};

/* Whether path ends in suffix. */
static bool ends_with(const char *path, const char *suffix)
{
	size_t n = strlen(path), k = strlen(suffix);
	return n >= k && strcmp(path + n - k, suffix) == 0;
}

/* A pool_task's size of an input: its size on disk; RUN_POOL_CHUNK_BYTES
 * for a compressed file (a task of its own); UINT64_MAX where it is not a
 * regular file (read by the parent).  A compressed file is known by its
 * name here (opening every input once more to read its magic would cost
 * a tiny input a third of its time): one named otherwise is weighed by
 * its size, which only shares the work out less evenly. */
static uint64_t input_weight(const char *path)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return UINT64_MAX;
	if (ends_with(path, ".gz") || ends_with(path, ".zst") || ends_with(path, ".zstd"))
		return RUN_POOL_CHUNK_BYTES;
	return (uint64_t)st.st_size;
}

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
	/* where the next part and the next messages go */
	uint64_t end = 0;
	off_t err_end = 0;
	for (;;) {
		struct pool_task task;
		if (!io_all(sock, &task, sizeof(task), false) || task.index < 0)
			_exit(0);
		if (task.offset != POOL_GO_ON) {
			end = task.offset;
			/* standard error is the errfile (worker_start) */
			err_end = lseek(STDERR_FILENO, (off_t)task.err_offset, SEEK_SET);
		}
		bool reposition = true;
		for (int32_t k = 0; k < task.count; k++) {
			struct pool_done done;
			memset(&done, 0, sizeof(done));
			done.index = task.index + k;
			done.offset = end;
			done.err_offset = (uint64_t)err_end;
			clearerr(stderr);
			/* each part from where the last good one ended (where
			 * the file is after it, but for the first of a task and
			 * after a failure): the bytes of one that failed (a full
			 * /tmp) are not the next's */
			clearerr(file);
			errno = 0;
			bool ok = !reposition || fseeko(file, (off_t)end, SEEK_SET) == 0;
			if (ok)
				run_one(cfg, done.index, file, &done.result);
			ok = ok && fflush(file) == 0;
			off_t now = ok ? ftello(file) : -1;
			ok = ok && now >= (off_t)end;
			/* its messages must have been kept too */
			fflush(stderr);
			off_t err_now = lseek(STDERR_FILENO, 0, SEEK_CUR);
			ok = ok && !ferror(stderr) && err_end >= 0 && err_now >= err_end;
			done.ok = ok;
			done.write_errno = ok ? 0 : (errno ? errno : EIO);
			done.length = ok ? (uint64_t)now - end : 0;
			done.err_length = ok ? (uint64_t)(err_now - err_end) : 0;
			reposition = !ok;
			if (ok) {
				end = (uint64_t)now;
				err_end = err_now;
			} else {
				__fpurge(file); /* what stdio still holds of it */
				/* the next messages where the last good ones end */
				err_end = lseek(STDERR_FILENO, err_end, SEEK_SET);
			}
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
	uint64_t *sizes; /* input_weight() of each input */
	FILE *out;
	bool out_failed; /* writing the report failed: main tells it */
	struct input_result *results;
	struct pool_worker *workers;
	int worker_count;
	pid_t parent;
	struct pool_input *inputs;
	int next_start; /* no input before it is waiting for a worker */
	int next_emit;
};

/* Starts worker wi (its file, made once, is kept: parts of a worker that
 * died may still be in it). */
static bool worker_start(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	int sv[2];
	w->pid = 0;
	w->sock = -1;
	w->task = w->queued = -1;
	w->answers_len = 0;
	if (!w->file)
		w->file = tmpfile();
	if (!w->errfile)
		w->errfile = tmpfile();
	if (!w->file || !w->errfile || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
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
		/* a worker ends with the parent (killed, interrupted): never
		 * an orphan reading on.  SIGTERM, not SIGKILL: the outputs it
		 * writes itself (a batch's --vcd FILE-N) are removed first
		 * (out_file.h); it is never ignored here */
		struct sigaction term;
		if (sigaction(SIGTERM, NULL, &term) == 0 && term.sa_handler == SIG_IGN)
			signal(SIGTERM, SIG_DFL);
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != p->parent)
			_exit(4);
		out_file_forget_all(); /* the parent's outputs are its own */
		if (dup2(fileno(w->errfile), STDERR_FILENO) < 0)
			_exit(4);
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
		struct pool_task quit = { -1, 0, 0, 0 };
		/* (a worker ends at its first task of -1) */
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

enum copy_result { COPY_OK, COPY_READ_FAILED, COPY_WRITE_FAILED };

/* The blocks of w's file up to the end of the part [offset, end) just
 * written out, freed: the disk a worker's file holds is the parts not
 * yet written, even while it is never idle (and so never rewound).  Only
 * a part that follows the last one freed (a part handed out again after
 * a worker died may lie after parts written out later: everything below
 * w->punched is written out), and from the block the last call ended in,
 * as a block is freed only by a call that covers it whole. */
static void give_back_part(struct pool_worker *w, uint64_t offset, uint64_t end)
{
	if (w->no_punch || offset != w->punched)
		return;
	uint64_t from = w->punched & ~(uint64_t)4095;
	if (fallocate(fileno(w->file), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from,
	              (off_t)(end - from)) != 0)
		w->no_punch = true;
	else
		w->punched = end;
}

/* Copies length bytes at offset of file to out. */
static enum copy_result copy_part(FILE *file, uint64_t offset, uint64_t length, FILE *out)
{
	char buf[65536];
	int fd = fileno(file);
	while (length) {
		size_t want = length < sizeof(buf) ? (size_t)length : sizeof(buf);
		ssize_t k = pread(fd, buf, want, (off_t)offset);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return COPY_READ_FAILED;
		if (fwrite(buf, 1, (size_t)k, out) != (size_t)k)
			return COPY_WRITE_FAILED;
		offset += (uint64_t)k;
		length -= (uint64_t)k;
	}
	return COPY_OK;
}

static void input_failed(struct pool_input *in, struct input_result *res, const char *path,
                         const char *why)
{
	in->failed = true;
	in->length = 0;
	memset(res, 0, sizeof(*res));
	res->status = EXIT_ERROR;
	snprintf(res->error, sizeof(res->error), "%s: %s", path, why);
	/* told on standard error at the input's turn (pool_emit) */
}

/* The first input waiting for a worker within RUN_POOL_AHEAD of the one
 * written next, or -1. */
static int pool_waiting(struct pool *p)
{
	int n = p->cfg->input_count;
	while (p->next_start < n && p->inputs[p->next_start].assigned)
		p->next_start++;
	return p->next_start < n && p->next_start < p->next_emit + RUN_POOL_AHEAD ? p->next_start
	                                                                          : -1;
}

/* Hands worker wi the next inputs waiting: its task, or (it has one) the
 * task it takes next, which only a run of small inputs is (a large one
 * waiting behind another would keep a worker that is free from it).
 * False when the worker is lost. */
static bool pool_give(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	/* every part in its files is written out, and none is being made */
	bool rewind = w->pending == 0 && w->task < 0;
	/* the next inputs waiting, as many as make a task */
	int n = p->cfg->input_count, first = pool_waiting(p), count = 1;
	int share = (n - first) / (2 * p->worker_count);
	int most = share < 1 ? 1 : share < RUN_POOL_CHUNK_INPUTS ? share : RUN_POOL_CHUNK_INPUTS;
	uint64_t bytes = p->sizes[first];
	while (count < most && first + count < n && !p->inputs[first + count].assigned &&
	       first + count < p->next_emit + RUN_POOL_AHEAD && bytes < RUN_POOL_CHUNK_BYTES &&
	       p->sizes[first + count] <= RUN_POOL_CHUNK_BYTES - bytes)
		bytes += p->sizes[first + count++];
	if (w->task >= 0 && bytes >= RUN_POOL_CHUNK_BYTES)
		return true; /* not queued: given when a worker is free */
	if (rewind)
		w->end = w->err_end = w->punched = 0;
	struct pool_task task = { first, count, w->end, w->err_end };
	if (w->task >= 0)
		task.offset = task.err_offset = POOL_GO_ON;
	if (!io_all(w->sock, &task, sizeof(task), true))
		return false;
	if (w->task < 0) {
		w->task = first;
		w->task_end = first + count;
	} else {
		w->queued = first;
		w->queued_end = first + count;
	}
	for (int i = first; i < first + count; i++)
		p->inputs[i].assigned = true;
	return true;
}

/* One answer of worker wi; false when it is not the one awaited. */
static bool pool_take_answer(struct pool *p, int wi, const struct pool_done *answer)
{
	struct pool_worker *w = &p->workers[wi];
	struct pool_done done = *answer;
	if (done.index != w->task)
		return false;
	struct pool_input *in = &p->inputs[done.index];
	in->done = true;
	in->worker = wi;
	in->offset = done.offset;
	in->length = done.length;
	in->err_offset = done.err_offset;
	in->err_length = done.err_length;
	if (done.ok) {
		p->results[done.index] = done.result;
		in->counted = true;
		w->pending++;
		w->end = done.offset + done.length;
		w->err_end = done.err_offset + done.err_length;
	} else {
		/* its part or its messages could not be kept (a full /tmp):
		 * analysed again here at its turn, straight into the report */
		in->length = in->err_length = 0;
		in->here = in->again = true;
		snprintf(in->again_why, sizeof(in->again_why), "%s", strerror(done.write_errno));
	}
	if (++w->task == w->task_end) {
		w->task = w->queued;
		w->task_end = w->queued_end;
		w->queued = -1;
	}
	return true;
}

/* A worker's answers, as many as have come (one read: the answers of a
 * run of small inputs wake the parent once), or its end; false when it
 * is lost. */
static bool pool_answer(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	ssize_t k;
	do
		k = read(w->sock, w->answers + w->answers_len, sizeof(w->answers) - w->answers_len);
	while (k < 0 && errno == EINTR);
	if (k <= 0)
		return false;
	w->answers_len += (size_t)k;
	size_t used = 0;
	while (w->answers_len - used >= sizeof(struct pool_done)) {
		struct pool_done done;
		memcpy(&done, w->answers + used, sizeof(done));
		if (!pool_take_answer(p, wi, &done))
			return false;
		used += sizeof(done);
	}
	memmove(w->answers, w->answers + used, w->answers_len - used);
	w->answers_len -= used;
	return true;
}

/* The worker wi is lost with the input it was on: that input fails, the
 * rest of its task waits for a worker again, and a new worker takes its
 * place (false when none can be started). */
static bool pool_replace(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	if (w->task >= 0 && w->task < w->task_end) {
		struct pool_input *in = &p->inputs[w->task];
		in->done = true;
		in->worker = -1;
		input_failed(in, &p->results[w->task], p->cfg->inputs[w->task],
		             "the analysis process failed");
		/* what it said before it died is told at its turn, before
		 * the error; the next messages go after it */
		struct stat st;
		if (fstat(fileno(w->errfile), &st) == 0 && (uint64_t)st.st_size > w->err_end) {
			in->worker = wi;
			in->counted = true;
			w->pending++;
			in->err_offset = w->err_end;
			in->err_length = (uint64_t)st.st_size - w->err_end;
			w->err_end = (uint64_t)st.st_size;
		}
		for (int i = w->task + 1; i < w->task_end; i++)
			p->inputs[i].assigned = false;
		if (w->task + 1 < w->task_end && w->task + 1 < p->next_start)
			p->next_start = w->task + 1;
	}
	/* the task it had next waits for a worker again too */
	for (int i = w->queued; i >= 0 && i < w->queued_end; i++)
		p->inputs[i].assigned = false;
	if (w->queued >= 0 && w->queued < p->next_start)
		p->next_start = w->queued;
	w->task = w->queued = -1;
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

/* Writes out every input done in order, and analyses here the inputs
 * that are the parent's when their turn comes; returns the run's status
 * so far. */
static void pool_emit(struct pool *p, int *status)
{
	int n = p->cfg->input_count;
	while (p->next_emit < n && (p->inputs[p->next_emit].done || p->inputs[p->next_emit].here)) {
		int i = p->next_emit;
		struct pool_input *in = &p->inputs[i];
		run_report_between(p->cfg, p->out, i);
		if (in->again)
			fprintf(stderr,
			        "dllpcheck: %s: its part of the report could not be written to a "
			        "temporary file (%s): analysed again by the main process\n",
			        p->cfg->inputs[i], in->again_why);
		if (in->here) {
			in->assigned = true;
			run_one(p->cfg, i, p->out, &p->results[i]);
		} else if (in->worker >= 0) {
			struct pool_worker *w = &p->workers[in->worker];
			/* its messages first, as -j 1 writes them while the
			 * report waits in the output's buffer */
			if (in->err_length)
				(void)copy_part(w->errfile, in->err_offset, in->err_length, stderr);
			enum copy_result c = COPY_OK;
			if (in->length && !p->out_failed)
				c = copy_part(w->file, in->offset, in->length, p->out);
			/* a report that cannot be written is main's to tell
			 * (ferror of out), not the input's fault */
			if (c == COPY_WRITE_FAILED)
				p->out_failed = true;
			if (c == COPY_OK && in->length)
				give_back_part(w, in->offset, in->offset + in->length);
			else if (c == COPY_READ_FAILED)
				input_failed(in, &p->results[i], p->cfg->inputs[i],
				             "its part of the report could not be read back");
			if (in->counted && w->pending)
				w->pending--;
		}
		if (in->failed) {
			fprintf(stderr, "dllpcheck: %s\n", p->results[i].error);
			run_input_error(p->cfg, p->cfg->inputs[i], NULL, p->out, NULL,
			                p->results[i].error);
		}
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
		.parent = getpid(),
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
		p.sizes[i] = input_weight(cfg->inputs[i]);
		/* standard input, a FIFO, a device: read here, in turn */
		p.inputs[i].here = p.sizes[i] == UINT64_MAX;
		p.inputs[i].assigned = p.inputs[i].here;
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
			if (w->sock < 0 || w->task >= 0 || pool_waiting(&p) < 0)
				continue;
			if (!pool_give(&p, wi) && !pool_replace(&p, wi))
				fprintf(stderr, "dllpcheck: cannot restart a worker: %s\n",
				        strerror(errno));
		}
		/* then, every worker busy, the run of small inputs each takes
		 * next (a worker never waits for the parent between two) */
		for (int wi = 0; wi < p.worker_count; wi++) {
			struct pool_worker *w = &p.workers[wi];
			if (w->sock < 0 || w->task < 0 || w->queued >= 0 || pool_waiting(&p) < 0)
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
			continue; /* the next input is the parent's: pool_emit */
		if (!busy) {
			/* not one worker left (none could be restarted): the
			 * inputs not started fail */
			for (int i = p.next_start; i < n; i++) {
				if (p.inputs[i].assigned)
					continue;
				p.inputs[i].assigned = p.inputs[i].done = true;
				p.inputs[i].worker = -1;
				input_failed(&p.inputs[i], &results[i], cfg->inputs[i],
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
		if (p.workers[wi].errfile)
			fclose(p.workers[wi].errfile);
	}
	free(p.workers);
	free(p.inputs);
	free(p.sizes);
	free(fds);
	return status;
}
