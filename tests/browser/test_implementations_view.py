"""The Implementations view served by urlcalc: every implementation's column (the page's own
two, computed in JavaScript, and the server's), differences highlighted with their explanations,
the whatwg-url bundle loaded under the page's CSP (no violation: it evaluates no string), and
old Browser-view permalinks (view=compare) opening it. The static export's columns are tested in
test_static_export.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from liveserver import Offline, PageProbe, frag, live_waitress
from waitress.channel import ClientDisconnected

from urlcalc.implementations.node_adapter import WHATWG_URL
from urlcalc.serving.http_server import GuardedChannel

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

SERVER_COLUMNS = ("browser", "whatwg-url", "node", "ada", "urllib", "rfc3986", "yarl")


@pytest.mark.skipif(WHATWG_URL.unavailable() is not None, reason="node helper not available")
def test_every_implementation_beside_the_standard(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://faß.example:80/a/./b", view="compare"), query="")
    expect(page.locator("#tab-implementations")).to_have_attribute("aria-selected", "true")
    table = page.locator("#implementations-table")
    for impl in SERVER_COLUMNS:
        expect(table.locator(f"th[data-impl='{impl}']")).to_be_visible()
    # the page's own columns say so
    expect(table.locator("th[data-impl='whatwg-url']")).to_contain_text("in this page")
    expect(table.locator("th[data-impl='node']")).not_to_contain_text("in this page")
    cell = "td[data-impl='{}'][data-getter='{}']"
    for impl in ("whatwg-url", "node", "ada"):
        expect(table.locator(cell.format(impl, "href"))).to_have_attribute(
            "data-value", "http://xn--fa-hia.example/a/b")
        expect(table.locator(cell.format(impl, "href"))).to_have_text("=", use_inner_text=True)
    urllib_host = table.locator(cell.format("urllib", "hostname"))
    expect(urllib_host).to_have_attribute("data-differs", "true")
    expect(urllib_host).to_contain_text("faß.example")
    expect(table.locator(cell.format("rfc3986", "href"))).to_have_text("fails")
    why = page.locator("#implementations-differences")
    no_idna = why.locator("li[data-impl='urllib']").filter(has_text="has no IDNA")
    expect(no_idna.first).to_be_visible()
    expect(why.locator("li[data-impl='rfc3986']").filter(
        has_text="RFC 3986 URIs are ASCII")).to_have_count(1)
    summary = page.locator("#implementations-summary")
    # yarl normalises all of it (IDNA, default port, dot segments) as the standard does
    expect(summary).to_have_attribute("data-differing", "2")
    expect(summary).to_contain_text("urllib.parse, rfc3986")
    # "show every value" shows the values the same as the standard's
    page.check("#implementations-all")
    expect(table.locator(cell.format("node", "hostname"))).to_contain_text("xn--fa-hia.example")
    # the WPT scores, and a note per implementation
    expect(page.locator("#implementations-wpt-table tr[data-impl='whatwg-url']")).to_contain_text(
        "891 / 891")
    expect(page.locator("#implementations-about details[data-impl='yarl']")).to_contain_text(
        "1.25.1")
    probe.assert_clean()  # no CSP violation from the bundle, no console error


def test_the_server_answers_even_when_pyodide_is_ready(probe: PageProbe) -> None:
    # Pyodide runs only urllib: the view asks the server, which runs them all
    page = probe.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    page.fill("#input", "https://b/")
    expect(page.locator("#implementations-table th[data-impl='rfc3986']")).to_be_visible()
    expect(page.locator("td[data-impl='rfc3986'][data-getter='href']")).to_have_attribute(
        "data-value", "https://b/")
    expect(page.locator("#implementations-unavailable li[data-impl='rfc3986']")).to_have_count(0)
    probe.assert_clean()


def test_the_server_relay_brings_the_servers_answer_for_the_keystrokes_frame(
        probe: PageProbe) -> None:
    """A served page is cross-origin isolated: the Implementations call goes to the server from
    the server relay worker (a synchronous request there) and the page waits for it in the shared
    buffer, with whatwg-url's reading (sync-channel.js). When the relay's request fails, the
    page asks the server itself: the view still shows the server's columns."""
    page = probe.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    expect(page.locator("td[data-impl='whatwg-url'][data-getter='href']")).to_have_attribute(
        "data-value", "https://a/")  # the whatwg-url bundle has loaded
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    before = page.evaluate("() => window.urlcalc.engine.sync")
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("b", delay=50)
    expect(page.locator("td[data-impl='ada'][data-getter='href']")).to_have_attribute(
        "data-value", "https://a/b")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    after = page.evaluate("() => window.urlcalc.engine.sync")
    # (whether the page's wait caught it in time depends on the machine: not asserted)
    assert after["relays"] > before["relays"], (before, after)

    # the worker's request fails once: the page's own request brings the answer
    failed: list[str] = []

    def fail_once(route: object) -> None:
        if not failed:
            failed.append(route.request.url)  # type: ignore[attr-defined]
            route.fulfill(status=500, content_type="application/json",  # type: ignore[attr-defined]
                          body='{"error": "relay test"}')
        else:
            route.continue_()  # type: ignore[attr-defined]

    page.route("**/api/implementations", fail_once)
    page.locator("#input").press_sequentially("c", delay=50)
    expect(page.locator("td[data-impl='ada'][data-getter='href']")).to_have_attribute(
        "data-value", "https://a/bc")
    assert len(failed) == 1
    assert page.evaluate("() => window.urlcalc.engine.sync.relays") == after["relays"]
    expect(page.locator("#implementations-error")).to_be_hidden()
    probe.console_errors = [m for m in probe.console_errors if "500" not in m]
    probe.assert_clean()


