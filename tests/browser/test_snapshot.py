"""The boot snapshot (web/tools/make-snapshot.mjs, `make snapshot`) in Chromium: the page's worker
booted from it answers every request of urlcalc.answers.warmup (every kind, every encoding, every
edition's grammar) exactly as a normal boot does, with no standard library zip and no
bundle.zip; a stale, corrupt or missing snapshot (or boot.json) is a normal boot that answers and
says why; the served page's cold boot stays within its byte budget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from liveserver import Offline, frag
from playwright.sync_api import expect

from benchmarks.serve import static_server
from urlcalc.answers.answer import answer
from urlcalc.answers.warmup import REQUESTS
from urlcalc.editions import EDITIONS
from urlcalc.site import files as page_site
from urlcalc.site.export import export_static
from urlcalc.standard.encoding import ENCODING_NAMES

# Every request the snapshot must answer without importing anything more.
ALL_REQUESTS: list[tuple[str, dict[str, Any]]] = [
    *REQUESTS,
    *(("random", {"edition": name, "seed": 3}) for name in EDITIONS),
    *(("percent", {"input": "x\u00e9\u4e00", "encoding": name}) for name in ENCODING_NAMES),
    *(("parse", {"input": "http://a.com/?\u00e9", "encoding": name}) for name in ENCODING_NAMES),
    ("parse", {"input": "http://\u00e9.com/\u00df?\u00e9", "trace": True}),
    ("set", {"input": "http://a.com/", "ops": [["bogus", "x"]]}),
    ("parse", {"input": 1}),
]

# Boots /js/workers/pyodide-worker.js in the page (the page itself runs no worker: ?engine=server),
# asks every request and returns the worker's info, its answers and the files it fetched.
RUN_WORKER = """async (requests) => {
  const worker = new Worker("/js/workers/pyodide-worker.js", { type: "module" });
  const info = await new Promise((resolve, reject) => {
    worker.addEventListener("message", (e) => {
      if (e.data.type === "ready") resolve(e.data.info);
      if (e.data.type === "error") reject(new Error(e.data.error));
    });
  });
  const answers = [];
  for (const [i, [kind, params]] of requests.entries()) {
    answers.push(await new Promise((resolve) => {
      const listener = (e) => {
        if (e.data.id !== i) return;
        worker.removeEventListener("message", listener);
        resolve(e.data.envelope);
      };
      worker.addEventListener("message", listener);
      worker.postMessage({ id: i, kind, params });
    }));
  }
  worker.terminate();
  return { info, answers };
}"""


def _boot(browser: Any, server_url: str, routes: dict[str, Any] | None = None
          ) -> tuple[dict[str, Any], list[Any], list[str], list[str]]:
    """(worker info, answers, paths fetched, console messages) of one worker boot in a fresh
    context; ``routes``: path -> a Playwright route handler replacing the server's answer."""
    context = browser.new_context()
    offline = Offline()
    offline.watch(context)
    for path, handler in (routes or {}).items():
        context.route(f"**{path}", handler)
    fetched: list[str] = []
    context.on("request", lambda r: fetched.append(r.url.removeprefix(server_url)))
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    try:
        page.goto(server_url + "?engine=server#" + frag(input="x"))
        result = page.evaluate(RUN_WORKER, [[kind, params] for kind, params in ALL_REQUESTS])
    finally:
        context.close()
    assert offline.blocked == []
    # each an envelope {id, status, body} (urlcalc.answers.answer.answer_envelope)
    answers = [json.loads(a) for a in result["answers"]]
    return result["info"], answers, fetched, console


@pytest.fixture(scope="module")
def normal(browser: Any, server_url: str) -> tuple[dict[str, Any], list[Any]]:
    def no_snapshot(route: Any) -> None:
        route.fulfill(status=404, content_type="application/json", body='{"error": "none"}')

    info, answers, fetched, _ = _boot(browser, server_url, {"/boot.json": no_snapshot})
    assert info["boot"]["kind"] == "normal"
    assert any(p.endswith("python_stdlib.zip") for p in fetched)
    return info, answers


@pytest.fixture(scope="module")
def snapshot_site() -> page_site.Site:
    site = page_site.locate()
    if site.snapshot_path() is None:
        pytest.fail("no boot snapshot made from this bundle.zip: run `make snapshot`")
    return site


