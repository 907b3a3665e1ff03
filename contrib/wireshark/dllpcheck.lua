-- dllpcheck.lua: a Wireshark dissector for the dllpcheck encapsulation of
-- PCI Express link traffic in pcap/pcapng (capture-format.md section 1,
-- man dllpcheck-capture(5)): a 4-byte pseudo-header, then a DLLP (4 bytes
-- and its CRC-16), a TLP (sequence field, the TLP, its LCRC) or a link
-- event.  Written for Wireshark 4.0 (Lua 5.2, bit32) and later.
--
-- Install:   mkdir -p ~/.local/lib/wireshark/plugins &&
--            cp dllpcheck.lua ~/.local/lib/wireshark/plugins/
-- One-off:   wireshark -X lua_script:dllpcheck.lua capture.pcap
--
-- Registered on LINKTYPE_USER0 (147) by default; the preference
-- "dllpcheck.dlt" (Edit > Preferences > Protocols > DLLPCHECK, or
-- tshark -o dllpcheck.dlt:148) selects USER0..USER15 as dllpcheck --dlt.
--
-- The decode follows dllpcheck's own (src/wire/dllp.c, src/wire/tlp.c,
-- src/report/decode_print.c, decode_json.c): field names are the keys of
-- `dllpcheck --decode --format=jsonl` under dllpcheck.dllp., .tlp. and
-- .event., and the Info column is the --decode line after its record
-- number and time.  tests/test-wireshark.sh compares the two field for
-- field.  Sections cited as [n.m] are those of the project's spec digest
-- (doc: man dllpcheck-capture(5)).
--
-- Every capture is hostile: a byte is read only after the length was
-- checked, and a record that does not fit its kind is shown malformed
-- with the reason dllpcheck gives, never dissected past its end.

-- Unsigned 32-bit operations: bit32 (Lua 5.2, Wireshark 4.0 and 4.2);
-- else LuaBitOp's bit, whose results are signed (made unsigned here); else
-- Lua 5.3's own operators (loaded from text: a 5.2 parser refuses them).
local function bit_ops()
	if bit32 then return bit32 end
	local function u(x) return x % 4294967296 end
	if bit then
		local b = bit
		return {
			band = function(...) return u(b.band(...)) end,
			bor = function(...) return u(b.bor(...)) end,
			bxor = function(...) return u(b.bxor(...)) end,
			bnot = function(x) return u(b.bnot(x)) end,
			lshift = function(x, n) return u(b.lshift(x, n)) end,
			rshift = function(x, n) return u(b.rshift(x, n)) end,
		}
	end
	return load([[
		local M = 0xFFFFFFFF
		local function fold(op, a, ...)
			local r = a & M
			for _, v in ipairs({ ... }) do r = op(r, v & M) end
			return r
		end
		return {
			band = function(...) return fold(function(x, y) return x & y end, ...) end,
			bor = function(...) return fold(function(x, y) return x | y end, ...) end,
			bxor = function(...) return fold(function(x, y) return x ~ y end, ...) end,
			bnot = function(x) return ~x & M end,
			lshift = function(x, n) return (x << n) & M end,
			rshift = function(x, n) return (x & M) >> n end,
		}]])()
end
local bits = bit_ops()
local band, bor, bxor, bnot = bits.band, bits.bor, bits.bxor, bits.bnot
local lshift, rshift = bits.lshift, bits.rshift
local fmt = string.format

local p = Proto("dllpcheck", "dllpcheck PCIe link traffic")

---------------------------------------------------------------------------
-- Names (as dllpcheck prints them)

local KIND_DLLP, KIND_TLP, KIND_EVENT = 1, 2, 3
local kind_names = { [1] = "DLLP", [2] = "TLP", [3] = "Event" }
local dir_names = { [0] = "down", [1] = "up" }

local F_UP, F_NO_CRC, F_PHY_ERROR, F_NO_SEQ, F_RESERVED = 0x01, 0x02, 0x04, 0x08, 0xF0

-- link events [capture-format.md section 1]
local event_names = {
	[1] = "link-up", [2] = "link-down", [3] = "hot-reset",
	[4] = "recovery", [5] = "port-reset", [6] = "vc-enable",
}
local EV_VC_ENABLE = 6

-- DLLP kinds [1.2]: the fixed codes; FC kinds by bits 7:6 and 5:4
local dllp_fixed = {
	[0x00] = "Ack", [0x01] = "MRInit", [0x02] = "Data_Link_Feature",
	[0x03] = "Alt_Protocol_1", [0x04] = "Alt_Protocol_2", [0x10] = "Nak",
	[0x20] = "PM_Enter_L1", [0x21] = "PM_Enter_L23",
	[0x23] = "PM_Active_State_Request_L1", [0x24] = "PM_Request_Ack",
	[0x28] = "Link_Management", [0x30] = "Vendor_Specific", [0x31] = "NOP",
}
local fc_kind = { [1] = "InitFC1", [2] = "UpdateFC", [3] = "InitFC2" }
local fc_mr_kind = { [1] = "MRInitFC1", [2] = "MRUpdateFC", [3] = "MRInitFC2" }
local fc_class_names = { [0] = "P", [1] = "NP", [2] = "Cpl" }
local scale_suffix = { [0] = "", [1] = "[x1]", [2] = "[x4]", [3] = "[x16]" }
local scale_shift = { [0] = 0, [1] = 0, [2] = 2, [3] = 4 }

-- TLP Fmt/Type rows [4.2]: fmt_mask, fmt, type_mask, type, kind, class
local TLP_ROWS = {
	{ 6, 2, 0x1F, 0x00, "MWr", "P" }, { 6, 0, 0x1F, 0x00, "MRd", "NP" },
	{ 7, 2, 0x1F, 0x0A, "CplD", "Cpl" }, { 7, 0, 0x1F, 0x0A, "Cpl", "Cpl" },
	{ 6, 0, 0x1F, 0x01, "MRdLk", "NP" }, { 7, 0, 0x1F, 0x02, "IORd", "NP" },
	{ 7, 2, 0x1F, 0x02, "IOWr", "NP" }, { 7, 0, 0x1F, 0x04, "CfgRd0", "NP" },
	{ 7, 2, 0x1F, 0x04, "CfgWr0", "NP" }, { 7, 0, 0x1F, 0x05, "CfgRd1", "NP" },
	{ 7, 2, 0x1F, 0x05, "CfgWr1", "NP" }, { 7, 1, 0x18, 0x10, "Msg", "P" },
	{ 7, 3, 0x18, 0x10, "MsgD", "P" }, { 7, 0, 0x1F, 0x0B, "CplLk", "Cpl" },
	{ 7, 2, 0x1F, 0x0B, "CplDLk", "Cpl" }, { 6, 2, 0x1F, 0x0C, "FetchAdd", "NP" },
	{ 6, 2, 0x1F, 0x0D, "Swap", "NP" }, { 6, 2, 0x1F, 0x0E, "CAS", "NP" },
	{ 6, 2, 0x1F, 0x1B, "DMWr", "NP" },
}
-- kinds with a 32/64-bit mnemonic (capture-format.md section 2)
local addr_sized = { MRd = true, MRdLk = true, MWr = true, FetchAdd = true, Swap = true,
	CAS = true, DMWr = true }
