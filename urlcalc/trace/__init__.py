"""Tracing and citations: what the standard's algorithms did, step by step, recorded for a
person to read. The recorder (``recorder``: a bounded observer that keeps the outline of
every state-machine step however short the trace) and the drivers that turn the step numbers
the algorithms return into described, cited trace steps (``driver``: the URL parser's states;
``host_driver``: the host parser's algorithms). Built on the standard; nothing here changes a
result.
"""