def test_snapshot_boot_answers_as_a_normal_boot(browser: Any, server_url: str,
                                                normal: tuple[dict[str, Any], list[Any]],
                                                snapshot_site: page_site.Site) -> None:
    info, answers, fetched, console = _boot(browser, server_url)
    assert info["boot"] == {"kind": "snapshot", "reason": None}, info["boot"]
    # no standard library, no bundle: everything is in the snapshot
    assert not [p for p in fetched if p.endswith(("python_stdlib.zip", "bundle.zip"))], fetched
    assert "boot/snapshot.bin" in fetched
    normal_info, normal_answers = normal
    assert len(answers) == len(ALL_REQUESTS)
    for (kind, params), got, expected in zip(ALL_REQUESTS, answers, normal_answers, strict=True):
        assert got == expected, (kind, params)
    # each envelope with its request's id and the status CPython answers it with (the two bad
    # requests at the end, a bogus setter and an input that is no string: 400 and their error)
    assert [a["id"] for a in answers] == list(range(len(ALL_REQUESTS)))
    assert [a["status"] for a in answers] == [answer(k, p)[0] for k, p in ALL_REQUESTS]
    assert [a["status"] for a in answers[-2:]] == [400, 400]
    assert "bogus" in answers[-2]["body"]["error"] and "input" in answers[-1]["body"]["error"]
    assert not [m for m in console if m.startswith(("error", "warning"))], console
    same = ("name", "python", "unicode", "idna_tables", "idna", "urlcalc", "model_version")
    assert {k: info[k] for k in same} == {k: normal_info[k] for k in same}


def _falls_back(browser: Any, server_url: str, normal: tuple[dict[str, Any], list[Any]],
                routes: dict[str, Any], why: str) -> None:
    info, answers, _, _ = _boot(browser, server_url, routes)
    assert info["boot"]["kind"] == "normal", info["boot"]
    assert why in (info["boot"]["reason"] or ""), info["boot"]
    assert answers == normal[1]


def test_a_corrupt_snapshot_falls_back(browser: Any, server_url: str, normal: Any,
                                       snapshot_site: page_site.Site,
                                       tmp_path: Path) -> None:
    path = snapshot_site.snapshot_path()
    assert path is not None
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    # The corrupt copy (full length, one byte flipped: only its hash differs) is served from disk
    # by a plain HTTP server, the worker's request redirected to it unseen by the page
    # (route.continue_ with another URL): 42 MB through route.fulfill took 25 s more.
    (tmp_path / "snapshot.bin").write_bytes(data)
    with static_server(tmp_path) as url:

        def corrupt(route: Any) -> None:
            route.continue_(url=url + "snapshot.bin")

        _falls_back(browser, server_url, normal, {"/boot/snapshot.bin": corrupt}, "corrupt")


def test_a_truncated_snapshot_falls_back(browser: Any, server_url: str, normal: Any,
                                         snapshot_site: page_site.Site) -> None:
    path = snapshot_site.snapshot_path()
    assert path is not None

    def truncated(route: Any) -> None:
        route.fulfill(status=200, content_type="application/octet-stream",
                      body=path.read_bytes()[:1_000_000])

    _falls_back(browser, server_url, normal, {"/boot/snapshot.bin": truncated}, "truncated")


def test_a_stale_snapshot_falls_back(browser: Any, server_url: str, normal: Any,
                                     snapshot_site: page_site.Site) -> None:
    # boot.json names another bundle.zip than the one the snapshot was made from
    plan = {**snapshot_site.boot_json(), "bundle": "0" * 64}

    def other_bundle(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(plan))

    _falls_back(browser, server_url, normal, {"/boot.json": other_bundle}, "stale")


def test_a_missing_snapshot_falls_back(browser: Any, server_url: str, normal: Any,
                                       snapshot_site: page_site.Site) -> None:
    def gone(route: Any) -> None:
        route.fulfill(status=404, content_type="application/json", body='{"error": "gone"}')

    _falls_back(browser, server_url, normal, {"/boot/snapshot.bin": gone}, "HTTP 404")


def test_a_static_site_boots_from_the_gzip_snapshot(browser: Any, tmp_path_factory: Any,
                                                    normal: Any,
                                                    snapshot_site: page_site.Site) -> None:
    # python -m http.server compresses nothing: the worker gunzips boot/snapshot.bin.gz itself
    out = export_static(tmp_path_factory.mktemp("export") / "site")
    with static_server(out) as url:
        info, answers, fetched, console = _boot(browser, url)
    assert info["boot"] == {"kind": "snapshot", "reason": None}, info["boot"]
    assert "boot/snapshot.bin.gz" in fetched and "boot/snapshot.bin" not in fetched, fetched
    assert not [p for p in fetched if p.endswith(("python_stdlib.zip", "bundle.zip"))], fetched
    assert answers == normal[1]
    # (the page itself, ?engine=server on a site with no API, logs its refused API calls)
    assert not [m for m in console if "snapshot" in m or "[python]" in m], console


def test_the_page_boots_from_the_snapshot(probe: Any, snapshot_site: page_site.Site) -> None:
    page = probe.page
    page.goto(probe.base_url + "?engine=pyodide#" + frag(input="HTTP://EXAMPLE.com:80/a/../b"))
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=90_000)
    expect(page.locator('[data-getter="href"]').first).to_have_text("http://example.com/b")
    page.fill("#input", "https://fa\u00df.example/?\u00e9")
    expect(page.locator('[data-getter="href"]').first).to_have_text(
        "https://xn--fa-hia.example/?%C3%A9")
    probe.assert_clean()
