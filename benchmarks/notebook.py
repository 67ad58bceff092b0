"""The notebook's checks on a real Jupyter kernel, against `import torch` measured in the same run.

    python benchmarks/notebook.py [--runs 3] [--katas gae,mha]

Each round starts a fresh kernel (this venv's ipykernel, tests/app/notebook/harness.py), runs `import kata`, then:
- the first check of the kernel: `kata.check(id, file=…)` of the first kata's reference (with its `# kata:` line,
  copied out of the tree), timed inside the kernel; it starts the kernel's warm checker, which imports torch
  (bar: ≤ 1.5× `python -c "import torch"`, timed in the same round just before);
- later checks of every kata: the same call for each kata's reference, timed inside the kernel, twice: the first
  one of that kata in the kernel (the checker is warm, the kata's cases and reference are not yet) and a re-check
  (what a learner's loop of edit and run-the-cell costs; bar: ≤ 0.5 s for every kata).
The report is printed as a learner sees it and counted in; figures are medians over rounds.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.text import catalog  # noqa: E402  (import-light: no torch)
from tests.app.notebook.harness import Kernel  # noqa: E402

TIMED = ("import time, json\n_t = time.perf_counter()\n_r = kata.check({id!r}, file={path!r}, seed=1)\n"
         "print('KATA_TIMED', json.dumps([time.perf_counter() - _t, _r.status.value]))")


def _floor() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import torch"], check=True)
    return time.perf_counter() - start


def _timed(kernel: Kernel, kata_id: str, path: Path) -> float:
    ran = kernel.run(TIMED.format(id=kata_id, path=str(path)), timeout=300)
    line = next(x for x in ran.text.splitlines() if x.startswith("KATA_TIMED"))
    seconds, status = json.loads(line.split(" ", 1)[1])
    if status != "pass":
        raise SystemExit(f"{kata_id}: the reference did not pass in the notebook ({status})")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--katas", default="", help="comma-separated ids (default: every kata)")
    opts = parser.parse_args()
    katas = [catalog.get(k) for k in opts.katas.split(",")] if opts.katas else list(catalog.KATAS)
    floors, firsts = [], []
    later, again = {k.id: [] for k in katas}, {k.id: [] for k in katas}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for kata in katas:
            text = (ROOT / "reference" / kata.filename).read_text(encoding="utf-8")
            files[kata.id] = Path(tmp) / kata.filename
            files[kata.id].write_text(f"# kata: {kata.id}\n{text}", encoding="utf-8")
        for _ in range(opts.runs):
            home = tempfile.mkdtemp(dir=tmp)
            floors.append(_floor())
            with Kernel(env={"KATA_HOME": home, "KATA_LANG": "en", "NO_COLOR": "1"}, cwd=home) as k:
                k.run("import kata")
                firsts.append(_timed(k, katas[0].id, files[katas[0].id]))
                for kata in katas:
                    later[kata.id].append(_timed(k, kata.id, files[kata.id]))
                    again[kata.id].append(_timed(k, kata.id, files[kata.id]))
    floor, first = statistics.median(floors), statistics.median(firsts)
    print(f"import torch {floor:.2f} s; first check of a kernel ({katas[0].id}) {first:.2f} s = {first / floor:.2f}× "
          f"(bar 1.5×)")
    for name, table in (("first check of each kata", later), ("re-check of each kata", again)):
        rows = sorted(((statistics.median(v), k) for k, v in table.items()), reverse=True)
        over = [(s, k) for s, k in rows if s > 0.5]
        print(f"{name} (bar 0.5 s): median over katas {statistics.median(s for s, _ in rows):.3f} s, slowest "
              f"{rows[0][1]} {rows[0][0]:.3f} s; over the bar: {', '.join(f'{k} {s:.3f}' for s, k in over) or 'none'}")

if __name__ == "__main__":
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    main()
