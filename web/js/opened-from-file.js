// @ts-check
// A classic script, not a module: browsers refuse module scripts and workers on a page opened
// from a file (a file: URL), so on such a page nothing else of urlcalc runs. This says so in the
// top bar (body[data-where="file"] shows "opened from a file") and tells how to serve the folder.
// On a served page it does nothing (app.js sets data-where to "served" or "static").
"use strict";
(function () {
  if (location.protocol !== "file:") return;
  document.body.dataset.where = "file";
  var answer = document.getElementById("engine-answer");
  if (answer) answer.textContent = "no engine";
  var note = document.getElementById("request-error");
  if (note) {
    note.textContent = "This page was opened from a file: browsers run no module script and no " +
      "worker from file: URLs, so nothing can compute here. Serve its folder over HTTP instead: " +
      "python3 -m http.server -d FOLDER, then open http://127.0.0.1:8000/ (or run urlcalc serve).";
    note.hidden = false;
  }
  // Copy has nothing to copy here: disabled, saying why (issue 29). Presenter mode needs no
  // engine: it works, from this script.
  var why = "Nothing is computed on a page opened from a file: serve its folder over HTTP to copy results";
  ["copy-md", "copy-wpt"].forEach(function (id) {
    var b = document.getElementById(id);
    if (!b) return;
    b.setAttribute("aria-disabled", "true");
    b.setAttribute("title", why);
    b.dataset.disabledReason = why;
  });
  var presenter = document.getElementById("presenter");
  if (presenter) {
    presenter.addEventListener("click", function () {
      var on = !document.body.classList.contains("presenter");
      document.body.classList.toggle("presenter", on);
      presenter.setAttribute("aria-pressed", String(on));
    });
  }
})();
