/* html-interact.js: run by tests/html-browser-check.py --interact after
 * page.js, in a copy of the page: drives the report as a user would
 * (hover, drag to zoom, reset, a marker's click, a row's click, a filter,
 * the time sort) and writes what happened to body data-interact as JSON
 * ({"ok": [...], "fail": [...]}).  Needs an input with a chart marker. */
"use strict";
(function () {
	const ok = [], bad = [];
	const expect = (cond, what) => (cond ? ok : bad).push(what);
	try {
		const marker = document.querySelector("svg.chart .marker");
		const sec = marker ? marker.closest("section.input") : document.querySelector("section.input");
		const svgs = [...sec.querySelectorAll("svg.chart")];
		const svg = marker ? marker.ownerSVGElement : svgs[0];
		const labels = (g) => [...g.querySelectorAll(".xlab")].map((t) => t.textContent).join(" ");
		const r = svg.getBoundingClientRect();
		const pe = (type, fx) =>
			svg.dispatchEvent(new PointerEvent(type, {
				bubbles: true, cancelable: true, pointerId: 7, isPrimary: true, button: 0, buttons: 1,
				clientX: r.left + r.width * fx, clientY: r.top + r.height * 0.5,
			}));
		/* hover: the tooltip names the time and each port */
		pe("pointermove", 0.5);
		const tip = svg.parentNode.querySelector(".tip");
		expect(tip && !tip.hidden && /^t = [0-9.]+ \u00b5s/.test(tip.textContent) && /port (down|up): /.test(tip.textContent),
			"hover tooltip: " + (tip && tip.textContent));
		/* drag from 30 % to 60 %: every chart of the input zooms */
		const before = svgs.map(labels);
		pe("pointerdown", 0.3);
		pe("pointermove", 0.6);
		const sel = svg.querySelector(".sel");
		expect(sel && sel.getAttribute("visibility") === "visible", "selection shown while dragging");
		pe("pointerup", 0.6);
		const after = svgs.map(labels);
		expect(after.every((l, i) => l !== before[i]), "zoom changes the time axis of all " + svgs.length + " charts");
		expect(svgs.every((g) => Number(g.getAttribute("data-points")) >= 0), "charts redrawn");
		sec.querySelector("button.reset").click();
		expect(svgs.map(labels).every((l, i) => l === before[i]), "reset zoom restores the axes");
		/* a marker's click: its finding's row shown and lit */
		if (marker) {
			/* the last marker: its row may be on a later page of the table */
			const all = sec.querySelectorAll("svg.chart .marker");
			const m = all[all.length - 1];
			const idx = m.getAttribute("data-index");
			m.dispatchEvent(new MouseEvent("click", { bubbles: true }));
			const row = sec.querySelector('tr[data-index="' + idx + '"]');
			expect(row && row.classList.contains("hl") && !row.hidden && row.children.length === 11,
				"marker click shows and lights row " + idx + " (" + sec.querySelector(".shown").textContent + ")");
			expect(m.classList.contains("hl") || sec.querySelector(".marker.hl"), "the clicked marker lit");
			/* a row's click lights its marker (the same finding) */
			sec.querySelector('tr[data-index="0"]') && row.click();
			expect(sec.querySelector('.marker.hl[data-index="' + idx + '"]'), "row click lights the marker");
		}
		/* a filter: severity = the first finding's */
		const selSev = sec.querySelector('select[data-filter="severity"]');
		if (selSev && selSev.options.length > 1) {
			const want = selSev.options[1].value;
			selSev.value = want;
			selSev.dispatchEvent(new Event("change"));
			const vis = [...sec.querySelectorAll("tr[data-index]")].filter((t) => !t.hidden);
			expect(vis.length > 0 && vis.every((t) => t.children[8].textContent === want), "severity filter " + want);
			selSev.value = "";
			selSev.dispatchEvent(new Event("change"));
		}
		/* the time sort, both ways */
		const sort = sec.querySelector("button.sort");
		if (sort) {
			const times = () => [...sec.querySelectorAll("tr[data-index]")].filter((t) => !t.hidden)
				.map((t) => t.children[1].getAttribute("title")).filter((x) => x).map((x) => Number(x.split(" ")[0]));
			sort.click();
			let t = times();
			expect(t.every((v, i) => !i || t[i - 1] <= v), "sort ascending");
			sort.click();
			t = times();
			expect(t.every((v, i) => !i || t[i - 1] >= v), "sort descending");
		}
	} catch (e) {
		bad.push("exception: " + (e && e.stack ? e.stack : e));
	}
	document.body.dataset.interact = JSON.stringify({ ok, fail: bad });
})();
