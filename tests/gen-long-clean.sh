#!/bin/sh
# gen-long-clean.sh [N [SEED]]: print a long, clean text trace on standard
# output: N rounds (default 20000), each sending one new TLP, so that every
# flow-control counter wraps many times (8-bit header, 12-bit data) and the
# sequence numbers wrap modulo 4096, and nothing in it may be reported.
#
#   - link-up, VC0 initialisation both ways (InitFC1 then InitFC2, P NP Cpl):
#     port D advertises finite credits for all six types, port U (an
#     Endpoint) finite P and NP and infinite CplH/CplD;
#   - a mix of MWr32/MWr64 (1 to 1024 DW), MRd32/MRd64 answered by CplD
#     (split in pieces of at most 128 DW), Msg, MsgD, CfgWr0/CfgRd0 answered
#     by Cpl/CplD, in both directions; every request with its Requester ID
#     and a tag (0..1023) not outstanding, every completion with the
#     request's and the Byte Count still owed (req= tag= completer= bc=);
#     Msg down a Vendor_Defined one (code=127: Assert_INTA goes up only);
#   - the receiver Acks its partner's TLPs, frees their credits when it Acks
#     them and returns them in UpdateFCs (absolute counters modulo 256/4096);
#     a shadow of each transmitter's CL and CC makes the receiver send an
#     UpdateFC before a TLP would pass the limit, so the gate never fails,
#     and outstanding credits never exceed the advertisement;
#   - every port sends an UpdateFC for each class with a finite field at
#     least every 10 us;
#   - now and then a Nak (acknowledging part of the outstanding TLPs) and a
#     replay of the rest: same sequence numbers, same content, not charged;
#   - times in ns, always increasing.
# A closing comment gives the counts (TLPs, replays, credits) the test checks.
# POSIX sh and awk only; the pseudo-random numbers are computed here
# (Park-Miller), so every awk prints the same trace.
n=${1:-20000}
seed=${2:-12345}
case $n in ''|*[!0-9]*) echo "usage: $0 [N [SEED]]" >&2; exit 2 ;; esac
case $seed in ''|*[!0-9]*) echo "usage: $0 [N [SEED]]" >&2; exit 2 ;; esac

