"""A spec-literal reference for the basic URL parser, written from url.bs alone (not from
urlcalc.standard.parser, .host or urlcalc.trace): every state is a function named after the spec's
state, each branch under the spec's sentence, and each applied leaf step told to the run's
recorder (tests/oracle/record.py) so that the oracle lists which numbered steps ran and what each
changed. The host side is tests/oracle/host_literal.py; the setters and the URL serializer are
tests/oracle/setters_literal.py.

``parse(input, base)`` returns (URLRecord or None for failure, the ran steps).
"""

from __future__ import annotations

from collections.abc import Callable

from .host_literal import (
    ASCII_ALNUM,
    ASCII_ALPHA,
    ASCII_DIGITS,
    ASCII_HEX,
    host_parse,
    in_userinfo_set,
    is_url_code_point,
    utf8_percent_encode,
)
from .record import Ran, Recorder, Run, URLRecord

SPECIAL = {"ftp": 21, "file": None, "http": 80, "https": 443, "ws": 80, "wss": 443}
FAILURE = "failure"
RETURN = "return"
C0_OR_SPACE = {chr(i) for i in range(0x21)}
TAB_OR_NEWLINE = set("\t\n\r")


def is_special(url: URLRecord) -> bool:
    return url.scheme in SPECIAL


def default_port(scheme: str) -> int | None:
    return SPECIAL.get(scheme)


def includes_credentials(url: URLRecord) -> bool:
    return url.username != "" or url.password != ""


def is_windows_drive_letter(s: str) -> bool:
    """"two code points, of which the first is an ASCII alpha and the second is either U+003A (:)
    or U+007C (|)\""""
    return len(s) == 2 and s[0] in ASCII_ALPHA and s[1] in ":|"


def is_normalized_windows_drive_letter(s: str) -> bool:
    return is_windows_drive_letter(s) and s[1] == ":"


def starts_with_windows_drive_letter(s: str) -> bool:
    """"its length is greater than or equal to 2; its first two code points are a Windows drive
    letter; its length is 2 or its third code point is U+002F (/), U+005C (\\), U+003F (?), or
    U+0023 (#).\""""
    return (len(s) >= 2 and is_windows_drive_letter(s[:2])
            and (len(s) == 2 or s[2] in "/\\?#"))


def is_single_dot(s: str) -> bool:
    return s == "." or s.lower() == "%2e"


def is_double_dot(s: str) -> bool:
    return s == ".." or s.lower() in (".%2e", "%2e.", "%2e%2e")


def percent_invalid(p: Parser) -> bool:
    """"c is U+0025 (%) and remaining does not start with two ASCII hex digits\""""
    rem = p.remaining
    return p.c == "%" and not (len(rem) >= 2 and rem[0] in ASCII_HEX and rem[1] in ASCII_HEX)


def not_url_unit(c: str | None) -> bool:
    """"c is not a URL code point and not U+0025 (%)\""""
    return c is not None and not is_url_code_point(c) and c != "%"


class Parser:
    """The basic URL parser's variables."""

    def __init__(self, rec: Recorder, depth: int, input: str, base: URLRecord | None,
                 url: URLRecord, state_override: str | None) -> None:
        self.rec = rec
        self.depth = depth
        self.input = input
        self.base = base
        self.url = url
        self.state_override = state_override
        self.state = state_override or "scheme start state"
        self.buffer = ""
        self.at_sign_seen = self.inside_brackets = self.password_token_seen = False
        self.pointer = 0

    @property
    def c(self) -> str | None:
        """The code point the pointer points to; None: the EOF code point."""
        assert self.pointer >= 0
        return self.input[self.pointer] if self.pointer < len(self.input) else None

    @property
    def remaining(self) -> str:
        assert self.c is not None
        return self.input[self.pointer + 1:]

    def shorten(self) -> None:
        shorten_a_urls_path(self.rec, self.depth + 1, self.url)

    def host_parse(self, buffer: str) -> object:
        """"host parsing buffer with url is not special\""""
        return host_parse(self.rec, self.depth + 1, buffer, not is_special(self.url))


