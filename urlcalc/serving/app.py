"""The calculator's web server: the page, the Pyodide runtime, the browser bundle and a JSON API.

URL layout (``web/js/engine/engine.js`` relies on it)::

    /                       index.html of the page (``urlcalc.site.files`` finds the page's files:
    the
                            checkout's web/, or the copy inside the installed package)
    /css/..., /js/..., /img/...   files under those folders of the page (those folders only)
    /pyodide/<file>         the files Pyodide needs to boot (web/node_modules/pyodide)
    /bundle.zip             urlcalc + idna for Pyodide (``urlcalc.site.bundle``), ETag = its sha256
    /licenses/<file>        the licences of what the page ships (``urlcalc.site.files``)
    /config.json            {"api": "api/", "public_url": ..., "socket": ...}: tells the page
                            that the JSON API is here, the calculator's public URL for
                            permalinks (or null), and whether the API's WebSocket is (its
                            path, "api/socket", or null under Flask's development server)
                            (``urlcalc.site.export`` writes {"api": null, ...} instead)
    /favicon.ico            204 (the page uses a data: icon)
    /api/openapi.json       the OpenAPI 3 description of the JSON API (``urlcalc.serving.openapi``)
    /api/socket             the API over a WebSocket (``urlcalc.serving.socket_api``), under
                            waitress
    /api/<kind>             POST a JSON object, or GET with query parameters: the status and
                            body of ``urlcalc.answers.answer.answer(kind, params)`` (the result
                            model, or 400/404/500 and ``{"error": ...}``); the kinds and their
                            parameters are ``urlcalc.answers.kinds.KINDS``

Every error, from a bad request to a bug, is a JSON object ``{"error": "..."}`` with a 4xx or 5xx
status, whatever the request's headers (the page asks over the socket where the server has one,
where a refusal is no failed request for the browser to log: web/js/engine/engine.js). Every
response carries a strict Content-Security-Policy (see ``CSP``), nosniff and no-referrer. Large
assets are sent gzip-compressed when the client accepts it; the compressed bytes are computed once
and kept in memory and under ``.cache/gzip/`` (keyed by content hash).

``create_app()`` is the app factory (``flask --app urlcalc.serving.app:create_app run``);
``serve(host, port, dev=False)`` runs it under waitress (or Flask's development server);
``urlcalc.site.export.export_static(dir)`` writes the page as a static site (Pyodide alone).
"""

from __future__ import annotations

import contextlib
import gc
import gzip
import hashlib
import ipaddress
import json
import os
import signal
import sys
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.security import safe_join

from urlcalc.answers.answer import answer, json_type
from urlcalc.answers.cost import estimate
from urlcalc.answers.kinds import KINDS, dispatch
from urlcalc.model.limits import MAX_BODY_BYTES
from urlcalc.serving.clients import Clients
from urlcalc.serving.socket_api import SOCKET_PATH, SocketApi
from urlcalc.serving.work_pool import (
    Answer,
    Busy,
    HeavyGate,
    compute,
    default_workers,
    encode_json,
)
from urlcalc.site import files as page_site
from urlcalc.site.files import PAGE_FOLDERS, PYODIDE_FILES
from urlcalc.site.headers import CSP, MIME_TYPES, SECURITY_HEADERS

__all__ = [
    "API_KINDS",
    "CSP",
    "MAX_BODY_BYTES",
    "PYODIDE_FILES",
    "create_app",
    "serve",
    "warm_up",
]

REPO = Path(__file__).resolve().parent.parent.parent
# Compressed assets survive restarts here when running from a source checkout.
DEFAULT_CACHE_DIR = REPO / ".cache" / "gzip" if (REPO / "pyproject.toml").is_file() else None
API_KINDS = tuple(KINDS)

COMPRESSIBLE = frozenset({".html", ".css", ".js", ".mjs", ".json", ".map", ".wasm", ".zip",
                          ".txt", ".svg", ".ico"})
# Below this size gzip is not worth a separate representation.
MIN_GZIP_BYTES = 1024


