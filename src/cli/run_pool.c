/* run_pool.c: -j N as the main process and a pool of N - 1 worker
 * processes started once (issue 18; run_pool.h).
 *
 * The main process (the parent) analyses the inputs from the front, one
 * after the other, straight into the report, as -j 1 does; the workers
 * take runs of inputs from the back of a window ahead of it.  Each worker
 * is forked at the start with a socket pair to the parent and one
 * temporary file of its own.  The parent hands a worker a task, the index
 * of an input (or of a run of small consecutive ones); the worker analyses
 * each (run_one), appends its part of the report to its temporary file and
 * answers, input by input, with where the part lies in that file and the
 * input's result.  When the parent's turn comes to an input a worker
 * analysed it copies the part out (pread from the worker's file: the file
 * is shared, its offset is not touched), so the output is byte for byte
 * that of -j 1.  The two ends meet: a batch of small captures costs no
 * more than -j 1 (the parent does at least as much as -j 1 would in the
 * time), and one of large captures is shared out.
 *
 * Before the parent analyses an input of its own it sends each worker
 * tasks enough to keep it busy that long (the socket is the worker's
 * queue: it never waits for the parent between two tasks); an input's
 * cost is estimated from its size on disk.  Whoever starts an input
 * first claims it in memory shared by all (an atomic byte per input): at
 * its turn the parent takes back an input handed to a worker that has
 * not started it, rather than wait for it, and the worker skips it.  A worker's file is rewound
 * when every part in it has been written out and the written parts'
 * blocks are given back as they go, so the disk it uses is the parts not
 * yet written: at most those of RUN_POOL_WINDOW inputs.
 *
 * An input that is not a regular file (standard input, a FIFO, a device)
 * is the parent's at its turn, as -j 1 reads it: two workers must not
 * share one stream, and its order among the others is the order its bytes
 * are read in.  So is an input whose part a worker could not write (a full
 * /tmp): analysed again here, never failed for it.
 *
 * A worker's standard error is a second temporary file, its messages
 * copied to the parent's standard error at their input's turn as well:
 * the messages, too, come in the order -j 1 gives them.
 *
 * A worker that dies fails the input it was on (the report says so) and
 * is replaced; the rest of its tasks waits again, for a worker or the
 * parent.  With no worker at all the parent analyses every input.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/out_file.h"
#include "cli/run.h"
#include "cli/run_pool.h"

/* Workers take inputs at most this far ahead of the one written next:
 * the parts waiting in the temporary files are at most this many inputs'. */
#define RUN_POOL_WINDOW 1024
/* A task is a run of consecutive inputs, up to this many and this many
 * bytes: 1000 captures of a few hundred bytes each cost a message, a
 * wake-up of the parent and of a worker per input otherwise, more than
 * their analysis.  Never more than a 2 * (workers + 1)'th of the inputs
 * waiting (guided self-scheduling: a small batch is still spread over
 * every process), and a compressed input, whose cost its size on disk
 * does not tell, is a task of its own. */
#define RUN_POOL_CHUNK_INPUTS 32
#define RUN_POOL_CHUNK_BYTES (1u << 20)
/* Tasks sent to a worker and not yet answered in full. */
#define RUN_POOL_QUEUE 16
/* The cost of an input, in bytes of a capture: its size and, for the
 * opening, the set-up and the report, this much (a capture of 20 records
 * takes about as long as 16 KB more of one). */
#define RUN_POOL_INPUT_COST 16384
/* What a worker is kept supplied with at least while the parent waits
 * for it (so that it never waits for the parent between two tasks); and
 * at most while the parent analyses an input whose cost is not known
 * (standard input, a FIFO). */
#define RUN_POOL_LEAD_MIN (1u << 20)
#define RUN_POOL_LEAD_MAX (64u << 20)
/* The socket a worker answers on: the answers of the small inputs done
 * while the parent analyses one of its own wait in it (best effort; the
 * system's maximum may be lower). */
#define RUN_POOL_SOCKET_BUFFER (2 << 20)

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
	uint8_t taken; /* the parent took the input first: nothing was done */
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
	/* the tasks sent and not answered in full, oldest first (a ring):
	 * [first, end) each; task lies in the oldest */
	int task_first[RUN_POOL_QUEUE], task_end[RUN_POOL_QUEUE];
	unsigned head, tasks;
	uint64_t queued_cost; /* of the inputs sent and not answered */
	unsigned pending; /* its parts done and not yet written out */
	uint64_t end; /* the end of the last part in its file */
	uint64_t err_end; /* and of the last messages in its errfile */
	/* the parts written out are given back to the file system (a
	 * worker kept busy is seldom rewound) up to here; false where it
	 * cannot punch holes */
	uint64_t punched;
	bool no_punch;
	/* its answers as read: a burst of small inputs' in one read */
	unsigned char answers[32 * sizeof(struct pool_done)];
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