def shorten_a_urls_path(rec: Recorder, depth: int, url: URLRecord) -> None:
    run = rec.open(depth, "shorten a url's path", url)
    # 1. Assert: url does not have an opaque path.
    assert isinstance(url.path, list)
    # 2. Let path be url's path.
    path = url.path
    # 3. If url's scheme is "file", path's size is 1, and path[0] is a normalized Windows drive
    # letter, then return.
    if url.scheme == "file" and len(path) == 1 and is_normalized_windows_drive_letter(path[0]):
        run.step("3", outcome=RETURN)
    else:
        # 4. Remove path's last item, if any.
        if path:
            path.pop()
        run.step("4", writes=True)
    run.close()


SHORTEN = "shorten a url's path"
HOST_PARSER = "host parser"


# --- the states ----------------------------------------------------------------------------

def scheme_start_state(p: Parser, run: Run) -> str | None:
    # 1. If c is an ASCII alpha, append c, lowercased, to buffer, and set state to scheme state.
    if p.c is not None and p.c in ASCII_ALPHA:
        p.buffer += p.c.lower()
        p.state = "scheme state"
        run.step("1", decides=True)
    # 2. Otherwise, if state override is not given, set state to no scheme state and decrease
    # pointer by 1.
    elif p.state_override is None:
        p.state = "no scheme state"
        p.pointer -= 1
        run.step("2", decides=True)
    # 3. Otherwise, return failure.
    else:
        run.step("3", outcome=FAILURE)
        return FAILURE
    return None


def scheme_state(p: Parser, run: Run) -> str | None:
    url = p.url
    # 1. If c is an ASCII alphanumeric, U+002B (+), U+002D (-), or U+002E (.), append c,
    # lowercased, to buffer.
    if p.c is not None and (p.c in ASCII_ALNUM or p.c in "+-."):
        p.buffer += p.c.lower()
        run.step("1")
    # 2. Otherwise, if c is U+003A (:), then:
    elif p.c == ":":
        # 2.1 If state override is given, then:
        if p.state_override is not None:
            # 2.1.1 If url's scheme is a special scheme and buffer is not a special scheme, then
            # return.
            if is_special(url) and p.buffer not in SPECIAL:
                run.step("2.1.1", outcome=RETURN)
                return RETURN
            # 2.1.2 If url's scheme is not a special scheme and buffer is a special scheme, then
            # return.
            if not is_special(url) and p.buffer in SPECIAL:
                run.step("2.1.2", outcome=RETURN)
                return RETURN
            # 2.1.3 If url includes credentials or has a non-null port, and buffer is "file",
            # then return.
            if (includes_credentials(url) or url.port is not None) and p.buffer == "file":
                run.step("2.1.3", outcome=RETURN)
                return RETURN
            # 2.1.4 If url's scheme is "file" and its host is an empty host, then return.
            if url.scheme == "file" and url.host == "":
                run.step("2.1.4", outcome=RETURN)
                return RETURN
        # 2.2 Set url's scheme to buffer.
        url.scheme = p.buffer
        run.step("2.2", writes=True)
        # 2.3 If state override is given, then:
        if p.state_override is not None:
            # 2.3.1 If url's port is url's scheme's default port, then set url's port to null.
            if url.port == default_port(url.scheme):
                url.port = None
                run.step("2.3.1", writes=True)
            # 2.3.2 Return.
            run.step("2.3.2", outcome=RETURN)
            return RETURN
        # 2.4 Set buffer to the empty string.
        p.buffer = ""
        run.step("2.4")
        # 2.5 If url's scheme is "file", then:
        if url.scheme == "file":
            # 2.5.1 If remaining does not start with "//", special-scheme-missing-following-
            # solidus validation error.
            if not p.remaining.startswith("//"):
                run.step("2.5.1", errors=("special-scheme-missing-following-solidus",))
            # 2.5.2 Set state to file state.
            p.state = "file state"
            run.step("2.5.2", decides=True)
        # 2.6 Otherwise, if url is special, base is non-null, and base's scheme is url's scheme:
        elif is_special(url) and p.base is not None and p.base.scheme == url.scheme:
            # 2.6.1 Assert: base is special (and therefore does not have an opaque path).
            assert isinstance(p.base.path, list)
            # 2.6.2 Set state to special relative or authority state.
            p.state = "special relative or authority state"
            run.step("2.6.2", decides=True)
        # 2.7 Otherwise, if url is special, set state to special authority slashes state.
        elif is_special(url):
            p.state = "special authority slashes state"
            run.step("2.7", decides=True)
        # 2.8 Otherwise, if remaining starts with an U+002F (/), set state to path or authority
        # state and increase pointer by 1.
        elif p.remaining.startswith("/"):
            p.state = "path or authority state"
            p.pointer += 1
            run.step("2.8", decides=True)
        # 2.9 Otherwise, set url's path to the empty string and set state to opaque path state.
        else:
            url.path = ""
            p.state = "opaque path state"
            run.step("2.9", writes=True, decides=True)
    # 3. Otherwise, if state override is not given, set buffer to the empty string, state to no
    # scheme state, and start over (from the first code point in input).
    elif p.state_override is None:
        p.buffer = ""
        p.state = "no scheme state"
        p.pointer = -1
        run.step("3", decides=True)
    # 4. Otherwise, return failure.
    else:
        run.step("4", outcome=FAILURE)
        return FAILURE
    return None


