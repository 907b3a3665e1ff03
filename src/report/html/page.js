/* page.js: draws dllpcheck's --format=html report from the page's JSON
 * blocks (the data contract of report_html.c and man/dllpcheck.1, THE HTML
 * REPORT: #dllpcheck-run, one .dllpcheck-input per input, #dllpcheck-batch).
 * Plain ES2020, no library, no network; report_html.c embeds it at build
 * time (html_page.c).
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
(function () {
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
	/* --------------------------------------------------------- the charts */
	const W0 = 960, TOP = 22, PH = 150, BOT = 46, LEFT = 58, RIGHT = 14;
	const PORT_CLASS = { down: "p-down", up: "p-up" };
	/* the charts' width in px, measured once on the empty page (a layout
	 * per input would cost a full layout of all drawn before it) */
	let chartWidth = W0;
	/* A series checked in one plain loop (the code runs once: it must be
	 * cheap before the JIT has warmed up): points well formed and in time
	 * order (sorted if not), the largest value, whether any is infinite. */
	function prepSeries(se) {
		let pts = arr(se.points), ymax = 0, inf = false, ok = true, sorted = true, last = -Infinity;
		for (let i = 0, n = pts.length; i < n; i++) {
			const p = pts[i];
			if (!Array.isArray(p) || typeof p[0] !== "number" || !(p[0] === p[0])) {
				ok = false;
				continue;
			}
			const t = p[0], v = p[2];
			if (t < last) sorted = false;
			last = t;
			if (typeof v === "number" && v > ymax) ymax = v;
			if (p[4] & 2) inf = true;
		}
		if (!ok) pts = pts.filter((p) => Array.isArray(p) && isNum(p[0]));
		if (!sorted) pts = pts.slice().sort((a, b) => a[0] - b[0]);
		const upd = arr(se.updates).filter((u) => Array.isArray(u) && isNum(u[0]));
		const fnd = arr(se.findings).filter((u) => Array.isArray(u) && isNum(u[0]) && Number.isInteger(u[1]));
		return {
			port: str(se.port),
			cls: PORT_CLASS[se.port] || "p-other",
			width: isNum(se.width) ? se.width : null,
			bucket: isNum(se.bucket_ps) && se.bucket_ps > 0 ? se.bucket_ps : 1,
			pts, upd, fnd, ymax, inf,
		};
	}
	function renderCharts(st) {
		const input = st.input;
		const charts = arr(input.charts);
		const box = h("div", { class: "charts" }, h("h3", null, "Credits available over time"));
		st.chartBox = box;
		st.sec.appendChild(box);
		let t0 = isNum(input.time_start_ps) ? input.time_start_ps : 0;
		let t1 = isNum(input.time_end_ps) ? input.time_end_ps : t0;
		const series = charts.map((c) => arr(obj(c).series).map(prepSeries));
		for (const ss of series)
			for (const se of ss)
				if (se.pts.length) {
					t0 = Math.min(t0, se.pts[0][0]);
					t1 = Math.max(t1, se.pts[se.pts.length - 1][0] + se.bucket);
				}
		if (!(t1 > t0)) t1 = t0 + 1000;
		st.full = [t0, t1];
		st.view = [t0, t1];
		st.end = isNum(input.time_end_ps) ? input.time_end_ps : t1;
		if (input.charts_dropped > 0)
			box.appendChild(h("p", { class: "note" },
				plural(input.charts_dropped, "chart") + " not drawn (a page keeps at most 256 per input)."));
		if (!charts.length) {
			box.appendChild(h("p", { class: "none" }, "No credit values to draw."));
			return;
		}
		const reset = h("button", { type: "button", class: "reset noprint" }, "reset zoom");
		reset.addEventListener("click", () => zoom(st, st.full[0], st.full[1]));
		box.appendChild(h("p", { class: "legend noprint" },
			"Drag across a chart to zoom (all charts of this input follow); hover for values. ", reset));
		box.appendChild(h("p", { class: "legend" },
			h("span", { class: "key band" }), " min\u2013max within a bucket  ",
			h("span", { class: "key unknown" }), " value unknown  ",
			h("span", { class: "key uncertain" }), " uncertain (a damaged packet may have changed CL or CC)  ",
			"| UpdateFC/InitFC ticks under the axis  \u25bc finding  \u221e infinite credits"));
		const width = chartWidth;
		charts.forEach((c, k) => {
			c = obj(c);
			const ss = series[k];
			let ymax = 1, inf = false;
			for (const se of ss) {
				if (se.ymax > ymax) ymax = se.ymax;
				inf = inf || se.inf;
			}
			const ystep = Math.max(1, niceStep(ymax / 4));
			const ch = { st, ss, ystep, ymax: ystep * Math.ceil(ymax / ystep), inf, W: width };
			const title = h("div", { class: "chart-title" },
				h("b", null, "link " + str(c.link) + " \u00b7 VC" + str(c.vc) + " \u00b7 " + str(c.type)));
			for (const se of ss)
				title.appendChild(h("span", { class: "series " + se.cls },
					" \u25a0 port " + se.port + " transmits" + (se.width ? " (" + se.width + "-bit counter)" : "") +
					", bucket " + durText(se.bucket)));
			ch.svg = s("svg", {
				class: "chart", width: "100%", viewBox: "0 0 " + width + " " + (TOP + PH + BOT),
				"data-series": ss.length, "data-link": str(c.link), "data-vc": str(c.vc), "data-type": str(c.type),
				role: "img", "aria-label": "credits available, link " + str(c.link) + " VC" + str(c.vc) + " " + str(c.type),
			});
			ch.tip = h("div", { class: "tip", hidden: "hidden" });
			box.appendChild(h("div", { class: "chart-box" }, title, h("div", { class: "chart-wrap" }, ch.svg, ch.tip)));
			st.charts.push(ch);
			attachPointer(ch);
			drawChart(ch);
		});
	}
	function zoom(st, a, b) {
		/* at least 10 ps, and a span a double can still split (late times) */
		const least = Math.max(10, Math.abs(a) * 1e-12);
		if (b - a < least) b = a + least;
		st.view = [a, b];
		for (const ch of st.charts) drawChart(ch);
		highlight(st, st.hl, false);
	}

	/* A path built as a string, with the pen's position so touching
	 * horizontal segments join with one vertical move. */
	function Pen() {
		this.d = [];
		this.x = NaN;
		this.y = NaN;
	}
	Pen.prototype.seg = function (xa, xb, y) {
		if (this.x === xa) {
			if (this.y !== y) this.d.push("V" + y);
		} else this.d.push("M" + xa + " " + y);
		if (xb !== xa) this.d.push("H" + xb);
		this.x = xb;
		this.y = y;
	};
	Pen.prototype.rect = function (xa, xb, ya, yb) {
		if (xb - xa < 0.5) xb = xa + 0.5;
		this.d.push("M" + xa + " " + ya + "H" + xb + "V" + yb + "H" + xa + "Z");
	};
	const r1 = (v) => Math.round(v * 10) / 10;

	function lowerBound(a, t) {
		let lo = 0, hi = a.length;
		while (lo < hi) {
			const m = (lo + hi) >> 1;
			if (a[m][0] < t) lo = m + 1;
			else hi = m;
		}
		return lo;
	}

	function drawChart(ch) {
		const st = ch.st, svg = ch.svg, W = ch.W;
		const [v0, v1] = st.view;
		const R = W - RIGHT, bottom = TOP + PH, yTop = TOP + 14, yInf = TOP + 5;
		const kx = (R - LEFT) / (v1 - v0);
		const X = (t) => r1(Math.min(R, Math.max(LEFT, LEFT + (t - v0) * kx)));
		const Y = (v) => r1(bottom - (v / ch.ymax) * (bottom - yTop));
		ch.X = X;
		while (svg.firstChild) svg.removeChild(svg.firstChild);
		const grid = new Pen(), axis = new Pen();
		const g = s("g");
		/* y axis: credits */
		for (let v = 0; v <= ch.ymax; v += ch.ystep) {
			const y = Y(v);
			grid.seg(LEFT, R, y);
			g.appendChild(s("text", { x: LEFT - 6, y: y + 4, class: "ylab" }, String(v)));
		}
		if (ch.inf) {
			grid.seg(LEFT, R, yInf);
			g.appendChild(s("text", { x: LEFT - 6, y: yInf + 4, class: "ylab" }, "\u221e"));
		}
		g.appendChild(s("text", { x: 12, y: TOP + PH / 2, class: "ytitle", transform: "rotate(-90 12 " + (TOP + PH / 2) + ")" }, "credits"));
		/* x axis: time, in a unit that fits the span */
		const [unit, uname] = unitFor(v1 - v0);
		const step = niceStep((v1 - v0) / Math.max(2, Math.floor((R - LEFT) / 110)));
		const dec = Math.max(0, Math.ceil(-Math.log10(step / unit) - 1e-9));
		/* by count, not by t += step: past 2^53 ps a small step adds nothing */
		const first = Math.ceil(v0 / step);
		for (let n = 0; n < 64; n++) {
			const t = (first + n) * step;
			if (t > v1) break;
			const x = X(t);
			axis.d.push("M" + x + " " + bottom + "V" + (bottom + 4));
			g.appendChild(s("text", { x, y: bottom + 30, class: "xlab" }, (t / unit).toFixed(dec)));
		}
		g.appendChild(s("text", { x: R, y: bottom + 43, class: "xtitle" }, "time (" + uname + ")"));
		axis.d.push("M" + LEFT + " " + TOP + "V" + bottom + "H" + R);
		const bg = s("rect", { x: LEFT, y: TOP, width: R - LEFT, height: PH, class: "plot-bg" });
		svg.appendChild(bg);
		svg.appendChild(s("path", { d: grid.d.join(""), class: "grid" }));
		/* the series */
		const layers = { shade: [], band: [], line: [], top: [] };
		let points = 0;
		ch.markers = new Map();
		ch.ss.forEach((se, k) => {
			points += drawSeries(ch, se, k, layers, { v0, v1, X, Y, yInf, bottom, R });
		});
		for (const n of ["shade", "band", "line", "top"]) for (const e of layers[n]) svg.appendChild(e);
		svg.appendChild(s("path", { d: axis.d.join(""), class: "axis" }));
		svg.appendChild(g);
		ch.sel = s("rect", { x: 0, y: TOP, width: 0, height: PH, class: "sel", visibility: "hidden" });
		ch.cursor = s("path", { d: "", class: "cursor" });
		svg.appendChild(ch.sel);
		svg.appendChild(ch.cursor);
		svg.setAttribute("data-points", points);
	}

	/* One series in view: returns the buckets drawn. */
	function drawSeries(ch, se, k, layers, c) {
		const { v0, v1, X, Y, yInf, bottom, R } = c;
		const pts = se.pts, B = se.bucket;
		const solid = new Pen(), dashed = new Pen(), band = new Pen(), infp = new Pen();
		const unknown = new Pen(), uncertain = new Pen(), ticks = new Pen();
		/* held: what the last bucket left (kind 0 nothing yet, 1 value, 2
		 * infinite, 3 unknown), drawn up to the next bucket */
		let held = 0, hv = 0, hunc = false, penEnd = NaN, drawn = 0, firstInf = -1;
		let i = lowerBound(pts, v0);
		if (i > 0) {
			const p = pts[i - 1];
			if (p[0] + B > v0) i--;
			else {
				/* a bucket before the view: its last value holds into it */
				held = isNum(p[3]) ? 1 : p[4] & 2 ? 2 : 3;
				hv = p[3];
				hunc = (p[4] & 4) !== 0;
				penEnd = LEFT;
				if (held === 2) firstInf = LEFT;
			}
		}
		function hold(xa, xb) {
			if (!(xb > xa)) return;
			if (held === 1) (hunc ? dashed : solid).seg(xa, xb, Y(hv));
			else if (held === 2) infp.seg(xa, xb, yInf);
			else if (held === 3) unknown.rect(xa, xb, TOP, bottom);
			if (hunc && held !== 0) uncertain.rect(xa, xb, TOP, bottom);
		}
		let ac = null, at0 = 0, at1 = 0, amin = Infinity, amax = -Infinity, alast = null, aflags = 0, akind = 0;
		function flush() {
			let x0 = X(at0);
			const x1 = X(at1);
			/* a bucket at the very end (nothing holds after it) still shows */
			if (x0 > R - 1.5) x0 = R - 1.5;
			if (penEnd === penEnd) hold(penEnd, x0);
			if (aflags & 1 || (akind === 3 && amin === Infinity)) unknown.rect(x0, x1, TOP, bottom);
			if (aflags & 4) uncertain.rect(x0, x1, TOP, bottom);
			if (amin < amax) band.rect(x0, x1, Y(amax), Y(amin));
			if (aflags & 2) {
				infp.seg(x0, x1, yInf);
				if (firstInf < 0) firstInf = x0;
			}
			held = akind;
			hv = alast;
			hunc = (aflags & 4) !== 0;
			if (held === 1) (hunc ? dashed : solid).seg(x0, x1, Y(hv));
			penEnd = x1;
			drawn++;
		}
		const k2 = 2 * ((R - LEFT) / (v1 - v0));
		for (; i < pts.length; i++) {
			const p = pts[i], t = p[0];
			if (t > v1) break;
			/* half-pixel columns: at most two buckets drawn per pixel */
			const col = t <= v0 ? -1 : Math.floor((t - v0) * k2);
			if (col !== ac) {
				if (ac !== null) flush();
				ac = col;
				at0 = t;
				amin = Infinity;
				amax = -Infinity;
				aflags = 0;
			}
			at1 = t + B;
			const fl = p[4] | 0;
			aflags |= fl;
			/* (JSON holds no NaN or Infinity: typeof is the whole test) */
			const lo = p[1], hi = p[2], la = p[3];
			if (typeof lo === "number" && lo < amin) amin = lo;
			if (typeof hi === "number" && hi > amax) amax = hi;
			if (typeof la === "number") (akind = 1), (alast = la);
			else if (fl & 2) akind = 2;
			else akind = 3;
		}
		if (ac !== null) flush();
		/* the last value holds to the capture's end */
		if (penEnd === penEnd) hold(penEnd, X(Math.min(v1, Math.max(ch.st.end, v0))));
		/* UpdateFC ticks, one row per series under the axis */
		const ty = bottom + 6 + k * 8;
		let lastX = -1;
		for (let j = Math.max(0, lowerBound(se.upd, v0)); j < se.upd.length && se.upd[j][0] <= v1; j++) {
			const x = X(se.upd[j][0]);
			if (x === lastX) continue;
			lastX = x;
			ticks.d.push("M" + x + " " + ty + "v6");
		}
		const cls = se.cls;
		const add = (layer, pen, name) => {
			if (pen.d.length) layers[layer].push(s("path", { d: pen.d.join(""), class: name + " " + cls }));
		};
		add("shade", unknown, "unknown");
		add("shade", uncertain, "uncertain");
		add("band", band, "band");
		add("line", solid, "line");
		add("line", dashed, "line dashed");
		add("line", infp, "inf");
		add("top", ticks, "ticks");
		if (firstInf >= 0)
			layers.top.push(s("text", { x: Math.min(firstInf + 4 + k * 64, R - 60), y: yInf - 2, class: "inflab " + cls },
				"\u221e " + se.port));
		drawMarkers(ch, se, layers, X, v0, v1);
		return drawn;
	}
	/* Finding markers: one per pixel column, the column's first finding
	 * named in its data-index (a click goes to that row). */
	function drawMarkers(ch, se, layers, X, v0, v1) {
		const st = ch.st, list = arr(st.input.findings);
		const guide = new Pen();
		let cur = null;
		const done = () => {
			if (!cur) return;
			const f = obj(list[cur.idx[0]]);
			const sev = /^(error|warning|info)$/.test(f.severity) ? f.severity : "other";
			const x = cur.x;
			const m = s("path", {
				d: "M" + (x - 5) + " " + (TOP - 10) + "h10l-5 9z",
				class: "marker sev-" + sev, "data-index": cur.idx[0], "data-count": cur.idx.length, tabindex: "0",
			}, s("title", null, "#" + (cur.idx[0] + 1) + " " + str(f.rule) + ": " + str(f.message) +
				(cur.idx.length > 1 ? " (and " + (cur.idx.length - 1) + " more here)" : "")));
			for (const i of cur.idx) ch.markers.set(i, m);
			guide.d.push("M" + x + " " + TOP + "V" + (TOP + PH));
			layers.top.push(m);
			cur = null;
		};
		for (const [t, idx] of se.fnd) {
			if (t < v0 || t > v1 || idx < 0 || idx >= list.length) continue;
			const x = X(t);
			if (cur && Math.abs(cur.x - x) < 1) cur.idx.push(idx);
			else {
				done();
				cur = { x, idx: [idx] };
			}
		}
		done();
		if (guide.d.length) layers.shade.push(s("path", { d: guide.d.join(""), class: "guide" }));
	}

	/* Zoom by dragging, values on hover. */
	function attachPointer(ch) {
		const svg = ch.svg;
		let drag = null;
		const toX = (e) => {
			const r = svg.getBoundingClientRect();
			return ((e.clientX - r.left) * ch.W) / (r.width || ch.W);
		};
		const toT = (x) => {
			const [v0, v1] = ch.st.view;
			return v0 + ((x - LEFT) / (ch.W - RIGHT - LEFT)) * (v1 - v0);
		};
		const clampX = (x) => Math.min(ch.W - RIGHT, Math.max(LEFT, x));
		/* a marker's click or Enter: its finding's row */
		const pick = (e) => {
			const m = e.target.closest && e.target.closest(".marker");
			if (m) highlight(ch.st, Number(m.getAttribute("data-index")), true);
			return m;
		};
		svg.addEventListener("click", pick);
		svg.addEventListener("keydown", (e) => {
			if ((e.key === "Enter" || e.key === " ") && pick(e)) e.preventDefault();
		});
		svg.addEventListener("pointerdown", (e) => {
			if (e.button !== 0 || e.target.closest(".marker")) return;
			const x = toX(e);
			if (x < LEFT || x > ch.W - RIGHT) return;
			drag = x;
			try {
				svg.setPointerCapture(e.pointerId);
			} catch (_) {
				/* a pointer the browser does not track (a synthetic event) */
			}
			e.preventDefault();
		});
		svg.addEventListener("pointermove", (e) => {
			const x = clampX(toX(e));
			if (drag !== null) {
				ch.sel.setAttribute("x", Math.min(drag, x));
				ch.sel.setAttribute("width", Math.abs(x - drag));
				ch.sel.setAttribute("visibility", "visible");
			}
			hover(ch, x, toT(x), e);
		});
		svg.addEventListener("pointerup", (e) => {
			if (drag === null) return;
			const x = clampX(toX(e));
			const a = Math.min(drag, x), b = Math.max(drag, x);
			drag = null;
			ch.sel.setAttribute("visibility", "hidden");
			if (b - a > 4) zoom(ch.st, toT(a), toT(b));
		});
		svg.addEventListener("pointerleave", () => {
			ch.tip.hidden = true;
			ch.cursor.setAttribute("d", "");
		});
	}
	function hover(ch, x, t, e) {
		const tr = Math.round(t);
		const lines = ["t = " + usOf(String(tr)) + " \u00b5s (" + tr + " ps)"];
		for (const se of ch.ss) {
			const i = lowerBound(se.pts, t + 1) - 1;
			const label = "port " + se.port + ": ";
			if (i < 0) {
				lines.push(label + "no value yet");
				continue;
			}
			const p = se.pts[i], fl = p[4] | 0;
			const inside = t < p[0] + se.bucket;
			let txt;
			if (fl & 2 && !isNum(p[3])) txt = "infinite";
			else if (!isNum(p[3])) txt = "unknown";
			else if (inside) txt = "min " + str(p[1]) + " max " + str(p[2]) + " last " + str(p[3]);
			else txt = str(p[3]) + " (since the bucket at " + usOf(String(Math.round(p[0]))) + " \u00b5s)";
			if (inside && fl & 1 && isNum(p[3])) txt += ", partly unknown";
			if (fl & 4) txt += ", uncertain";
			const u = lowerBound(se.upd, p[0]);
			if (inside && se.upd[u] && se.upd[u][0] === p[0]) txt += "; " + plural(se.upd[u][1], "UpdateFC");
			lines.push(label + txt);
		}
		ch.tip.textContent = lines.join("\n");
		ch.tip.hidden = false;
		const wrap = ch.svg.getBoundingClientRect();
		const px = e.clientX - wrap.left;
		ch.tip.style.left = (px > wrap.width / 2 ? px - 12 - ch.tip.offsetWidth : px + 12) + "px";
		ch.tip.style.top = Math.max(0, e.clientY - wrap.top - 10) + "px";
		ch.cursor.setAttribute("d", "M" + r1(x) + " " + TOP + "V" + (TOP + PH));
	}

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
})();
