"""Re-render every golden report after a deliberate change to the renderers:

    python tests/golden/regenerate.py

Then read `git diff tests/golden/` as a reviewer would: each change is what a learner will see.
The reports are built from the hand-made results in tests/golden/cases.py and rendered at a
fixed width without colour; tests/app/test_reports_golden.py compares them with these files.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.golden.cases import CASES, render  # noqa: E402


def main() -> None:
    for name, make in CASES.items():
        path = HERE / f"{name}.txt"
        text = render(make())
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        path.write_text(text, encoding="utf-8")
        print(f"{'updated' if changed else 'same   '} {path.relative_to(ROOT)}")
    known = {f"{name}.txt" for name in CASES}
    for stale in sorted(p for p in HERE.glob("*.txt") if p.name not in known):
        stale.unlink()
        print(f"removed {stale.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
