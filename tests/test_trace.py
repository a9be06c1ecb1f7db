"""The trace is an observer: traced and untraced runs give the same answers, and the steps say
what the parser did."""

from __future__ import annotations

from cases import corpus, url_inputs

from urlcalc import URL
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.observer import Step
from urlcalc.standard.parser import STATE_NAMES, ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.trace.recorder import TraceRecorder


def _all_cases() -> list[tuple[str, str | None]]:
    return url_inputs() + corpus()


def _outcome(result: object) -> object:
    if isinstance(result, ParseFailure):
        return ("failure", result.error.name if result.error else result.reason)
    assert isinstance(result, URLRecord)
    return result.snapshot()


def test_traced_and_untraced_paths_agree_on_every_wpt_input_and_the_corpus() -> None:
    for input, base in _all_cases():
        base_record = None
        if base is not None:
            b = basic_url_parse(base)
            if not isinstance(b, URLRecord):
                continue
            base_record = b
        plain_errors: list[ValidationError] = []
        traced_errors: list[ValidationError] = []
        plain = basic_url_parse(input, base_record, errors=plain_errors)
        traced = basic_url_parse(input, base_record, observer=TraceRecorder(),
                                 errors=traced_errors)
        assert _outcome(plain) == _outcome(traced), (input, base)
        assert plain_errors == traced_errors, (input, base)


def _steps(input: str, base: str | None = None) -> list[Step]:
    rec = TraceRecorder()
    b = basic_url_parse(base) if base else None
    assert b is None or isinstance(b, URLRecord)
    basic_url_parse(input, b, observer=rec)
    return rec.steps


def test_url_steps_have_state_pointer_c_buffer_flags_and_changes() -> None:
    steps = [s for s in _steps("http://u:p@h.com:8/a?q#f") if s["parser"] == "url"]
    assert steps[0]["state"] == "scheme start state" and steps[0]["c"] == "h"
    assert all(s["state"] in STATE_NAMES.values() for s in steps)
    assert steps[-1]["c"] is None  # EOF
    scheme = next(s for s in steps if "scheme" in s["changes"])
    assert scheme["changes"] == {"scheme": "http"} and scheme["step"] == "2.7"
    at = next(s for s in steps if s["c"] == "@")
    assert at["flags"]["at_sign_seen"] and at["flags"]["password_token_seen"]
    assert at["errors"] == ["invalid-credentials"]
    assert at["changes"] == {"username": "u", "password": "p"}
    port = next(s for s in steps if "port" in s["changes"])
    assert port["changes"]["port"] == 8
    assert [s["i"] for s in _steps("http://x/")] == list(range(len(_steps("http://x/"))))


def test_opaque_path_and_fragment_grow_at_each_step_as_in_the_spec() -> None:
    # url.bs: opaque path state 3-4 and fragment state 1.3 append to the record at once (the
    # parser defers the joins for linear time; the trace shows the spec's view, no buffer).
    steps = [s for s in _steps("mailto:a b?x#f g") if s["parser"] == "url"]
    opaque = [s for s in steps if s["state"] == "opaque path state"]
    assert [s["changes"] for s in opaque] == [{"path": "a"}, {"path": "a "}, {"path": "a b"},
                                              {"query": ""}]
    # the leaf steps: 4.3 appends, 3.3 appends a space not followed by ? or #
    assert [s["step"] for s in opaque] == ["4.3", "3.3", "4.3", "1"]
    fragment = [s for s in steps if s["state"] == "fragment state"]
    assert [s["changes"] for s in fragment] == [{"fragment": "f"}, {"fragment": "f%20"},
                                                {"fragment": "f%20g"}, {}]
    assert all(s["buffer"] == "" for s in opaque + fragment)
    query = [s for s in steps if s["state"] == "query state"]
    assert query[0]["buffer"] == "x"  # the query state does use buffer (url.bs: query state 3)


def test_host_substeps_follow_the_url_step_that_calls_them() -> None:
    # One ordering rule (issue 26): a step, then the steps of the algorithms it calls, nested
    # under it: host state 3.3 ("Let host be the result of host parsing buffer ...") calls the
    # host parser, whose events follow at depth 1, the domain parser's at 2, UTS #46's at 3.
    steps = _steps("https://faß.example/")
    i = next(i for i, s in enumerate(steps) if s["parser"] == "url" and "host" in s["changes"])
    assert [r["step"] for r in steps[i]["ran"]] == ["3.3", "3.5"]
    assert steps[i]["ran"][0]["calls"] == "host parser"
    assert steps[i]["ran"][1]["changes"] == {"host": "xn--fa-hia.example"}
    sub = []
    for s in steps[i + 1:]:
        if s["depth"] == 0:
            break
        sub.append(s)
    parsers = [s["parser"] for s in sub]
    assert "host" in parsers and "domain" in parsers and "uts46" in parsers
    assert all(s["called_by"] == {"algorithm": "host state", "step": "3.3"}
               for s in sub if s["parser"] == "host")
    depth = {s["parser"]: s["depth"] for s in sub}
    assert depth["host"] == 1 and depth["domain"] == 2 and depth["uts46"] == 3
    # UTS #46's order: Processing 1-4 (map, normalize, break, convert/validate), then ToASCII
    # step 3 (Punycode-encode) after validation.
    stages = [s["state"] for s in steps if s["parser"] == "uts46"]
    assert stages[:6] == ["UTS #46 map", "UTS #46 normalize", "UTS #46 break",
                          "UTS #46 convert", "UTS #46 validate", "UTS #46 encode"]


