"""Clean text from real files: page furniture, PDF running lines, .gz, files with no extension."""

from __future__ import annotations

import gzip
from pathlib import Path

from assistant.ingest.html import html_to_text, parse, prepare
from assistant.ingest.loaders import load_file, walk_paths
from assistant.ingest.pdf import strip_running_lines
from assistant.ingest.reflow import reflow
from assistant.ingest.sentences import sentence_spans

ARTICLE = (
    "Nuclear power produces little carbon dioxide over its life cycle. Critics point to the cost "
    "of new plants and to the waste that stays dangerous for thousands of years. Supporters "
    "answer that modern designs are safer and that storage is a solved engineering problem. "
)

PAGE = f"""<!DOCTYPE html><html><head><title>Should we build nuclear plants?</title></head>
<body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/topics">Topics</a></li>
<li><a href="/about">About us</a></li></ul></nav>
<div id="cookie-banner">This website uses cookies to improve your experience. Accept</div>
<aside class="sidebar"><h3>Popular debates</h3><ul><li>Ban zoos?</li><li>Tax sugar?</li></ul>
</aside>
<article>
<h1>Should we build nuclear plants?</h1>
<h2>Key Examples</h2>
<p>{ARTICLE}The debate is old&nbsp;and still open<sup>1</sup>.</p>
<p>France gets most of its electricity from nuclear plants<sup>[2]</sup> &amp; exports some.
Germany closed its last plants in 2023 [3].</p>
<ul><li>Low carbon electricity at scale for decades</li>
<li>High building costs and long delays for every plant</li></ul>
<p>Read more</p>
<div class="share-buttons"><a>Share on Facebook</a> <a>Tweet</a></div>
</article>
<section class="comments"><h3>3 comments</h3>
<div class="comment"><p>Great article, totally agree with everything!!!</p></div>
<div class="comment"><p>I think the author is wrong about France.</p></div>
</section>
<footer><p>Copyright 2024 Debate Site. All rights reserved.</p>
<p><a href="/privacy">Privacy policy</a></p></footer>
</body></html>"""


def test_html_main_text_without_furniture() -> None:
    title, text = html_to_text(PAGE)
    assert title == "Should we build nuclear plants?"
    assert "Nuclear power produces little carbon dioxide" in text
    assert "Germany closed its last plants in 2023." in text
    for furniture in ("Topics", "cookies", "Popular debates", "Read more", "Share", "Tweet",
                      "Great article", "author is wrong", "Copyright", "Privacy"):  # fmt: skip
        assert furniture not in text, furniture
    # footnote markers and entities gone
    assert "still open." in text and "open1" not in text and "[2]" not in text
    assert "&amp;" not in text and "& exports" in text and "\xa0" not in text


def test_html_blocks_stay_apart() -> None:
    _title, text = html_to_text(PAGE)
    lines = text.split("\n")
    assert "Key Examples" in lines  # a heading is a line of its own
    assert any(x.endswith("Low carbon electricity at scale for decades") for x in lines)
    sentences = [text[s:e] for s, e in sentence_spans(text)]
    assert "Key Examples" in sentences
    assert not any(s.startswith("Key Examples ") for s in sentences)


def test_exponents_are_not_footnote_markers() -> None:
    _title, text = html_to_text(
        "<html><body><article><p>The flat has 60 m<sup>2</sup> of floor and the tank holds "
        "10<sup>3</sup> litres, as the survey says<sup>4</sup> in its annex.</p>"
        "<p>The survey was carried out by the city in the spring of last year.</p>"
        "</article></body></html>"
    )
    assert "60 m2 of floor" in text and "103 litres" in text and "says in its annex" in text


def test_endnote_links_and_endnote_lists_are_not_text() -> None:
    # Word's exported endnotes, as on saved idebate pages: a bracketed link to a note on the
    # same page, not in a <sup>, and the notes listed at the end ("[ii] Joint letter …"),
    # 412 Roman and 711 numbered markers left in the 208 pages' text before
    body = " ".join([ARTICLE] * 2)
    _title, text = html_to_text(
        "<html><body><article>"
        f"<p>{body}It profiles his characteristics rather than his behaviour"
        '<a href="#_edn2" name="_ednref2">[ii]</a>. Profiling has a long history'
        '<a href="#fn3">[3]</a> in policing.</p>'
        f"<p>{body}“[i]n one hospital,” the cable says, patients wait for days[iv], "
        "as the reports show.</p>"
        '<p><a href="#_ednref2">[ii]</a> Joint letter to the Telegraph, 2011.</p>'
        "<p>[4] Gould, Stephen. 2002. Rocks of Ages.</p><p>[6] ibid</p><p>- 34992 reads</p>"
        "<p>12 angry men</p>"
        '<p>See <a href="#appendix">[the appendix]</a> for the figures of every year.</p>'
        "</article></body></html>"
    )
    assert "rather than his behaviour. Profiling has a long history in policing." in text
    assert "“[i]n one hospital,”" in text  # an editor's bracket stays
    assert "wait for days, as the reports show." in text
    for note in ("[ii]", "Joint letter", "[3]", "Gould, Stephen", "ibid", "[iv]"):
        assert note not in text, note
    assert "[the appendix]" in text  # a link of words is kept
    assert "reads" not in text and "12 angry men" in text  # a counter goes, a title stays


