"""The query of a URL parsed with a document's encoding other than UTF-8 (the basic URL parser's
"encoding", used by HTML for a document's links and forms), against Chromium's own encoders:
each case is an <a href> in a page served in that encoding, and its href as Chromium parsed it.

What this checks: urlcalc's encoders (urlcalc/standard/encoding.py, the Encoding Standard's)
and the query state's "percent-encode after encoding" on what fails to encode (the error's
"&#N;" percent-encoded). A case that led here: ISO-2022-JP in its jis0208 state switches back to
ASCII (ESC ( B) before it reports an error (the encoder's step 11.1), so the "&#8364;" that
follows is read as ASCII; urlcalc once wrote it in jis0208 state."""

from __future__ import annotations

from typing import Any

import pytest

from urlcalc.standard.parser import basic_url_parse
from urlcalc.standard.serializer import serialize_url

ENCODINGS = ["ISO-2022-JP", "Shift_JIS", "EUC-JP", "Big5", "EUC-KR", "gb18030", "GBK",
             "windows-1252", "KOI8-R", "windows-1251", "ISO-8859-2"]
# jis0208 then an unmappable code point (the case above), Roman then one, ASCII around one,
# astral, halfwidth katakana and U+2212 (ISO-2022-JP's own mappings), Latin, Cyrillic, Hangul,
# Han, a private-use code point, and the yen/overline pair.
TEXTS = ["\u4e9c\u20acb", "\u4e9c\u20ac\u4e9c", "\u00a5\u20acb\u203e~", "a\u20acb",
         "\u65e5\U0001F600x", "\uff76\u2212\u00e9", "\u00e4\u00df\u0416\u20ac",
         "\u3042\ud55c\u4e2d\u00fc", "\ue5e5\u2022\u00a0", "~\\\u00a5\u203e"]


def _as_references(text: str) -> str:
    """``text`` in ASCII HTML: every other code point as a character reference (the page's
    bytes are then the same in every encoding, and its DOM holds ``text``)."""
    return "".join(c if ord(c) < 128 else f"&#{ord(c)};" for c in text)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_documents_encoding_encodes_the_query_as_chromium_does(browser: Any,
                                                                 encoding: str) -> None:
    html = (f"<!doctype html><meta charset={encoding}>"
            + "".join(f'<a href="http://x/?{_as_references(t)}">x</a>' for t in TEXTS))
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("http://encoding.test/", lambda route: route.fulfill(
            body=html.encode("ascii"),
            headers={"content-type": f"text/html; charset={encoding}"}))
        page.goto("http://encoding.test/")
        assert page.evaluate("document.characterSet").lower() == encoding.lower()
        chromium = page.evaluate("[...document.links].map((a) => a.href)")
    finally:
        context.close()
    ours = [serialize_url(basic_url_parse("http://x/?" + t, None, encoding=encoding))
            for t in TEXTS]
    assert ours == chromium
