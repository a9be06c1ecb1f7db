"""``rfc3986`` (PyPI, pure Python): the strict RFC 3986 view. The input must be a valid URI
reference (every component checked by its validator), is resolved against the base with RFC
3986 section 5.2, and normalised (section 6.2.2: case, percent-encoding, dot segments).

Server only (the page's Pyodide bundle holds urlcalc and idna alone); an optional dependency:
``pip install urlcalc[implementations]``."""

from __future__ import annotations

import warnings
from typing import Any

from urlcalc.implementations.base import Implementation, Reading, exception_text, python_package

_COMPONENTS = ("scheme", "userinfo", "host", "port", "path", "query", "fragment")


def _module() -> Any:
    import rfc3986

    # resolve_with() calls its own deprecated is_valid(): that warning is about rfc3986's
    # internals, not about anything a caller of ours did.
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"rfc3986\.")
    return rfc3986


def read(input: str, base: str | None) -> Reading:
    rfc3986 = _module()
    from rfc3986 import exceptions, validators

    validator = validators.Validator().check_validity_of(*_COMPONENTS)
    try:
        ref = rfc3986.uri_reference(input)
        validator.validate(ref)
        if base is not None:
            base_ref = rfc3986.uri_reference(base)
            validator.validate(base_ref)
            ref = ref.resolve_with(base_ref)
        ref = ref.normalize()
    except exceptions.InvalidComponentsError as e:
        # args: (message, the reference, the invalid components)
        return Reading.failed(f"InvalidComponentsError: {e.args[0]}")
    except (exceptions.RFC3986Exception, ValueError) as e:
        return Reading.failed(exception_text(e))
    userinfo = ref.userinfo
    username, _, password = (userinfo or "").partition(":")
    hostname = ref.host or ""
    port = ref.port or ""
    getters: dict[str, str | None] = {
        "href": ref.unsplit(),
        "origin": None,
        "protocol": f"{ref.scheme}:" if ref.scheme else "",
        "username": username,
        "password": password,
        "host": hostname + (f":{port}" if port else ""),
        "hostname": hostname,
        "port": port,
        "pathname": ref.path or "",
        "search": f"?{ref.query}" if ref.query else "",
        "hash": f"#{ref.fragment}" if ref.fragment else "",
    }
    return Reading(ok=True, getters=getters, relative=ref.scheme is None)


RFC3986 = Implementation(
    id="rfc3986",
    name="rfc3986",
    family="rfc3986",
    runtime_kind="python",
    about="The python-hyper rfc3986 package: URI references by the letter of RFC 3986 (2005). "
    "Validates each component against the RFC's grammar (so non-ASCII hosts, spaces in the "
    "authority, ports over 65535 are invalid), resolves with section 5.2 and normalises with "
    "section 6.2.2. It knows no scheme: no default ports, no special treatment of http or file, "
    "no IDNA, no IPv4 numbers.",
    call="uri_reference(input), validated, .resolve_with(uri_reference(base)), .normalize()",
    package="pypi:rfc3986",
    mapping={
        "href": ".unsplit()",
        "protocol": ".scheme + \":\"",
        "username": ".userinfo before the first \":\"",
        "password": ".userinfo after the first \":\"",
        "host": ".host, then \":\" + .port when there is one",
        "hostname": ".host (IPv6 literals keep their brackets)",
        "port": ".port as written (no default ports)",
        "pathname": ".path",
        "search": "\"?\" + .query when not empty",
        "hash": "\"#\" + .fragment when not empty",
    },
    no_notion={"origin": "RFC 3986 has no notion of an origin (RFC 6454 builds one on it)"},
    **python_package(_module, "rfc3986"),
    read=read,
)
