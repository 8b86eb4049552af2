/**
 * The portal's stylesheet and scripts, served from /portal.css, /portal.js and
 * /portal/reference.js so that every page runs under a strict content security policy (no inline
 * script or style). Pages read without JavaScript; the script adds the endpoint filter, copy
 * buttons, in-page try-it (free preview, or the broker with this tab's key) and the key panel.
 * The API key lives only in this tab's sessionStorage and is sent only to this origin.
 */

export const PORTAL_CSS = `
:root { color-scheme: light dark; --accent: #b3261e; --muted: #6b6b6b; --line: rgba(127,127,127,.35); --panel: rgba(127,127,127,.08); }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", "Noto Sans JP", sans-serif; margin: 0; overflow-wrap: break-word; }
a { color: inherit; text-decoration-color: var(--accent); text-underline-offset: 2px; }
header.top { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem 1.25rem; padding: .6rem 1.25rem; border-bottom: 3px solid var(--accent); }
header.top .brand { font-weight: 700; text-decoration: none; }
.top-links { display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
.top-links a { text-decoration: none; }
.top-links a:hover, .top-links a:focus, .top-links a[aria-current] { text-decoration: underline; }
a[aria-current] { font-weight: 700; }
.layout { display: grid; grid-template-columns: 15rem minmax(0, 1fr); grid-template-areas: "side main"; gap: 2rem; max-width: 80rem; margin: 0 auto; padding: 0 1.25rem; }
main { grid-area: main; min-width: 0; padding: 1rem 0 3rem; }
nav.side { grid-area: side; padding: 1rem 0; font-size: .95rem; min-width: 0; }
nav.side h2 { font-size: .95rem; margin: 1rem 0 .25rem; border: 0; }
nav.side ul { list-style: none; margin: 0; padding: 0; }
nav.side li { margin: .1rem 0; }
nav.side li a { text-decoration: none; overflow-wrap: anywhere; }
nav.side li a:hover { text-decoration: underline; }
nav.side .filter { display: block; font-weight: 600; }
nav.side .filter input { display: block; width: 100%; margin-top: .25rem; font: inherit; padding: .3rem .4rem; }
nav.side [hidden], .nav-group[hidden], li[hidden] { display: none; }
footer.foot { max-width: 80rem; margin: 0 auto; padding: 1rem 1.25rem 2rem; border-top: 1px solid var(--line); font-size: .9rem; }
h1 { margin-top: .5rem; overflow-wrap: anywhere; }
h1 code { font-size: inherit; }
h2 { margin-top: 2.25rem; border-bottom: 1px solid var(--line); }
.lead { font-size: 1.1rem; }
.crumbs { font-size: .9rem; color: var(--muted); margin: 0; }
.muted { color: var(--muted); }
code, pre { font: 14px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
pre { background: var(--panel); padding: .75rem; border-radius: 6px; white-space: pre-wrap; word-break: break-word; overflow-wrap: anywhere; max-width: 100%; }
pre.result { max-height: 30rem; overflow-y: auto; }
pre.result:empty { display: none; }
.table-wrap { max-width: 100%; overflow-x: auto; margin: .5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
td code { overflow-wrap: anywhere; }
blockquote { border-left: 4px solid var(--accent); margin: 1rem 0; padding: .25rem 1rem; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: .25rem 1rem; margin: .75rem 0; }
.card h3 { margin: .6rem 0 .2rem; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .2rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
details.samples { border: 1px solid var(--line); border-radius: 8px; padding: .4rem .8rem; margin: .5rem 0; }
details.samples summary { cursor: pointer; font-weight: 600; }
details.example-answer { border: 1px solid var(--line); border-radius: 8px; padding: .4rem .8rem; margin: .5rem 0; }
details.example-answer summary { cursor: pointer; }
.sample-label { margin: .5rem 0 .2rem; font-weight: 600; font-size: .9rem; }
.copy { float: right; font: 13px system-ui, sans-serif; padding: .1rem .5rem; margin: -.25rem -.25rem .25rem .5rem; cursor: pointer; }
form.try-it fieldset, .panel { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: .75rem 0; min-width: 0; }
form.try-it legend { font-weight: 600; }
form.try-it .fields { display: flex; flex-wrap: wrap; gap: .4rem 1rem; }
form.try-it label, .panel label { display: inline-flex; flex-wrap: wrap; align-items: baseline; gap: .3rem; max-width: 100%; }
input, select, button { font: inherit; max-width: 100%; }
input, select { padding: .15rem .35rem; }
button { padding: .3rem .9rem; cursor: pointer; }
form.try-it .buttons { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .75rem; }
.warn { border-color: var(--accent); border-width: 2px; }
.error { color: var(--accent); font-weight: 600; }
/* Swagger UI draws dark text on the page's background: keep its panel light in a dark scheme too. */
.reference { min-height: 20rem; color-scheme: light; background: #fff; color: #3b4151; border-radius: 8px; }
@media (max-width: 760px) {
  .layout { grid-template-columns: minmax(0, 1fr); grid-template-areas: "main" "side"; gap: 0; }
  nav.side { border-top: 1px solid var(--line); }
  header.top { padding: .5rem 1rem; }
  .layout { padding: 0 1rem; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.stack tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .6rem; }
  table.stack td { border: 0; border-bottom: 1px solid var(--line); }
  table.stack td:last-child { border-bottom: 0; }
  table.stack td::before { content: attr(data-label); display: block; font-size: .8rem; font-weight: 600; color: var(--muted); }
  table.stack td:empty { display: none; }
  .reference .swagger-ui .opblock-tag { flex-wrap: wrap; }
  .reference .swagger-ui .opblock-tag small { flex: 1 1 100%; padding: .25rem 0 0; }
  .reference .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .reference .swagger-ui .opblock .opblock-summary-path { max-width: 100%; overflow-wrap: anywhere; word-break: break-all; }
  .reference .swagger-ui .info { margin: 1rem 0; }
  .reference .swagger-ui .wrapper { padding: 0; }
  dl.facts { grid-template-columns: minmax(0, 1fr); }
  dl.facts dd { margin-bottom: .4rem; }
}
`;

