"""Each difference line names the rule of the edition that caused it: a hand-derived table.

Every row was worked out by hand from the seed's text (tests/data/seeds/): the input, the base,
the edition, the getter that differs from the current URL Standard, the rule and section that
cause it, whose rule it is (the edition's, or urlcalc's choice where the text is silent), and a
one-line justification quoting the seed. The test checks the quote is in the seed, and that
``compare_model`` names that section and kind for that difference.

Then, over a documented input set (DOCUMENTED: the rows' inputs, the three classic inputs of
docs/editions.md and a dozen everyday URLs), the share of difference lines that name no rule of
the edition (kind ``mapping``, "getter mapping") must stay at most 5%; it is printed at the end of
the pytest run. Before issue 9 it was 32.0% on this set (147 of 459 lines; two of its inputs,
those with a file: base, raised instead), 42% on the issue's own 37 inputs.
"""

from __future__ import annotations

import collections
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from urlcalc.editions.view import compare_model

SEEDS = Path(__file__).parent / "data" / "seeds"
SEED_OF = {
    "rfc3986": "rfc3986-excerpts.txt",
    "html5_2009": "002_f3440f6941f3f8ef.txt",
    "abarth_2010": "000_abad3b91c4f322b0.txt",
    "w3c_2012": "003_251f3c0b459c8b78.txt",
    "whatwg_2014": "001_e7633538c285917c.txt",
    "formal_model": "004_2bd83c95cfeb75ec.txt",
}
#: The last run's figures, printed at the end of the pytest run (tests/conftest.py).
SUMMARY: list[str] = []


class Case(NamedTuple):
    input: str
    base: str | None
    edition: str
    getter: str
    section: str
    kind: str  # "rule": the edition's text; "unspecified": urlcalc's choice where it is silent
    quote: str  # the seed's words that decide it
    why: str


RULE, CHOICE = "rule", "unspecified"

