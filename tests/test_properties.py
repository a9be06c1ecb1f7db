"""Property tests (hypothesis): what holds for every input, not just the WPT cases.

The "ci" profile (tests/conftest.py) keeps the suite fast; ``make fuzz`` (benchmarks/fuzz.py)
runs the same properties with the "deep" profile. ``COUNTS`` counts the examples each property
ran; the pytest summary and ``make fuzz`` print it.

* parsing returns a URL record or a failure, never another exception: basic URL parser, URL
  class, result model (parse, set, host, percent, urlencoded, dispatch and dispatch_json);
* the standard's idempotence: the href of any parsed URL parses (without a base) to the same
  record, and serializes to the same href;
* every setter leaves a URL whose href parses to the same record;
* URLSearchParams: pairs -> string -> pairs, after USVString conversion; parse -> serialize ->
  parse is stable;
* the untraced parser (fast path on), the state machine alone and the traced state machine
  agree: records, failures, validation errors; the fast path only answers inputs with no
  validation error;
* domain to ASCII, then to Unicode, then to ASCII again is stable for hosts that parse;
* lone surrogates become U+FFFD (Web IDL USVString) in the URL class, the setters,
  URLSearchParams, the result model and dispatch_json;
* every getter of the URL class (and every string URLSearchParams gives back) is exactly
  ``str``, whatever the host's kind and even when the input was a ``str`` subclass.
"""

from __future__ import annotations

import json
from collections import Counter

import url_strategies as us
from hypothesis import given
from hypothesis import strategies as st

from urlcalc import URL, URLParseError, URLSearchParams
from urlcalc.answers.answer import dispatch_json
from urlcalc.answers.kinds import dispatch
from urlcalc.model.results import (
    OPERATIONS,
    host_model,
    parse_model,
    percent_model,
    set_model,
    urlencoded_model,
)
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.fastpath import fast_parse
from urlcalc.standard.host import HostFailure, domain_to_unicode, host_parse
from urlcalc.standard.infra import to_usv
from urlcalc.standard.parser import ParseFailure, ParseReturn, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.serializer import serialize_url
from urlcalc.standard.url import GETTERS, SETTERS
from urlcalc.standard.urlencoded import parse_urlencoded_string, serialize_urlencoded
from urlcalc.trace.recorder import TraceRecorder

COUNTS: Counter[str] = Counter()


def _count(name: str, tag: str | None = None) -> None:
    COUNTS[name] += 1
    if tag is not None:
        COUNTS[f"{name} [{tag}]"] += 1


def _base_record(base: str | None) -> URLRecord | None:
    if base is None:
        return None
    b = basic_url_parse(to_usv(base))
    return b if isinstance(b, URLRecord) else None


def _has_surrogate(s: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in s)


def _surrogates_in(value: object, where: str = "") -> list[str]:
    """Where a JSON-like value holds a lone surrogate (in a string or a key), by path."""
    if isinstance(value, str):
        return [where or "/"] if _has_surrogate(value) else []
    if isinstance(value, dict):
        found = [f"{where}/{k!r} (key)" for k in value if isinstance(k, str) and _has_surrogate(k)]
        for k, v in value.items():
            found += _surrogates_in(v, f"{where}/{k}")
        return found
    if isinstance(value, list | tuple):
        return [p for i, v in enumerate(value) for p in _surrogates_in(v, f"{where}/{i}")]
    return []


def test_the_surrogate_check_finds_what_it_looks_for() -> None:
    # the check below must be able to fail: a lone surrogate anywhere in a model is found
    assert _surrogates_in({"a": [1, None, {"b": "x\udc00"}]}) == ["/a/2/b"]
    assert _surrogates_in({"\ud800": "ok"}) == ["/'\\ud800' (key)"]
    assert _surrogates_in({"a": ["\ud83d\ude00", "\U0001f600", "\ufffd"]}) == ["/a/0"]
    assert _surrogates_in(parse_model("x")) == []


# --- never another exception ---------------------------------------------------------------


