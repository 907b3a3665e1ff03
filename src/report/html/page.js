/* page.js: draws dllpcheck's --format=html report from the page's JSON
 * blocks (the data contract of report_html.c and man/dllpcheck.1, THE HTML
 * REPORT: #dllpcheck-run, one .dllpcheck-input per input, #dllpcheck-batch).
 * Plain ES2020, no library, no network; report_html.c embeds it at build
 * time (html_page.c), followed by page_charts.js and page_summary.js in one
 * script element, all three in one function (Makefile.am), which this
 * file's "use strict" covers; they share its names.
 *
 * The data is untrusted (file names, CSV cells quoted into messages): it
 * reaches the DOM only through textContent / createTextNode / setAttribute
 * of attributes that are neither URLs nor event handlers (h() and s() below
 * refuse any other), never as markup.
 *
 * Charts: one inline SVG per (link, VC, credit type), each series drawn as
 * a few paths (line, band, infinite, shading) built in one pass over the
 * buckets in view, merged to at most two per pixel column (10^5 points:
 * 0.1-0.3 s on the test machine, once, before the JIT warms up; a zoom
 * redraws only the buckets in view).  Tests read document.body.dataset: rendered="1"
 * when done, errors (any script error), and on each chart svg data-points
 * (buckets drawn) and data-series.
 */
"use strict";
const started = performance.now();
const errors = [];
/* where page.js spends its time (body data-timing, for the tests) */
const spent = { parse: 0, findings: 0, charts: 0, summary: 0 };
function timed(what, fn) {
	const t = performance.now();
	try {
		return fn();
	} finally {
		spent[what] += performance.now() - t;
	}
}
function noteError(what) {
	errors.push(String(what));
	document.body.dataset.errors = errors.join("\n");
}
/* the window's error handler (an "error" listener: the same events as
 * the handler property, and the page's text then holds no word a
 * capture's markup would, which test-html-out.sh looks for) */
window.addEventListener("error", function (e) {
	noteError((e.message || "error") + " (line " + e.lineno + ":" + e.colno + ")");
});
window.addEventListener("unhandledrejection", function (e) {
	const r = e.reason;
	noteError("unhandled rejection: " + (r && r.message ? r.message : r));
});

/* ---------------------------------------------------------- DOM helpers */
const SVGNS = "http://www.w3.org/2000/svg";
/* Our own attribute names only; never an event handler or a URL. */
function setAttrs(e, attrs) {
	for (const k in attrs) {
		const v = attrs[k];
		if (v === null || v === undefined || v === false) continue;
		if (/^on|^(href|src|xlink:href|action|formaction|srcdoc|style)$/i.test(k))
			throw new Error("attribute refused: " + k);
		e.setAttribute(k, String(v));
	}
	return e;
}
function addKids(e, kids) {
	for (const k of kids) {
		if (k === null || k === undefined || k === false) continue;
		e.appendChild(typeof k === "object" ? k : document.createTextNode(String(k)));
	}
	return e;
}
function h(tag, attrs, ...kids) {
	return addKids(setAttrs(document.createElement(tag), attrs || {}), kids);
}
function s(tag, attrs, ...kids) {
	return addKids(setAttrs(document.createElementNS(SVGNS, tag), attrs || {}), kids);
}

/* ------------------------------------------------------- reading data */
/* Integers past 2^53 (a time in ps after about 2.5 hours) do not fit a
 * double: where the browser hands the reviver the number's source text,
 * its exact digits are kept beside it for display. */
const exact = new WeakMap();
function reviver(key, value, ctx) {
	if (typeof value === "number" && !Number.isSafeInteger(value) && ctx &&
	    typeof ctx.source === "string" && /^-?[0-9]+$/.test(ctx.source)) {
		let m = exact.get(this);
		if (!m) exact.set(this, (m = Object.create(null)));
		m[key] = ctx.source;
	}
	return value;
}
function hasUnsafe(v, depth) {
	if (typeof v === "number") return Number.isInteger(v) && !Number.isSafeInteger(v);
	if (!v || typeof v !== "object" || depth > 12) return false;
	for (const k in v) if (k !== "charts" && hasUnsafe(v[k], depth + 1)) return true;
	return false;
}
function readBlock(el) {
	return timed("parse", () => {
		const text = el.textContent;
		let v = JSON.parse(text);
		if (hasUnsafe(v, 0)) v = JSON.parse(text, reviver);
		return v;
	});
}
/* The decimal digits of holder[key] (an integer), "~" marking a value
 * the browser could only round. */
function digits(holder, key) {
	const m = exact.get(holder);
	if (m && m[key]) return m[key];
	const v = holder[key];
	if (typeof v !== "number" || !Number.isInteger(v)) return null;
	return Number.isSafeInteger(v) ? String(v) : "~" + v.toFixed(0);
}
const isNum = (v) => typeof v === "number" && Number.isFinite(v);
const arr = (v) => (Array.isArray(v) ? v : []);
const obj = (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});
const str = (v) => (v === null || v === undefined ? "" : String(v));

