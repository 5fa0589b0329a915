"""The golden record of what the rules read on the development sets (issue 35, step 1).

Two JSONL files under ``tests/golden/``, one line per item, keys sorted, so that a
change shows as a line diff:

* ``followups.jsonl``: every later turn of every development dialogue set
  (``tests/data/conversation_dev*.jsonl``) read by the rules alone
  (:func:`assistant.understand.followup.resolve` with no judge), against the plan in
  force as ``sphere eval conversation`` threads it: whether it follows, the edit, its
  value, the rule that decided and the plan changes;
* ``plans.jsonl``: every question of ``tests/data/understand_dev.jsonl`` parsed by the
  rules (:func:`assistant.understand.parse_rules`): intent, side, root, claims,
  constraints, aspects and perspectives.

The learned readers (turn-kind model, turn reader, facet judge) are left out: their
probabilities agree across CPUs only to float tolerance, and a golden file must not
depend on one machine. The sealed test sets are never read here.

``python -m tests.golden_understanding`` rewrites both files; ``tests/test_golden_understanding.py``
checks that the code still produces them byte for byte.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
GOLDEN = REPO / "tests" / "golden"
FOLLOWUPS = GOLDEN / "followups.jsonl"
PLANS = GOLDEN / "plans.jsonl"


def dialogue_sets() -> list[Path]:
    """The development dialogue sets, in their natural order (dev, dev2, …, dev20)."""

    def number(p: Path) -> int:
        m = re.search(r"(\d+)$", p.stem)
        return int(m.group(1)) if m else 1

    return sorted(DATA.glob("conversation_dev*.jsonl"), key=number)


def _line(row: dict[str, Any]) -> str:
    return json.dumps(row, sort_keys=True, ensure_ascii=False)


def followup_rows() -> Iterator[str]:
    from assistant.errors import InputError
    from assistant.understand import parse_rules
    from assistant.understand.dialogues import load_dialogues
    from assistant.understand.followup import FollowUp, Rule, asked_about, resolve

    for path in dialogue_sets():
        for d in load_dialogues(path):
            plan = parse_rules(d["turns"][0]["text"])
            asked: tuple[str, list[int]] | None = None
            for i, t in enumerate(d["turns"][1:], start=2):
                try:
                    got = resolve(t["text"], plan, None, asked)
                except InputError:
                    got = FollowUp(False, "new_topic", by=Rule.BAD_INPUT)
                asked = asked_about(got)
                yield _line(
                    {
                        "set": path.stem,
                        "id": d.get("id"),
                        "turn": i,
                        "text": t["text"],
                        "follows": got.follows,
                        "edit": got.edit,
                        "value": got.value,
                        "rule": got.rule,
                        "changes": got.changes,
                    }
                )
                if not got.follows:
                    plan = parse_rules(t["text"])
                elif got.plan is not None:
                    plan = got.plan


def plan_rows() -> Iterator[str]:
    from assistant.eval.understand import load_items
    from assistant.understand import parse_rules

    for item in load_items(DATA / "understand_dev.jsonl"):
        plan = parse_rules(item.question)
        yield _line(
            {
                "id": item.id,
                "question": item.question,
                "intent": plan.intent,
                "side": plan.target_side,
                "root": plan.root_query,
                "claims": list(plan.claims),
                "constraints": [
                    [c.dimension, c.value, c.negated, c.hard, c.text] for c in plan.constraints
                ],
                "aspects": [a.text for a in plan.aspects],
                "perspectives": [[p.text, p.role, p.side] for p in plan.perspectives],
            }
        )


def render(path: Path) -> str:
    """The text the golden file ``path`` should hold."""
    rows = followup_rows() if path == FOLLOWUPS else plan_rows()
    return "".join(r + "\n" for r in rows)


def main() -> int:
    for path in (FOLLOWUPS, PLANS):
        text = render(path)
        path.write_text(text, encoding="utf-8")
        print(f"{path.relative_to(REPO)}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