# Work per request is bounded by urlcalc.model.limits (checked by urlcalc.answers.kinds.dispatch)
# and its CPU budget (urlcalc.model.budget). Heavy requests (by their estimated cost,
# urlcalc.answers.cost: the maximal ones cost seconds of CPU) go through a HeavyGate, fairly per
# client: HEAVY_QUEUE of them may wait while the workers compute (under `urlcalc serve`, in worker
# processes); any more are refused with 503 and Retry-After, so that heavy clients hold at most
# workers + HEAVY_QUEUE of the THREADS and none of the interpreter that serves the small
# requests (benchmarks/load.py, "heavy").
HEAVY_QUEUE = 4
THREADS = 16

class ApiError(Exception):
    """A request we refuse, with its HTTP status and a message for the client."""

    def __init__(self, status: int, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


# --- the Host header (DNS rebinding) ------------------------------------------------------------

LOCALHOST_NAMES = ("localhost",)


def _host_name(host_header: str) -> str:
    """The name or address of a Host header, without its port, brackets or final dot,
    lowercased."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def default_allowed_hosts(bound: str) -> list[str]:
    """The names a client may put in the Host header of a server listening on ``bound``: the
    bound address (when it is a name), localhost and its subdomains; IP addresses are always
    allowed (see ``host_allowed``)."""
    names = [*LOCALHOST_NAMES]
    bound_name = _host_name(bound)
    if bound_name and not _is_ip(bound_name) and bound_name not in names:
        names.append(bound_name)
    return names


def host_allowed(host_header: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request's Host header names this server. An IP address always does: a page
    can only reach us under an IP address by being loaded from it, which is no DNS rebinding;
    a name must be allowed (``*`` allows any), and so must ``*.localhost`` (RFC 6761)."""
    if "*" in allowed:
        return True
    if not host_header:
        return False  # HTTP/1.1 requires one; HTTP/1.0 clients send it too
    name = _host_name(host_header)
    if _is_ip(name) or name in allowed:
        return True
    return "localhost" in allowed and name.endswith(".localhost")


# --- assets: bytes + gzip + ETag, cached by content -----------------------------------------------


@dataclass(frozen=True)
class Asset:
    data: bytes
    gz: bytes | None  # None when not worth compressing
    digest: str  # sha256 hex of data
    mime: str
    br: bytes | None = None  # brotli, made at build time (web/boot/<name>.br), when there is one


def _mime(name: str) -> str:
    return MIME_TYPES.get(Path(name).suffix.lower(), "application/octet-stream")


def _etag(asset: Asset, coding: str) -> str:
    # A strong validator per representation: the gzip and brotli bytes are other representations.
    return asset.digest if coding == "identity" else f"{asset.digest}-{coding}"


class AssetCache:
    """Files (and the bundle) with their gzip form, computed once per content hash."""

    def __init__(self, cache_dir: Path | None) -> None:
        self.cache_dir = cache_dir
        self._lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}
        self._files: dict[Path, tuple[int, int, Asset]] = {}
        self._by_digest: dict[str, Asset] = {}

    def _key_lock(self, key: str) -> threading.Lock:
        with self._lock:
            return self._key_locks.setdefault(key, threading.Lock())

    def _gzip(self, data: bytes, digest: str) -> bytes | None:
        path = self.cache_dir / f"{digest}.gz" if self.cache_dir is not None else None
        if path is not None and path.is_file():
            try:
                return path.read_bytes() or None
            except OSError:
                pass
        gz: bytes | None = gzip.compress(data, compresslevel=9, mtime=0)
        if gz is not None and len(gz) >= len(data):
            gz = None
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
                tmp.write_bytes(gz or b"")  # empty file: "not worth compressing"
                os.replace(tmp, path)
            except OSError:
                pass  # a read-only checkout still works, compressing once per process
        return gz

    def _make(self, data: bytes, name: str, digest: str) -> Asset:
        gz = None
        if Path(name).suffix.lower() in COMPRESSIBLE and len(data) >= MIN_GZIP_BYTES:
            gz = self._gzip(data, digest)
        return Asset(data, gz, digest, _mime(name))

    def from_bytes(self, data: bytes, name: str, digest: str | None = None) -> Asset:
        """An asset for generated bytes (the bundle), kept by digest."""
        digest = digest or hashlib.sha256(data).hexdigest()
        cached = self._by_digest.get(digest)
        if cached is not None:
            return cached
        with self._key_lock(digest):
            cached = self._by_digest.get(digest)
            if cached is None:
                cached = self._by_digest[digest] = self._make(data, name, digest)
            return cached

    def file(self, path: Path, br: tuple[Path, str] | None = None,
             gz: tuple[Path, str] | None = None) -> Asset | None:
        """The asset for a file, re-read when its mtime or size changes; None if missing.
        ``br``, ``gz``: a brotli or gzip file made at build time and the sha256 of what it
        encodes, used when that is the file's (gzip is otherwise computed here)."""
        try:
            st = path.stat()
        except (OSError, ValueError):
            return None
        entry = self._files.get(path)
        if entry is not None and entry[0] == st.st_mtime_ns and entry[1] == st.st_size:
            return entry[2]
        with self._key_lock(str(path)):
            entry = self._files.get(path)
            if entry is not None and entry[0] == st.st_mtime_ns and entry[1] == st.st_size:
                return entry[2]
            try:
                data = path.read_bytes()
            except OSError:
                return None
            digest = hashlib.sha256(data).hexdigest()
            made = None
            if gz is not None and gz[1] == digest:
                with contextlib.suppress(OSError):
                    made = Asset(data, gz[0].read_bytes(), digest, _mime(path.name))
            asset = made or self._make(data, path.name, digest)
            if br is not None and br[1] == asset.digest:
                with contextlib.suppress(OSError):
                    asset = replace(asset, br=br[0].read_bytes())
            self._files[path] = (st.st_mtime_ns, st.st_size, asset)  # replaces the old version
            return asset


