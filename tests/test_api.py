"""The URL class: constructor, parse, can_parse, getters, setters, search_params both ways."""

from __future__ import annotations

import pytest

from urlcalc import URL, URLParseError, URLSearchParams
from urlcalc.standard.parser import api_url_parse, url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.serializer import origin, serialize_url, urls_equal


def test_constructor_failure_is_a_type_error_with_the_cause() -> None:
    with pytest.raises(TypeError) as info:
        URL("https://example.org:7z")
    assert isinstance(info.value, URLParseError)
    assert "port-invalid" in str(info.value)
    assert info.value.failure.error is not None
    assert info.value.failure.error.index == 21


def test_parse_and_can_parse() -> None:
    assert URL.parse("nope") is None
    u = URL.parse("/a", "https://x.org/b/c")
    assert u is not None and u.href == "https://x.org/a"
    assert URL.can_parse("a", "https://x/") and not URL.can_parse("a")
    assert not URL.can_parse("a", "not a base")


def test_to_json_and_str() -> None:
    u = URL("HTTPS://X.ORG")
    assert u.to_json() == str(u) == u.href == "https://x.org/"
    assert repr(u) == "URL('https://x.org/')"


def test_search_params_follow_the_url_and_the_url_follows_them() -> None:
    u = URL("https://x/?a=1&b=2&a=3")
    params = u.search_params
    assert params is u.search_params  # [SameObject]
    assert params.get_all("a") == ["1", "3"]
    params.append("c", "d e")
    assert u.search == "?a=1&b=2&a=3&c=d+e"
    params.delete("a")
    assert u.href == "https://x/?b=2&c=d+e"
    u.search = "?z=9"
    assert list(params) == [("z", "9")]
    u.href = "https://y/?k=v"
    assert list(params) == [("k", "v")]
    params.delete("k")
    assert u.href == "https://y/"  # an empty list makes the query null
    u.search = ""
    assert params.size == 0


def test_search_params_sort_updates_and_encodes() -> None:
    u = URL("https://example.com/?a=b ~")
    assert u.href == "https://example.com/?a=b%20~"
    u.search_params.sort()
    assert u.href == "https://example.com/?a=b+%7E"


def test_usv_conversion_of_lone_surrogates() -> None:
    u = URL("https://x/\ud800")
    assert u.pathname == "/%EF%BF%BD"
    assert URLSearchParams("a=\udc00").get("a") == "\ufffd"


def test_every_setter_via_properties() -> None:
    u = URL("https://user:pw@example.com:8080/p?q#f")
    u.protocol = "wss"
    u.username = "a b"
    u.password = "c@d"
    u.hostname = "EXAMPLE.org"
    u.port = "443"
    u.pathname = "/x y"
    u.search = "k=v"
    u.hash = "h"
    assert u.href == "wss://a%20b:c%40d@example.org/x%20y?k=v#h"
    u.host = "h.com:81"
    assert u.host == "h.com:81"
    u.port = ""
    assert u.port == ""
    u.hash = ""
    u.search = ""
    assert u.href == "wss://a%20b:c%40d@h.com/x%20y"
    with pytest.raises(TypeError):
        u.href = "not a url"
    with pytest.raises(ValueError):
        u.set("nonsense", "x")


def test_origin_tuple_opaque_and_blob() -> None:
    assert URL("blob:https://whatwg.org/d0360e2f").origin == "https://whatwg.org"
    assert URL("blob:ftp://x/y").origin == "null"
    assert URL("blob:invalid").origin == "null"
    assert URL("file:///x").origin == "null"
    assert URL("https://a.com:443/").origin == "https://a.com"
    r = url_parse("http://[::1]:8/")
    assert isinstance(r, URLRecord)
    o = origin(r)
    assert o.to_json() == {"kind": "tuple", "scheme": "http", "host": "[::1]", "port": 8,
                           "domain": None, "serialized": "http://[::1]:8"}
    a = url_parse("mailto:x")
    assert isinstance(a, URLRecord)
    assert origin(a) != origin(a)  # each opaque origin is new


def test_equivalence_and_exclude_fragment() -> None:
    a = api_url_parse("https://x/#a")
    b = api_url_parse("HTTPS://X/#b")
    assert isinstance(a, URLRecord) and isinstance(b, URLRecord)
    assert not urls_equal(a, b)
    assert urls_equal(a, b, exclude_fragments=True)
    assert serialize_url(a, exclude_fragment=True) == "https://x/"


def test_hostname_unicode() -> None:
    assert URL("https://xn--fa-hia.de/").hostname_unicode() == "faß.de"
    assert URL("https://xn--8i7caa/").hostname_unicode() == "xn--8i7caa"  # errors: unchanged
