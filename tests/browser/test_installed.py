"""urlcalc as a user installs it: the sdist and wheel built from this checkout (`python -m build`,
as `make dist` and the Pages workflow do: the wheel is built from the sdist, so neither needs
more than the other holds), the wheel installed into a fresh virtualenv outside the checkout,
`urlcalc serve` started there from another directory with no Node and no checkout in sight.
The page must boot Pyodide from the installed package in Chromium and answer; every error body
must name no server path.

And as `pip install .` in a fresh clone (or `pipx install git+URL`) installs it: a `git clone`
of this repository (committed files only: no web/node_modules, no whatwg-url bundle) installed
with pip into a fresh virtualenv, whose build fetches and bundles what the page needs itself."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from liveserver import Offline, PageProbe, frag
from playwright.sync_api import expect
from required import missing

from urlcalc.site.files import PYODIDE_FILES

REPO = Path(__file__).resolve().parents[2]
# Measured here for the README and the summary line (tests/conftest.py).
FIGURES: dict[str, Any] = {}


@dataclass
class Installed:
    wheel: Path
    sdist: Path
    venv: Path
    url: str
    work: Path


def _env() -> dict[str, str]:
    """The environment of a user's shell: nothing that points at this checkout."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "URLCALC_WEB_DIR", "VIRTUAL_ENV", "PYTHONHOME"}}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(str(REPO)))
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _run(cmd: list[str], cwd: Path, timeout: int = 600) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, server_url: str) -> Iterator[Installed]:
    # server_url: only so that this module needs Chromium as the other browser tests do
    if not (REPO / "web" / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        missing("web/node_modules/pyodide is missing (make npm): no wheel can be built")
    work = tmp_path_factory.mktemp("installed")
    dist = work / "dist"
    started = time.monotonic()
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)], cwd=work)
    FIGURES["build_s"] = time.monotonic() - started
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(dist.iterdir())
    venv = _pip_install(work, str(wheels[0]))
    with _serving(venv, work) as url:
        yield Installed(wheels[0], sdists[0], venv, url, work)


def _pip_install(work: Path, what: str) -> Path:
    """A fresh virtualenv in work/venv (no system site-packages) with ``what`` installed by pip
    (through the user's pip cache, as a user's pip would)."""
    venv = work / "venv"
    if not venv.is_dir():
        _run([sys.executable, "-m", "venv", str(venv)], cwd=work)
    _run(_pip(venv, what), cwd=work)
    return venv


def _pip(venv: Path, what: str) -> list[str]:
    return [str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check",
            "-q", what]