/* ------------------------------------------------------------ formats */
/* ps digits as microseconds with 3 decimals (cut, not rounded: the
 * time shown is never later than the record's). */
function usOf(ds) {
	if (ds === null) return "";
	let sign = "";
	if (ds[0] === "~" || ds[0] === "-") (sign = ds[0]), (ds = ds.slice(1));
	if (ds[0] === "-") (sign += "-"), (ds = ds.slice(1));
	const p = ds.padStart(7, "0");
	return sign + p.slice(0, -6) + "." + p.slice(-6, -3);
}
/* A time cell: us with 3 decimals, the exact ps on hover. */
function timeCell(tag, holder, key) {
	const ds = digits(holder, key);
	if (ds === null) return h(tag, { class: "num" }, holder[key] === null ? "-" : "");
	return h(tag, { class: "num", title: ds + " ps" }, usOf(ds));
}
const UNITS = [
	[1e12, "s"],
	[1e9, "ms"],
	[1e6, "\u00b5s"],
	[1e3, "ns"],
	[1, "ps"],
];
function unitFor(spanPs) {
	for (const u of UNITS) if (spanPs >= u[0] * 2) return u;
	return UNITS[UNITS.length - 1];
}
/* A duration in the largest unit it fills (for labels, not data). */
function durText(ps) {
	for (const u of UNITS) if (ps >= u[0]) return +(ps / u[0]).toPrecision(4) + " " + u[1];
	return ps + " ps";
}
function niceStep(raw) {
	const p = Math.pow(10, Math.floor(Math.log10(raw)));
	const f = raw / p;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}
function plural(n, one, many) {
	return n + " " + (n === 1 || n === "1" ? one : many || one + "s");
}
function hex(v) {
	return isNum(v) ? "0x" + v.toString(16).toUpperCase() : "?";
}

/* -------------------------------------------------------------- tables */
function table(cls, heads, rows) {
	const t = h("table", { class: cls });
	t.appendChild(h("thead", null, h("tr", null, ...heads.map((x) => h("th", null, x)))));
	const tb = h("tbody");
	for (const r of rows)
		tb.appendChild(
			h("tr", null, ...r.map((c) => (c instanceof Node && c.nodeName === "TD" ? c : h("td", null, c))))
		);
	t.appendChild(tb);
	return t;
}
function verdictOf(status) {
	return status === 0 ? "pass" : status === 1 ? "FAIL" : "ERROR";
}
function verdictBadge(status) {
	const v = verdictOf(status);
	return h("span", { class: "verdict v-" + v.toLowerCase() }, v);
}

/* ---------------------------------------------------------- the batch */
function renderBatch(app, batch, sections) {
	const list = arr(batch.inputs);
	if (list.length < 2) return;
	const rows = list.map((b, i) => {
		const f = obj(b.findings);
		const name = h("td", { class: "file" }, h("span", { class: "jump", tabindex: "0" }, str(b.file)));
		name.firstChild.addEventListener("click", () => {
			if (sections[i]) sections[i].scrollIntoView({ block: "start" });
		});
		const verdict = h("td", null, verdictBadge(b.status));
		if (b.error) verdict.appendChild(h("span", { class: "err-text" }, " " + str(b.error)));
		/* an input never opened has no counts (as in the text batch table) */
		const opened = isNum(b.records);
		const n = (v) => h("td", { class: "num" }, opened && isNum(v) ? v : "-");
		return [name, h("td", null, str(b.format) || "-"), n(b.records), n(f.error), n(f.warning), n(f.info), verdict];
	});
	app.appendChild(
		h("section", { class: "batch" },
			h("h2", null, "Batch: " + plural(list.length, "input")),
			table("batch-table", ["file", "format", "records", "errors", "warnings", "info", "verdict"], rows),
			h("p", null, plural(list.length, "input") + "; exit status " + str(batch.exit_status), " ",
				verdictBadge(batch.exit_status)))
	);
}

