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
})();
