"""Evaluation harnesses over the benchmarks in ../shared/data (read by path).

* :mod:`assistant.eval.metrics` — the papers' metrics as pure functions.
* :mod:`assistant.eval.cache` — embed a text list once, cached on disk.
* :mod:`assistant.eval.pir` — ``sphere eval pir`` (paper 000, PIR demo).
* :mod:`assistant.eval.mpr` — ``sphere eval mpr`` (paper 003, Recipe-MPR).
* :mod:`assistant.eval.lookup` — ``sphere eval lookup`` (lookups through the
  product's own path, Recipe-MPR).
"""