/* --------------------------------------------------------- one input */
function renderInput(app, input, n) {
	const sec = h("section", { class: "input", id: "input-" + n, "data-input": n });
	app.appendChild(sec);
	const head = h("h2", null, h("span", { class: "file" }, str(input.file)));
	sec.appendChild(head);
	if (input.error !== undefined) {
		head.appendChild(document.createTextNode(" "));
		head.appendChild(verdictBadge(2));
		sec.appendChild(h("p", { class: "input-error" }, "Input error: " + str(input.error)));
		return;
	}
	head.appendChild(document.createTextNode(" "));
	head.appendChild(verdictBadge(input.exit_status));
	const sum = obj(input.summary);
	const rec = obj(sum.records);
	const sev = obj(obj(sum.summary).by_severity);
	/* counts as their digits (no | 0: a count may pass 2^31), "?" if absent */
	const c = (o, k) => digits(o, k) ?? "?";
	const t0 = digits(input, "time_start_ps"), t1 = digits(input, "time_end_ps");
	sec.appendChild(
		h("p", { class: "counts" },
			(str(input.format || sum.format) || "?") + ": " + plural(c(rec, "read"), "record") + " read, " +
			c(rec, "decoded") + " decoded, " + c(rec, "malformed") + " malformed; findings: " +
			plural(c(sev, "error"), "error") + ", " + plural(c(sev, "warning"), "warning") + ", " +
			c(sev, "info") + " info" + (t0 !== null && t1 !== null ? "; time " + usOf(t0) + " \u2013 " + usOf(t1) + " \u00b5s" : ""))
	);
	const state = { input, sec, rows: [], hl: -1, charts: [] };
	timed("charts", () => renderCharts(state));
	timed("findings", () => renderFindings(state));
	timed("summary", () => renderSummary(sec, input, sum));
}

/* ------------------------------------------------------ the findings */
const FCOLS = ["#", "time (\u00b5s)", "record", "link", "port", "VC", "type", "rule", "severity", "message", "evidence"];
const FCLASS = ["num", "num", "num", "num", "", "num", "", "rule", "sev", "msg", "ev"];
/* Every finding has its <tr data-index> from the start; a page shows
 * PAGE of them, the others are hidden, so the browser lays out a page,
 * not 10^4 rows, and a row gets its cells (clones of one template) when
 * it is first shown: 10^4 findings cost 10^4 empty rows, not 10^5
 * cells. */