@given(input=us.inputs, base=us.bases)
def test_parsing_returns_a_record_or_a_failure(input: str, base: str | None) -> None:
    _count("parse: record or failure")
    base_record = _base_record(base)
    # the basic URL parser, fed raw strings (lone surrogates included), untraced and traced
    for observer in (None, TraceRecorder(200)):
        result = basic_url_parse(input, base_record, observer=observer)
        assert isinstance(result, URLRecord | ParseFailure)
    # the URL class: a URL or the constructor's TypeError
    try:
        url = URL(input, base)
    except URLParseError:
        assert not URL.can_parse(input, base)
        assert URL.parse(input, base) is None
        COUNTS["parse: record or failure [failure]"] += 1
    else:
        assert URL.can_parse(input, base)
        assert isinstance(url.href, str) and isinstance(url.origin, str)
        assert isinstance(url.search_params.size, int)
        url.hostname_unicode()
        COUNTS["parse: record or failure [URL]"] += 1


@given(input=us.inputs, base=us.bases, trace=st.booleans())
def test_the_model_answers_every_input(input: str, base: str | None, trace: bool) -> None:
    _count("model: parse/host/percent/urlencoded/dispatch never raise")
    m = parse_model(input, base, trace=trace)
    assert isinstance(m["ok"], bool)
    if m["ok"]:
        assert m["getters"]["href"] == serialize_url(basic_url_parse(
            to_usv(input), _base_record(base)))  # type: ignore[arg-type]
    h = host_model(input, trace=trace)
    assert set(h) >= {"domain", "opaque"}
    percent_model(input)
    urlencoded_model(input)
    params = {"input": input, "base": base, "trace": trace}
    assert dispatch("parse", params)["ok"] == m["ok"]
    # JSON as the API and the worker receive it: lone surrogates arrive as \udXXX escapes
    out = json.loads(dispatch_json("parse", json.dumps(params)))
    assert "error" not in out and out["ok"] == m["ok"]


@given(href=us.url_strings(), ops=st.lists(
    st.tuples(st.sampled_from(OPERATIONS), us.any_text), max_size=4), trace=st.booleans())
def test_set_model_answers_every_operation(href: str, ops: list[tuple[str, str]],
                                           trace: bool) -> None:
    _count("model: set never raises")
    m = set_model(href, ops, trace=trace)
    assert isinstance(m["ok"], bool)
    if m["ok"]:
        assert len(m["operations"]) == len(ops)
        # the final href is a parsed URL's href: it re-parses to itself
        again = basic_url_parse(m["getters"]["href"])
        assert isinstance(again, URLRecord)
        assert serialize_url(again) == m["getters"]["href"]
    out = json.loads(dispatch_json("set", json.dumps({"input": href, "ops": ops})))
    assert "error" not in out


# --- idempotence -------------------------------------------------------------------------------


@given(input=us.inputs, base=us.bases)
def test_href_reparses_to_the_same_record(input: str, base: str | None) -> None:
    _count("idempotence: href re-parses to the same record")
    result = basic_url_parse(to_usv(input), _base_record(base))
    if not isinstance(result, URLRecord):
        return
    COUNTS["idempotence: href re-parses to the same record [parsed]"] += 1
    href = serialize_url(result)
    again = basic_url_parse(href)
    assert isinstance(again, URLRecord), (input, base, href, again)
    assert again.snapshot() == result.snapshot(), (input, base, href)
    assert serialize_url(again) == href


@st.composite
def _setter_case(draw: st.DrawFn) -> tuple[str, str, str]:
    name = draw(st.sampled_from(SETTERS))
    return draw(us.url_strings()), name, draw(us.setter_values(name))