def test_bare_number_note_links_are_not_text() -> None:
    # LibreOffice's exported footnotes: a bare number linking to a note on the same page,
    # glued to the word before it ("in Nigeria1."), in a <sup> or not, and the note itself
    body = " ".join([ARTICLE] * 2)
    _title, text = html_to_text(
        "<html><body><article>"
        f"<p>{body}Legal action could be tried, as suggested in Nigeria"
        '<a href="#sdfootnote1sym" name="sdfootnote1anc">1</a>. It could be a crime punishable'
        ' by death<a href="#sdfootnote3sym"><sup>3</sup></a>. The rules are in Chapter'
        ' <a href="#ch3">3</a> of the report.</p>'
        '<p><a href="#sdfootnote1anc">1</a>Smith, J. A note on tobacco, 2010.</p>'
        "</article></body></html>"
    )
    assert "as suggested in Nigeria. It could be a crime punishable by death. The" in text
    assert "Chapter 3 of the report." in text  # a number after a space is kept
    assert "Smith, J." not in text


def test_html_with_no_main_text_falls_back_to_the_body() -> None:
    _title, text = html_to_text("<html><body><div>Owls hunt at night.</div></body></html>")
    assert text == "Owls hunt at night."


def _pdf_with_running_lines(path: Path, pages: int = 5) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    pdf.set_font("helvetica", size=11)
    topics = ["schools", "roads", "parks", "water", "housing", "transport", "health"]
    for n in range(1, pages + 1):
        topic = topics[n - 1]
        body = [
            f"The {topic} committee met in the spring to review the annual figures for",
            f"the whole region and found that spending on {topic} had risen by a small",
            "amount while spending elsewhere had fallen. Its members agreed on a infor-",
            f"mation campaign to explain the {topic} budget to the public before the vote.",
        ]
        pdf.add_page()
        pdf.cell(0, 8, "ACME Regional Budget Report 2024", new_x="LMARGIN", new_y="NEXT")
        for line in body:
            pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
        pdf.cell(0, 7, f"The {topic} section closes here.", new_x="LMARGIN", new_y="NEXT")
        pdf.set_y(-20)
        pdf.cell(0, 8, f"Page {n} of {pages}", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def test_pdf_running_headers_footers_and_hyphens(tmp_path: Path) -> None:
    result = load_file(_pdf_with_running_lines(tmp_path / "report.pdf"))
    doc = result.documents[0]
    assert "ACME Regional Budget Report" not in doc.text
    assert "Page " not in doc.text and " of 5" not in doc.text
    assert "information campaign" in doc.text and "infor-" not in doc.text
    # wrapped lines are one paragraph: a sentence runs across the PDF's line ends
    sentences = [doc.text[s:e] for s, e in sentence_spans(doc.text)]
    assert (
        "The parks committee met in the spring to review the annual figures for the whole "
        "region and found that spending on parks had risen by a small amount while spending "
        "elsewhere had fallen." in sentences
    )
    # each page keeps its own text and offsets
    pages = result.pages[doc.doc_id]
    assert len(pages) == 5
    assert all("section closes here." in doc.text[a:b] for a, b in pages)
    assert "The parks section closes here." in doc.text[pages[2][0] : pages[2][1]]


def test_pdf_table_of_contents_lines_are_not_text(tmp_path: Path) -> None:
    # a manual's contents page ("A.1 GNU Free Documentation License . . . . 24") was quoted
    # as the answer to a question about the document
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    pdf.add_page()
    for line in (
        "Contents",
        "1 Introduction . . . . . . . . . . . . . . . . . . . . . . . . . 1",
        "A.1 GNU Free Documentation License . . . . . . . . . . . . . 24",
        "Concept Index ........................................ xii",
        "The library encodes and decodes ASN.1 data. It was written in 2002 and is used by",
        "GnuTLS. Version 4.19 came out in 2022... and more followed.",
    ):
        pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "manual.pdf"))
    text = load_file(tmp_path / "manual.pdf").documents[0].text
    assert "Introduction" not in text and "License" not in text and "Concept Index" not in text
    assert "The library encodes and decodes ASN.1 data." in text
    assert "came out in 2022... and more followed." in text


