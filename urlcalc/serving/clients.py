"""Who a request comes from: the connection's address, or, when the connection comes from a
trusted reverse proxy (``urlcalc serve --trusted-proxy ADDR``), the client it forwards for.

Behind a proxy every connection comes from the proxy's address, and behind a school's NAT a
whole class shares one; the heavy requests' fair shares (urlcalc.serving.work_pool) and the
per-address connection cap (urlcalc.serving.http_server) would then treat the class as one
client. A trusted proxy says whom it forwards for in ``Forwarded`` (RFC 7239: ``for=``) or
``X-Forwarded-For``; those headers are read **only** on connections from a trusted proxy (anyone
else could write them), from the right: each proxy appends the address it got the request from,
so the rightmost address that is not itself a trusted proxy is the client. ``Forwarded`` wins
when both are present. A value that is not an address (``unknown``, an obfuscated ``_name``, or
nonsense) names no client: the request is then the proxy's own.

A trusted proxy's own connections are not capped per address (they carry the whole class); the
connection limit still holds."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Protocol

__all__ = ["MAX_FORWARDED_HOPS", "Clients", "parse_proxy"]

#: Addresses read from the right of a forwarding header, at most (a longer chain is a forgery or
#: a loop; its leftmost part is ignored).
MAX_FORWARDED_HOPS = 16

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class Headers(Protocol):
    """Request headers: a dict, waitress's, or werkzeug's."""

    def items(self) -> Iterable[tuple[str, str]]: ...


def parse_proxy(text: str) -> Network:
    """A ``--trusted-proxy`` value: an address (``10.0.0.5``, ``::1``) or a network
    (``10.0.0.0/8``). Raises ValueError for anything else."""
    return ipaddress.ip_network(text.strip(), strict=False)


def _address(text: str) -> str | None:
    """The address in a forwarding header's node (``192.0.2.1``, ``192.0.2.1:8080``,
    ``"[2001:db8::1]:4711"``, ``2001:db8::1``), normalised; None for anything else."""
    node = text.strip().strip('"').strip()
    if node.startswith("["):
        end = node.find("]")
        if end < 0:
            return None
        node = node[1:end]
    elif node.count(":") == 1:  # IPv4 with a port
        node = node.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(node))
    except ValueError:
        return None


def _forwarded_for(value: str) -> list[str]:
    """The ``for=`` nodes of a Forwarded header, in order (RFC 7239 section 4; quoted strings
    with commas or semicolons in them are not addresses, and are read as nonsense)."""
    nodes = []
    for element in value.split(","):
        for pair in element.split(";"):
            name, _, node = pair.partition("=")
            if name.strip().lower() == "for":
                nodes.append(node)
    return nodes


class Clients:
    """Who a request comes from, given the trusted proxies (none: always the address)."""

    def __init__(self, trusted_proxies: Iterable[str | Network] = ()) -> None:
        self.trusted = tuple(p if isinstance(p, ipaddress.IPv4Network | ipaddress.IPv6Network)
                             else parse_proxy(p) for p in trusted_proxies)

    def is_trusted(self, address: str) -> bool:
        """Whether ``address`` (a connection's peer) is a trusted proxy."""
        if not self.trusted:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == net.version and ip in net for net in self.trusted)

    def client(self, address: str, headers: Headers) -> str:
        """The client of a request on a connection from ``address`` with these headers (names
        as given: WSGI's ``HTTP_FORWARDED``/``HTTP_X_FORWARDED_FOR``, waitress's
        ``FORWARDED``/``X_FORWARDED_FOR``, or the headers' own names in any case)."""
        if not self.is_trusted(address):
            return address
        forwarded = _header(headers, "forwarded")
        if forwarded is not None:
            nodes = _forwarded_for(forwarded)
        else:
            xff = _header(headers, "x-forwarded-for")
            nodes = xff.split(",") if xff is not None else []
        for node in reversed(nodes[-MAX_FORWARDED_HOPS:]):
            found = _address(node)
            if found is None:
                return address  # "unknown", obfuscated or nonsense: the proxy's own request
            if not self.is_trusted(found):
                return found
        return address


def _header(headers: Headers, name: str) -> str | None:
    """The header's value; several fields of the name joined with commas, in order (as HTTP
    reads them)."""
    wanted = {name, name.upper().replace("-", "_"), "HTTP_" + name.upper().replace("-", "_")}
    values = [value for key, value in headers.items() if key in wanted or key.lower() == name]
    return ",".join(values) if values else None
