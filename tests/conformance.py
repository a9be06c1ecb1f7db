"""Every case of the web-platform-tests URL data, run through urlcalc.

Plain Python (no pytest) so the same file runs under CPython (tests/test_wpt.py) and inside
Pyodide (tests/test_pyodide.py, through tests/pyodide/run.mjs). Each ``run_*`` function returns,
per case, what urlcalc computed (``actual``) and the list of mismatches against the expectation
(empty when the case passes).
"""

from __future__ import annotations

import json
from typing import Any

from cases import setter_cases, wpt_entries

from urlcalc import URL, URLSearchParams
from urlcalc.model.runtime import engine_info
from urlcalc.standard.encoding import get_encoding
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.url import URLParseError
from urlcalc.standard.urlencoded import parse_urlencoded_string

# IdnaTestV2.json predates the Unicode version of the idna tables in use (Unicode 18): these
# inputs hold code points that were unassigned (so disallowed) when the file was generated and
# that Unicode 18 assigns (CJK Unified Ideographs Extension J, around U+3E8AC); the file expects
# failure, the current tables give a valid label. Listed, not skipped.
STALE_REASON = ("IdnaTestV2.json predates Unicode 18: it expects failure for a code point "
                "Unicode 18 assigns (U+3E8AC area)")


# Cases not run, with the reason (as WPT's own harness, url/IdnaTestV2.window.js, does).
IDNA_NOT_RUN = {"": "the empty input cannot be tested through the URL parser (WPT's "
                    "IdnaTestV2 harness skips it too)"}


def _stale(s: str) -> bool:
    return any(0x3E8A0 <= ord(ch) <= 0x3E8BF for ch in s)


def load(name: str) -> list[Any]:
    """A WPT file's entries (tests/cases.py); tests/test_wpt.py alters what this returns."""
    return wpt_entries(name)


# The getters an urltestdata.json entry may name (written out here, not taken from urlcalc: the
# expectation's keys come from the WPT file's format).
URL_GETTERS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
               "pathname", "search", "hash")


def _getters(url: URL) -> dict[str, str]:
    return url.getters()


def run_urltestdata() -> list[dict[str, Any]]:
    """As WPT's url-constructor, url-statics-parse and url-statics-canparse harnesses read the
    file: a failure case must make the constructor throw, ``URL.parse`` return null and
    ``URL.can_parse`` return false, with or without a base; a success case must give every getter
    the entry names, ``searchParams`` serialised as the entry says (when it says), and
    ``can_parse`` true."""
    out = []
    for case in load("urltestdata.json"):
        base = case.get("base")
        try:
            url = URL(case["input"], base)
        except URLParseError:
            actual: dict[str, str] | None = None
        else:
            actual = _getters(url)
            if "searchParams" in case:
                actual["searchParams"] = str(url.search_params)
        problems = []
        can_parse = URL.can_parse(case["input"], base)
        parsed = URL.parse(case["input"], base)
        if case.get("failure"):
            if actual is not None:
                problems.append(f"expected failure, got {actual['href']!r}")
            if can_parse:
                problems.append("can_parse should be false")
            if parsed is not None:
                problems.append(f"parse should be None, got {parsed.href!r}")
        elif actual is None:
            problems.append("unexpected failure")
        else:
            for key in (*URL_GETTERS, "searchParams"):
                if key in case and case[key] != actual[key]:
                    problems.append(f"{key}: expected {case[key]!r}, got {actual[key]!r}")
            if not can_parse:
                problems.append("can_parse should be true")
            if parsed is None or parsed.href != actual["href"]:
                problems.append(f"parse should give {actual['href']!r}, got "
                                f"{parsed.href if parsed is not None else None!r}")
        out.append({"input": case["input"], "base": base, "actual": actual,
                    "failure": bool(case.get("failure")), "problems": problems})
    return out


def run_urltestdata_javascript_only() -> list[dict[str, Any]]:
    out = []
    for case in load("urltestdata-javascript-only.json"):
        # Python strings can hold lone surrogates, as JavaScript strings can: the URL class
        # performs the USVString conversion.
        try:
            actual: dict[str, str] | None = _getters(URL(case["input"], case.get("base")))
        except URLParseError:
            actual = None
        problems = []
        if actual is None:
            problems.append("unexpected failure")
        else:
            for key in ("href", "pathname", "search"):
                if case[key] != actual[key]:
                    problems.append(f"{key}: expected {case[key]!r}, got {actual[key]!r}")
        out.append({"input": case["input"].encode("utf-16-le", "surrogatepass").hex(),
                    "actual": actual, "problems": problems})
    return out


def run_setters() -> list[dict[str, Any]]:
    out = []
    for setter, case in setter_cases():
        url = URL(case["href"])
        setattr(url, setter, case["new_value"])
        actual = _getters(url)
        problems = [f"{k}: expected {v!r}, got {actual[k]!r}"
                    for k, v in case["expected"].items() if actual[k] != v]
        out.append({"setter": setter, "href": case["href"], "new_value": case["new_value"],
                    "actual": actual, "problems": problems})
    return out


def _host_through_parser(input: str) -> dict[str, Any]:
    """WPT's toascii/IdnaTestV2 harness: the URL parser, then the host and hostname setters."""
    result: dict[str, Any] = {}
    try:
        url = URL(f"https://{input}/x")
        result["parse"] = url.host
        result["parse_hostname"] = url.hostname
    except URLParseError:
        result["parse"] = None
    u1 = URL("https://x/x")
    u1.host = input
    result["host_setter"] = u1.host
    u2 = URL("https://x/x")
    u2.hostname = input
    result["hostname_setter"] = u2.hostname
    return result


