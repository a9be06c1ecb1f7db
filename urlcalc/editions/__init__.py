"""Editions: the same input read by six generations of URL specifications.

``EDITIONS`` maps an edition id to its module; every module has the same small interface
(see :class:`urlcalc.editions.edition.Edition`): ``ID``, ``NAME``, ``YEAR``, ``SOURCE``,
``TERMS`` (the edition's own vocabulary), ``UNSPECIFIED`` (what its text leaves open and
what urlcalc does there) and ``parse(input, base) -> EditionResult``.

``urlcalc.editions.compare`` runs them all side by side with the current URL Standard.
"""

from __future__ import annotations

from . import abarth_2010, formal_model, html5_2009, rfc3986, w3c_2012, whatwg_2014
from .edition import GETTERS, Edition, EditionResult, Note

EDITIONS: dict[str, Edition] = {
    "rfc3986": rfc3986,
    "html5_2009": html5_2009,
    "abarth_2010": abarth_2010,
    "w3c_2012": w3c_2012,
    "whatwg_2014": whatwg_2014,
    "formal_model": formal_model,
}


def get_edition(edition_id: str) -> Edition:
    """The edition module for ``edition_id`` (KeyError with the known ids otherwise)."""
    try:
        return EDITIONS[edition_id]
    except KeyError:
        raise KeyError(f"unknown edition {edition_id!r}; known: {', '.join(EDITIONS)}") from None


__all__ = ["EDITIONS", "GETTERS", "Edition", "EditionResult", "Note", "get_edition"]