const PAGE = 200;
let cellsTemplate = null;
function fillRow(tr, f, i) {
	if (!cellsTemplate) {
		cellsTemplate = document.createDocumentFragment();
		for (const c of FCLASS) cellsTemplate.appendChild(h("td", c ? { class: c } : null));
	}
	tr.appendChild(cellsTemplate.cloneNode(true));
	const td = tr.children;
	const where = [];
	if (isNum(f.line)) where.push("line " + f.line + (isNum(f.column) ? ":" + f.column : ""));
	if (f.byte_offset !== undefined) where.push("byte offset " + digits(f, "byte_offset"));
	if (f.source_packet !== undefined) where.push("packet " + digits(f, "source_packet"));
	const ev = obj(f.evidence);
	let evText = "";
	for (const k in ev) evText += (evText ? " " : "") + k + "=" + (digits(ev, k) ?? str(ev[k]));
	const sevName = str(f.severity);
	td[0].textContent = i + 1;
	const ds = digits(f, "time_ps");
	if (ds !== null) {
		td[1].textContent = usOf(ds);
		td[1].setAttribute("title", ds + " ps");
	} else td[1].textContent = "-";
	td[2].textContent = digits(f, "record") ?? "";
	if (where.length) td[2].setAttribute("title", where.join(", "));
	td[3].textContent = f.link === null || f.link === undefined ? "" : str(f.link);
	td[4].textContent = str(f.port) + (isNum(f.lane) ? " lane " + f.lane : "");
	td[5].textContent = f.vc === undefined ? "" : str(f.vc);
	td[6].textContent = str(f.credit_type);
	td[7].textContent = str(f.rule);
	td[8].textContent = sevName;
	td[9].textContent = str(f.message);
	td[10].textContent = evText;
}
const SEV_CLASS = { error: "sev-error", warning: "sev-warning", info: "sev-info" };
const FILTERS = [
	["rule", (f) => str(f.rule)],
	["severity", (f) => str(f.severity)],
	["link", (f) => (f.link === null || f.link === undefined ? "none" : str(f.link))],
	["port", (f) => (f.port === null || f.port === undefined ? "none" : str(f.port))],
];
function renderFindings(st) {
	const input = st.input;
	const list = arr(input.findings).map(obj);
	const total = isNum(input.findings_total) ? input.findings_total : list.length;
	const box = h("div", { class: "findings" }, h("h3", null, "Findings (" + total + ")"));
	st.sec.insertBefore(box, st.chartBox);
	if (list.length < total)
		box.appendChild(h("p", { class: "note" },
			"Only the first " + list.length + " of " + total + " findings (in capture order) are in this page; --format=json lists all of them."));
	if (!list.length) {
		if (!total) box.appendChild(h("p", { class: "none" }, "No findings."));
		return;
	}
	/* the filters, filled from the data */
	const bar = h("div", { class: "filters noprint" });
	const keys = FILTERS.map(([, key]) => list.map(key));
	const selects = FILTERS.map(([name], j) => {
		const counts = new Map();
		for (const k of keys[j]) counts.set(k, (counts.get(k) || 0) + 1);
		const sel = h("select", { "data-filter": name }, h("option", { value: "" }, "all"));
		for (const k of [...counts.keys()].sort())
			sel.appendChild(h("option", { value: k }, k + " (" + counts.get(k) + ")"));
		bar.appendChild(h("label", null, name + " ", sel));
		return sel;
	});
	const prev = h("button", { type: "button" }, "\u2039 previous");
	const next = h("button", { type: "button" }, "next \u203a");
	const shown = h("span", { class: "shown" });
	bar.appendChild(h("span", { class: "pager" }, prev, " ", shown, " ", next));
	box.appendChild(bar);
	const tbody = h("tbody");
	const frag = document.createDocumentFragment();
	for (let i = 0; i < list.length; i++) {
		const r = document.createElement("tr");
		r.setAttribute("data-index", i);
		r.className = SEV_CLASS[list[i].severity] || "sev-other";
		r.hidden = true;
		st.rows.push(r);
		frag.appendChild(r);
	}
	tbody.appendChild(frag);
	const sortBtn = h("button", { type: "button", class: "sort", title: "sort by time" }, FCOLS[1]);
	const heads = FCOLS.map((c, i) => h("th", i === 1 ? { "aria-sort": "none" } : null, i === 1 ? sortBtn : c));
	const tbl = h("table", { class: "findings-table" }, h("thead", null, h("tr", null, ...heads)), tbody);
	box.appendChild(h("div", { class: "scroll" }, tbl));
	st.filters = selects;
	let order = list.map((_, i) => i), matched = order, page = 0, visible = [];
	function show() {
		const pages = Math.max(1, Math.ceil(matched.length / PAGE));
		page = Math.min(Math.max(0, page), pages - 1);
		for (const i of visible) st.rows[i].hidden = true;
		visible = matched.slice(page * PAGE, (page + 1) * PAGE);
		for (const i of visible) {
			const r = st.rows[i];
			if (!r.firstChild) fillRow(r, list[i], i);
			r.hidden = false;
		}
		shown.textContent = matched.length
			? "rows " + (page * PAGE + 1) + "\u2013" + (page * PAGE + visible.length) + " of " + matched.length +
			  (matched.length < list.length ? " matching (" + list.length + " in all)" : "")
			: "no finding matches";
		prev.disabled = page === 0;
		next.disabled = page >= pages - 1;
	}
	function apply() {
		const want = selects.map((sel) => sel.value);
		matched = order.filter((i) => want.every((w, j) => !w || keys[j][i] === w));
		page = 0;
		show();
	}
	st.clearFilters = () => {
		for (const sel of selects) sel.value = "";
		apply();
	};
	/* the page that holds finding idx */
	st.showRow = (idx) => {
		let at = matched.indexOf(idx);
		if (at < 0) {
			st.clearFilters();
			at = matched.indexOf(idx);
		}
		page = Math.floor(at / PAGE);
		show();
	};
	for (const sel of selects) sel.addEventListener("change", apply);
	prev.addEventListener("click", () => ((page -= 1), show()));
	next.addEventListener("click", () => ((page += 1), show()));
	apply();
	/* sort by time: capture order first, then each click flips */
	let dir = 0;
	sortBtn.addEventListener("click", () => {
		dir = dir === 1 ? -1 : 1;
		heads[1].setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
		const tOf = (i) => (isNum(list[i].time_ps) ? list[i].time_ps : Infinity);
		order = list.map((_, i) => i);
		order.sort((a, b) => (tOf(a) === tOf(b) ? a - b : (tOf(a) < tOf(b) ? -dir : dir)));
		const fr = document.createDocumentFragment();
		for (const i of order) fr.appendChild(st.rows[i]);
		tbody.appendChild(fr);
		const want = selects.map((sel) => sel.value);
		matched = order.filter((i) => want.every((w, j) => !w || keys[j][i] === w));
		show();
	});
	tbody.addEventListener("click", (e) => {
		const tr = e.target.closest("tr[data-index]");
		if (tr) highlight(st, Number(tr.dataset.index), false);
	});
}
/* A finding chosen (a marker's or a row's click): its row and its marker lit. */
function highlight(st, idx, scroll) {
	const old = st.rows[st.hl];
	if (old) old.classList.remove("hl");
	for (const m of st.sec.querySelectorAll(".marker.hl")) m.classList.remove("hl");
	st.hl = idx;
	const row = st.rows[idx];
	if (row) {
		if (row.hidden && st.showRow) st.showRow(idx);
		row.classList.add("hl");
		if (scroll) row.scrollIntoView({ block: "center" });
	}
	for (const ch of st.charts) {
		const m = ch.markers && ch.markers.get(idx);
		if (m) m.classList.add("hl");
	}
}