local is_completion = { Cpl = true, CplD = true, CplLk = true, CplDLk = true }
local is_message = { Msg = true, MsgD = true }
local is_config = { CfgRd0 = true, CfgWr0 = true, CfgRd1 = true, CfgWr1 = true }
local is_atomic = { FetchAdd = true, Swap = true, CAS = true }
local has_address = { MRd = true, MRdLk = true, MWr = true, DMWr = true, FetchAdd = true,
	Swap = true, CAS = true, IORd = true, IOWr = true }

local routing_names = { [0] = "to-rc", [1] = "by-address", [2] = "by-id", [3] = "broadcast",
	[4] = "local", [5] = "gathered", [6] = "reserved", [7] = "reserved" }
local cpl_status_names = { [0] = "SC", [1] = "UR", [2] = "CRS", [4] = "CA" }

-- message codes [S62-2 2.2.8], as src/wire/tlp.c names them
local msg_code_names = {
	[0x00] = "Unlock", [0x10] = "LTR", [0x12] = "OBFF", [0x14] = "PM_Active_State_Nak",
	[0x18] = "PM_PME", [0x19] = "PME_Turn_Off", [0x1B] = "PME_TO_Ack",
	[0x20] = "Assert_INTA", [0x21] = "Assert_INTB", [0x22] = "Assert_INTC",
	[0x23] = "Assert_INTD", [0x24] = "Deassert_INTA", [0x25] = "Deassert_INTB",
	[0x26] = "Deassert_INTC", [0x27] = "Deassert_INTD", [0x30] = "ERR_COR",
	[0x31] = "ERR_NONFATAL", [0x33] = "ERR_FATAL", [0x50] = "Set_Slot_Power_Limit",
	[0x52] = "PTM_Request", [0x53] = "PTM_Response", [0x54] = "IDE_Sync",
	[0x55] = "IDE_Fail", [0x7E] = "Vendor_Defined_Type0", [0x7F] = "Vendor_Defined_Type1",
}

local prefix_names = { [0x80] = "MR-IOV (Local)", [0x8D] = "Flit Mode (Local)",
	[0x8E] = "Vendor (Local)", [0x8F] = "Vendor (Local)", [0x90] = "TPH (End-End)",
	[0x91] = "PASID (End-End)", [0x92] = "IDE (End-End)", [0x9E] = "Vendor (End-End)",
	[0x9F] = "Vendor (End-End)" }

-- tlp.c tlp_status_text()
local TLP_OK = "ok"
local S_TRUNCATED = "the capture holds fewer bytes than the TLP had"
local S_TOO_SHORT = "too short to hold a TLP header"
local S_PREFIX_ONLY = "TLP prefix with no header after it"
local S_TOO_MANY = "more than 4 End-End prefixes (or too many prefixes)"
local S_ORDER = "Local TLP prefix after an End-End prefix"
local S_RESERVED = "reserved Fmt/Type combination"
local S_LENGTH = "payload size disagrees with Length and TD"

-- the largest TLP record: seq, 8 prefix DW, 4 DW header, 1024 DW, ECRC, LCRC
local TLP_MAX_RECORD_LEN = 2 + 4 * 8 + 16 + 4096 + 4 + 4

---------------------------------------------------------------------------
-- CRCs

-- DLLP CRC-16 [2.2]: polynomial 100Bh run reflected (D008h), seed FFFFh,
-- over the 4 content bytes; the complement goes out low byte first.
local crc16_table = {}
for i = 0, 255 do
	local r = i
	for _ = 1, 8 do
		if band(r, 1) ~= 0 then r = bxor(rshift(r, 1), 0xD008) else r = rshift(r, 1) end
	end
	crc16_table[i] = r
end

-- The CRC field (byte 4 << 8 | byte 5) the 4 content bytes call for.
local function dllp_crc16(b)
	local reg = 0xFFFF
	for i = 1, 4 do
		reg = bxor(rshift(reg, 8), crc16_table[band(bxor(reg, b[i]), 0xFF)])
	end
	local crc = band(bnot(reg), 0xFFFF)
	return bor(lshift(band(crc, 0xFF), 8), rshift(crc, 8))
end

-- LCRC and ECRC [3.2, 3.3]: the zlib CRC-32 (04C11DB7h reflected,
-- EDB88320h), seed FFFFFFFFh; the complement goes out least significant
-- byte first.  The register is kept here; crc32_field() makes the field
-- as the 4 bytes read big-endian.
local crc32_table = {}
for i = 0, 255 do
	local r = i
	for _ = 1, 8 do
		if band(r, 1) ~= 0 then r = bxor(rshift(r, 1), 0xEDB88320) else r = rshift(r, 1) end
	end
	crc32_table[i] = r
end

local function crc32_update(reg, bytes, from, to)
	for i = from, to do
		reg = bxor(rshift(reg, 8), crc32_table[band(bxor(reg, bytes[i]), 0xFF)])
	end
	return reg
end

local function crc32_field(reg)
	local c = bnot(reg)
	return bor(lshift(band(c, 0xFF), 24), lshift(band(rshift(c, 8), 0xFF), 16),
		lshift(band(rshift(c, 16), 0xFF), 8), rshift(c, 24))
end

---------------------------------------------------------------------------
-- Fields: the JSON keys of --decode --format=jsonl

local vs_kind = { [1] = "DLLP", [2] = "TLP", [3] = "Event" }
local vs_dir = { [0] = "down", [1] = "up" }

