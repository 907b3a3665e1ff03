/* page_summary.js: the summary tables of the HTML report, and the page's
 * entry point (main).  Part of page.js's script: embedded after
 * page_charts.js, in the same script element (see page.js). */
/* ---------------------------------------------------- summary tables */
function renderSummary(sec, input, sum) {
	const box = h("div", { class: "summary" }, h("h3", null, "Summary"));
	sec.appendChild(box);
	const rec = obj(sum.records);
	const rk = ["read", "decoded", "malformed", "truncated", "dllps", "tlps", "events"];
	if (rec.bytes_read !== undefined) rk.push("bytes_read", "bytes_skipped");
	box.appendChild(h("h4", null, "Records"));
	box.appendChild(table("kv", rk.map((k) => k.replace("_", " ")), [rk.map((k) => h("td", { class: "num" }, digits(rec, k) ?? "-"))]));
	if (rec.time_base_s)
		box.appendChild(h("p", { class: "note" }, "Times count from the capture's clock second " + digits(rec, "time_base_s") + ", its first record's."));
	const byRule = obj(obj(sum.summary).by_rule);
	const sevOf = {};
	for (const f of arr(input.findings)) sevOf[str(obj(f).rule)] = str(obj(f).severity);
	const rules = Object.keys(byRule);
	if (rules.length) {
		box.appendChild(h("h4", null, "Findings by rule"));
		box.appendChild(table("kv", ["rule", "severity", "count"], rules.map((r) => [r, sevOf[r] || "", h("td", { class: "num" }, str(byRule[r]))])));
	}
	for (const l of arr(sum.links)) renderLink(box, obj(l));
	const o = obj(sum.options);
	box.appendChild(h("h4", null, "Options"));
	const tc = arr(o.tc_to_vc).map((vc, tcn) => tcn + "=" + vc).join(",");
	box.appendChild(table("kv", ["role down", "role up", "mps", "TC to VC"], [[str(o.role_down), str(o.role_up), o.mps === null ? "not given" : str(o.mps), tc]]));
	const partial = [];
	if (o.role_down === "unknown" && o.role_up === "unknown") partial.push("no --role given: fc.adv.cpl-finite was not checked");
	if (o.mps === null) partial.push("no --mps given: the data minima of fc.adv.below-min and tlp.payload.over-mps were not checked");
	if ("mrrs" in o && o.mrrs === null) partial.push("no --mrrs given: tlp.read.over-mrrs was not checked");
	for (const p of arr(sum.partial)) partial.push(str(p));
	for (const p of partial) box.appendChild(h("p", { class: "partial" }, "partial: " + p));
}
const PORTS = ["down", "up"];
const dur = (holder, key) => {
	const ds = digits(holder, key);
	return ds === null ? h("td", { class: "num" }, "-") : timeCell("td", holder, key);
};
function renderLink(box, l) {
	box.appendChild(h("h4", null, "Link " + str(l.link)));
	const tnc = obj(l.tlps_not_charged);
	box.appendChild(h("p", null, "Scaled flow control " + (l.scaled_fc === null ? "unknown" : l.scaled_fc ? "active" : "off") +
		"; replays and duplicates not charged: down " + str(tnc.down) + ", up " + str(tnc.up) + "."));
	const dl = obj(l.data_link);
	const dk = ["tlps_new", "tlps_replayed", "tlps_nullified", "tlps_unreadable", "acks_received", "naks_received", "outstanding_high_water"];
	box.appendChild(table("kv", ["port", "new TLPs", "replayed", "nullified", "unreadable", "Acks received", "Naks received", "most outstanding"],
		PORTS.map((p) => [p, ...dk.map((k) => h("td", { class: "num" }, str(obj(dl[p])[k])))])));
	const dm = obj(l.damaged);
	for (const p of PORTS) {
		const d = obj(dm[p]);
		if (d.dllps || d.tlps)
			box.appendChild(h("p", { class: "partial" }, "partial: port " + p + ": the capture saw " + plural(digits(d, "dllps"), "DLLP") + " and " +
				plural(digits(d, "tlps"), "TLP") + " from it damaged; what they said is unknown, so the checks resting on it were off until intact packets settled it"));
	}
	const rows = [];
	for (const v of arr(l.vcs)) {
		const vo = obj(v);
		for (const p of PORTS) {
			const cr = obj(obj(vo[p]).credits);
			for (const ct of Object.keys(cr)) {
				const c = obj(cr[ct]);
				if (c.advertised === null && c.limit === null && !c.tlps_charged) continue;
				rows.push(["VC" + str(vo.vc), p, ct, c.advertised === null ? "?" : str(c.advertised),
					c.limit === null ? (c.advertised === "inf" ? "inf" : "?") : hex(c.limit), c.consumed === null ? "?" : hex(c.consumed),
					h("td", { class: "num" }, c.min_available === null ? "" : str(c.min_available)),
					h("td", { class: "num" }, str(c.tlps_charged)), h("td", { class: "num" }, str(c.credits_charged)),
					c.longest_wait_ps ? dur(c, "longest_wait_ps") : ""]);
			}
		}
	}
	if (rows.length) {
		box.appendChild(h("p", { class: "caption" }, "Per VC and transmitting port: credits its partner advertised, limit CL, consumed CC, least available, TLPs and credits charged, longest wait for credits (\u00b5s)."));
		box.appendChild(table("kv credits", ["VC", "port", "type", "advertised", "CL", "CC", "min available", "TLPs", "credits", "longest wait"], rows));
	}
	for (const v of arr(l.vcs)) {
		const vo = obj(v);
		if (vo.epochs_joined)
			box.appendChild(h("p", { class: "partial" }, "joined: VC" + str(vo.vc) + ": " + plural(vo.epochs_joined, "initialisation epoch") +
				" joined, not seen: the capture began during flow-control initialisation, so what each port had received before was not checked"));
		if (vo.tlps_while_unknown || vo.fc_dllps_while_unknown)
			box.appendChild(h("p", { class: "partial" }, "partial: VC" + str(vo.vc) + ": " + str(vo.tlps_while_unknown) + " TLPs and " +
				str(vo.fc_dllps_while_unknown) + " flow-control DLLPs came before any initialisation was seen (the capture starts mid-stream): credit gate, outstanding and init checks were off for them"));
	}
	if (l.stats) renderStats(box, obj(l.stats));
	if (l.transactions) renderTransactions(box, obj(l.transactions));
}
function renderStats(box, st) {
	box.appendChild(h("h4", null, "Statistics"));
	box.appendChild(table("kv", ["port", "new TLPs by type"], PORTS.map((p) => {
		const k = obj(obj(st[p]).tlps_by_type);
		const t = Object.keys(k).map((n) => n + "=" + str(k[n])).join(" ");
		return [p, t || "none"];
	})));
	const rows = [];
	for (const p of PORTS)
		for (const v of arr(obj(st[p]).vcs)) {
			const vo = obj(v);
			const z = obj(vo.time_at_zero_ps);
			for (const ct of Object.keys(z)) if (z[ct]) rows.push(["VC" + str(vo.vc), p, "time at zero available " + ct + " credits", dur(z, ct), "", ""]);
			const u = obj(vo.updatefc);
			for (const cls of Object.keys(u)) {
				const iv = obj(u[cls]);
				if (iv.count) rows.push(["VC" + str(vo.vc), p, plural(iv.count, "UpdateFC-" + cls), dur(iv, "interval_min_ps"), dur(iv, "interval_median_ps"), dur(iv, "interval_max_ps")]);
			}
		}
	if (rows.length) box.appendChild(table("kv", ["VC", "port", "what", "time / interval min (\u00b5s)", "median (~)", "max"], rows));
}
function renderTransactions(box, tr) {
	const rows = [], partial = [];
	for (const p of PORTS) {
		const t = obj(tr[p]);
		if (!t.requests_total && !t.completions) continue;
		const req = obj(t.requests);
		const st = obj(t.status);
		const lf = obj(t.latency_first_ps), ll = obj(t.latency_last_ps);
		rows.push([p, str(t.requests_total) + (Object.keys(req).length ? " (" + Object.keys(req).map((k) => req[k] + " " + k).join(", ") + ")" : ""),
			str(t.completed), str(t.ended_by_epoch), str(t.timed_out), str(t.outstanding), str(t.outstanding_max),
			dur(lf, "min"), dur(lf, "median"), dur(lf, "max"), dur(ll, "max"),
			str(t.completions) + (Object.keys(st).some((k) => st[k]) ? " (" + Object.keys(st).filter((k) => st[k]).map((k) => st[k] + " " + k).join(", ") + ")" : ""),
			str(t.unmatched)]);
		if (t.requesters_untracked)
			partial.push("partial: port " + p + ": " + plural(t.requesters_untracked, "request") + " from requesters that could not be tracked (the table of requesters was full): their completions were not checked");
		if (t.while_unknown)
			partial.push("partial: port " + p + ": " + str(t.while_unknown) + " of its requests and of the completions for them came while the transaction state was unknown: the pairing rules did not judge them");
	}
	if (!rows.length) return;
	box.appendChild(h("h4", null, "Transactions (non-posted requests each port sent)"));
	box.appendChild(table("kv", ["port", "requests", "completed", "ended by epoch", "timed out", "outstanding at end", "most at once",
		"1st cpl latency min (\u00b5s)", "median (~)", "max", "last cpl latency max", "completions", "unmatched"], rows));
	for (const p of partial) box.appendChild(h("p", { class: "partial" }, p));
}

