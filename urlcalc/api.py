"""The URL class (url.bs: "API", "URL class"), with every getter and setter.

Setters follow the spec's setter steps. ``URL.set(name, value, observer)`` runs one setter and
returns why it changed nothing when it stopped early (the spec's early returns and failures), so
the setters lab and the trace can say so; the Python properties call it and drop the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from urlcalc.errors import ValidationError
from urlcalc.host import domain_to_unicode, host_serialize
from urlcalc.infra import to_usv
from urlcalc.parser import (
    ParseFailure,
    ParseReturn,
    State,
    api_url_parse,
    basic_url_parse,
    fragment_state,
    host_state,
    hostname_state,
    path_start_state,
    port_state,
    query_state,
    scheme_start_state,
)
from urlcalc.percent import USERINFO_SET, utf8_percent_encode
from urlcalc.record import URLRecord
from urlcalc.serializer import origin, serialize_path, serialize_url
from urlcalc.trace import Observer
from urlcalc.urlencoded import URLSearchParams, parse_urlencoded_string

GETTERS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash")
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")


class URLParseError(TypeError):
    """The URL constructor's TypeError, carrying the validation error that caused the failure."""

    def __init__(self, failure: ParseFailure, input: str) -> None:
        error = failure.error
        message = f"Invalid URL: {input!r}"
        if error is not None:
            message += f" ({error.name} at index {error.index})"
        elif failure.reason:
            message += f" ({failure.reason})"
        super().__init__(message)
        self.failure = failure


