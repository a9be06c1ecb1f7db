"""The page's site: which files a browser loads and where they come from (``files``), the headers
every response carries (``headers``: CSP, security headers, MIME types), the browser bundle of
the package (``bundle``), the static export (``export``) and the facts the page shares with
Python (``webfacts``). No HTTP serving here: the static export serves without it.
"""
