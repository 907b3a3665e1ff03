/* reader.h: the one interface every capture reader offers.
 *
 * reader_open() finds the format of a file (gzip or zstd undone first,
 * then pcap/pcapng by magic number, binary data refused, an analyzer
 * export when csv_sniff() says so, otherwise the text trace)
 * and returns a reader that yields records one
 * at a time, in file order, with their source positions.  A record that
 * cannot be read is returned as READER_MALFORMED with its position and a
 * reason; reading goes on after it.  Nothing is buffered beyond one record.
 */
#ifndef DLLPCHECK_READER_H
#define DLLPCHECK_READER_H

#include <stdbool.h>
#include <stdio.h>

#include "core/record.h"

enum input_format {
	INPUT_AUTO = 0,
	INPUT_PCAP, /* pcap or pcapng (capture-format.md section 1) */
	INPUT_TEXT, /* the text trace (capture-format.md section 2) */
	INPUT_CSV, /* a protocol-analyzer export (section 3, reader_csv.h) */
	INPUT_VCD, /* a VCD of lanes (section 4, read/lanes/) */
};

struct csv_options; /* reader_csv.h */
struct lane_options; /* read/lanes/lane_map.h */

struct reader_opts {
	enum input_format format; /* INPUT_AUTO: detect */
	int dlt; /* link type expected in pcap files (147..162) */
	const struct csv_options *csv; /* export steering; NULL: defaults */
	bool csv_steered; /* an export option was given: INPUT_AUTO
	                            * reads a non-pcap input as an export */
	const struct lane_options *lanes; /* VCD lane mapping; NULL: found by name */
	/* network captures (read/net/net_decoder.h): the Warp Pipe TCP port
	 * (0: 2115) and the directions of Warp Pipe's server side and of the
	 * NetTLP adapter (DIR_DOWN by default; --dir-map server=, adapter=) */
	uint16_t warp_pipe_port;
	enum link_dir net_server_dir, net_adapter_dir;
};

enum reader_result {
	READER_RECORD, /* *rec holds the next record */
	READER_MALFORMED, /* *bad says which record and why; call again */
	READER_EOF,
	READER_FATAL, /* the input cannot be read further; *bad says why */
	READER_RESYNC, /* a damaged pcap record header: *bad says where the
	                    * bytes that are no record start and how many they
	                    * are; call again (capture-format.md section 1) */
	READER_NOTE, /* no record and no damage: bad->reason says what the
	                    * reader passed over (a network capture's packets of
	                    * no PCIe traffic, once), bad->skipped how many
	                    * packets, pos the first; call again
	                    * (capture.not-pcie) */
};

struct reader_malformed {
	struct srcpos pos;
	unsigned column; /* text: 1-based column of the problem, 0 if none */
	char reason[200];
	/* What the record showed of itself before it failed, for the model's
	 * "what the capture saw damaged" [rules.md]: its direction, link and
	 * kind (enum rec_kind, 0 when unknown), when the reader got that far */
	bool has_dir, has_link;
	enum link_dir dir;
	uint8_t link;
	uint8_t kind;
	/* A lane-level capture (section 4): the lane at fault and the time
	 * of its symbol, when the reader knows them */
	bool has_lane, has_time;
	unsigned lane;
	uint64_t time_ps;
	/* not one record but a stretch: the reader lost step, and any number
	 * of the direction's packets from here on may be missing until it is
	 * back (a lane decoder's stream stopped) */
	bool lost_span;
	/* READER_RESYNC only: the bytes skipped from pos.byte_offset, and
	 * whether a record follows them (false: they run to the end) */
	uint64_t skipped;
	bool resumed;
	/* READER_RESYNC, resumed: where reading went on, when the skipped
	 * bytes are not one stretch of the file (a TCP stream's, spread over
	 * its packets: read/net/warp_pipe.h); else pos.byte_offset + skipped */
	bool has_resume_offset;
	uint64_t resume_offset;
	/* READER_RESYNC, not resumed: the skipped bytes ran up to a gap of the
	 * stream (read/net/warp_pipe.h) and reading goes on after it: they are
	 * not left unread (bytes_unread), they are bytes_before_gap */
	bool to_gap;
};

/* Clears what a malformed record showed of itself (before a reader fills
 * in what it knows), and the column, which only a reader of lines sets:
 * a report of another reader (a network capture's note) never carries a
 * column left from an earlier one. */
static inline void reader_malformed_unknown(struct reader_malformed *bad)
{
	bad->column = 0;
	bad->has_dir = bad->has_link = false;
	bad->has_lane = bad->has_time = false;
	bad->lost_span = false;
	bad->has_resume_offset = false;
	bad->to_gap = false;
	bad->kind = 0;
}

/* What reader_next() does to bad before each result: the above, and no
 * source packet number (only the export reader knows one). */
static inline void reader_malformed_reset(struct reader_malformed *bad)
{
	bad->pos.has_source_packet = false;
	reader_malformed_unknown(bad);
}

/* What reader_each() calls for every record in file order: res is
 * READER_RECORD (rec holds it, already checked for size) or
 * READER_MALFORMED / READER_FATAL (bad says which and why).  rec and bad
 * are valid during the call only.  Returns false to stop reading. */
typedef bool (*reader_visit_fn)(void *ctx, enum reader_result res, const struct record *rec,
                                const struct reader_malformed *bad);

/* A reader implementation: state plus its functions.  each is optional:
 * a format that can hand every record over from one loop of its own
 * (classic pcap, reader_pcapfile.c) saves a call chain per record; it
 * gives what reader_each() through next() would. */