def _check_host(case: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    expected = case["output"]
    problems = []
    if expected is None:
        if actual["parse"] is not None:
            problems.append(f"parser: expected failure, got {actual['parse']!r}")
        if actual["host_setter"] != "x":
            problems.append(f"host setter: expected no change, got {actual['host_setter']!r}")
        if actual["hostname_setter"] != "x":
            problems.append(f"hostname setter: expected no change, got "
                            f"{actual['hostname_setter']!r}")
    else:
        for key in ("parse", "parse_hostname", "host_setter", "hostname_setter"):
            if actual.get(key) != expected:
                problems.append(f"{key}: expected {expected!r}, got {actual.get(key)!r}")
    return problems


def run_toascii() -> list[dict[str, Any]]:
    out = []
    for case in load("toascii.json"):
        actual = _host_through_parser(case["input"])
        out.append({"input": case["input"], "actual": actual,
                    "problems": _check_host(case, actual)})
    return out


def run_idna() -> list[dict[str, Any]]:
    out = []
    for case in load("IdnaTestV2.json"):
        if case["input"] in IDNA_NOT_RUN:
            continue
        actual = _host_through_parser(case["input"])
        problems = _check_host(case, actual)
        known = STALE_REASON if problems and _stale(case["input"]) else None
        out.append({"input": case["input"], "actual": actual, "problems": problems,
                    "known": known})
    return out


def run_percent_encoding() -> list[dict[str, Any]]:
    out = []
    for case in load("percent-encoding.json"):
        for encoding, expected in case["output"].items():
            inp = case["input"]
            result = basic_url_parse(f"https://doesnotmatter.invalid/?{inp}#{inp}", None,
                                     get_encoding(encoding))
            problems = []
            if isinstance(result, ParseFailure) or not hasattr(result, "query"):
                problems.append("unexpected failure")
                actual = None
            else:
                actual = result.query
                if actual != expected:
                    problems.append(f"query: expected {expected!r}, got {actual!r}")
                # WPT (url/percent-encoding.window.js): the fragment is always UTF-8 encoded, so
                # its expectation is the entry's "utf-8" output, whatever the query's encoding.
                frag_expected = case["output"]["utf-8"]
                if result.fragment != frag_expected:
                    problems.append(f"fragment: expected {frag_expected!r}, got "
                                    f"{result.fragment!r}")
            out.append({"input": inp, "encoding": encoding, "actual": actual,
                        "problems": problems})
    return out


def run_urlencoded() -> list[dict[str, Any]]:
    out = []
    for case in load("urlencoded-parser-data.json"):
        actual = [list(pair) for pair in parse_urlencoded_string(case["input"])]
        via_params = [list(pair) for pair in URLSearchParams(case["input"])]
        via_url = [list(pair) for pair in URL("https://x/?" + case["input"]).search_params]
        expected = case["output"]
        problems = [f"{what}: expected {expected!r}, got {got!r}"
                    for what, got in (("parser", actual), ("URLSearchParams", via_params))
                    if got != expected]
        if case["input"].startswith("?") is False and via_url != expected \
                and "#" not in case["input"]:
            problems.append(f"URL.search_params: expected {expected!r}, got {via_url!r}")
        out.append({"input": case["input"], "actual": actual, "problems": problems})
    return out


#: Inputs whose history (kind "history": the changes of the standard whose undoing alters them)
#: must read the same in Pyodide as in CPython (the history data ships in the bundle).
HISTORY_INPUTS = ("sc://a<b/", "http://h/a^b", "https://ab--c.com/", "http://example.com/")


def run_history() -> list[dict[str, Any]]:
    from urlcalc.answers.answer import answer

    out: list[dict[str, Any]] = []
    for input in HISTORY_INPUTS:
        status, body = answer("history", {"input": input})
        actual = {"status": status, "changes": [
            {"name": c["name"], "without": c["without"], "differs": c["differs"],
             "text": len(c["text"])} for c in body.get("changes", [])]}
        problems = [] if status == 200 else [f"status {status}"]
        out.append({"input": input, "actual": actual, "problems": problems})
    return out


RUNNERS = {
    "urltestdata": run_urltestdata,
    "urltestdata-javascript-only": run_urltestdata_javascript_only,
    "setters_tests": run_setters,
    "toascii": run_toascii,
    "IdnaTestV2": run_idna,
    "percent-encoding": run_percent_encoding,
    "urlencoded-parser-data": run_urlencoded,
    "history": run_history,
}


def run_all() -> dict[str, Any]:
    results = {name: run() for name, run in RUNNERS.items()}
    summary = {
        name: {"cases": len(cases), "passed": sum(1 for c in cases if not c["problems"]),
               "known": sum(1 for c in cases if c["problems"] and c.get("known"))}
        for name, cases in results.items()
    }
    return {"engine": engine_info(), "summary": summary, "results": results}


def run_all_json() -> str:
    # ASCII-only JSON: lone surrogates in inputs survive the trip out of Pyodide as escapes.
    return json.dumps(run_all(), ensure_ascii=True, sort_keys=True)


if __name__ == "__main__":
    print(json.dumps(run_all()["summary"], indent=1))
