"""Hypothesis strategies for URL-shaped and arbitrary strings (tests/test_properties.py and
``make fuzz``).

* ``any_text``: arbitrary Unicode strings, lone surrogates included (as JavaScript strings and
  JSON can carry them).
* ``url_strings``: grammar-shaped URL strings: schemes special, non-special and file (in any
  case), userinfo, hosts (domains, IDN with joiners, bidi and emoji, ``xn--`` labels valid and
  invalid, IPv4 in decimal/hex/octal/short forms, IPv6 with compression and embedded IPv4,
  opaque hosts), ports at the limits, paths with dot segments and ``%2e`` variants, backslashes,
  Windows drive letters, queries, fragments, percent signs, tabs/newlines, leading/trailing C0
  controls and spaces; every token can also be arbitrary text.
* ``relative_strings``: relative references of the same parts; ``bases``: base URL strings.
* ``host_strings``: hosts alone; ``setter_values(name)``: values for each URL setter.

The token lists are shared with the differential generator (tests/differential/generate.py).
"""

from __future__ import annotations

import cases
from differential import generate as g
from hypothesis import strategies as st

any_char = st.characters(exclude_categories=())
any_text = st.text(any_char, max_size=40)
# mostly URL-ish ASCII, some of everything
url_char = st.one_of(
    st.sampled_from("abcxyzABC0129-._~/\\?#@:[]%!$&'()*+,;= \t\n"),
    st.sampled_from(g.SPECIAL_CHARS),
    any_char,
)
url_text = st.text(url_char, max_size=12)


def _tokens(values: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(values), url_text)


label = st.one_of(st.sampled_from(g.ASCII_LABELS), st.sampled_from(g.XN_LABELS),
                  st.sampled_from(g.IDN_LABELS), url_text)
domain = st.builds(
    lambda labels, sep, dot: sep.join(labels) + dot,
    st.lists(label, min_size=1, max_size=5),
    st.sampled_from((".", ".", ".", "\u3002", "\uff0e", "%2e", "%2E")),
    st.sampled_from(("", "", "", ".")),
)


@st.composite
def ipv4(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(g.IPV4))
    parts = draw(st.lists(st.tuples(
        st.sampled_from(("dec", "hex", "HEX", "oct", "empty")),
        st.one_of(st.sampled_from((0, 1, 7, 8, 255, 256, 65535, 65536, 2**24, 2**32 - 1,
                                   2**32)), st.integers(0, 2**40))),
        min_size=1, max_size=6))
    out = []
    for kind, n in parts:
        out.append({"dec": str(n), "hex": f"0x{n:x}", "HEX": f"0X{n:X}", "oct": f"0{n:o}",
                    "empty": ""}[kind])
    return ".".join(out)


@st.composite
def ipv6(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(g.IPV6))
    pieces = draw(st.lists(st.one_of(
        st.integers(0, 0xFFFF).map(lambda v: f"{v:x}"),
        st.integers(0, 0xFFFF).map(lambda v: f"{v:04X}"),
        st.sampled_from(("", "0", "00000", "g", "1.2.3.4", "255.255.255.255", "1.2.3.256",
                         "01.2.3.4"))), max_size=10))
    text = ":".join(pieces)
    if draw(st.booleans()):
        text = text.replace(":", "::", 1)
    return "[" + text + "]"


host = st.one_of(domain, ipv4(), ipv6(), st.sampled_from(g.OPAQUE_HOSTS), url_text)
port = _tokens(g.PORTS)
userinfo = _tokens(g.USERINFO)
segment = _tokens(g.SEGMENTS)
path = st.builds(
    lambda segs, lead: "".join(s + seg for s, seg in segs).lstrip("/\\" if lead else ""),
    st.lists(st.tuples(st.sampled_from(("/", "/", "/", "\\", "//")), segment), max_size=6),
    st.booleans(),
)
query = st.one_of(st.just(""), st.builds(lambda q: "?" + q, _tokens(g.QUERIES)))
fragment = st.one_of(st.just(""), st.builds(lambda f: "#" + f, _tokens(g.FRAGMENTS)))
scheme = st.one_of(
    st.sampled_from((*g.SPECIAL, "file", *g.NON_SPECIAL, *g.SCHEME_CASES, *g.BAD_SCHEMES)),
    st.text("abcxyz+-.0129", max_size=6))