def no_scheme_state(p: Parser, run: Run) -> str | None:
    url, base = p.url, p.base
    # 1. If base is null, or base has an opaque path and c is not U+0023 (#), missing-scheme-non-
    # relative-URL validation error, return failure.
    if base is None or (isinstance(base.path, str) and p.c != "#"):
        run.step("1", errors=("missing-scheme-non-relative-URL",), outcome=FAILURE)
        return FAILURE
    # 2. Otherwise, if base has an opaque path and c is U+0023 (#), set url's scheme to base's
    # scheme, url's path to base's path, url's query to base's query, url's fragment to the empty
    # string, and set state to fragment state.
    if isinstance(base.path, str) and p.c == "#":
        url.scheme, url.path, url.query, url.fragment = base.scheme, base.path, base.query, ""
        p.state = "fragment state"
        run.step("2", writes=True, decides=True)
    # 3. Otherwise, if base's scheme is not "file", set state to relative state and decrease
    # pointer by 1.
    elif base.scheme != "file":
        p.state = "relative state"
        p.pointer -= 1
        run.step("3", decides=True)
    # 4. Otherwise, set state to file state and decrease pointer by 1.
    else:
        p.state = "file state"
        p.pointer -= 1
        run.step("4", decides=True)
    return None


def special_relative_or_authority_state(p: Parser, run: Run) -> str | None:
    # 1. If c is U+002F (/) and remaining starts with U+002F (/), then set state to special
    # authority ignore slashes state and increase pointer by 1.
    if p.c == "/" and p.remaining.startswith("/"):
        p.state = "special authority ignore slashes state"
        p.pointer += 1
        run.step("1", decides=True)
    # 2. Otherwise, special-scheme-missing-following-solidus validation error, set state to
    # relative state and decrease pointer by 1.
    else:
        p.state = "relative state"
        p.pointer -= 1
        run.step("2", errors=("special-scheme-missing-following-solidus",), decides=True)
    return None


def path_or_authority_state(p: Parser, run: Run) -> str | None:
    # 1. If c is U+002F (/), then set state to authority state.
    if p.c == "/":
        p.state = "authority state"
        run.step("1", decides=True)
    # 2. Otherwise, set state to path state, and decrease pointer by 1.
    else:
        p.state = "path state"
        p.pointer -= 1
        run.step("2", decides=True)
    return None


