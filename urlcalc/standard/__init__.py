"""The URL Standard itself: the algorithms of url.bs and the Infra, Encoding and UTS #46 pieces
they lean on, one module per area of the standard (``infra``, ``encoding``, ``percent``,
``uts46``, ``record``, ``host``, ``parser`` with one function per parser state, ``serializer``,
``urlencoded``, ``url``: the ``URL`` class with its getters and setters, ``validity``: the valid
URL string checker), the standard's numbered steps as data (``steps``) and the vocabulary the
algorithms use to tell an optional observer what they did (``observer``). This layer imports
nothing else of urlcalc: every other layer is built on it.
"""
