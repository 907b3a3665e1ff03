/* page_charts.js: the charts of the HTML report (one inline SVG per link,
 * VC and credit type; zoom, hover, markers).  Part of page.js's script:
 * embedded after it, in the same script element (see page.js). */
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
		/* a merge of a part made without --with-charts */
		const why = typeof input.charts_missing === "string"
			? "No charts: " + input.charts_missing + "." : "No credit values to draw.";
		box.appendChild(h("p", { class: "none" }, why));
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
