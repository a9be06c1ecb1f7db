"""Why an implementation's getter differs from the standard's: short explanations, each given only
when a check confirms it (the standard run on the library's own text gives the standard's value,
or the one rule named accounts for the whole difference). No explanation is ever guessed: where
no check confirms one, the model says none is known.

The checks work on the library's values and urlcalc's own algorithms (the percent-encode sets,
the host parser, the URL parser), never on a list of inputs."""

from __future__ import annotations

import re
from dataclasses import dataclass

from urlcalc.implementations.base import Implementation, Reading
from urlcalc.standard.host import HostFailure, host_parse, host_serialize
from urlcalc.standard.parser import ParseFailure
from urlcalc.standard.percent import percent_decode
from urlcalc.standard.record import SPECIAL_SCHEMES, URLRecord
from urlcalc.standard.url import URL, URLParseError

_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_DOT_SEGMENTS = frozenset((".", "..", "%2e", "%2E", ".%2e", ".%2E", "%2e.", "%2E.", "%2e%2e",
                           "%2E%2E", "%2e%2E", "%2E%2e"))

WHATWG_UNKNOWN = ("no explanation known: {name} implements the URL Standard, so this is a bug "
                  "in this version of it or a change of the standard since")


@dataclass(frozen=True)
class Context:
    """The input, the base and the standard's reading of them (urlcalc's URL class)."""

    input: str
    base: str | None
    url: URL | None  # None: the standard fails
    failure: ParseFailure | None

    @classmethod
    def of(cls, input: str, base: str | None) -> Context:
        try:
            return cls(input, base, URL(input, base), None)
        except URLParseError as e:
            return cls(input, base, None, e.failure)

    @property
    def record(self) -> URLRecord | None:
        return self.url.record if self.url is not None else None


def _standard_reads(ctx: Context, getter: str, text: str) -> str | None:
    """The standard's value of ``getter`` for the standard's own URL with that component replaced
    by ``text`` as written (e.g. the library's path): what the URL parser makes of it."""
    url = ctx.url
    assert url is not None
    prefix = url.protocol + ("//" + url.host if ctx.record is not None and
                             ctx.record.host is not None else "")
    if getter == "pathname":
        candidate = prefix + text
    elif getter == "search":
        candidate = prefix + url.pathname + text
    elif getter == "hash":
        candidate = prefix + url.pathname + url.search + text
    else:
        return None
    try:
        return getattr(URL(candidate), getter)  # type: ignore[no-any-return]
    except URLParseError:
        return None


def _path_reasons(name: str, family: str, value: str, ctx: Context) -> list[str]:
    record = ctx.record
    assert record is not None
    special = record.is_special
    segments = value.split("/")
    out: list[str] = []
    if special and "\\" in value:
        out.append(f"{name} does not read \\ as / (the standard does in special URLs)")
    if any(s in _DOT_SEGMENTS for s in re.split(r"[/\\]", value)):
        out.append("urlsplit keeps dot segments (urljoin removes them only when it resolves "
                   "against a base); the standard removes them" if family == "urllib" else
                   f"{name} keeps dot segments; the standard removes them")
    if _needs_encoding(value, "?^`{}\"<># "):
        out.append(f"{name} does not percent-encode the path (the standard encodes spaces, "
                   "non-ASCII and \" # < > ? ^ ` { })")
    if value == "" and special:
        out.append(f"{name} keeps an empty path; the standard gives a special URL's empty path "
                   "\"/\"")
    if record.scheme == "file" and any(re.fullmatch(r"[A-Za-z]\|", s) for s in segments):
        out.append(f"{name} does not normalise Windows drive letters (the standard turns C| "
                   "into C: in file URLs)")
    return out


def _needs_encoding(value: str, extra: str) -> bool:
    return any(ord(c) <= 0x20 or ord(c) >= 0x7F or c in extra for c in value)