@given(case=_setter_case())
def test_every_setter_leaves_a_url_whose_href_reparses_to_it(case: tuple[str, str, str]) -> None:
    href, name, value = case
    _count("setters: href re-parses to the record", name)
    try:
        url = URL(href)
    except URLParseError:
        return
    try:
        url.set(name, value)
    except URLParseError:
        assert name == "href"
        COUNTS["setters: href re-parses to the record [href threw]"] += 1
    again = basic_url_parse(url.href)
    assert isinstance(again, URLRecord), (href, name, value, url.href)
    assert again.snapshot() == url.record.snapshot(), (href, name, value, url.href)
    # the query object follows the query; after the search setter its list is the parse of the
    # setter's input (url.bs: search setter, step 6), which keeps the tabs and newlines that
    # the basic URL parser removes from the query
    listed = url.record.query or ""
    if name == "search" and value:
        listed = to_usv(value).removeprefix("?")
    assert str(url.search_params) == serialize_urlencoded(parse_urlencoded_string(listed))


# --- URLSearchParams -----------------------------------------------------------------------


@given(pairs=st.lists(st.tuples(us.any_text, us.any_text), max_size=6))
def test_urlsearchparams_pairs_round_trip(pairs: list[tuple[str, str]]) -> None:
    _count("URLSearchParams: pairs -> string -> pairs")
    params = URLSearchParams(pairs)
    expected = [(to_usv(n), to_usv(v)) for n, v in pairs]
    assert list(params) == expected
    text = str(params)
    assert text.isascii()
    assert list(URLSearchParams(text)) == expected
    assert parse_urlencoded_string(serialize_urlencoded(pairs)) == expected


@given(text=st.one_of(us.any_text, us.url_text, st.builds(lambda q: q.lstrip("?"), us.query)))
def test_urlencoded_parse_serialize_parse_is_stable(text: str) -> None:
    _count("URLSearchParams: parse -> serialize -> parse")
    pairs = parse_urlencoded_string(text)
    assert parse_urlencoded_string(serialize_urlencoded(pairs)) == pairs
    url = URL("http://h/")
    url.search = text
    assert list(url.search_params) == parse_urlencoded_string(text.removeprefix("?"))


# --- the three parser paths agree ------------------------------------------------------------


def _outcome(result: URLRecord | ParseFailure | ParseReturn) -> object:
    if isinstance(result, ParseFailure):
        return ("failure", result.error, result.reason)
    assert isinstance(result, URLRecord)
    return result.snapshot()


@given(input=us.inputs, base=us.bases)
def test_fast_path_state_machine_and_trace_agree(input: str, base: str | None) -> None:
    base_record = _base_record(base)
    fast = fast_parse(input, base_record)
    _count("paths agree: fast path, state machine, traced", "fast path" if fast else None)
    errors: dict[str, list[ValidationError]] = {"untraced": [], "machine": [], "traced": []}
    untraced = basic_url_parse(input, base_record, errors=errors["untraced"])
    machine = basic_url_parse(input, base_record, errors=errors["machine"], _fast=False)
    traced = basic_url_parse(input, base_record, errors=errors["traced"],
                             observer=TraceRecorder(50), _fast=False)
    assert _outcome(untraced) == _outcome(machine) == _outcome(traced), (input, base)
    assert errors["untraced"] == errors["machine"] == errors["traced"], (input, base)
    if fast is not None:
        assert fast.snapshot() == _outcome(machine)
        assert errors["machine"] == [], (input, base)


# --- IDNA round trip -----------------------------------------------------------------------


@given(host=us.host_strings)
def test_domain_to_ascii_to_unicode_to_ascii_is_stable(host: str) -> None:
    _count("IDNA: ASCII -> Unicode -> ASCII stable")
    host = to_usv(host)
    try:
        ascii_host = host_parse(host) if host else None
    except HostFailure:
        return
    if not isinstance(ascii_host, str) or not ascii_host:
        return
    COUNTS["IDNA: ASCII -> Unicode -> ASCII stable [domain]"] += 1
    unicode_host = domain_to_unicode(ascii_host)
    assert host_parse(unicode_host) == ascii_host, (host, ascii_host, unicode_host)
    assert domain_to_unicode(host_parse(unicode_host)) == unicode_host  # type: ignore[arg-type]
    url = URL("https://" + ascii_host + "/")
    assert url.hostname == ascii_host and url.hostname_unicode() == unicode_host


# --- lone surrogates -----------------------------------------------------------------------


