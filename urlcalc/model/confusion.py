"""The confusion classes and the naive allowlist checks, each defined once, in words.

``CONFUSION_CLASSES`` names the ways two URL parsers can read one string differently, after the
five classes of the 2022 Claroty/Snyk study of 16 URL parsers ("Exploiting URL Parsing
Confusion"): each entry's ``definition`` is the predicate, on the input and the two readings
(the URL Standard's and another implementation's), that ``urlcalc.implementations.confusion``
tests, in the order listed (the first that holds names the disagreement). A disagreement none
of them accounts for is named by what differs ("other: host (userinfo split)").

``NAIVE_CHECKS`` are the allowlist tests a program might write instead of parsing the URL the
way the client that fetches it will: ``urlcalc.implementations.confusion.allowed_host`` flags a
URL that one of them accepts for a host H that the URL's text mentions while the standard's host
is another (or the URL has none: ``mailto:a@good.com`` passes ``"good.com" in url``).

The survey (urlcalc.survey), the Implementations answer and the page (web/js/facts.js, written
by ``python -m urlcalc.site.webfacts``) read both tables from here.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["CONFUSION_CLASSES", "NAIVE_CHECKS", "OTHER", "ConfusionClass", "NaiveCheck"]


class ConfusionClass(TypedDict):
    """A confusion class: ``id`` (the survey's key), ``name`` and ``definition``."""

    id: str
    name: str
    definition: str


class NaiveCheck(TypedDict):
    """A naive allowlist test: ``id``, ``code`` (what a program writes; ``H`` is the allowed
    host, ``url`` the string checked) and ``definition``."""

    id: str
    code: str
    definition: str


#: The classes, in the order they are tested.
CONFUSION_CLASSES: tuple[ConfusionClass, ...] = (
    {"id": "backslash-confusion", "name": "Backslash confusion", "definition": (
        "The input holds a backslash before its query and fragment, and only one of the two "
        "readings takes it for a slash. The standard does in a special URL (http, https, ws, "
        "wss, ftp, file): there the other keeps the backslash (as \\ or %5C) in a username, "
        "password, host or path where the standard's reading has none, or refuses the URL. "
        "In any other URL the standard keeps it: there the other's host or path differs and "
        "the standard's holds the backslash where the other's does not.")},
    {"id": "encoded-data-confusion", "name": "URL-encoded data confusion", "definition": (
        "The input holds a percent-escape (%XX) before its query and fragment, and the "
        "readings differ in a way the escapes account for: the differing username, password "
        "or host are equal once both are percent-decoded (one decodes, the other does not); "
        "or the other's host is the one the standard reads once the escapes are decoded "
        "before parsing (the other decoded before it split the URL); or the standard refuses "
        "the host its escapes decode to while the other keeps them in its host.")},
    {"id": "scheme-confusion", "name": "Scheme confusion", "definition": (
        "The readings disagree about the scheme: both parse but read different schemes; or "
        "the input has no scheme (no ASCII letter, then letters, digits, +, - or ., then a "
        "colon) and one of them refuses it, the other reads it as a relative reference, or "
        "their hosts differ.")},
    {"id": "slash-confusion", "name": "Slash confusion", "definition": (
        "Both read the same scheme, the input's scheme is followed by a number of slashes "
        "other than two (none, one, three or more), and the other refuses the URL or differs "
        "on the host or the path: the standard skips any number of slashes before a special "
        "URL's host, where a parser after RFC 3986 reads a missing slash as no host and an "
        "extra one as an empty host followed by a path.")},
    {"id": "scheme-mixup", "name": "Scheme mixup", "definition": (
        "Both read the same scheme, and every getter that differs (the href aside; when "
        "only the href differs, it differs by the \"/\" of an empty path) differs by a rule "
        "the standard keeps for special schemes: an empty path is \"/\" (and \"\" "
        "otherwise), the scheme's default port is dropped, the host is lowercased and "
        "mapped by IDNA (and percent-encoded as typed otherwise), the origin is a tuple for "
        "http, https, ws, wss and ftp (and opaque otherwise). The other applies such a rule "
        "to a scheme the standard does not, or leaves it out where the standard applies it.")},
)

#: The name of a disagreement no class accounts for starts so ("other: host (IDNA)").
OTHER = "other"

#: The naive allowlist tests, in the order they are tried.
NAIVE_CHECKS: tuple[NaiveCheck, ...] = (
    {"id": "urlsplit-hostname", "code": "urlsplit(url).hostname == H", "definition": (
        "Python's urllib.parse reads the host and the program compares it with the allowed "
        "one.")},
    {"id": "startswith", "code": "url.startswith((\"http://\" + H, \"https://\" + H))",
     "definition": "A prefix test (or a regular expression anchored at the start only)."},
    {"id": "substring", "code": "H in url", "definition": (
        "The allowed host appears anywhere in the string.")},
    {"id": "netloc-endswith", "code": "urlsplit(url).netloc.endswith(H)", "definition": (
        "urllib.parse's authority (userinfo, host and port, as typed) ends with the allowed "
        "host (a standard's host that is a subdomain of it is taken as meant, not as fooling "
        "the test).")},
)