/* ---------------------------------------------------------- the page */
function main() {
	const app = document.getElementById("app") || document.body.appendChild(h("div", { id: "app" }));
	chartWidth = Math.max(480, Math.min(1400, Math.floor(app.clientWidth || W0)));
	const runEl = document.getElementById("dllpcheck-run");
	const run = runEl ? obj(readBlock(runEl)) : {};
	app.appendChild(h("header", null, h("h1", null, "dllpcheck report"),
		h("p", { class: "tool" }, str(run.tool || "dllpcheck") + " " + str(run.version) + " \u00b7 " + plural(isNum(run.inputs) ? run.inputs : 0, "input"))));
	const batchEl = document.getElementById("dllpcheck-batch");
	const batch = batchEl ? obj(readBlock(batchEl)) : {};
	const batchBox = h("div");
	app.appendChild(batchBox);
	const sections = [];
	let n = 0;
	for (const el of document.querySelectorAll("script.dllpcheck-input")) {
		n++;
		try {
			renderInput(app, obj(readBlock(el)), n);
		} catch (e) {
			noteError("input " + n + ": " + (e && e.stack ? e.stack : e));
			app.appendChild(h("p", { class: "input-error" }, "Input " + n + " could not be drawn: " + (e && e.message)));
		}
		sections.push(app.lastChild);
	}
	renderBatch(batchBox, batch, sections);
}
main();
document.body.dataset.renderMs = (performance.now() - started).toFixed(1);
document.body.dataset.timing = Object.keys(spent).map((k) => k + "=" + spent[k].toFixed(1)).join(" ");
document.body.dataset.rendered = "1";