with_surrogates = st.builds(
    lambda s, cut, lone: s[:cut] + lone + s[cut:], us.inputs, st.integers(0, 40),
    st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3))


@given(input=with_surrogates, base=st.one_of(us.bases, with_surrogates),
       name=st.sampled_from(SETTERS), value=with_surrogates)
def test_lone_surrogates_become_u_fffd(input: str, base: str | None, name: str,
                                       value: str) -> None:
    _count("surrogates: USVString conversion (U+FFFD)",
           "base with surrogates" if base is not None and _has_surrogate(base) else None)
    usv = to_usv(input)
    assert not _has_surrogate(usv) and len(usv) <= len(input)
    usv_base = to_usv(base) if base is not None else None

    def href(i: str, b: str | None) -> str | None:
        try:
            return URL(i, b).href
        except URLParseError:
            return None

    assert href(input, base) == href(usv, usv_base)
    m = parse_model(input, base)
    assert m["input"] == usv and m["base"] == usv_base
    # no lone surrogate anywhere in the model: every string, every key (base record, trace...)
    assert _surrogates_in(m) == [], (input, base)
    assert m == parse_model(usv, usv_base)
    wire = json.loads(dispatch_json("parse", json.dumps({"input": input, "base": base})))
    assert wire["input"] == usv and wire["ok"] == m["ok"]
    # setters take USVStrings too

    def after(v: str) -> str | None:
        url = URL("http://example.com/p?q#f")
        try:
            url.set(name, v)
        except URLParseError:
            return None
        return url.href

    assert after(value) == after(to_usv(value))
    # URLSearchParams
    params = URLSearchParams([(input, value)])
    params.append(value, input)
    assert list(params) == [(usv, to_usv(value)), (to_usv(value), usv)]
    assert params.get(input) == to_usv(value)


# --- plain strings -----------------------------------------------------------------------------


class _Text(str):
    """A caller's own str subclass, passed in where the API takes strings."""

    __slots__ = ()


def _not_plain_str(url: URL) -> dict[str, type]:
    """The URL's string values (its getters and what its query object gives back) that are not
    exactly ``str``, by where they came from."""
    values: dict[str, object] = {name: getattr(url, name) for name in GETTERS}
    values |= {f"getters()[{k!r}]": v for k, v in url.getters().items()}
    values |= {"to_json()": url.to_json(), "str()": str(url),
               "hostname_unicode()": url.hostname_unicode(),
               "str(search_params)": str(url.search_params)}
    params = url.search_params
    for i, (name, value) in enumerate(params):
        values |= {f"pair {i} name": name, f"pair {i} value": value,
                   f"get({name!r})": params.get(name)}
        values |= {f"get_all({name!r})[{j}]": v for j, v in enumerate(params.get_all(name))}
    return {where: type(v) for where, v in values.items() if type(v) is not str}


# URLs with an authority, so that every kind of host comes up often (IPv4 and IPv6 addresses
# and domains under a special scheme, opaque and empty hosts under a non-special one)
_hosted = st.builds(lambda s, a, p: f"{s}://{a}{p}",
                    st.sampled_from(("http", "https", "ws", "file", "foo", "git+ssh")),
                    us.authority(), us.path)


@given(input=st.one_of(_hosted, us.url_strings(), us.inputs), base=us.bases,
       name=st.sampled_from(SETTERS), data=st.data(), subclass=st.booleans())
def test_every_getter_is_exactly_str(input: str, base: str | None, name: str,
                                     data: st.DataObject, subclass: bool) -> None:
    wrap = _Text if subclass else str
    try:
        url = URL(wrap(input), None if base is None else wrap(base))
    except URLParseError:
        return
    host = url.record.host
    _count("getters: exactly str", "no host" if host is None else type(host).__name__)
    assert _not_plain_str(url) == {}, (input, base)
    value = data.draw(us.setter_values(name), label="value")
    try:
        url.set(name, wrap(value))
    except URLParseError:
        assert name == "href"
    url.search_params.append(wrap(value), wrap(input))
    assert _not_plain_str(url) == {}, (input, base, name, value)
