"""Start-up, check time and memory as ratios against floors measured in the same run.

    python benchmarks/startup.py [--runs 5] [--katas gae,mha]

Floors: `python -c "import typer, rich"` for the light commands (target ≤ 1.5×), `python -c
"import torch"` for a cold `kata check` of a correct solution (target ≤ 1.25×) and for the peak
memory of a check (target ≤ 1.3×). Medians of several runs, since this machine is shared and noisy.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.text import catalog  # noqa: E402  (import-light: no torch)

PY = sys.executable
KATA = [PY, str(ROOT / "cli.py")]


def wall(cmd: list[str], cwd: Path, env: dict, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def peak_rss_mb(cmd: list[str], cwd: Path, env: dict) -> float:
    """Largest resident set of any process in the command's tree (ru_maxrss of waited-for children)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([PY, "-c", probe, *cmd], cwd=cwd, env=env, capture_output=True, text=True)
    return int(out.stdout.strip()) / 1024


def row(name: str, value: float, floor: float, target: float, unit: str = "s") -> tuple:
    ratio = value / floor
    return name, f"{value:.3f} {unit}", f"{ratio:.2f}×", f"≤ {target}×", "ok" if ratio <= target else "OVER"


def print_table(title: str, rows: list[tuple], header: tuple) -> None:
    print(f"\n{title}")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--katas", default=",".join(catalog.ids()))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kata-bench-"))
    env = {**os.environ, "KATA_HOME": str(work / "home"), "PYTHONDONTWRITEBYTECODE": "0"}
    subprocess.run([*KATA, "start", "gae", "--dir", str(work)], env=env, capture_output=True)

    typer_floor = wall([PY, "-c", "import typer, rich"], work, env, args.runs)
    torch_floor = wall([PY, "-c", "import torch"], work, env, args.runs)
    print(f"floors: import typer, rich = {typer_floor:.3f} s · import torch = {torch_floor:.3f} s (median of {args.runs})")

    light = [("kata", []), ("kata --help", ["--help"]), ("kata list", ["list"]),
             ("kata start", ["start", "gae", "--force", "--dir", str(work / "s")]),
             ("kata hint", ["hint", "gae"]), ("kata reveal", ["reveal", "gae", "--yes"]),
             ("kata followup", ["followup", "gae"]), ("kata list --lang zh", ["list", "--lang", "zh"])]
    print_table("light commands vs import typer, rich", [row(n, wall([*KATA, *a], work, env, args.runs), typer_floor, 1.5) for n, a in light],
                ("command", "median", "ratio", "target", ""))
    typos = [("kata check casual-mask", ["check", "casual-mask"]), ("kata check nothere.py", ["check", "nothere.py"]),
             ("kata check gae --case nope", ["check", "gae", "--case", "nope"]),
             ("kata check gae --seed -1", ["check", "gae", "--seed", "-1"]),
             ("kata check gae --device cuda", ["check", "gae", "--device", "cuda"]),
             ("kata watch foo", ["watch", "foo"]), ("kata demo nope", ["demo", "nope"])]
    print_table("usage errors (found before torch loads) vs import typer, rich",
                [row(n, wall([*KATA, *a], work, env, args.runs), typer_floor, 1.5) for n, a in typos],
                ("command", "median", "ratio", "target", ""))

    rows, per_kata = [], []
    for kata_id in args.katas.split(","):
        kata = catalog.get(kata_id)
        target = work / kata.filename
        target.write_text(f"# kata: {kata.id}\n" + kata.reference_path.read_text())
        cmd = [*KATA, "check", str(target), "--seed", "1", "--device", "cpu"]
        seconds = wall(cmd, work, env, args.runs)
        rows.append(row(f"kata check {kata.id}", seconds, torch_floor, 1.25))
        out = subprocess.run([*cmd, "--json"], cwd=work, env=env, capture_output=True, text=True)
        import json

        data = json.loads(out.stdout)
        per_kata.append((kata.id, data["total"], f"{data['seconds']:.3f} s", data["verdict"]))
    print_table("cold check of a correct solution vs import torch", rows, ("command", "median", "ratio", "target", ""))
    print_table("per kata: cases and in-process check time", per_kata, ("kata", "cases", "check time", "verdict"))

    torch_mem = peak_rss_mb([PY, "-c", "import torch"], work, env)
    check_mem = peak_rss_mb([*KATA, "check", str(work / "gae.py"), "--seed", "1", "--device", "cpu"], work, env)
    print_table("peak memory (largest process) vs import torch",
                [row("kata check gae", check_mem, torch_mem, 1.3, "MiB")], ("command", "peak", "ratio", "target", ""))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