/* Who analyses an input that was handed to a worker: the first to claim
 * it in the shared claims (run_pool's).  The parent takes one back that
 * no worker started when its turn comes (it would wait for it
 * otherwise). */
enum { CLAIM_NONE, CLAIM_PARENT, CLAIM_WORKER };

static bool claim(unsigned char *claims, int index, unsigned char who)
{
	unsigned char none = CLAIM_NONE;
	return !claims || __atomic_compare_exchange_n(&claims[index], &none, who, false,
	                                              __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static _Noreturn void worker_main(const struct config *cfg, int sock, FILE *file,
                                  unsigned char *claims)
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
			if (!claim(claims, done.index, CLAIM_WORKER)) {
				done.taken = 1;
				if (!io_all(sock, &done, sizeof(done), true))
					_exit(3);
				continue;
			}
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
	int next_emit; /* the input written next (the parent's turn) */
	unsigned char *claims; /* shared with the workers; NULL: none */
	/* every input in (known_lo, known_hi] is assigned (pool_back's
	 * memory: a batch of many small inputs scans each once) */
	int known_lo, known_hi;
	struct pollfd *fds; /* one per worker */
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
	w->head = w->tasks = 0;
	w->queued_cost = 0;
	w->answers_len = 0;
	if (!w->file)
		w->file = tmpfile();
	if (!w->errfile)
		w->errfile = tmpfile();
	if (!w->file || !w->errfile || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return false;
	int buffer = RUN_POOL_SOCKET_BUFFER;
	(void)setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &buffer, sizeof(buffer));
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
		worker_main(p->cfg, sv[1], w->file, p->claims);
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

/* The cost of input i, in bytes of a capture (RUN_POOL_INPUT_COST). */
static uint64_t input_cost(const struct pool *p, int i)
{
	uint64_t size = p->sizes[i] == UINT64_MAX ? RUN_POOL_LEAD_MAX : p->sizes[i];
	return size + RUN_POOL_INPUT_COST;
}

/* The last input waiting for a worker: not assigned, after the one
 * written next (that one is the parent's when it waits) and within
 * RUN_POOL_WINDOW of it; -1 when there is none. */
static int pool_back(struct pool *p)
{
	int n = p->cfg->input_count;
	int top = n - p->next_emit > RUN_POOL_WINDOW ? p->next_emit + RUN_POOL_WINDOW : n;
	int i = top - 1;
	while (i > p->next_emit) {
		if (i <= p->known_hi && i > p->known_lo)
			i = p->known_lo;
		else if (p->inputs[i].assigned)
			i--;
		else
			break;
	}
	if (top - 1 > i) {
		p->known_lo = i;
		p->known_hi = top - 1;
	}
	return i > p->next_emit ? i : -1;
}

/* Hands worker wi the last inputs waiting as a task: one, or a run of
 * small ones (RUN_POOL_CHUNK_INPUTS).  *given: whether there was one.
 * False when the worker is lost. */
static bool pool_give(struct pool *p, int wi, bool *given)
{
	struct pool_worker *w = &p->workers[wi];
	*given = false;
	int last = pool_back(p);
	if (last < 0 || w->tasks == RUN_POOL_QUEUE)
		return true;
	/* every part in its files is written out, and none is being made */
	bool rewind = w->pending == 0 && w->task < 0;
	int share = (last - p->next_emit) / (2 * (p->worker_count + 1));
	int most = share < 1 ? 1 : share < RUN_POOL_CHUNK_INPUTS ? share : RUN_POOL_CHUNK_INPUTS;
	int first = last;
	uint64_t bytes = p->sizes[last];
	while (last - first + 1 < most && first - 1 > p->next_emit &&
	       !p->inputs[first - 1].assigned && bytes < RUN_POOL_CHUNK_BYTES &&
	       p->sizes[first - 1] <= RUN_POOL_CHUNK_BYTES - bytes)
		bytes += p->sizes[--first];
	if (rewind)
		w->end = w->err_end = w->punched = 0;
	struct pool_task task = { first, last - first + 1, w->end, w->err_end };
	/* sent while it works: it goes on where the task before ends */
	if (w->task >= 0)
		task.offset = task.err_offset = POOL_GO_ON;
	if (!io_all(w->sock, &task, sizeof(task), true))
		return false;
	unsigned slot = (w->head + w->tasks++) % RUN_POOL_QUEUE;
	w->task_first[slot] = first;
	w->task_end[slot] = last + 1;
	if (w->task < 0)
		w->task = first;
	for (int i = first; i <= last; i++) {
		p->inputs[i].assigned = true;
		w->queued_cost += input_cost(p, i);
	}
	*given = true;
	return true;
}

/* One answer of worker wi; false when it is not the one awaited. */
static bool pool_take_answer(struct pool *p, int wi, const struct pool_done *answer)
{
	struct pool_worker *w = &p->workers[wi];
	struct pool_done done = *answer;
	if (w->task < 0 || done.index != w->task)
		return false;
	struct pool_input *in = &p->inputs[done.index];
	if (done.taken)
		goto next; /* the parent's (taken back at its turn) */
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
next:
	w->queued_cost -= input_cost(p, done.index);
	if (++w->task == w->task_end[w->head]) {
		w->head = (w->head + 1) % RUN_POOL_QUEUE;
		w->task = --w->tasks ? w->task_first[w->head] : -1;
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
 * rest of its tasks waits again (for a worker or the parent), and a new
 * worker takes its place (false when none can be started: the parent
 * does without). */
static bool pool_replace(struct pool *p, int wi)
{
	struct pool_worker *w = &p->workers[wi];
	/* the input it was on: the one of its inputs left that it claimed
	 * (without shared claims, the next it was to answer for); those the
	 * parent took back are the parent's; the rest waits again */
	int on = -1;
	for (unsigned t = 0; w->task >= 0 && t < w->tasks; t++) {
		unsigned slot = (w->head + t) % RUN_POOL_QUEUE;
		int from = t == 0 ? w->task : w->task_first[slot];
		for (int i = from; i < w->task_end[slot]; i++) {
			unsigned char c = p->claims
			                          ? __atomic_load_n(&p->claims[i], __ATOMIC_ACQUIRE)
			                  : i == w->task ? CLAIM_WORKER
			                                 : CLAIM_NONE;
			if (c == CLAIM_WORKER && on < 0)
				on = i;
			else if (c == CLAIM_NONE) {
				p->inputs[i].assigned = false;
				p->known_hi = -1; /* pool_back scans afresh */
			}
		}
	}
	if (on >= 0) {
		struct pool_input *in = &p->inputs[on];
		in->done = true;
		in->worker = -1;
		input_failed(in, &p->results[on], p->cfg->inputs[on],
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
	}
	w->task = -1;
	w->head = w->tasks = 0;
	w->queued_cost = 0;
	w->answers_len = 0;
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

static void pool_lost(struct pool *p, int wi)
{
	if (!pool_replace(p, wi))
		fprintf(stderr, "dllpcheck: cannot restart a worker: %s\n", strerror(errno));
}

/* Reads the answers of the busy workers that have come, waiting for one
 * up to timeout milliseconds (poll's). */
static void pool_read_answers(struct pool *p, int timeout)
{
	int busy = 0;
	for (int wi = 0; wi < p->worker_count; wi++) {
		struct pool_worker *w = &p->workers[wi];
		p->fds[wi].fd = w->task >= 0 ? w->sock : -1;
		p->fds[wi].events = POLLIN;
		p->fds[wi].revents = 0;
		busy += w->task >= 0;
	}
	if (!busy)
		return;
	if (poll(p->fds, (nfds_t)p->worker_count, timeout) < 0) {
		if (errno != EINTR)
			fprintf(stderr, "dllpcheck: poll: %s\n", strerror(errno));
		return;
	}
	for (int wi = 0; wi < p->worker_count; wi++)
		if (p->fds[wi].revents && !pool_answer(p, wi))
			pool_lost(p, wi);
}

/* Keeps the workers supplied: the answers that have come are read first
 * (what a worker finished is no longer its work ahead), then each gets
 * tasks until what it has been sent and not answered costs at least lead
 * (an idle one at least one task); then, timeout not 0, the parent waits
 * for an answer up to timeout milliseconds (poll's). */
static void pool_service(struct pool *p, uint64_t lead, int timeout)
{
	pool_read_answers(p, 0);
	for (int wi = 0; wi < p->worker_count; wi++) {
		struct pool_worker *w = &p->workers[wi];
		bool given = true;
		while (w->sock >= 0 && given && (w->task < 0 || w->queued_cost < lead))
			if (!pool_give(p, wi, &given)) {
				pool_lost(p, wi);
				break;
			}
	}
	if (timeout != 0)
		pool_read_answers(p, timeout);
}

/* Writes out input i, done by a worker (or failed), at its turn. */
static void pool_emit_part(struct pool *p, int i)
{
	struct pool_input *in = &p->inputs[i];
	if (in->worker >= 0) {
		struct pool_worker *w = &p->workers[in->worker];
		/* its messages first, as -j 1 writes them while the report
		 * waits in the output's buffer */
		if (in->err_length)
			(void)copy_part(w->errfile, in->err_offset, in->err_length, stderr);
		enum copy_result c = COPY_OK;
		if (in->length && !p->out_failed)
			c = copy_part(w->file, in->offset, in->length, p->out);
		/* a report that cannot be written is main's to tell (ferror
		 * of out), not the input's fault */
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
		run_input_error(p->cfg, p->cfg->inputs[i], NULL, p->out, NULL, p->results[i].error);
	}
}

/* The parent's own input i, at its turn: the workers are sent enough to
 * keep them busy while it is analysed, straight into the report (twice
 * its cost: what a worker is on may end soon after the parent starts). */
static void pool_run_here(struct pool *p, int i)
{
	struct pool_input *in = &p->inputs[i];
	in->assigned = in->here = true;
	uint64_t lead = 2 * input_cost(p, i);
	pool_service(p, lead < RUN_POOL_LEAD_MIN ? RUN_POOL_LEAD_MIN : lead, 0);
	if (in->again)
		fprintf(stderr,
		        "dllpcheck: %s: its part of the report could not be written to a "
		        "temporary file (%s): analysed again by the main process\n",
		        p->cfg->inputs[i], in->again_why);
	run_one(p->cfg, i, p->out, &p->results[i]);
}

int run_pool(const struct config *cfg, FILE *out, struct input_result *results)
{
	int n = cfg->input_count;
	struct pool p = {
		.cfg = cfg,
		.out = out,
		.results = results,
		/* the parent is one of the -j N */
		.worker_count = cfg->jobs - 1 < n - 1 ? cfg->jobs - 1 : n - 1,
		.parent = getpid(),
		.known_hi = -1,
	};
	if (p.worker_count < 1)
		p.worker_count = 1;
	p.workers = calloc((size_t)p.worker_count, sizeof(*p.workers));
	p.inputs = calloc((size_t)n, sizeof(*p.inputs));
	p.sizes = calloc((size_t)n, sizeof(*p.sizes));
	p.fds = calloc((size_t)p.worker_count, sizeof(*p.fds));
	/* shared with the workers (fork), zero-filled: CLAIM_NONE; without
	 * it the parent waits for every input it handed out */
	void *claims =
	        mmap(NULL, (size_t)n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	p.claims = claims == MAP_FAILED ? NULL : claims;
	if (!p.workers || !p.inputs || !p.sizes || !p.fds) {
		fprintf(stderr, "dllpcheck: out of memory\n");
		free(p.workers);
		free(p.inputs);
		free(p.sizes);
		free(p.fds);
		if (p.claims)
			munmap(p.claims, (size_t)n);
		return EXIT_ERROR;
	}
	for (int i = 0; i < n; i++) {
		p.sizes[i] = input_weight(cfg->inputs[i]);
		/* standard input, a FIFO, a device: read here, in turn */
		p.inputs[i].here = p.sizes[i] == UINT64_MAX;
		p.inputs[i].assigned = p.inputs[i].here;
	}
	for (int wi = 0; wi < p.worker_count; wi++)
		p.workers[wi].sock = -1;
	for (int wi = 0; wi < p.worker_count; wi++)
		if (!worker_start(&p, wi))
			fprintf(stderr, "dllpcheck: cannot start a worker: %s\n", strerror(errno));
	/* (no worker at all: the parent analyses every input, as -j 1) */
	int status = EXIT_CLEAN;
	while (p.next_emit < n) {
		int i = p.next_emit;
		struct pool_input *in = &p.inputs[i];
		if (in->assigned && !in->here && !in->done) {
			/* a worker's, not yet done: taken back if no worker
			 * started it, else waited for */
			if (p.claims && claim(p.claims, i, CLAIM_PARENT)) {
				in->here = true;
			} else {
				pool_service(&p, RUN_POOL_LEAD_MIN, -1);
				/* (a worker lost with its tasks gives them back) */
				continue;
			}
		}
		run_report_between(cfg, out, i);
		if (!in->assigned || in->here)
			pool_run_here(&p, i);
		else
			pool_emit_part(&p, i);
		if (results[i].status > status)
			status = results[i].status;
		p.next_emit++;
	}
	for (int wi = 0; wi < p.worker_count; wi++) {
		worker_stop(&p.workers[wi]);
		if (p.workers[wi].file)
			fclose(p.workers[wi].file);
		if (p.workers[wi].errfile)
			fclose(p.workers[wi].errfile);
	}
	if (p.claims)
		munmap(p.claims, (size_t)n);
	free(p.workers);
	free(p.inputs);
	free(p.sizes);
	free(p.fds);
	return status;
}
