"""urlcalc: the WHATWG URL Standard in Python, traced step by step.

The public API: ``URL`` and ``URLSearchParams`` (the standard's classes), ``parse`` (the URL
parser returning a record or a failure, with validation errors), and the result model in
``urlcalc.model``.
"""

from __future__ import annotations

from urlcalc.api import GETTERS, SETTERS, URL, URLParseError
from urlcalc.errors import ERROR_TYPES, ValidationError
from urlcalc.parser import ParseFailure, api_url_parse, basic_url_parse, url_parse
from urlcalc.record import URLRecord
from urlcalc.serializer import origin, serialize_url
from urlcalc.urlencoded import URLSearchParams

__version__ = "0.1.0"

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