def relative_state(p: Parser, run: Run) -> str | None:
    url, base = p.url, p.base
    assert base is not None
    # 1. Assert: base's scheme is not "file".
    assert base.scheme != "file"
    # 2. Set url's scheme to base's scheme.
    url.scheme = base.scheme
    run.step("2", writes=True)
    # 3. If c is U+002F (/), then set state to relative slash state.
    if p.c == "/":
        p.state = "relative slash state"
        run.step("3", decides=True)
    # 4. Otherwise, if url is special and c is U+005C (\), invalid-reverse-solidus validation
    # error, set state to relative slash state.
    elif is_special(url) and p.c == "\\":
        p.state = "relative slash state"
        run.step("4", errors=("invalid-reverse-solidus",), decides=True)
    # 5. Otherwise:
    else:
        # 5.1 Set url's username to base's username, url's password to base's password, url's
        # host to base's host, url's port to base's port, url's path to a clone of base's path,
        # and url's query to base's query.
        url.username, url.password, url.host, url.port = (base.username, base.password,
                                                          base.host, base.port)
        url.path = list(base.path)
        url.query = base.query
        run.step("5.1", writes=True)
        # 5.2 If c is U+003F (?), then set url's query to the empty string, and state to query
        # state.
        if p.c == "?":
            url.query = ""
            p.state = "query state"
            run.step("5.2", writes=True, decides=True)
        # 5.3 Otherwise, if c is U+0023 (#), set url's fragment to the empty string and state to
        # fragment state.
        elif p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
            run.step("5.3", writes=True, decides=True)
        # 5.4 Otherwise, if c is not the EOF code point:
        elif p.c is not None:
            # 5.4.1 Set url's query to null.
            url.query = None
            run.step("5.4.1", writes=True)
            # 5.4.2 Shorten url's path.
            p.shorten()
            run.step("5.4.2", calls=SHORTEN)
            # 5.4.3 Set state to path state and decrease pointer by 1.
            p.state = "path state"
            p.pointer -= 1
            run.step("5.4.3", decides=True)
    return None


def relative_slash_state(p: Parser, run: Run) -> str | None:
    url, base = p.url, p.base
    # 1. If url is special and c is U+002F (/) or U+005C (\), then:
    if is_special(url) and p.c in ("/", "\\"):
        # 1.1 If c is U+005C (\), invalid-reverse-solidus validation error.
        if p.c == "\\":
            run.step("1.1", errors=("invalid-reverse-solidus",))
        # 1.2 Set state to special authority ignore slashes state.
        p.state = "special authority ignore slashes state"
        run.step("1.2", decides=True)
    # 2. Otherwise, if c is U+002F (/), then set state to authority state.
    elif p.c == "/":
        p.state = "authority state"
        run.step("2", decides=True)
    # 3. Otherwise, set url's username to base's username, url's password to base's password,
    # url's host to base's host, url's port to base's port, state to path state, and then,
    # decrease pointer by 1.
    else:
        assert base is not None
        url.username, url.password, url.host, url.port = (base.username, base.password,
                                                          base.host, base.port)
        p.state = "path state"
        p.pointer -= 1
        run.step("3", writes=True, decides=True)
    return None


def special_authority_slashes_state(p: Parser, run: Run) -> str | None:
    # 1. If c is U+002F (/) and remaining starts with U+002F (/), then set state to special
    # authority ignore slashes state and increase pointer by 1.
    if p.c == "/" and p.remaining.startswith("/"):
        p.state = "special authority ignore slashes state"
        p.pointer += 1
        run.step("1", decides=True)
    # 2. Otherwise, special-scheme-missing-following-solidus validation error, set state to
    # special authority ignore slashes state and decrease pointer by 1.
    else:
        p.state = "special authority ignore slashes state"
        p.pointer -= 1
        run.step("2", errors=("special-scheme-missing-following-solidus",), decides=True)
    return None


def special_authority_ignore_slashes_state(p: Parser, run: Run) -> str | None:
    # 1. If c is neither U+002F (/) nor U+005C (\), then set state to authority state and
    # decrease pointer by 1.
    if p.c not in ("/", "\\"):
        p.state = "authority state"
        p.pointer -= 1
        run.step("1", decides=True)
    # 2. Otherwise, special-scheme-missing-following-solidus validation error.
    else:
        run.step("2", errors=("special-scheme-missing-following-solidus",))
    return None


