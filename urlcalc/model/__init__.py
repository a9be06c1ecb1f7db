"""The result model: one JSON-ready, typed description of what the URL Standard does with an
input (``results``), where each component came from (``provenance``), every bound on a request
(``limits``) and which engine computed it (``runtime``). The CLI, the JSON API, the page and the
notebook all read these answers; built on the standard and the trace.
"""