def test_running_lines_need_to_recur() -> None:
    pages = [f"Title of page {i}\nBody text number {i} differs.\n{i}" for i in range(1, 3)]
    # two pages: a line on both is not enough to call it a header; the page numbers go
    out = strip_running_lines(pages)
    assert out[0].startswith("Title of page 1") and not out[0].endswith("\n1")


def test_reflow_joins_wraps_but_keeps_blocks() -> None:
    text = (
        "# Sphere\n\n"
        "Sphere is an offline research assistant that reads your own files and\n"
        "writes a two-sided summary of what they say about a question.\n\n"
        "- first item of a list that is long enough to look like wrapped text\n"
        "- second item\n\n"
        "```\n"
        "code line one that is quite long and should never be joined at all\n"
        "code line two\n"
        "```\n"
    )
    out = reflow(text)
    assert "own files and writes a two-sided" in out
    assert "text\n- second item" in out
    assert "joined at all\ncode line two" in out
    assert out.startswith("# Sphere\n\n")


def test_reflow_keeps_numbered_section_headings_apart() -> None:
    # a PDF specification: "… last updated 2 October 2018. 1.2. What is this spec?" was one
    # line, so the quote of its first sentence ended on the next heading's number
    text = (
        "This is version 0.21 of the Shared MIME-info Database specification, last updated\n"
        "2 October 2018, and it replaces every version before it without any exception.\n"
        "1.2. What is this spec?\n"
        "Many programs and desktops use the MIME system to represent the types of the files\n"
        "they read, and the share of the desktops that read the database this way rose to\n"
        "3.5 per cent in the last year that the survey of all the desktops covered at all.\n"
        "2.3.1 Scope\n"
    )
    out = reflow(text)
    assert "last updated 2 October 2018, and it replaces" in out  # a wrap before a number
    assert "exception.\n1.2. What is this spec?\n" in out
    assert "rose to 3.5 per cent" in out  # a decimal number is no heading
    assert out.endswith("covered at all.\n2.3.1 Scope\n")


def test_gz_files_are_read_by_their_inner_name(tmp_path: Path) -> None:
    (tmp_path / "README.gz").write_bytes(gzip.compress(b"Readme words about the project.\n"))
    (tmp_path / "NEWS.gz").write_bytes(gzip.compress(b"Version 2 fixes the parser.\n"))
    (tmp_path / "page.html.gz").write_bytes(gzip.compress(PAGE.encode()))
    (tmp_path / "data.bin.gz").write_bytes(gzip.compress(bytes(range(256)) * 10))
    (tmp_path / "bad.txt.gz").write_bytes(b"\x1f\x8b\x08\x00garbage")
    files, skipped = walk_paths([tmp_path])
    names = {f.name for f in files}
    assert {"README.gz", "NEWS.gz", "page.html.gz", "bad.txt.gz"} <= names
    assert any(s.path.endswith("data.bin.gz") for s in skipped)
    readme = load_file(tmp_path / "README.gz").documents[0]
    assert readme.text.strip() == "Readme words about the project." and readme.format == "txt"
    page = load_file(tmp_path / "page.html.gz").documents[0]
    assert page.format == "html" and "Share" not in page.text and "Nuclear power" in page.text
    bad = load_file(tmp_path / "bad.txt.gz")
    assert not bad.documents and "gzip" in bad.skipped[0].reason


def test_gz_bomb_stops_at_the_size_limit(tmp_path: Path) -> None:
    (tmp_path / "big.txt.gz").write_bytes(gzip.compress(b"word " * 1_000_000))
    result = load_file(tmp_path / "big.txt.gz", max_file_bytes=100_000)
    assert not result.documents
    assert "too large" in result.skipped[0].reason
    assert "index.max_file_mb" in result.skipped[0].reason


