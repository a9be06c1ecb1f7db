"""The request table: every kind of question urlcalc answers (``parse``, ``set``, ``host``,
``compare`` ...), with its parameters (``kinds``), and the one function that answers a request of
any kind with a status and a body (``answer``), the same for the JSON API, the socket and the
Pyodide worker; ``warmup`` answers each kind once for the page's boot snapshot. Above the model,
the editions and the implementations it dispatches to.
"""