def test_ipv4_ipv6_and_shorten_are_traced() -> None:
    assert any(s["parser"] == "ipv4" for s in _steps("http://0x7f.1/"))
    assert any(s["parser"] == "ipv6" for s in _steps("http://[1::2]/"))
    shorten = [s for s in _steps("http://a/b/c/../d") if s["parser"] == "shorten"]
    assert shorten and shorten[0]["removed"] == "c"


def test_failure_step_is_recorded() -> None:
    steps = _steps("http://a:99999/")
    assert steps[-1]["outcome"] == "failure" and steps[-1]["errors"] == ["port-out-of-range"]


def test_setters_are_traced_with_early_returns() -> None:
    url = URL("mailto:x@y")
    rec = TraceRecorder()
    reason = url.set("host", "example.com", rec)
    assert reason == "host setter, step 1: If this's URL has an opaque path, then return."
    assert rec.steps[0]["parser"] == "setter" and "opaque path" in rec.steps[0]["note"]
    url = URL("https://a.com/")
    rec = TraceRecorder()
    reason = url.set("protocol", "mailto", rec)
    assert reason is not None and "special" in reason
    assert rec.steps[-1]["outcome"] == "return"
    url = URL("file:///x")
    rec = TraceRecorder()
    assert url.set("username", "u", rec) == "username setter, step 1: If this's URL cannot " \
        "have a username/password/port, then return."
    rec = TraceRecorder()
    url = URL("https://a.com/")
    assert url.set("port", "8080", rec) is None
    assert any(s.get("state") == "port state" for s in rec.steps)


def test_recorder_is_bounded() -> None:
    rec = TraceRecorder(max_steps=50)
    basic_url_parse("http://a/" + "x" * 1000, observer=rec)
    assert len(rec.steps) == 50 and rec.dropped > 900
    assert rec.to_json()["truncated"] is True


def test_a_full_recorder_counts_host_steps_without_their_details() -> None:
    # Once the recorder is full the UTS #46 stages are reported without details (no per-label
    # lists on a 100,000-label domain), and counted all the same.
    text = "http://" + "\u00fc." * 50 + "com/"
    full = TraceRecorder()
    basic_url_parse(text, observer=full)
    uts46 = [s for s in full.steps if s["parser"] == "uts46"]
    assert uts46 and all(s["details"] for s in uts46)
    empty = TraceRecorder(max_steps=0)
    basic_url_parse(text, observer=empty)
    assert empty.steps == [] and empty.dropped == len(full.steps)
    assert empty.counts_only and not full.counts_only


def test_a_counting_observer_gets_uts46_stages_without_details() -> None:
    from urlcalc.standard.host import host_parse
    from urlcalc.trace.driver import Described

    class Counting(list[Step]):
        counts_only = True

        def __call__(self, step: Step) -> None:
            self.append(step)

    counting, detailed = Counting(), TraceRecorder()
    host_parse("\u00fc.example", False, observer=Described(counting))
    host_parse("\u00fc.example", False, observer=detailed)
    assert [s["state"] for s in counting] == [s["state"] for s in detailed.steps]
    stages = [s for s in counting if s["parser"] == "uts46"]
    assert stages and all(s["details"] == {} for s in stages
                      if s["state"] != "UTS #46 verify-dns-length")


def test_port_digits_are_port_state_step_1() -> None:
    # url.bs, port state, step 1: "If c is an ASCII digit, append c to buffer." (by hand)
    rec = TraceRecorder()
    basic_url_parse("http://h:8080/", observer=rec)
    digits = [s for s in rec.steps if s.get("state") == "port state" and s.get("c", "").isdigit()]
    assert [s["c"] for s in digits] == ["8", "0", "8", "0"]
    assert {s["step"] for s in digits} == {"1"}


def _host_steps(href: str) -> list[Step]:
    rec = TraceRecorder()
    basic_url_parse(href, observer=rec)
    return [s for s in rec.steps if s.get("depth", 0) >= 1]