def _accepts_gzip() -> bool:
    return request.accept_encodings["gzip"] > 0


def _coding(asset: Asset) -> str:
    """The representation to send: brotli, gzip or identity, as the client accepts them."""
    if asset.br is not None and request.accept_encodings["br"] > 0:
        return "br"
    if asset.gz is not None and _accepts_gzip():
        return "gzip"
    return "identity"


def _asset_response(asset: Asset, cache_control: str = "no-cache") -> Response:
    coding = _coding(asset)
    tag = _etag(asset, coding)
    headers = {"ETag": f'"{tag}"', "Cache-Control": cache_control}
    if asset.gz is not None or asset.br is not None:
        headers["Vary"] = "Accept-Encoding"
    # Any representation validates: all stand for the same bytes.
    if any(request.if_none_match.contains_weak(_etag(asset, c))
           for c in ("identity", "gzip", "br")):
        return Response(status=304, headers=headers)
    body = {"br": asset.br, "gzip": asset.gz}.get(coding) or asset.data
    if coding != "identity":
        headers["Content-Encoding"] = coding
        # Content-Length counts the encoded bytes: the page's boot progress needs the decoded size.
        headers["X-Decompressed-Content-Length"] = str(len(asset.data))
    return Response(body, status=200, headers=headers, content_type=asset.mime)


# --- JSON -----------------------------------------------------------------------------------------


def _json_response(obj: Any, status: int = 200) -> Response:
    body, gzipped = encode_json(obj, _accepts_gzip())
    return _json_bytes_response(body, gzipped, status)


def _json_bytes_response(body: bytes, gzipped: bool, status: int = 200) -> Response:
    headers = {"Cache-Control": "no-store"}
    if gzipped:
        headers["Content-Encoding"] = "gzip"
        headers["Vary"] = "Accept-Encoding"
    return Response(body, status=status, headers=headers,
                    content_type="application/json; charset=utf-8")


def _error(status: int, message: str) -> Response:
    return _json_response({"error": message}, status)


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})
_REPEATABLE = frozenset({"op", "value"})


def _post_params() -> dict[str, Any]:
    if request.mimetype != "application/json":
        got = request.content_type or "none"
        raise ApiError(415, f"Content-Type must be application/json (got {got})")
    data = request.get_data(cache=False)  # raises 413 over MAX_CONTENT_LENGTH
    if not data.strip():
        raise ApiError(400, "the request body is empty: send a JSON object")
    try:
        params = json.loads(data)
    except RecursionError:
        raise ApiError(400, "the request body is nested too deeply") from None
    except ValueError as e:  # JSONDecodeError and UnicodeDecodeError
        raise ApiError(400, f"the request body is not JSON: {e}") from None
    if not isinstance(params, dict):
        raise ApiError(400, f"the request body must be a JSON object, not {json_type(params)}")
    return params


