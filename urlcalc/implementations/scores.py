"""WPT scores per implementation: passing cases per file. Written by `make interop`
(benchmarks/interop.py), together with docs/interop.md; do not edit by hand."""

from __future__ import annotations

from typing import Any

FILES: tuple[str, ...] = (
    'urltestdata.json',
    'urltestdata-javascript-only.json',
    'setters_tests.json',
    'toascii.json',
    'IdnaTestV2.json',
    'urlencoded-parser-data.json',
)
MEASURED = (
    'Measured 2026-11-23 on CPython 3.11.7, node 20.20.2, Debian Chromium '
    '156.0.8078.79.'
)
SCORES: dict[str, dict[str, Any]] = {
    "urlcalc": {
        "name": "urlcalc (the URL Standard)",
        "version": "0.1.0",
        "scores": {
            "urltestdata.json": [
                891,
                891
            ],
            "urltestdata-javascript-only.json": [
                1,
                1
            ],
            "setters_tests.json": [
                278,
                278
            ],
            "toascii.json": [
                87,
                87
            ],
            "IdnaTestV2.json": [
                2668,
                2670
            ],
            "urlencoded-parser-data.json": [
                35,
                35
            ]
        }
    },
    "whatwg-url": {
        "name": "whatwg-url",
        "version": "17.3.0",
        "scores": {
            "urltestdata.json": [
                891,
                891
            ],
            "urltestdata-javascript-only.json": [
                1,
                1
            ],
            "setters_tests.json": [
                278,
                278
            ],
            "toascii.json": [
                87,
                87
            ],
            "IdnaTestV2.json": [
                2668,
                2670
            ],
            "urlencoded-parser-data.json": [
                35,
                35
            ]
        }
    },
    "node": {
        "name": "Node.js URL",
        "version": "ada 2.9.2",
        "scores": {
            "urltestdata.json": [
                876,
                891
            ],
            "urltestdata-javascript-only.json": [
                1,
                1
            ],
            "setters_tests.json": [
                264,
                278
            ],
            "toascii.json": [
                73,
                87
            ],
            "IdnaTestV2.json": [
                1837,
                2670
            ],
            "urlencoded-parser-data.json": [
                35,
                35
            ]
        }
    },
    "ada": {
        "name": "ada-url",
        "version": "4.0.0",
        "scores": {
            "urltestdata.json": [
                891,
                891
            ],
            "urltestdata-javascript-only.json": [
                0,
                1
            ],
            "setters_tests.json": [
                278,
                278
            ],
            "toascii.json": [
                87,
                87
            ],
            "IdnaTestV2.json": [
                2670,
                2670
            ],
            "urlencoded-parser-data.json": [
                30,
                35
            ]
        }
    },
    "urllib": {
        "name": "urllib.parse",
        "version": "3.11.7",
        "scores": {
            "urltestdata.json": [
                283,
                891
            ],
            "urltestdata-javascript-only.json": [
                0,
                1
            ],
            "toascii.json": [
                24,
                87
            ],
            "IdnaTestV2.json": [
                991,
                2670
            ],
            "urlencoded-parser-data.json": [
                35,
                35
            ]
        }
    },
    "rfc3986": {
        "name": "rfc3986",
        "version": "2.0.0",
        "scores": {
            "urltestdata.json": [
                384,
                891
            ],
            "urltestdata-javascript-only.json": [
                0,
                1
            ],
            "toascii.json": [
                42,
                87
            ],
            "IdnaTestV2.json": [
                2108,
                2670
            ]
        }
    },
    "yarl": {
        "name": "yarl",
        "version": "1.25.1",
        "scores": {
            "urltestdata.json": [
                301,
                891
            ],
            "urltestdata-javascript-only.json": [
                0,
                1
            ],
            "toascii.json": [
                62,
                87
            ],
            "IdnaTestV2.json": [
                2115,
                2670
            ],
            "urlencoded-parser-data.json": [
                23,
                35
            ]
        }
    },
    "chromium": {
        "name": "Chromium (new URL)",
        "version": "156.0.8078.79",
        "scores": {
            "urltestdata.json": [
                799,
                891
            ],
            "urltestdata-javascript-only.json": [
                1,
                1
            ],
            "setters_tests.json": [
                250,
                278
            ],
            "toascii.json": [
                82,
                87
            ],
            "IdnaTestV2.json": [
                2628,
                2670
            ],
            "urlencoded-parser-data.json": [
                35,
                35
            ]
        }
    }
}