@contextmanager
def _serving(venv: Path, work: Path) -> Iterator[str]:
    """`urlcalc serve` of ``venv`` on a free port, started from a folder of its own under
    ``work``; yields its URL."""
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.Popen([str(venv / "bin" / "urlcalc"), "serve", "--port", "0"],
                            cwd=elsewhere, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        url = None
        deadline = time.monotonic() + 120
        lines = []
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            url = match.group(1) if match else None
        assert url, f"urlcalc serve printed no URL: {''.join(lines)}"
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_the_wheel_holds_the_page_pyodide_bundle_and_licences(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
    web = {n.removeprefix("urlcalc/web/") for n in names if n.startswith("urlcalc/web/")}
    assert {"index.html", "css/app.css", "js/app.js", "js/engine/engine.js",
            "js/workers/pyodide-worker.js",
            "js/opened-from-file.js", "bundle.zip",
            # the service worker that isolates a static export, at the root, and its registrar
            "isolation-worker.js", "js/engine/isolation.js",
            # built by `make npm` (the Implementations view), with its packages' licences
            "js/vendor/whatwg-url.mjs", "js/vendor/whatwg-url.LICENSES.txt",
            # ... and lit-html, the views' renderer, the same way
            "js/vendor/lit-html.mjs", "js/vendor/lit-html.LICENSES.txt"} <= web
    # exactly the Pyodide files the page loads: no .d.ts, .map, console.html, pyodide.js
    assert {n for n in web if n.startswith("pyodide/")} == {f"pyodide/{n}" for n in PYODIDE_FILES}
    assert {n for n in web if n.startswith("licenses/")} == {
        "licenses/README.txt", "licenses/urlcalc-LICENSE.txt", "licenses/Pyodide-MPL-2.0.txt",
        "licenses/CPython-PSF-LICENSE.txt", "licenses/idna-LICENSE.md"}
    assert not [n for n in names if "node_modules" in n or n.endswith(".map")]
    # the boot snapshot (`make snapshot`), made from this checkout, with its compressed copies
    assert {"boot.json", "boot/snapshot.bin", "boot/snapshot.bin.br", "boot/snapshot.bin.gz",
            "boot/snapshot.json", "boot/pyodide.asm.wasm.br"} <= web
    with zipfile.ZipFile(installed.wheel) as wheel:
        bundle = zipfile.ZipFile(io.BytesIO(wheel.read("urlcalc/web/bundle.zip")))
        inner = set(bundle.namelist())
    assert "urlcalc/standard/parser.py" in inner and "idna/core.py" in inner
    FIGURES["wheel_bytes"] = installed.wheel.stat().st_size
    FIGURES["sdist_bytes"] = installed.sdist.stat().st_size
    # the installed package is the one that answers, not this checkout
    where = _run([str(installed.venv / "bin" / "python"), "-c",
                  "import urlcalc, urlcalc.site.files as s; print(urlcalc.__file__); "
                  "print(s.locate().web)"], cwd=installed.work)
    module, web_dir = where.split()
    assert module.startswith(str(installed.venv)) and web_dir.startswith(str(installed.venv))


def _get(url: str, method: str = "GET", body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes, Any]:
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers


def test_installed_server_error_bodies_name_no_server_path(installed: Installed) -> None:
    url = installed.url
    status, body, _ = _get(url + "licenses/README.txt")
    assert status == 200 and b"Pyodide 314.0.7" in body and b"idna 3." in body
    status, body, _ = _get(url + "config.json")
    assert json.loads(body) == {"api": "api/", "public_url": None, "socket": "api/socket"}
    errors = [
        _get(url + "no-such-page"),
        _get(url + "js/no-such-module.js"),
        _get(url + "pyodide/package.json"),
        _get(url + "pyodide/pyodide.js"),
        _get(url + "licenses/no-such-licence.txt"),
        _get(url + "js/../../pyproject.toml"),
        _get(url + "api/no-such-kind"),
        _get(url + "api/parse"),
        _get(url + "api/parse", "PUT", b"{}", {"Content-Type": "application/json"}),
        _get(url + "api/parse", "POST", b"{not json", {"Content-Type": "application/json"}),
        _get(url + "api/parse", "POST", b"{}", {"Content-Type": "text/plain"}),
        _get(url + "api/parse", "POST", b"[1]", {"Content-Type": "application/json"}),
    ]
    leaks = [str(installed.work), str(installed.venv), "site-packages", str(REPO),
             os.path.expanduser("~"), sys.prefix, sys.base_prefix, "/usr/", "/tmp/"]
    for status, body, headers in errors:
        assert 400 <= status < 500, (status, body[:200])
        assert headers["Content-Type"].startswith("application/json"), body[:200]
        text = body.decode("utf-8")
        assert json.loads(text).keys() == {"error"}, text
        assert not [leak for leak in leaks if leak and leak in text], text


def test_installed_page_boots_pyodide(installed: Installed, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline = Offline()
    offline.watch(context)
    failed: list[str] = []
    context.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    finished: list[Any] = []
    context.on("requestfinished", lambda r: finished.append(r))
    page = context.new_page()
    probe = PageProbe(context, page, offline, installed.url)
    try:
        # as a user opens it: the API answers first, Pyodide takes over once it has booted
        page.goto(installed.url + "#" + frag(input="HTTP://EXAMPLE.com:80/a/../b"))
        expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
        # the cold boot's transfer, as benchmarks/web.py counts it (bodies as sent)
        transfer = 0
        for request in finished:
            body = request.sizes()["responseBodySize"]
            response = request.response()
            if body <= 0 and response is not None:
                body = int(response.headers.get("content-length", "0") or 0)
            transfer += max(body, 0)
        FIGURES.update(transfer_bytes=transfer, requests=len(finished))
        fetched = [r.url.removeprefix(installed.url) for r in finished]
        assert "boot/snapshot.bin" in fetched, fetched  # booted from the wheel's snapshot
        assert "pyodide/python_stdlib.zip" not in fetched, fetched
        # (7 MB until the standard's history: its modules, warmed into the snapshot so that the
        # History view answers offline, add about 0.15 MB of brotli; its data is not kept. 7.2 MB
        # until the surveys, the WPT lookup (its entries kept compressed, 50 KB), the confusion
        # classes, the variants' citations and the classroom round: 7,769,530 bytes measured, the
        # snapshot 4.53 MB of it, which holds every module a request can import)
        assert transfer <= 7_900_000, f"cold boot transferred {transfer:,} bytes (budget 7.9 MB)"
        expect(page.locator('[data-getter="href"]').first).to_have_text("http://example.com/b")
        page.fill("#input", "https://faß.example/")
        expect(page.locator('[data-getter="href"]').first).to_have_text(
            "https://xn--fa-hia.example/")
        expect(page.locator("body")).to_have_attribute("data-where", "served")
        expect(page.locator("#where .where-served")).to_be_visible()
        npm = json.loads((REPO / "web" / "node_modules" / "pyodide" / "package.json").read_text())
        assert page.evaluate("() => window.urlcalc.engine.info.pyodide.pyodide") == npm["version"]
        assert failed == []
        probe.assert_clean()
    finally:
        context.close()


# --- from a clean clone ---------------------------------------------------------------------------


@dataclass
class FromCheckout:
    clone: Path
    venv: Path
    url: str
    work: Path
    no_npm: str  # what the build said when npm was not on PATH


@pytest.fixture(scope="module")
def from_checkout(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FromCheckout]:
    """One clone, one install (needs git, and Node with npm: the build runs `npm ci`)."""
    for tool in ("git", "node", "npm"):
        if shutil.which(tool) is None:
            missing(f"{tool} is missing: a clean clone cannot be installed without it")
    if not (REPO / ".git").exists():
        missing(f"{REPO} is not a git repository: there is nothing to clone")
    work = tmp_path_factory.mktemp("checkout")
    clone = work / "clone"
    _run(["git", "clone", "-q", str(REPO), str(clone)], cwd=work)
    # Without Node and npm on PATH the build stops, saying what it needs.
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], cwd=work)
    failed = subprocess.run(_pip(venv, str(clone)), cwd=work, capture_output=True, text=True,
                            env=dict(_env(), PATH=str(work / "no-such-bin")), timeout=300)
    assert failed.returncode != 0, failed.stdout[-2000:]
    venv = _pip_install(work, str(clone))
    with _serving(venv, work) as url:
        yield FromCheckout(clone, venv, url, work, failed.stdout + failed.stderr)


def test_a_clean_clone_lacks_what_the_build_makes_and_npm_is_named_when_missing(
        from_checkout: FromCheckout) -> None:
    assert "Node >= 18 with npm" in from_checkout.no_npm, from_checkout.no_npm[-2000:]
    assert "npm was not found" in from_checkout.no_npm, from_checkout.no_npm[-2000:]
    # what `git clone` carries: git-ignored files are not in the repository
    tracked = _run(["git", "ls-files", "web"], cwd=from_checkout.clone).split()
    assert "web/package-lock.json" in tracked
    assert not [n for n in tracked if n.startswith(("web/node_modules/", "web/js/vendor/"))]
    # ... and what the build made in the clone: `npm ci`'s Pyodide, the whatwg-url bundle
    web = from_checkout.clone / "web"
    assert {p.name for p in (web / "node_modules" / "pyodide").iterdir()} >= set(PYODIDE_FILES)
    assert (web / "js" / "vendor" / "whatwg-url.mjs").is_file()
    assert (web / "js" / "vendor" / "lit-html.mjs").is_file()


def test_installed_from_a_clean_clone_answers_and_serves_its_page(
        from_checkout: FromCheckout) -> None:
    elsewhere = from_checkout.work / "elsewhere"
    out = _run([str(from_checkout.venv / "bin" / "urlcalc"), "parse", "http://example.com/"],
               cwd=elsewhere)
    assert re.search(r'^\s+href\s+"http://example\.com/"$', out, re.M), out
    assert re.search(r'^\s+host\s+"example\.com \(domain\)"$', out, re.M), out
    where = _run([str(from_checkout.venv / "bin" / "python"), "-c",
                  "import urlcalc.site.files as s; print(s.locate().web)"], cwd=elsewhere)
    assert where.strip().startswith(str(from_checkout.venv)), where
    url = from_checkout.url
    status, body, _ = _get(url)
    assert status == 200 and b"<html" in body.lower()
    for name in (*(f"pyodide/{n}" for n in PYODIDE_FILES), "js/vendor/whatwg-url.mjs",
                 "js/vendor/lit-html.mjs", "js/app.js", "bundle.zip"):
        status, body, _ = _get(url + name)
        assert status == 200 and body, (name, status)
    status, body, _ = _get(url + "licenses/README.txt")
    assert status == 200 and b"Pyodide 314.0.7" in body and b"whatwg-url" in body \
        and b"lit-html" in body, body[:400]
    status, body, _ = _get(url + "api/parse", "POST", b'{"input": "http://example.com/"}',
                           {"Content-Type": "application/json"})
    assert status == 200, body[:300]
    assert "http://example.com/" in body.decode("utf-8")
