"""urlcalc: the WHATWG URL Standard in Python, traced step by step.

Exported here: the standard's classes ``URL`` (whose constructor raises ``URLParseError``, a
TypeError) and ``URLSearchParams``, with ``GETTERS`` and ``SETTERS`` (the URL API's names); the
parsers ``basic_url_parse``, ``url_parse`` and ``api_url_parse`` (a ``URLRecord`` or a
``ParseFailure``; validation errors go to an ``errors`` list of ``ValidationError``, and
``ERROR_TYPES`` describes each by name), the URL serializer ``serialize_url`` and ``origin``; and
``__version__``.
The models the page and the JSON API answer with are in ``urlcalc.model.results``.
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
