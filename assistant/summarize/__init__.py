"""Summarize stage (DESIGN §2): HierSphere two-sided summaries, verification, balance.

* :mod:`assistant.summarize.evidence` — retrieved documents prepared for
  summarizing (passages, sentences with offsets);
* :mod:`assistant.summarize.hiersphere` — local summaries over groups of
  documents, then the editorial merge (paper 004 §5), deterministic or model;
* :mod:`assistant.summarize.verify` — every reference checked against the text
  it cites; unsupported ones removed;
* :mod:`assistant.summarize.balance` — the per-side balance report.
"""
