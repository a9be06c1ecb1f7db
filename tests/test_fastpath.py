"""The fast path builds exactly the record the state machine builds, and only for inputs on
which the state machine raises no validation error."""

from __future__ import annotations

import pytest
from cases import corpus, url_inputs

from urlcalc.standard.errors import ValidationError
from urlcalc.standard.fastpath import fast_parse
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord

CASES = url_inputs() + corpus()


def _slow_base(base: str | None) -> URLRecord | None:
    if base is None:
        return None
    b = basic_url_parse(base, _fast=False)
    return b if isinstance(b, URLRecord) else None


def test_fast_path_agrees_with_the_state_machine() -> None:
    taken = 0
    for input, base in CASES:
        base_record = _slow_base(base)
        if base is not None and base_record is None:
            continue
        fast = fast_parse(input, base_record)
        if fast is None:
            continue
        taken += 1
        errors: list[ValidationError] = []
        slow = basic_url_parse(input, base_record, errors=errors, _fast=False)
        assert not isinstance(slow, ParseFailure), input
        assert isinstance(slow, URLRecord)
        assert fast.snapshot() == slow.snapshot(), (input, base)
        assert errors == [], (input, base, errors)
    # The corpus is mostly plain web URLs: the fast path must take most of them.
    assert taken > 8000


@pytest.mark.parametrize("input", [
    "http://user@a.com/", "http://1.2.3.4.5/", "http://01.2.3.4/", "http://[::01]/",
    "http://a..b/", "http://xn--a.com/", "file:///x", "http://a.com/ x", "http://a.com/\\x",
    "http://0x7f/", "http://a.com:99999/", "http://a.com/#a#b", "http://-a.com/",
])
def test_quirky_inputs_take_the_state_machine(input: str) -> None:
    assert fast_parse(input, None) is None
