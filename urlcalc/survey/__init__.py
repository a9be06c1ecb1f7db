"""Surveys: the calculator pointed at a corpus of URLs ("how many real URLs does this touch?").

The counting is plain Python, with no distribution in it, so the page (Pyodide), the tests and a
single process run it directly:

* ``observe`` reads one URL and says which buckets it falls into (``Observation``: parses or
  fails and where, each validation error, each state-machine step and host-parser path taken,
  and, when asked, each implementation's, edition's and history change's disagreement);
* ``tally`` keeps mergeable counts (``Tally``): a count and a few deterministic examples per
  bucket; two tallies merge associatively and commutatively, so partitions combine in any
  order and a report does not depend on how the corpus was split;
* ``sources`` reads corpora (text, CSV/TSV, JSON Lines, Parquet; compressed; local or fsspec),
  counting every line it cannot read instead of dropping it;
* ``run`` surveys sources on one process or on a Dask cluster (the optional ``urlcalc[survey]``
  extra), partition by partition, resumable;
* ``report`` writes what people read: JSON (the schema in docs/survey.md), Markdown for a spec
  issue, and a self-contained HTML page.
"""