def _escape_reasons(name: str, std: str, value: str) -> str | None:
    """The library normalised escapes the standard keeps as typed (RFC 3986 section 6.2.2)."""
    if _ESCAPE.sub(lambda m: m.group(0).upper(), std) == value:
        return (f"{name} uppercases percent-escapes (RFC 3986 6.2.2.1); the standard keeps "
                "them as typed")

    def decode_unreserved(m: re.Match[str]) -> str:
        ch = chr(int(m.group(0)[1:], 16))
        return ch if ch in _UNRESERVED else m.group(0).upper()

    if _ESCAPE.sub(decode_unreserved, std) == value:
        return (f"{name} decodes escapes of unreserved characters (RFC 3986 6.2.2.2: %7E "
                "becomes ~); the standard keeps them as typed")
    return None


def _host_reason(name: str, family: str, std: str, value: str, ctx: Context) -> str | None:
    """``std`` and ``value`` are hostnames."""
    record = ctx.record
    assert record is not None
    kind = record.host_kind
    if value.lower() == std and value != std:
        return f"{name} does not lowercase the host"
    if not value.isascii() and std.isascii():
        if family == "rfc3986":
            return ("RFC 3986 hosts are ASCII: rfc3986 has no IDNA (the standard maps the "
                    "host with UTS #46 and Punycode)")
        return (f"{name} has no IDNA: the host stays in Unicode (the standard maps it with "
                "UTS #46 and Punycode)")
    if kind == "ipv4":
        return (f"{name} does not parse IPv4 addresses written other ways (hexadecimal, octal, "
                f"fewer than four parts): the standard reads this host as {std}")
    if kind == "ipv6":
        return (f"{name} does not serialize IPv6 addresses; the standard lowercases them and "
                "compresses the longest run of zeros")
    if kind == "domain" and _ESCAPE.search(value):
        try:
            if host_serialize(host_parse(value, not record.is_special)) == std:
                return (f"{name} does not percent-decode the host before IDNA (the standard "
                        "does)")
        except HostFailure:
            pass
    if kind == "domain" and family == "yarl" and not ctx.input.isascii():
        return ("yarl maps the host with IDNA 2008 (the idna package); the standard uses UTS "
                "#46, which maps some code points IDNA 2008 does not (e.g. case, width, ß)")
    if kind == "opaque" and _ESCAPE.search(std) and not _ESCAPE.search(value):
        return (f"{name} does not percent-encode the host; the standard encodes an opaque "
                "host's C0 controls and non-ASCII")
    return None


def _port_reason(name: str, std: str, value: str, ctx: Context) -> str | None:
    record = ctx.record
    assert record is not None
    default = SPECIAL_SCHEMES.get(record.scheme)
    if std == "" and default is not None and value == str(default):
        return (f"{name} keeps the scheme's default port; the standard drops it (port {default} "
                f"of {record.scheme} becomes null)")
    if value.isdigit() and value.lstrip("0") != value and str(int(value)) == std:
        return f"{name} keeps leading zeros in the port"
    return None


def _split_host(host: str) -> tuple[str, str]:
    if host.startswith("["):
        end = host.find("]")
        rest = host[end + 1:]
        return host[: end + 1], rest[1:] if rest.startswith(":") else ""
    name, _, port = host.rpartition(":") if ":" in host else (host, "", "")
    return name, port