def test_ipv4_parts_note_counts_the_parts() -> None:
    # url.bs, IPv4 parser, step 1: "Let parts be the result of strictly splitting input on
    # U+002E (.)." Counted by hand: "1.2.3" has 3 parts, "0x1.2" 2, "1.2.3.4." 4 after step 2
    # removes the trailing empty part.
    for href, parts in (("http://1.2.3/", "3 parts"), ("http://0x1.2/", "2 parts"),
                        ("http://1.2.3.4./", "4 parts"), ("http://0x7f/", "1 part")):
        # the first IPv4 parser step reports the split (at step 1, or step 3 when fewer than 4)
        first = next(s for s in _host_steps(href) if s["state"] == "IPv4 parser")
        assert first["note"].split(" (")[0] == parts, href


def test_ipv6_failures_are_steps_with_the_failure_outcome() -> None:
    # url.bs, IPv6 parser: step 6.2.1 "If compress is non-null, IPv6-multiple-compression
    # validation error, return failure."; step 5.1 (step 5: "If c is U+003A (:), then:") "If
    # remaining does not start with U+003A (:), IPv6-invalid-compression validation error, return
    # failure."
    for href, step in (("http://[1::2::3]/", "6.2.1"), ("http://[:1]/", "5.1")):
        last = _host_steps(href)[-1]
        assert (last["state"], last["step"], last.get("outcome")) == ("IPv6 parser", step,
                                                                       "failure"), href


def test_strict_domain_failure_note_lists_each_error() -> None:
    # url.bs, domain to ASCII with beStrict true: UTS #46 with CheckHyphens and UseSTD3ASCIIRules
    # true. By hand from UTS #46: "-x_" begins with "-" (V3) and "_" is disallowed under STD3
    # rules (U1): the domain parser's step 1 names both.
    [note] = [s["note"] for s in _host_steps("http://-x_/")
              if s["state"] == "domain parser" and s["step"] == "1"]
    listed = note[note.index("failure (") + len("failure ("):note.rindex(")")]
    assert sorted(listed.split(", ")) == ["U1", "V3"]


def test_ipv6_compression_expansion_is_step_7() -> None:
    # url.bs, IPv6 parser, step 7: "If compress is non-null, then: ... swap ..." (the pieces after
    # "::" move to the end): "[1::2]" goes through it, "[1:2:3:4:5:6:7:8]" does not.
    def steps(href: str) -> list[str | None]:
        return [s["step"] for s in _host_steps(href) if s["state"] == "IPv6 parser"]

    # (step 7 is "If compress is non-null, then:"; its leaf 7.3 swaps)
    assert "7.3" in steps("http://[1::2]/") and "7.3" not in steps("http://[1:2:3:4:5:6:7:8]/")


def test_a_plain_callable_is_refused_and_described_gives_it_the_recorders_steps() -> None:
    # The standard layer does not describe steps: an observer says how (url_steps). A plain
    # callable is refused; urlcalc.trace.driver.Described gives it the steps a recorder keeps.
    import pytest

    from urlcalc.trace.driver import Described

    seen: list[Step] = []
    with pytest.raises(TypeError, match="url_steps"):
        basic_url_parse("http://a/", observer=seen.append)
    basic_url_parse(" http://u@[1::2]/a/../b?q#f", observer=Described(seen.append))
    rec = TraceRecorder()
    basic_url_parse(" http://u@[1::2]/a/../b?q#f", observer=rec)
    assert seen == [{k: v for k, v in s.items() if k != "i"} for s in rec.steps]
    assert {s["parser"] for s in seen} >= {"url", "host", "ipv6", "shorten"}


def test_host_states_return_the_step_that_applied() -> None:
    # The host parser's states, like the URL parser's, return their step (url.bs, host parser:
    # step 5 percent-decodes, step 8 hands a domain ending in a number to the IPv4 parser) and
    # say which state runs next; the trace layer writes the steps.
    from urlcalc.standard import host

    run = host.HostParserRun("0x7F.1", False, lambda *a: None, None)
    assert host.host_parser_start(run) == "5" and run.state is host.host_parser_domain
    # untraced, the domain's steps 6-7 return no step of their own; step 8 is the IPv4 parser's
    assert host.host_parser_domain(run) is None and run.state is host.host_parser_ipv4
    assert host.host_parser_ipv4(run) == "8" and run.state is None
    assert run.result == 0x7F000001
    ipv6 = host.IPv6Run("1::", lambda *a: None, None)
    assert [host.ipv6_start(ipv6), host.ipv6_piece(ipv6), host.ipv6_set_piece(ipv6),
            host.ipv6_piece(ipv6), host.ipv6_piece(ipv6), host.ipv6_end(ipv6),
            host.ipv6_return(ipv6)] == [None, None, "6.9", "6.2.2", None, "7.3", "9"]
    assert ipv6.address == [1, 0, 0, 0, 0, 0, 0, 0]
