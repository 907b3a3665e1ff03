/* fc_model.h: the shadow model of both link partners' flow-control state.
 *
 * Per link, per transmitting port (down = port D, up = port U), per VC 0-7,
 * per credit type (PH PD NPH NPD CplH CplD): the credit limit the partner
 * advertised, the credits consumed, infinite flags, scale and counter
 * width, and each port's FC_INIT1/FC_INIT2 progress in the current
 * initialisation epoch.  Semantics: shared/docs/rules.md ("How the model
 * reads a trace"), spec-digest.md sections 5 and 6.
 *
 * Packets are applied in capture order; every violation is raised into the
 * finding sink with the counter values that prove it.  O(1) work and no
 * allocation per packet; memory grows only with the number of links seen.
 */
#ifndef DLLPCHECK_FC_MODEL_H
#define DLLPCHECK_FC_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "packet.h"
#include "rules.h"

#define FC_VC_COUNT 8
#define FC_LINK_COUNT 256

enum port_role {
	ROLE_UNKNOWN = 0,
	ROLE_ROOT_PORT,      /* Root Port of an RC without peer-to-peer */
	ROLE_ROOT_PORT_P2P,  /* Root Port of an RC with peer-to-peer */
	ROLE_SWITCH,         /* a switch port */
	ROLE_ENDPOINT,
};

/* Credits the user says a port advertised at initialisation, for captures
 * that start after it (--initial-credits). */
struct initial_credit {
	bool given;
	bool infinite;
	uint32_t credits;
};

struct fc_options {
	uint8_t tc_to_vc[8];              /* default all 0 */
	enum port_role role[DIR_COUNT];   /* of port D and port U */
	uint32_t mps;                     /* Rx_MPS_Limit in bytes; 0 = unknown */
	/* [advertising port][vc][credit type] */
	struct initial_credit initial[DIR_COUNT][FC_VC_COUNT][CT_COUNT];
};

enum vc_state {
	VC_UNKNOWN = 0,  /* no epoch start seen: the capture began mid-stream */
	VC_IDLE,         /* link epoch seen, this VC never started init */
	VC_INIT,         /* in an epoch whose start was seen */
	VC_GIVEN,        /* as VC_INIT, from --initial-credits */
};

/* One credit type of one transmitter on one VC. */
struct fc_credit {
	uint32_t limit;          /* CREDIT_LIMIT, credits mod 2^width */
	uint32_t consumed;       /* CREDITS_CONSUMED, credits mod 2^width */
	uint32_t init_max;       /* largest initial advertisement in the epoch */
	uint8_t width;           /* counter width N */
	uint8_t scale;           /* scale field at init (0..3) */
	bool limit_known;
	bool consumed_known;
	bool infinite;
	bool infinite_known;     /* the init advertisement was seen (or given) */
	bool limit_from_init1;   /* an InitFC1 set the limit in this epoch */
	bool overran;            /* the gate failed in this epoch: CC may be past CL */
	/* statistics, kept across epochs */
	bool advertised_seen;
	bool advertised_infinite;
	uint32_t advertised;     /* last initial advertisement, credits */
	bool min_available_seen;
	uint32_t min_available;
	uint64_t tlps_charged;
	uint64_t credits_charged;
};

/* What a port advertised in an InitFC DLLP. */
struct fc_adv {
	bool seen;
	uint8_t hdr_fc;
	uint16_t data_fc;
	uint8_t hdr_scale, data_scale;
};

/* One port's init progress on one VC, and its transmitter's credits. */
struct fc_port_vc {
	bool fi1;                /* partner sent InitFC1/2 for P, NP and Cpl */
	bool complete;           /* FI1 and then an InitFC2/UpdateFC/TLP from the partner */
	uint8_t got_init_mask;   /* classes the partner advertised, bit per fc_class */
	bool sent_init2;         /* this port sent InitFC2: it left FC_INIT1 */
	int8_t last_init_class[2];   /* per phase (InitFC1, InitFC2), -1 none */
	struct fc_adv first_adv[2][FC_CLASS_COUNT];   /* this port's own, per phase and class */
	struct fc_credit credit[CT_COUNT];   /* this port's transmitter */
};

struct fc_vc {
	enum vc_state state;
	struct fc_port_vc port[DIR_COUNT];
	/* for the report: what could not be checked */
	uint64_t tlps_while_unknown;
	uint64_t fc_dllps_while_unknown;
};

struct fc_link {
	bool active;                 /* any record seen */
	bool epoch_seen;             /* a link-wide epoch start was seen */
	bool epoch_by_event;         /* ... and it came from a link event */
	bool port_reset_pending;     /* a port-reset, and no re-initialisation yet */
	bool has_time;
	uint64_t last_time_ps;
	/* Data Link Feature exchange [1.6] */
	bool dlf_seen[DIR_COUNT];
	bool dlf_scaled[DIR_COUNT];
	/* transmit sequence numbers as seen on the wire, for charging */
	/* A TLP is charged on the first appearance of its sequence number
	 * with a good LCRC [rules.md]: seq_seen marks the numbers seen in the
	 * 2048 behind seq_high, the newest; the 2048 ahead are kept clear. */
	bool seq_known[DIR_COUNT];
	uint16_t seq_high[DIR_COUNT];
	uint8_t seq_seen[DIR_COUNT][4096 / 8];
	uint64_t tlps_not_charged[DIR_COUNT];   /* replays, duplicates */
	struct fc_vc vc[FC_VC_COUNT];
};

struct fc_model {
	const struct fc_options *opts;
	struct finding_sink *sink;
	struct fc_link *links[FC_LINK_COUNT];
};

/* Credit type of the header / data credits of a class. */
static inline enum credit_type ct_hdr(enum fc_class cls)
{
	return (enum credit_type)(2 * (int)cls);
}
static inline enum credit_type ct_data(enum fc_class cls)
{
	return (enum credit_type)(2 * (int)cls + 1);
}
static inline bool ct_is_data(enum credit_type ct)
{
	return (ct & 1) != 0;
}

void fc_model_init(struct fc_model *m, const struct fc_options *opts,
                   struct finding_sink *sink);
void fc_model_free(struct fc_model *m);

/* Applies one decoded packet.  fit is what rules_packet_check() said: a
 * packet that is not fit (bad CRC, truncated, ...) is applied only as far
 * as it can be trusted (a malformed TLP with a good LCRC still uses its
 * sequence number). */
void fc_model_apply(struct fc_model *m, const struct packet *pkt, bool fit);

/* The scaled flow control state of a link: known, and if so, active. */
bool fc_link_scaling_known(const struct fc_link *link, bool *active);

#endif
