"""Retrieval math (pure numpy) and, later, the index-backed retriever.

* :mod:`assistant.retrieval.pap` — Perspective-aware Projection (PAP, PAP+;
  paper 000 §3.1), the efficient PAP+ re-scoring of inner-product candidates
  (DESIGN §4), the vector-intervention baselines of paper 000 Table 4, and the
  ``sphere`` perspective policy (:func:`sphere_pap_scores`).
* :mod:`assistant.retrieval.fusion` — monolithic late fusion and aspect fusion
  (paper 003 §2.2.2, §4.3), reciprocal rank fusion, maximal marginal relevance.
"""
