/**
 * The portal's stylesheet and script, served from /portal.css and /portal.js so that the page
 * runs under a strict content security policy (no inline script or style). The page works
 * without JavaScript; the script only turns each try-it form into an in-page call.
 */

export const PORTAL_CSS = `
:root { color-scheme: light dark; --accent: #b3261e; --muted: #666; }
body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", "Noto Sans JP", sans-serif; margin: 0; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; }
h1 { border-bottom: 3px solid var(--accent); padding-bottom: .3rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
h4 { margin-top: 2rem; }
code, pre { font: 14px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: rgba(127,127,127,.12); padding: .75rem; overflow-x: auto; border-radius: 6px; }
table { border-collapse: collapse; margin: .5rem 0 1rem; display: block; overflow-x: auto; }
th, td { border: 1px solid rgba(127,127,127,.4); padding: .3rem .5rem; text-align: left; vertical-align: top; }
blockquote { border-left: 4px solid var(--accent); margin: 1rem 0; padding: .25rem 1rem; }
form.try-it { border: 1px solid rgba(127,127,127,.5); border-radius: 8px; padding: .75rem 1rem; margin: .75rem 0 1.5rem; }
form.try-it legend { font-weight: 600; }
form.try-it label { display: inline-block; margin: .25rem 1rem .25rem 0; }
form.try-it input, form.try-it select { font: inherit; padding: .15rem .35rem; }
form.try-it button { font: inherit; padding: .3rem .9rem; cursor: pointer; }
form.try-it .result { max-height: 28rem; }
form.try-it .result:empty { display: none; }
.muted { color: var(--muted); }
`;

export const PORTAL_SCRIPT = `"use strict";
document.querySelectorAll("form.try-it").forEach(function (form) {
  var out = form.querySelector(".result");
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string" && value !== "") params.append(name, value);
    });
    var url = form.getAttribute("data-preview") + (params.toString() ? "?" + params.toString() : "");
    out.textContent = "GET " + url + " ...";
    fetch(url, { headers: { accept: "application/json" } })
      .then(function (res) {
        return res.text().then(function (text) {
          var shown = text;
          try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: show as is */ }
          out.textContent = "GET " + url + "\\nHTTP " + res.status + "\\n\\n" + shown;
        });
      })
      .catch(function (err) { out.textContent = "GET " + url + " failed: " + err; });
  });
});
`;
