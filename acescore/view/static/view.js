/* acescore view: a little vanilla JavaScript, no framework, no network.
 *
 * index.html: sortable tables.
 * doc/*.html: click a mention in the text (or a mention link in a table) to select it; its
 * partner (the mapped mention of the other side) is highlighted, and the element rows of
 * both in the tables.  Clicking the same place again cycles through the mentions that
 * overlap there.  Hovering a marked span explains the mentions under it.
 *
 * Self-test hooks (used by the headless-browser test, harmless otherwise):
 *   doc page   ?selftest=KEY  clicks mention KEY and checks that its partner is highlighted
 *   doc page   ?selftest=describe  writes every mention as the info panel describes it
 *                             (with its partner and arguments)
 *   index page ?selftest=sort sorts the documents by the first task and checks the order
 * The result is written into #selftest (data-status="pass" or "fail") together with the
 * JavaScript errors seen so far (data-errors), where `chromium --dump-dom` can read it.
 */
(function () {
  "use strict";

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }
  function errors() { return window.__acescoreErrors || []; }

  function showErrors() {
    var el = $("#js-errors"), errs = errors();
    if (!el) { return; }
    el.textContent = errs.join("\n");
    el.hidden = errs.length === 0;
  }

  function reportSelftest(ok, detail) {
    var el = $("#selftest");
    if (!el) { return; }
    var errs = errors();
    el.setAttribute("data-status", ok && errs.length === 0 ? "pass" : "fail");
    el.setAttribute("data-errors", String(errs.length));
    el.textContent = detail + (errs.length ? "\nerrors:\n" + errs.join("\n") : "");
    el.hidden = false;
  }

  /* ---- sortable tables ------------------------------------------------------------- */
  function cellKey(td, type) {
    var v = td.hasAttribute("data-sort") ? td.getAttribute("data-sort") : td.textContent.trim();
    if (type === "num") {
      var x = parseFloat(v);
      return isNaN(x) ? null : x;
    }
    return v.toLowerCase();
  }

  function sortTable(table, col, dir) {
    var th = table.tHead.rows[0].cells[col];
    var type = th.getAttribute("data-type") || "text";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellKey(a.cells[col], type), y = cellKey(b.cells[col], type);
      if (x === null && y === null) { return 0; }
      if (x === null) { return 1; }            /* empty cells last, either direction */
      if (y === null) { return -1; }
      return (x < y ? -1 : x > y ? 1 : 0) * dir;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    $all("th", table.tHead).forEach(function (h) { h.classList.remove("asc", "desc"); });
    th.classList.add(dir > 0 ? "asc" : "desc");
  }

  function initSortable() {
    $all("table.sortable").forEach(function (table) {
      $all("th", table.tHead.rows[0]).forEach(function (th, col) {
        th.addEventListener("click", function () {
          var dir = th.classList.contains("asc") ? -1 : 1;
          sortTable(table, col, dir);
        });
      });
    });
  }

  function indexSelftest() {
    var table = $("#docs");
    var th = table && $("th[data-task]", table.tHead);
    if (!th) { return reportSelftest(true, "no task column to sort"); }
    th.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    var col = th.cellIndex;
    var vals = Array.prototype.slice.call(table.tBodies[0].rows).map(function (r) {
      return cellKey(r.cells[col], "num");
    }).filter(function (v) { return v !== null; });
    for (var i = 1; i < vals.length; i++) {
      if (vals[i - 1] > vals[i]) { return reportSelftest(false, "not sorted at row " + i); }
    }
    reportSelftest(true, "sorted " + vals.length + " documents by " + th.textContent);
  }

  /* ---- document pages -------------------------------------------------------------- */
  var WHAT = { entity: "entity mention", value: "value mention", timex2: "timex2 mention",
               relation: "relation mention", event: "event mention" };

  /* The page data (view_page.py, DocPage.data_json: what the marks of an element share is
   * said once, in the element's entry) -> {m: [a record per mark: k key, sd side, kd kind,
   * el element ID, ek element key, id mention ID, x/h/an ranges of text segments, p the key
   * of its partner, pe the key of the partner element, st status, t title, n notes,
   * e errors, a the keys of its arguments], el: {element key: {row: table row ID,
   * m: the keys of its marks}}}. */
  function pageMarks(data) {
    var list = [], el = {}, owner = [];
    data.e.forEach(function (E) {
      var s = E.sd.charAt(0), ek = s + ":" + E.kd + ":" + E.el, keys = [];
      el[ek] = { row: E.r || "row-" + ek, m: keys };
      for (var j = 0; j < E.c; j++) {
        keys.push(s + owner.length);
        owner.push(E);
      }
    });
    data.m.forEach(function (a, i) {
      var E = owner[i], sd = E.sd, kd = E.kd, os = sd === "REF" ? "SYS" : "REF";
      var more = a[8] || {}, st = a[4];
      var n = ["of " + kd + " " + E.el + ": " + E.a];
      if (a[7] !== null) { n.push(a[7]); }
      n = n.concat(E.n);
      if (st === "ok") {
        n.push(a[5] !== null ?
               "mapped to " + os + " mention " + data.m[a[5]][0] + " of " + kd + " " + E.o :
               kd + " mapped to " + os + " " + kd + " " + E.o +
               " (mentions are not mapped under this parameter set)");
      } else if (st === "mmiss") {
        n.push("MENTION MISS: " + kd + " " + E.el + " is mapped to " + E.o +
               ", but no SYS mention corresponds to this one");
      } else if (st === "mfa") {
        n.push("MENTION FALSE ALARM: " + kd + " " + E.el + " is mapped to " + E.o +
               ", but no REF mention corresponds to this one");
      }
      list.push({
        k: sd.charAt(0) + i, sd: sd, kd: kd, el: E.el, ek: sd.charAt(0) + ":" + kd + ":" + E.el,
        id: a[0], x: a[1], h: a[2], an: a[3], st: st,
        p: a[5] === null ? null : os.charAt(0) + a[5],
        pe: E.o === null ? null : os.charAt(0) + ":" + kd + ":" + E.o,
        t: sd + " " + WHAT[kd] + " " + a[0] + (a[6] ? " (" + a[6] + ")" : ""),
        n: n.concat(more.n || []), e: E.e.concat(more.e || []), a: more.a || []
      });
    });
    return { m: list, el: el };
  }

  function initDoc() {
    var dataEl = $("#doc-data");
    if (!dataEl) { return; }
    var data = pageMarks(JSON.parse(dataEl.textContent));
    var M = {};
    data.m.forEach(function (m) { M[m.k] = m; });
    var textEl = $("#text");
    var segs = textEl ? textEl.children : [];
    var info = $("#info"), tip = $("#tip");
    var marked = [], rowsMarked = [];
    var current = null;

    function scrollText(seg) {          /* scroll the text box (only) to show seg */
      var box = textEl.getBoundingClientRect(), r = seg.getBoundingClientRect();
      textEl.scrollTop += r.top - box.top - textEl.clientHeight / 2;
    }
    function mark(range, cls) {
      if (!range) { return; }
      for (var i = range[0]; i < range[1]; i++) {
        segs[i].classList.add(cls);
        marked.push([segs[i], cls]);
      }
    }
    function clear() {
      marked.forEach(function (p) { p[0].classList.remove(p[1]); });
      rowsMarked.forEach(function (p) { p[0].classList.remove(p[1]); });
      marked = []; rowsMarked = [];
    }
    function markRow(ek, cls) {
      var el = ek && data.el[ek];
      var row = el && document.getElementById(el.row);
      if (row) { row.classList.add(cls); rowsMarked.push([row, cls]); }
      return row;
    }
    function describe(m, cls) {
      var h = '<div class="box ' + cls + '"><b>' + esc(m.t) + "</b><ul>";
      m.n.forEach(function (n) { h += "<li>" + esc(n) + "</li>"; });
      m.e.forEach(function (e) { h += '<li class="err">' + esc(e) + "</li>"; });
      return h + "</ul></div>";
    }

    function select(k, scroll) {
      clear();
      var m = M[k];
      if (!m) { current = null; return; }
      current = k;
      if (textEl) {
        textEl.classList.toggle("selref", m.sd === "REF");
        textEl.classList.toggle("selsys", m.sd !== "REF");
      }
      var p = m.p ? M[m.p] : null;
      if (m.pe && data.el[m.pe]) {
        data.el[m.pe].m.forEach(function (k2) { if (k2 !== m.p) { mark(M[k2].x, "pel"); } });
      }
      m.a.forEach(function (k2) { if (M[k2]) { mark(M[k2].x, "arg"); } });
      mark(m.x, "sel");
      mark(m.h || m.an, "selh");
      if (p) {
        mark(p.x, "partner");
        mark(p.h || p.an, "partnerh");
      }
      markRow(m.ek, "hl");
      if (m.pe) { markRow(m.pe, "hlp"); }
      var h = describe(m, "sel");
      if (p) {
        h += "<h4>partner</h4>" + describe(p, "partner");
      } else if (m.pe) {
        h += '<h4>partner</h4><p class="muted">no corresponding mention; the mentions of the ' +
             "mapped element are shaded light blue</p>";
      }
      if (m.a.length) {
        h += '<h4>arguments</h4><ul>' + m.a.map(function (k2) {
          return "<li>" + esc(M[k2].t) + "</li>";
        }).join("") + "</ul>";
      }
      if (m.x === null || m.x === undefined) {
        h += '<p class="muted">not shown in the text (no text offsets)</p>';
      }
      if (info) { info.innerHTML = h; }
      if (scroll && m.x && segs[m.x[0]]) {
        textEl.scrollIntoView({ block: "nearest" });
        scrollText(segs[m.x[0]]);
      }
    }

    if (textEl) {
      textEl.addEventListener("click", function (ev) {
        var seg = ev.target.closest("span[data-c]");
        if (!seg) { return; }
        var keys = seg.getAttribute("data-c").split(" ");
        var i = keys.indexOf(current);
        select(keys[(i + 1) % keys.length], false);
      });
      textEl.addEventListener("mouseover", function (ev) {
        var seg = ev.target.closest("span[data-c]");
        if (!seg || !tip) { return; }
        var h = "";
        seg.getAttribute("data-c").split(" ").forEach(function (k) {
          var m = M[k];
          if (!m) { return; }
          h += '<div class="m"><b>' + esc(m.t) + "</b><br>" + m.n.map(esc).join("<br>");
          if (m.e.length) { h += '<br><span class="err">' + m.e.map(esc).join("<br>") + "</span>"; }
          h += "</div>";
        });
        tip.innerHTML = h;
        tip.hidden = false;
      });
      textEl.addEventListener("mousemove", function (ev) {
        if (!tip || tip.hidden) { return; }
        var x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
        var y = ev.clientY + 18;
        if (y + tip.offsetHeight > window.innerHeight) { y = ev.clientY - tip.offsetHeight - 12; }
        tip.style.left = Math.max(0, x) + "px";
        tip.style.top = Math.max(0, y) + "px";
      });
      textEl.addEventListener("mouseout", function (ev) {
        if (tip && !(ev.relatedTarget && ev.relatedTarget.closest && ev.relatedTarget.closest("span[data-c]"))) {
          tip.hidden = true;
        }
      });
    }
    document.addEventListener("click", function (ev) {
      var a = ev.target.closest("a.ml");
      if (!a) { return; }
      ev.preventDefault();
      select(a.getAttribute("data-k"), true);
    });

    var q = new URLSearchParams(window.location.search);
    var st = q.get("selftest");
    if (st === "describe") {            /* every mark as the info panel shows it */
      reportSelftest(true, "described " + data.m.length + " marks");
      $("#selftest").insertAdjacentHTML("beforeend", data.m.map(function (m) {
        return '<div data-k="' + m.k + '" data-p="' + (m.p || "") + '" data-a="' + m.a.join(" ") +
               '">' + describe(m, "sel") + "</div>";
      }).join(""));
      return;
    }
    if (st) {
      var m = M[st];
      if (!m) { return reportSelftest(false, "no mention " + st); }
      var r = m.h || m.an || m.x;
      if (!r) { return reportSelftest(false, "mention " + st + " is not in the text"); }
      var seg = segs[r[0]];
      scrollText(seg);                      /* as a reader would, before clicking */
      for (var n = 0; n < 20 && current !== st; n++) {
        seg.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      }
      if (current !== st) { return reportSelftest(false, "clicking did not select " + st); }
      var p = M[m.p];
      if (!p || !p.x) { return reportSelftest(false, "mention " + st + " has no partner in the text"); }
      var bad = 0, total = 0;
      for (var i = p.x[0]; i < p.x[1]; i++) {
        total++;
        if (!segs[i].classList.contains("partner") && !segs[i].classList.contains("partnerh")) { bad++; }
      }
      var panel = info && info.textContent.indexOf(p.id) >= 0;
      var row = data.el[p.ek] && document.getElementById(data.el[p.ek].row);
      var rowOk = row && (row.classList.contains("hlp") || row.classList.contains("hl"));
      reportSelftest(total > 0 && bad === 0 && panel && rowOk,
                     "selected " + st + " (" + m.id + "); partner " + m.p + " (" + p.id + "): " +
                     (total - bad) + "/" + total + " spans highlighted; info panel " +
                     (panel ? "names" : "does not name") + " the partner; table row " +
                     (rowOk ? "highlighted" : "not highlighted"));
    }
  }

  function init() {
    initSortable();
    if (document.body.classList.contains("doc")) {
      initDoc();
    } else if (new URLSearchParams(window.location.search).get("selftest") === "sort") {
      indexSelftest();
    }
    showErrors();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