def authority_state(p: Parser, run: Run) -> str | None:
    url = p.url
    # 1. If c is U+0040 (@), then:
    if p.c == "@":
        # 1.1 Invalid-credentials validation error.
        run.step("1.1", errors=("invalid-credentials",))
        # 1.2 If atSignSeen is true, then prepend "%40" to buffer.
        if p.at_sign_seen:
            p.buffer = "%40" + p.buffer
            run.step("1.2")
        # 1.3 Set atSignSeen to true.
        p.at_sign_seen = True
        run.step("1.3")
        # 1.4 For each codePoint in buffer:
        for code_point in p.buffer:
            # 1.4.1 If codePoint is U+003A (:) and passwordTokenSeen is false, then set
            # passwordTokenSeen to true and continue.
            if code_point == ":" and not p.password_token_seen:
                p.password_token_seen = True
                run.step("1.4.1")
                continue
            # 1.4.2 Let encodedCodePoints be the result of running UTF-8 percent-encode
            # codePoint using the userinfo percent-encode set.
            encoded = utf8_percent_encode(code_point, in_userinfo_set)
            # 1.4.3 If passwordTokenSeen is true, then append encodedCodePoints to url's
            # password.
            if p.password_token_seen:
                url.password += encoded
                run.step("1.4.3", writes=True)
            # 1.4.4 Otherwise, append encodedCodePoints to url's username.
            else:
                url.username += encoded
                run.step("1.4.4", writes=True)
        # 1.5 Set buffer to the empty string.
        p.buffer = ""
        run.step("1.5")
    # 2. Otherwise, if one of the following is true: c is the EOF code point, U+002F (/),
    # U+003F (?), or U+0023 (#); url is special and c is U+005C (\) then:
    elif p.c in (None, "/", "?", "#") or (is_special(url) and p.c == "\\"):
        # 2.1 If atSignSeen is true and buffer is the empty string, host-missing validation
        # error, return failure.
        if p.at_sign_seen and p.buffer == "":
            run.step("2.1", errors=("host-missing",), outcome=FAILURE)
            return FAILURE
        # 2.2 Decrease pointer by buffer's code point length + 1, set buffer to the empty string,
        # and set state to host state.
        p.pointer -= len(p.buffer) + 1
        p.buffer = ""
        p.state = "host state"
        run.step("2.2", decides=True)
    # 3. Otherwise, append c to buffer.
    else:
        p.buffer += p.c
        run.step("3")
    return None


