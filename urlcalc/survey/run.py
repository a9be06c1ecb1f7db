"""Surveying on one process: URLs in, a tally out (urlcalc.survey.distributed spreads the same
work over a Dask cluster, partition by partition)."""

from __future__ import annotations

from collections.abc import Iterable

from urlcalc.survey.observe import Options
from urlcalc.survey.reader import Reader
from urlcalc.survey.tally import Tally

#: A line from a source: a URL (str), or an unreadable line (reason, where).
Line = str | tuple[str, str]


def survey_lines(lines: Iterable[Line], options: Options, reader: Reader | None = None
                 ) -> Tally:
    """Survey ``lines`` (URLs, or (reason, where) pairs for lines that could not be read)."""
    r = reader if reader is not None else Reader(options)
    t = Tally()
    for line in lines:
        if isinstance(line, tuple):
            t.add_unreadable(*line)
        else:
            keys, steps = r.read(line)
            t.add(line, keys, {"step": steps})
    return t
