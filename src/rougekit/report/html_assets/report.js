// rougekit report: the sortable, filterable list of examples, drawn from the JSON blob #rk-data.
// Texts are decoded only for the rows on the current page (and all at once the first time a
// filter needs them). The format of the blob is described in rougekit/report/html_pack.py.
(function () {
  "use strict";
  var blob = document.getElementById("rk-data");
  var root = document.getElementById("examples");
  if (!blob || !root) return;
  var D = JSON.parse(blob.textContent);
  var FINAL = D.final, LEAD = D.lead, SCALE = D.scale, PAGE = 25;
  var n = D.ids.length, S = D.systems.length;
  var finalIndex = {}, leadIndex = {};
  for (var i = 0; i < FINAL.length; i++) finalIndex[FINAL[i]] = i;
  for (i = 0; i < LEAD.length; i++) leadIndex[LEAD[i]] = i;

  function decode(text) {  // word ids of an encoded text
    var out = [], v = 0;
    for (var k = 0; k < text.length; k++) {
      var c = text[k], l = leadIndex[c];
      if (l !== undefined) { v = v * LEAD.length + l; continue; }
      out.push(v * FINAL.length + finalIndex[c]);
      v = 0;
    }
    return out;
  }

  var state = { measure: 0, col: "instance", desc: false, filter: "", page: 0, order: null, refsys: 0 };
  var hlIndex = new Int32Array(n).fill(-1);  // pair -> its place among the highlighted examples
  if (D.hl && D.hl.pairs) D.hl.pairs.forEach(function (p, k) { hlIndex[p] = k; });
  else if (D.hl) for (var q = 0; q < n; q++) hlIndex[q] = q;  // pairs null: every example
  var BITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_", bitIndex = {};
  for (i = 0; i < BITS.length; i++) bitIndex[BITS[i]] = i;
  var searchText = null;  // per pair: every text of it, lower case (built on the first filter)

  function value(m, s, p) { return D.values[m][s][2][p]; }  // the main value (F or score), x SCALE
  function fmt(v) { return (v / SCALE).toFixed(5); }
  function fmtDelta(v) { return (v >= 0 ? "+" : "\u2212") + Math.abs(v / SCALE).toFixed(5); }

  // the columns of the list: instance, a value per system, mean and spread, a difference per pair
  function columns() {
    var cols = [{ key: "instance", label: "instance", get: function (p) { return p; } }];
    D.systems.forEach(function (name, s) {
      cols.push({ key: "s" + s, label: name, num: true, get: function (p) { return value(state.measure, s, p); } });
    });
    if (S > 1) {
      cols.push({ key: "mean", label: "mean", num: true, get: function (p) {
        var t = 0; for (var s = 0; s < S; s++) t += value(state.measure, s, p); return t / S; } });
      cols.push({ key: "spread", label: "max \u2212 min", num: true, get: function (p) {
        var lo = Infinity, hi = -Infinity;
        for (var s = 0; s < S; s++) { var v = value(state.measure, s, p); if (v < lo) lo = v; if (v > hi) hi = v; }
        return hi - lo; } });
      for (var a = 0; a < S; a++) for (var b = a + 1; b < S; b++) (function (a, b) {
        cols.push({ key: "d" + a + "_" + b, label: D.systems[b] + " \u2212 " + D.systems[a], num: true, delta: true,
          get: function (p) { return value(state.measure, b, p) - value(state.measure, a, p); } });
      })(a, b);
    }
    return cols;
  }

  function buildSearch() {
    var words = D.words;
    searchText = new Array(n);
    for (var p = 0; p < n; p++) {
      var parts = [String(D.ids[p])];
      if (D.refs) D.refs[p].forEach(function (r) { parts.push(decode(r).map(function (w) { return words[w]; }).join(" ")); });
      if (D.cands) for (var s = 0; s < S; s++) parts.push(decode(D.cands[s][p]).map(function (w) { return words[w]; }).join(" "));
      searchText[p] = parts.join("\n").toLowerCase();
    }
  }

  function visible() {  // the pair indices shown, filtered and sorted
    var rows = [], p, q = state.filter.trim().toLowerCase();
    if (q) {
      if (!searchText) buildSearch();
      var terms = q.split(/\s+/);
      for (p = 0; p < n; p++) {
        var ok = true;
        for (var t = 0; t < terms.length && ok; t++) ok = searchText[p].indexOf(terms[t]) >= 0;
        if (ok) rows.push(p);
      }
    } else {
      for (p = 0; p < n; p++) rows.push(p);
    }
    var col = columns().filter(function (c) { return c.key === state.col; })[0] || columns()[0];
    var keys = new Float64Array(n);
    for (var k = 0; k < rows.length; k++) keys[rows[k]] = col.get(rows[k]);
    var sign = state.desc ? -1 : 1;
    rows.sort(function (x, y) { return sign * (keys[x] - keys[y]) || x - y; });
    return rows;
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function isMarked(bits, k) {  // run k in a bitmap of six runs a character
    var c = bits ? bits[(k / 6) | 0] : undefined;
    return c !== undefined && ((bitIndex[c] >> (k % 6)) & 1) === 1;
  }

  function runPlaces(codes) {  // per run [word, start, end] from its (word gap, start, length) codes
    var v = decode(codes), out = [], w = 0;
    for (var k = 0; k + 2 < v.length; k += 3) { w += v[k]; out.push([w, v[k + 1], v[k + 1] + v[k + 2]]); }
    return out;
  }

  var ASCII_RUN = /[A-Za-z0-9]+/g;

  // one text: its words (sentence breaks not counted), the runs set in `bits` marked. `places`: the
  // runs' places (per run [word, start, end]); null: the runs are those of ASCII letters and digits
  function textNode(encoded, bits, places, css) {
    var div = el("div", { "class": "text " + css });
    var ids = decode(encoded), line = el("span", { "class": "sent" }), at = 0, run = 0, next = 0;
    div.appendChild(line);
    for (var k = 0; k < ids.length; k++) {
      var w = D.words[ids[k]];
      if (w === "\n") { line = el("span", { "class": "sent" }); div.appendChild(line); continue; }
      if (line.childNodes.length) line.appendChild(document.createTextNode(" "));
      var ranges = [];
      if (bits && !places) {
        ASCII_RUN.lastIndex = 0;
        var m;
        while ((m = ASCII_RUN.exec(w)) !== null) { if (isMarked(bits, run)) ranges.push([m.index, m.index + m[0].length]); run++; }
      } else if (bits && places) {
        while (next < places.length && places[next][0] === at) {
          if (isMarked(bits, next)) ranges.push([places[next][1], places[next][2]]);
          next++;
        }
      }
      var from = 0;
      for (var r = 0; r < ranges.length; r++) {
        if (ranges[r][0] > from) line.appendChild(document.createTextNode(w.slice(from, ranges[r][0])));
        line.appendChild(el("mark", {}, w.slice(ranges[r][0], ranges[r][1])));
        from = ranges[r][1];
      }
      if (from < w.length) line.appendChild(document.createTextNode(w.slice(from)));
      at++;
    }
    return div;
  }

  function marksOf(p) {  // the chosen measure's marks of a highlighted example, or null
    var k = hlIndex[p], M = D.hl && D.hl.marks[String(state.measure)];
    return k >= 0 && M ? { k: k, M: M } : null;
  }

  function places(kind, s, k, r) {  // the runs' places of a text, or null when the page finds them itself
    var R = D.hl.runs;
    if (R === "ascii") return null;
    var c = kind === "ref" ? R.refs[k][r] : R.cands[s][k];
    return c === null ? [] : runPlaces(c);
  }

  function texts(p) {
    var td = el("td", { colspan: String(columns().length), "class": "texts" });
    var hl = marksOf(p);
    if (D.refs) D.refs[p].forEach(function (r, k) {
      var box = el("div", { "class": "ref" });
      var who = "reference" + (D.refs[p].length > 1 ? " " + (k + 1) : "");
      if (hl && S > 1) who += "  (matches of " + D.systems[state.refsys] + ")";
      box.appendChild(el("div", { "class": "who" }, who));
      // a reference's matches depend on the system: those of the system chosen in the controls
      if (hl) box.appendChild(textNode(r, hl.M.ref[state.refsys][hl.k][k], places("ref", 0, hl.k, k), "r"));
      else box.appendChild(textNode(r, null, null, "r"));
      td.appendChild(box);
    });
    if (D.cands) for (var s = 0; s < S; s++) {
      var box = el("div", { "class": "cand" });
      var m = D.measures[state.measure];
      var rp = D.single[state.measure] ? "" :
        "  R " + fmt(D.values[state.measure][s][0][p]) + "  P " + fmt(D.values[state.measure][s][1][p]);
      box.appendChild(el("div", { "class": "who" }, D.systems[s] + "  " + m + " " + fmt(value(state.measure, s, p)) + rp));
      if (hl) box.appendChild(textNode(D.cands[s][p], hl.M.cand[s][hl.k], places("cand", s, hl.k, 0), "c"));
      else box.appendChild(textNode(D.cands[s][p], null, null, "c"));
      td.appendChild(box);
    }
    return td;
  }

  function render() {
    var started = performance.now();
    var cols = columns(), rows = visible();
    state.order = rows;
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    if (state.page >= pages) state.page = pages - 1;
    var table = root.querySelector("table.examples");
    var head = table.querySelector("thead"), body = table.querySelector("tbody");
    head.textContent = "";
    var tr = el("tr");
    cols.forEach(function (c) {
      var arrow = c.key === state.col ? (state.desc ? " \u25bc" : " \u25b2") : "";
      var th = el("th", { "data-col": c.key, "class": c.num ? "num sortable" : "sortable", title: "sort by " + c.label }, c.label + arrow);
      th.addEventListener("click", function () {
        if (state.col === c.key) state.desc = !state.desc;
        else { state.col = c.key; state.desc = !!c.num; }
        state.page = 0; render();
      });
      tr.appendChild(th);
    });
    head.appendChild(tr);
    body.textContent = "";
    var first = state.page * PAGE, last = Math.min(rows.length, first + PAGE);
    var frag = document.createDocumentFragment();
    for (var k = first; k < last; k++) {
      var p = rows[k], row = el("tr", { "class": "row", "data-pair": String(p) });
      cols.forEach(function (c) {
        if (!c.num) { row.appendChild(el("td", { "class": "id" }, String(D.ids[p]))); return; }
        var v = c.get(p);
        row.appendChild(el("td", { "class": "num" + (c.delta && v > 0 ? " up" : c.delta && v < 0 ? " down" : "") },
          c.delta ? fmtDelta(v) : fmt(v)));
      });
      frag.appendChild(row);
      if (D.refs || D.cands) { var t = el("tr", { "class": "texts" }); t.appendChild(texts(p)); frag.appendChild(t); }
    }
    body.appendChild(frag);
    root.querySelector(".count").textContent = rows.length
      ? "rows " + (first + 1) + "\u2013" + last + " of " + rows.length + (rows.length < n ? " (filtered from " + n + ")" : "")
      : "no example matches";
    root.querySelector(".page").textContent = "page " + (state.page + 1) + " of " + pages;
    root.setAttribute("data-rendered", String(Date.now()));
    root.setAttribute("data-render-ms", (performance.now() - started).toFixed(1));  // for the benchmark
    if (window.rkFirstRender === undefined) window.rkFirstRender = performance.now();
  }

  var select = root.querySelector("select.measure");
  D.measures.forEach(function (m, k) { select.appendChild(el("option", { value: String(k) }, m)); });
  select.addEventListener("change", function () { state.measure = +select.value; render(); });
  var refsys = root.querySelector("select.refsys");
  if (refsys) {
    D.systems.forEach(function (name, s) { refsys.appendChild(el("option", { value: String(s) }, name)); });
    refsys.addEventListener("change", function () { state.refsys = +refsys.value; render(); });
  }
  var filter = root.querySelector("input.filter"), timer = null;
  filter.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { state.filter = filter.value; state.page = 0; render(); }, 150);
  });
  root.querySelector("button.prev").addEventListener("click", function () { if (state.page > 0) { state.page--; render(); } });
  root.querySelector("button.next").addEventListener("click", function () { state.page++; render(); });
  root.querySelectorAll("button.preset").forEach(function (b) {
    b.addEventListener("click", function () {
      var kind = b.getAttribute("data-preset");
      state.col = S > 1 ? (kind === "diff" ? "spread" : "mean") : "s0";
      state.desc = kind !== "worst";
      state.page = 0; render();
    });
  });
  render();
})();