def _get_params(kind: str) -> dict[str, Any]:
    """Query parameters as the JSON object a POST would carry, read by the kind's parameter
    types (urlcalc.answers.kinds): strings; flags as booleans; counts and seeds as integers; setter
    operations from ``op``/``value`` pairs in order. Parameters the kind does not take stay
    strings, ignored as in a POST."""
    args = request.args
    types = {p.name: p.type for p in KINDS[kind].params}
    params: dict[str, Any] = {}
    for name in args:
        values = args.getlist(name)
        if name in _REPEATABLE and types.get("ops"):
            continue
        if len(values) > 1:
            raise ApiError(400, f"query parameter {name!r} is given {len(values)} times")
        params[name] = _get_value(name, values[0], types.get(name))
    if "ops" in types:
        ops, values = args.getlist("op"), args.getlist("value")
        if len(ops) != len(values):
            raise ApiError(400, f"each 'op' needs one 'value' (got {len(ops)} op and "
                           f"{len(values)} value parameters)")
        if not ops:
            raise ApiError(400, "missing setter operations: give op=SETTER&value=VALUE pairs")
        params["ops"] = [[op, value] for op, value in zip(ops, values, strict=True)]
    return params


def _get_value(name: str, value: str, type: str | None) -> Any:
    """One query parameter as the JSON value of its type."""
    if type == "flag":
        flag = value.strip().lower()
        if flag not in _TRUE | _FALSE:
            raise ApiError(400, f"query parameter {name!r} must be 1/0, true/false, yes/no or "
                           f"on/off, not {value!r}")
        return flag in _TRUE
    if type in ("count", "seed"):
        if not (value.isascii() and value.isdigit() and len(value) <= 16):
            raise ApiError(400, f"query parameter {name!r} must be a non-negative integer, not "
                           f"{value!r}")
        return int(value)
    return value


# --- the app --------------------------------------------------------------------------------------


def _static_path(root: Path, name: str) -> Path | None:
    """``root/name`` if it names a regular, visible file strictly inside ``root``; else None."""
    if not name or any(ord(c) < 0x20 or c == "\x7f" or c == "\\" for c in name):
        return None
    joined = safe_join(str(root), name)
    if joined is None:
        return None
    if any(part.startswith(".") for part in Path(name).parts):
        return None
    path = Path(joined)
    return path if path.is_file() else None


