"""Issue 26, item 3: the Validation view badges "failure" from what happened (the result
model's ``failed_with``), not from the error table; where the step that returned failure raises
no validation error, the view says so."""

from __future__ import annotations

from liveserver import PageProbe, frag
from playwright.sync_api import expect


def _errors(page: object) -> object:
    return page.locator("#panel-validation [data-validation-error]")  # type: ignore[attr-defined]


def test_urls_that_parse_have_no_failure_badge(probe: PageProbe) -> None:
    for input in ("https://EXAMPLE.com./", "https://xn--a.com/"):
        page = probe.open(frag(input=input, view="validation"))
        item = page.locator('#panel-validation [data-validation-error="domain-to-ASCII"]')
        expect(item).to_have_count(1)
        expect(item).to_have_attribute("data-failed-with", "false")
        expect(item.locator(".verr-failed")).to_have_count(0)
        expect(page.locator("#panel-validation .pill", has_text="failure")).to_have_count(0)
        # the table's word stays, as information
        expect(item.locator(".verr-can-fail")).to_contain_text("yes, when beStrict is true")
        expect(page.locator("#validation-failure")).to_have_count(0)
        expect(page.locator("#panel-validation [data-parses]")).to_have_attribute(
            "data-parses", "true")
    probe.assert_clean()


def test_a_failure_at_a_step_that_raises_no_error(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://a b/", view="validation"))
    item = page.locator('#panel-validation [data-validation-error="domain-to-ASCII"]')
    expect(item).to_have_attribute("data-failed-with", "false")
    expect(page.locator("#panel-validation .verr-failed")).to_have_count(0)
    note = page.locator("#validation-failure")
    expect(note).to_have_attribute("data-raises", "false")
    expect(note).to_contain_text(
        "The parse failed at domain parser, step 8, a step that raises no validation error.")
    expect(note.locator("a.fail-step")).to_have_attribute(
        "href", "https://url.spec.whatwg.org/#concept-domain-to-ascii")
    probe.assert_clean()


def test_the_error_the_parse_failed_with_is_badged(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://u@h:b/", view="validation"))
    failed = page.locator('#panel-validation [data-validation-error="port-invalid"]')
    expect(failed).to_have_attribute("data-failed-with", "true")
    expect(failed.locator(".verr-failed")).to_have_text("failure")
    other = page.locator('#panel-validation [data-validation-error="invalid-credentials"]')
    expect(other).to_have_attribute("data-failed-with", "false")
    expect(page.locator("#panel-validation .verr-failed")).to_have_count(1)
    note = page.locator("#validation-failure")
    expect(note).to_have_attribute("data-raises", "true")
    expect(note).to_contain_text("The parse failed at port state, step 3, with the port-invalid")
    probe.assert_clean()