def explain_getter(impl: Implementation, getter: str, std: str, value: str, ctx: Context,
                   others: list[str]) -> str | None:
    """Why ``impl`` gives ``value`` where the standard gives ``std``, or None (not known).
    ``others``: the other getters that differ (href follows from them)."""
    name, family = impl.name, impl.family
    if family == "whatwg":
        return WHATWG_UNKNOWN.format(name=name)
    record = ctx.record
    if record is None:
        return None
    if getter == "href":
        parts = [g for g in others if g not in ("href", "origin")]
        reasons = [f"follows from {', '.join(parts)}"] if parts else []
        if (std.endswith(("?", "#")) or "?#" in std) and not value.endswith(("?", "#")):
            reasons.append(f"{name} drops a \"?\" or \"#\" with nothing after it; the standard "
                           "keeps an empty query or fragment")
        return "; ".join(reasons) or None
    if getter == "origin":
        if std == "null" and value != "null":
            return (f"{name} gives every URL with a host an origin; the standard's origin of "
                    f"a {record.scheme}: URL is opaque (serialized \"null\")")
        if "host" in others:
            return "follows from host"
        return None
    if (record.is_special and "\\" in ctx.input and getter in ("host", "hostname", "pathname")
            and ("\\" in value or "%5C" in value.upper() or value == "")):
        return (f"{name} does not read \\ as / (the standard does in special URLs: "
                f"{record.scheme}:\\\\a\\b is {record.scheme}://a/b)")
    if getter == "hostname":
        return _host_reason(name, family, std, value, ctx)
    if getter == "port":
        return _port_reason(name, std, value, ctx)
    if getter == "host":
        std_name, std_port = _split_host(std)
        val_name, val_port = _split_host(value)
        host_reasons: list[str | None] = []
        if std_name != val_name:
            host_reasons.append(_host_reason(name, family, std_name, val_name, ctx))
        if std_port != val_port:
            host_reasons.append(_port_reason(name, std_port, val_port, ctx))
        if not host_reasons or None in host_reasons:
            return None
        return "; ".join(r for r in host_reasons if r)
    if getter in ("username", "password"):
        if _needs_encoding(value, "\"#<>?`{}/:;=@[\\]^|"):
            return (f"{name} does not percent-encode the {getter} (the standard encodes "
                    "it with the userinfo percent-encode set)")
        return _escape_reasons(name, std, value)
    if getter in ("pathname", "search", "hash"):
        escapes = _escape_reasons(name, std, value)
        if escapes:
            return escapes
        if getter == "pathname" and isinstance(record.path, str) and _ESCAPE.search(value) \
                and percent_decode(value) == std.encode("utf-8"):
            return (f"{name} percent-encodes the path; the standard keeps an opaque path "
                    f"({record.scheme}:...) as typed, encoding only C0 controls")
        if getter == "search" and std.replace("%20", "+") == value:
            return (f"{name} writes a space in the query as + (form encoding); the standard "
                    "percent-encodes it as %20")
        if _standard_reads(ctx, getter, value) != std:
            return None
        if getter == "pathname":
            if isinstance(record.path, str):
                return None
            return "; ".join(_path_reasons(name, family, value, ctx)) or None
        if _needs_encoding(value, "\"<>`" + ("'" if getter == "search" and record.is_special
                                               else "")):
            part = "query" if getter == "search" else "fragment"
            return (f"{name} does not percent-encode the {part} (the standard encodes spaces, "
                    "non-ASCII and some ASCII punctuation)")
    return None


def explain_status(impl: Implementation, reading: Reading, ctx: Context) -> str:
    """Why ``impl`` parses what the standard rejects, or rejects what it parses."""
    name = impl.name
    if reading.ok:  # the standard failed
        failure = ctx.failure
        error = failure.error if failure is not None else None
        if reading.relative and ctx.base is None:
            return (f"{name} reads the input as a relative reference (it has no scheme); the "
                    "standard's URL constructor needs an absolute URL, or a base to resolve "
                    "against")
        why = "failure"
        if error is not None:
            why = f"validation error {error.name}"
        elif failure is not None and failure.reason:
            why = failure.reason
        if impl.family == "whatwg":
            return (f"{name} parses it where the standard fails ({why}); "
                    + WHATWG_UNKNOWN.format(name=name))
        return f"{name} does not check what makes the standard fail here ({why})"
    failure_text = reading.failure or "failure"
    if impl.family == "whatwg":
        return f"{name} fails ({failure_text}); " + WHATWG_UNKNOWN.format(name=name)
    if impl.family == "rfc3986" and not ctx.input.isascii():
        return (f"rfc3986 rejects it ({failure_text}): RFC 3986 URIs are ASCII (non-ASCII is "
                "for IRIs, RFC 3987); the standard percent-encodes or IDNA-maps it")
    return f"{name} rejects it ({failure_text}); the standard parses it"
