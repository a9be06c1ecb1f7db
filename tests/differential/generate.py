"""Tricky inputs for differential testing against the reference implementation.

``cases(n, seed)`` returns ``n`` requests (dicts in the wire format of reference.mjs): parse
requests ``{"op": "parse", "input", "base"}`` and setter requests ``{"op": "set", "href",
"setter", "value"}``. The same ``n`` and ``seed`` always give the same list (a private
``random.Random``; no dependence on hash randomisation or dict order beyond insertion order).

The mix (by weight): grammar-built URLs (every scheme family, userinfo, domains, IDN with joiners,
bidi and emoji, ``xn--`` labels valid and invalid, IPv4 in decimal/hex/octal/short forms, IPv6
with compression and embedded IPv4, opaque hosts, ports at the limits, paths with dot segments and
``%2e`` variants, backslashes, Windows drive letters, queries, fragments, percent signs, tabs and
newlines, leading/trailing C0 controls and spaces, lone surrogates), relative references against
bases of every kind, mutations of the WPT urltestdata inputs (insert/delete/replace code points,
swap slashes, case changes), and setter requests on the WPT setters_tests hrefs and on generated
URLs with WPT and generated values (and mutations of both).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from cases import host_inputs, setter_cases, url_inputs  # tests/ is on sys.path (conftest.py)

Request = dict[str, Any]

SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")

SPECIAL = ("http", "https", "ws", "wss", "ftp")
NON_SPECIAL = ("foo", "sc", "data", "javascript", "mailto", "blob", "urn", "about", "git+ssh",
               "a.b-c+d", "x")
SCHEME_CASES = ("HTTP", "hTtPs", "WS", "Ftp", "FILE", "FiLe", "Blob", "SC")
BAD_SCHEMES = ("1http", "ht^tp", "h ttp", "-x", "+a", "http\u0130", "é")

# Code points that parsers treat specially somewhere.
SPECIAL_CHARS = (
    "/", "\\", "?", "#", "@", ":", "[", "]", "%", ".", " ", "\t", "\n", "\r", "\x00", "\x01",
    "\x1f", "\x7f", "\x80", "\xa0", "'", '"', "<", ">", "`", "^", "{", "}", "|", "~", "&", "=",
    "+", ";", ",", "$", "!", "*", "(", ")", "\u00ad", "\u200b", "\u200c", "\u200d", "\u2028",
    "\u202e", "\u3002", "\uff0e", "\uff61", "\ufeff", "\ufffd", "\ufdd0", "\uffff", "\U0001f600",
    "\U0010fffd", "\U0010ffff", "\ud800", "\udfff", "\u0130", "\u212a", "ß", "ς", "İ", "é", "ẞ",
)

ASCII_LABELS = ("example", "a", "EXAMPLE", "ex-ample", "-lead", "trail-", "ab--cd", "x" * 63,
                "y" * 64, "0", "1", "123", "0x1f", "09", "localhost", "LOCALHOST", "www",
                "com", "xn", "_under", "a_b", "a.b", "")
XN_LABELS = (
    "xn--nxasmq6b",         # valid: βόλος
    "xn--bcher-kva",        # valid: bücher
    "XN--BCHER-KVA",        # valid, uppercase
    "xn--ls8h",             # valid: emoji
    "xn--53h",              # ☕
    "xn--",                 # empty Punycode
    "xn--a",                # decodes to ASCII only
    "xn--a-",               # trailing hyphen
    "xn--zca",              # ß
    "xn--8i7caa",           # decodes to mapped full-width code points
    "xn--55qx5d",           # 公司
    "xn--ggle-0nda",        # ġgle
    "xn--abc-",
    "xn--ab--c",
    "xn--1ch",
    "xn--9ca",
    "xn--d",
    "xn--zz",
    "xn--ab\u00e9",         # non-ASCII in an xn-- label
    "xn--mgba3a4f16a",      # Arabic
    "xn--4dbrk0ce",         # Hebrew
    "xn--0ugc",             # a joiner
    "xn--1ug",
    "xn--" + "a" * 59,
    "xn--" + "b" * 70,
)
IDN_LABELS = (
    "bücher", "BÜCHER", "faß", "ΣΌΛΟΣ", "βόλος", "ünicode", "日本語", "公司", "☕", "💩",
    "👨\u200d👩\u200d👧", "a\u200db", "a\u200cb", "\u0915\u094d\u200d\u0937",  # ZWJ after virama
    "\u0915\u094d\u200c\u0937", "\u0628\u200c\u0628",  # ZWNJ between dual-joining letters
    "\u05d0\u05d1", "\u05d0\u05d11", "1\u05d0", "\u05d0a", "\u0627\u0644\u0639\u0631\u0628\u064a",
    "\u0627\u0661\u0031", "a\u0300", "\u0300a", "ｅｘａｍｐｌｅ", "Ｅ", "\u00ad", "a\u00adb",
    "\u2665", "\u03c2", "\u1e9e", "\u2163", "\u2488", "\u24b6", "\ufb01", "\u3002", "ab\u3002cd",
    "\uff0e", "\u0130", "\u212a", "\u2100", "\u2a74", "\U0001f1fa\U0001f1f8", "\u0345",
    "\u17b4", "\u180e", "\u0640", "\u00df\u00df", "\u0649\u0660", "\u0660\u06f0",
    "\U0001e900", "\u08a0", "\u0e01", "\u1100\u1161", "\u3131", "\u30a1", "\U00020000",
    "\ufffd", "\ud800", "x\udc00y", "\U000e0001", "\U0001d400",
)
IPV4 = (
    "0", "1", "127.0.0.1", "255.255.255.255", "256.0.0.1", "1.2.3.256", "4294967295",
    "4294967296", "0xffffffff", "0x100000000", "0x7f.1", "0x7F.0.0.1", "0177.0.0.1", "017700000001",
    "08", "09.1.2.3", "0x", "0X", "0x.0x.0", "00", "1.2.3", "1.2", "1.256", "1.65536", "1.2.65535",
    "1.2.65536", "1.2.3.4.", "1.2.3.4..", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.4.5.",
    "0xg", "0x1g", "1e3", "1.2.3.09", "0.0.0.0", "999999999999999999999", "0x" + "f" * 30,
    "0" * 40 + "1", "1." + "9" * 30, "0.0x300", "0x1.0x2.0x3.0x4", "0255.0.0.1", "١٢٣",
    "\uff11\uff12\uff17.0.0.1", "1\u30020\u30020\u30021", "%31.2.3.4", "1.2.3.4%2e",
)
IPV6 = (
    "[::]", "[::1]", "[1::]", "[::ffff:1.2.3.4]", "[::ffff:192.168.0.256]", "[::1.2.3]",
    "[::1.2.3.4.5]", "[::01.2.3.4]", "[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8:9]", "[1:2:3:4:5:6:7]",
    "[1:2:3:4:5:6:7::]", "[::1:2:3:4:5:6:7]", "[1:2:3:4:5:6::1.2.3.4]", "[1:2:3:4:5:6:7:1.2.3.4]",
    "[0:0:0:0:0:0:0:1]", "[0000:0000::0001]", "[00001::]", "[1::2::3]", "[:1]", "[1:]", "[1:::]",
    "[::1:]", "[ABCD:EF01::]", "[0:0:1:0:0:0:0:0]", "[1:0:0:2:0:0:0:3]", "[1:0:0:2:0:0:3:4]",
    "[::ffff:0.0.0.0]", "[::1.2.3.04]", "[::1.2.3.]", "[::.1.2.3]", "[1:2:3:4:5:6:1.2.3.4]",
    "[1:2:3:4:5:6:7:1.2.3.4]", "[::g]", "[::1%25eth0]", "[::1", "::1]", "[]", "[:]", "[::1.]",
    "[::1.2]", "[::255.255.255.255]", "[::256.1.1.1]", "[fe80::1]", "[FE80::A:B]",
    "[::ffff:7f00:1]", "[1:2:3:4:5::1.2.3.4]", "[ :: ]", "[::\u0661]", "[0x1::]",
)
OPAQUE_HOSTS = ("h", "H", "a b", "a%20b", "a%zz", "é", "a<b", "%", "a^b", "a|b", "ex%2Eample",
                "[::1]", "xn--", "h\x00", "a\u200bb", "\ud800", "~!$&'()*+,;=")
PORTS = ("", "0", "1", "21", "80", "443", "8080", "65535", "65536", "99999", "000080",
         "0000000000000000000000000000080", "9" * 30, "-1", "1a", "a", " 1", "1 ", "\t8\n0", "+1",
         "0x50", "٣", "80:80", ":")
SEGMENTS = (".", "..", "%2e", "%2E", ".%2e", "%2e.", "%2E%2e", "...", ". .", "a", "b", "C:",
            "C|", "c:", "z|", "a:b", "%2f", "%5c", "%", "%zz", "%41", "%00", "é", "a b", "a?b",
            "a#b", "\\", "\ud800", "\ufdd0", "`", "{}", "^", "'", '"', "<>", "\x7f", "\x1f",
            "😀", "%E2%82%AC", "%c3%28", "", "x" * 20)
QUERIES = ("", "a=b", "a=b&c=d", "a+b", "q='x'", 'q="x"', "a b", "a%20b", "%zz", "é=ü", "?",
           "#", "a=%ff", "x=\ud800", "&&", "=&=", "a=1;b=2", "<>`{}", "\x00\x1f\x7f", "%%",
           "a=b+c%2Bd", "😀")
FRAGMENTS = ("", "f", "a b", "#", "%", "é", "\x00", "`", "<>", "a#b", "\ud800", "😀", "?", "%zz")
USERINFO = ("", "user", "user:pass", ":pass", "user:", ":", "u@v", "a:b:c", "üser", "a%40b",
            "a b", "a\tb", "@", "::", "us\u00e9r:p@ss", "%", "%zz", "a/b", "a[b]")
BASES = (
    None, "http://example.org/foo/bar", "https://user:pass@host:8080/a/b/c?q#f",
    "http://h/", "file:///C:/dir/file", "file://host/share/x", "file:///", "file:///tmp/mock/path",
    "sc://h/a/b", "sc:/a/b", "sc:opaque", "mailto:x@y", "about:blank", "data:text/plain,x",
    "ws://h:81/p?q", "http://[::1]:8000/x/", "http://1.2.3.4/a", "ftp://f/p/", "foo://",
    "non-spec:/.//p", "blob:https://example.com/uuid", "javascript:alert(1)", "http://h/a/b/%2e",
    "file:C:/x", "http://example.com/a?x#y",
)
RELATIVE = (
    "", " ", "/", "//", "///", "////", "\\", "\\\\", "/\\", "\\/", "?", "#", "?#", "..", ".",
    "../..", "./", "a", "a/b", "../a", "/..", "/.", "//h", "//h/p", "\\\\h\\p", "///h", "?q",
    "#f", "a?q#f", "/a/./b/../c", "%2e%2e/x", ".%2E/x", "C:", "C|", "/C:", "/C|/x", "C:/x",
    "c:\\x", "//C:/x", "//C|/x", "file:", "file:/", "file:x", "http:", "http:x", "http:/x",
    "http:\\\\x", "sc:", "sc:x", "x:", ":", ":x", "@", "h@", "//@h", "//u@h", "//:@h", "//h:",
    "//h:0", "//h:65536", "//[::1]", "//[::1]:80", "\t/\na", " \x00a", "a\x00", "..\\..",
    "/./././", "/../../..", "?\ud800", "#\ud800", "\ud800", "%", "%2f", "%2F..%2F",
)
JUNK = ("\t", "\n", "\r", " ", "\x00", "\x1f", "\x0c", "\x7f", "\u00a0", "\u3000", "\ufeff")


@cache
def wpt_inputs() -> tuple[tuple[str, str | None], ...]:
    return tuple(url_inputs(javascript_only=True))


@cache
def wpt_hosts() -> tuple[str, ...]:
    """The inputs of toascii.json and IdnaTestV2.json (hosts)."""
    return tuple(host_inputs())


@cache
def wpt_setter_cases() -> tuple[tuple[str, str, str], ...]:
    return tuple((c["href"], setter, c["new_value"]) for setter, c in setter_cases())


class Gen:
    """The generator: one private ``random.Random`` drives every choice."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)

    def pick(self, seq: tuple[Any, ...] | list[Any]) -> Any:
        return seq[self.r.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def code_point(self) -> str:
        """A code point drawn from everywhere: ASCII, the special ones, any plane, surrogates."""
        r = self.r.random()
        if r < 0.45:
            return chr(self.r.randrange(0x20, 0x7F))
        if r < 0.75:
            return str(self.pick(SPECIAL_CHARS))
        if r < 0.85:
            return chr(self.r.randrange(0x80, 0x800))
        if r < 0.95:
            return chr(self.r.randrange(0x800, 0x10000))
        return chr(self.r.randrange(0x10000, 0x110000))

    def noise(self, max_len: int = 6) -> str:
        return "".join(self.code_point() for _ in range(self.r.randrange(max_len + 1)))

    # -- hosts

    def label(self) -> str:
        r = self.r.random()
        if r < 0.05:
            return str(self.pick(wpt_hosts()))
        if r < 0.45:
            return str(self.pick(ASCII_LABELS))
        if r < 0.65:
            return str(self.pick(XN_LABELS))
        if r < 0.95:
            return str(self.pick(IDN_LABELS))
        return self.noise(4)

    def domain(self) -> str:
        n = self.pick((1, 1, 2, 2, 2, 3, 3, 4, 6))
        labels = [self.label() for _ in range(n)]
        sep = str(self.pick((".", ".", ".", ".", "\u3002", "\uff0e", "%2e")))
        host = sep.join(labels)
        if self.chance(0.1):
            host += "."
        if self.chance(0.08):
            host = self.percent_encode_some(host)
        if self.chance(0.05):
            host = ".".join([self.label()] * self.r.randrange(60, 140))
        return host

    def percent_encode_some(self, s: str) -> str:
        out = []
        for ch in s:
            if self.chance(0.3):
                out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
            else:
                out.append(ch)
        return "".join(out)

    def ipv4(self) -> str:
        if self.chance(0.7):
            return str(self.pick(IPV4))
        parts = []
        for _ in range(self.r.randrange(1, 6)):
            k = self.r.random()
            n = self.r.choice((0, 1, 7, 8, 255, 256, 65535, 65536, 2**24, 2**32 - 1, 2**32,
                               self.r.randrange(0, 2**33)))
            if k < 0.5:
                parts.append(str(n))
            elif k < 0.75:
                parts.append(self.pick(("0x", "0X")) + f"{n:x}")
            elif k < 0.95:
                parts.append(f"0{n:o}")
            else:
                parts.append("")
        return ".".join(parts)

    def ipv6(self) -> str:
        if self.chance(0.6):
            return str(self.pick(IPV6))
        pieces = []
        for _ in range(self.r.randrange(0, 10)):
            k = self.r.random()
            if k < 0.6:
                pieces.append(f"{self.r.randrange(0, 0x10000):x}")
            elif k < 0.7:
                pieces.append("0" * self.r.randrange(1, 6))
            elif k < 0.8:
                pieces.append("")
            else:
                pieces.append(f"{self.r.randrange(0, 0x10000):X}")
        text = ":".join(pieces)
        if self.chance(0.3):
            text = text.replace(":", "::", 1)
        if self.chance(0.25):
            text += ":" + ".".join(str(self.r.choice((0, 1, 9, 10, 99, 255, 256, 1000)))
                                   for _ in range(self.r.randrange(1, 6)))
        return "[" + text + "]"

    def host(self, special: bool) -> str:
        r = self.r.random()
        if r < 0.4:
            return self.domain()
        if r < 0.6:
            return self.ipv4()
        if r < 0.8:
            return self.ipv6()
        if r < 0.93 and not special:
            return str(self.pick(OPAQUE_HOSTS))
        if r < 0.96:
            return ""
        return self.noise(5)

    # -- URLs

    def scheme(self) -> str:
        r = self.r.random()
        if r < 0.45:
            return str(self.pick(SPECIAL))
        if r < 0.6:
            return "file"
        if r < 0.85:
            return str(self.pick(NON_SPECIAL))
        if r < 0.95:
            return str(self.pick(SCHEME_CASES))
        return str(self.pick(BAD_SCHEMES))

    def path(self) -> str:
        n = self.r.randrange(0, 6)
        segs = [str(self.pick(SEGMENTS)) if self.chance(0.85) else self.noise(4)
                for _ in range(n)]
        out = ""
        for s in segs:
            out += self.pick(("/", "/", "/", "/", "\\", "//")) + s
        if self.chance(0.1):
            out = out.lstrip("/\\")
        return out

    def query(self) -> str:
        if self.chance(0.3):
            return ""
        q = "?" + "&".join(str(self.pick(QUERIES)) for _ in range(self.r.randrange(1, 4)))
        return q + (self.noise(3) if self.chance(0.2) else "")

    def fragment(self) -> str:
        if self.chance(0.5):
            return ""
        return "#" + str(self.pick(FRAGMENTS)) + (self.noise(3) if self.chance(0.2) else "")

    def authority(self, special: bool) -> str:
        out = ""
        if self.chance(0.2):
            out += str(self.pick(USERINFO)) + "@"
            if self.chance(0.1):
                out += str(self.pick(USERINFO)) + "@"
        out += self.host(special)
        if self.chance(0.25):
            out += ":" + str(self.pick(PORTS))
        return out

    def url(self) -> str:
        scheme = self.scheme()
        low = scheme.lower()
        special = low in SPECIAL or low == "file"
        r = self.r.random()
        if low == "file" and r < 0.3:
            drive = self.pick(("C:", "C|", "c:", "z|", "C", "1:", "C:x", "CC:"))
            body = self.pick(("", "/", "//", "///", "\\\\", "//host/", "//localhost/")) + drive \
                + self.path()
        elif r < 0.75:
            slashes = self.pick(("//", "//", "//", "/", "", "\\\\", "///", "/\\", "\\/"))
            body = slashes + self.authority(special) + self.path()
        else:
            # path-only: opaque paths for non-special schemes
            body = self.pick(("", "/", "/.//", "./", "")) + self.path().lstrip("/\\") \
                + (self.noise(4) if self.chance(0.3) else "")
            if self.chance(0.2):
                body += " "
        text = scheme + ":" + body + self.query() + self.fragment()
        if self.chance(0.1):
            text += self.pick((" ", "  ", " ?", " #"))
        return self.dirty(text)

    def dirty(self, text: str) -> str:
        """Leading/trailing C0 controls and spaces, tabs and newlines inside."""
        if self.chance(0.1):
            text = "".join(self.pick(JUNK) for _ in range(self.r.randrange(1, 3))) + text
        if self.chance(0.1):
            text += "".join(self.pick(JUNK) for _ in range(self.r.randrange(1, 3)))
        if self.chance(0.08) and text:
            i = self.r.randrange(len(text) + 1)
            text = text[:i] + self.pick(("\t", "\n", "\r", "\r\n")) + text[i:]
        return text

    def relative(self) -> str:
        if self.chance(0.5):
            text = str(self.pick(RELATIVE))
        else:
            text = self.path() + self.query() + self.fragment()
            if self.chance(0.2):
                text = "//" + self.authority(True) + text
        return self.dirty(text)

    def mutate(self, s: str) -> str:
        """Insert, delete or replace code points; swap slashes; change case."""
        for _ in range(self.r.randrange(1, 4)):
            k = self.r.random()
            i = self.r.randrange(len(s) + 1)
            if k < 0.3:
                s = s[:i] + self.code_point() + s[i:]
            elif k < 0.5 and s:
                s = s[:i] + s[i + 1:]
            elif k < 0.7 and s:
                s = s[:i] + self.code_point() + s[i + 1:]
            elif k < 0.8:
                s = s.translate({0x2F: 0x5C, 0x5C: 0x2F}) if self.chance(0.5) else \
                    s.replace("/", "\\", 1)
            elif k < 0.9:
                s = s.upper() if self.chance(0.5) else s.swapcase()
            else:
                s = s[:i] + s[i:i + 3] * 2 + s[i + 3:]
        return s

    # -- requests

    def parse_request(self) -> Request:
        r = self.r.random()
        if r < 0.45:
            return {"op": "parse", "input": self.url(), "base": self.pick(BASES)
                    if self.chance(0.3) else None}
        if r < 0.7:
            base = self.pick(BASES[1:]) if self.chance(0.85) else self.url()
            return {"op": "parse", "input": self.relative(), "base": base}
        input, base = self.pick(wpt_inputs())
        if self.chance(0.85):
            input = self.mutate(input)
        if base is not None and self.chance(0.2):
            base = self.mutate(base)
        return {"op": "parse", "input": input, "base": base}

    def setter_value(self, setter: str) -> str:
        r = self.r.random()
        if r < 0.3:
            return self.mutate(str(self.pick(wpt_setter_cases())[2]))
        specific: dict[str, Callable[[], str]] = {
            "href": lambda: self.url() if self.chance(0.8) else self.relative(),
            "protocol": lambda: self.scheme() + self.pick(("", ":", "://", ":x", "\t", " ")),
            "username": lambda: str(self.pick(USERINFO)) + self.noise(2),
            "password": lambda: str(self.pick(USERINFO)) + self.noise(2),
            "host": lambda: self.authority(self.chance(0.5)).rpartition("@")[2] + self.path(),
            "hostname": lambda: self.host(self.chance(0.5)) + (self.path() if self.chance(0.2)
                                                               else ""),
            "port": lambda: str(self.pick(PORTS)) + (self.path() if self.chance(0.2) else ""),
            "pathname": lambda: self.path() + (self.query() if self.chance(0.1) else ""),
            "search": lambda: self.query() + (self.fragment() if self.chance(0.2) else ""),
            "hash": lambda: self.fragment() + self.noise(2),
        }
        return specific[setter]()

    def set_request(self) -> Request:
        if self.chance(0.4):
            href, setter, value = self.pick(wpt_setter_cases())
            if self.chance(0.6):
                value = self.mutate(value)
        else:
            href = self.pick(wpt_setter_cases())[0] if self.chance(0.5) else self.url()
            setter = self.pick(SETTERS)
            value = self.setter_value(setter)
        return {"op": "set", "href": href, "setter": setter, "value": value}


def fixed_cases() -> list[Request]:
    """Every WPT input as it is, every WPT setter case (the starting points of mutations), and
    every toascii.json / IdnaTestV2.json input as a special URL's host, through the host setter
    and as an opaque host."""
    out: list[Request] = [{"op": "parse", "input": i, "base": b} for i, b in wpt_inputs()]
    out += [{"op": "set", "href": h, "setter": s, "value": v} for h, s, v in wpt_setter_cases()]
    for host in wpt_hosts():
        out.append({"op": "parse", "input": f"https://{host}/x", "base": None})
        out.append({"op": "set", "href": "https://x/x", "setter": "host", "value": host})
        out.append({"op": "parse", "input": f"sc://{host}/x", "base": None})
    return out


def cases(n: int, seed: int = 5, set_share: float = 0.3) -> list[Request]:
    """``n`` requests, deterministic in ``(n, seed)``: about ``set_share`` of them setters."""
    gen = Gen(seed)
    make: tuple[Callable[[], Request], Callable[[], Request]] = (gen.parse_request,
                                                                  gen.set_request)
    return [make[1]() if gen.chance(set_share) else make[0]() for _ in range(n)]


if __name__ == "__main__":
    import sys

    for req in cases(int(sys.argv[1]) if len(sys.argv) > 1 else 20):
        print(json.dumps(req))
