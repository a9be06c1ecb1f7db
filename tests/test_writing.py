"""The valid URL string verdict (url.bs: URL writing, host writing)."""

from __future__ import annotations

import pytest

from urlcalc.standard.parser import basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.validity import check, is_valid_ipv6_address_string


@pytest.mark.parametrize("input", [
    "https://example.com/", "https://example.com:8080/a/b?q=1#f", "http://127.0.0.1/",
    "http://[2001:db8::1]/", "http://[::ffff:192.0.2.1]/", "file:///c:/x", "file://host/x",
    "mailto:someone@example.com", "web+demo:/.//p", "foo://opaque.host:1/p",
    "https://example.com/%20", "urn:isbn:0451450523", "data:text/plain,hi",
    "https://xn--fa-hia.de/",
])
def test_valid(input: str) -> None:
    assert check(input).valid, check(input)


@pytest.mark.parametrize(("input", "production"), [
    ("https://example.com/ a", "URL-path-segment string"),
    ("https:example.com", "scheme-relative-special-URL string"),
    ("https://user@example.com/", "valid host string"),
    ("https://example.com:99999/", "URL-port string"),
    ("https://exa%20mple/", "valid host string"),
    ("https://1.2.3/", "valid host string"),
    ("https://[::01]/", "valid host string"),
    ("https://a/#a#b", "URL-fragment string"),
    ("https://a/%zz", "URL-path-segment string"),
    ("file:c:/x", "scheme-relative-file-URL string"),
    ("/relative", "absolute-URL string"),
    ("https://a_b.com/", "valid host string"),
])
def test_invalid(input: str, production: str) -> None:
    v = check(input)
    assert not v.valid and v.production == production, v


def test_relative_strings_depend_on_the_base() -> None:
    base = basic_url_parse("https://a.com/b/c")
    assert isinstance(base, URLRecord)
    assert check("../d?x#y", base).valid
    assert check("//other.com/p", base).valid
    assert check("/p", base).valid
    opaque = basic_url_parse("mailto:x")
    assert isinstance(opaque, URLRecord)
    assert check("#frag", opaque).valid
    assert not check("other", opaque).valid


def test_ipv6_strings() -> None:
    for s in ("::", "::1", "1:2:3:4:5:6:7:8", "1::8", "::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4"):
        assert is_valid_ipv6_address_string(s), s
    for s in ("1:2:3:4:5:6:7", "1:::2", "1::2::3", "01::1", "12345::", "::1.2.3",
              "1:2:3:4:5:6:7::8"):
        assert not is_valid_ipv6_address_string(s), s
