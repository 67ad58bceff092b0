"""On a machine with a CUDA GPU: does kata's device simulation agree with the real device?

    python benchmarks/gpu_check.py [--corpus] [--jobs 4]

1. Every idiom of tests/judge/test_devices_idioms.py (small right and wrong ways to follow the inputs'
   device) runs with its inputs on CUDA and in the simulation (cuda:0 reported, computed on the CPU,
   checker/judge/devices.py). A row agrees when both raise, or both return a tensor on the same device
   type with the same shape, dtype and values; "filed" says whether the idiom is filed right or
   wrong, and CUDA must bear that out (right = works, with the result on the GPU).
2. `kata check <reference> --device cuda` for every kata, in fresh processes as a learner runs it:
   each must PASS. With --corpus, also every corpus file about devices (tests/corpus/*/, a `# why:`
   line that says device, GPU or CPU): right_* must pass, wrong_* must not.

Prints a table for each part and a last line, ALL AGREE or N DISAGREE; exit status 0 or 1.
About a minute on one GPU (the checks run --jobs at a time, 6 by default).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from checker.text import catalog  # noqa: E402
from tests.judge.test_devices_idioms import IDIOMS, Outcome, on_device, simulated  # noqa: E402


def said(outcome: Outcome) -> str:
    if outcome.raised:
        return "raises " + outcome.error.split(":")[0]
    return f"{outcome.device} {list(outcome.shape)} {str(outcome.dtype).removeprefix('torch.')}"


def print_table(title: str, header: tuple, rows: list[tuple]) -> None:
    print(f"\n{title}")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


def idioms() -> int:
    rows, bad = [], 0
    for idiom in IDIOMS:
        real, sim = on_device(idiom, "cuda"), simulated(idiom, "cuda")
        agree = real == sim
        if agree and not real.raised:
            agree = torch.allclose(real.values.double(), sim.values.double(), rtol=1e-4, atol=1e-5, equal_nan=True)
        filed_ok = real.works_on("cuda") == idiom.right
        bad += not (agree and filed_ok)
        verdict = "ok" if agree and filed_ok else "DISAGREE" if not agree else "FILED WRONG"
        rows.append((idiom.name, "right" if idiom.right else "wrong", said(real), said(sim), verdict))
    print_table(f"idioms on CUDA vs the simulation ({len(IDIOMS)})", ("idiom", "filed", "CUDA", "simulated", ""), rows)
    return bad


def check(path: Path, kata_id: str, home: str, device: str) -> dict:
    started = time.perf_counter()
    out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "check", str(path), "--kata", kata_id, "--device", device,
                          "--seed", "1", "--json"], capture_output=True, text=True, cwd=path.parent,
                         env={**os.environ, "KATA_HOME": home})
    try:
        data = json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"verdict": "crash", "passed": 0, "total": 0, "seconds": time.perf_counter() - started,
                "failing": (out.stderr or out.stdout)[-200:]}
    failing = [c["name"] for c in data["cases"] if c["status"] != "pass"]
    return {"verdict": data["verdict"], "passed": data["passed"], "total": data["total"],
            "seconds": time.perf_counter() - started, "failing": ", ".join(failing[:4]) or data.get("message", "")[:80]}


def checks(corpus: bool, jobs: int, device: str) -> int:
    work = Path(tempfile.mkdtemp(prefix="kata-gpu-"))
    plan = []  # (label, path, kata id, wants a pass)
    for kata in catalog.KATAS:
        if kata.reference_path.exists():
            target = work / kata.module / kata.filename
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f"# kata: {kata.id}\n" + kata.reference_path.read_text())
            plan.append((f"reference {kata.id}", target, kata.id, True))
    if corpus:
        for path in sorted((ROOT / "tests" / "corpus").glob("*/*.py")):
            lines = path.read_text().splitlines()
            if len(lines) > 1 and any(w in lines[1] for w in ("device", "GPU", "CPU")):
                plan.append((f"{path.parent.name}/{path.name}", path, lines[0].split(":", 1)[1].strip(),
                             path.name.startswith("right_")))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda p: check(p[1], p[2], str(work / "home"), device), plan))
    rows, bad = [], 0
    for (label, _, _, wants_pass), r in zip(plan, results):
        ok = (r["verdict"] == "pass") == wants_pass and r["verdict"] != "crash"
        bad += not ok
        rows.append((label, "pass" if wants_pass else "fail", r["verdict"], f"{r['passed']}/{r['total']}",
                     f"{r['seconds']:.1f} s", "ok" if ok else "WRONG", "" if ok and wants_pass else r["failing"]))
    print_table(f"kata check --device {device} ({len(plan)})", ("file", "wants", "verdict", "cases", "time", "", "failing"), rows)
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="store_true", help="also check the corpus files about devices on CUDA")
    parser.add_argument("--jobs", type=int, default=6, help="kata checks run at a time")
    parser.add_argument("--dry-run", action="store_true", help="no GPU: run the checks on the CPU, skip the idioms")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.dry_run:
        bad = checks(args.corpus, args.jobs, "cpu")
    elif not torch.cuda.is_available():
        sys.exit("no CUDA GPU here: this script compares the simulation with a real one (--dry-run runs the checks on the CPU)")
    else:
        print(f"torch {torch.__version__} on {torch.cuda.get_device_name(0)}")
        bad = idioms() + checks(args.corpus, args.jobs, "cuda")
    print(f"\n{'ALL AGREE' if not bad else f'{bad} DISAGREE'} in {time.perf_counter() - started:.0f} s")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