export const PORTAL_SCRIPT = `"use strict";
(function () {
  var KEY = "jpgw-portal-api-key";
  function storedKey() { try { return sessionStorage.getItem(KEY) || ""; } catch (e) { return ""; } }
  function storeKey(k) { try { if (k) sessionStorage.setItem(KEY, k); else sessionStorage.removeItem(KEY); } catch (e) { /* storage off */ } }
  function show(el, on) { if (el) el.hidden = !on; }
  function pretty(text) { try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; } }

  // Endpoint filter over the navigation (the full list is the fallback without JavaScript).
  var filter = document.getElementById("endpoint-filter");
  if (filter) {
    show(filter.parentElement, true);
    var empty = document.querySelector("nav.side .filter-empty");
    filter.addEventListener("input", function () {
      var q = filter.value.trim().toLowerCase();
      var any = false;
      document.querySelectorAll("nav.side .nav-group").forEach(function (group) {
        var visible = 0;
        group.querySelectorAll("li").forEach(function (li) {
          var hit = !q || (li.getAttribute("data-search") || "").indexOf(q) !== -1;
          li.hidden = !hit;
          if (hit) visible++;
        });
        group.hidden = visible === 0;
        if (visible) any = true;
      });
      show(empty, !any);
    });
  }

  // A copy button on every code block.
  function copyText(text, button) {
    var done = function () { var t = button.textContent; button.textContent = "Copied"; setTimeout(function () { button.textContent = t; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { button.textContent = "Select and copy"; });
    else button.textContent = "Select and copy";
  }
  document.querySelectorAll("pre.code:not(.result)").forEach(function (pre) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "copy"; b.textContent = "Copy";
    b.addEventListener("click", function () { copyText(pre.querySelector("code") ? pre.querySelector("code").textContent : pre.textContent, b); });
    pre.insertBefore(b, pre.firstChild);
  });

  // Try-it: the free preview, or the broker with this tab's key.
  function formQuery(form) {
    var query = {}, params = new URLSearchParams();
    form.querySelectorAll("input[name], select[name]").forEach(function (el) {
      if (el.value === "") return;
      params.append(el.name, el.value);
      query[el.name] = el.type === "number" && el.value.trim() !== "" && !isNaN(Number(el.value)) ? Number(el.value) : el.value;
    });
    return { query: query, params: params };
  }
  function render(out, line, res, text, extra) {
    out.textContent = line + "\\nHTTP " + res.status + (extra || "") + "\\n\\n" + pretty(text);
  }
  document.querySelectorAll("form.try-it").forEach(function (form) {
    var out = form.querySelector(".result");
    var brokerButton = form.querySelector(".send-broker");
    var note = form.querySelector(".key-note");
    function refreshKeyNote() {
      var k = storedKey();
      show(brokerButton, true);
      show(note, true);
      note.textContent = "";
      if (k) {
        note.appendChild(document.createTextNode("Using the key " + k.slice(0, 12) + "… of this tab. "));
      } else {
        note.appendChild(document.createTextNode("No API key in this tab: "));
        var a = document.createElement("a"); a.href = "/portal/keys"; a.textContent = "create one on the keys page";
        note.appendChild(a);
        note.appendChild(document.createTextNode(" to try the broker."));
      }
    }
    refreshKeyNote();
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var q = formQuery(form);
      var url = form.getAttribute("data-preview") + (q.params.toString() ? "?" + q.params.toString() : "");
      out.textContent = "GET " + url + " ...";
      fetch(url, { headers: { accept: "application/json" } })
        .then(function (res) { return res.text().then(function (text) { render(out, "GET " + url, res, text); }); })
        .catch(function (err) { out.textContent = "GET " + url + " failed: " + err; });
    });
    brokerButton.addEventListener("click", function () {
      var k = storedKey();
      if (!k) { refreshKeyNote(); out.textContent = "No API key in this tab: create one on the keys page (/portal/keys)."; return; }
      if (!form.reportValidity()) return;
      var body = { product_id: form.getAttribute("data-broker-id"), query: formQuery(form).query };
      var line = "POST /broker/call " + JSON.stringify(body);
      out.textContent = line + " ...";
      fetch("/broker/call", { method: "POST", headers: { "content-type": "application/json", "x-api-key": k }, body: JSON.stringify(body) })
        .then(function (res) {
          return res.text().then(function (text) {
            var charged = res.headers.get("X-Credit-Charged-Micro-USDC");
            var left = res.headers.get("X-Credit-Balance-Micro-USDC");
            render(out, line, res, text, (charged !== null ? "  charged " + charged + " micro-USDC" : "") + (left !== null ? ", balance " + left + " micro-USDC" : ""));
          });
        })
        .catch(function (err) { out.textContent = line + " failed: " + err; });
    });
  });

  // The key panel (/portal/keys).
  var panel = document.getElementById("key-panel");
  if (panel) {
    show(panel, true);
    var errorBox = document.getElementById("key-error");
    var statusBox = document.getElementById("key-status");
    function fail(message) { errorBox.textContent = message; show(errorBox, true); }
    function text(id, value) { document.getElementById(id).textContent = value; }
    // Amounts read as USD, like every other page (1 USDC = 1 USD); the unit of the raw figure stays.
    function money(m) { return m ? m.usdc + " USD (" + m.micro_usdc + " micro-USDC)" : ""; }
    function refresh() {
      var k = storedKey();
      show(statusBox, Boolean(k));
      if (!k) return;
      show(errorBox, false);
      text("key-prefix", k.slice(0, 12) + "…");
      fetch("/keys/status", { headers: { "x-api-key": k, accept: "application/json" } })
        .then(function (res) {
          if (!res.ok) return res.text().then(function (t) { fail("/keys/status answered " + res.status + ": " + t); });
          return res.json().then(function (st) {
            text("key-balance", money(st.balance));
            var calls = st.spent ? st.spent.calls : 0;
            text("key-spent", money(st.spent) + " in " + calls + (calls === 1 ? " call" : " calls"));
            text("key-trial", money(st.trial_credit));
            var tbody = document.querySelector("#key-recent tbody");
            tbody.textContent = "";
            (st.recent_usage || []).forEach(function (u) {
              var tr = document.createElement("tr");
              [["at", u.at], ["broker id", u.broker_id], ["price", u.price_usdc + " USD"], ["status", u.status]].forEach(function (cell) {
                var td = document.createElement("td"); td.setAttribute("data-label", cell[0]); td.textContent = String(cell[1]); tr.appendChild(td);
              });
              tbody.appendChild(tr);
            });
            if (!st.recent_usage || st.recent_usage.length === 0) {
              var tr = document.createElement("tr"); var td = document.createElement("td");
              td.colSpan = 4; td.textContent = "No calls yet: try an endpoint from its page."; tr.appendChild(td); tbody.appendChild(tr);
            }
          });
        })
        .catch(function (err) { fail("/keys/status failed: " + err); });
    }
    document.getElementById("key-create").addEventListener("submit", function (event) {
      event.preventDefault();
      show(errorBox, false);
      var label = event.target.querySelector("input[name=owner_label]").value;
      fetch("/keys/create", { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ owner_label: label }) })
        .then(function (res) {
          return res.json().then(function (body) {
            if (res.status !== 201) { fail("/keys/create answered " + res.status + ": " + (body.message || body.error)); return; }
            storeKey(body.api_key);
            text("key-value", body.api_key);
            show(document.getElementById("key-created"), true);
            refresh();
          });
        })
        .catch(function (err) { fail("/keys/create failed: " + err); });
    });
    document.getElementById("key-copy").addEventListener("click", function (event) {
      copyText(document.getElementById("key-value").textContent, event.target);
    });
    document.getElementById("key-use").addEventListener("submit", function (event) {
      event.preventDefault();
      var input = event.target.querySelector("input[name=api_key]");
      storeKey(input.value.trim());
      input.value = "";
      refresh();
    });
    document.getElementById("key-refresh").addEventListener("click", refresh);
    document.getElementById("key-forget").addEventListener("click", function () {
      storeKey("");
      show(document.getElementById("key-created"), false);
      text("key-value", "");
      refresh();
    });
    refresh();
  }
})();
`;

/** Starts Swagger UI (served from this origin) on the reference page, reading /openapi.json. */
export const REFERENCE_SCRIPT = `"use strict";
window.addEventListener("DOMContentLoaded", function () {
  if (typeof SwaggerUIBundle !== "function") return;
  SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    docExpansion: "none",
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false
  });
});
`;
