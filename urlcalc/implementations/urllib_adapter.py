"""Python's ``urllib.parse``: what a Python program gets from ``urlsplit(urljoin(base, input))``.

Not an implementation of the URL Standard (nor strictly of RFC 3986): it splits a string into
components without percent-encoding, IDNA, IPv4 parsing or (in urlsplit) dot-segment removal,
and it never rejects a relative reference. It runs in both engines (CPython on the server,
Pyodide in the page)."""

from __future__ import annotations

import sys
from urllib.parse import urljoin, urlsplit

from urlcalc.implementations.base import (
    Implementation,
    Reading,
    exception_text,
    python_runtime,
)


def read(input: str, base: str | None) -> Reading:
    try:
        parts = urlsplit(urljoin(base, input) if base is not None else input)
    except ValueError as e:  # "Invalid IPv6 URL"
        return Reading.failed(exception_text(e))
    errors: dict[str, str] = {}
    port: int | None = None
    try:
        port = parts.port
    except ValueError as e:  # "Port out of range 0-65535", "Port could not be cast ..."
        errors["port"] = errors["host"] = exception_text(e)
    hostname = parts.hostname or ""
    if ":" in hostname:  # an IPv6 address: urllib drops the brackets the standard shows
        hostname = f"[{hostname}]"
    port_text = "" if port is None else str(port)
    getters: dict[str, str | None] = {
        "href": parts.geturl(),
        "origin": None,
        "protocol": f"{parts.scheme}:" if parts.scheme else "",
        "username": parts.username or "",
        "password": parts.password or "",
        "host": None if "host" in errors else hostname + (f":{port_text}" if port_text else ""),
        "hostname": hostname,
        "port": None if "port" in errors else port_text,
        "pathname": parts.path,
        "search": f"?{parts.query}" if parts.query else "",
        "hash": f"#{parts.fragment}" if parts.fragment else "",
    }
    return Reading(ok=True, getters=getters, getter_errors=errors, relative=not parts.scheme)


URLLIB = Implementation(
    id="urllib",
    name="urllib.parse",
    family="urllib",
    runtime_kind="python",
    about="Python's standard library URL splitter: what most Python programs use. It splits "
    "the string at the delimiters and leaves the pieces as typed: no percent-encoding, no "
    "IDNA, no IPv4 parsing; urlsplit keeps dot segments (urljoin removes them when it "
    "resolves against a base); a string without a scheme is a relative reference, not an error.",
    call="urlsplit(urljoin(base, input)) (urlsplit(input) without a base)",
    package="stdlib",
    mapping={
        "href": "geturl() (urlunsplit of the parts)",
        "protocol": ".scheme + \":\" (urlsplit lowercases the scheme)",
        "username": ".username (None as \"\")",
        "password": ".password (None as \"\")",
        "host": ".hostname, then \":\" + .port when a port is given",
        "hostname": ".hostname (lowercased; an IPv6 address in brackets, as the standard "
        "shows it)",
        "port": "str(.port) (\"\" when None; .port raises ValueError out of 0-65535)",
        "pathname": ".path",
        "search": "\"?\" + .query when the query is not empty",
        "hash": "\"#\" + .fragment when the fragment is not empty",
    },
    no_notion={"origin": "urllib.parse has no notion of an origin"},
    unavailable=lambda: None,
    version=lambda: "{}.{}.{}".format(*sys.version_info[:3]),  # the stdlib's is Python's
    runtime=python_runtime,
    read=read,
)