class URL:
    """url.bs: the URL class. ``URL(url, base=None)`` raises ``URLParseError`` (a TypeError)."""

    __slots__ = ("_query", "_url", "errors")

    def __init__(self, url: str, base: str | None = None) -> None:
        self.errors: list[ValidationError] = []
        url = to_usv(url)
        # constructor step 1-2
        parsed = api_url_parse(url, to_usv(base) if base is not None else None,
                               errors=self.errors)
        if isinstance(parsed, ParseFailure):
            raise URLParseError(parsed, url)
        # constructor step 3
        self._initialize(parsed)

    def _initialize(self, record: URLRecord) -> None:
        # url.bs: URL class, initialize
        # step 2; steps 1, 3-5 (the query object) happen on first use of search_params, which
        # gives the same object every time ([SameObject]) and the same list: until then no
        # setter could have changed it without also changing the URL's query.
        self._url = record
        self._query: URLSearchParams | None = None

    @classmethod
    def from_record(cls, record: URLRecord) -> URL:
        obj = cls.__new__(cls)
        obj.errors = []
        obj._initialize(record)
        return obj

    @classmethod
    def parse(cls, url: str, base: str | None = None) -> URL | None:
        """url.bs: URL.parse(url, base)."""
        try:
            return cls(url, base)
        except URLParseError:
            return None

    @staticmethod
    def can_parse(url: str, base: str | None = None) -> bool:
        """url.bs: URL.canParse(url, base)."""
        parsed = api_url_parse(to_usv(url), to_usv(base) if base is not None else None)
        return not isinstance(parsed, ParseFailure)

    @property
    def record(self) -> URLRecord:
        """The URL record (this's URL). Mutating it bypasses the query object: use setters."""
        return self._url

    def _update_query_from_search_params(self, serialized: str | None) -> None:
        # url.bs: URLSearchParams, update, step 4
        self._url.query = serialized

    # -- getters --------------------------------------------------------------------------

    @property
    def href(self) -> str:
        return serialize_url(self._url)

    @href.setter
    def href(self, value: str) -> None:
        self.set("href", value)

    def to_json(self) -> str:
        return serialize_url(self._url)

    def __str__(self) -> str:
        return serialize_url(self._url)

    def __repr__(self) -> str:
        return f"URL({serialize_url(self._url)!r})"

    @property
    def origin(self) -> str:
        return origin(self._url).serialize()

    @property
    def protocol(self) -> str:
        return self._url.scheme + ":"

    @protocol.setter
    def protocol(self, value: str) -> None:
        self.set("protocol", value)

    @property
    def username(self) -> str:
        return self._url.username

    @username.setter
    def username(self, value: str) -> None:
        self.set("username", value)

    @property
    def password(self) -> str:
        return self._url.password

    @password.setter
    def password(self, value: str) -> None:
        self.set("password", value)

    @property
    def host(self) -> str:
        url = self._url
        if url.host is None:
            return ""
        if url.port is None:
            return host_serialize(url.host)
        return host_serialize(url.host) + ":" + str(url.port)

    @host.setter
    def host(self, value: str) -> None:
        self.set("host", value)

    @property
    def hostname(self) -> str:
        if self._url.host is None:
            return ""
        return host_serialize(self._url.host)

    @hostname.setter
    def hostname(self, value: str) -> None:
        self.set("hostname", value)

    @property
    def port(self) -> str:
        return "" if self._url.port is None else str(self._url.port)

    @port.setter
    def port(self, value: str) -> None:
        self.set("port", value)

    @property
    def pathname(self) -> str:
        return serialize_path(self._url)

    @pathname.setter
    def pathname(self, value: str) -> None:
        self.set("pathname", value)

    @property
    def search(self) -> str:
        q = self._url.query
        return "" if not q else "?" + q

    @search.setter
    def search(self, value: str) -> None:
        self.set("search", value)

    @property
    def search_params(self) -> URLSearchParams:
        if self._query is None:
            # url.bs: initialize, steps 1 and 3-5: the list is the parse of the query (no
            # leading "?" removed, unlike the URLSearchParams constructor)
            query = URLSearchParams()
            query._replace_list(parse_urlencoded_string(self._url.query or ""))
            query._url_object = self
            self._query = query
        return self._query

    @property
    def hash(self) -> str:
        f = self._url.fragment
        return "" if not f else "#" + f

    @hash.setter
    def hash(self, value: str) -> None:
        self.set("hash", value)

    def getters(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in GETTERS}

    def hostname_unicode(self) -> str:
        """The hostname with domains converted by domain to Unicode (url.bs: IDNA)."""
        h = self._url.host
        if isinstance(h, str) and h and self._url.is_special:
            return domain_to_unicode(h)
        return self.hostname

    # -- setters --------------------------------------------------------------------------

    def set(self, name: str, value: str, observer: Observer | None = None,
            errors: list[ValidationError] | None = None) -> str | None:
        """Run the ``name`` setter with ``value``. Returns None when the setter ran to the end,
        otherwise the reason it stopped early (an early return or a failure of the basic URL
        parser). The href setter raises URLParseError on failure, as the spec's TypeError."""
        try:
            method = self._SETTER_STEPS[name]
        except KeyError:
            raise ValueError(f"unknown setter {name!r}; expected one of {SETTERS}") from None
        return method(self, to_usv(value), observer, errors)

    def _note(self, observer: Observer | None, setter: str, step: str, note: str) -> None:
        if observer is not None:
            observer({"parser": "setter", "state": setter + " setter", "step": step,
                      "note": note, "depth": 0})

    def _state_override_parse(self, input: str, state: State, observer: Observer | None,
                              errors: list[ValidationError] | None) -> str | None:
        result = basic_url_parse(input, url=self._url, state_override=state, observer=observer,
                                 errors=errors)
        if isinstance(result, ParseFailure):
            if result.error is not None:
                return f"the basic URL parser returned failure ({result.error.name})"
            return "the basic URL parser returned failure: " + result.reason
        if isinstance(result, ParseReturn) and result.ignored:
            return f"scheme state, step {result.step}: {result.note}: return"
        return None

    def _set_href(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> str | None:
        # step 1
        parsed = basic_url_parse(value, observer=observer, errors=errors)
        # step 2
        if isinstance(parsed, ParseFailure):
            raise URLParseError(parsed, value)
        assert not isinstance(parsed, ParseReturn)
        # step 3
        self._url = parsed
        # step 4-6
        if self._query is not None:
            self._query._replace_list(
                parse_urlencoded_string(parsed.query) if parsed.query is not None else [])
        return None

    def _set_protocol(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> str | None:
        return self._state_override_parse(value + ":", scheme_start_state, observer, errors)

    def _set_username(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> str | None:
        # step 1
        if self._url.cannot_have_username_password_port:
            reason = "the URL cannot have a username/password/port"
            self._note(observer, "username", "1", reason + ": return")
            return reason
        # step 2: set the username
        self._url.username = utf8_percent_encode(value, USERINFO_SET)
        self._note(observer, "username", "2", "set the username (userinfo percent-encode set)")
        return None

    def _set_password(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> str | None:
        # step 1
        if self._url.cannot_have_username_password_port:
            reason = "the URL cannot have a username/password/port"
            self._note(observer, "password", "1", reason + ": return")
            return reason
        # step 2: set the password
        self._url.password = utf8_percent_encode(value, USERINFO_SET)
        self._note(observer, "password", "2", "set the password (userinfo percent-encode set)")
        return None

    def _set_host_or_hostname(self, name: str, state: State, value: str,
                              observer: Observer | None,
                              errors: list[ValidationError] | None) -> str | None:
        # step 1
        if self._url.has_opaque_path:
            reason = "the URL has an opaque path"
            self._note(observer, name, "1", reason + ": return")
            return reason
        # step 2
        self._note(observer, name, "2", f"basic URL parse the value with {name} state as state "
                   "override")
        return self._state_override_parse(value, state, observer, errors)

    def _set_host(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> str | None:
        return self._set_host_or_hostname("host", host_state, value, observer, errors)

    def _set_hostname(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> str | None:
        return self._set_host_or_hostname("hostname", hostname_state, value, observer, errors)

    def _set_port(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> str | None:
        # step 1
        if self._url.cannot_have_username_password_port:
            reason = "the URL cannot have a username/password/port"
            self._note(observer, "port", "1", reason + ": return")
            return reason
        # step 2
        if value == "":
            self._url.port = None
            self._note(observer, "port", "2", "the value is the empty string: port becomes null")
            return None
        # step 3
        return self._state_override_parse(value, port_state, observer, errors)

    def _set_pathname(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> str | None:
        # step 1
        if self._url.has_opaque_path:
            reason = "the URL has an opaque path"
            self._note(observer, "pathname", "1", reason + ": return")
            return reason
        # step 2
        self._url.path = []
        self._note(observer, "pathname", "2", "empty the path")
        # step 3
        return self._state_override_parse(value, path_start_state, observer, errors)

    def _set_search(self, value: str, observer: Observer | None,
                    errors: list[ValidationError] | None) -> str | None:
        url = self._url
        # step 2
        if value == "":
            url.query = None
            if self._query is not None:
                self._query._replace_list([])
            self._note(observer, "search", "2", "the value is empty: query becomes null")
            return None
        # step 3-4
        input = value[1:] if value.startswith("?") else value
        url.query = ""
        self._note(observer, "search", "3-4", "remove a leading ?, set the query to the empty "
                   "string")
        # step 5
        reason = self._state_override_parse(input, query_state, observer, errors)
        # step 6: the list is the parse of input, not of the new query: the two differ when the
        # basic URL parser removed ASCII tabs or newlines from it, so the query object is made
        # now if it was not yet (it would otherwise be initialized from the query later)
        self.search_params._replace_list(parse_urlencoded_string(input))
        return reason

    def _set_hash(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> str | None:
        # step 1
        if value == "":
            self._url.fragment = None
            self._note(observer, "hash", "1", "the value is empty: fragment becomes null")
            return None
        # step 2-3
        input = value[1:] if value.startswith("#") else value
        self._url.fragment = ""
        self._note(observer, "hash", "2-3", "remove a leading #, set the fragment to the empty "
                   "string")
        # step 4
        return self._state_override_parse(input, fragment_state, observer, errors)

    _SETTER_STEPS: ClassVar[dict[str, Callable[
        [URL, str, Observer | None, list[ValidationError] | None], str | None]]] = {
        "href": _set_href,
        "protocol": _set_protocol,
        "username": _set_username,
        "password": _set_password,
        "host": _set_host,
        "hostname": _set_hostname,
        "port": _set_port,
        "pathname": _set_pathname,
        "search": _set_search,
        "hash": _set_hash,
    }
