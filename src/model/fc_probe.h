/* fc_probe.h: the shadow model's state at a record, for the pictures of
 * it over time (the VCD of --vcd, the charts of --format=html; the
 * differences are taken in report/timeline.c).  Like fc_view.h, a copy
 * of values, never the model's structures; unlike it, small and cheap:
 * it is read after every record of a run that draws, one VC at a time.
 *
 * Three states for every value [brief, rules.md "What the capture saw
 * damaged"]: a value is given with its *_known flag; what the capture saw
 * damaged that may have changed it is a separate *_uncertain flag. */
#ifndef DLLPCHECK_FC_PROBE_H
#define DLLPCHECK_FC_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fc_model.h"

/* A port's flow-control initialisation on one VC [spec-digest 6.2]. */
enum fc_probe_init {
	PROBE_INIT_UNKNOWN = 0, /* the capture began after the VC's epoch start */
	PROBE_INIT_IDLE, /* epoch seen, this VC not initialising */
	PROBE_INIT_FC_INIT1, /* sending InitFC1: FI1 not yet reached */
	PROBE_INIT_FC_INIT2, /* FI1 reached, FI2 not yet */
	PROBE_INIT_COMPLETE, /* FI2 reached: initialisation complete */
};

/* The link as the capture shows it. */
enum fc_probe_link_state {
	PROBE_LINK_UNKNOWN = 0, /* nothing seen yet, or a port-reset since the
	                         * link's last initialisation */
	PROBE_LINK_DOWN, /* a link-down or hot-reset event, nothing after */
	PROBE_LINK_INIT, /* an epoch began and VC0 is not complete at both ports */
	PROBE_LINK_ACTIVE, /* VC0 complete at both ports, or traffic of a
	                    * capture begun mid-stream (UpdateFCs, Acks and TLPs
	                    * flow only in DL_Active [spec-digest 6.2]) */
	PROBE_LINK_L1, /* from a PM entry until the next other TLP or DLLP */
};

/* One credit type of one transmitter on one VC. */
/* After a port-reset event, until the link re-initialises, no credit is
 * known (fc.reset.stale-credits: the two ports' states disagree). */
struct fc_probe_credit {
	bool limit_known, consumed_known;
	bool infinite; /* advertised infinite at init */
	bool available_known; /* limit and consumed known, not infinite */
	bool limit_uncertain; /* a damaged DLLP may have raised the limit */
	uint8_t width; /* counter width N */
	uint8_t zero[2]; /* always 0: the struct has no padding, so that a
	               * probe can fill it field by field and be compared
	               * with memcmp */
	uint32_t limit, consumed; /* CL and CC mod 2^N, when known */
	uint32_t available; /* (CL - CC) mod 2^N (0 past an overrun) */
};

struct fc_probe_vc {
	uint8_t init[DIR_COUNT]; /* enum fc_probe_init, of each port */
	struct fc_probe_credit credit[DIR_COUNT][CT_COUNT]; /* each port's transmitter */
};

/* One port's data link layer and the requests it has outstanding. */
struct fc_probe_port {
	bool seq_known; /* NEXT_TRANSMIT_SEQ */
	bool ackd_known; /* ACKD_SEQ */
	bool tlps_outstanding_known;
	/* a TLP it sent was never seen intact: CC of its transmitter may lag
	 * its own count on every VC */
	bool consumed_may_lag;
	bool requests_known; /* the transaction state is known */
	uint8_t zero; /* always 0: no padding (see fc_probe_credit) */
	uint16_t next_transmit_seq, ackd_seq;
	uint16_t tlps_outstanding; /* sent and not acknowledged */
	uint32_t requests_outstanding; /* non-posted requests not completed */
};

struct fc_probe_link {
	uint8_t state; /* enum fc_probe_link_state */
	uint8_t zero[3]; /* always 0: no padding (see fc_probe_credit) */
	struct fc_probe_port port[DIR_COUNT];
};

/* The link-wide values of link index; false when the capture had no
 * record on it. */
bool fc_probe_link(const struct fc_model *m, unsigned index, struct fc_probe_link *out);
/* Only its state (enum fc_probe_link_state), of a link that exists. */
uint8_t fc_probe_link_state(const struct fc_model *m, unsigned index);
/* Only its state and each port's fc_probe_port.consumed_may_lag, in one
 * call (a picture that draws no port's other value); false, nothing
 * written, when the capture had no record on link index. */
bool fc_probe_link_lag(const struct fc_model *m, unsigned index, uint8_t *state,
                       bool lag[DIR_COUNT]);

/* The values of one VC of link index (the link must exist: a true
 * fc_probe_link). */
void fc_probe_vc(const struct fc_model *m, unsigned index, unsigned vc, struct fc_probe_vc *out);

/* One credit type of one port's transmitter on one VC, and the init
 * states of both ports on it: the parts fc_probe_vc() is made of, for a
 * record that touched only them. */
void fc_probe_credit(const struct fc_model *m, unsigned index, unsigned vc, enum link_dir port,
                     enum credit_type ct, struct fc_probe_credit *out);
void fc_probe_init(const struct fc_model *m, unsigned index, unsigned vc, uint8_t init[DIR_COUNT]);

/* What applying a packet may have changed (besides the link-wide values,
 * which any record may change): whole VCs, or, for the common records,
 * a few credits of one VC and its ports' init states. */
struct fc_probe_touch {
	bool ports; /* the ports' values (struct fc_probe_port); the link's
	             * state may change at any record */
	uint8_t vcs; /* a bit per VC any of whose values may have changed */
	bool one_vc; /* and vc's init states and the credits below */
	uint8_t vc;
	uint16_t credits; /* bit port * CT_COUNT + type */
};

/* An intact TLP charges its sender's header and data types of its class
 * on its VC and may complete its receiver's initialisation there; an
 * UpdateFC sets two limits of its receiver's transmitter on its VC and
 * may complete the receiver's initialisation (neither changes the
 * ports' values but for an intact TLP's sequence number and requests);
 * Acks and Naks touch no VC, PM DLLPs no VC and no port; anything that may start, join or end an epoch or leave
 * counters uncertain (InitFCs, events, damaged or malformed records)
 * touches every VC.  Call it after fc_model_apply(pkt, fit). */
void fc_probe_touched(const struct fc_model *m, const struct packet *pkt, bool fit,
                      struct fc_probe_touch *out);

#endif
