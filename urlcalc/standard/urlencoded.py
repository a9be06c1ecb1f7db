"""url.bs "application/x-www-form-urlencoded" (parser, serializer, string parser) and the
``URLSearchParams`` class ("URLSearchParams class"), in Pythonic form.

Web IDL's USVString conversion is applied to every string argument: lone surrogates (as a Python
``str`` can hold them) become U+FFFD, and a surrogate pair becomes the scalar value it encodes.
Non-string names and values raise ``TypeError``; nothing is silently ``str()``-ed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol, TypeAlias

from urlcalc.standard.encoding import UTF_8, get_output_encoding
from urlcalc.standard.infra import to_usv
from urlcalc.standard.percent import (
    FORM_URLENCODED_SET,
    percent_decode_bytes,
    percent_encode_after_encoding,
    utf8_form_urlencode,
    utf8_form_urlencode_2020,
)
from urlcalc.standard.variants import (
    PERCENT_ENCODE_ONE_ENCODER,
    SEARCH_PARAMS_UPDATE_NULL_QUERY,
    SPACE_AS_PLUS_CONTINUE,
    URLENCODED_PARSE_UTF8_ONLY,
    URLENCODED_SERIALIZER_LOGIC,
    URLENCODED_SERIALIZER_TUPLES,
    undone,
)

__all__ = [
    "URLSearchParams",
    "URLSearchParamsInit",
    "parse_urlencoded",
    "parse_urlencoded_string",
    "serialize_urlencoded",
]


def _utf8_decode_without_bom(data: bytes) -> str:
    # Encoding Standard: "UTF-8 decode without BOM": a leading BOM is kept (Python's "utf-8", not
    # "utf-8-sig"), and errors become U+FFFD per the "maximal subpart" practice both follow.
    return data.decode("utf-8", "replace")


def _utf8_decode_2016(data: bytes) -> str:
    # Encoding Standard: "decode" with UTF-8: a leading BOM is removed ("utf-8-sig").
    return data.decode("utf-8-sig", "replace")


def parse_urlencoded(data: bytes) -> list[tuple[str, str]]:
    """url.bs: the application/x-www-form-urlencoded parser."""
    output: list[tuple[str, str]] = []
    # (variant: before 3fe9696, step 4 ran "decode" (which removes a leading BOM) using the
    # encoding, UTF-8 unless overridden; urlcalc passes no override)
    decode = _utf8_decode_2016 if undone(URLENCODED_PARSE_UTF8_ONLY) else \
        _utf8_decode_without_bom
    # Step 1: split on 0x26 (&).
    for sequence in data.split(b"&"):
        # Step 3.1.
        if not sequence:
            continue
        # Steps 3.2-3.3: name up to the first "=", value after it (or empty).
        name, _, value = sequence.partition(b"=")
        # Step 3.4.
        name = name.replace(b"+", b" ")
        value = value.replace(b"+", b" ")
        # Steps 3.5-3.6.
        output.append((
            decode(percent_decode_bytes(name)),
            decode(percent_decode_bytes(value)),
        ))
    return output


def parse_urlencoded_string(s: str) -> list[tuple[str, str]]:
    """url.bs: the application/x-www-form-urlencoded string parser (UTF-8 encode, then parse)."""
    return parse_urlencoded(to_usv(s).encode("utf-8"))


def _serialize_component(encoding: str, s: str) -> str:
    return percent_encode_after_encoding(encoding, s, FORM_URLENCODED_SET, True)


def serialize_urlencoded(pairs: Iterable[tuple[str, str]], encoding: str = UTF_8) -> str:
    """url.bs: the application/x-www-form-urlencoded serializer. Returns an ASCII string.

    ``encoding`` is an encoding name or label (an unknown one raises ``UnknownEncodingError``).
    """
    # Step 1.
    encoding = get_output_encoding(encoding)
    # (variant: between b174f8f and 052a89f, a day in 2016, the text's logic error)
    if undone(URLENCODED_SERIALIZER_LOGIC) and not undone(URLENCODED_SERIALIZER_TUPLES):
        return _serialize_urlencoded_2016_02_09(pairs, encoding)
    if encoding == UTF_8:
        # Steps 2-3 as below, with percent-encode after encoding specialised for UTF-8.
        encode = utf8_form_urlencode
        # (variant: before 334966e, a space became "+%20", since 2ce4938; checked once per
        # serialization)
        if undone(SPACE_AS_PLUS_CONTINUE) and not undone(PERCENT_ENCODE_ONE_ENCODER):
            encode = utf8_form_urlencode_2020
        return "&".join(encode(name) + "=" + encode(value) for name, value in pairs)
    # Steps 2-3; step 3.4's "&" separators come from the join.
    return "&".join(
        # Steps 3.2, 3.3, 3.5.
        _serialize_component(encoding, name) + "=" + _serialize_component(encoding, value)
        for name, value in pairs
    )


def _serialize_urlencoded_2016_02_09(pairs: Iterable[tuple[str, str]], encoding: str) -> str:
    """The application/x-www-form-urlencoded serializer as b174f8f wrote it (and 052a89f fixed):
    "Otherwise, if tuple is not the first pair in tuples, append "&" to output. Otherwise,
    append outputPair's name, followed by "=", followed by outputPair's value": only the first
    pair's name and value were written, each later pair only an "&"."""
    output = ""
    for i, (name, value) in enumerate(pairs):
        if i:
            output += "&"
        else:
            output += _serialize_component(encoding, name) + "=" + \
                _serialize_component(encoding, value)
    return output


