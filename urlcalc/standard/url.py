"""The URL class (url.bs: "API", "URL class"), with every getter and setter.

Setters follow the spec's setter steps. ``URL.set(name, value, observer)`` runs one setter and
returns why it changed nothing when it stopped early (the spec's early returns and failures), so
the setters lab and the trace can say so; the Python properties call it and drop the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, NamedTuple, TypedDict

from urlcalc.standard import steps as spec
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.host import domain_to_unicode, host_serialize
from urlcalc.standard.infra import plain_str, to_usv
from urlcalc.standard.observer import Observer, RanStep, Step, nested
from urlcalc.standard.parser import (
    STATE_NAMES,
    ParseFailure,
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
    state_override_parse,
)
from urlcalc.standard.percent import userinfo_set, utf8_percent_encode
from urlcalc.standard.record import URLRecord
from urlcalc.standard.serializer import origin, serialize_path, serialize_url
from urlcalc.standard.urlencoded import URLSearchParams, parse_urlencoded_string
from urlcalc.standard.variants import (
    API_OPAQUE_PATH_STRIP,
    FILE_API_CLEANUP,
    HASH_SETTER_JAVASCRIPT,
    OPAQUE_PATH_SPACE_ROUNDTRIP,
    ORIGIN_ASCII_SERIALIZATION,
    PASSWORD_NOT_NULLABLE,
    PORT_SETTER_EMPTY_STRING,
    SEARCH_SETTER_EMPTY_RETURNS,
    undone,
)


def _cannot_have_username_password_port(url: URLRecord, port: bool) -> bool:
    """The username, password and port setters' step 1: url cannot have a
    username/password/port. Variant cf616f9 (file-api-cleanup): before, the username and
    password setters returned "If context object's url's host is null, or its
    cannot-be-a-base-URL flag is set", the port setter also when "its scheme is "file"": an
    empty host or the scheme "file" did not stop them."""
    cannot = url.cannot_have_username_password_port
    if cannot and url.host is not None and undone(FILE_API_CLEANUP):
        return port and url.scheme == "file"
    return cannot


class Getters(TypedDict):
    """The URL API's getters (url.href, url.origin ...), in the standard's order."""

    href: str
    origin: str
    protocol: str
    username: str
    password: str
    host: str
    hostname: str
    port: str
    pathname: str
    search: str
    hash: str


#: The getters' names, in the standard's order (Getters' members).
GETTERS: tuple[str, ...] = tuple(Getters.__annotations__)
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")


class SetterStop(NamedTuple):
    """Why a setter changed less than it was asked: the setter (``setter``, e.g. "port
    setter") and its step that returned or ran the basic URL parser (``setter_step``; None for
    the protocol setter, which has no numbered steps), and the algorithm and step where it
    stopped (``algorithm``, ``step``: the setter's own early return, or the state (or host
    parser step) that returned or returned failure), with ``note`` in urlcalc's words."""

    setter: str
    setter_step: str | None
    algorithm: str
    step: str | None
    failure: bool
    note: str

    def text(self) -> str:
        """The reason in the spec's words: "port setter, step 3: ...; port state, step 2.2:
        If state override is given, then return failure."."""
        words = spec.step_text(self.algorithm, self.step) or ""
        where = spec.label(self.algorithm, self.step)
        if self.algorithm == self.setter:
            return f"{where}: {words}"
        ran = "returned failure" if self.failure else "returned"
        return (f"{spec.label(self.setter, self.setter_step)}: the basic URL parser {ran} at "
                f"{where}: {words}")

    def citation(self) -> spec.Citation:
        return spec.cite(self.algorithm, self.step)


