"""The main text of a saved web page: trafilatura, with furniture cleared around it.

Main-content extraction is trafilatura's (Barbaresi 2021, ACL demo), chosen
over resiliparse on 208 real saved pages (docs/INGEST.md, ``sphere eval
html``). Around it:

* before: footnote markers (``<sup>1</sup>``, ``<sup>[2]</sup>``) are removed,
  and elements whose class or id names page furniture (comments, share
  buttons, cookie banners, footnote and reference lists: ``furniture.yaml``);
* after: every block (heading, list item, paragraph) is a line of its own, so
  a heading never runs into the sentence after it; leftover entities are
  decoded, inline markers such as ``[3]`` dropped, and furniture lines
  ("Read more", "Share", cookie notices) removed.

A page trafilatura finds no main text in (a short page, a plain list) falls
back to all of its body text, block by block.
"""

from __future__ import annotations

import html as html_lib
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

_FURNITURE = Path(__file__).with_name("furniture.yaml")
# a footnote marker: 1, [12], (iv), *, †
_MARKER_TEXT = re.compile(r"\s*[\[(]?\s*(?:\d{1,3}|[ivxIVX]{1,5}|[*†‡§])\s*[\])]?\s*")
# a marker glued to the word before: "unrest[3]", "unrest [3, 4]", "situation[ii]," (a Roman
# one not followed by a letter: "“[i]n one hospital" is an editor's bracket, not a note)
_INLINE_MARKER = re.compile(
    r"(?<=\S)\s?(?:\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]|\[[ivx]{1,5}\](?![A-Za-z]))"
)
# a note number typed as plain text after a sentence's last word and stop: "… part of
# the state.4 As to …", "… would be evened.4" (a word of three small letters before it,
# a capital or the block's end after it: "No.1 hit", "pp.12" and "2.4 GHz" stay)
_GLUED_NOTE = re.compile(
    r"(?:(?<=[a-z]{3}[.!?])|(?<=[a-z]{3}[.!?][”’\"')]))\d{1,3}(?=\s+[A-Z“‘\"']|$)"
)
_ENTITY = re.compile(r"&(?:#\d{1,6}|#x[0-9a-fA-F]{1,5}|[A-Za-z]{2,8});")
_URL = re.compile(r"\b(?:https?://|www\.)\S+")
# a line that continues the one before: closing punctuation (not an ellipsis) first
_CONTINUES = re.compile(r"[.,;:!?)\]”](?!\.)")
# a reference-list entry: a note number, then a citation holding a link
_NOTE_ENTRY = re.compile(r"^\s*(?:\[\d{1,3}\]|\(\d{1,3}\)|\^?\d{1,3}[.)]?)\s")
# a line that ends on a bare link: with a quoted title or a year, a short one is a
# reference entry ("“Facebook is bad for you”, The Economist, Aug 17th 2013 http://…",
# "*Whyte, 1983, http://…"); prose ends on a link in brackets if at all ("… Solomon
# Northup (http://…)", 57 words, stays)
_ENDS_ON_LINK = re.compile(r"(?<![(\[])(?:https?://|www\.)\S+\s*$")
REFERENCE_MAX_WORDS = 40
# an endnote: a line that opens on a bracketed note number ("[4] Gould, Stephen. 2002.",
# "[ii] Joint letter to the Telegraph", "[6] ibid"), with or without a link
# a counter: "- 34992 reads", "1,204 views" (the word is checked against counter_words)
_COUNTER = re.compile(r"^[-–•·|]?\s*\d[\d,.\s]*\s([A-Za-z]+)$")
_ENDNOTE = re.compile(r"^\[(?:\d{1,3}|[ivxIVX]{1,5})\]\s*\S")
# a reference-list entry with no brackets and no link: a note number, then an author in
# citation form, "Surname, I." ("1 Ide, M. Google Says …") or "Surname, Given" with a
# quoted title or a year after it ("2Pakko, Michael R., 'Clearing the Haze? …'")
_CITATION = re.compile(
    r"^\s*\^?\d{1,3}\s?[A-Z][\w'’\-]+,\s+(?:(?P<initial>[A-Z]\.)|[A-Z][\w'’\-]+)"
)
_CITES = re.compile(r"[\"'‘’“”]|\b(?:1[5-9]|20)\d\d\b")
# a bulleted reference entry: a list marker, an author in citation form, a quoted title
# or a year, and a link ("- Denholm, David “Guess What …” LabourUnionReport.com
# 21/02/2011 http://…"); without the link a bulleted line may be a point of the text
_BULLET_CITATION = re.compile(r"^\s*[-–•·*]\s*[A-Z][\w'’\-]+,\s+(?:[A-Z]\.|[A-Z][\w'’\-]+)")