local f = {
	version = ProtoField.uint8("dllpcheck.version", "Version", base.HEX),
	kind = ProtoField.uint8("dllpcheck.kind", "Kind", base.DEC, vs_kind),
	flags = ProtoField.uint8("dllpcheck.flags", "Flags", base.HEX),
	direction = ProtoField.uint8("dllpcheck.direction", "Direction", base.DEC, vs_dir, F_UP),
	no_crc = ProtoField.bool("dllpcheck.flags.no_crc", "NO_CRC (no DLLP CRC / TLP LCRC)", 8,
		nil, F_NO_CRC),
	phy_error = ProtoField.bool("dllpcheck.flags.phy_error", "PHY_ERROR (framing or symbol error)",
		8, nil, F_PHY_ERROR),
	no_seq = ProtoField.bool("dllpcheck.flags.no_seq", "NO_SEQ (no TLP sequence field)", 8,
		nil, F_NO_SEQ),
	flags_reserved = ProtoField.uint8("dllpcheck.flags.reserved", "Reserved", base.HEX, nil,
		F_RESERVED),
	link = ProtoField.uint8("dllpcheck.link", "Link", base.DEC),
	truncated = ProtoField.bool("dllpcheck.truncated", "Truncated by the capture"),
	malformed = ProtoField.string("dllpcheck.malformed", "Malformed record"),

	ev_code = ProtoField.uint8("dllpcheck.event.code", "Event code", base.DEC, event_names),
	ev_name = ProtoField.string("dllpcheck.event.name", "Event"),
	ev_arg = ProtoField.uint8("dllpcheck.event.arg", "Argument", base.DEC),
	ev_vc = ProtoField.uint8("dllpcheck.event.vc", "VC", base.DEC),
	ev_reserved = ProtoField.uint16("dllpcheck.event.reserved", "Reserved", base.HEX),

	d_type = ProtoField.string("dllpcheck.dllp.type", "DLLP type"),
	d_type_byte = ProtoField.uint8("dllpcheck.dllp.type_byte", "Type byte", base.HEX),
	d_seq = ProtoField.uint16("dllpcheck.dllp.acknak_seq", "AckNak_Seq_Num", base.HEX_DEC, nil,
		0x0FFF),
	d_fc_class = ProtoField.string("dllpcheck.dllp.fc_class", "FC type"),
	d_vc = ProtoField.uint8("dllpcheck.dllp.vc", "VC", base.DEC, nil, 0x07),
	d_hdr_scale = ProtoField.uint8("dllpcheck.dllp.hdr_scale", "HdrScale", base.DEC, nil, 0xC0),
	d_hdr_fc = ProtoField.uint16("dllpcheck.dllp.hdr_fc", "HdrFC", base.DEC, nil, 0x3FC0),
	d_data_scale = ProtoField.uint8("dllpcheck.dllp.data_scale", "DataScale", base.DEC, nil,
		0x30),
	d_data_fc = ProtoField.uint16("dllpcheck.dllp.data_fc", "DataFC", base.DEC, nil, 0x0FFF),
	d_hdr_credits = ProtoField.uint32("dllpcheck.dllp.hdr_credits", "Header credits"),
	d_data_credits = ProtoField.uint32("dllpcheck.dllp.data_credits", "Data credits"),
	d_hdr_inf = ProtoField.bool("dllpcheck.dllp.hdr_infinite", "Header credits infinite"),
	d_data_inf = ProtoField.bool("dllpcheck.dllp.data_infinite", "Data credits infinite"),
	d_feature_ack = ProtoField.bool("dllpcheck.dllp.feature_ack", "Feature Ack", 24, nil,
		0x800000),
	d_feature_support = ProtoField.uint24("dllpcheck.dllp.feature_support",
		"Feature Supported", base.HEX, nil, 0x7FFFFF),
	d_scaled_fc = ProtoField.bool("dllpcheck.dllp.scaled_fc_supported", "Scaled Flow Control",
		24, nil, 0x000001),
	d_imm_ready = ProtoField.bool("dllpcheck.dllp.immediate_readiness", "Immediate Readiness",
		24, nil, 0x000002),
	d_payload = ProtoField.uint24("dllpcheck.dllp.payload", "Content (bytes 1-3)", base.HEX),
	d_crc = ProtoField.uint16("dllpcheck.dllp.crc_field", "CRC-16", base.HEX),
	d_crc_expected = ProtoField.uint16("dllpcheck.dllp.crc_expected", "CRC-16 expected",
		base.HEX),
	d_crc_status = ProtoField.string("dllpcheck.dllp.crc", "CRC-16 status"),

	t_seq = ProtoField.uint16("dllpcheck.tlp.seq", "Sequence number", base.HEX_DEC, nil, 0x0FFF),
	t_seq_reserved = ProtoField.uint8("dllpcheck.tlp.seq_reserved", "Reserved", base.HEX, nil,
		0xF0),
	t_prefix = ProtoField.uint8("dllpcheck.tlp.prefixes", "Prefix type", base.HEX, prefix_names),
	t_prefix_dw = ProtoField.uint32("dllpcheck.tlp.prefix_dw", "Prefix", base.HEX),
	t_type = ProtoField.string("dllpcheck.tlp.type", "TLP type"),
	t_fmt = ProtoField.uint8("dllpcheck.tlp.fmt", "Fmt", base.DEC, nil, 0xE0),
	t_type_field = ProtoField.uint8("dllpcheck.tlp.type_field", "Type", base.HEX, nil, 0x1F),
	t_header_dw = ProtoField.uint8("dllpcheck.tlp.header_dw", "Header DW"),
	t_tc = ProtoField.uint8("dllpcheck.tlp.tc", "TC", base.DEC, nil, 0x70),
	t_td = ProtoField.bool("dllpcheck.tlp.td", "TD (digest)", 8, nil, 0x80),
	t_ep = ProtoField.bool("dllpcheck.tlp.ep", "EP (poisoned)", 8, nil, 0x40),
	t_attr = ProtoField.uint8("dllpcheck.tlp.attr", "Attr (IDO, RO, NS)", base.HEX),
	t_th = ProtoField.bool("dllpcheck.tlp.th", "TH (processing hints)", 8, nil, 0x01),
	t_at = ProtoField.uint8("dllpcheck.tlp.at", "AT", base.DEC, nil, 0x0C),
	t_length_field = ProtoField.uint16("dllpcheck.tlp.length_field", "Length", base.DEC, nil,
		0x03FF),
	t_length_dw = ProtoField.uint16("dllpcheck.tlp.length_dw", "Length (DW)"),
	t_payload_dw = ProtoField.uint16("dllpcheck.tlp.payload_dw", "Payload (DW)"),
	t_msg_routing = ProtoField.uint8("dllpcheck.tlp.msg_routing", "Message routing", base.DEC,
		routing_names, 0x07),
	t_msg_routing_name = ProtoField.string("dllpcheck.tlp.msg_routing_name", "Routing"),
	t_requester = ProtoField.uint16("dllpcheck.tlp.requester_id", "Requester ID", base.HEX),
	t_tag = ProtoField.uint16("dllpcheck.tlp.tag", "Tag", base.HEX_DEC),
	t_first_be = ProtoField.uint8("dllpcheck.tlp.first_be", "First DW BE", base.HEX, nil, 0x0F),
	t_last_be = ProtoField.uint8("dllpcheck.tlp.last_be", "Last DW BE", base.HEX, nil, 0xF0),
	t_steering_tag = ProtoField.uint8("dllpcheck.tlp.steering_tag", "Steering Tag", base.HEX),
	t_address = ProtoField.uint64("dllpcheck.tlp.address", "Address", base.HEX),
	t_target = ProtoField.uint16("dllpcheck.tlp.target_id", "Target ID", base.HEX),
	t_cfg_register = ProtoField.uint16("dllpcheck.tlp.cfg_register", "Register", base.HEX),
	t_completer = ProtoField.uint16("dllpcheck.tlp.completer_id", "Completer ID", base.HEX),
	t_cpl_status = ProtoField.uint8("dllpcheck.tlp.cpl_status", "Completion status", base.DEC,
		nil, 0xE0),
	t_cpl_status_name = ProtoField.string("dllpcheck.tlp.cpl_status_name", "Status"),
	t_bcm = ProtoField.bool("dllpcheck.tlp.bcm", "BCM", 8, nil, 0x10),
	t_byte_count_field = ProtoField.uint16("dllpcheck.tlp.byte_count_field", "Byte Count field",
		base.DEC, nil, 0x0FFF),
	t_byte_count = ProtoField.uint16("dllpcheck.tlp.byte_count", "Byte count"),
	t_lower_address = ProtoField.uint8("dllpcheck.tlp.lower_address", "Lower Address", base.HEX,
		nil, 0x7F),
	t_msg_code = ProtoField.uint8("dllpcheck.tlp.msg_code", "Message code", base.HEX,
		msg_code_names),
	t_msg_code_name = ProtoField.string("dllpcheck.tlp.msg_code_name", "Message"),
	t_fc_class = ProtoField.string("dllpcheck.tlp.fc_class", "FC type"),
	t_hdr_credits = ProtoField.uint8("dllpcheck.tlp.hdr_credits", "Header credits"),
	t_data_credits = ProtoField.uint16("dllpcheck.tlp.data_credits", "Data credits"),
	t_data = ProtoField.bytes("dllpcheck.tlp.data", "Data"),
	t_status = ProtoField.string("dllpcheck.tlp.status", "Status"),
	t_ecrc = ProtoField.uint32("dllpcheck.tlp.ecrc_field", "ECRC", base.HEX),
	t_ecrc_expected = ProtoField.uint32("dllpcheck.tlp.ecrc_expected", "ECRC expected", base.HEX),
	t_ecrc_status = ProtoField.string("dllpcheck.tlp.ecrc", "ECRC status"),
	t_lcrc = ProtoField.uint32("dllpcheck.tlp.lcrc_field", "LCRC", base.HEX),
	t_lcrc_expected = ProtoField.uint32("dllpcheck.tlp.lcrc_expected", "LCRC expected", base.HEX),
	t_lcrc_status = ProtoField.string("dllpcheck.tlp.lcrc", "LCRC status"),
}
local field_list = {}
for _, v in pairs(f) do field_list[#field_list + 1] = v end
p.fields = field_list

local e = {
	malformed = ProtoExpert.new("dllpcheck.expert.malformed", "Malformed record",
		expert.group.MALFORMED, expert.severity.ERROR),
	truncated = ProtoExpert.new("dllpcheck.expert.truncated", "Record truncated by the capture",
		expert.group.MALFORMED, expert.severity.WARN),
	phy_error = ProtoExpert.new("dllpcheck.expert.phy_error",
		"The capture hardware saw a framing or symbol error", expert.group.PROTOCOL,
		expert.severity.WARN),
	crc_bad = ProtoExpert.new("dllpcheck.dllp.crc_bad", "Bad DLLP CRC-16",
		expert.group.CHECKSUM, expert.severity.ERROR),
	lcrc_bad = ProtoExpert.new("dllpcheck.tlp.lcrc_bad", "Bad TLP LCRC",
		expert.group.CHECKSUM, expert.severity.ERROR),
	ecrc_bad = ProtoExpert.new("dllpcheck.tlp.ecrc_bad", "Bad TLP ECRC",
		expert.group.CHECKSUM, expert.severity.ERROR),
	nullified = ProtoExpert.new("dllpcheck.tlp.nullified",
		"Nullified TLP (inverted LCRC, EDB): discarded by the receiver",
		expert.group.SEQUENCE, expert.severity.NOTE),
	tlp_malformed = ProtoExpert.new("dllpcheck.tlp.malformed", "Malformed TLP",
		expert.group.MALFORMED, expert.severity.ERROR),
	reserved = ProtoExpert.new("dllpcheck.expert.reserved", "Reserved bits or encoding",
		expert.group.PROTOCOL, expert.severity.NOTE),
}
p.experts = { e.malformed, e.truncated, e.phy_error, e.crc_bad, e.lcrc_bad, e.ecrc_bad,
	e.nullified, e.tlp_malformed, e.reserved }

---------------------------------------------------------------------------
-- Preference: the link type, as dllpcheck --dlt

local dlt_enum = {}
for i = 0, 15 do
	dlt_enum[#dlt_enum + 1] = { tostring(147 + i), fmt("LINKTYPE_USER%d (%d)", i, 147 + i),
		147 + i }
end
p.prefs.dlt = Pref.enum("Link type", 147, "The pcap link type that carries the dllpcheck " ..
	"encapsulation, as dllpcheck --dlt (147 = LINKTYPE_USER0 ... 162 = USER15)", dlt_enum,
	false)

local wtap_table = DissectorTable.get("wtap_encap")
local registered

-- wtap_encaps (wtap before 1.99.9 and still in 4.0): USER0 is 45 ... USER15 60
local encaps = wtap_encaps or wtap
local function wtap_of(dlt)
	return encaps["USER" .. (dlt - 147)]
end

local function register()
	local dlt = p.prefs.dlt
	if registered == dlt then return end
	if registered then wtap_table:remove(wtap_of(registered), p) end
	wtap_table:add(wtap_of(dlt), p)
	registered = dlt
end

function p.prefs_changed()
	register()
end

---------------------------------------------------------------------------
-- Helpers

-- the bytes of tvb[off, off+n) as a 1-based array of numbers (n is at
-- most a TLP record, 4154 bytes: within what string.byte may return)
local function byte_array(tvb, off, n)
	if n <= 0 then return {} end
	return { tvb:raw(off, n):byte(1, -1) }
end

local function be32(b, i)
	return ((b[i] * 256 + b[i + 1]) * 256 + b[i + 2]) * 256 + b[i + 3]
end

-- "ok", "bad", "nullified", "none" as decode_json.c; the text form as
-- decode_print.c
local function crc_text(name, status, field, expected, width)
	if status == "ok" then return fmt(" %s=ok", name) end
	if status == "nullified" then return fmt(" %s=nullified", name) end
	if status == "bad" then
		return fmt(" %s=BAD(0x%0" .. width .. "X,expected=0x%0" .. width .. "X)", name, field,
			expected)
	end
	return fmt(" %s=none", name)
end

---------------------------------------------------------------------------
-- DLLP [1]

local function dllp_kind(b0)
	local cls = band(rshift(b0, 4), 3)
	local k = rshift(b0, 6)
	if k ~= 0 and band(b0, 0x08) == 0 then
		if cls == 3 then return fc_mr_kind[k], true, true end
		return fc_kind[k], true, false
	end
	return dllp_fixed[b0] or "Reserved", false, false
end

local function dissect_dllp(tvb, off, len, flags, tree, pinfo)
	local has_crc = band(flags, F_NO_CRC) == 0
	local b = byte_array(tvb, off, 4)
	local b0 = b[1]
	local content = (b[2] * 256 + b[3]) * 256 + b[4]
	local kind, fc, mr = dllp_kind(b0)
	local name = kind
	local cls = band(rshift(b0, 4), 3)
	if fc and not mr then name = kind .. "-" .. fc_class_names[cls] end

	local t = tree:add(p, tvb(off, len), "DLLP " .. name)
	t:add(f.d_type, tvb(off, 1), name)
	t:add(f.d_type_byte, tvb(off, 1))
	local c = tvb(off + 1, 3)
	local info = " DLLP " .. name
	if kind == "Ack" or kind == "Nak" then
		local seq = band(content, 0xFFF)
		t:add(f.d_seq, tvb(off + 2, 2))
		info = info .. fmt(" seq=0x%03X", seq)
	elseif fc then
		local vc = band(b0, 7)
		local hs, hfc = rshift(b[2], 6), band(b[2], 0x3F) * 4 + rshift(b[3], 6)
		local ds, dfc = band(rshift(b[3], 4), 3), band(b[3], 0x0F) * 256 + b[4]
		local init = kind == "InitFC1" or kind == "InitFC2"
		t:add(f.d_fc_class, tvb(off, 1), mr and "P" or fc_class_names[cls])
		t:add(f.d_vc, tvb(off, 1))
		t:add(f.d_hdr_scale, tvb(off + 1, 1))
		t:add(f.d_hdr_fc, tvb(off + 1, 2))
		t:add(f.d_data_scale, tvb(off + 2, 1))
		t:add(f.d_data_fc, tvb(off + 2, 2))
		-- the credits a field stands for [1.5]; 0 at init is infinite [5.4]
		if init and hfc == 0 then t:add(f.d_hdr_inf, c, true):set_generated()
		else t:add(f.d_hdr_credits, c, lshift(hfc, scale_shift[hs])):set_generated() end
		if init and dfc == 0 then t:add(f.d_data_inf, c, true):set_generated()
		else t:add(f.d_data_credits, c, lshift(dfc, scale_shift[ds])):set_generated() end
		if not mr then
			local function fcf(n, v, s)
				if v == 0 and init then return fmt(" %s=inf%s", n, scale_suffix[s]) end
				return fmt(" %s=%d%s", n, lshift(v, scale_shift[s]), scale_suffix[s])
			end
			info = info .. fmt(" vc=%d", vc) .. fcf("hdr", hfc, hs) .. fcf("data", dfc, ds)
		else
			info = info .. fmt(" type=0x%02X data=0x%06X", b0, content)
		end
	elseif kind == "Data_Link_Feature" then
		local ack = band(content, 0x800000) ~= 0
		local sup = band(content, 0x7FFFFF)
		t:add(f.d_feature_ack, c)
		local st = t:add(f.d_feature_support, c)
		st:add(f.d_scaled_fc, c)
		st:add(f.d_imm_ready, c)
		info = info .. fmt(" ack=%d supported=0x%06X%s", ack and 1 or 0, sup,
			band(sup, 1) ~= 0 and " (scaled-fc)" or "")
	else
		t:add(f.d_payload, c)
		if kind:sub(1, 3) == "PM_" then
			if content ~= 0 then
				info = info .. fmt(" reserved=0x%06X", content)
				t:add_proto_expert_info(e.reserved, "PM DLLP with non-zero reserved bytes 1-3")
			end
		elseif kind == "NOP" or kind == "Vendor_Specific" then
			info = info .. fmt(" data=0x%06X", content)
		else
			info = info .. fmt(" type=0x%02X data=0x%06X", b0, content)
			if kind == "Reserved" then
				t:add_proto_expert_info(e.reserved, fmt("Reserved DLLP type 0x%02X", b0))
			end
		end
	end

	-- CRC-16 [2]
	local expected = dllp_crc16(b)
	if has_crc then
		local field = tvb(off + 4, 2):uint()
		local ok = field == expected
		t:add(f.d_crc, tvb(off + 4, 2))
		t:add(f.d_crc_expected, tvb(off + 4, 2), expected):set_generated()
		t:add(f.d_crc_status, tvb(off + 4, 2), ok and "ok" or "bad"):set_generated()
		if not ok then
			t:add_proto_expert_info(e.crc_bad,
				fmt("Bad DLLP CRC-16: 0x%04X, expected 0x%04X", field, expected))
		end
		info = info .. crc_text("crc", ok and "ok" or "bad", field, expected, 4)
	else
		t:add(f.d_crc_status, tvb(off, 4), "none"):set_generated()
		info = info .. " crc=none"
	end
	return info
end

---------------------------------------------------------------------------
-- TLP [3, 4]

local function tlp_row(fmtv, typev)
	for _, r in ipairs(TLP_ROWS) do
		if band(fmtv, r[1]) == r[2] and band(typev, r[3]) == r[4] then return r end
	end
	return nil
end

local function tag10(b1, low)
	return band(b1, 0x80) * 4 + band(b1, 0x08) * 32 + low
end

-- ECRC [3.3] over tlp bytes b[from..to]: End-End prefixes, header with
-- its variant bits (Type[0], EP) as 1, payload; Local prefixes left out.
local function ecrc_expected(b, from, to)
	local reg = 0xFFFFFFFF
	local pos = from
	while pos + 3 <= to and rshift(b[pos], 5) == 4 do
		if band(b[pos], 0x10) ~= 0 then reg = crc32_update(reg, b, pos, pos + 3) end
		pos = pos + 4
	end
	if to - pos + 1 >= 4 then
		local dw0 = { bor(b[pos], 0x01), b[pos + 1], bor(b[pos + 2], 0x40), b[pos + 3] }
		reg = crc32_update(reg, dw0, 1, 4)
		pos = pos + 4
	end
	return crc32_field(crc32_update(reg, b, pos, to))
end

local function dissect_tlp(tvb, off, caplen, wirelen, flags, tree, pinfo)
	local has_seq = band(flags, F_NO_SEQ) == 0
	local has_lcrc = band(flags, F_NO_CRC) == 0
	local truncated = wirelen > caplen
	local seq_len = has_seq and 2 or 0
	local lcrc_len = (has_lcrc and not truncated) and 4 or 0
	local b = byte_array(tvb, off, caplen)
	-- the decode, with the C struct's zero defaults (decode_print.c
	-- prints them for a TLP whose DW0 is not in the record)
	local t = { fmt = 0, type = 0, tc = 0, length_dw = 0, has_data = false, td = false,
		ep = false, kind = nil, fc_class = "P", status = TLP_OK, lcrc = "none",
		ecrc = "none", prefixes = {} }
	local function set_error(s) if t.status == TLP_OK then t.status = s end end

	local tt = tree:add(p, tvb(off, caplen), "TLP")
	if caplen == 0 or caplen < seq_len + lcrc_len then
		set_error(S_TOO_SHORT)
	else
		if has_seq then
			t.seq = band(b[1], 0x0F) * 256 + b[2]
			tt:add(f.t_seq, tvb(off, 2))
			if rshift(b[1], 4) ~= 0 then
				tt:add(f.t_seq_reserved, tvb(off, 1))
				tt:add_proto_expert_info(e.reserved, "Reserved bits 7:4 of the sequence field set")
			end
		end
		-- the LCRC first: even a malformed TLP has one [3.2]
		if lcrc_len > 0 then
			local covered = caplen - 4
			t.lcrc_field = be32(b, covered + 1)
			t.lcrc_expected = crc32_field(crc32_update(0xFFFFFFFF, b, 1, covered))
			if not has_seq then t.lcrc = "none"
			elseif t.lcrc_field == t.lcrc_expected then t.lcrc = "ok"
			elseif t.lcrc_field == band(bnot(t.lcrc_expected), 0xFFFFFFFF) then
				t.lcrc = "nullified"
			else t.lcrc = "bad" end
		end
		-- the TLP proper: b[s..n]
		local s = seq_len + 1
		local n = caplen - lcrc_len
		local pos = s
		local end_end, total = 0, 0
		while pos <= n and rshift(b[pos], 5) == 4 do
			local lcl = band(b[pos], 0x10) == 0
			if pos + 3 > n then break end
			if lcl and end_end > 0 then set_error(S_ORDER) end
			if not lcl then end_end = end_end + 1 end
			total = total + 1
			if total > 8 or end_end > 4 then set_error(S_TOO_MANY) end
			if total <= 8 then t.prefixes[#t.prefixes + 1] = b[pos] end
			-- dllpcheck keeps the type of the first 8 (TLP_PREFIX_MAX)
			local pt = tt:add(f.t_prefix_dw, tvb(off + pos - 1, 4))
			if total <= 8 then pt:add(f.t_prefix, tvb(off + pos - 1, 1)) end
			pos = pos + 4
		end
		local left = n - pos + 1
		if left < 4 then
			set_error((left == 0 and #t.prefixes > 0) and S_PREFIX_ONLY or S_TOO_SHORT)
		else
			local h = pos -- DW0 at b[h]
			local hr = function(i, l) return tvb(off + h - 1 + i, l) end
			t.dw0 = true
			t.fmt, t.type = rshift(b[h], 5), band(b[h], 0x1F)
			t.hdr_dw = band(t.fmt, 1) ~= 0 and 4 or 3
			t.has_data = band(t.fmt, 2) ~= 0
			t.tc = band(rshift(b[h + 1], 4), 7)
			t.attr = band(b[h + 1], 0x04) + band(rshift(b[h + 2], 4), 3)
			t.th = band(b[h + 1], 0x01) ~= 0
			t.td = band(b[h + 2], 0x80) ~= 0
			t.ep = band(b[h + 2], 0x40) ~= 0
			t.length_field = band(b[h + 2], 3) * 256 + b[h + 3]
			t.length_dw = t.length_field ~= 0 and t.length_field or 1024
			local row = tlp_row(t.fmt, t.type)
			if not row then
				set_error(S_RESERVED)
			elseif is_message[row[5]] and band(t.type, 7) >= 6 then
				t.msg_routing = band(t.type, 7)
				set_error(S_RESERVED)
			else
				t.kind, t.fc_class = row[5], row[6]
				if is_message[t.kind] then t.msg_routing = band(t.type, 7) end
				t.payload_dw = t.has_data and t.length_dw or 0
				t.data_credits = math.floor((t.payload_dw + 3) / 4)
			end
			if t.kind then
				t.name = t.kind
				if addr_sized[t.kind] then t.name = t.kind .. (t.hdr_dw == 4 and "64" or "32") end
			end
			if t.name then tt:add(f.t_type, hr(0, 1), t.name) end
			tt:add(f.t_fmt, hr(0, 1))
			tt:add(f.t_type_field, hr(0, 1))
			tt:add(f.t_header_dw, hr(0, 1), t.hdr_dw):set_generated()
			tt:add(f.t_tc, hr(1, 1))
			tt:add(f.t_th, hr(1, 1))
			tt:add(f.t_td, hr(2, 1))
			tt:add(f.t_ep, hr(2, 1))
			tt:add(f.t_attr, hr(1, 2), t.attr)
			tt:add(f.t_at, hr(2, 1))
			tt:add(f.t_length_field, hr(2, 2))
			tt:add(f.t_length_dw, hr(2, 2), t.length_dw):set_generated()
			tt:add(f.t_payload_dw, hr(2, 2), t.payload_dw or 0):set_generated()
			if t.kind and is_message[t.kind] then
				tt:add(f.t_msg_routing, hr(0, 1))
				tt:add(f.t_msg_routing_name, hr(0, 1), routing_names[t.msg_routing])
			end
			if left < t.hdr_dw * 4 then
				set_error(S_TOO_SHORT)
			elseif t.kind then
				-- DW1 onwards [4.1]
				t.header_known = true
				local k = t.kind
				if is_completion[k] then
					t.completer = b[h + 4] * 256 + b[h + 5]
					t.cpl_status = rshift(b[h + 6], 5)
					t.bcm = band(b[h + 6], 0x10) ~= 0
					t.bc_field = band(b[h + 6], 0x0F) * 256 + b[h + 7]
					t.requester = b[h + 8] * 256 + b[h + 9]
					t.tag = tag10(b[h + 1], b[h + 10])
					t.lower_address = band(b[h + 11], 0x7F)
					tt:add(f.t_completer, hr(4, 2))
					tt:add(f.t_cpl_status, hr(6, 1))
					tt:add(f.t_cpl_status_name, hr(6, 1),
						cpl_status_names[t.cpl_status] or "reserved")
					tt:add(f.t_bcm, hr(6, 1))
					tt:add(f.t_byte_count_field, hr(6, 2))
					tt:add(f.t_byte_count, hr(6, 2),
						t.bc_field ~= 0 and t.bc_field or 4096):set_generated()
					tt:add(f.t_requester, hr(8, 2))
					tt:add(f.t_tag, hr(10, 1), t.tag)
					tt:add(f.t_lower_address, hr(11, 1))
				else
					t.requester = b[h + 4] * 256 + b[h + 5]
					t.tag = tag10(b[h + 1], b[h + 6])
					tt:add(f.t_requester, hr(4, 2))
					tt:add(f.t_tag, hr(6, 1), t.tag)
					if is_message[k] then
						t.msg_code = b[h + 7]
						tt:add(f.t_msg_code, hr(7, 1))
						if msg_code_names[t.msg_code] then
							tt:add(f.t_msg_code_name, hr(7, 1), msg_code_names[t.msg_code])
						end
					else
						t.last_be, t.first_be = rshift(b[h + 7], 4), band(b[h + 7], 0x0F)
						local be_item = hr(7, 1)
						if t.th and (k == "MRd" or k == "DMWr") then
							-- the byte is ST[7:0]; the byte enables implied
							tt:add(f.t_steering_tag, hr(7, 1))
							t.first_be = 0x0F
							t.last_be = t.length_dw > 1 and 0x0F or 0
						end
						if is_config[k] then
							t.target = b[h + 8] * 256 + b[h + 9]
							t.cfg_register = band(band(b[h + 10], 0x0F) * 256 + b[h + 11], 0xFFC)
							tt:add(f.t_target, hr(8, 2))
							tt:add(f.t_cfg_register, hr(10, 2), t.cfg_register)
						elseif has_address[k] then
							if t.hdr_dw == 4 then
								t.addr_hi = be32(b, h + 8)
								t.addr_lo = band(be32(b, h + 12), 0xFFFFFFFC)
								tt:add(f.t_address, hr(8, 8), UInt64.new(t.addr_lo, t.addr_hi))
							else
								t.addr_hi = 0
								t.addr_lo = band(be32(b, h + 8), 0xFFFFFFFC)
								tt:add(f.t_address, hr(8, 4), UInt64.new(t.addr_lo, 0))
							end
						end
						if not is_atomic[k] then
							tt:add(f.t_first_be, be_item, t.first_be)
							tt:add(f.t_last_be, be_item, lshift(t.last_be, 4))
						end
					end
				end
				-- the bytes after the header: payload and digest [4.1, 3.3]
				local after = left - t.hdr_dw * 4
				local data_at = h + t.hdr_dw * 4
				local data_n = math.min(after, t.payload_dw * 4)
				if data_n > 0 then tt:add(f.t_data, tvb(off + data_at - 1, data_n)) end
				if not truncated then
					local want = t.payload_dw * 4 + (t.td and 4 or 0)
					if after ~= want then set_error(S_LENGTH) end
					if t.td and t.status == TLP_OK then
						t.ecrc_field = be32(b, n - 3)
						t.ecrc_expected = ecrc_expected(b, s, n - 4)
						t.ecrc = t.ecrc_field == t.ecrc_expected and "ok" or "bad"
					end
				end
			end
		end
	end
	if truncated then t.status = S_TRUNCATED end
	local known_ok = t.kind and t.status == TLP_OK
	if known_ok then
		tt:add(f.t_fc_class, tvb(off, caplen), t.fc_class):set_generated()
		tt:add(f.t_hdr_credits, tvb(off, caplen), 1):set_generated()
		tt:add(f.t_data_credits, tvb(off, caplen), t.data_credits):set_generated()
	end
	tt:add(f.t_status, tvb(off, caplen), t.status):set_generated()
	if t.status ~= TLP_OK and not truncated then
		tt:add_proto_expert_info(e.tlp_malformed, "Malformed TLP: " .. t.status)
	end
	if t.td then
		local r = tvb(off + caplen - lcrc_len - math.min(4, caplen - lcrc_len),
			math.min(4, caplen - lcrc_len))
		if t.ecrc ~= "none" then
			tt:add(f.t_ecrc, r, t.ecrc_field)
			tt:add(f.t_ecrc_expected, r, t.ecrc_expected):set_generated()
		end
		tt:add(f.t_ecrc_status, r, t.ecrc):set_generated()
		if t.ecrc == "bad" then
			tt:add_proto_expert_info(e.ecrc_bad,
				fmt("Bad ECRC: 0x%08X, expected 0x%08X", t.ecrc_field, t.ecrc_expected))
		end
	end
	if lcrc_len > 0 and has_seq then
		local r = tvb(off + caplen - 4, 4)
		tt:add(f.t_lcrc, r)
		tt:add(f.t_lcrc_expected, r, t.lcrc_expected):set_generated()
		tt:add(f.t_lcrc_status, r, t.lcrc):set_generated()
		if t.lcrc == "bad" then
			tt:add_proto_expert_info(e.lcrc_bad,
				fmt("Bad LCRC: 0x%08X, expected 0x%08X", t.lcrc_field, t.lcrc_expected))
		elseif t.lcrc == "nullified" then
			tt:add_proto_expert_info(e.nullified)
		end
	else
		tt:add(f.t_lcrc_status, tvb(off, caplen), "none"):set_generated()
	end

	-- the Info column: decode_print.c print_tlp()
	local info = " TLP"
	if has_seq and t.seq then info = info .. fmt(" seq=0x%03X", t.seq) end
	if #t.prefixes > 0 then
		local ps = {}
		for i, v in ipairs(t.prefixes) do ps[i] = fmt("0x%02X", v) end
		info = info .. " prefix=[" .. table.concat(ps, ",") .. "]"
	end
	if not t.kind then info = info .. fmt(" fmt=%d type=0x%02X", t.fmt, t.type)
	else info = info .. " " .. t.name end
	if t.kind and is_message[t.kind] then info = info .. " route=" .. routing_names[t.msg_routing] end
	info = info .. fmt(" tc=%d", t.tc)
	if t.has_data or (t.kind and t.fc_class == "NP") or not t.kind then
		info = info .. fmt(" len=%d", t.length_dw)
	end
	if t.td then info = info .. " td" end
	if t.ep then info = info .. " ep" end
	if t.header_known then
		local k = t.kind
		info = info .. fmt(" req=%04X tag=0x%02X", t.requester, t.tag)
		if is_completion[k] then
			info = info .. fmt(" completer=%04X", t.completer)
			if cpl_status_names[t.cpl_status] then
				info = info .. " status=" .. cpl_status_names[t.cpl_status]
			else
				info = info .. fmt(" status=%d", t.cpl_status)
			end
			if t.bcm then info = info .. " bcm" end
			info = info .. fmt(" bc=%d la=0x%02X", t.bc_field ~= 0 and t.bc_field or 4096,
				t.lower_address)
		elseif is_message[k] then
			if msg_code_names[t.msg_code] then info = info .. " code=" .. msg_code_names[t.msg_code]
			else info = info .. fmt(" code=0x%02X", t.msg_code) end
		elseif is_config[k] then
			info = info .. fmt(" target=%04X reg=0x%03X fbe=%X lbe=%X", t.target, t.cfg_register,
				t.first_be, t.last_be)
		else
			if t.hdr_dw == 4 then info = info .. fmt(" addr=0x%08X%08X", t.addr_hi, t.addr_lo)
			else info = info .. fmt(" addr=0x%08X", t.addr_lo) end
			if not is_atomic[k] then info = info .. fmt(" fbe=%X lbe=%X", t.first_be, t.last_be) end
		end
	end
	if known_ok then
		local c = t.fc_class
		info = info .. fmt(" %s %sH=1 %sD=%d", c, c, c, t.data_credits)
	end
	if t.status ~= TLP_OK and not truncated then info = info .. " malformed(" .. t.status .. ")" end
	if t.td then
		info = info .. crc_text("ecrc", t.ecrc, t.ecrc_field, t.ecrc_expected, 8)
	end
	info = info .. crc_text("lcrc", (lcrc_len > 0 and has_seq) and t.lcrc or "none",
		t.lcrc_field, t.lcrc_expected, 8)
	if t.name then tt:append_text(" " .. t.name) end
	return info
end

---------------------------------------------------------------------------
-- The record [capture-format.md section 1; src/read/pcap_file.c
-- pcap_payload_record, src/core/record.c record_check]

-- The reason dllpcheck gives for a record it does not decode, or nil.
local function record_problem(tvb, caplen, wirelen)
	if caplen < 4 or wirelen < 4 then
		return fmt("record of %d bytes is shorter than the 4-byte pseudo-header", caplen)
	end
	local v, k, fl = tvb(0, 1):uint(), tvb(1, 1):uint(), tvb(2, 1):uint()
	if v ~= 0xD1 then return fmt("pseudo-header version 0x%02X, expected 0xD1", v) end
	if k < 1 or k > 3 then return fmt("pseudo-header kind %d (1 DLLP, 2 TLP, 3 event)", k) end
	if band(fl, F_RESERVED) ~= 0 then
		return fmt("pseudo-header flags 0x%02X set reserved bits 7:4", fl)
	end
	local len, wire = caplen - 4, wirelen - 4
	if wire < len then wire = len end
	local min, max, what
	if k == KIND_DLLP then
		min = band(fl, F_NO_CRC) ~= 0 and 4 or 6
		max = min
		what = band(fl, F_NO_CRC) ~= 0 and "a DLLP without CRC" or "a DLLP"
	elseif k == KIND_TLP then
		min = (band(fl, F_NO_SEQ) ~= 0 and 0 or 2) + 12 + (band(fl, F_NO_CRC) ~= 0 and 0 or 4)
		max = TLP_MAX_RECORD_LEN
		what = "a TLP"
	else
		min, max, what = 4, 4, "a link event"
	end
	if wire < min or wire > max then
		if min == max then return fmt("%s is %d bytes, this record has %d", what, min, wire) end
		return fmt("%s is %d to %d bytes, this record has %d", what, min, max, wire)
	end
	if k == KIND_EVENT then
		if len < wire then return fmt("link event truncated to %d bytes", len) end
		local code, arg = tvb(4, 1):uint(), tvb(5, 1):uint()
		if code < 1 or code > 6 then return fmt("unknown link event code %d", code) end
		local bad_arg
		if code == EV_VC_ENABLE then bad_arg = arg < 1 or arg > 7 else bad_arg = arg ~= 0 end
		if bad_arg then return fmt("link event %s with argument %d", event_names[code], arg) end
	end
	return nil
end

function p.dissector(tvb, pinfo, tree)
	local caplen = tvb:captured_len()
	local wirelen = tvb:reported_len()
	pinfo.cols.protocol = "dllpcheck"
	local root = tree:add(p, tvb(), "dllpcheck PCIe record")

	-- the pseudo-header, what of it there is
	if caplen >= 4 then
		local fl = tvb(2, 1):uint()
		root:add(f.version, tvb(0, 1))
		root:add(f.kind, tvb(1, 1))
		local ft = root:add(f.flags, tvb(2, 1))
		ft:add(f.direction, tvb(2, 1))
		ft:add(f.no_crc, tvb(2, 1))
		ft:add(f.phy_error, tvb(2, 1))
		ft:add(f.no_seq, tvb(2, 1))
		if band(fl, F_RESERVED) ~= 0 then ft:add(f.flags_reserved, tvb(2, 1)) end
		root:add(f.link, tvb(3, 1))
	end

	local why = record_problem(tvb, caplen, wirelen)
	if why then
		root:add(f.malformed, tvb(), why)
		root:add_proto_expert_info(e.malformed, "Malformed record: " .. why)
		pinfo.cols.info = "malformed: " .. why
		return caplen
	end

	local kind, fl, link = tvb(1, 1):uint(), tvb(2, 1):uint(), tvb(3, 1):uint()
	local dir = band(fl, F_UP)
	local len, wire = caplen - 4, math.max(wirelen, caplen) - 4
	local truncated = len < wire
	pinfo.cols.src = fmt("link%d port %s", link, dir == 0 and "D" or "U")
	pinfo.cols.dst = fmt("link%d port %s", link, dir == 0 and "U" or "D")
	pinfo.cols.protocol = kind_names[kind]
	root:add(f.truncated, tvb(), truncated):set_generated()
	root:append_text(fmt(", link %d, %s, %s", link, dir_names[dir], kind_names[kind]))

	local info = fmt("link%d %s", link, dir_names[dir])
	if kind == KIND_DLLP then
		if truncated then
			info = info .. fmt(" DLLP type=0x%02X", len > 0 and tvb(4, 1):uint() or 0)
			if len > 0 then
				local t = root:add(p, tvb(4, len), "DLLP (truncated)")
				t:add(f.d_type_byte, tvb(4, 1)) -- not a JSON key here: see the test
			end
		else
			info = info .. dissect_dllp(tvb, 4, len, fl, root, pinfo)
		end
	elseif kind == KIND_TLP then
		info = info .. dissect_tlp(tvb, 4, len, wire, fl, root, pinfo)
	else
		local code, arg = tvb(4, 1):uint(), tvb(5, 1):uint()
		local t = root:add(p, tvb(4, 4), "Link event " .. event_names[code])
		t:add(f.ev_code, tvb(4, 1))
		t:add(f.ev_name, tvb(4, 1), event_names[code])
		if code == EV_VC_ENABLE then t:add(f.ev_vc, tvb(5, 1)) else t:add(f.ev_arg, tvb(5, 1)) end
		t:add(f.ev_reserved, tvb(6, 2))
		info = info .. " EVENT " .. event_names[code]
		if code == EV_VC_ENABLE then info = info .. fmt(" vc=%d", arg) end
	end
	if truncated then
		info = info .. fmt(" truncated(%d of %d bytes)", len, wire)
		root:add_proto_expert_info(e.truncated, fmt("Record truncated: %d of %d bytes", len, wire))
	end
	if band(fl, F_PHY_ERROR) ~= 0 then
		info = info .. " phy-error"
		root:add_proto_expert_info(e.phy_error)
	end
	pinfo.cols.info = info
	return caplen
end

register()
