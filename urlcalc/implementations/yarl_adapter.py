"""``yarl`` (PyPI): the URL class of aiohttp and much of Python's async HTTP stack. It follows
RFC 3986 and normalises on construction: it percent-encodes, removes dot segments, lowercases
and IDNA-encodes the host, and drops a default port. Server only; an optional dependency
(``pip install urlcalc[implementations]``)."""

from __future__ import annotations

from typing import Any

from urlcalc.implementations.base import Implementation, Reading, exception_text, python_package


def _module() -> Any:
    import yarl

    return yarl


def read(input: str, base: str | None) -> Reading:
    yarl = _module()
    try:
        url = yarl.URL(input)
        if base is not None:
            url = yarl.URL(base).join(url)
        href = str(url)
    except (ValueError, TypeError, UnicodeError) as e:
        return Reading.failed(exception_text(e))
    errors: dict[str, str] = {}
    origin: str | None = None
    try:
        origin = str(url.origin())
    except ValueError as e:  # "URL should be absolute": no host
        errors["origin"] = exception_text(e)
    hostname = url.raw_host or ""
    if ":" in hostname:  # IPv6: yarl's raw_host drops the brackets the standard shows
        hostname = f"[{hostname}]"
    port = url.explicit_port
    port_text = "" if port is None or url.is_default_port() else str(port)
    getters: dict[str, str | None] = {
        "href": href,
        "origin": origin,
        "protocol": f"{url.scheme}:" if url.scheme else "",
        "username": url.raw_user or "",
        "password": url.raw_password or "",
        "host": hostname + (f":{port_text}" if port_text else ""),
        "hostname": hostname,
        "port": port_text,
        "pathname": url.raw_path,
        "search": f"?{url.raw_query_string}" if url.raw_query_string else "",
        "hash": f"#{url.raw_fragment}" if url.raw_fragment else "",
    }
    return Reading(ok=True, getters=getters, getter_errors=errors,
                   relative=not url.is_absolute())


YARL = Implementation(
    id="yarl",
    name="yarl",
    family="yarl",
    runtime_kind="python",
    about="aiohttp's URL class (yarl): RFC 3986 with normalisation on construction. It "
    "percent-encodes what RFC 3986 does not allow, decodes escapes of unreserved characters "
    "(%7E becomes ~), removes dot segments, lowercases and IDNA-encodes the host (IDNA 2008 "
    "through the idna package, not UTS #46), drops a default port and an empty query; a string "
    "without a scheme is a relative URL, not an error. It has no notion of special schemes.",
    call="yarl.URL(base).join(yarl.URL(input)) (yarl.URL(input) without a base)",
    package="pypi:yarl",
    mapping={
        "href": "str(url)",
        "origin": "str(url.origin()) (raises ValueError for a URL without a host)",
        "protocol": ".scheme + \":\"",
        "username": ".raw_user",
        "password": ".raw_password",
        "host": ".raw_host, then \":\" + the port when it is not the scheme's default",
        "hostname": ".raw_host (IPv6 in brackets, as the standard shows it)",
        "port": ".explicit_port, \"\" when is_default_port()",
        "pathname": ".raw_path",
        "search": "\"?\" + .raw_query_string when not empty",
        "hash": "\"#\" + .raw_fragment when not empty",
    },
    no_notion={},
    **python_package(_module, "yarl"),
    read=read,
    idna="the idna package, then CPython's punycode codec",
)