class URLParseError(TypeError):
    """The URL constructor's TypeError, carrying the validation error that caused the failure."""

    def __init__(self, failure: ParseFailure, input: str,
                 thrown_at: tuple[str, str] | None = None) -> None:
        error = failure.error
        message = f"Invalid URL: {input!r}"
        where = spec.label(*failure.cause) if failure.cause is not None else ""
        if error is not None:
            message += f" ({error.name} at index {error.index}" + \
                (f"; {where})" if where else ")")
        elif failure.reason:
            message += f" ({where}: {failure.reason})" if where and not \
                failure.reason.startswith(where) else f" ({failure.reason})"
        super().__init__(message)
        self.failure = failure
        #: the algorithm and step that threw (the href setter's step 2), when a setter threw
        self.thrown_at = thrown_at


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
        if serialized is None:
            self._strip_trailing_spaces_2023()

    def _strip_trailing_spaces_2023(self) -> None:
        """(variant: between fdaa0e5 and 6c78200, "potentially strip trailing spaces from an
        opaque path": the search and hash setters' empty string and URLSearchParams' update
        removed an opaque path's trailing spaces once the query and fragment were null; 6c78200
        made the opaque path state encode such a space instead, and removed this.)"""
        url = self._url
        if (isinstance(url.path, str) and url.fragment is None and url.query is None
                and url.path.endswith(" ") and undone(OPAQUE_PATH_SPACE_ROUNDTRIP)
                and not undone(API_OPAQUE_PATH_STRIP)):
            url.path = url.path.rstrip(" ")

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
        serialized = origin(self._url).serialize()
        # (variant: before 20c3257, the Unicode serialization of the origin: its domain through
        # domain to Unicode, which differs only where a label starts with "xn--")
        if "xn--" in serialized and undone(ORIGIN_ASCII_SERIALIZATION):
            host = self._url.host
            assert host is not None
            unicode = plain_str(domain_to_unicode(host_serialize(host)))
            serialized = serialized.replace(host_serialize(host), unicode, 1)
        return serialized

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
            return self.hostname
        return host_serialize(url.host) + ":" + str(url.port)

    @host.setter
    def host(self, value: str) -> None:
        self.set("host", value)

    @property
    def hostname(self) -> str:
        if self._url.host is None:
            return ""
        # A string, as every getter's value: the record's typed host (a Domain, OpaqueHost or
        # EmptyHost is a str subclass) serialized as a plain str.
        return plain_str(host_serialize(self._url.host))

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

    def getters(self) -> Getters:
        return {"href": self.href, "origin": self.origin, "protocol": self.protocol,
                "username": self.username, "password": self.password, "host": self.host,
                "hostname": self.hostname, "port": self.port, "pathname": self.pathname,
                "search": self.search, "hash": self.hash}

    def hostname_unicode(self) -> str:
        """The hostname with domains converted by domain to Unicode (url.bs: IDNA)."""
        h = self._url.host
        if isinstance(h, str) and h and self._url.is_special:
            return plain_str(domain_to_unicode(h))
        return self.hostname

    # -- setters --------------------------------------------------------------------------

    def set(self, name: str, value: str, observer: Observer | None = None,
            errors: list[ValidationError] | None = None) -> str | None:
        """Run the ``name`` setter with ``value``. Returns None when the setter ran to the end,
        otherwise why it stopped early (an early return or a failure of the basic URL parser),
        citing the spec's step and its words. The href setter raises URLParseError on failure,
        as the spec's TypeError."""
        stop = self.set_cited(name, value, observer, errors)
        return stop.text() if stop is not None else None

    def set_cited(self, name: str, value: str, observer: Observer | None = None,
                  errors: list[ValidationError] | None = None) -> SetterStop | None:
        """``set``, returning the early return or failure as a ``SetterStop`` (None: the
        setter ran to the end)."""
        try:
            method = self._SETTER_STEPS[name]
        except KeyError:
            raise ValueError(f"unknown setter {name!r}; expected one of {SETTERS}") from None
        return method(self, to_usv(value), observer, errors)

    def _note(self, observer: Observer | None, setter: str, step: str | None, note: str,
              outcome: str | None = None, calls: str | None = None,
              before: URLRecord | None = None) -> Step | None:
        """The setter's ``step`` ran: what it did (``note``), whether it returned (``outcome``),
        the algorithm it ``calls`` (whose events follow, nested) and the record fields it
        changed since ``before`` (their values after it). Returns the step (the caller adds
        the changes of an algorithm it called once it has run)."""
        if observer is not None:
            changes = self._changed(before) if before is not None else {}
            algorithm = setter + " setter"
            record: Step = {"parser": "setter", "algorithm": algorithm, "state": algorithm,
                            "step": step, "note": note, "depth": 0}
            if step is not None:
                ran: RanStep = {"step": step}
                if changes:
                    ran["changes"] = dict(changes)
                    record["changes"] = dict(changes)
                if outcome is not None:
                    ran["outcome"] = outcome
                if calls is not None:
                    ran["calls"] = calls
                record["ran"] = [ran]
            else:
                record["ran"] = []
            if outcome is not None:
                record["outcome"] = outcome
            observer(record)
            return record
        return None

    def _changed(self, before: URLRecord) -> dict[str, object]:
        """The record fields whose value differs from ``before``'s (JSON values)."""
        url = self._url
        out: dict[str, object] = {}
        for name in ("scheme", "username", "password", "host", "port", "path", "query",
                     "fragment"):
            value = getattr(url, name)
            if value != getattr(before, name):
                if name == "host":
                    value = None if value is None else host_serialize(value)
                elif name == "path" and isinstance(value, list):
                    value = list(value)
                out[name] = value
        return out

    def _return(self, observer: Observer | None, setter: str, step: str,
                note: str) -> SetterStop:
        """The setter's own ``step`` returns early."""
        self._note(observer, setter, step, note + ": return", "return")
        return SetterStop(setter + " setter", step, setter + " setter", step, False, note)

    def _state_override_parse(self, setter: str, step: str | None, input: str, state: State,
                              observer: Observer | None,
                              errors: list[ValidationError] | None) -> SetterStop | None:
        """The setter's ``step``: basic URL parse ``input`` with this URL and ``state`` as
        state override."""
        event = self._note(observer, setter, step, f"basic URL parse {input!r} with "
                           f"{STATE_NAMES[state]} as state override", calls="basic URL parser")
        inner = nested(observer, setter + " setter", step) if observer is not None else None
        before = self._url.clone() if event is not None else None
        result = state_override_parse(input, self._url, state, observer=inner, errors=errors)
        if event is not None and before is not None:
            # the step changed what the basic URL parser it ran changed
            changes = self._changed(before)
            if changes and event["ran"]:
                event["ran"][0]["changes"] = changes
                event["changes"] = dict(changes)
        name = setter + " setter"
        if isinstance(result, ParseFailure):
            assert result.cause is not None
            algorithm, at = result.cause
            return SetterStop(name, step, algorithm, at, True, result.reason)
        if result is not None and result.ignored:
            return SetterStop(name, step, result.state, result.step, False, result.note)
        return None

    def _set_href(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> SetterStop | None:
        # step 1
        self._note(observer, "href", "1", "run the basic URL parser on the value",
                   calls="basic URL parser")
        inner = nested(observer, "href setter", "1") if observer is not None else None
        parsed = basic_url_parse(value, observer=inner, errors=errors)
        # step 2
        if isinstance(parsed, ParseFailure):
            self._note(observer, "href", "2", "parsedURL is failure: throw a TypeError",
                       "failure")
            raise URLParseError(parsed, value, ("href setter", "2"))
        # step 3
        before = self._url if observer is not None else None
        self._url = parsed
        # step 4-6
        if self._query is not None:
            self._query._replace_list(
                parse_urlencoded_string(parsed.query) if parsed.query is not None else [])
        self._note(observer, "href", "3", "set this's URL to parsedURL (steps 4-6: the query "
                   "object's list from its query)", before=before)
        return None

    def _set_protocol(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> SetterStop | None:
        # The protocol setter has no numbered steps.
        return self._state_override_parse("protocol", None, value + ":", scheme_start_state,
                                          observer, errors)

    def _set_username(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> SetterStop | None:
        # step 1
        if _cannot_have_username_password_port(self._url, False):
            return self._return(observer, "username", "1",
                                "the URL cannot have a username/password/port")
        # step 2: set the username
        before = self._url.clone() if observer is not None else None
        self._url.username = utf8_percent_encode(value, userinfo_set())
        self._note(observer, "username", "2", "set the username (userinfo percent-encode set)",
                   before=before)
        return None

    def _set_password(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> SetterStop | None:
        # step 1
        if _cannot_have_username_password_port(self._url, False):
            return self._return(observer, "password", "1",
                                "the URL cannot have a username/password/port")
        # step 2: set the password
        before = self._url.clone() if observer is not None else None
        self._url.password = utf8_percent_encode(value, userinfo_set(True))
        # (variant 5e0b05e: before, "If password is the empty string, set url's password to
        # null"; otherwise a string, even empty)
        self._url.password_non_null = value != "" and undone(PASSWORD_NOT_NULLABLE)
        self._note(observer, "password", "2", "set the password (userinfo percent-encode set)",
                   before=before)
        return None

    def _set_host_or_hostname(self, name: str, state: State, value: str,
                              observer: Observer | None,
                              errors: list[ValidationError] | None) -> SetterStop | None:
        # step 1
        if self._url.has_opaque_path:
            return self._return(observer, name, "1", "the URL has an opaque path")
        # step 2
        return self._state_override_parse(name, "2", value, state, observer, errors)

    def _set_host(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> SetterStop | None:
        return self._set_host_or_hostname("host", host_state, value, observer, errors)

    def _set_hostname(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> SetterStop | None:
        return self._set_host_or_hostname("hostname", hostname_state, value, observer, errors)

    def _set_port(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> SetterStop | None:
        # step 1
        if _cannot_have_username_password_port(self._url, True):
            return self._return(observer, "port", "1",
                                "the URL cannot have a username/password/port")
        # step 2 (variant: before 05ffaa6, the empty string went to step 3's basic URL parse,
        # which left the port as it was)
        if value == "" and not undone(PORT_SETTER_EMPTY_STRING):
            before = self._url.clone() if observer is not None else None
            self._url.port = None
            self._note(observer, "port", "2", "the value is the empty string: port becomes null",
                       before=before)
            return None
        # step 3
        return self._state_override_parse("port", "3", value, port_state, observer, errors)

    def _set_pathname(self, value: str, observer: Observer | None,
                      errors: list[ValidationError] | None) -> SetterStop | None:
        # step 1
        if self._url.has_opaque_path:
            return self._return(observer, "pathname", "1", "the URL has an opaque path")
        # step 2
        before = self._url.clone() if observer is not None else None
        self._url.path = []
        self._note(observer, "pathname", "2", "empty the path", before=before)
        # step 3
        return self._state_override_parse("pathname", "3", value, path_start_state, observer,
                                          errors)

    def _set_search(self, value: str, observer: Observer | None,
                    errors: list[ValidationError] | None) -> SetterStop | None:
        # step 1
        url = self._url
        # step 2
        if value == "":
            before = url.clone() if observer is not None else None
            url.query = None
            if self._query is not None:
                self._query._replace_list([])
            self._strip_trailing_spaces_2023()
            # (variant: before 4f1c2dd, step 2 did not return: steps 3-6 went on with "")
            if not undone(SEARCH_SETTER_EMPTY_RETURNS):
                self._note(observer, "search", "2", "the value is the empty string: query "
                           "becomes null, the query object's list is emptied, and return",
                           "return", before=before)
                return None
        # step 3
        input = value[1:] if value.startswith("?") else value
        if input is not value:
            self._note(observer, "search", "3", "remove the leading ?")
        # step 4
        before = url.clone() if observer is not None else None
        url.query = ""
        self._note(observer, "search", "4", "set the query to the empty string", before=before)
        # step 5
        stop = self._state_override_parse("search", "5", input, query_state, observer, errors)
        # step 6: the list is the parse of input, not of the new query: the two differ when the
        # basic URL parser removed ASCII tabs or newlines from it, so the query object is made
        # now if it was not yet (it would otherwise be initialized from the query later)
        self.search_params._replace_list(parse_urlencoded_string(input))
        self._note(observer, "search", "6", "the query object's list is the parse of input")
        return stop

    def _set_hash(self, value: str, observer: Observer | None,
                  errors: list[ValidationError] | None) -> SetterStop | None:
        # (variant: before 4bf85a0, step 1 was "If the URL's scheme is "javascript", then
        # return")
        if self._url.scheme == "javascript" and undone(HASH_SETTER_JAVASCRIPT):
            return self._return(observer, "hash", "1", "the URL's scheme is javascript")
        # step 1
        if value == "":
            before = self._url.clone() if observer is not None else None
            self._url.fragment = None
            self._strip_trailing_spaces_2023()
            self._note(observer, "hash", "1", "the value is the empty string: fragment becomes "
                       "null, and return", "return", before=before)
            return None
        # step 2
        input = value[1:] if value.startswith("#") else value
        if input is not value:
            self._note(observer, "hash", "2", "remove the leading #")
        # step 3
        before = self._url.clone() if observer is not None else None
        self._url.fragment = ""
        self._note(observer, "hash", "3", "set the fragment to the empty string", before=before)
        # step 4
        return self._state_override_parse("hash", "4", input, fragment_state, observer, errors)

    _SETTER_STEPS: ClassVar[dict[str, Callable[
        [URL, str, Observer | None, list[ValidationError] | None], SetterStop | None]]] = {
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