struct reader_ops {
	const char *format_name; /* "pcap", "pcapng", "text", "csv" */
	enum reader_result (*next)(void *state, struct record *rec, struct reader_malformed *bad);
	void (*close)(void *state);
	/* false: this input cannot be read that way (next() is used) */
	bool (*each)(void *state, reader_visit_fn visit, void *ctx);
	/* optional: the bytes of the input in what was read (headers and
	 * records) and in regions skipped; they add up to its size */
	void (*bytes)(void *state, uint64_t *read, uint64_t *skipped);
	/* optional: the encapsulation inside the container when it is another
	 * tool's (pcap or pcapng of a link type read by a link_decoder,
	 * link_decoder.h: "agilent", ...), NULL for our own */
	const char *(*encapsulation)(void *state);
};

struct reader {
	const struct reader_ops *ops;
	void *state;
	const char *format_name;
	void *iobuf; /* the stream's buffer, freed after it closes */
	/* a gzip or zstd input (decompress.h): its compression, "gzip" or
	 * "zstd", NULL for none; dz tells why the stream stopped early */
	const char *compression;
	struct decompress *dz;
	const char *name;
	uint64_t dz_last_record; /* reader_next on a decompressed input */
	bool dz_reported;
	/* another tool's encapsulation in a pcap/pcapng (reader_ops), NULL
	 * for ours and for every other format */
	const char *encapsulation;
};

/* The stdio buffer of a file that reader_open opens: libpcap reads each
 * record with two freads, and the text reader a character at a time, so
 * the default (4 KiB, one read(2) each) costs a system call every few
 * dozen records. */
#define READER_IOBUF_SIZE (1u << 20)

/* Opens path ("-" = standard input).  On failure returns NULL with a
 * message naming the file in err. */
struct reader *reader_open(const char *path, const struct reader_opts *opts, char *err,
                           size_t errlen);
/* Reads an already open stream (taken over: closed by reader_close, or
 * on failure).  A stream that cannot seek (a pipe, standard input) is
 * read once: the bytes that tell its format are replayed. */
struct reader *reader_open_stream(FILE *fp, const char *name, bool seekable,
                                  const struct reader_opts *opts, char *err, size_t errlen);
enum reader_result reader_next(struct reader *r, struct record *rec, struct reader_malformed *bad);
/* Reads every record and calls visit for each, until the input ends, a
 * READER_FATAL, or visit returns false: the same records, results and
 * order as calling reader_next() until READER_EOF or READER_FATAL. */
void reader_each(struct reader *r, reader_visit_fn visit, void *ctx);
/* reader_record_ok() past the inline test: the full check, bad filled
 * when the record fails it. */
bool reader_record_bad(const struct record *rec, struct reader_malformed *bad);
/* The size and event checks reader_next() applies to every record a
 * format reader returns; false (with bad filled) for a malformed one.
 * For readers that implement each.  Inline: once a record. */
static inline bool reader_record_ok(const struct record *rec, struct reader_malformed *bad)
{
	return record_plainly_ok(rec) || reader_record_bad(rec, bad);
}
void reader_close(struct reader *r);

/* A READER_RESYNC's report (capture.resync, capture-format.md section 1):
 * "damaged DAMAGED (why): N bytes skipped to the next UNIT, at offset O"
 * when found, else "... no UNIT follows; N bytes left unread"; bad->pos is
 * the caller's to fill. */
void reader_resync_report(struct reader_malformed *bad, const char *damaged, const char *unit,
                          const char *why, uint64_t skipped, bool found, uint64_t resume_offset);
/* The byte accounting of a reader that keeps one (see reader_ops.bytes);
 * false for a format that does not. */
bool reader_bytes(const struct reader *r, uint64_t *read, uint64_t *skipped);

/* The format readers.  Each takes ownership of fp (closed by close) and
 * keeps name (not copied: it must outlive the reader). */
void *text_reader_new(FILE *fp, const char *name);
extern const struct reader_ops text_reader_ops;

void *pcap_reader_new(FILE *fp, const char *name, int dlt, char *err, size_t errlen);
extern const struct reader_ops pcap_reader_ops;

/* The project's own classic pcap reader (reader_pcapfile.c): the records
 * libpcap gives, and on past a damaged record header.  reader_open uses
 * it and the pcapng one below; pcap_reader_new (libpcap) stays the
 * reference they are tested against. */
void *pcapfile_reader_new(FILE *fp, const char *name, int dlt, char *err, size_t errlen);
/* The same, and a file of another link type than opts->dlt read by the
 * decoder link_decoder_for() gives (link_decoder.h): what reader_open
 * uses.  pcapfile_reader_new reads only our encapsulation. */
void *pcapfile_reader_open(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                           size_t errlen);
extern const struct reader_ops pcapfile_reader_ops;
/* The project's own pcapng reader (reader_pcapngfile.c), likewise. */
void *pcapngfile_reader_new(FILE *fp, const char *name, int dlt, char *err, size_t errlen);
void *pcapngfile_reader_open(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                             size_t errlen);
extern const struct reader_ops pcapngfile_reader_ops;

/* The lane-level VCD reader (read/lanes/reader_vcd.c): the header read
 * and the lanes mapped at open (from opts, NULL: found by name); on
 * failure fp is closed and err says why, naming the line. */
void *vcd_reader_new(FILE *fp, const char *name, const struct lane_options *opts, char *err,
                     size_t errlen);
extern const struct reader_ops vcd_reader_ops;
/* Whether the first bytes look like a VCD: the first word is one of
 * $date $version $timescale $scope $var $comment $enddefinitions. */
bool vcd_sniff(const unsigned char *head, size_t len);

#endif