CASES = [
    # --- RFC 3986 -----------------------------------------------------------------------------
    Case("http://0x7f.1/", None, "rfc3986", "hostname", "3.2.2", RULE,
         "only the dotted-decimal form of four octets is allowed by this grammar",
         "0x7f.1 is no IPv4address, so it is a reg-name, kept as written"),
    Case("HTTP://EXAMPLE.COM:80/a", None, "rfc3986", "port", "6.2.3", RULE,
         'an explicit ":port", for which the port is empty or the default for the scheme, is '
         "equivalent to one where the port and its \":\" delimiter are elided",
         "removing :80 is scheme-based normalisation, which 6.2.2 does not include"),
    Case("HTTP://EXAMPLE.COM:80/a", None, "rfc3986", "host", "6.2.3", RULE,
         "thus should be removed by scheme-based normalization",
         "the host getter differs by the kept :80, not by case (6.2.2.1 lowercases the host)"),
    Case("HTTP://EXAMPLE.COM:80/a", None, "rfc3986", "href", "6.2.3", RULE,
         "thus should be removed by scheme-based normalization", "as the host: the kept :80"),
    Case("http://example.com", None, "rfc3986", "pathname", "6.2.3", RULE,
         'an empty path should be normalized to a path of "/"',
         "an empty path becomes / only by scheme-based normalisation"),
    Case("http:foo.com", "http://example.org/foo/bar", "rfc3986", "pathname", "5.2.2", RULE,
         "A non-strict parser may ignore a scheme in the reference",
         "the strict parser keeps http:foo.com absolute: its path is foo.com"),
    Case("http://example.com/foo%41%7a", None, "rfc3986", "pathname", "6.2.2.2", RULE,
         "normalized by decoding any percent-encoded octet that corresponds to an unreserved "
         "character", "%41%7a decode to Az"),
    Case("/a%2fc", "http://example.org/foo/bar", "rfc3986", "pathname", "6.2.2.1", RULE,
         "should be normalized to use uppercase letters for the digits A-F",
         "%2f becomes %2F; / is reserved, so it stays encoded"),
    Case("ftp:/example.com/", None, "rfc3986", "hostname", "3.2", RULE,
         'The authority component is preceded by a double slash ("//")',
         "one slash: no authority, example.com is part of the path"),
    Case("http://[0:0:0:0:0:0:13.1.68.3]/", None, "rfc3986", "hostname", "3.2.2", RULE,
         'IP-literal = "[" ( IPv6address / IPvFuture  ) "]"',
         "the IP-literal is the host as written: no compression"),
    Case("http://f:00000000000000/c", None, "rfc3986", "port", "3.2.3", RULE,
         "port        = *DIGIT", "the port is a string of digits, leading zeros and all"),
    Case("http://host/?'", None, "rfc3986", "search", "3.4", RULE,
         'query       = *( pchar / "/" / "?" )',
         "' is a sub-delim, allowed in a query literally"),
    Case("http://user:pass@/", None, "rfc3986", "href", "3.2.2", RULE,
         "reg-name    = *( unreserved / pct-encoded / sub-delims )",
         "an empty reg-name is a host: the RFC accepts what the current standard rejects"),
    Case("http://f:999999/c", None, "rfc3986", "href", "3.2.3", RULE,
         "port        = *DIGIT", "no range: the RFC accepts port 999999"),
    Case("..", "file:///C:/", "rfc3986", "pathname", "5.2.3", RULE,
         "appended to all but the last segment of the base URI's path",
         "C: is an ordinary segment, which .. removes (drive letters are not RFC 3986's)"),
    Case("https://test:@test/", None, "rfc3986", "href", "3.2.1", RULE,
         'userinfo    = *( unreserved / pct-encoded / sub-delims / ":" )',
         "the userinfo test: keeps its ':' (5.3 recomposes it as written)"),
    # issue 26: 5.2.2 removed the dot segments; nothing is "kept as written"
    Case("foo:a/../b", None, "rfc3986", "pathname", "5.2.4", RULE,
         "whether or not the path was relative, in order to remove any invalid or extraneous "
         "dot-segments", "T.path = remove_dot_segments(R.path) also for a path without '/'"),
    Case("///test", "http://example.org/", "rfc3986", "hostname", "3.2", RULE,
         'and is terminated by the next slash ("/")', "an empty authority, not a kept host"),
    Case("//d:", "file:///C:/a/b", "rfc3986", "pathname", "3.2", RULE,
         'and is terminated by the next slash ("/")', "'d:' is the authority: no drive letters"),
    Case("MAILTO://TEST/A/../B", None, "rfc3986", "hostname", "6.2.2.1 host", RULE,
         "the scheme and host are case-insensitive and therefore should be normalized to "
         "lowercase.", "the host is lowercased whatever the scheme"),
    # --- HTML5 Web addresses (2009) -------------------------------------------------------------
    # issue 26: host lines name the step that made the host, ToASCII's case only for case
    Case("file://localhost/x", None, "html5_2009", "hostname", "parse: components", RULE,
         "The decoded substring matched by the <host> production, if any.",
         "'localhost' as matched: no rule of the draft drops it (not ToASCII's case)"),
    Case("non-special://H%4fSt/path", None, "html5_2009", "hostname",
         "resolve: host expansion", RULE, "expanding any sequences of percent-encoded octets in "
         "that component that are valid UTF-8 sequences into Unicode characters",
         "%4f is expanded to O: the host step, for every scheme"),
    Case("ftp:/.//./C:/C|", None, "html5_2009", "hostname", "resolve: RFC 3986 5.2", RULE,
         "Apply the algorithm described in RFC 3986 section 5.2 Relative Resolution",
         "remove_dot_segments leaves '//C:/C%7C', which recomposed reads as an authority"),
    Case("http://EXAMPLE.COM/", None, "html5_2009", "hostname", "resolve: host", RULE,
         "Apply the IDNA ToASCII algorithm to the matching substring",
         "IDNA2003 ToASCII leaves an ASCII label's case alone"),
    Case("HTTP://example.com/", None, "html5_2009", "protocol", "parse: components", RULE,
         "The decoded substring matched by the <scheme> production, if any.",
         "the scheme is the substring as matched: HTTP stays uppercase"),
    Case("http://foo:80/", None, "html5_2009", "port", "parse: components", RULE,
         "The decoded substring matched by the <port> production, if any.",
         "<port> keeps 80; only <hostport> drops the default port"),
    Case("http:foo.com", "http://example.org/foo/bar", "html5_2009", "pathname",
         "resolve: RFC 3986 5.2", CHOICE,
         "Apply the algorithm described in RFC 3986 section 5.2 Relative Resolution",
         "strict or non-strict is not said; urlcalc's strict choice keeps http:foo.com"),
    Case("\\x", "http://example.org/foo/bar", "html5_2009", "pathname", "resolve: last step",
         RULE, "If result uses a scheme with a server-based naming authority, replace all "
         "U+005C REVERSE SOLIDUS", "the path step already encoded \\ as %5C, so no \\ is left"),
    Case("lolscheme:x x#x x", None, "html5_2009", "pathname", "resolve: path", RULE,
         "that doesn't match the original <path> production defined in RFC 3986",
         "the space does not match <path>: it is percent-encoded"),
    Case("lolscheme:x x#x x", None, "html5_2009", "hash", "parse: components", RULE,
         "then any percent-encoded characters in that substring are decoded",
         "the fragment is a decoded substring, and resolve has no fragment step"),
    Case("http://0x7f.1/", None, "html5_2009", "hostname", "parse: components", RULE,
         "The decoded substring matched by the <host> production, if any.",
         "<host> is the substring as matched: no IPv4 number forms"),
    # --- draft-abarth-url (2010) ----------------------------------------------------------------
    Case("foo://h/a/./b/../c", None, "abarth_2010", "pathname", "3", CHOICE,
         "If the scheme is hierarchical:",
         "hierarchical is never defined; urlcalc's choice: foo is not, so nothing is split"),
    Case("foo://h/a/./b/../c", None, "abarth_2010", "hostname", "3", CHOICE,
         "If the scheme is hierarchical:", "as above: no authority is found for foo"),
    Case("http://ExAmPlE.CoM/", None, "abarth_2010", "hostname", "3.3", RULE,
         "The consumed characters are the /host/.", "the host is the characters as consumed"),
    Case("http://foo:80/", None, "abarth_2010", "port", "3.3", RULE,
         "The remaining string is the /port/.", "the port is the rest as written: 80 stays"),
    Case("https://test:@test", None, "abarth_2010", "pathname", "3.2", RULE,
         "If the remaining string does not contain any authority terminating characters:",
         "no / ? # ; after the authority: the whole rest is the authority, no path"),
    Case("http://a/b/../c", None, "abarth_2010", "pathname", "3.2", RULE,
         "The consumed characters are the /path/.", "the path as consumed: .. stays"),
    Case("http://f:b/c", None, "abarth_2010", "href", "3.1", RULE,
         "If the remaining string does not contain a \":\" character:",
         "the draft's only failure; a non-digit port is split as written"),
    # --- W3C URL (2012) -------------------------------------------------------------------------
    Case("http://example.com/foo/bar/../ton", None, "w3c_2012", "hostname",
         "4.2 authority state", RULE,
         "decrease pointer by the number of code points in buffer",
         "as written the host state starts one code point late: xample.com"),
    Case("http://example.com/foo/bar/../ton", None, "w3c_2012", "pathname",
         "4.2 relative path state", RULE,
         "set the last string in url's path to the empty string",
         ".. then / empties bar instead of removing it: /foo//ton"),
    Case("non-special://test:@test/x", None, "w3c_2012", "hostname", "4.2 scheme data state",
         RULE, "6. Otherwise, set state to scheme data state.",
         "not a relative scheme: the rest is scheme data, no host"),
    Case("file:/example.com/", "http://example.org/foo/bar", "w3c_2012", "protocol",
         "4.2 relative state", RULE, "set url's scheme to base's scheme",
         "file goes to the relative state, which takes the base's scheme: http"),
    Case("http://foo:80/", None, "w3c_2012", "port", "4.2 port state", CHOICE,
         "1. parse buffer and set port", "a stub: urlcalc keeps the buffer, 80"),
    Case("http://www/foo%2Ehtml", None, "w3c_2012", "pathname", "4.2 relative path state 2",
         RULE, 'if c is "%" and remaining starts with either "2E" or "2e", increase pointer by '
         'two, and append "." to buffer', "%2E is read as . anywhere in a segment"),
    Case("https://test:@test", None, "w3c_2012", "href", "4.3", RULE,
         'If userinfo is not the empty string, append userinfo concatenated with "@" to output.',
         "the userinfo test: is serialised whole"),
    # issue 26: the simple escape set applies in the fragment state; the authority state
    # appended '@' (not the serialiser)
    Case("#a b", "http://h/", "w3c_2012", "hash", "4.2 simple escape set", RULE,
         "The URL simple escape set are all code points less than U+0020 (i.e. excluding "
         "U+0020)", "the fragment state escapes with the simple set: the space stays"),
    Case("http://a@b@c/", None, "w3c_2012", "href", "4.2 authority state 3", RULE,
         "3. Otherwise, if c is none of U+0009, U+000A, and U+000D, append c to buffer.",
         "step 3 appends the first '@' to buffer, so userinfo becomes 'a%40@b'"),
    Case("file:c:\\foo\\bar.html", "http://a/b/c/d;p?q", "w3c_2012", "pathname",
         "4.2 relative state", RULE, "set url's scheme to base's scheme",
         "the relative state copies the http base's path, the input's is appended"),
    # --- URL Standard, grammar edition (2014) --------------------------------------------------
    Case("http://example.com/", None, "whatwg_2014", "hostname", "non-relative-url(input)",
         RULE, "does not match any relative scheme then return failure.",
         "as written step 2 fails only for non-relative schemes, so http is scheme data"),
    Case("javascript:alert(1)", None, "whatwg_2014", "protocol", "non-relative-url(input)",
         RULE, "does not match any relative scheme then return failure.",
         "as written javascript: fails step 2 and is read as a relative path"),
    Case("HTTP://EXAMPLE.com/?a b", None, "whatwg_2014", "search", "url(input)", CHOICE,
         "If query is present, set result.query to the value of query.",
         "the query production is cut off: urlcalc shows the matched text"),
    # --- Formal URL model ------------------------------------------------------------------------
    Case("http://a/b?c#d", None, "formal_model", "search", "Concluding", RULE,
         "otherwise it returns the value of the query.", "no '?': the value of the query"),
    Case("http://a/b?c#d", None, "formal_model", "hash", "Concluding: hash", RULE,
         "otherwise it returns the value of the fragment.", "no '#': the value of the fragment"),
    Case("http://[0:0:0:0:0:0:13.1.68.3]/", None, "formal_model", "hostname", "IPv6 Addresses",
         CHOICE, "Double check the following, and include it here",
         "the IPv6 section is a placeholder: urlcalc keeps the text"),
    Case("non-spec:/.//", None, "formal_model", "pathname", "Normalise for Printing", CHOICE,
         "pathname (…)", "the pathname getter is elided; urlcalc prints after (dir .)"),
]

