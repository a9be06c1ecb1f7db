"""The URL record (url.bs: "URL representation") and the host values it holds.

A host is represented by its natural Python value:

* a domain, an opaque host or the empty host: ``str`` (which of the three follows from the
  URL's scheme: special URLs hold domains, the others opaque hosts; "" is the empty host);
* an IPv4 address: ``int`` (a 32-bit unsigned integer);
* an IPv6 address: ``tuple[int, ...]`` of its 8 pieces.
"""

from __future__ import annotations

from typing import Literal

from urlcalc.infra import ASCII_ALPHA as _ALPHA

Host = str | int | tuple[int, ...]
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

RECORD_FIELDS = ("scheme", "username", "password", "host", "port", "path", "query", "fragment")


class URLRecord:
    """url.bs: URL representation. Fields start with the spec's initial values."""

    __slots__ = (
        "blob_url_entry",
        "fragment",
        "host",
        "password",
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
        return host_kind(self.host, self.scheme in SPECIAL_SCHEMES)

    def clone(self) -> URLRecord:
        u = URLRecord()
        u.scheme = self.scheme
        u.username = self.username
        u.password = self.password
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


def host_kind(host: Host | None, special: bool) -> HostKind | None:
    if host is None:
        return None
    if isinstance(host, int):
        return "ipv4"
    if isinstance(host, tuple):
        return "ipv6"
    if host == "":
        return "empty"
    return "domain" if special else "opaque"


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