def test_files_without_extension_are_sniffed(tmp_path: Path) -> None:
    (tmp_path / "TODO").write_text("Fix the parser before the release.\n", encoding="utf-8")
    (tmp_path / "RBASH").write_text("Restricted shell notes.\nDo not use.\n", encoding="utf-8")
    (tmp_path / "blob").write_bytes(bytes(range(256)) * 20)
    (tmp_path / "page").write_text(PAGE, encoding="utf-8")
    files, skipped = walk_paths([tmp_path])
    assert {f.name for f in files} == {"TODO", "RBASH", "page"}
    assert [(Path(s.path).name, s.reason) for s in skipped] == [
        ("blob", "no extension and not text")
    ]
    todo = load_file(tmp_path / "TODO").documents[0]
    assert todo.text.strip() == "Fix the parser before the release."
    assert todo.title.startswith("Fix")
    page = load_file(tmp_path / "page").documents[0]
    assert page.format == "html" and "Popular debates" not in page.text


# filler that makes a paragraph long enough for trafilatura to keep it as main text
WORDS = " ".join(f"word{i}" for i in range(60))


def test_a_hard_wrapped_paragraph_is_one_line_and_pre_keeps_its_lines() -> None:
    # texinfo-style HTML: source lines wrapped inside <p>, around inline elements
    words = WORDS
    page = (
        "<html><body><main><h1>The Basics</h1>\n"
        "<p>The <code>libffi</code> library provides a portable, high level programming\n"
        "interface to various calling conventions.  This allows a programmer to\n"
        f"call any <em>function</em> at run\ntime. {words}\n</p>\n"
        "<pre>int main(void)\n{\n  return 0;\n}</pre>\n"
        f"<p>A second paragraph that is long enough to be kept. {words}</p>"
        "</main></body></html>"
    )
    _title, text = html_to_text(page)
    lines = text.split("\n")
    first = next(line for line in lines if line.startswith("The libffi"))
    assert first.startswith(
        "The libffi library provides a portable, high level programming interface to"
    )
    assert "call any function at run time." in first
    tree = prepare(parse(page))
    assert tree.find(".//pre").text == "int main(void)\n{\n  return 0;\n}"  # kept as written


def test_an_upper_case_note_name_is_no_file_type(tmp_path: Path) -> None:
    # README.Debian, TODO.FHS: the "suffix" of an upper-case name says what the note is about
    (tmp_path / "README.Debian").write_text("Notes for this system.\n", encoding="utf-8")
    (tmp_path / "TODO.FHS.gz").write_bytes(gzip.compress(b"Move the files.\n"))
    (tmp_path / "PHOTO.JPG").write_bytes(bytes(range(256)) * 20)
    (tmp_path / "notes.xyz").write_text("Not a type Sphere reads.\n", encoding="utf-8")
    files, skipped = walk_paths([tmp_path])
    assert {f.name for f in files} == {"README.Debian", "TODO.FHS.gz"}
    assert sorted((Path(s.path).name, s.reason) for s in skipped) == [
        ("PHOTO.JPG", "unsupported file type '.JPG'"),
        ("notes.xyz", "unsupported file type '.xyz'"),
    ]
    assert load_file(tmp_path / "README.Debian").documents[0].text.strip() == (
        "Notes for this system."
    )
    assert load_file(tmp_path / "TODO.FHS.gz").documents[0].text.strip() == "Move the files."


def test_a_line_opening_on_a_stop_joins_the_line_before() -> None:
    # a page that puts <br /> before each footnote link: no block opens on ". " or "”, "
    _title, text = html_to_text(
        "<html><body><article><p>Critics of the creams cite the film “Twelve Years<br />"
        '<a href="#n7"><sup>[7]</sup></a>”, and the views held in many homes<br />'
        '<a href="#n8"><sup>[8]</sup></a>. In 2006, the agency proposed a ban. '
        f"{WORDS}</p><p>... and an ellipsis may open a paragraph. {WORDS}</p>"
        "</article></body></html>"
    )
    lines = text.split("\n")
    assert lines[0].startswith(
        "Critics of the creams cite the film “Twelve Years”, and the views held in many "
        "homes. In 2006, the agency proposed a ban."
    )
    assert any(line.startswith("... and an ellipsis") for line in lines)


def test_a_page_is_titled_by_its_open_graph_title_not_the_site_name() -> None:
    # 29 of the 208 saved debate pages have the site's name as <title>; og:title names the page
    page = (
        "<html><head><title>International Debate Education Association (IDEA)</title>"
        '<meta property="og:title" content="This House would disband ASEAN" /></head>'
        "<body><article><p>ASEAN was founded in 1967 by five states of the region.</p>"
        "</article></body></html>"
    )
    assert html_to_text(page)[0] == "This House would disband ASEAN"
    no_og = page.replace("og:title", "og:description")
    assert html_to_text(no_og)[0] == "International Debate Education Association (IDEA)"