#: The documented input set for the share of "getter mapping" lines.
EVERYDAY = [
    ("http:\\\\example.com\\a\\..\\b", None),
    ("HTTP://EXAMPLE.com:80/%7efoo", None),
    ("file:c:\\foo\\bar.html", None),
    ("https://user:pass@example.com:8080/p/a/t/h?query=string#hash", None),
    ("https://example.com/", None),
    ("https://bücher.example/", None),
    ("http://192.168.0.1/", None),
    ("http://[::1]/", None),
    ("mailto:someone@example.com", None),
    ("data:text/plain,hi", None),
    ("javascript:alert(1)", None),
    ("../g", "http://a/b/c/d;p?q"),
    ("g;x?y#s", "http://a/b/c/d;p?q"),
    ("//g", "http://a/b/c/d;p?q"),
    ("?y", "http://a/b/c/d;p?q"),
    ("#s", "http://a/b/c/d;p?q"),
    ("x", "file:///"),
    ("x", "blob:https://a.example/uuid"),
]
DOCUMENTED = list(dict.fromkeys([(c.input, c.base) for c in CASES] + EVERYDAY))


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def seed(edition: str) -> str:
    text = (SEEDS / SEED_OF[edition]).read_text(encoding="utf-8")
    if edition == "whatwg_2014":
        text = re.sub(r"<[^>]*>", "", text)
    return _squash(text)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.edition}-{c.getter}-{c.input}")
