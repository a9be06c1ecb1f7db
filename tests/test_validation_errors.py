"""Every validation error of the spec's table, by name, with the index where it fired."""

from __future__ import annotations

import pytest

from urlcalc.standard.errors import ERROR_TYPES, ValidationError
from urlcalc.standard.parser import ParseFailure, api_url_parse

# (input, base, expected error name, expected index in the input, expected failure)
# The inputs are the spec's own examples from the validation error table where it gives one.
CASES = [
    ("https://exa%23mple.org", None, "domain-to-ASCII", 8, True),
    ("https://exam%70le.org", None, "domain-percent-encoded", 8, False),
    ("foo://exa[mple.org", None, "host-invalid-code-point", 9, True),
    ("https://127.0.0.1./", None, "IPv4-empty-part", 8, False),
    ("https://1.2.3/", None, "IPv4-too-few-parts", 8, False),
    ("https://1.2.3.4.5/", None, "IPv4-too-many-parts", 8, True),
    ("https://test.42", None, "IPv4-non-numeric-part", 8, True),
    ("https://127.0.0x0.1", None, "IPv4-non-decimal-part", 8, False),
    ("https://255.255.4000.1", None, "IPv4-out-of-range-part", 8, True),
    ("https://[::1", None, "IPv6-unclosed", 8, True),
    ("https://[:1]", None, "IPv6-invalid-compression", 9, True),
    ("https://[1:2:3:4:5:6:7:8:9]", None, "IPv6-too-many-pieces", 25, True),
    ("https://[1::1::1]", None, "IPv6-multiple-compression", 14, True),
    ("https://[1:2:3!:4]", None, "IPv6-invalid-code-point", 14, True),
    ("https://[1:2:3:]", None, "IPv6-invalid-code-point", 15, True),
    ("https://[1:2:3]", None, "IPv6-too-few-pieces", 14, True),
    # the piece "01" starts at index 11 ("https://[" is 9 code points, then "::")
    ("https://[::01]", None, "IPv6-piece-leading-zero", 11, False),
    ("http://[::01]/", None, "IPv6-piece-leading-zero", 10, False),
    ("http://[1:01:2::]/", None, "IPv6-piece-leading-zero", 10, False),
    ("https://[1:1:1:1:1:1:1:127.0.0.1]", None, "IPv4-in-IPv6-too-many-pieces", 23, True),
    ("https://[ffff::.0.0.1]", None, "IPv4-in-IPv6-invalid-code-point", 15, True),
    ("https://[ffff::127.0.xyz.1]", None, "IPv4-in-IPv6-invalid-code-point", 21, True),
    ("https://[ffff::127.0xyz]", None, "IPv4-in-IPv6-invalid-code-point", 20, True),
    ("https://[ffff::127.00.0.1]", None, "IPv4-in-IPv6-invalid-code-point", 20, True),
    ("https://[ffff::127.0.0.1.2]", None, "IPv4-in-IPv6-invalid-code-point", 24, True),
    ("https://[ffff::127.0.0.4000]", None, "IPv4-in-IPv6-out-of-range-part", 25, True),
    ("https://[ffff::127.0.0]", None, "IPv4-in-IPv6-too-few-parts", 22, True),
    ("https://example.org/>", None, "invalid-URL-unit", 20, False),
    (" https://example.org ", None, "invalid-URL-unit", 0, False),
    ("ht\ntps://example.org", None, "invalid-URL-unit", 2, False),
    ("https://example.org/%s", None, "invalid-URL-unit", 20, False),
    ("file:c:/my-secret-folder", None, "special-scheme-missing-following-solidus", 4, False),
    ("https:example.org", None, "special-scheme-missing-following-solidus", 6, False),
    ("https:foo.html", "https://example.org/", "special-scheme-missing-following-solidus", 6,
     False),
    ("\U0001f4a9", None, "missing-scheme-non-relative-URL", 0, True),
    ("\U0001f4a9", "mailto:user@example.org", "missing-scheme-non-relative-URL", 0, True),
    ("https://example.org\\path\\to\\file", None, "invalid-reverse-solidus", 19, False),
    ("https://user@example.org", None, "invalid-credentials", 12, False),
    ("ssh://user@example.org", None, "invalid-credentials", 10, False),
    ("https://#fragment", None, "host-missing", 8, True),
    ("https://:443", None, "host-missing", 8, True),
    ("https://user:pass@", None, "host-missing", 18, True),
    ("https://example.org:70000", None, "port-out-of-range", 25, True),
    ("https://example.org:7z", None, "port-invalid", 21, True),
    # The table's example ("/c:/path/to/file" against "file:///c:/") goes through the file
    # slash state, which raises no error; the file state's step 4.4 fires for this input:
    ("c|/path/to/file", "file:///c:/", "file-invalid-Windows-drive-letter", 0, False),
    ("file://c:", None, "file-invalid-Windows-drive-letter-host", 7, False),
]


def _run(input: str, base: str | None) -> tuple[bool, list[ValidationError]]:
    errors: list[ValidationError] = []
    result = api_url_parse(input, base, errors=errors)
    return isinstance(result, ParseFailure), errors


def test_every_error_of_the_table_is_covered() -> None:
    assert {c[2] for c in CASES} == set(ERROR_TYPES)


@pytest.mark.parametrize(("input", "base", "name", "index", "failure"), CASES)
def test_error_with_position(input: str, base: str | None, name: str, index: int,
                             failure: bool) -> None:
    failed, errors = _run(input, base)
    assert failed == failure
    fired = [(e.name, e.index) for e in errors]
    assert (name, index) in fired, fired


def test_failure_carries_the_error_that_caused_it() -> None:
    result = api_url_parse("https://example.org:7z")
    assert isinstance(result, ParseFailure)
    assert result.error is not None
    assert (result.error.name, result.error.index, result.error.state) == (
        "port-invalid", 21, "port state")


def test_indexes_refer_to_the_original_input() -> None:
    # two leading spaces and a tab are removed before the state machine runs
    _, errors = _run("  ht\ttps://example.org/a b", None)
    assert [(e.name, e.index) for e in errors] == [
        ("invalid-URL-unit", 0), ("invalid-URL-unit", 4), ("invalid-URL-unit", 24)]


def test_error_json_has_spec_description_and_link() -> None:
    _, errors = _run("https://example.org:7z", None)
    j = errors[-1].to_json()
    assert j["url"] == "https://url.spec.whatwg.org/#port-invalid"
    assert j["description"] == "The input's port is invalid."
    assert ERROR_TYPES["domain-to-ASCII"].url.endswith("#validation-error-domain-to-ascii")


@pytest.mark.parametrize("input", ["http://a<b/", "http://a<b:80/", "http://a<b?x"])
def test_host_errors_index_into_the_input_whatever_ends_the_host(input: str) -> None:
    # Counted by hand: "http://" is indices 0-6, the host starts at 7 (where the host's
    # domain-to-ASCII error points) and its forbidden "<" is at 8 (where the failure points),
    # whether a "/", a ":" (host state, step 2) or a "?" (step 3) ends the host.
    errors: list[ValidationError] = []
    failure = api_url_parse(input, None, errors=errors)
    assert isinstance(failure, ParseFailure) and failure.index == 8
    assert [(e.name, e.index) for e in errors] == [("domain-to-ASCII", 7)]