@cache
def furniture() -> dict[str, Any]:
    """The furniture word lists (``furniture.yaml``), loaded once."""
    data = yaml.safe_load(_FURNITURE.read_text(encoding="utf-8"))
    return {
        "class_words": frozenset(w.lower() for w in data["drop_class_words"]),
        "lines": frozenset(w.lower() for w in data["drop_lines"]),
        "consent": tuple(w.lower() for w in data["consent_phrases"]),
        "counters": frozenset(w.lower() for w in data["counter_words"]),
    }


def parse(html: str) -> Any:
    """An lxml tree of ``html`` (None for a document with no elements)."""
    import lxml.etree
    import lxml.html

    # bytes and a fixed encoding: a str with an XML encoding declaration is refused
    parser = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True)
    try:
        return lxml.html.document_fromstring(html.encode("utf-8", "replace"), parser=parser)
    except lxml.etree.ParserError:
        return None


def _text_before(el: Any) -> str:
    """The text just before ``el`` in its parent (its previous sibling's tail or the
    parent's text)."""
    prev = el.getprevious()
    if prev is not None:
        return prev.tail or ""
    parent = el.getparent()
    return (parent.text or "") if parent is not None else ""


def _is_footnote_marker(sup: Any) -> bool:
    """A ``<sup>`` that marks a note, not an exponent: a link or brackets, or a
    number after a word of three letters or more ("art<sup>1</sup>", not
    "10 m<sup>2</sup>", "x<sup>2</sup>" or "10<sup>3</sup>")."""
    text = sup.text_content() or ""
    if not _MARKER_TEXT.fullmatch(text):
        return False
    if sup.find(".//a") is not None or re.search(r"[\[\]()*†‡§]", text):
        return True
    words = _text_before(sup).split()
    word = words[-1] if words else ""
    return not word[-1:].isdigit() and len(re.sub(r"\W", "", word)) >= 3


_NOTE_BLOCKS = frozenset({"p", "li", "dd"})


def _opens_block(el: Any, block: Any) -> bool:
    """No text of ``block`` comes before its child ``el``."""
    if (block.text or "").strip():
        return False
    for child in block:
        if child is el:
            return True
        if (child.text_content() or "").strip() or (child.tail or "").strip():
            return False
    return False


def _is_note_link(a: Any) -> bool:
    """A link to a note on the same page whose whole text is a marker: bracketed, not in
    a ``<sup>`` (Word's exported endnotes, ``<a href="#_edn2">[ii]</a>``, and ``<a
    href="#fn3">(3)</a>``), or a bare number (in a ``<sup>`` or not) glued to the word
    before it or opening its block (LibreOffice's ``in Nigeria<a
    href="#sdfootnote1sym">1</a>.``). A link of words ("see [the appendix]") and a
    number after a space ("Chapter <a href="#ch3">3</a>") are kept."""
    if not (a.get("href") or "").startswith("#"):
        return False
    text = (a.text_content() or "").strip()
    if re.fullmatch(r"[\[(]\s*(?:\d{1,3}|[ivxIVX]{1,5})\s*[\])]", text):
        return True
    if not re.fullmatch(r"\d{1,3}", text):
        return False
    before = _text_before(a)
    if before:
        return not before[-1].isspace() and not before[-1].isdigit()
    parent = a.getparent()
    return parent is not None and parent.tag in _NOTE_BLOCKS and _opens_block(a, parent)


# a line break of the page's source with the spaces around it
_SOURCE_BREAK = re.compile(r"[^\S\n]*\n\s*")
_PREFORMATTED = frozenset({"pre", "textarea", "listing", "plaintext", "xmp"})


def _preformatted(el: Any) -> bool:
    return el.tag in _PREFORMATTED or any(a.tag in _PREFORMATTED for a in el.iterancestors())


def _unwrap_source_lines(tree: Any) -> None:
    """A line break in the page's source text is a space, as a browser shows it, unless
    inside ``<pre>``: a hard-wrapped paragraph with inline elements (texinfo's HTML:
    ``<p>The <code>libffi</code> library provides a portable, high level
    programming\\ninterface …``) would otherwise reach the text as cut lines."""
    for el in tree.iter():
        if not isinstance(el.tag, str):
            continue
        if el.text and "\n" in el.text and not _preformatted(el):
            el.text = _SOURCE_BREAK.sub(" ", el.text)
        parent = el.getparent()
        if el.tail and "\n" in el.tail and parent is not None and not _preformatted(parent):
            el.tail = _SOURCE_BREAK.sub(" ", el.tail)