junk = st.text(st.sampled_from(g.JUNK), max_size=3)


@st.composite
def authority(draw: st.DrawFn) -> str:
    out = ""
    if draw(st.integers(0, 4)) == 0:
        out += draw(userinfo) + "@"
    out += draw(host)
    if draw(st.integers(0, 3)) == 0:
        out += ":" + draw(port)
    return out


@st.composite
def url_strings(draw: st.DrawFn) -> str:
    s = draw(scheme)
    form = draw(st.integers(0, 9))
    if form < 6:
        body = draw(st.sampled_from(("//", "//", "//", "/", "", "\\\\", "///", "/\\"))) \
            + draw(authority()) + draw(path)
    elif form < 8:
        drive = draw(st.sampled_from(("C:", "C|", "c:", "z|", "C", "1:", "C:x")))
        body = draw(st.sampled_from(("", "/", "//", "///", "//host/", "//localhost/"))) + drive \
            + draw(path)
    else:
        body = draw(path).lstrip("/\\") + draw(st.sampled_from(("", " ", "  ", " x")))
    text = s + ":" + body + draw(query) + draw(fragment)
    return _dirty(draw, text)


def _dirty(draw: st.DrawFn, text: str) -> str:
    """Leading/trailing C0 controls and spaces; a tab or newline inside."""
    text = draw(junk) + text + draw(junk)
    if text and draw(st.integers(0, 9)) == 0:
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(("\t", "\n", "\r"))) + text[i:]
    return text


@st.composite
def relative_strings(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return _dirty(draw, draw(st.sampled_from(g.RELATIVE)))
    text = draw(path) + draw(query) + draw(fragment)
    if draw(st.integers(0, 4)) == 0:
        text = "//" + draw(authority()) + text
    return _dirty(draw, text)


bases = st.one_of(st.none(), st.sampled_from(tuple(b for b in g.BASES if b is not None)),
                  url_strings())


def _corpus() -> tuple[str, ...]:
    return tuple(input for input, _ in cases.corpus())


# plain web URLs (the benchmark corpus), as they are or with a few code points changed: the fast
# path's ground
corpus_urls = st.builds(
    lambda url, edits: _edit(url, edits), st.sampled_from(_corpus()),
    st.lists(st.tuples(st.integers(0, 200), st.one_of(st.just(""), url_text)), max_size=2))


def _edit(url: str, edits: list[tuple[int, str]]) -> str:
    for at, text in edits:
        at %= len(url) + 1
        url = url[:at] + text + url[at + 1:]
    return url


# every kind of input: grammar-shaped absolute and relative, plain URLs, arbitrary text
inputs = st.one_of(url_strings(), relative_strings(), corpus_urls, any_text)
host_strings = st.one_of(domain, ipv4(), ipv6(), st.sampled_from(g.OPAQUE_HOSTS), any_text)


def setter_values(name: str) -> st.SearchStrategy[str]:
    specific: dict[str, st.SearchStrategy[str]] = {
        "href": st.one_of(url_strings(), relative_strings()),
        "protocol": st.builds(lambda s, tail: s + tail, scheme,
                              st.sampled_from(("", ":", "://", ":x", "\t", " "))),
        "username": userinfo,
        "password": userinfo,
        "host": st.builds(lambda a, p: a.rpartition("@")[2] + p, authority(), path),
        "hostname": st.builds(lambda h, p: h + p, host, st.one_of(st.just(""), path)),
        "port": st.builds(lambda p, rest: p + rest, port, st.one_of(st.just(""), path)),
        "pathname": st.builds(lambda p, q: p + q, path, query),
        "search": st.builds(lambda q, f: q + f, query, fragment),
        "hash": st.builds(lambda f, t: f + t, fragment, url_text),
    }
    return st.one_of(specific[name], any_text)
