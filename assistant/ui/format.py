"""Text the app shows, as pure functions (no ``textual``; unit-tested).

Stage names follow DESIGN §2 and paper 004's HierSphere: local summarizers over
groups of documents, then an editorial merge.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timezone
from typing import Any

from assistant.models import AspectMatch, BalanceReport, Progress, QueryPlan, Reference, Summary
from assistant.summarize.balance import probabilities_text
from assistant.summarize.correct import GROUP_TITLES, GROUP_WHY, ApartDocument
from assistant.wording import count

# stage -> (label, start fraction, end fraction) of the overall progress bar.
# The shares are rough: summarizing dominates when a model writes the summaries.
STAGES: dict[str, tuple[str, float, float]] = {
    "understanding": ("Understanding", 0.0, 0.10),
    "retrieving": ("Retrieving", 0.10, 0.35),
    "summarizing": ("Local summaries", 0.35, 0.80),
    "merging": ("Editorial merge", 0.80, 0.90),
    "verifying": ("Verifying", 0.90, 1.0),
}
STAGE_ORDER: tuple[str, ...] = tuple(STAGES)

SIDE_LABELS = {"pro": "Claim A", "con": "Claim B"}


def overall_fraction(progress: Progress) -> float:
    """Where ``progress`` sits on the whole pass, in [0, 1]."""
    if progress.stage == "done":
        return 1.0
    if progress.stage not in STAGES:
        return 0.0
    _, lo, hi = STAGES[progress.stage]
    inner = 0.0
    if progress.total > 0:
        inner = min(max(progress.step / progress.total, 0.0), 1.0)
    return lo + (hi - lo) * inner


def stage_text(progress: Progress) -> str:
    """``"Local summaries 2/4 · group of 5 documents"``."""
    if progress.stage == "done":
        return "Done"
    label = STAGES.get(progress.stage, (progress.stage.capitalize(), 0.0, 0.0))[0]
    text = label
    if progress.total > 0:
        text += f" {progress.step}/{progress.total}"
    if progress.detail:
        text += f" · {progress.detail}"
    return text


def format_elapsed(seconds: float) -> str:
    """``"4.2 s"`` under a minute, ``"2 min 05 s"`` above."""
    seconds = max(seconds, 0.0)
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes} min {rest:02d} s"


def quote_span(passage: str, ref: Reference) -> tuple[int, int] | None:
    """Character span of ``ref.quote`` in ``passage``, or ``None``.

    Trusts the stored offsets when they point at the quote; otherwise searches
    (exact, then case-insensitive), because a passage shown from another source
    (the index rather than the stored hit) may be offset differently.
    """
    quote = ref.quote.strip()
    if not quote or not passage:
        return None
    s, e = ref.quote_start, ref.quote_end
    if 0 <= s < e <= len(passage) and passage[s:e].strip().casefold() == quote.casefold():
        return (s, e)
    at = passage.find(quote)
    if at < 0:
        at = passage.casefold().find(quote.casefold())
    if at < 0:
        return None
    return (at, at + len(quote))


def verification_text(ref: Reference) -> str:
    """One line saying whether and how a reference was verified."""
    how = {
        "quote": "quote found in the passage",
        "similarity": "passage similar to the perspective",
        "model": "model judged the passage supportive",
        "user": "placed by you, not checked by the verifier",
    }.get(ref.check, ref.check or "no check recorded")
    mark = "✓ Verified" if ref.verified else "✗ Not verified"
    return f"{mark} — {how} (support {ref.support:.2f})"


def aspect_check_text(match: AspectMatch) -> str:
    """How a lookup row's aspect was checked: ``"met: its words are in the sentence (1.00)"``."""
    ref = match.reference
    if ref is None:
        return "not met: the document has no text in the index"
    how = {
        "terms": "the aspect's words are in the sentence",
        "similarity": "the sentence is similar to the aspect",
    }.get(ref.check, ref.check or "no check recorded")
    if match.met:
        return f"met: {how} (support {ref.support:.2f})"
    return f"not met: the nearest sentence reaches similarity {ref.support:.2f}"


def stance_text(ref: Reference, side: str | None, probs: list[float] | None = None) -> str:
    """``"supports Claim A · 0.91"``: the stance model's probability for the claim
    ``ref`` is cited under (empty when no stance model judged it). A reference the user
    moved or placed says so, with the model's own probabilities for its document
    (``probs``): ``"Moved here by you · the stance model: pro 0.89 · con 0.06 · …"``."""
    if ref.by_user:
        said = probabilities_text(probs)
        head = "Moved here by you" if ref.by_user == "moved" else "Placed here by you"
        return head + (f" · the stance model: {said}" if said else "")
    if ref.stance is None or side not in SIDE_LABELS:
        return ""
    return f"supports {SIDE_LABELS[side]} · {ref.stance:.2f}"


