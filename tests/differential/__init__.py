"""Differential testing against whatwg-url (the URL Standard's reference implementation).

reference.mjs (node side), generate.py (tricky inputs), runner.py (both sides and the
comparison), known.py (documented reference divergences). Installed by `make differential-deps`;
used by tests/test_differential.py and `make fuzz` (benchmarks/fuzz.py).
"""