class _URLObject(Protocol):
    """What ``URLSearchParams`` needs from its URL object (url.bs: "update" step 4)."""

    def _update_query_from_search_params(self, query: str | None) -> None: ...


URLSearchParamsInit: TypeAlias = (
    "str | Mapping[str, str] | Iterable[Iterable[str]] | URLSearchParams | None"
)


def _usv(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"URLSearchParams {what} must be str, not {type(value).__name__}")
    return to_usv(value)


class URLSearchParams:
    """url.bs: the ``URLSearchParams`` class.

    ``URLSearchParams(init)`` accepts a query string (a leading "?" is removed), a mapping (Web
    IDL record), an iterable of name-value pairs (Web IDL sequence of sequences; a pair whose size
    isn't 2 raises ``TypeError``), another ``URLSearchParams`` (copied), or nothing/None (empty).

    The IDL members: ``size``, ``append``, ``delete(name, value=None)``, ``get``, ``get_all``
    (getAll), ``has(name, value=None)``, ``set``, ``sort``; iteration yields (name, value) pairs,
    with ``keys()``, ``values()``, ``items()``/``entries()``; ``str()`` is the stringifier. Like
    the IDL iterators, iteration is live: it walks the current list by index.
    """

    __slots__ = ("_list", "_url_object")

    def __init__(self, init: URLSearchParamsInit = None) -> None:
        self._list: list[tuple[str, str]] = []  # url.bs: "list"
        self._url_object: _URLObject | None = None  # url.bs: "URL object", set by the URL class
        if init is None:
            return
        if isinstance(init, URLSearchParams):
            # Web IDL sees a URLSearchParams object as an iterable of pairs: a copy of its list.
            self._list = list(init._list)
        elif isinstance(init, str):
            # Constructor step 1, then "initialize" step 3.
            if init.startswith("?"):
                init = init[1:]
            self._list = parse_urlencoded_string(init)
        elif isinstance(init, Mapping):
            # "initialize" step 2 (a record: keys are unique after USVString conversion).
            record: dict[str, str] = {}
            for name, value in init.items():
                record[_usv(name, "name")] = _usv(value, "value")
            self._list = list(record.items())
        elif isinstance(init, (bytes, bytearray, memoryview)):
            raise TypeError("URLSearchParams() takes str, not bytes; decode it or use "
                            "parse_urlencoded()")
        else:
            # "initialize" step 1.
            for inner in init:
                if isinstance(inner, (str, bytes, bytearray)):
                    raise TypeError("each URLSearchParams pair must be a sequence of 2 strings, "
                                    f"not {type(inner).__name__}")
                pair = tuple(inner)
                # Step 1.1.
                if len(pair) != 2:
                    raise TypeError(f"each URLSearchParams pair must have 2 items, not {len(pair)}")
                # Step 1.2.
                self._list.append((_usv(pair[0], "name"), _usv(pair[1], "value")))

    # -- hooks for the URL class

    def _update(self) -> None:
        """url.bs: "update" a URLSearchParams object."""
        # Step 1.
        if self._url_object is None:
            return
        # Steps 2-3.
        serialized = serialize_urlencoded(self._list)
        # Step 4.
        # (variant: before 4315826, the query was the serialization even when it was empty)
        self._url_object._update_query_from_search_params(
            serialized if undone(SEARCH_PARAMS_UPDATE_NULL_QUERY) else serialized or None)

    def _replace_list(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Set the list (e.g. to a newly parsed query) without running "update"."""
        self._list = list(pairs)

    # -- the IDL members

    @property
    def size(self) -> int:
        """url.bs: the size getter."""
        return len(self._list)

    def append(self, name: str, value: str) -> None:
        """url.bs: append(name, value)."""
        # Steps 1-2.
        self._list.append((_usv(name, "name"), _usv(value, "value")))
        self._update()

    def delete(self, name: str, value: str | None = None) -> None:
        """url.bs: delete(name, value): remove the pairs with this name (and value, if given)."""
        name = _usv(name, "name")
        if value is not None:
            # Step 1.
            value = _usv(value, "value")
            self._list = [pair for pair in self._list if pair != (name, value)]
        else:
            # Step 2.
            self._list = [pair for pair in self._list if pair[0] != name]
        # Step 3.
        self._update()

    def get(self, name: str) -> str | None:
        """url.bs: get(name): the first value for ``name``, or None."""
        name = _usv(name, "name")
        for pair_name, value in self._list:
            if pair_name == name:
                return value
        return None

    def get_all(self, name: str) -> list[str]:
        """url.bs: getAll(name): every value for ``name``, in list order."""
        name = _usv(name, "name")
        return [value for pair_name, value in self._list if pair_name == name]

    def has(self, name: str, value: str | None = None) -> bool:
        """url.bs: has(name, value)."""
        name = _usv(name, "name")
        if value is not None:
            # Step 1.
            return (name, _usv(value, "value")) in self._list
        # Steps 2-3.
        return any(pair_name == name for pair_name, _ in self._list)

    def set(self, name: str, value: str) -> None:
        """url.bs: set(name, value): replace the first pair's value, drop the other pairs."""
        name = _usv(name, "name")
        value = _usv(value, "value")
        result: list[tuple[str, str]] = []
        found = False
        for pair in self._list:
            if pair[0] != name:
                result.append(pair)
            elif not found:
                # Step 1.
                result.append((name, value))
                found = True
        if not found:
            # Step 2.
            result.append((name, value))
        self._list = result
        # Step 3.
        self._update()

    def sort(self) -> None:
        """url.bs: sort(): stable, by name, "code unit less than" (UTF-16 code unit order)."""
        # Step 1. Big-endian UTF-16 bytes compare as the code unit sequences do.
        self._list = sorted(self._list, key=lambda pair: pair[0].encode("utf-16-be"))
        # Step 2.
        self._update()

    def __iter__(self) -> Iterator[tuple[str, str]]:
        """url.bs: "value pairs to iterate over": (name, value) for each pair, live."""
        index = 0
        while index < len(self._list):
            yield self._list[index]
            index += 1

    def entries(self) -> Iterator[tuple[str, str]]:
        return iter(self)

    def items(self) -> Iterator[tuple[str, str]]:
        return iter(self)

    def keys(self) -> Iterator[str]:
        for name, _ in self:
            yield name

    def values(self) -> Iterator[str]:
        for _, value in self:
            yield value

    def __len__(self) -> int:
        return len(self._list)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.has(name)

    def __str__(self) -> str:
        """url.bs: the stringification behavior: the serialization of the list."""
        return serialize_urlencoded(self._list)

    def to_string(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"URLSearchParams({self._list!r})"
