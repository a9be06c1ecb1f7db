"""URL serializing, URL equivalence and origin (url.bs: "URL serializing", "URL equivalence",
"Origin")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict

from urlcalc.standard.host import host_serialize
from urlcalc.standard.record import SPECIAL_SCHEMES, Host, HostKind, URLRecord, host_kind
from urlcalc.standard.variants import (
    BLOB_ORIGIN_HTTP_ONLY,
    FILE_HOST_NEVER_NULL,
    GOPHER_ORIGIN_REMOVED,
    ORIGIN_TUPLE_URL_PORT,
    SERIALIZER_NULL_HOST_DOT_SEGMENT,
    undone,
)


# url.bs: URL serializing, the URL serializer
def serialize_url(url: URLRecord, exclude_fragment: bool = False) -> str:
    # step 1
    output = url.scheme + ":"
    # step 2
    host = url.host
    if host is not None:
        output += "//"
        # (variant 5e0b05e, password-not-nullable: before, "If url's username is not the empty
        # string or url's password is non-null" and "If url's password is non-null, append ":"")
        if url.username or url.password or url.password_non_null:
            output += url.username
            if url.password or url.password_non_null:
                output += ":" + url.password
            output += "@"
        output += host if isinstance(host, str) else host_serialize(host)
        if url.port is not None:
            output += ":" + str(url.port)
    # (variant a19495e, file-host-never-null: before, "Otherwise, if url's host is null and
    # url's scheme is "file", append "//" to output")
    elif url.scheme == "file" and undone(FILE_HOST_NEVER_NULL):
        output += "//"
    path = url.path
    # step 3
    if isinstance(path, str):
        output += path
    else:
        # (variant: before 83adf0c no "/." was appended, and the output read as a host)
        if host is None and len(path) > 1 and path[0] == "" and \
                not undone(SERIALIZER_NULL_HOST_DOT_SEGMENT):
            output += "/."
        # step 4
        if path:
            output += "/" + "/".join(path)
    # step 5
    if url.query is not None:
        output += "?" + url.query
    # step 6
    if not exclude_fragment and url.fragment is not None:
        output += "#" + url.fragment
    return output


# url.bs: URL serializing, the URL path serializer
def serialize_path(url: URLRecord) -> str:
    path = url.path
    if isinstance(path, str):
        return path
    return "/" + "/".join(path) if path else ""


# url.bs: URL equivalence
def urls_equal(a: URLRecord, b: URLRecord, exclude_fragments: bool = False) -> bool:
    return serialize_url(a, exclude_fragments) == serialize_url(b, exclude_fragments)


class HostJSON(TypedDict):
    """A host: its kind, its serialization and (IP addresses) its numeric value."""

    kind: HostKind
    serialized: str
    #: an IPv4 address as a 32-bit number, an IPv6 address as its eight pieces; else null
    value: int | list[int] | None


class RecordJSON(TypedDict):
    """A URL record (url.bs: URL record); the path is a string when it is opaque."""

    scheme: str
    username: str
    password: str
    host: HostJSON | None
    port: int | None
    path: str | list[str]
    opaque_path: bool
    query: str | None
    fragment: str | None
    #: always null: urlcalc keeps no blob URL store
    blob_url_entry: None


class OriginJSON(TypedDict):
    """The URL's origin (url.bs: origin); scheme, host, port and domain are null when opaque."""

    kind: Literal["opaque", "tuple"]
    serialized: str
    scheme: str | None
    host: str | None
    port: int | None
    domain: str | None


@dataclass(frozen=True, slots=True, eq=False)
class Origin:
    """An origin (HTML): a tuple origin, or an opaque origin (``opaque`` true, other fields
    None). Each opaque origin is unique: two are the same only if they are the same object."""

    scheme: str | None
    host: Host | None
    port: int | None
    domain: str | None = None
    opaque: bool = False

    def __eq__(self, other: object) -> bool:
        """HTML: same origin. Opaque origins are only the same as themselves."""
        if not isinstance(other, Origin):
            return NotImplemented
        if self.opaque or other.opaque:
            return self is other
        return (self.scheme, self.host, self.port, self.domain) == (
            other.scheme, other.host, other.port, other.domain)

    def __hash__(self) -> int:
        return id(self) if self.opaque else hash((self.scheme, self.host, self.port))

    def serialize(self) -> str:
        """HTML: the serialization of an origin."""
        if self.opaque:
            return "null"
        assert self.scheme is not None and self.host is not None
        result = self.scheme + "://" + host_serialize(self.host)
        # (HTML then: the port unless it is the scheme's default one; today's tuples never hold
        # a default port, which only b0e4def's variant puts there)
        if self.port is not None and self.port != SPECIAL_SCHEMES.get(self.scheme):
            result += ":" + str(self.port)
        return result

    def to_json(self) -> OriginJSON:
        if self.opaque:
            return {"kind": "opaque", "serialized": "null", "scheme": None, "host": None,
                    "port": None, "domain": None}
        assert self.host is not None
        return {"kind": "tuple", "scheme": self.scheme, "host": host_serialize(self.host),
                "port": self.port, "domain": self.domain, "serialized": self.serialize()}


def _opaque() -> Origin:
    return Origin(None, None, None, opaque=True)


_TUPLE_SCHEMES = frozenset(("ftp", "http", "https", "ws", "wss"))


# url.bs: Origin
def origin(url: URLRecord) -> Origin:
    scheme = url.scheme
    if scheme == "blob":
        # step 1: urlcalc keeps no blob URL store, so the blob URL entry is always null.
        # step 2-3
        from urlcalc.standard.parser import ParseFailure, url_parse

        path_url = url_parse(serialize_path(url))
        if isinstance(path_url, ParseFailure):
            return _opaque()
        # step 4 (variant: before eee49fd, "Return pathURL's origin" whatever its scheme)
        if path_url.scheme in ("http", "https", "file") or undone(BLOB_ORIGIN_HTTP_ONLY):
            return origin(path_url)
        # step 5
        return _opaque()
    if scheme in _TUPLE_SCHEMES:
        # (variant: before b0e4def, "its default port if its port is null, and its port
        # otherwise")
        if url.port is None and undone(ORIGIN_TUPLE_URL_PORT):
            return Origin(scheme, url.host, SPECIAL_SCHEMES[scheme])
        return Origin(scheme, url.host, url.port)
    # (variant: before 7ae1c69, "gopher" was listed with ftp, http, https, ws and wss; a gopher:
    # URL without a host, possible once gopher is not special, has no tuple to give)
    if scheme == "gopher" and url.host is not None and undone(GOPHER_ORIGIN_REMOVED):
        return Origin(scheme, url.host, url.port)
    # "file": left as an exercise to the reader; when in doubt, return a new opaque origin.
    return _opaque()


def record_json(url: URLRecord) -> RecordJSON:
    """A URL record: every field, the host with its kind, the path as list or opaque string."""
    host = url.host
    host_json: HostJSON | None = None
    if host is not None:
        kind = host_kind(host)
        assert kind is not None
        value: int | list[int] | None = None
        if isinstance(host, int):
            value = host
        elif isinstance(host, tuple):
            value = list(host)
        host_json = {"kind": kind, "serialized": host_serialize(host), "value": value}
    return {
        "scheme": url.scheme,
        "username": url.username,
        "password": url.password,
        "host": host_json,
        "port": url.port,
        "path": url.path if isinstance(url.path, str) else list(url.path),
        "opaque_path": isinstance(url.path, str),
        "query": url.query,
        "fragment": url.fragment,
        "blob_url_entry": None,
    }
