"""The oracle's URL setters (url.bs "URL class": the protocol, username, password, host,
hostname, port, pathname, search and hash setters; the href setter is not part of the oracle) and
the URL serializer, written from url.bs alone.

Setter steps are recorded at depth 0, one run per step that did something (a step that only
"lets" a variable, such as the search setter's "Let url be this's URL", is not listed; a step
that removed a leading "?" or "#" is), the basic URL parser they run at depth 1. The protocol
setter has no numbered step: it lists none of its own.
"""

from __future__ import annotations

from .host_literal import in_userinfo_set, serialize_host, utf8_percent_encode_string
from .record import Ran, Recorder, URLRecord
from .spec_literal import RETURN, basic_url_parse

SETTERS = ("protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")
PARSER = "basic URL parser"


def cannot_have_username_password_port(url: URLRecord) -> bool:
    """"its host is null or the empty string, or its scheme is "file".\""""
    return url.host is None or url.host == "" or url.scheme == "file"


def _parse_under(rec: Recorder, setter: str, step: str, value: str, url: URLRecord,
                 state_override: str) -> None:
    """A setter step that basic URL parses ``value`` with ``url`` and a state override: the step,
    then the parser's ran steps one deeper."""
    run = rec.open(0, setter, url, list_all=True)
    basic_url_parse(rec, 1, value, url=url, state_override=state_override)
    run.step(step, calls=PARSER)
    run.close()


def set_value(url: URLRecord, setter: str, value: str) -> list[Ran]:
    """Run ``setter`` with ``value`` on ``url`` (changed in place); the ran steps."""
    rec = Recorder()
    alg = setter + " setter"
    if setter == "protocol":
        # "The protocol setter steps are to basic URL parse the given value, followed by
        # U+003A (:), with this's URL as url and scheme start state as state override."
        basic_url_parse(rec, 1, value + ":", url=url, state_override="scheme start state")
    elif setter in ("username", "password"):
        # 1. If this's URL cannot have a username/password/port, then return.
        if cannot_have_username_password_port(url):
            rec.single(0, alg, "1", url, outcome=RETURN)
        # 2. Set the username (password) given this's URL and the given value: "set url's
        # username to the result of running UTF-8 percent-encode on username using the userinfo
        # percent-encode set".
        else:
            encoded = utf8_percent_encode_string(value, in_userinfo_set)
            run = rec.open(0, alg, url, list_all=True)
            if setter == "username":
                url.username = encoded
            else:
                url.password = encoded
            run.step("2", writes=True)
            run.close()
    elif setter in ("host", "hostname"):
        # 1. If this's URL has an opaque path, then return.
        if isinstance(url.path, str):
            rec.single(0, alg, "1", url, outcome=RETURN)
        # 2. Basic URL parse the given value with this's URL as url and host state (hostname
        # state) as state override.
        else:
            _parse_under(rec, alg, "2", value, url, setter + " state")
    elif setter == "port":
        # 1. If this's URL cannot have a username/password/port, then return.
        if cannot_have_username_password_port(url):
            rec.single(0, alg, "1", url, outcome=RETURN)
        # 2. If the given value is the empty string, then set this's URL's port to null.
        elif value == "":
            run = rec.open(0, alg, url, list_all=True)
            url.port = None
            run.step("2", writes=True)
            run.close()
        # 3. Otherwise, basic URL parse the given value with this's URL as url and port state as
        # state override.
        else:
            _parse_under(rec, alg, "3", value, url, "port state")
    elif setter == "pathname":
        # 1. If this's URL has an opaque path, then return.
        if isinstance(url.path, str):
            rec.single(0, alg, "1", url, outcome=RETURN)
        else:
            # 2. Empty this's URL's path.
            run = rec.open(0, alg, url, list_all=True)
            url.path = []
            run.step("2", writes=True)
            run.close()
            # 3. Basic URL parse the given value with this's URL as url and path start state as
            # state override.
            _parse_under(rec, alg, "3", value, url, "path start state")
    elif setter == "search":
        _search(rec, url, value)
    elif setter == "hash":
        _hash(rec, url, value)
    else:
        raise ValueError(setter)
    return rec.entries


def _search(rec: Recorder, url: URLRecord, value: str) -> None:
    alg = "search setter"
    # 1. Let url be this's URL.
    # 2. If the given value is the empty string, then set url's query to null, empty this's
    # query object's list, and return.
    if value == "":
        run = rec.open(0, alg, url, list_all=True)
        url.query = None
        run.step("2", writes=True, outcome=RETURN)
        run.close()
        return
    # 3. Let input be the given value with a single leading U+003F (?) removed, if any.
    input = value[1:] if value.startswith("?") else value
    if input != value:
        rec.single(0, alg, "3", url)
    # 4. Set url's query to the empty string.
    run = rec.open(0, alg, url, list_all=True)
    url.query = ""
    run.step("4", writes=True)
    run.close()
    # 5. Basic URL parse input with url as url and query state as state override.
    _parse_under(rec, alg, "5", input, url, "query state")
    # 6. Set this's query object's list to the result of parsing input.
    rec.single(0, alg, "6", url)


def _hash(rec: Recorder, url: URLRecord, value: str) -> None:
    alg = "hash setter"
    # 1. If the given value is the empty string, then set this's URL's fragment to null and
    # return.
    if value == "":
        run = rec.open(0, alg, url, list_all=True)
        url.fragment = None
        run.step("1", writes=True, outcome=RETURN)
        run.close()
        return
    # 2. Let input be the given value with a single leading U+0023 (#) removed, if any.
    input = value[1:] if value.startswith("#") else value
    if input != value:
        rec.single(0, alg, "2", url)
    # 3. Set this's URL's fragment to the empty string.
    run = rec.open(0, alg, url, list_all=True)
    url.fragment = ""
    run.step("3", writes=True)
    run.close()
    # 4. Basic URL parse input with this's URL as url and fragment state as state override.
    _parse_under(rec, alg, "4", input, url, "fragment state")


def serialize(url: URLRecord) -> str:
    """The URL serializer (url.bs), without exclude fragment."""
    # 1. Let output be url's scheme and U+003A (:) concatenated.
    output = url.scheme + ":"
    # 2. If url's host is non-null:
    if url.host is not None:
        # 2.1 Append "//" to output.
        output += "//"
        # 2.2 If url includes credentials, then: username, then ":" and password if the password
        # is not the empty string, then "@".
        if url.username or url.password:
            output += url.username
            if url.password:
                output += ":" + url.password
            output += "@"
        # 2.3 Append url's host, serialized, to output.
        output += serialize_host(url.host)
        # 2.4 If url's port is non-null, append U+003A (:) followed by url's port, serialized.
        if url.port is not None:
            output += f":{url.port}"
    # 3. If url's host is null, url does not have an opaque path, url's path's size is greater
    # than 1, and url's path[0] is the empty string, then append U+002F (/) followed by
    # U+002E (.) to output.
    if (url.host is None and isinstance(url.path, list) and len(url.path) > 1
            and url.path[0] == ""):
        output += "/."
    # 4. Append the result of URL path serializing url to output.
    output += url.path if isinstance(url.path, str) else "".join("/" + s for s in url.path)
    # 5. If url's query is non-null, append U+003F (?), followed by url's query, to output.
    if url.query is not None:
        output += "?" + url.query
    # 6. If exclude fragment is false and url's fragment is non-null, then append U+0023 (#),
    # followed by url's fragment, to output.
    if url.fragment is not None:
        output += "#" + url.fragment
    return output
