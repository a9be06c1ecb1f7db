"""The boot snapshot on the server's side (`make snapshot`: web/boot/): boot.json names it only
when it was made from the bundle.zip served; its representations (brotli and gzip made at build
time, identity) decode to the same bytes, each with its own ETag; the warm-up covers every kind;
the static export carries it. The browser side: tests/browser/test_snapshot.py."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from required import missing

from urlcalc.answers.answer import dispatch_json
from urlcalc.answers.kinds import KINDS
from urlcalc.answers.warmup import (
    REQUESTS,
    TYPING_URLS,
    WARM_BUDGET_MS,
    typing_plan,
    typing_requests,
)
from urlcalc.serving.app import create_app
from urlcalc.site import files as page_site
from urlcalc.site.export import export_static


def test_the_warm_up_asks_every_kind() -> None:
    assert {kind for kind, _ in REQUESTS} == set(KINDS)


def test_the_typing_warm_up_is_answered_and_covers_the_parsers_paths() -> None:
    """The worker's second warm-up (after boot, web/js/workers/pyodide-worker.js): every request is
    a good one (a refusal would warm nothing but the refusal), and the inputs reach the host
    parser's domain, IDNA, IPv4 and IPv6 paths, a file URL against a base, an opaque path, a
    failure."""
    plan = json.loads(typing_plan())
    assert plan["budget_ms"] == WARM_BUDGET_MS > 0
    assert plan["requests"] == [list(r) for r in typing_requests()]
    kinds = set()
    hosts: set[str] = set()
    failed = 0
    for kind, params in plan["requests"]:
        kinds.add(kind)
        out = json.loads(dispatch_json(kind, params))
        assert "model" in out, (kind, params, out)
        if kind == "parse" and not json.loads(params).get("trace"):
            failed += not out["ok"]
            if out["ok"] and out["record"]["host"] is not None:
                hosts.add(out["record"]["host"]["kind"])
    assert kinds == {"parse", "compare", "validate", "set"}
    assert failed > 0  # failures are typed too
    assert {"domain", "ipv4", "ipv6"} <= hosts, hosts
    assert any(base is not None for _, base in TYPING_URLS)
    assert any(not url.isascii() for url, _ in TYPING_URLS)  # IDNA


@pytest.fixture(scope="module")
def site() -> page_site.Site:
    site = page_site.locate()
    if site.staged:
        pytest.skip("not a checkout")
    if shutil.which("node") is None:
        missing("node is missing")
    if site.snapshot_path() is None:
        pytest.fail("no boot snapshot made from this bundle.zip: run `make snapshot`")
    return site


@pytest.fixture
def client(site: page_site.Site, tmp_path: Path) -> FlaskClient:
    return create_app(cache_dir=tmp_path / "cache").test_client()


def _unbrotli(data: bytes) -> bytes:
    out = subprocess.run(
        ["node", "-e", "process.stdout.write(require('zlib').brotliDecompressSync("
         "require('fs').readFileSync(0)))"], input=data, capture_output=True, check=True)
    return out.stdout


def test_boot_json_names_the_snapshot(client: FlaskClient, site: page_site.Site) -> None:
    plan = client.get("/boot.json", headers={"Accept-Encoding": "gzip, deflate, br"}).get_json()
    path = site.snapshot_path()
    assert path is not None
    size = json.loads(path.read_bytes()[8:].split(b"\n")[0].split(b"}")[0] + b"}")["size"]
    assert plan == {"pyodide": "314.0.7", "bundle": site.bundle_digest(),
                    "snapshot": "boot/snapshot.bin", "size": size}


def test_no_snapshot_for_a_browser_without_brotli(client: FlaskClient) -> None:
    # gzip would make the snapshot boot 9.7 MB, over the 7 MB budget: a normal boot is 6.7 MB
    response = client.get("/boot.json", headers={"Accept-Encoding": "gzip, deflate"})
    plan = response.get_json()
    assert plan["snapshot"] is None and "brotli" in plan["reason"]
    assert response.headers["Vary"] == "Accept-Encoding"
    assert response.headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize("path", ["/boot/snapshot.bin", "/pyodide/pyodide.asm.wasm"])
def test_representations_decode_to_the_same_bytes(client: FlaskClient, path: str) -> None:
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    br = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert br.headers["Content-Encoding"] == "br"
    gz = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip"
    assert _unbrotli(br.data) == plain.data == gzip.decompress(gz.data)
    assert len(br.data) < len(gz.data) < len(plain.data)
    for response in (br, gz):
        assert response.headers["X-Decompressed-Content-Length"] == str(len(plain.data))
        assert response.headers["Vary"] == "Accept-Encoding"
    tags = {r.headers["ETag"] for r in (plain, br, gz)}
    assert len(tags) == 3
    for tag in tags:  # any of them validates any representation
        again = client.get(path, headers={"Accept-Encoding": "br", "If-None-Match": tag})
        assert again.status_code == 304


def _checkout_copy(site: page_site.Site, tmp_path: Path) -> Path:
    """A web/ folder like the checkout's (the bundle built from the sources), with its boot/."""
    web = tmp_path / "web"
    shutil.copytree(site.web, web, ignore=shutil.ignore_patterns("node_modules"))
    (web / "node_modules").mkdir()
    (web / "node_modules" / "pyodide").symlink_to(site.pyodide)
    return web


def test_a_stale_snapshot_is_never_served(site: page_site.Site, tmp_path: Path) -> None:
    web = _checkout_copy(site, tmp_path)
    manifest = json.loads((web / "boot" / "snapshot.json").read_text())
    (web / "boot" / "snapshot.json").write_text(json.dumps({**manifest, "bundle": "0" * 64}))
    client = create_app(web_dir=web, cache_dir=tmp_path / "cache").test_client()
    assert client.get("/boot.json", headers={"Accept-Encoding": "br"}).get_json()["snapshot"] \
        is None
    assert client.get("/boot/snapshot.bin").status_code == 404
    # and a stale one is not exported either
    out = export_static(tmp_path / "export", web_dir=web)
    assert not (out / "boot").exists()
    assert json.loads((out / "boot.json").read_text())["snapshot"] is None


def test_a_brotli_copy_of_other_bytes_is_not_sent(site: page_site.Site, tmp_path: Path) -> None:
    web = _checkout_copy(site, tmp_path)
    manifest = json.loads((web / "boot" / "snapshot.json").read_text())
    manifest["br"]["pyodide.asm.wasm"]["sha256"] = "0" * 64
    (web / "boot" / "snapshot.json").write_text(json.dumps(manifest))
    client = create_app(web_dir=web, cache_dir=tmp_path / "cache").test_client()
    wasm = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "br, gzip"})
    assert wasm.headers["Content-Encoding"] == "gzip"


def test_the_export_carries_the_snapshot(site: page_site.Site, tmp_path: Path) -> None:
    out = export_static(tmp_path / "export")
    path = site.snapshot_path()
    assert path is not None
    assert (out / "boot" / "snapshot.bin").read_bytes() == path.read_bytes()
    # a static host may not compress: the export's boot.json names the gzip file
    plan = json.loads((out / "boot.json").read_text())
    assert plan == {**site.boot_json(), "snapshot": "boot/snapshot.bin.gz", "gzip": True}
    assert gzip.decompress((out / plan["snapshot"]).read_bytes()) == path.read_bytes()
    staged = page_site.locate(out)
    assert staged.staged and staged.snapshot_path() == out / "boot" / "snapshot.bin"