def host_state(p: Parser, run: Run) -> str | None:
    """The host state and the hostname state (url.bs gives them the same steps)."""
    url = p.url
    # 1. If state override is given and url's scheme is "file", then decrease pointer by 1 and
    # set state to file host state.
    if p.state_override is not None and url.scheme == "file":
        p.pointer -= 1
        p.state = "file host state"
        run.step("1", decides=True)
    # 2. Otherwise, if c is U+003A (:) and insideBrackets is false:
    elif p.c == ":" and not p.inside_brackets:
        # 2.1 If buffer is the empty string, host-missing validation error, return failure.
        if p.buffer == "":
            run.step("2.1", errors=("host-missing",), outcome=FAILURE)
            return FAILURE
        # 2.2 If state override is given and state override is hostname state, then return
        # failure.
        if p.state_override == "hostname state":
            run.step("2.2", outcome=FAILURE)
            return FAILURE
        # 2.3 Let host be the result of host parsing buffer with url is not special.
        host = p.host_parse(p.buffer)
        run.step("2.3", calls=HOST_PARSER)
        # 2.4 If host is failure, then return failure.
        if host is None:
            run.step("2.4", outcome=FAILURE)
            return FAILURE
        # 2.5 Set url's host to host, buffer to the empty string, and state to port state.
        url.host = host  # type: ignore[assignment]
        p.buffer = ""
        p.state = "port state"
        run.step("2.5", writes=True, decides=True)
    # 3. Otherwise, if one of the following is true: c is the EOF code point, U+002F (/),
    # U+003F (?), or U+0023 (#); url is special and c is U+005C (\) then decrease pointer by 1,
    # and:
    elif p.c in (None, "/", "?", "#") or (is_special(url) and p.c == "\\"):
        p.pointer -= 1
        # 3.1 If url is special and buffer is the empty string, host-missing validation error,
        # return failure.
        if is_special(url) and p.buffer == "":
            run.step("3.1", errors=("host-missing",), outcome=FAILURE)
            return FAILURE
        # 3.2 Otherwise, if state override is given, buffer is the empty string, and either url
        # includes credentials or url's port is non-null, then return failure.
        if (p.state_override is not None and p.buffer == ""
                and (includes_credentials(url) or url.port is not None)):
            run.step("3.2", outcome=FAILURE)
            return FAILURE
        # 3.3 Let host be the result of host parsing buffer with url is not special.
        host = p.host_parse(p.buffer)
        run.step("3.3", calls=HOST_PARSER)
        # 3.4 If host is failure, then return failure.
        if host is None:
            run.step("3.4", outcome=FAILURE)
            return FAILURE
        # 3.5 Set url's host to host, buffer to the empty string, and state to path start state.
        url.host = host  # type: ignore[assignment]
        p.buffer = ""
        p.state = "path start state"
        run.step("3.5", writes=True, decides=True)
        # 3.6 If state override is given, then return.
        if p.state_override is not None:
            run.step("3.6", outcome=RETURN)
            return RETURN
    # 4. Otherwise:
    else:
        # 4.1 If c is U+005B ([), then set insideBrackets to true.
        if p.c == "[":
            p.inside_brackets = True
            run.step("4.1")
        # 4.2 If c is U+005D (]), then set insideBrackets to false.
        if p.c == "]":
            p.inside_brackets = False
            run.step("4.2")
        # 4.3 Append c to buffer.
        p.buffer += p.c
        run.step("4.3")
    return None


def port_state(p: Parser, run: Run) -> str | None:
    url = p.url
    # 1. If c is an ASCII digit, append c to buffer.
    if p.c is not None and p.c in ASCII_DIGITS:
        p.buffer += p.c
        run.step("1")
    # 2. Otherwise, if one of the following is true: c is the EOF code point, U+002F (/),
    # U+003F (?), or U+0023 (#); url is special and c is U+005C (\); or state override is given,
    # then:
    elif (p.c in (None, "/", "?", "#") or (is_special(url) and p.c == "\\")
          or p.state_override is not None):
        # 2.1 If buffer is not the empty string:
        if p.buffer != "":
            # 2.1.1 Let port be the mathematical integer value that is represented by buffer in
            # radix-10 using ASCII digits for digits with values 0 through 9.
            port = int(p.buffer)
            # 2.1.2 If port is not a 16-bit unsigned integer, port-out-of-range validation error,
            # return failure.
            if port > 0xFFFF:
                run.step("2.1.2", errors=("port-out-of-range",), outcome=FAILURE)
                return FAILURE
            # 2.1.3 Set url's port to null, if port is url's scheme's default port; otherwise to
            # port.
            url.port = None if port == default_port(url.scheme) else port
            run.step("2.1.3", writes=True)
            # 2.1.4 Set buffer to the empty string.
            p.buffer = ""
            run.step("2.1.4")
            # 2.1.5 If state override is given, then return.
            if p.state_override is not None:
                run.step("2.1.5", outcome=RETURN)
                return RETURN
        # 2.2 If state override is given, then return failure.
        if p.state_override is not None:
            run.step("2.2", outcome=FAILURE)
            return FAILURE
        # 2.3 Set state to path start state and decrease pointer by 1.
        p.state = "path start state"
        p.pointer -= 1
        run.step("2.3", decides=True)
    # 3. Otherwise, port-invalid validation error, return failure.
    else:
        run.step("3", errors=("port-invalid",), outcome=FAILURE)
        return FAILURE
    return None