def prepare(tree: Any) -> Any:
    """``tree`` without footnote markers and furniture elements, its source's line breaks
    spaces outside ``<pre>`` (changed in place)."""
    _unwrap_source_lines(tree)
    for sup in list(tree.iter("sup")):
        if sup.getparent() is not None and _is_footnote_marker(sup):
            sup.drop_tree()
    for a in list(tree.iter("a")):
        parent = a.getparent()
        if parent is None or not _is_note_link(a):
            continue
        if parent.tag in _NOTE_BLOCKS and _opens_block(a, parent):
            parent.drop_tree()  # the link opens its block: the note itself ("[ii] Joint letter …")
        else:
            a.drop_tree()
    words = furniture()["class_words"]
    doomed = []
    for el in tree.iter():
        if not isinstance(el.tag, str) or el.tag in ("html", "body"):
            continue
        attrs = f"{el.get('class', '')} {el.get('id', '')}".lower()
        if attrs.strip() and words.intersection(re.split(r"[\s_-]+", attrs)):
            doomed.append(el)
    for el in doomed:
        if el.getparent() is not None:
            el.drop_tree()
    return tree


def page_title(tree: Any) -> str:
    """The page's own title: its Open Graph title (what a link preview shows) when it has
    one, else ``<title>``. A site's ``<title>`` is often the site's name ("International
    Debate Education Association (IDEA)" on 29 of the 208 saved debate pages) or carries
    it ("… | idebate.org"); ``og:title`` names the page alone."""
    for node in tree.iterfind(".//meta"):
        key = (node.get("property") or node.get("name") or "").strip().lower()
        if key == "og:title":
            og = " ".join((node.get("content") or "").split())
            if og:
                return og
    node = tree.find(".//title")
    return " ".join((node.text_content() if node is not None else "").split())


def tidy(text: str) -> str:
    """One block a line: entities decoded, inline markers and furniture lines gone."""
    f = furniture()
    out: list[str] = []
    for raw in text.split("\n"):
        line = " ".join(raw.split())
        if _ENTITY.search(line):
            line = html_lib.unescape(line)
        line = _GLUED_NOTE.sub("", _INLINE_MARKER.sub("", line)).strip()
        if not line or _is_furniture(line, f):
            continue
        if out and _CONTINUES.match(line):
            # no block opens on a stop or a comma: a <br> before a footnote link broke it
            out[-1] += line
            continue
        out.append(line)
    return "\n".join(out)


def _is_furniture(line: str, f: dict[str, Any]) -> bool:
    low = line.lower().rstrip(".:!…")
    if low in f["lines"]:
        return True
    if len(line.split()) < 40 and any(p in low for p in f["consent"]):
        return True
    if _URL.fullmatch(line):
        return True
    if _ENDNOTE.match(line):
        return True
    counter = _COUNTER.match(line)
    if counter and counter.group(1).lower() in f["counters"]:
        return True
    # a numbered reference entry with a link: "1 Appleton, J., 'Art', http://…"
    if _NOTE_ENTRY.match(line) and _URL.search(line):
        return True
    if (
        _ENDS_ON_LINK.search(line)
        and _CITES.search(line)
        and len(line.split()) < REFERENCE_MAX_WORDS
    ):
        return True
    bullet = _BULLET_CITATION.match(line)
    if bullet and _URL.search(line) and _CITES.search(line, bullet.end()):
        return True
    return _is_citation(line)


def _is_citation(line: str) -> bool:
    m = _CITATION.match(line)
    if m is None:
        return False
    return m.group("initial") is not None or bool(_CITES.search(line, m.end()))


def body_text(html: str) -> str:
    """All text of the page body, a block a line (the fallback).

    lexbor (selectolax) rather than lxml: it reads any nesting depth, where
    libxml2 stops at 256 levels and returns nothing.
    """
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    for tag in ("script", "style", "noscript", "template", "svg"):
        for node in tree.css(tag):
            node.decompose()
    body = tree.body or tree.root
    return "" if body is None else body.text(separator="\n", strip=False)


def main_text(tree: Any) -> str:
    """trafilatura's main content of ``tree`` as text, a block a line ('' if none)."""
    import trafilatura

    text = trafilatura.extract(
        tree,
        output_format="txt",
        include_comments=False,
        include_tables=True,
        include_images=False,
        include_links=False,
        deduplicate=False,
    )
    return text or ""


def html_to_text(html: str) -> tuple[str, str]:
    """(title, main text) of a page; the text has one block a line."""
    import copy

    tree = parse(html)
    title, text = "", ""
    if tree is not None:
        prepare(tree)
        title = page_title(tree)
        text = tidy(main_text(copy.deepcopy(tree)))
    if not text.strip():
        text = tidy(body_text(html))
    return title, text
