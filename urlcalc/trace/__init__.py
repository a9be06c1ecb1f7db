"""Tracing and citations: what the standard's algorithms did, step by step, recorded for a
person to read. The recorder (``recorder``: a bounded observer), the outline of every
state-machine step (``outline``) and the driver that turns the states' returned step numbers
into described, cited trace steps. Built on the standard; nothing here changes a result.
"""