def create_app(
    web_dir: str | os.PathLike[str] | None = None,
    pyodide_dir: str | os.PathLike[str] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    allowed_hosts: list[str] | None = None,
    heavy: HeavyGate | None = None,
    public_url: str | None = None,
    socket: bool = False,
    trusted_proxies: list[str] | None = None,
) -> Flask:
    """The Flask app. ``web_dir`` defaults to $URLCALC_WEB_DIR, the checkout's web/, or the
    page inside the installed package, ``pyodide_dir`` to its Pyodide folder (see
    ``urlcalc.site.files.locate``), ``cache_dir`` (compressed assets) to the checkout's .cache/gzip
    (memory only when not running from a checkout). ``public_url``: where the calculator is
    published (an absolute http(s) URL, see ``urlcalc.site.files.check_public_url``); the page's
    permalinks and copies link there, and say that they cannot when it is None.

    ``allowed_hosts``: refuse (400) a request whose Host header is neither one of these names nor
    an IP address (None: no check; ``serve`` always checks). ``heavy``: the gate of the large API
    requests (default: one computing in the request's thread, HEAVY_QUEUE waiting). ``socket``:
    the server under the app answers the API's WebSocket (urlcalc.serving.http_server with the app's
    ``urlcalc_socket`` extension, as ``serve`` runs it): config.json tells the page so.
    ``trusted_proxies``: addresses or networks of reverse proxies whose ``Forwarded`` and
    ``X-Forwarded-For`` headers name the client (urlcalc.serving.clients)."""
    site = page_site.locate(web_dir, pyodide_dir)
    web = site.web
    pyodide = site.pyodide
    cache = Path(cache_dir) if cache_dir else DEFAULT_CACHE_DIR
    checked = page_site.check_public_url(public_url) if public_url is not None else None
    config = {"api": "api/", "public_url": checked,
              "socket": SOCKET_PATH.lstrip("/") if socket else None}
    assets = AssetCache(cache)

    app = Flask("urlcalc", static_folder=None)
    # "/js//etc/passwd" is a 404 like any other bad path, not a redirect to "/js/etc/passwd".
    app.url_map.merge_slashes = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.config["URLCALC_WEB_DIR"] = web
    app.config["URLCALC_PYODIDE_DIR"] = pyodide
    app.extensions["urlcalc_site"] = site
    app.extensions["urlcalc_assets"] = assets

    allowed = frozenset(h.lower().rstrip(".") for h in allowed_hosts or ())
    gate = heavy if heavy is not None else HeavyGate(1, HEAVY_QUEUE, processes=False)
    app.extensions["urlcalc_heavy"] = gate
    clients = Clients(trusted_proxies or ())
    app.extensions["urlcalc_clients"] = clients

    def respond(client: str, kind: str, params: dict[str, Any], gzip_ok: bool) -> Answer:
        """The answer to a well-formed API request of ``client``'s, by its cost: a heavy one in
        its turn through the gate (raises Busy), the others here, within their CPU budget."""
        if estimate(kind, params).heavy:
            return gate.submit(client, kind, params, gzip_ok)
        return compute(kind, params, gzip_ok)

    def respond_on_socket(client: str, kind: str, params: dict[str, Any]) -> tuple[int, bytes]:
        try:
            done = respond(client, kind, params, False)
        except Busy as e:
            return 503, encode_json({"error": e.message}, False)[0]
        return done.status, done.body

    if allowed_hosts is not None:
        @app.before_request
        def _check_host() -> Response | None:
            host = request.headers.get("Host")
            if host_allowed(host, allowed):
                return None
            shown = (host or "")[:100]
            return _error(400, f"this server does not answer to the name {shown!r} in the Host "
                          "header (a guard against DNS rebinding): use the address it listens "
                          "on, or start it with --allowed-host NAME")

    @app.after_request
    def _security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.errorhandler(ApiError)
    def _api_error(e: ApiError) -> Response:
        response = _error(e.status, e.message)
        response.headers.update(e.headers)
        return response

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> Response:
        # (Flask passes no routing redirect here: handle_http_exception returns it first)
        code = e.code or 500
        if code == 404:
            message = f"not found: {request.path}"
        elif isinstance(e, MethodNotAllowed):
            allowed = ", ".join(sorted(e.valid_methods or ()))
            message = f"method {request.method} not allowed for {request.path} (use {allowed})"
        elif code == 413:
            message = f"the request body is over the {MAX_BODY_BYTES} byte limit"
        else:
            message = f"{e.name}: {e.description}" if e.description else str(e.name)
        response = _error(code, message)
        if isinstance(e, MethodNotAllowed) and e.valid_methods:
            response.headers["Allow"] = ", ".join(e.valid_methods)
        return response

    @app.errorhandler(Exception)
    def _internal_error(e: Exception) -> Response:
        app.logger.exception("unhandled error on %s %s", request.method, request.path)
        return _error(500, f"internal server error ({type(e).__name__}); see the server log")

    def _file_or_404(path: Path | None, what: str) -> Response:
        asset = assets.file(path) if path is not None else None
        if asset is None:
            return _error(404, f"not found: {what}")
        return _asset_response(asset)

    @app.get("/")
    @app.get("/index.html")
    def _index() -> Response:
        path = web / "index.html"
        if not path.is_file():
            # The server's own paths go to its log, never into an answer.
            app.logger.error("the page is missing: %s does not exist", path)
            return _error(404, "the page is missing: this installation of urlcalc has no "
                          "web/index.html (see the server log)")
        return _file_or_404(path, request.path)

    def _root_file() -> Response:
        # The service worker (a JavaScript type, as a service worker script must have): the page
        # registers it only where it is not isolated, i.e. never when served from here.
        return _file_or_404(_static_path(web, request.path.lstrip("/")), request.path)

    for root_name in page_site.ROOT_FILES:
        app.add_url_rule(f"/{root_name}", f"root:{root_name}", _root_file, methods=["GET"])

    @app.get(f"/<any({', '.join(PAGE_FOLDERS)}):folder>/<path:name>")
    def _static(folder: str, name: str) -> Response:
        return _file_or_404(_static_path(web / folder, name), request.path)

    @app.get(f"/{page_site.LICENSES_DIR}/<name>")
    def _license(name: str) -> Response:
        data = site.licenses().get(name)
        if data is None:
            return _error(404, f"not found: {request.path}")
        return _asset_response(assets.from_bytes(data, name))

    @app.get("/pyodide/<name>")
    def _pyodide(name: str) -> Response:
        if name not in PYODIDE_FILES:
            return _error(404, f"not found: {request.path} (not a Pyodide boot file)")
        path = pyodide / name
        if not path.is_file():
            app.logger.error("Pyodide is not installed: %s is missing", path)
            return _error(404, f"Pyodide is not installed: {name} is missing "
                          f"({site.pyodide_hint()}; see the server log)")
        asset = assets.file(path, site.precompressed(name, "br"), site.precompressed(name, "gz"))
        if asset is None:
            return _error(404, f"not found: {request.path}")
        return _asset_response(asset)

    @app.get("/boot.json")
    def _boot_json() -> Response:
        # Whether the worker may boot from the snapshot: only one made from this bundle.zip, and
        # only for a client that takes brotli (gzip: 5.6 MB of snapshot and 3.6 MB of wasm, over
        # the 7 MB a cold boot may cost; a normal boot is within it).
        plan = site.boot_json()
        if plan["snapshot"] is not None and request.accept_encodings["br"] <= 0:
            plan.update(snapshot=None, reason="this browser takes no brotli (Accept-Encoding): "
                        "the snapshot boot would be over the cold-boot budget")
        response = _json_response(plan)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Vary"] = "Accept-Encoding"
        return response

    @app.get(f"/{page_site.BOOT_DIR}/{page_site.SNAPSHOT}")
    def _snapshot() -> Response:
        path = site.snapshot_path()
        asset = None
        if path is not None:
            asset = assets.file(path, site.precompressed(page_site.SNAPSHOT, "br"),
                                site.precompressed(page_site.SNAPSHOT, "gz"))
        if asset is None:
            return _error(404, f"not found: {request.path} (no boot snapshot made from the "
                          "bundle.zip served: `make snapshot`)")
        return _asset_response(asset)

    @app.get("/bundle.zip")
    def _bundle() -> Response:
        # From a checkout: built from the source tree on first request (cached per process; the
        # development server's reloader restarts the process when a source file changes); from
        # an installed package: the file the wheel build wrote.
        try:
            data = site.bundle_bytes()
        except page_site.SiteError as e:
            app.logger.error("%s", e)
            return _error(404, f"not found: {request.path} (see the server log)")
        return _asset_response(assets.from_bytes(data, "bundle.zip", site.bundle_digest()))

    @app.get("/config.json")
    def _config() -> Response:
        return _json_response(config)

    @app.get("/favicon.ico")
    def _favicon() -> Response:
        return Response(status=204, headers={"Cache-Control": "max-age=86400"})

    @app.get("/api/openapi.json")
    def _openapi() -> Response:
        # The OpenAPI description of this API (urlcalc/serving/openapi.py builds it from the model's
        # own constants); a fixed path wins over /api/<kind> in Werkzeug's routing.
        from urlcalc.serving.openapi import openapi_document

        return _json_response(openapi_document())

    # the public URL's origin is the page's too, behind a proxy that rewrites Host
    socket_api = SocketApi(API_KINDS,
                           lambda host: allowed_hosts is None or host_allowed(host, allowed),
                           dispatch, [urlsplit(checked).netloc] if checked is not None else (),
                           respond_on_socket)
    app.extensions["urlcalc_socket"] = socket_api

    # (the second rule: werkzeug routes a request with "Upgrade: websocket" to websocket rules
    # only)
    @app.route(SOCKET_PATH, methods=["GET"])
    @app.route(SOCKET_PATH, methods=["GET"], websocket=True, endpoint="_socket_upgrade")
    def _socket() -> Response:
        # Reached when the request is not a WebSocket opening handshake that
        # urlcalc.serving.http_server takes over: a plain GET, or any request under Flask's
        # development server. (no Upgrade header: a hop-by-hop header, which WSGI leaves to the
        # server)
        return _error(426, "this address is the API over a WebSocket (RFC 6455; messages in "
                      "urlcalc/serving/socket_api.py); urlcalc serve speaks it, the development "
                      "server (--dev) does not: use POST /api/<kind> there")

    @app.route("/api/<kind>", methods=["GET", "POST"])
    def _api(kind: str) -> Response:
        # The status is the answer's (urlcalc.answers.answer), whoever asks: 400 for a bad
        # request, 404 for an unknown kind.
        if kind not in API_KINDS:
            status, body = answer(kind, {})
            return _json_response(body, status)
        params = _post_params() if request.method == "POST" else _get_params(kind)
        client = clients.client(request.remote_addr or "", request.headers)
        try:
            done = respond(client, kind, params, _accepts_gzip())
        except Busy as e:
            raise ApiError(503, e.message, {"Retry-After": str(e.retry_after)}) from None
        return _json_bytes_response(done.body, done.gzipped, done.status)

    return app


