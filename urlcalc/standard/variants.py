"""The URL Standard as it was: each normative change since 2015 that the parser can undo.

The parser is the standard as it is today. A *variant* is one normative change to url.bs (its
commit, and the steps or definitions it touched, in today's numbering); undoing it makes the
parser read an input as the standard did without that change. "The standard as of a date" is
today's standard with every change after that date undone (urlcalc.history, which knows the
commits' dates and titles: ``urlcalc/history/data/commits.json`` is the one source of those).

One table (``VARIANTS``), and one check where the behaviour forks: ``undone(NAME)``, written
beside the branch it changes, naming its variant. With nothing undone (the default) each check
is a set lookup on an empty set, and the untraced fast paths run as before; while anything is
undone (``undoing``), the parser's fast path is off, so every fork is reached.

The undone set is per context (a ``contextvars.ContextVar``): a server thread reading an input
as of 2019 does not change what another thread reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple


class Variant(NamedTuple):
    """A normative change the parser can undo: ``name`` (urlcalc's short id), ``commit`` (the
    url.bs commit that made it), ``touched`` (where today's text forks: "algorithm, step N" or
    a definition) and ``before`` (what the standard said before it, in one line)."""

    name: str
    commit: str
    touched: tuple[str, ...]
    before: str


#: "Forbid <, >, and ^ in hosts" (2020): U+003C (<), U+003E (>) and U+005E (^) became forbidden
#: host code points (and so forbidden domain code points).
HOSTS_FORBID_LT_GT_CARET = "hosts-forbid-lt-gt-caret"
#: "Set IDNA's CheckHyphens to the value of beStrict" (2024).
CHECK_HYPHENS_BE_STRICT = "check-hyphens-be-strict"
#: "Add U+005E (^) to the path percent-encode set" (2025).
PATH_PERCENT_ENCODE_CARET = "path-percent-encode-caret"

# --- hosts (constants) ---
#: "Define an IPv4 parser that is compatible with Chrome" (2015).
IPV4_PARSER = "ipv4-parser"
#: "Off-by-one error in IPv4 parser" (2015): 256 ** (5 - n), not 256 ** (4 - n).
IPV4_LAST_NUMBER_RANGE = "ipv4-last-number-range"
#: "Handle \"0\" as input in the IPv4 number parser" (2015).
IPV4_NUMBER_ZERO = "ipv4-number-zero"
#: "Apparently 0x is an IPv4 number" (2015).
IPV4_NUMBER_0X = "ipv4-number-0x"
#: "If IPv4 parser finds empty labels, return input as domain" (2015).
IPV4_EMPTY_PART_IS_DOMAIN = "ipv4-empty-part-is-domain"
#: "Report all IPv4 syntax violations" (2015).
IPV4_SYNTAX_VIOLATIONS = "ipv4-syntax-violations"
#: "Disallow invalid IPv4 in IPv6 parser" (2017).
IPV4_IN_IPV6_NUMBERS_SEEN = "ipv4-in-ipv6-numbers-seen"
#: "Allow % and IPv6 addresses in non-special URL hosts" (2017).
OPAQUE_HOST_PERCENT_AND_IPV6 = "opaque-host-percent-and-ipv6"
#: "Make IPv6 addresses in special URLs valid" (2017): [IPv6] a valid opaque-host string.
VALID_OPAQUE_HOST_IPV6 = "valid-opaque-host-ipv6"
#: "Use Nontransitional_Processing for IDNA ToASCII" (2017).
IDNA_NONTRANSITIONAL = "idna-nontransitional"
#: "IDNA: use proposed UTS46 flags to avoid breaking YouTube" (2017): CheckHyphens false.
IDNA_CHECK_HYPHENS_FALSE = "idna-check-hyphens-false"
#: "Fix validity for opaque hosts" (2020): the opaque-host parser's invalid-URL-unit errors.
OPAQUE_HOST_VALIDITY = "opaque-host-validity"
#: "Verify domain is not empty after Unicode ToASCII" (2020).
DOMAIN_EMPTY_AFTER_TO_ASCII = "domain-empty-after-to-ascii"
#: "Forbid U+007C (|) in hosts" (2021).
HOSTS_FORBID_PIPE = "hosts-forbid-pipe"
#: "Reject non-IPv4 domains that end in numbers" (2021).
DOMAIN_ENDING_IN_NUMBER_IS_IPV4 = "domain-ending-in-number-is-ipv4"
#: "Correct IPv4 number parser" (2021): "0x" alone returns (0, true), not 0.
IPV4_NUMBER_EMPTY_IS_NON_DECIMAL = "ipv4-number-empty-is-non-decimal"
#: "Correct valid IPv4-address string" (2021): shortest strings, no leading zeros.
VALID_IPV4_SHORTEST = "valid-ipv4-shortest"
#: "Forbid more code points in (non-opaque) domains" (2022): C0 controls and U+007F.
FORBIDDEN_DOMAIN_CODE_POINT = "forbidden-domain-code-point"
#: "Redo validation errors in the IPv4 parser" (2023): each error where it is found.
IPV4_ERRORS_WHERE_FOUND = "ipv4-errors-where-found"
#: "Add Unicode ToASCII fallback for ASCII domains" (2026).
ASCII_DOMAIN_TO_ASCII_FALLBACK = "ascii-domain-to-ascii-fallback"
#: "Close gap between URL writing and parser sections" (2026): the domain parser's errors.
DOMAIN_STRICT_TO_ASCII_ERROR = "domain-strict-to-ascii-error"
#: "Valid domain needs to account for ending with a number" (2026).
IPV4_TOO_FEW_PARTS = "ipv4-too-few-parts"
#: "Define valid IPv6-address string inline" (2026): no leading zeros in a piece.
IPV6_PIECE_LEADING_ZERO = "ipv6-piece-leading-zero"

# --- the basic URL parser's states (constants) ---
#: "Copy username/password for relative URLs" (2015).
RELATIVE_COPIES_CREDENTIALS = "relative-copies-credentials"
#: "Do not encode ` in query. Fixes #17." (2015).
QUERY_BACKTICK_KEPT = "query-backtick-kept"
#: "Make it non-conforming to place a username and/or password in a URL" (2015).
CREDENTIALS_NON_CONFORMING = "credentials-non-conforming"
#: "Support fragments as long as base URL is non-null" (2015).
FRAGMENT_AGAINST_OPAQUE_BASE = "fragment-against-opaque-base"
#: "Trip C0 controls and space rather than just ASCII whitespace from parser input" (2015).
TRIM_C0_CONTROL_OR_SPACE = "trim-c0-control-or-space"
#: "Once you're a special URL, you cannot become non-special. And vice versa." (2015).
SCHEME_OVERRIDE_SPECIAL_STAYS = "scheme-override-special-stays"
#: "Percent encode fragments too" (2016).
FRAGMENT_PERCENT_ENCODED = "fragment-percent-encoded"
#: "Make file:/// and file://LOCALHOST/ parse identically" (2015).
FILE_LOCALHOST_EMPTY = "file-localhost-empty"
#: "Make port either null or a 16-bit integer" (2015).
PORT_16_BIT = "port-16-bit"
#: "Fix #77: always decode \"%2e\" in a URL's path" (2016), reverted by the next.
PATH_DECODE_DOT = "path-decode-dot"
#: "Stop decoding all %2e's in paths" (2016).
PATH_STOP_DECODING_DOT = "path-stop-decoding-dot"
#: "Return failure in state override scheme parsing" (2017).
SCHEME_OVERRIDE_FAILURE = "scheme-override-failure"
#: "File state did not correctly deal with lack of base URL" (2017): with no file base, EOF, "?"
#: and "#" went on to the path state.
FILE_STATE_WITHOUT_BASE = "file-state-without-base"
#: "Cleanup API for file and non-special URLs" (2017): the file host state sets the empty host,
#: and the host setters of a file URL go through it.
FILE_API_CLEANUP = "file-api-cleanup"
#: "Restrict protocol around \"file\"" (2017).
SCHEME_OVERRIDE_FILE_RESTRICTED = "scheme-override-file-restricted"
#: "URL: trim leading slashes of file URL paths" (2017), removed again by the 2020 change below.
FILE_PATH_TRIM_LEADING_EMPTY = "file-path-trim-leading-empty"
#: "Fix Windows drive letter handling in the file state" (2017).
FILE_DRIVE_LETTER_AT_END = "file-drive-letter-at-end"
#: "Normalize port after updating scheme" (2017).
SCHEME_OVERRIDE_PORT_NORMALIZED = "scheme-override-port-normalized"
#: "Percent-encode additional characters in \"fragment state\"" (2017).
FRAGMENT_PERCENT_ENCODE_SET = "fragment-percent-encode-set"
#: "Fix Windows drive letter handling in the file slash state" (2017).
FILE_SLASH_DRIVE_LETTER = "file-slash-drive-letter"
#: "Percent-encode ' in queries of URLs with special schemes" (2018).
SPECIAL_QUERY_APOSTROPHE = "special-query-apostrophe"
#: "Remove gopher from list of special schemes" (2019).
GOPHER_NOT_SPECIAL = "gopher-not-special"
#: "Remove U+0000 case in the fragment state" (2020).
FRAGMENT_NUL_ENCODED = "fragment-nul-encoded"
#: "Changes to file URL path normalization" (2020): a file URL's host is kept beside a drive
#: letter, and leading empty path segments are no longer removed.
FILE_PATH_NORMALIZATION = "file-path-normalization"
#: "Fix file URL reparse issue" (2020): the file state sets the empty host (never null).
FILE_HOST_NEVER_NULL = "file-host-never-null"
#: "Refactor query state to operate on a buffer" (2020): the query is encoded at once.
QUERY_BUFFERED = "query-buffered"
#: "Make override hostname state return early if a port is given" (2021).
HOSTNAME_OVERRIDE_RETURNS_BEFORE_PORT = "hostname-override-returns-before-port"
#: "Prevent the pathname setter from erasing the path of path-only URLs" (2021).
PATH_START_OVERRIDE_EMPTY_SEGMENT = "path-start-override-empty-segment"
#: "Change validation error when a URL has credentials but no host" (2023).
CREDENTIALS_NO_HOST_HOST_MISSING = "credentials-no-host-host-missing"
#: "Ensure opaque paths always roundtrip" (2025): a space before "?" or "#" becomes %20.
OPAQUE_PATH_SPACE_ROUNDTRIP = "opaque-path-space-roundtrip"
#: "Report all hostname state failures for URLPattern" (2025).
HOSTNAME_OVERRIDE_FAILURES = "hostname-override-failures"
#: "Make port state override return failure more for URLPattern" (2025).
PORT_OVERRIDE_FAILURE = "port-override-failure"
#: "Correct a couple minor issues" (2026): the opaque path state's U+003F (#) read U+0023 (#).
OPAQUE_PATH_SPACE_BEFORE_HASH = "opaque-path-space-before-hash"
#: "Use the username and password encode sets within authority state" (2015).
AUTHORITY_USERNAME_PASSWORD_SETS = "authority-username-password-sets"
#: "Support relative URLs for unknown schemes" (2015): before, a non-special URL was scheme data.
RELATIVE_URLS_UNKNOWN_SCHEMES = "relative-urls-unknown-schemes"
#: "Encode more code points for usernames and passwords" (2015): the userinfo encode set.
USERINFO_ENCODE_SET = "userinfo-encode-set"
#: "No need for null passwords" (2017).
PASSWORD_NOT_NULLABLE = "password-not-nullable"
#: "Fix #101: always strip U+0009, U+000A, and U+000D" (2016): before, state by state.
TAB_NEWLINE_STRIPPED = "tab-newline-stripped"
#: "Change path parsing for non-special URLs" (2017): a non-special URL's path may be empty.
NON_SPECIAL_PATH_PARSING = "non-special-path-parsing"
#: "Change query state slightly to better deal with non-UTF-8 encodings" (2018): &#N; encoded.
QUERY_NCR_PERCENT_ENCODED = "query-ncr-percent-encoded"

# --- encode sets, serializers, setters, urlencoded, origin (constants) ---
#: "Encode { and } in username/password/path" (2015).
ENCODE_BRACES = "encode-braces"
#: "Introduce path-relative scheme-less URLs" (2015): URL writing, against a file base.
PATH_RELATIVE_SCHEME_LESS = "path-relative-scheme-less"
#: "Align application/x-www-form-urlencoded serializer with the needs of HTML" (2016).
URLENCODED_SERIALIZER_TUPLES = "urlencoded-serializer-tuples"
#: "Fix logic errors in application/x-www-form-urlencoded" (2016).
URLENCODED_SERIALIZER_LOGIC = "urlencoded-serializer-logic"
#: "Align with origin changes in HTML" (2016): the origin tuple holds the URL's port.
ORIGIN_TUPLE_URL_PORT = "origin-tuple-url-port"
#: "Allow URLs without fragments" (2016): URL writing.
URL_WITHOUT_FRAGMENT = "url-without-fragment"
#: "Parse application/x-www-form-urlencoded using UTF-8 only" (2017): no BOM is removed.
URLENCODED_PARSE_UTF8_ONLY = "urlencoded-parse-utf8-only"
#: "Ensure the API roundtrips for opaque paths" (2023): strip an opaque path's trailing spaces.
API_OPAQUE_PATH_STRIP = "api-opaque-path-strip"
#: "Remove gopher case from origin algorithm" (2019): gopher: URLs got a tuple origin before.
GOPHER_ORIGIN_REMOVED = "gopher-origin-removed"
#: "Make URL's origin return solely ASCII code points" (2017).
ORIGIN_ASCII_SERIALIZATION = "origin-ascii-serialization"
#: "Remove javascript URL special case from the API" (2017): the hash setter.
HASH_SETTER_JAVASCRIPT = "hash-setter-javascript"
#: "Change URL's port attribute's setter" (2016): the empty string sets the port to null.
PORT_SETTER_EMPTY_STRING = "port-setter-empty-string"
#: "Stop after setting an url's query to null" (2016): the search setter.
SEARCH_SETTER_EMPTY_RETURNS = "search-setter-empty-returns"
#: "Remove trailing ? when updating URLSearchParams" (2017).
SEARCH_PARAMS_UPDATE_NULL_QUERY = "search-params-update-null-query"
#: "Define upper limit of a URL-port string" (2020): URL writing.
URL_PORT_STRING_LIMIT = "url-port-string-limit"
#: "Non-special URLs were not idempotent" (2020): the URL serializer's "/.".
SERIALIZER_NULL_HOST_DOT_SEGMENT = "serializer-null-host-dot-segment"
#: "Fix percent-encoding for ISO-2022-JP" (2020): one encoder for the whole string.
PERCENT_ENCODE_ONE_ENCODER = "percent-encode-one-encoder"
#: "Fix handling of spaceAsPlus in percent-encode after encoding" (2021).
SPACE_AS_PLUS_CONTINUE = "space-as-plus-continue"
#: "Return opaque origin for blob: URL containing inner non-http(s): URL" (2023).
BLOB_ORIGIN_HTTP_ONLY = "blob-origin-http-only"
#: "Path segments can be empty" (2026): URL writing.
PATH_SEGMENTS_CAN_BE_EMPTY = "path-segments-can-be-empty"
#: "Make relative-URL-with-fragment string account for opaque-path base URLs" (2026).
RELATIVE_WITH_FRAGMENT_OPAQUE_BASE = "relative-with-fragment-opaque-base"
#: "Close more gaps between URL writing and parser sections" (2026).
PATH_ABSOLUTE_NON_AUTHORITY = "path-absolute-non-authority"

# (The table is kept in three blocks, oldest first within each: the host's algorithms, the
# basic URL parser's states, and encode sets, serializers, setters, urlencoded and origin.)
VARIANTS: tuple[Variant, ...] = (
    # --- hosts: host, IPv4, IPv6, opaque-host and domain parsers, IDNA ---
    Variant(IPV4_PARSER, "904374077513ac73d4e8ed2a8a76a460bb369735",
            ("host parser, step 8",),
            "no IPv4 parser: a host of numbers was a domain like any other (0x7f.0.0.1 stayed "
            "as it was)"),
    Variant(IPV4_LAST_NUMBER_RANGE, "94e9e60b968a73640a622a0b643879ed17a57b41",
            ("IPv4 parser, step 9",),
            "the last number failed at 256^(4 - n) and more: 1.2.3.4 was a failure"),
    Variant(IPV4_NUMBER_ZERO, "884869260417fbdc0738c286d8e8d9cdec026b47",
            ("IPv4 number parser, step 5",),
            "\"at least one code point\" starting with 0 was octal: \"0\" left nothing and "
            "failed to parse"),
    Variant(IPV4_NUMBER_0X, "1eab2abb3806158fc7a550ac5b7deb2d6fff5602",
            ("IPv4 number parser, step 6",),
            "no \"If input is the empty string, return zero\": \"0x\" was not a number"),
    Variant(IPV4_EMPTY_PART_IS_DOMAIN, "990295a481ba5b9ababf2e0c37dcd4b1d577e41a",
            ("IPv4 parser (2015-2021), \"If part is the empty string, return input\"",),
            "an empty part was the number 0 (with 2021's change undone too): 0..0x300 was "
            "0.0.3.0"),
    Variant(IPV4_SYNTAX_VIOLATIONS, "c1b8970133eb54aa86feaa407dc2db2fdedc8096",
            ("IPv4 parser, step 2.1", "IPv4 parser, step 6.3", "IPv4 parser, step 7"),
            "an empty last part, a hex or octal part and a part over 255 (not the last) were no "
            "syntax violation"),
    Variant(IPV4_IN_IPV6_NUMBERS_SEEN, "a7ae1b846b91d564229faeaafdd28cb7451faa1d",
            ("IPv6 parser, step 6.5.5", "IPv6 parser, step 6.5.6"),
            "the IPv6 parser's IPv4 part counted dots, not numbers: it did not check that four "
            "numbers were seen ([::1.2.] parsed)"),
    Variant(OPAQUE_HOST_PERCENT_AND_IPV6, "cdbcce62045b1614695b00cc0427f6fb0fc7ed03",
            ("host parser, step 1", "opaque-host parser, step 1"),
            "a non-special URL's host (the URL-host parser) failed on any forbidden host code "
            "point, % and [ too: no IPv6 address, no percent-encoded byte"),
    Variant(VALID_OPAQUE_HOST_IPV6, "aec942485630870e742d829dd9df61600796ad6e",
            ("valid opaque-host string",),
            "a valid opaque-host string was URL units only: [::1] was not one"),
    Variant(IDNA_NONTRANSITIONAL, "f4d84a52e67b154b2d11e04889fe0a35a029c833",
            ("domain parser ToASCII",),
            "the URL parser's ToASCII used Transitional_Processing: faß.de became fass.de"),
    Variant(IDNA_CHECK_HYPHENS_FALSE, "dc9d83106cada9af507bf37dee3973de97b020fd",
            ("domain parser ToASCII", "domain to Unicode"),
            "no CheckHyphens flag: hyphens in the 3rd and 4th positions or at a label's ends "
            "failed the relaxed ToASCII too (r3---sn-2gb7ln7k.googlevideo.com)"),
    Variant(OPAQUE_HOST_VALIDITY, "5d17e7f602ba85c7e543f2dd9b83e78eeb534775",
            ("opaque-host parser, step 2", "opaque-host parser, step 3",
             "valid opaque-host string"),
            "the opaque-host parser raised no invalid-URL-unit; a valid opaque-host string was "
            "one or more URL units (forbidden host code points too)"),
    Variant(DOMAIN_EMPTY_AFTER_TO_ASCII, "cceb4356cca233b6dfdaabd888263157b2204e44",
            ("domain parser, step 7",),
            "an empty result of Unicode ToASCII was not a failure: a host of ignored code "
            "points alone (U+00AD) became the empty string"),
    Variant(HOSTS_FORBID_LT_GT_CARET, "302ba419cb3248568243aaf7b5aca9003694d5c3",
            ("forbidden host code point", "forbidden domain code point",
             "opaque-host parser, step 1", "domain parser, step 8"),
            "<, > and ^ are not forbidden host code points: an opaque host or a domain may "
            "hold them"),
    Variant(HOSTS_FORBID_PIPE, "40252530f93fe37f092be90583f82e9f337da1ab",
            ("forbidden host code point", "forbidden domain code point",
             "opaque-host parser, step 1", "domain parser, step 8"),
            "| is not a forbidden host code point: an opaque host or a domain may hold it"),
    Variant(DOMAIN_ENDING_IN_NUMBER_IS_IPV4, "ab0e820b0b559610b30c731b7f2c1a8094181680",
            ("host parser, step 8", "IPv4 parser, step 4", "IPv4 parser, step 6.2"),
            "the host parser ran the IPv4 parser on every domain, which returned the input (a "
            "domain) for more than 4 parts, an empty part or a non-numeric one: foo.0 was a "
            "domain"),
    Variant(IPV4_NUMBER_EMPTY_IS_NON_DECIMAL, "fbb91a13c62a8b21d1f7b586e4535ac0a8d1aead",
            ("IPv4 number parser, step 6",),
            "an input empty after its prefix (\"0x\") returned 0, with no validationError: "
            "no IPv4-non-decimal-part for it"),
    Variant(VALID_IPV4_SHORTEST, "4c18d6c1c8fd65902a5159897dc5ecac12330fc4",
            ("valid IPv4-address string",),
            "four sequences of up to three ASCII digits, each at most 255: leading zeros were "
            "valid (010.0.0.1)"),
    Variant(FORBIDDEN_DOMAIN_CODE_POINT, "35e195a2cce7b82694284b8f60caeaf7b43087b4",
            ("forbidden domain code point", "domain parser, step 8"),
            "the domain check used the forbidden host code points: other C0 controls and U+007F "
            "were allowed in a domain"),
    Variant(IPV4_ERRORS_WHERE_FOUND, "f0806d616a66b4d4aeaa245b5dd08abd81a3a89f",
            ("IPv4 parser, step 2.1", "IPv4 parser, step 6.3"),
            "an empty last part and non-decimal parts set validationError, reported once after "
            "every part parsed (not at all when a part failed)"),
    Variant(CHECK_HYPHENS_BE_STRICT, "cd8f1d6c1ad0bab1cc8e40ad8ef6ee6626c57d57",
            ("domain parser ToASCII", "domain to Unicode"),
            "CheckHyphens is false, with beStrict true too: hyphens in the third and fourth "
            "positions or at a label's ends raise no error"),
    Variant(ASCII_DOMAIN_TO_ASCII_FALLBACK, "a8d5ca3716c31145d103d83d1cae65a881dd4d7a",
            ("domain parser, step 5", "domain to Unicode, step 2"),
            "an ASCII domain went through Unicode ToASCII like any other: its failure failed the "
            "host (xn--8i7caa.example); domain to Unicode returned ToUnicode's result"),
    Variant(DOMAIN_STRICT_TO_ASCII_ERROR, "37afb50be866ce38c7efd8f86deb5b6c0b7440ac",
            ("host parser, step 4", "domain parser, step 2", "domain parser, step 5",
             "domain parser, step 6.2", "domain parser, step 7", "domain parser, step 8"),
            "no strict ToASCII run for its error, no domain-percent-encoded: domain-to-ASCII "
            "when the relaxed run failed or was empty, domain-invalid-code-point"),
    Variant(IPV4_TOO_FEW_PARTS, "acd13be47adf5609eb013912779807a574c22b5b",
            ("IPv4 parser, step 3", "valid domain, step 3"),
            "no IPv4-too-few-parts error; a valid domain could end in a number (example.1)"),
    Variant(IPV6_PIECE_LEADING_ZERO, "b2965a07f77a625b223a5499d73e4c15a636f936",
            ("IPv6 parser, step 6.8", "valid IPv6-address string"),
            "no IPv6-piece-leading-zero error; a valid IPv6-address string was RFC 4291's "
            "text representation, leading zeros allowed"),
    # --- the basic URL parser's states ---
    Variant(RELATIVE_COPIES_CREDENTIALS, "06b2e6895dff2e6efaeba65f4eb1bc27ecc21581",
            ("relative state, step 5.1", "relative slash state, step 3"),
            "a relative URL took the base's host, port, path and query, not its username and "
            "password"),
    Variant(QUERY_BACKTICK_KEPT, "f54c44d1f790dd2b8913e955ba6d334c6f14a048",
            ("query state, step 2.1", "query percent-encode set"),
            "the query state percent-encoded 0x60 (`) too"),
    Variant(CREDENTIALS_NON_CONFORMING, "e0c721b680d0977013ef2a14ba578388c01bd331",
            ("authority state, step 1.1",),
            "an \"@\" in the authority was a validation error only when one was seen before"),
    Variant(FRAGMENT_AGAINST_OPAQUE_BASE, "7468c397f600b72f650f52fc02466f051bf96ad3",
            ("no scheme state, step 1", "no scheme state, step 2"),
            "a base whose scheme is not special (with an opaque path) failed every relative "
            "input, \"#\" too"),
    Variant(TRIM_C0_CONTROL_OR_SPACE, "0bab926668566ca3689f47372501b8980cb08073",
            ("basic URL parser, step 1.3",),
            "only leading and trailing ASCII whitespace was removed from the input, not every "
            "C0 control"),
    Variant(SCHEME_OVERRIDE_SPECIAL_STAYS, "5533c8d91e17fc81fc8a16a16af9155bf940aca8",
            ("scheme state, step 2.1.1", "scheme state, step 2.1.2"),
            "with a state override, a special scheme could become non-special and vice versa"),
    Variant(AUTHORITY_USERNAME_PASSWORD_SETS, "78763066648b921c51b0920493c67fc166c3e6f3",
            ("authority state, step 1.4.2",),
            "the authority state percent-encoded usernames and passwords with the default "
            "encode set (today's path percent-encode set): / @ \\ : ; = [ ] ^ | were kept"),
    Variant(RELATIVE_URLS_UNKNOWN_SCHEMES, "b266a43fc9df0e8607074bd4d336a517e2010009",
            ("scheme state, step 2.8",),
            "a URL whose scheme is not special was scheme data (today's opaque path), "
            "\"//\" or not: no host, no path segments, no relative URLs against it"),
    Variant(FILE_LOCALHOST_EMPTY, "bb36bd9f035be2e3904ddc8e4e8fd1e756ae8f1e",
            ("file host state, step 1.3.3",),
            "a file URL's host \"localhost\" was kept: file://localhost/ was not file:///"),
    Variant(PORT_16_BIT, "c3a454c073d6bf9f24d8ee2b5c3e6e006b943777",
            ("port state, step 2.1.2",),
            "the port was an ASCII string with no upper bound: 65536 and above were no "
            "failure"),
    Variant(USERINFO_ENCODE_SET, "9ca26e5b0edc131f9cca81d0fef4ab92815bc289",
            ("userinfo percent-encode set", "authority state, step 1.4.2", "set the username",
             "set the password"),
            "usernames used the username encode set and passwords the password encode set "
            "(the default encode set and / @ \\, the username's with :): ; = [ ] ^ | were "
            "kept"),
    Variant(PATH_DECODE_DOT, "bee5ad8041adfe6fc676c527bbc3f3cf4562ef67",
            ("path state, step 2.3",),
            "no %2e was decoded in the path state (today's text again: fbff683 reverted it; "
            "undone with fbff683, it restores the text before both)"),
    Variant(TAB_NEWLINE_STRIPPED, "7b40216f809c7fe3c9a1680b5c1b06a771c9ebd8",
            ("basic URL parser, step 2", "basic URL parser, step 3"),
            "tab and newline were kept: the host, port, file host, path, opaque path, query "
            "and fragment states skipped each with a syntax violation, the userinfo dropped "
            "them, every other state read them as any code point (ja\\tvascript: was no "
            "scheme)"),
    Variant(PATH_STOP_DECODING_DOT, "fbff6834a8a03576261f777d0e0afea5c1bc5a09",
            ("path state, step 2.3",),
            "the path state decoded every %2e (any case) to \".\" in the buffer"),
    Variant(FRAGMENT_PERCENT_ENCODED, "373dbedbbf0596f723ce8a195923da98b698aeb0",
            ("fragment state, step 1.3",),
            "the fragment state appended c as it is: fragments were not percent-encoded"),
    Variant(SCHEME_OVERRIDE_FAILURE, "4617e33b27d386bbf1db8c04316961d46aaa1397",
            ("scheme start state, step 3", "scheme state, step 4"),
            "with a state override, a code point that is no scheme's terminated the algorithm "
            "(a return, not failure)"),
    Variant(PASSWORD_NOT_NULLABLE, "5e0b05e95a81fdd539c7b1bf97e69b3df701384f",
            ("URL serializer, step 2.2", "authority state, step 1.4.1", "set the password"),
            "a URL's password was null or a string: \":\" in the userinfo made it non-null, "
            "so u:@h kept its \":\" (http://u:@h/); the password setter's \"\" set null"),
    Variant(NON_SPECIAL_PATH_PARSING, "b087fe2ab215caf656a94b067c9a69ae78f03c8f",
            ("path start state, step 2", "path start state, step 3", "path start state, step 4",
             "relative slash state, step 2"),
            "the path start state always went on to the path state: a non-special URL's path "
            "was never empty (sc://h was sc://h/); \"//\" against a non-special base skipped "
            "every slash after it, like a special URL's"),
    Variant(FILE_STATE_WITHOUT_BASE, "698f3e8f1d7de6d84c78ac81209fd780aca5ab7e",
            ("file state, step 5",),
            "the file state switched on c: with no file base, the EOF code point, \"?\" and "
            "\"#\" did nothing (file: had an empty path, file:?x the path x)"),
    Variant(FILE_API_CLEANUP, "cf616f9d3fca44bd5329e992519a4236a39b0cb7",
            ("host state, step 1", "host state, step 3.2", "file host state, step 1.2.1",
             "file host state, step 1.3.3", "cannot have a username/password/port"),
            "a file URL's host and hostname setters ran the host state (\"\" failed, "
            "localhost was kept); the file host state left the host as it was for \"\" and "
            "localhost; the username and password setters stopped only for a null host"),
    Variant(SCHEME_OVERRIDE_FILE_RESTRICTED, "462fdc14732aae4b0b9c5334f37962d8c235caf9",
            ("scheme state, step 2.1.3", "scheme state, step 2.1.4"),
            "with a state override, a URL with credentials or a port could become file, and a "
            "file URL with an empty host could become another special scheme"),
    Variant(FILE_PATH_TRIM_LEADING_EMPTY, "6103e0a58eb2460d409056fb2b93b015941b64f2",
            ("file slash state, step 2.1.1", "path state, step 1.5"),
            "no trimming of a file path's leading empty segments (today's text again: 47efa00 "
            "removed it; undone with 47efa00, it restores the text before both), and "
            "\"/x\" against a file base did not copy the base's host"),
    Variant(FILE_DRIVE_LETTER_AT_END, "fe6b251739e225555f04319f19c70c031a5d99eb",
            ("file state, step 4.4.2", "file state, step 4.4.3"),
            "with a file base, \"C:\" at the end of the input was no Windows drive letter: the "
            "base's path was copied and shortened"),
    Variant(SCHEME_OVERRIDE_PORT_NORMALIZED, "0f53958338bbaec3882f902897873da59ba7e8bd",
            ("scheme state, step 2.3.1",),
            "with a state override, a new scheme kept the port even when it was the new "
            "scheme's default port"),
    Variant(FILE_SLASH_DRIVE_LETTER, "2eef975e989cb5ae2d62467394778fd6778ddec9",
            ("file slash state, step 2.1.2",),
            "the file slash state appended the base's drive letter even when the input started "
            "with one"),
    Variant(FRAGMENT_PERCENT_ENCODE_SET, "7a3c69f8a1583b33e730c3fea85141a618e7c697",
            ("fragment state, step 1.3", "fragment percent-encode set"),
            "the fragment state percent-encoded with the C0 control percent-encode set: space, "
            "\", <, > and ` stayed as they were"),
    Variant(QUERY_NCR_PERCENT_ENCODED, "f0e4390bf882446445e944215524ff3877aac95a",
            ("query state, step 2.2",),
            "an unencodable code point's \"&#N;\" (the encoder's html mode) was percent-encoded "
            "like any bytes: &%23N; (& and ; kept), not %26%23N%3B"),
    Variant(SPECIAL_QUERY_APOSTROPHE, "6ef17ebe1220a7e7c0cfff0785017502ee18808b",
            ("query state, step 2.1", "special-query percent-encode set"),
            "a special URL's query kept ' (0x27) as it is, like a non-special one's"),
    Variant(GOPHER_NOT_SPECIAL, "d589670451a4da9717bad69ed5d5364f93fede33",
            ("special scheme",),
            "gopher was a special scheme with default port 70 (in the basic URL parser's "
            "states; the origin's gopher case is 7ae1c69's)"),
    Variant(FRAGMENT_NUL_ENCODED, "3d574017081f6594ce1fa7a5107027c83dbe931f",
            ("fragment state, step 1",),
            "U+0000 in the fragment state was a validation error and was dropped, not "
            "percent-encoded"),
    Variant(FILE_PATH_NORMALIZATION, "47efa0043d677fb51169cde72b60703bd8de83e3",
            ("file state, step 4.4.3.2", "file slash state, step 2.1", "path state, step 1.4.1",
             "path state, step 1.5"),
            "a drive letter dropped a file URL's host (file://h/C:/ was file:///C:/), \"/C:\" "
            "against a file base did not copy its host, and leading empty segments of a file "
            "path were removed (file:////x was file:///x)"),
    Variant(FILE_HOST_NEVER_NULL, "a19495e27ad95154543b46f751d1a1bf25553808",
            ("file state, step 2", "scheme state, step 2.1.4", "URL serializer, step 2"),
            "a file URL's host stayed null unless one was given or copied; the serializer "
            "wrote \"//\" for it (file:.//p was file:///.//p, which reparsed as file:////p)"),
    Variant(QUERY_BUFFERED, "04f5bd01d9897581ce3400af9c12b8d48a84d6cf",
            ("query state, step 2.2",),
            "the query state percent-encoded each code point after encoding as it came: with "
            "ISO-2022-JP each non-ASCII code point got its own escapes"),
    Variant(HOSTNAME_OVERRIDE_RETURNS_BEFORE_PORT, "ec96993653a70d063843e0198694028c63348db4",
            ("host state, step 2.2",),
            "with the hostname state override, a \":\" parsed and set the host first, then "
            "returned (the hostname setter took \"h:1\" as host h)"),
    Variant(PATH_START_OVERRIDE_EMPTY_SEGMENT, "0672f2e2ef43aca18b59d90abb6dac21712399bb",
            ("path start state, step 5",),
            "with a state override, EOF and a null host, the path start state appended nothing "
            "(pathname = \"\" left a path-only URL with an empty path)"),
    Variant(CREDENTIALS_NO_HOST_HOST_MISSING, "3e8cd02bbacc74a40d7728f574d771e7a460378b",
            ("authority state, step 2.1",),
            "credentials with no host (\"https://user:pass@\") were an invalid-credentials "
            "validation error, not host-missing"),
    Variant(OPAQUE_PATH_SPACE_ROUNDTRIP, "6c782003a2d53b1feecd072d1006eb8f1d65fb2d",
            ("opaque path state, step 3",),
            "a space in an opaque path was appended as it is, even before \"?\" or \"#\""),
    Variant(HOSTNAME_OVERRIDE_FAILURES, "c23aec1a9a7433282abc61c1f21554cd53923b26",
            ("host state, step 2.2", "host state, step 3.2"),
            "with a state override, \":\" in the hostname state and emptying a host with "
            "credentials or a port returned (not failure)"),
    Variant(PORT_OVERRIDE_FAILURE, "cc8b776b89a6d92b5cc74581c8d90450d3c1e762",
            ("port state, step 2.2",),
            "with a state override, a value not starting with an ASCII digit returned (not "
            "failure)"),
    Variant(OPAQUE_PATH_SPACE_BEFORE_HASH, "b11d73b8caefe90403afe19210db05acba897722",
            ("opaque path state, step 3.1",),
            "step 3.1 read \"U+003F (?) or U+003F (#)\": only a space before \"?\" became "
            "%20"),
    # --- encode sets, serializers, setters, urlencoded, origin ---
    Variant(ENCODE_BRACES, "c296e2f8519a1d6614d664708d368a342682c9a1",
            ("path percent-encode set", "userinfo percent-encode set", "path state, step 2.3",
             "authority state, step 1.4.2", "set the username", "set the password"),
            "the sets for paths, usernames and passwords did not hold U+007B ({) and U+007D "
            "(}): they were kept as they were"),
    Variant(PATH_RELATIVE_SCHEME_LESS, "dbec293957a4725d6def7cbfefec764ad53d6b98",
            ("relative-URL string",),
            "against a file base, any path-relative URL, even one starting with a scheme and "
            "\":\" (http:x)"),
    Variant(URLENCODED_SERIALIZER_TUPLES, "b174f8f2170a4ce6fd4031206e0490eff2b0aa02",
            ("application/x-www-form-urlencoded serializer, step 3",),
            "name-value pairs, each written as name \"=\" value after an \"&\" (a result only "
            "while 052a89f is undone too: b174f8f's text wrote later pairs as \"&\" alone)"),
    Variant(URLENCODED_SERIALIZER_LOGIC, "052a89fd039ae3e97908eba2d8fdaaac819d6aa2",
            ("application/x-www-form-urlencoded serializer, steps 3.5-3.6",),
            "\"Otherwise, if tuple is not the first pair, append &. Otherwise, append name=value\""
            ": only the first pair was written"),
    Variant(ORIGIN_TUPLE_URL_PORT, "b0e4def5b62e0be2d75b4b7b5720a5e0ea879596",
            ("origin",),
            "a tuple origin held the scheme's default port when the URL's port was null "
            "(http://example.com/: port 80)"),
    Variant(SEARCH_SETTER_EMPTY_RETURNS, "4f1c2ddbdb866b1150819622ec04a86813294059",
            ("search setter, step 2",),
            "the empty string set the query to null and emptied the list, then went on: the "
            "query became the empty string (href ends in \"?\")"),
    Variant(URL_WITHOUT_FRAGMENT, "f88f96fe4922cb7223f327cb41db613e4b11207c",
            ("absolute-URL-with-fragment string", "relative-URL-with-fragment string"),
            "a URL with fragment was a URL \"followed by # and a fragment\": every valid URL "
            "string had a #"),
    Variant(PORT_SETTER_EMPTY_STRING, "05ffaa644bc3cd4c6694ac6db11a072781af449c",
            ("port setter, step 2",),
            "the empty string was basic URL parsed with the port state override: the port was "
            "left as it was"),
    Variant(URLENCODED_PARSE_UTF8_ONLY, "3fe969679f78c92c353047661b0c4b6797f099f6",
            ("application/x-www-form-urlencoded parser, step 4",),
            "names and values went through \"decode\" (UTF-8 unless overridden), which removes "
            "a leading BOM"),
    Variant(HASH_SETTER_JAVASCRIPT, "4bf85a08da18ef367e093426abef776d59e8fb7b",
            ("hash setter, step 1",),
            "the hash setter returned at once when the URL's scheme was \"javascript\""),
    Variant(ORIGIN_ASCII_SERIALIZATION, "20c3257194db218c47526ba4ef4894a09e3847c9",
            ("origin getter",),
            "the origin getter returned the Unicode serialization of the origin (its domain "
            "through domain to Unicode)"),
    Variant(SEARCH_PARAMS_UPDATE_NULL_QUERY, "43158268deb10343057998b8d761a193e9f3dc8a",
            ("URLSearchParams update",),
            "the update steps set the query to the serialization even when empty: a trailing "
            "\"?\" stayed"),
    Variant(GOPHER_ORIGIN_REMOVED, "7ae1c691c96f0d82fafa24c33aa1e8df9ffbf2bc",
            ("origin, gopher",),
            "a gopher: URL's origin was the tuple (scheme, host, port, null), like ftp's"),
    Variant(URL_PORT_STRING_LIMIT, "c1c213322986a167ae8c49a7078f8cd9f76c3e12",
            ("URL-port string",),
            "a URL-port string was zero or more ASCII digits, with no upper limit"),
    Variant(SERIALIZER_NULL_HOST_DOT_SEGMENT, "83adf0c9ca9a88948e1e5d93374ffded04eec727",
            ("URL serializer, step 3.1",),
            "no \"/.\" before a null-host path whose first segment is empty: "
            "web+demo:/.//not-a-host/ serialized as web+demo://not-a-host/"),
    Variant(PERCENT_ENCODE_ONE_ENCODER, "2ce49383db3506a3c1a527a775693af1100198ef",
            ("percent-encode after encoding",),
            "percent-encode after encoding took each code point of the string alone, each "
            "encoded by an encoder of its own: with ISO-2022-JP each got its own escapes"),
    Variant(SPACE_AS_PLUS_CONTINUE, "334966e9d4b9b5a436044cfdfac881241405f65d",
            ("percent-encode after encoding, step 7.3.1",),
            "with spaceAsPlus a space appended \"+\" and went on to be percent-encoded too "
            "(\"+%20\")"),
    Variant(API_OPAQUE_PATH_STRIP, "fdaa0e5a3790693a82f578d7373f216d8fef9ac8",
            ("search setter, step 2", "hash setter, step 1", "URLSearchParams update"),
            "no \"potentially strip trailing spaces from an opaque path\" (a result only while "
            "6c78200, which removed it again, is undone too)"),
    Variant(BLOB_ORIGIN_HTTP_ONLY, "eee49fdf4f99d59f717cbeb0bce29fda930196d4",
            ("origin, blob step 4",),
            "a blob: URL's origin was its path URL's origin, whatever that URL's scheme"),
    Variant(PATH_PERCENT_ENCODE_CARET, "9bc33c39d4a6cd6a936ea7620b5a69f606ec0d4c",
            ("path percent-encode set", "path state, step 2.3"),
            "the path percent-encode set does not contain U+005E (^): a path keeps ^ as it is"),
    Variant(PATH_SEGMENTS_CAN_BE_EMPTY, "15059765dd1b3cfec4076f9d7e1b923b979c85ed",
            ("path-absolute-URL string", "scheme-relative-file-URL string"),
            "a path-absolute-URL string was \"/\" and a path-relative-URL string (not "
            "starting with \"/\"); \"file://\" needed a host or a path after it"),
    Variant(RELATIVE_WITH_FRAGMENT_OPAQUE_BASE, "24deb59cd88328ff1b3270d971d823c7cd85bf24",
            ("relative-URL-with-fragment string",),
            "a relative-URL string and an optional fragment, whatever the base: a/b against "
            "foo:opaque was valid"),
    Variant(PATH_ABSOLUTE_NON_AUTHORITY, "6ae84860d12800bcf563668e7cc821360dce6062",
            ("absolute-URL string", "relative-URL-with-fragment string", "relative-URL string",
             "scheme-relative-file-URL string"),
            "\"//\" could fall back to a path-absolute-URL string; a path after a file host "
            "could not start with /C:/; the empty string was valid against an opaque path"),
)
BY_NAME: dict[str, Variant] = {v.name: v for v in VARIANTS}

_undone: ContextVar[frozenset[str]] = ContextVar("urlcalc_undone", default=frozenset())
# While a trace is live (``firing``): the names of the changes whose old branch a check chose,
# in order, for the trace's driver to put on the event of the step that ran it.
_fired: ContextVar[list[str] | None] = ContextVar("urlcalc_fired", default=None)


def undone(name: str) -> bool:
    """True when the change ``name`` (a ``Variant.name``) is undone in this context: the fork
    takes the branch the standard had before it (noted in the ``firing`` list, if one is
    live)."""
    if name in _undone.get():
        fired = _fired.get()
        if fired is not None:
            fired.append(name)
        return True
    return False


@contextmanager
def firing() -> Iterator[list[str] | None]:
    """While a trace is recorded: every ``undone`` check that takes an old branch appends its
    variant's name to the list yielded (urlcalc.trace takes them onto the step's event). With
    nothing undone, no list (None) and nothing recorded."""
    if not _undone.get():
        yield None
        return
    fired: list[str] = []
    token = _fired.set(fired)
    try:
        yield fired
    finally:
        _fired.reset(token)


def any_undone() -> bool:
    """True when any change is undone in this context (the fast paths are then off)."""
    return bool(_undone.get())


def undone_now() -> frozenset[str]:
    """The names of the changes undone in this context."""
    return _undone.get()


@contextmanager
def undoing(names: Iterable[str]) -> Iterator[frozenset[str]]:
    """Read with the changes ``names`` undone (besides those undone already); a name that is no
    variant's raises KeyError."""
    wanted = frozenset(names)
    unknown = sorted(wanted - BY_NAME.keys())
    if unknown:
        raise KeyError(f"no such variant: {', '.join(unknown)}; the variants are "
                       f"{', '.join(BY_NAME)}")
    token = _undone.set(_undone.get() | wanted)
    try:
        yield _undone.get()
    finally:
        _undone.reset(token)
