/* cli_parse.h: parsers for the option values that have a syntax of their
 * own (--tc-map, --role, --mps, --initial-credits).  Each returns false
 * with a message in err when the value is not valid. */
#ifndef DLLPCHECK_CLI_PARSE_H
#define DLLPCHECK_CLI_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/fc_model.h"
#include "read/reader.h"

/* "TC=VC[,TC=VC...]", e.g. "0=0,1=1,7=1"; TCs not named keep their VC. */
bool parse_tc_map(const char *s, uint8_t tc_to_vc[8], char *err, size_t errlen);
/* "down=ROLE[,up=ROLE]"; ROLE is root-port, root-port-p2p, switch or
 * endpoint.  Port D cannot be an endpoint; port U cannot be a root port. */
bool parse_roles(const char *s, enum port_role role[DIR_COUNT], char *err, size_t errlen);
/* A Max_Payload_Size: 128, 256, 512, 1024, 2048 or 4096 bytes. */
bool parse_mps(const char *s, uint32_t *mps, char *err, size_t errlen);
/* --mrrs: the same sizes (Max_Read_Request_Size). */
bool parse_mrrs(const char *s, uint32_t *mrrs, char *err, size_t errlen);
/* "PORT:VC:TYPE=N[,TYPE=N...]" where PORT (down|up) is the advertising
 * port, VC 0-7, TYPE one of PH PD NPH NPD CplH CplD, N a credit count or
 * "inf".  Adds to what is already in initial[][][]. */
bool parse_initial_credits(const char *s,
                           struct initial_credit initial[DIR_COUNT][FC_VC_COUNT][CT_COUNT],
                           char *err, size_t errlen);
/* A time in microseconds, decimal with up to 6 fraction digits ("45",
 * "17.5"), greater than 0, to picoseconds. */
bool parse_microseconds(const char *s, uint64_t *ps, char *err, size_t errlen);
/* --dir-map for the network captures (read/net/net_decoder.h): the
 * entries of "KEY=down|up[,...]" whose KEY is server or client (Warp
 * Pipe: the side of the Warp Pipe port, the other side) or adapter or
 * libtlp (NetTLP: the adapter, the LibTLP host) set o->net_server_dir or
 * o->net_adapter_dir (client=up is server=down...); the other entries,
 * an analyzer export's values, are copied to rest (comma-separated,
 * empty when none) for csv_options_set_dir_map. */
bool parse_net_dir_map(const char *s, struct reader_opts *o, char *rest, size_t restlen, char *err,
                       size_t errlen);
/* --warp-pipe-port: a TCP port, 1-65535. */
bool parse_tcp_port(const char *s, uint16_t *port, char *err, size_t errlen);

#endif
