"""Why a line of a corpus cannot be read: the keys of a tally's "unreadable" family, one list
for the sources (urlcalc.survey.sources) and the page's pasted text (urlcalc.survey.report)."""

from __future__ import annotations

from urlcalc.model.limits import MAX_SURVEY_LINE_BYTES

# Why a line cannot be read (the keys of the tally's "unreadable" family).
NOT_UTF8 = "not UTF-8"
LONE_SURROGATE = "lone surrogate"
NUL = "NUL character"
TOO_LONG = f"line over {MAX_SURVEY_LINE_BYTES} bytes"
EMPTY = "empty line"
NO_COLUMN = "no such column in this row"
BAD_CSV = "CSV row cannot be read"
BAD_JSON = "not JSON"
NOT_OBJECT = "JSON line neither an object nor a string"
NOT_STRING = "value not a string"
NULL = "null value"
REASONS = (NOT_UTF8, LONE_SURROGATE, NUL, TOO_LONG, EMPTY, NO_COLUMN, BAD_CSV, BAD_JSON,
           NOT_OBJECT, NOT_STRING, NULL)