# --- the server relay over the API's WebSocket (urlcalc serve: waitress) -------------------------


@pytest.fixture(scope="module")
def waitress() -> Iterator[tuple[str, Any]]:
    with live_waitress() as (url, server):
        yield url, server


@pytest.fixture
def served(browser: Any, waitress: tuple[str, Any]) -> Iterator[PageProbe]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline = Offline()
    offline.watch(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield PageProbe(context, page, offline, waitress[0])
    finally:
        context.close()


class Traffic:
    """The page's API traffic: HTTP requests to /api/implementations, and socket messages."""

    def __init__(self, page: Any) -> None:
        self.http: list[str] = []
        self.sent: list[str] = []
        self.received: list[str] = []
        self.sockets: list[str] = []
        page.on("request", lambda r: self.http.append(r.url)
                if r.url.endswith("/api/implementations") else None)

        def opened(socket: Any) -> None:
            self.sockets.append(socket.url)
            socket.on("framesent", lambda text: self.sent.append(str(text)))
            socket.on("framereceived", lambda text: self.received.append(str(text)))

        page.on("websocket", opened)


def type_and_see(page: Any, text: str, href: str) -> None:
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially(text, delay=50)
    expect(page.locator("td[data-impl='ada'][data-getter='href']")).to_have_attribute(
        "data-value", href)
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")


def test_the_relay_asks_over_the_websocket_under_urlcalc_serve(served: PageProbe) -> None:
    traffic = Traffic(served.page)
    page = served.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    assert page.evaluate("() => fetch('config.json').then((r) => r.json())")["socket"] == \
        "api/socket"
    expect(page.locator("td[data-impl='whatwg-url'][data-getter='href']")).to_have_attribute(
        "data-value", "https://a/")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    before = page.evaluate("() => window.urlcalc.engine.sync.relays")
    http_before = len(traffic.http)
    type_and_see(page, "bc", "https://a/bc")
    # at least one relay for the typing: two keystrokes are two relays, or one when the second
    # came while the first was in flight and was coalesced behind it (issue 14; a CI run on a
    # loaded core saw one)
    assert page.evaluate("() => window.urlcalc.engine.sync.relays") >= before + 1
    assert len(traffic.http) == http_before  # no HTTP request while typing: all by the socket
    assert traffic.sockets and traffic.sockets[0].endswith("/api/socket")
    asked = [json.loads(m) for m in traffic.sent]
    assert {"input": "https://a/bc"} in [m["params"] for m in asked if m["kind"] ==
                                          "implementations"]
    # each answer one envelope {"id","status","body"} (urlcalc/answers/answer.py)
    answers = [json.loads(m) for m in traffic.received]
    assert all(list(m) == ["id", "status", "body"] for m in answers)
    assert any(m["status"] == 200 and m["body"].get("input") == "https://a/bc" for m in answers)
    served.assert_clean()


def test_when_the_socket_closes_with_an_answer_owed_it_comes_over_http(
        served: PageProbe, waitress: tuple[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    traffic = Traffic(served.page)
    server = waitress[1]
    api = server.socket_api
    hung_up: list[str] = []

    def answer(text: str, client: str = "") -> bytes:
        # the server drops the connection instead of answering this input
        if "hang-up" in text:
            hung_up.append(text)
            for channel in list(server.active_channels.values()):
                if channel.socket_state is not None:
                    channel.will_close = True
            server.pull_trigger()
            raise ClientDisconnected
        return type(api).answer(api, text, client)

    monkeypatch.setattr(api, "answer", answer)
    page = served.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    http_before = len(traffic.http)
    page.locator("#input").fill("https://hang-up/")
    expect(page.locator("td[data-impl='ada'][data-getter='href']")).to_have_attribute(
        "data-value", "https://hang-up/")
    assert hung_up, "the page asked over the socket"
    assert len(traffic.http) > http_before, "then over HTTP"
    expect(page.locator("#implementations-error")).to_be_hidden()
    # and the next keystroke finds a new socket
    sockets = len(traffic.sockets)
    monkeypatch.setattr(api, "answer", type(api).answer.__get__(api))
    http_before = len(traffic.http)
    type_and_see(page, "x", "https://hang-up/x")
    assert len(traffic.sockets) == sockets + 1 and len(traffic.http) == http_before
    served.assert_clean()


def test_a_socket_that_cannot_be_opened_leaves_the_relay_on_http(served: PageProbe) -> None:
    traffic = Traffic(served.page)

    def config(route: Any) -> None:
        body = json.loads(route.fetch().text())
        route.fulfill(json={**body, "socket": "api/no-such-socket"})

    served.page.route("**/config.json", config)
    page = served.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    type_and_see(page, "bc", "https://a/bc")
    assert len(traffic.sockets) == 1  # tried once (again after a minute), not per keystroke
    assert len(traffic.http) >= 2
    # the browser reports the refused handshake (a 404) as a network error
    served.console_errors = [m for m in served.console_errors if "WebSocket" not in m]
    served.assert_clean()


def test_a_socket_whose_handshake_is_held_is_given_up_for_http(
        served: PageProbe, monkeypatch: pytest.MonkeyPatch) -> None:
    # a server (or a proxy) that takes the handshake and never answers it
    monkeypatch.setattr(GuardedChannel, "_upgrade", lambda self, request, api: None)
    traffic = Traffic(served.page)
    page = served.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    page.wait_for_function("() => window.urlcalc.engine.busy === 0", timeout=20_000)
    http_before = len(traffic.http)
    type_and_see(page, "bc", "https://a/bc")
    assert len(traffic.sockets) == 1
    assert len(traffic.http) >= http_before + 2  # given up: the keystrokes went by HTTP
    served.console_errors = [m for m in served.console_errors if "WebSocket" not in m]
    served.assert_clean()


# --- refusals: a status in the answer's envelope, shown as a message ------------------------------

ASK_REFUSED = """async () => {
  try {
    await window.urlcalc.engine.call("parse", { input: "x", encoding: "shift_j" });
    return null;
  } catch (e) {
    return e.message;
  }
}"""


def test_a_refusal_over_the_socket_is_a_message_not_a_console_error(served: PageProbe) -> None:
    """Served by `urlcalc serve`, the page asks the API over the relay's socket even where it
    prefers nothing (here: no Pyodide at all), so that a refusal (a half-typed encoding label:
    400) comes inside a message: no failed HTTP request for the browser to log."""
    traffic = Traffic(served.page)
    http: list[str] = []
    served.page.on("request", lambda r: http.append(r.url)
                   if r.url.startswith("http") and "/api/" in r.url else None)
    page = served.open(frag(input="https://a/"), query="engine=server")
    page.wait_for_function("() => window.urlcalc.engine.info.server !== null")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    assert page.evaluate(ASK_REFUSED) == "unknown encoding label: 'shift_j'"
    asked = [json.loads(m) for m in traffic.sent]
    assert {"input": "x", "encoding": "shift_j"} in [m["params"] for m in asked]
    for _ in range(40):  # (Playwright reports the frame a little later)
        refusal = [json.loads(m) for m in traffic.received if '"status":400' in m]
        if refusal:
            break
        page.wait_for_timeout(50)
    assert refusal and refusal[-1]["body"] == {"error": "unknown encoding label: 'shift_j'"}
    assert http == [], http  # the version, the page's parse and the refusal: all by the socket
    served.assert_clean()


def test_a_refusal_over_http_is_a_400_shown_as_a_message(probe: PageProbe) -> None:
    """Where the server has no socket (the development server), the page asks by HTTP: a refusal
    is a 400 (the browser logs that response as a console error: nothing the page can do), and
    the page shows its message."""
    page = probe.open(frag(input="https://a/"), query="engine=server")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if "/api/parse" in r.url else None)
    assert page.evaluate(ASK_REFUSED) == "unknown encoding label: 'shift_j'"
    assert 400 in statuses
    logged = [m for m in probe.console_errors if "status of 400" in m]
    assert len(logged) == 1, probe.console_errors
    probe.console_errors.remove(logged[0])
    # and a refusal of a keystroke's request is shown where the page shows refusals

    def refuse(route: Any) -> None:
        route.fulfill(status=400, content_type="application/json",
                      body='{"error": "refused for the test"}')

    page.route("**/api/parse", refuse)
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("b")
    expect(page.locator("#request-error")).to_contain_text("refused for the test")
    probe.console_errors = [m for m in probe.console_errors if "status of 400" not in m]
    probe.assert_clean()
