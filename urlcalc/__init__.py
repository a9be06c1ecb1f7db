"""urlcalc: the WHATWG URL Standard in Python, traced step by step.

The public API: ``URL`` and ``URLSearchParams`` (the standard's classes), ``parse`` (the URL
parser returning a record or a failure, with validation errors), and the result model in
``urlcalc.model.results``.
"""

from __future__ import annotations

from urlcalc.model.runtime import VERSION as __version__
from urlcalc.standard.errors import ERROR_TYPES, ValidationError
from urlcalc.standard.parser import ParseFailure, api_url_parse, basic_url_parse, url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.serializer import origin, serialize_url
from urlcalc.standard.url import GETTERS, SETTERS, URL, URLParseError
from urlcalc.standard.urlencoded import URLSearchParams

__all__ = [
    "ERROR_TYPES",
    "GETTERS",
    "SETTERS",
    "URL",
    "ParseFailure",
    "URLParseError",
    "URLRecord",
    "URLSearchParams",
    "ValidationError",
    "__version__",
    "api_url_parse",
    "basic_url_parse",
    "origin",
    "serialize_url",
    "url_parse",
]
