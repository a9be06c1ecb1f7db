"""The URL class: constructor, parse, can_parse, getters, setters, search_params both ways."""

from __future__ import annotations

import pytest

from urlcalc import URL, URLParseError, URLSearchParams
from urlcalc.standard.parser import api_url_parse, url_parse
from urlcalc.standard.record import Domain, EmptyHost, OpaqueHost, URLRecord
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


@pytest.mark.parametrize(("href", "kind", "hostname", "host"), [
    ("http://Example.COM:8080/", Domain, "example.com", "example.com:8080"),
    ("http://example.com/", Domain, "example.com", "example.com"),
    ("http://0x7f.1/", int, "127.0.0.1", "127.0.0.1"),
    ("http://[::1]:81/", tuple, "[::1]", "[::1]:81"),
    ("foo://Opaque.Host/", OpaqueHost, "Opaque.Host", "Opaque.Host"),
    ("file:///etc", EmptyHost, "", ""),
    ("foo:///x", EmptyHost, "", ""),
    ("foo:x", type(None), "", ""),
])
def test_getters_return_plain_str_for_every_host_kind(href: str, kind: type, hostname: str,
                                                      host: str) -> None:
    url = URL(href)
    # the record keeps its typed host (a Domain, OpaqueHost and EmptyHost are str subclasses) ...
    assert type(url.record.host) is kind
    # ... the getters, as the standard's, return strings
    assert (url.hostname, url.host) == (hostname, host)
    values = {name: getattr(url, name) for name in ("href", "origin", "protocol", "username",
                                                    "password", "host", "hostname", "port",
                                                    "pathname", "search", "hash")}
    values |= {f"getters()[{k!r}]": v for k, v in url.getters().items()}
    values |= {"to_json()": url.to_json(), "str()": str(url),
               "hostname_unicode()": url.hostname_unicode()}
    assert {name: type(v) for name, v in values.items() if type(v) is not str} == {}


def test_a_str_subclass_passed_in_comes_back_as_str() -> None:
    class Text(str):
        __slots__ = ()

    url = URL(Text("foo://h/p"))
    url.username = Text("user")
    url.pathname = Text("q")
    url.hash = Text("f")
    assert (type(url.username), type(url.pathname), type(url.hash)) == (str, str, str)
    assert type(url.hostname) is str
    params = URLSearchParams([(Text("a"), Text("b"))])
    params.append(Text("c"), Text("d"))
    params.set(Text("e"), Text("f"))
    assert {type(x) for pair in params for x in pair} == {str}
    assert type(params.get("a")) is str and {type(v) for v in params.get_all("c")} == {str}