from .states_file_path import (  # noqa: E402  (the rest of the states, in their own module)
    file_host_state,
    file_slash_state,
    file_state,
    fragment_state,
    opaque_path_state,
    path_start_state,
    path_state,
    query_state,
)

STATES: dict[str, Callable[[Parser, Run], str | None]] = {
    "scheme start state": scheme_start_state,
    "scheme state": scheme_state,
    "no scheme state": no_scheme_state,
    "special relative or authority state": special_relative_or_authority_state,
    "path or authority state": path_or_authority_state,
    "relative state": relative_state,
    "relative slash state": relative_slash_state,
    "special authority slashes state": special_authority_slashes_state,
    "special authority ignore slashes state": special_authority_ignore_slashes_state,
    "authority state": authority_state,
    "host state": host_state,
    "hostname state": host_state,
    "port state": port_state,
    "file state": file_state,
    "file slash state": file_slash_state,
    "file host state": file_host_state,
    "path start state": path_start_state,
    "path state": path_state,
    "opaque path state": opaque_path_state,
    "query state": query_state,
    "fragment state": fragment_state,
}

def basic_url_parse(rec: Recorder, depth: int, input: str, base: URLRecord | None = None,
                    url: URLRecord | None = None,
                    state_override: str | None = None) -> URLRecord | str | None:
    """The basic URL parser: the URL (no state override), None (returned with a state override),
    or "failure". Records its ran steps into ``rec``."""
    alg = "basic URL parser"
    # 1. If url is not given:
    if url is None:
        # 1.1 Set url to a new URL.
        url = URLRecord()
        # 1.2 If input contains any leading or trailing C0 control or space, invalid-URL-unit
        # validation error.
        if input and (input[0] in C0_OR_SPACE or input[-1] in C0_OR_SPACE):
            rec.single(depth, alg, "1.2", errors=("invalid-URL-unit",))
            # 1.3 Remove any leading and trailing C0 control or space from input.
            input = input.strip("".join(sorted(C0_OR_SPACE)))
            rec.single(depth, alg, "1.3")
    # 2. If input contains any ASCII tab or newline, invalid-URL-unit validation error.
    if any(c in TAB_OR_NEWLINE for c in input):
        rec.single(depth, alg, "2", errors=("invalid-URL-unit",))
        # 3. Remove all ASCII tab or newline from input.
        input = "".join(c for c in input if c not in TAB_OR_NEWLINE)
        rec.single(depth, alg, "3")
    # 4. Let state be state override if given, or scheme start state otherwise.
    # 5. Set encoding to the result of getting an output encoding from encoding (UTF-8 here).
    # 6.-8. buffer, atSignSeen, insideBrackets, passwordTokenSeen, pointer.
    p = Parser(rec, depth, input, base, url, state_override)
    # 9. Keep running the following state machine by switching on state. If after a run pointer
    # points to the EOF code point, go to the next step. Otherwise, increase pointer by 1 and
    # continue with the state machine.
    while True:
        run = rec.open(depth, p.state, url)
        result = STATES[p.state](p, run)
        run.close()
        if result == FAILURE:
            return FAILURE
        if result == RETURN:
            return None
        if p.pointer >= len(p.input):
            break
        p.pointer += 1
    # 10. Return url. (Not listed: the contract names no event for it; see the module's notes.)
    return url if state_override is None else None


def parse(input: str, base: str | None = None) -> tuple[URLRecord | None, list[Ran]]:
    """Parse ``input`` against ``base`` (parsed first, unrecorded; a base that fails gives
    (None, [])). Returns the URL or None for failure, and the ran steps."""
    base_url: URLRecord | None = None
    if base is not None:
        b = basic_url_parse(Recorder(), 0, base)
        if not isinstance(b, URLRecord):
            return None, []
        base_url = b
    rec = Recorder()
    result = basic_url_parse(rec, 0, input, base_url)
    return (result if isinstance(result, URLRecord) else None), rec.entries