def test_difference_names_the_rule(case: Case) -> None:
    assert _squash(case.quote) in seed(case.edition), "the justification quotes the seed"
    out = compare_model(case.input, case.base)
    lines = [d for d in out["differences"]
             if d["edition"] == case.edition and d["getter"] == case.getter]
    assert len(lines) == 1, out["differences"]
    line = lines[0]
    assert (line["section"], line["kind"]) == (case.section, case.kind), line
    assert line["quote"] and _squash(line["quote"]) in seed(case.edition)


def test_share_of_mapping_lines_over_the_documented_set() -> None:
    kinds: collections.Counter[str] = collections.Counter()
    for text, base in DOCUMENTED:
        for d in compare_model(text, base)["differences"]:
            kinds[d["kind"]] += 1
    total = sum(kinds.values())
    share = kinds["mapping"] / total
    SUMMARY[:] = [f"{len(DOCUMENTED)} documented inputs, {total} difference lines: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
                  + f"; 'getter mapping' share {share:.1%} (before issue 9: 32.0%)"]
    assert total > 200
    assert share <= 0.05
    assert kinds["unspecified"] > 0  # urlcalc's choices are labelled as such


def test_the_2010_lost_formulas_are_unspecified_not_differences() -> None:
    for spec in ("//x/y", "/x", "?x", "#x"):
        out = compare_model(spec, "http://a/b?c#d")
        ed = next(e for e in out["editions"] if e["id"] == "abarth_2010")
        assert ed["status"] == "unspecified"
        assert "urlcalc's reconstruction (not the draft's)" in ed["components"]
        assert not any(d["edition"] == "abarth_2010" for d in out["differences"])