def apart_text(doc: ApartDocument) -> str:
    """``"Side unclear: the stance model cannot tell which claim it argues · pro 0.41 ·
    con 0.33 · neither 0.26"``."""
    said = probabilities_text(doc.p)
    return f"{GROUP_TITLES[doc.group]}: {GROUP_WHY[doc.group]}" + (f" · {said}" if said else "")


def reference_side(summary: Summary, ref: Reference) -> str | None:
    """The side of the claim under which ``summary`` cites ``ref``."""
    for claim in summary.claims:
        for p in claim.perspectives:
            if any(r is ref for r in p.references):
                return claim.side
    for claim in summary.claims:
        for p in claim.perspectives:
            if any(r == ref for r in p.references):
                return claim.side
    return None


def slugify(text: str, max_len: int = 40) -> str:
    """ASCII file-name slug: ``"Should X be Y?"`` -> ``"should-x-be-y"``."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", norm.lower()).strip("-")
    if len(slug) > max_len:
        cut = slug[: max_len + 1]
        slug = cut.rsplit("-", 1)[0] if "-" in cut else slug[:max_len]
    return slug or "session"


def export_filename(session_id: int, title: str) -> str:
    return f"sphere-session-{session_id}-{slugify(title)}.md"


def session_title(question: str, max_len: int = 60) -> str:
    """A session is named after its first question, shortened on a word boundary."""
    q = " ".join(question.split())
    if len(q) <= max_len:
        return q
    cut = q[: max_len - 1]
    if q[max_len - 1] != " ":  # the cut fell inside a word: drop that word
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip() + "…"


def format_when(value: Any) -> str:
    """A stored timestamp (datetime, ISO string or epoch seconds) as ``YYYY-MM-DD HH:MM``."""
    if value is None or value == "":
        return ""
    when: datetime | None = None
    if isinstance(value, datetime):
        when = value
    elif isinstance(value, (int, float)):
        when = datetime.fromtimestamp(float(value), tz=timezone.utc).astimezone()
    elif isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return value[:16]
    if when is None:
        return str(value)
    if when.tzinfo is not None:
        when = when.astimezone()
    return when.strftime("%Y-%m-%d %H:%M")


def balance_text(balance: BalanceReport) -> str:
    """``"Claim A: 5 documents, 3 sources, 2 perspectives · … · lopsidedness 0.12 (even)"``."""
    parts = []
    for side in balance.sides:
        label = SIDE_LABELS.get(side.side, side.side)
        parts.append(
            f"{label}: {count(side.documents_cited, 'document')}, "
            f"{count(side.distinct_sources, 'source')}, {count(side.perspectives, 'perspective')}"
        )
    lop = balance.lopsidedness
    verdict = "even" if lop < 0.2 else "somewhat one-sided" if lop < 0.5 else "one-sided"
    parts.append(f"lopsidedness {lop:.2f} ({verdict})")
    return " · ".join(parts)


def follow_up_lines(
    plan: QueryPlan, previous: QueryPlan | None, number: int | None = None
) -> tuple[str, list[str]]:
    """A follow-up's heading ("Follows turn 3 · add_constraint") and its changes: the
    plan's diff against the plan it edits, or, where the plan itself is unchanged
    ("more", "drop [5]", "why is [2] there?") or that plan is not at hand, the changes its
    derivation records. ``number``: the followed turn's place in the session as shown
    (the session log's ids run across sessions; the export numbers turns the same way);
    without it, "an earlier turn"."""
    from assistant.thread import plan_diff

    edit, recorded = plan.edit_and_changes()
    which = f"turn {number}" if number is not None else "an earlier turn"
    head = f"Follows {which}" + (f" · {edit.replace('_', ' ')}" if edit else "")
    changes = plan_diff(previous, plan) if previous is not None else []
    if not changes and edit not in ("explain_ref", "compare_refs"):
        changes = recorded
    return head, changes


def plan_lines(plan: QueryPlan) -> list[tuple[str, str]]:
    """The query plan as (label, value) rows for the plan view."""
    rows = [("Root query", plan.root_query or "—")]
    claims = [c for c in plan.claims if c]
    if claims:
        rows.append(("Claims", "  ⟷  ".join(claims)))
    if plan.perspectives:
        rows.append(
            (
                "Perspectives",
                "; ".join(
                    p.text + (f" ({p.role}{', ' + p.side if p.side else ''})" if p.role else "")
                    for p in plan.perspectives
                ),
            )
        )
    if plan.aspects:
        rows.append(("Aspects", "; ".join(a.text for a in plan.aspects)))
    if plan.constraints:
        rows.append(
            (
                "Constraints",
                "; ".join(
                    f"{c.dimension} {'≠' if c.negated else '='} {c.value}"
                    + ("" if c.hard else " (soft)")
                    for c in plan.constraints
                ),
            )
        )
    if plan.intent != "two_sided":
        side = f" → {SIDE_LABELS.get(plan.target_side, '')}" if plan.target_side else ""
        rows.append(("Intent", plan.intent.replace("_", "-") + side))
    return rows