def test_reference_entries_without_a_link_are_furniture_and_numbered_points_are_not() -> None:
    # a debate page's endnotes under an argument: no brackets, no link (74 such lines on
    # the 208 saved debate pages; one was quoted as a perspective)
    notes = [
        "1 Ide, M. Google Says Online Advertising Could be Worth Over $200 billion in a few years.",
        "2Pakko, Michael R., 'Clearing the Haze? New Evidence on Smoking Bans', 2005",
        '3 Faunce, Thomas. 2004. "The Awful Truth About Evergreening". The Age. Available:',
    ]
    kept = [
        "Advertising pays for the free services that people use every day.",
        "2 Cost, Equality and Focus are the reasons the committee gave for its decision.",
        "1. Mental health: heavy use is linked to anxiety, depression and poor sleep.",
    ]
    body = "".join(f"<p>{t}</p>" for t in kept + notes)
    page = f"<html><head><title>T</title></head><body><article>{body}</article></body></html>"
    assert html_to_text(page)[1].split("\n") == kept


def test_bulleted_reference_entries_with_a_link_are_furniture_and_bulleted_points_are_not() -> None:
    # six such lines on the 208 saved debate pages; one was quoted under a claim
    notes = [
        "- Denholm, David “Guess What: There is no ‘right’ to collective bargaining.” "
        "LabourUnionReport.com 21/02/2011 http://www.labourunionreport.com/guess-what",
        "• Bloomberg, Michael. “Limit Pay, Not Unions.” New York Times. 27/02/2011 "
        "http://www.nytimes.com/2011/02/28/opinion/28bloomberg.html",
    ]
    kept = [
        "- Britain, France and Germany agreed in 2015 to share the cost of the mission.",
        "- Unions, as the 2011 report at http://example.org/report shows, protect pay.",
    ]
    body = "<ul>" + "".join(f"<li>{t[2:]}</li>" for t in kept + notes) + "</ul>"
    para = "<p>Public sector unions bargain with the people who fund their pay.</p>"
    page = f"<html><head><title>T</title></head><body><article>{para}{body}</article></body></html>"
    lines = html_to_text(page)[1].split("\n")
    assert not any("Denholm" in line or "Bloomberg" in line for line in lines)
    assert any("Britain, France and Germany" in line for line in lines)
    assert any("Unions, as the 2011 report at" in line for line in lines)


def test_a_short_line_ending_on_a_bare_link_with_a_title_or_year_is_a_reference() -> None:
    # 232 such lines on the saved debate pages; some were quoted as perspectives
    notes = [
        "(1) “Facebook is bad for you”, The Economist, Aug 17th 2013 "
        "http://www.economist.com/news/science-and-technology/21583593",
        "*Whyte, 1983, http://cain.ulst.ac.uk/issues/discrimination/whyte.htm",
        "AFP, “Taiwan places ban on cosmetic surgery for under-18s”, Straits Times, "
        "27 February 2014, http://www.straitstimes.com/news/asia",
    ]
    kept = [
        # prose that ends on a link in brackets, and prose with a year and no link
        "The film's Italian posters featured its white stars more than its lead, "
        "Chiwetel Ejiofor, in 2013 (http://entertainment.time.com/2013/12/27/poster/)",
        "In 2013 the Economist reported that heavy use of social networks made people "
        "feel worse about themselves.",
        "Facebook reaches over a billion people, which makes it a public space.",
    ]
    body = "".join(f"<p>{t}</p>" for t in kept + notes)
    page = f"<html><head><title>T</title></head><body><article>{body}</article></body></html>"
    assert html_to_text(page)[1].split("\n") == kept


def test_a_note_number_typed_after_a_sentence_s_stop_is_dropped() -> None:
    # plain digits, no <sup> or link: "… part of the state.4 As to …" kept the next
    # sentence glued to this one and showed "state.4" in quotes
    _title, text = html_to_text(
        "<html><body><article><p>It is a misallocation of resources on the part of the "
        "state.4 As to future leaders, the gifted can still rise. He said “stop.”3 Then "
        f"he left. {WORDS}</p><p>The gross inequality would be evened.4</p>"
        f"<p>It was a No.1 hit. See pp.12 and a 2.4 GHz chip. {WORDS}</p>"
        "</article></body></html>"
    )
    assert "on the part of the state. As to future leaders" in text
    assert "“stop.” Then he left." in text
    assert "would be evened." in text and "evened.4" not in text
    assert "No.1 hit" in text and "pp.12" in text and "2.4 GHz" in text
