"""The URL record (url.bs: "URL representation") and the host values it holds.

A host is one of five kinds (url.bs: "Hosts (domains and IP addresses)"), each a type of its own,
so that the kind is known from the value and never re-derived from the URL's scheme:

* a domain: ``Domain``, an opaque host: ``OpaqueHost``, the empty host: ``EmptyHost`` (``""``;
  ``EMPTY_HOST``): ``str`` subclasses, so they compare, hash and serialize as their strings;
* an IPv4 address: ``int`` (a 32-bit unsigned integer);
* an IPv6 address: ``tuple[int, ...]`` of its 8 pieces.
"""

from __future__ import annotations

from typing import Literal, get_args

from urlcalc.standard.infra import ASCII_ALPHA as _ALPHA


class Domain(str):
    """A domain: what the host parser returns for a special URL's host that is not an IP
    address (an ASCII domain, lowercase)."""

    __slots__ = ()


class OpaqueHost(str):
    """An opaque host: what the opaque-host parser returns for a non-special URL's host (a
    non-empty ASCII string)."""

    __slots__ = ()


class EmptyHost(str):
    """The empty host: the empty string (a file URL's host, a non-special URL's empty
    authority)."""

    __slots__ = ()


EMPTY_HOST = EmptyHost()

Host = Domain | OpaqueHost | EmptyHost | int | tuple[int, ...]
HostKind = Literal["domain", "ipv4", "ipv6", "opaque", "empty"]

# url.bs: URL miscellaneous, the special schemes and their default ports.
SPECIAL_SCHEMES: dict[str, int | None] = {
    "ftp": 21,
    "file": None,
    "http": 80,
    "https": 443,
    "ws": 80,
    "wss": 443,
}

#: A URL record's fields, by name.
RecordField = Literal["scheme", "username", "password", "host", "port", "path", "query",
                      "fragment"]
RECORD_FIELDS: tuple[RecordField, ...] = get_args(RecordField)


class URLRecord:
    """url.bs: URL representation. Fields start with the spec's initial values."""

    __slots__ = (
        "blob_url_entry",
        "fragment",
        "host",
        "password",
        "password_non_null",
        "path",
        "port",
        "query",
        "scheme",
        "username",
    )

    def __init__(self) -> None:
        self.scheme: str = ""
        self.username: str = ""
        self.password: str = ""
        self.host: Host | None = None
        self.port: int | None = None
        self.path: list[str] | str = []
        self.query: str | None = None
        self.fragment: str | None = None
        self.blob_url_entry: None = None
        # (variant 5e0b05e, password-not-nullable: before it, the password was null or a string;
        # true when it is a string, even empty, and only ever while 5e0b05e is undone)
        self.password_non_null = False

    # url.bs: URL miscellaneous
    @property
    def is_special(self) -> bool:
        return self.scheme in SPECIAL_SCHEMES

    @property
    def includes_credentials(self) -> bool:
        return self.username != "" or self.password != ""

    @property
    def has_opaque_path(self) -> bool:
        return isinstance(self.path, str)

    @property
    def cannot_have_username_password_port(self) -> bool:
        return self.host is None or self.host == "" or self.scheme == "file"

    @property
    def host_kind(self) -> HostKind | None:
        return host_kind(self.host)

    def clone(self) -> URLRecord:
        u = URLRecord()
        u.scheme = self.scheme
        u.username = self.username
        u.password = self.password
        u.password_non_null = self.password_non_null
        u.host = self.host
        u.port = self.port
        u.path = self.path if isinstance(self.path, str) else list(self.path)
        u.query = self.query
        u.fragment = self.fragment
        return u

    def snapshot(self) -> tuple[object, ...]:
        """The fields as an immutable tuple (for diffs in the trace and the setters lab)."""
        path = self.path if isinstance(self.path, str) else tuple(self.path)
        return (self.scheme, self.username, self.password, self.host, self.port, path,
                self.query, self.fragment)

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(RECORD_FIELDS, self.snapshot(),
                                                         strict=True))
        return f"URLRecord({fields})"


def host_kind(host: Host | None) -> HostKind | None:
    """The kind of ``host``, from its type."""
    if host is None:
        return None
    if isinstance(host, int):
        return "ipv4"
    if isinstance(host, tuple):
        return "ipv6"
    if isinstance(host, Domain):
        return "domain"
    if isinstance(host, OpaqueHost):
        return "opaque"
    if host == "":
        return "empty"
    raise TypeError(f"a host of no kind: {host!r} (a str; the host parser returns Domain, "
                    "OpaqueHost or EmptyHost)")


# url.bs: URL miscellaneous, Windows drive letters
def is_windows_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in _ALPHA and s[1] in (":", "|")


def is_normalized_windows_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in _ALPHA and s[1] == ":"


def starts_with_windows_drive_letter(s: str, start: int = 0) -> bool:
    return (
        len(s) - start >= 2
        and s[start] in _ALPHA
        and s[start + 1] in (":", "|")
        and (len(s) - start == 2 or s[start + 2] in ("/", "\\", "?", "#"))
    )


# url.bs: URL representation, single-dot and double-dot URL path segments
def is_single_dot(segment: str) -> bool:
    return segment == "." or (len(segment) == 3 and segment.lower() == "%2e")


_DOUBLE_DOTS = frozenset(("..", ".%2e", "%2e.", "%2e%2e"))


def is_double_dot(segment: str) -> bool:
    return segment == ".." or (3 < len(segment) < 7 and segment.lower() in _DOUBLE_DOTS)