def warm_up(app: Flask) -> None:
    """Read and compress the big assets now, so that the first browser does not wait for it."""
    assets: AssetCache = app.extensions["urlcalc_assets"]
    site: page_site.Site = app.extensions["urlcalc_site"]
    for name in PYODIDE_FILES:
        assets.file(site.pyodide_file(name), site.precompressed(name, "br"),
                    site.precompressed(name, "gz"))
    snapshot = site.snapshot_path()
    if snapshot is not None:
        assets.file(snapshot, site.precompressed(page_site.SNAPSHOT, "br"),
                    site.precompressed(page_site.SNAPSHOT, "gz"))
    with contextlib.suppress(page_site.SiteError):  # then a 404 when asked for
        assets.from_bytes(site.bundle_bytes(), "bundle.zip", site.bundle_digest())
    # The Implementations view's node helper (whatwg-url, Node's URL): started once, now.
    from urlcalc.implementations.node_adapter import start_in_background

    start_in_background()


def _url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("", "0.0.0.0") else "[::1]" if host == "::" else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def serve(host: str = "127.0.0.1", port: int = 8000, dev: bool = False,
          allowed_hosts: list[str] | None = None, public_url: str | None = None,
          trusted_proxies: list[str] | None = None) -> None:
    """Serve the calculator. ``dev``: Flask's development server (debugger, reloader); otherwise
    waitress, a multi-threaded production WSGI server (a classroom of browsers, each opening
    several connections, while the Flask development server is meant for one developer), with
    the guards of ``urlcalc.serving.http_server`` and the large requests computed in worker
    processes (``urlcalc.serving.work_pool``). Clients must name the server in the Host header: one
    of
    ``default_allowed_hosts(host)``, ``allowed_hosts``, the host of ``public_url`` (see
    create_app), or an IP address. ``trusted_proxies``: see create_app."""
    names = default_allowed_hosts(host) + [h for h in allowed_hosts or () if h]
    if public_url is not None:
        public_host = page_site.public_url_host(public_url)
        if public_host and public_host not in names:
            names.append(public_host)
    gate = HeavyGate(default_workers(), HEAVY_QUEUE, processes=not dev)
    app = create_app(allowed_hosts=names, heavy=gate, public_url=public_url, socket=not dev,
                     trusted_proxies=trusted_proxies)
    site: page_site.Site = app.extensions["urlcalc_site"]
    if site.missing_pyodide():
        print(f"warning: the Pyodide files are missing ({site.pyodide_hint()}): the page will "
              "answer from the API only", file=sys.stderr)
        app.logger.warning("Pyodide is missing from %s", site.pyodide)
    if dev:
        warm_up(app)
        print(f"urlcalc (development server) at {_url(host, port)}", flush=True)
        app.run(host=host, port=port, debug=True, threaded=True)
        return
    from urlcalc.serving.http_server import make_server

    # Bind first: a taken port or a foreign address fails before the slow start-up.
    server = make_server(app, host, port, threads=THREADS, security_headers=SECURITY_HEADERS,
                         max_body_bytes=MAX_BODY_BYTES,
                         socket_api=app.extensions["urlcalc_socket"],
                         clients=app.extensions["urlcalc_clients"])
    # SIGTERM (a service manager, `kill`) ends the server as Ctrl+C does: through the finally
    # below, which stops the worker processes.
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        warm_up(app)
        gate.start()
        # Everything alive now (modules, the idna tables, the warmed caches) will live as long
        # as the server: keep it out of the cyclic GC's full passes, which otherwise walk it
        # mid-request.
        gc.collect()
        gc.freeze()
        effective_port = int(getattr(server, "effective_port", port))
        if host in ("0.0.0.0", "::", ""):
            print("urlcalc listening on all interfaces", flush=True)
        shown = ", ".join(n for n in names if n != "*")
        print(f"Host names accepted: {'any' if '*' in names else shown} and IP addresses "
              "(add one with --allowed-host NAME)", flush=True)
        print(f"urlcalc at {_url(host, effective_port)}", flush=True)
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.close()
        gate.close()


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