exec awk -v n="$n" -v seed="$seed" '
function rnd(k) {                       # 0 .. k-1
	rs = (rs * 16807) % 2147483647
	return rs % k
}
function other(x) { return x == "down" ? "up" : "down" }
function emit(dir, text, dt) {
	t += dt
	printf "%dns %s %s\n", t, dir, text
	records++
}
# credit costs of a TLP: sets g_cls, g_ht, g_dt, g_h, g_d
function costs(mn, len) {
	g_h = 1; g_d = 0
	if (mn ~ /^MWr/ || mn == "MsgD") { g_cls = "P"; g_d = int((len + 3) / 4) }
	else if (mn == "Msg") g_cls = "P"
	else if (mn ~ /^MRd/ || mn == "CfgRd0") g_cls = "NP"
	else if (mn == "CfgWr0") { g_cls = "NP"; g_d = 1 }
	else if (mn == "CplD") { g_cls = "Cpl"; g_d = int((len + 3) / 4) }
	else g_cls = "Cpl"
	g_ht = hdrtype[g_cls]; g_dt = datatype[g_cls]
}
function avail(x, ty) { return CL[x, ty] - CC[x, ty] }
function finite(x, ty) { return adv[other(x), ty] > 0 }
# receiver p Acks every outstanding TLP of its partner and frees their credits
function ack_all(p,    x) {
	x = other(p)
	if (qh[x] == qt[x])
		return
	emit(p, "Ack seq=" qseq[x, qt[x] - 1], 4)
	while (qh[x] < qt[x]) {
		free_item(p, x, qh[x])
		qh[x]++
	}
}
function free_item(p, x, i) {
	freed[p, qht[x, i]] += qhc[x, i]
	if (qdc[x, i] > 0)
		freed[p, qdt[x, i]] += qdc[x, i]
}
# receiver p returns what it freed for class c in an UpdateFC
function update(p, c,    x, ht, dt, hf, df) {
	x = other(p); ht = hdrtype[c]; dt = datatype[c]
	if (adv[p, ht] == 0 && adv[p, dt] == 0)
		return
	CL[x, ht] += freed[p, ht]; freed[p, ht] = 0
	CL[x, dt] += freed[p, dt]; freed[p, dt] = 0
	hf = adv[p, ht] == 0 ? 0 : CL[x, ht] % 256
	df = adv[p, dt] == 0 ? 0 : CL[x, dt] % 4096
	emit(p, "UpdateFC-" c " vc=0 hdr=" hf " data=" df, 4)
	lastupd[p, c] = t
	updates++
}
# the receiver Nak: acknowledges k of the outstanding TLPs, the transmitter
# replays the others (same line, same seq); they stay outstanding
function nak(p,    x, cnt, k, i, s) {
	x = other(p)
	cnt = qt[x] - qh[x]
	k = rnd(cnt)
	s = k == 0 ? (qseq[x, qh[x]] + 4095) % 4096 : qseq[x, qh[x] + k - 1]
	emit(p, "Nak seq=" s, 4)
	naks++
	for (i = 0; i < k; i++) {
		free_item(p, x, qh[x])
		qh[x]++
	}
	for (i = qh[x]; i < qt[x]; i++) {
		emit(x, qline[x, i], qdt_ns[x, i])
		replays[x]++
	}
}
# a new TLP from x; makes room first (partner Acks and updates) if needed
function send(x, mn, len,    p, line, i, dtns) {
	p = other(x)
	costs(mn, len)
	if ((finite(x, g_ht) && avail(x, g_ht) < g_h) ||
	    (g_d > 0 && finite(x, g_dt) && avail(x, g_dt) < g_d)) {
		ack_all(p)
		update(p, g_cls)
		if ((finite(x, g_ht) && avail(x, g_ht) < g_h) ||
		    (g_d > 0 && finite(x, g_dt) && avail(x, g_dt) < g_d)) {
			printf "gen-long-clean: %s %s len=%d does not fit\n", x, mn, len | "cat 1>&2"
			exit 1
		}
	}
	line = "TLP " mn " seq=" nseq[x] " len=" len g_keys
	g_keys = ""
	dtns = 4 + int(len / 4)
	emit(x, line, dtns)
	i = qt[x]++
	qseq[x, i] = nseq[x]; qline[x, i] = line; qdt_ns[x, i] = dtns
	qht[x, i] = g_ht; qhc[x, i] = g_h; qdt[x, i] = g_dt; qdc[x, i] = g_d
	CC[x, g_ht] += g_h
	charged[x, g_ht] += g_h
	if (g_d > 0) {
		CC[x, g_dt] += g_d
		charged[x, g_dt] += g_d
	}
	nseq[x] = (nseq[x] + 1) % 4096
	tlps++
}
# a tag of port x not outstanding (0..1023, 10-bit ones too), taken
function take_tag(x,    tg) {
	do { tg = nexttag[x] % 1024; nexttag[x]++ } while ((x, tg) in busy)
	busy[x, tg] = 1
	return tg
}
# request mn from x, whose partner owes cpl of len DW (in pieces)
function request(x, mn, len, cpl,    p, tg, i) {
	p = other(x)
	tg = take_tag(x)
	g_keys = " req=" reqid[x] " tag=" tg
	send(x, mn, len)
	i = pendt[p]++
	pend[p, i] = len; pendcpl[p, i] = cpl; pendtag[p, i] = tg; npend[p]++
}
# the next completion piece from x for its oldest pending request
function piece(x,    i, len, rq) {
	i = pendh[x]
	len = pend[x, i] > 128 ? 128 : pend[x, i]
	rq = other(x)
	g_keys = " req=" reqid[rq] " tag=" pendtag[x, i] " completer=" reqid[x] " bc=" 4 * pend[x, i]
	send(x, pendcpl[x, i], len)
	pend[x, i] -= len
	if (pend[x, i] == 0) { delete busy[rq, pendtag[x, i]]; pendh[x]++; npend[x]-- }
}
function wlen(   r) {
	r = rnd(20)
	if (r == 0) return 1024
	if (r < 4) return 1
	if (r < 8) return 2 + rnd(15)
	if (r < 13) return 16 * (1 + rnd(8))
	if (r < 17) return 128 + rnd(129)
	return 256 * (1 + rnd(3))
}
function initfc(phase,    c, i) {
	for (i = 1; i <= 3; i++) {
		c = cls[i]
		emit("down", "InitFC" phase "-" c " vc=0 hdr=" adv["down", hdrtype[c]] " data=" adv["down", datatype[c]], 2)
		emit("up", "InitFC" phase "-" c " vc=0 hdr=" adv["up", hdrtype[c]] " data=" adv["up", datatype[c]], 2)
	}
}
function periodic(    i, j, p, c) {
	for (i = 0; i < 2; i++) {
		p = i ? "up" : "down"
		for (j = 1; j <= 3; j++) {
			c = cls[j]
			if (adv[p, hdrtype[c]] == 0 && adv[p, datatype[c]] == 0)
				continue
			if (t - lastupd[p, c] > 10000)
				update(p, c)
		}
	}
}
BEGIN {
	rs = seed % 2147483646 + 1
	cls[1] = "P"; cls[2] = "NP"; cls[3] = "Cpl"
	hdrtype["P"] = "PH"; datatype["P"] = "PD"
	hdrtype["NP"] = "NPH"; datatype["NP"] = "NPD"
	hdrtype["Cpl"] = "CplH"; datatype["Cpl"] = "CplD"
	# receive buffers: adv[advertising port, type]; 0 = infinite
	adv["down", "PH"] = 32; adv["down", "PD"] = 256
	adv["down", "NPH"] = 16; adv["down", "NPD"] = 16
	adv["down", "CplH"] = 16; adv["down", "CplD"] = 128
	adv["up", "PH"] = 32; adv["up", "PD"] = 256
	adv["up", "NPH"] = 16; adv["up", "NPD"] = 16
	adv["up", "CplH"] = 0; adv["up", "CplD"] = 0
	reqid["down"] = "0000"; reqid["up"] = "0100"
	split("PH PD NPH NPD CplH CplD", types, " ")
	for (i = 1; i <= 6; i++) {
		CL["up", types[i]] = adv["down", types[i]]
		CL["down", types[i]] = adv["up", types[i]]
	}
	for (k = 0; k < 2; k++) {
		x = k ? "up" : "down"
		nseq[x] = 0; qh[x] = 0; qt[x] = 0
		pendh[x] = 0; pendt[x] = 0; npend[x] = 0; replays[x] = 0
	}
	print "# generated by gen-long-clean.sh " n " " seed ": a long trace that must give no finding"
	t = 0
	printf "0ns down EVENT link-up\n"; records++
	initfc(1)
	initfc(2)
	for (i = 1; i <= 3; i++) { lastupd["down", cls[i]] = t; lastupd["up", cls[i]] = t }
	for (round = 0; round < n; round++) {
		periodic()
		x = rnd(2) ? "up" : "down"
		p = other(x)
		r = rnd(100)
		if (npend[x] > 0 && r < 30) {
			# a completion piece for the oldest read from the partner
			piece(x)
		} else if (r < 60) {
			send(x, rnd(3) ? "MWr32" : "MWr64", wlen())
		} else if (r < 75 && npend[p] < 8) {
			len = rnd(4) ? 1 + rnd(64) : 64 * (1 + rnd(16))
			request(x, rnd(2) ? "MRd32" : "MRd64", len, "CplD")
		} else if (r < 82 && x == "down" && npend[p] < 8) {
			wr = rnd(2)
			request(x, wr ? "CfgWr0" : "CfgRd0", 1, wr ? "Cpl" : "CplD")
		} else if (r < 90) {
			send(x, "MsgD", 1 + rnd(8))
		} else {
			if (x == "down")
				g_keys = " code=127"
			send(x, "Msg", 1)
		}
		# the partner Acks now and then; sometimes it Naks instead
		o = qt[x] - qh[x]
		if (o >= 2 && rnd(400) == 0)
			nak(p)
		else if (o >= 12 || rnd(4) == 0)
			ack_all(p)
	}
	# drain: the remaining completions, then Ack and return everything
	for (k = 0; k < 2; k++) {
		x = k ? "up" : "down"
		while (npend[x] > 0) {
			piece(x)
			periodic()
		}
	}
	for (k = 0; k < 2; k++) {
		p = k ? "up" : "down"
		ack_all(p)
		for (j = 1; j <= 3; j++)
			update(p, cls[j])
	}
	printf "# records %d tlps %d replays down %d up %d naks %d updates %d\n", records, tlps, replays["down"], replays["up"], naks, updates
	printf "# charged down PH %d PD %d NPH %d NPD %d CplH %d CplD %d\n", charged["down", "PH"], charged["down", "PD"], charged["down", "NPH"], charged["down", "NPD"], charged["down", "CplH"], charged["down", "CplD"]
	printf "# charged up PH %d PD %d NPH %d NPD %d CplH %d CplD %d\n", charged["up", "PH"], charged["up", "PD"], charged["up", "NPH"], charged["up", "NPD"], charged["up", "CplH"], charged["up", "CplD"]
}'
