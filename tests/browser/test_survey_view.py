"""The Survey view (issue 30, item 4): a report opened from a file or from a same-origin URL in
the permalink (view=survey&report=<url>), its denominators and buckets, an example clicked into
the calculator; and a small corpus surveyed in the page by Pyodide (the "survey" request)."""

from __future__ import annotations

import json

from liveserver import PageProbe, frag
from playwright.sync_api import expect

from urlcalc.survey.observe import Options
from urlcalc.survey.report import make_meta, report_json
from urlcalc.survey.run import survey_lines

HOSTILE = "http://a/?<script>alert(1)</script>`|"
URLS = ["http://a.example/", "http://a b/", HOSTILE, "https://example.com/x/../y", "x"]
BASE = "http://base.example/d/"


def _report() -> dict[str, object]:
    options = Options(base=BASE)
    return dict(report_json(survey_lines(URLS, options), make_meta(options, sources=["t.txt"])))


def test_a_report_file_opens_and_an_example_opens_in_the_calculator(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://start/", view="survey"))
    expect(page.locator("#tab-survey")).to_have_attribute("aria-selected", "true")
    page.set_input_files("#survey-file", files=[{
        "name": "report.json", "mimeType": "application/json",
        "buffer": json.dumps(_report()).encode()}])
    expect(page.locator("#survey-title")).to_have_text("5 URLs")
    expect(page.locator('#survey-denominators dd[data-den="failed"]')).to_have_text("1")
    expect(page.locator('#survey-denominators dd[data-den="parsed"]')).to_have_text("4")
    # the failures' family: the hostile example is text, never markup
    page.select_option("#survey-family", label="Validation errors (2)")
    assert page.locator("#panel-survey script").count() == 0
    page.fill("#survey-filter", "script")
    example = page.locator("#survey-buckets button.survey-ex").first
    expect(example).to_contain_text("<script>alert(1)</script>")
    example.focus()
    page.keyboard.press("Enter")  # keyboard operable
    expect(page.locator("#tab-components")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#input")).to_have_value(HOSTILE)
    expect(page.locator("#base")).to_have_value(BASE)
    probe.assert_clean()


def test_a_report_url_in_the_permalink_same_origin_only(probe: PageProbe) -> None:
    page = probe.page
    body = json.dumps(_report())
    page.route("**/survey-test/report.json",
               lambda route: route.fulfill(status=200, content_type="application/json",
                                           body=body))
    probe.open(frag(input="x", view="survey", report="/survey-test/report.json"))
    expect(page.locator("#survey-title")).to_have_text("5 URLs")
    expect(page.locator(".survey-status")).to_contain_text("/survey-test/report.json")
    page.goto("about:blank")  # (a fresh page: a new fragment alone keeps the report shown)
    page.goto(probe.base_url + "?engine=server#" + frag(
        input="x", view="survey", report="https://evil.example/r.json"))
    expect(page.locator(".survey-status")).to_contain_text("this page's own site only")
    expect(page.locator("#survey-title")).to_have_count(0)


def test_twenty_pasted_urls_surveyed_by_pyodide(probe: PageProbe) -> None:
    page = probe.page
    page.goto(probe.base_url + "?engine=pyodide#" + frag(input="http://a/", view="survey"))
    # (Pyodide's boot: seconds, more on a loaded machine)
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=120_000)
    urls = [f"http://h{i}.example/p?q={i}" for i in range(15)] \
        + ["http://a b/", "http://[::1/", "https://x:99999/", "//no-scheme", "http://\u00e9.example/"]
    page.locator(".survey-here summary").click()
    page.fill("#survey-urls", "\n".join(urls))
    page.fill("#survey-base", "")
    page.click("#survey-run")
    expect(page.locator("#survey-title")).to_have_text("20 URLs", timeout=60_000)
    expect(page.locator('#survey-denominators dd[data-den="failed"]')).to_have_text("4")
    expect(page.locator('#survey-denominators dd[data-den="parsed"]')).to_have_text("16")
    assert page.evaluate("document.body.dataset.engine") == "pyodide"
    # over the page's limit: refused before asking
    page.evaluate("""(n) => {
      const t = document.getElementById("survey-urls");
      t.value = "x\\n".repeat(n);
      t.dispatchEvent(new Event("input"));
    }""", 10_001)
    page.click("#survey-run")
    expect(page.locator(".survey-status")).to_contain_text("at most 10,000")
    probe.assert_clean()
