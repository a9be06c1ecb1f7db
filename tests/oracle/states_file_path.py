"""The oracle's file, path, query and fragment states (url.bs), each branch under the spec's
sentence; the other states and the driver are tests/oracle/spec_literal.py, which imports this
module (import spec_literal, not this one, first)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import spec_literal as sl
from .host_literal import (
    in_c0_control_set,
    in_fragment_set,
    in_path_set,
    in_query_set,
    in_special_query_set,
    utf8_percent_encode,
    utf8_percent_encode_string,
)

if TYPE_CHECKING:
    from .record import Run
    from .spec_literal import Parser


def file_state(p: Parser, run: Run) -> str | None:
    url, base = p.url, p.base
    # 1. Set url's scheme to "file".
    url.scheme = "file"
    run.step("1", writes=True)
    # 2. Set url's host to the empty string.
    url.host = ""
    run.step("2", writes=True)
    # 3. If c is U+002F (/) or U+005C (\), then:
    if p.c in ("/", "\\"):
        # 3.1 If c is U+005C (\), invalid-reverse-solidus validation error.
        if p.c == "\\":
            run.step("3.1", errors=("invalid-reverse-solidus",))
        # 3.2 Set state to file slash state.
        p.state = "file slash state"
        run.step("3.2", decides=True)
    # 4. Otherwise, if base is non-null and base's scheme is "file":
    elif base is not None and base.scheme == "file":
        # 4.1 Set url's host to base's host, url's path to a clone of base's path, and url's
        # query to base's query.
        url.host = base.host
        url.path = list(base.path)
        url.query = base.query
        run.step("4.1", writes=True)
        # 4.2 If c is U+003F (?), then set url's query to the empty string and state to query
        # state.
        if p.c == "?":
            url.query = ""
            p.state = "query state"
            run.step("4.2", writes=True, decides=True)
        # 4.3 Otherwise, if c is U+0023 (#), set url's fragment to the empty string and state to
        # fragment state.
        elif p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
            run.step("4.3", writes=True, decides=True)
        # 4.4 Otherwise, if c is not the EOF code point:
        elif p.c is not None:
            # 4.4.1 Set url's query to null.
            url.query = None
            run.step("4.4.1", writes=True)
            # 4.4.2 If the code point substring from pointer to the end of input does not start
            # with a Windows drive letter, then shorten url's path.
            if not sl.starts_with_windows_drive_letter(p.input[p.pointer:]):
                p.shorten()
                run.step("4.4.2", calls=sl.SHORTEN)
            # 4.4.3 Otherwise:
            else:
                # 4.4.3.1 File-invalid-Windows-drive-letter validation error.
                run.step("4.4.3.1", errors=("file-invalid-Windows-drive-letter",))
                # 4.4.3.2 Set url's path to « ».
                url.path = []
                run.step("4.4.3.2", writes=True)
            # 4.4.4 Set state to path state and decrease pointer by 1.
            p.state = "path state"
            p.pointer -= 1
            run.step("4.4.4", decides=True)
    # 5. Otherwise, set state to path state, and decrease pointer by 1.
    else:
        p.state = "path state"
        p.pointer -= 1
        run.step("5", decides=True)
    return None


def file_slash_state(p: Parser, run: Run) -> str | None:
    url, base = p.url, p.base
    # 1. If c is U+002F (/) or U+005C (\), then:
    if p.c in ("/", "\\"):
        # 1.1 If c is U+005C (\), invalid-reverse-solidus validation error.
        if p.c == "\\":
            run.step("1.1", errors=("invalid-reverse-solidus",))
        # 1.2 Set state to file host state.
        p.state = "file host state"
        run.step("1.2", decides=True)
    # 2. Otherwise:
    else:
        # 2.1 If base is non-null and base's scheme is "file", then:
        if base is not None and base.scheme == "file":
            # 2.1.1 Set url's host to base's host.
            url.host = base.host
            run.step("2.1.1", writes=True)
            # 2.1.2 If the code point substring from pointer to the end of input does not start
            # with a Windows drive letter and base's path[0] is a normalized Windows drive
            # letter, then append base's path[0] to url's path.
            if (not sl.starts_with_windows_drive_letter(p.input[p.pointer:])
                    and isinstance(base.path, list) and base.path
                    and sl.is_normalized_windows_drive_letter(base.path[0])):
                assert isinstance(url.path, list)
                url.path.append(base.path[0])
                run.step("2.1.2", writes=True)
        # 2.2 Set state to path state, and decrease pointer by 1.
        p.state = "path state"
        p.pointer -= 1
        run.step("2.2", decides=True)
    return None


def file_host_state(p: Parser, run: Run) -> str | None:
    url = p.url
    # 1. If c is the EOF code point, U+002F (/), U+005C (\), U+003F (?), or U+0023 (#), then
    # decrease pointer by 1 and then:
    if p.c in (None, "/", "\\", "?", "#"):
        p.pointer -= 1
        # 1.1 If state override is not given and buffer is a Windows drive letter,
        # file-invalid-Windows-drive-letter-host validation error, set state to path state.
        if p.state_override is None and sl.is_windows_drive_letter(p.buffer):
            p.state = "path state"
            run.step("1.1", errors=("file-invalid-Windows-drive-letter-host",), decides=True)
        # 1.2 Otherwise, if buffer is the empty string, then:
        elif p.buffer == "":
            # 1.2.1 Set url's host to the empty string.
            url.host = ""
            run.step("1.2.1", writes=True)
            # 1.2.2 If state override is given, then return.
            if p.state_override is not None:
                run.step("1.2.2", outcome=sl.RETURN)
                return sl.RETURN
            # 1.2.3 Set state to path start state.
            p.state = "path start state"
            run.step("1.2.3", decides=True)
        # 1.3 Otherwise, run these steps:
        else:
            # 1.3.1 Let host be the result of host parsing buffer with url is not special.
            host = p.host_parse(p.buffer)
            run.step("1.3.1", calls=sl.HOST_PARSER)
            # 1.3.2 If host is failure, then return failure.
            if host is None:
                run.step("1.3.2", outcome=sl.FAILURE)
                return sl.FAILURE
            # 1.3.3 If host is "localhost", then set host to the empty string.
            if host == "localhost":
                host = ""
                run.step("1.3.3")
            # 1.3.4 Set url's host to host.
            url.host = host  # type: ignore[assignment]
            run.step("1.3.4", writes=True)
            # 1.3.5 If state override is given, then return.
            if p.state_override is not None:
                run.step("1.3.5", outcome=sl.RETURN)
                return sl.RETURN
            # 1.3.6 Set buffer to the empty string and state to path start state.
            p.buffer = ""
            p.state = "path start state"
            run.step("1.3.6", decides=True)
    # 2. Otherwise, append c to buffer.
    else:
        p.buffer += p.c
        run.step("2")
    return None


def path_start_state(p: Parser, run: Run) -> str | None:
    url = p.url
    # 1. If url is special, then:
    if sl.is_special(url):
        # 1.1 If c is U+005C (\), invalid-reverse-solidus validation error.
        if p.c == "\\":
            run.step("1.1", errors=("invalid-reverse-solidus",))
        # 1.2 Set state to path state.
        p.state = "path state"
        run.step("1.2", decides=True)
        # 1.3 If c is neither U+002F (/) nor U+005C (\), then decrease pointer by 1.
        if p.c not in ("/", "\\"):
            p.pointer -= 1
            run.step("1.3")
    # 2. Otherwise, if state override is not given and c is U+003F (?), set url's query to the
    # empty string and state to query state.
    elif p.state_override is None and p.c == "?":
        url.query = ""
        p.state = "query state"
        run.step("2", writes=True, decides=True)
    # 3. Otherwise, if state override is not given and c is U+0023 (#), set url's fragment to
    # the empty string and state to fragment state.
    elif p.state_override is None and p.c == "#":
        url.fragment = ""
        p.state = "fragment state"
        run.step("3", writes=True, decides=True)
    # 4. Otherwise, if c is not the EOF code point:
    elif p.c is not None:
        # 4.1 Set state to path state.
        p.state = "path state"
        run.step("4.1", decides=True)
        # 4.2 If c is not U+002F (/), then decrease pointer by 1.
        if p.c != "/":
            p.pointer -= 1
            run.step("4.2")
    # 5. Otherwise, if state override is given and url's host is null, append the empty string
    # to url's path.
    elif p.state_override is not None and url.host is None:
        assert isinstance(url.path, list)
        url.path.append("")
        run.step("5", writes=True)
    return None


def path_state(p: Parser, run: Run) -> str | None:
    url = p.url
    special = sl.is_special(url)
    slash = p.c == "/" or (special and p.c == "\\")
    # 1. If one of the following is true: c is the EOF code point or U+002F (/); url is special
    # and c is U+005C (\); state override is not given and c is U+003F (?) or U+0023 (#) then:
    if p.c is None or slash or (p.state_override is None and p.c in ("?", "#")):
        assert isinstance(url.path, list)
        # 1.1 If url is special and c is U+005C (\), invalid-reverse-solidus validation error.
        if special and p.c == "\\":
            run.step("1.1", errors=("invalid-reverse-solidus",))
        # 1.2 If buffer is a double-dot URL path segment, then:
        if sl.is_double_dot(p.buffer):
            # 1.2.1 Shorten url's path.
            p.shorten()
            run.step("1.2.1", calls=sl.SHORTEN)
            # 1.2.2 If neither c is U+002F (/), nor url is special and c is U+005C (\), append
            # the empty string to url's path.
            if not slash:
                url.path.append("")
                run.step("1.2.2", writes=True)
        # 1.3 Otherwise, if buffer is a single-dot URL path segment and if neither c is
        # U+002F (/), nor url is special and c is U+005C (\), append the empty string to url's
        # path.
        elif sl.is_single_dot(p.buffer) and not slash:
            url.path.append("")
            run.step("1.3", writes=True)
        # 1.4 Otherwise, if buffer is not a single-dot URL path segment, then:
        elif not sl.is_single_dot(p.buffer):
            # 1.4.1 If url's scheme is "file", url's path is empty, and buffer is a Windows drive
            # letter, then replace the second code point in buffer with U+003A (:).
            if url.scheme == "file" and not url.path and sl.is_windows_drive_letter(p.buffer):
                p.buffer = p.buffer[0] + ":"
                run.step("1.4.1")
            # 1.4.2 Append buffer to url's path.
            url.path.append(p.buffer)
            run.step("1.4.2", writes=True)
        # 1.5 Set buffer to the empty string.
        p.buffer = ""
        run.step("1.5")
        # 1.6 If c is U+003F (?), then set url's query to the empty string and state to query
        # state.
        if p.c == "?":
            url.query = ""
            p.state = "query state"
            run.step("1.6", writes=True, decides=True)
        # 1.7 If c is U+0023 (#), then set url's fragment to the empty string and state to
        # fragment state.
        if p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
            run.step("1.7", writes=True, decides=True)
    # 2. Otherwise, run these steps:
    else:
        # 2.1 If c is not a URL code point and not U+0025 (%), invalid-URL-unit validation error.
        if sl.not_url_unit(p.c):
            run.step("2.1", errors=("invalid-URL-unit",))
        # 2.2 If c is U+0025 (%) and remaining does not start with two ASCII hex digits,
        # invalid-URL-unit validation error.
        if sl.percent_invalid(p):
            run.step("2.2", errors=("invalid-URL-unit",))
        # 2.3 UTF-8 percent-encode c using the path percent-encode set and append the result to
        # buffer.
        assert p.c is not None
        p.buffer += utf8_percent_encode(p.c, in_path_set)
        run.step("2.3")
    return None


def opaque_path_state(p: Parser, run: Run) -> str | None:
    url = p.url
    assert isinstance(url.path, str)
    # 1. If c is U+003F (?), then set url's query to the empty string and state to query state.
    if p.c == "?":
        url.query = ""
        p.state = "query state"
        run.step("1", writes=True, decides=True)
    # 2. Otherwise, if c is U+0023 (#), then set url's fragment to the empty string and state to
    # fragment state.
    elif p.c == "#":
        url.fragment = ""
        p.state = "fragment state"
        run.step("2", writes=True, decides=True)
    # 3. Otherwise, if c is U+0020 SPACE:
    elif p.c == " ":
        # 3.1 Invalid-URL-unit validation error.
        run.step("3.1", errors=("invalid-URL-unit",))
        # 3.2 If remaining starts with U+003F (?) or U+0023 (#), then append "%20" to url's path.
        if p.remaining[:1] in ("?", "#") and p.remaining:
            url.path += "%20"
            run.step("3.2", writes=True)
        # 3.3 Otherwise, append U+0020 SPACE to url's path.
        else:
            url.path += " "
            run.step("3.3", writes=True)
    # 4. Otherwise, if c is not the EOF code point:
    elif p.c is not None:
        # 4.1 If c is not a URL code point and not U+0025 (%), invalid-URL-unit validation error.
        if sl.not_url_unit(p.c):
            run.step("4.1", errors=("invalid-URL-unit",))
        # 4.2 If c is U+0025 (%) and remaining does not start with two ASCII hex digits,
        # invalid-URL-unit validation error.
        if sl.percent_invalid(p):
            run.step("4.2", errors=("invalid-URL-unit",))
        # 4.3 UTF-8 percent-encode c using the C0 control percent-encode set and append the
        # result to url's path.
        url.path += utf8_percent_encode(p.c, in_c0_control_set)
        run.step("4.3", writes=True)
    return None


def query_state(p: Parser, run: Run) -> str | None:
    url = p.url
    # 1. If encoding is not UTF-8 and ... then set encoding to UTF-8. (The oracle's encoding is
    # always UTF-8: this step never applies.)
    # 2. If one of the following is true: state override is not given and c is U+0023 (#); c is
    # the EOF code point then:
    if (p.state_override is None and p.c == "#") or p.c is None:
        # 2.1 Let queryPercentEncodeSet be the special-query percent-encode set if url is
        # special; otherwise the query percent-encode set.
        query_set = in_special_query_set if sl.is_special(url) else in_query_set
        # 2.2 Percent-encode after encoding, with encoding, buffer, and queryPercentEncodeSet,
        # and append the result to url's query.
        url.query = (url.query or "") + utf8_percent_encode_string(p.buffer, query_set)
        run.step("2.2", writes=True)
        # 2.3 Set buffer to the empty string.
        p.buffer = ""
        run.step("2.3")
        # 2.4 If c is U+0023 (#), then set url's fragment to the empty string and state to
        # fragment state.
        if p.c == "#":
            url.fragment = ""
            p.state = "fragment state"
            run.step("2.4", writes=True, decides=True)
    # 3. Otherwise, if c is not the EOF code point:
    elif p.c is not None:
        # 3.1 If c is not a URL code point and not U+0025 (%), invalid-URL-unit validation error.
        if sl.not_url_unit(p.c):
            run.step("3.1", errors=("invalid-URL-unit",))
        # 3.2 If c is U+0025 (%) and remaining does not start with two ASCII hex digits,
        # invalid-URL-unit validation error.
        if sl.percent_invalid(p):
            run.step("3.2", errors=("invalid-URL-unit",))
        # 3.3 Append c to buffer.
        p.buffer += p.c
        run.step("3.3")
    return None


def fragment_state(p: Parser, run: Run) -> str | None:
    url = p.url
    # 1. If c is not the EOF code point, then:
    if p.c is not None:
        # 1.1 If c is not a URL code point and not U+0025 (%), invalid-URL-unit validation error.
        if sl.not_url_unit(p.c):
            run.step("1.1", errors=("invalid-URL-unit",))
        # 1.2 If c is U+0025 (%) and remaining does not start with two ASCII hex digits,
        # invalid-URL-unit validation error.
        if sl.percent_invalid(p):
            run.step("1.2", errors=("invalid-URL-unit",))
        # 1.3 UTF-8 percent-encode c using the fragment percent-encode set and append the
        # result to url's fragment.
        url.fragment = (url.fragment or "") + utf8_percent_encode(p.c, in_fragment_set)
        run.step("1.3", writes=True)
    return None
