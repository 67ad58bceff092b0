"""Save-to-verdict latency of `kata watch` (warm checker) against a cold `kata check`, same run.

For each kata, a correct solution (the reference, copied to a temporary directory) is checked
  cold: `kata check FILE --kata ID --seed S --device cpu --json` as a fresh process, timed from
        launch to exit (torch import included, as a learner pays it on every check);
  warm: by the real watcher of `kata watch` (file events, stat poll, check, history, redraw),
        timed from the moment the file is rewritten to the moment the new verdict is drawn.
Each figure is the median of --runs runs. The target is a warm re-check of <= 0.3 s on CPU.

    python benchmarks/watch_latency.py                 # every kata, 5 runs each
    python benchmarks/watch_latency.py --katas gae,mha --runs 9 --poll
"""
from __future__ import annotations

import argparse
import io
import json
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

TARGET_SECONDS = 0.3


def cold(path: Path, kata_id: str, seed: int, env: dict[str, str]) -> float:
    command = [sys.executable, str(ROOT / "cli.py"), "check", str(path), "--kata", kata_id,
               "--seed", str(seed), "--device", "cpu", "--json"]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=path.parent, env=env, capture_output=True, text=True, timeout=300)
    seconds = time.perf_counter() - started
    verdict = json.loads(done.stdout.strip().splitlines()[-1]).get("verdict") if done.stdout.strip() else None
    if verdict != "pass":
        raise RuntimeError(f"cold check of {kata_id} did not pass: {verdict} {done.stderr[-500:]}")
    return seconds


def warm(path: Path, kata_id: str, seed: int, runs: int, poll: bool) -> tuple[list[float], list[float]]:
    """(save → verdict seconds, engine seconds) for `runs` saves under one watcher."""
    from rich.console import Console

    from checker.text import catalog
    from checker.app.state import Store
    from checker.app.watch import KeyReader, Watcher

    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    watcher = Watcher(catalog.get(kata_id), path, Store(), console, KeyReader(None), device="cpu", seed=seed,
                      events=not poll)
    try:
        first = watcher.recheck()  # what `kata watch` does when it starts; not timed
        if first is None or not first.passed:
            raise RuntimeError(f"warm check of {kata_id} did not pass")
        latencies, engine = [], []
        source = path.read_text()
        for i in range(runs):
            before = watcher.checks
            time.sleep(0.05)  # a learner's saves are never back to back
            path.write_text(source + f"\n# save {i}\n")
            saved = time.perf_counter()
            while watcher.checks == before:
                watcher.step(timeout=0.05)
            latencies.append(time.perf_counter() - saved)
            engine.append(watcher.result.seconds)
            if not watcher.result.passed:
                raise RuntimeError(f"warm re-check of {kata_id} did not pass")
        return latencies, engine
    finally:
        watcher.files.close()


def main() -> int:
    from checker.text import catalog

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--katas", default=",".join(catalog.ids()), help="comma-separated kata ids (default: all)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--poll", action="store_true", help="watch by polling only (no file events)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a kata misses the target")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="kata-bench-"))
    os.environ["KATA_HOME"] = str(home / "kata-home")  # never the learner's own history
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    print(f"watch latency: cold `kata check` vs warm `kata watch` re-check, median of {args.runs} runs, "
          f"CPU, {os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f} at start), "
          f"{'polling' if args.poll else 'file events'}")
    header = f"{'kata':<20} {'cold s':>7} {'warm s':>7} {'engine s':>8} {'cold/warm':>9} {'warm/cold':>9}  target ≤{TARGET_SECONDS:g} s"
    print(header)
    print("-" * len(header))
    missed, rows = [], []
    try:
        for kata_id in [k.strip() for k in args.katas.split(",") if k.strip()]:
            kata = catalog.get(kata_id)
            path = home / kata.filename
            if kata.needs == "triton":  # a kernel kata's reference is torch: it launches no kernel; a solution does
                shutil.copyfile(sorted((kata.content_dir / "solutions").glob("*.py"))[0], path)
            else:
                shutil.copyfile(kata.reference_path, path)
            try:
                colds = [cold(path, kata.id, args.seed, env) for _ in range(args.runs)]
                latencies, engine = warm(path, kata.id, args.seed, args.runs, args.poll)
            except Exception as exc:  # noqa: BLE001 — a kata still being written should not stop the table
                print(f"{kata.id:<20} skipped: {exc}")
                continue
            c, w, e = statistics.median(colds), statistics.median(latencies), statistics.median(engine)
            ok = w <= TARGET_SECONDS
            missed += [] if ok else [kata.id]
            rows.append((c, w))
            print(f"{kata.id:<20} {c:7.3f} {w:7.3f} {e:8.3f} {c / w:8.1f}x {w / c:9.2f}  {'ok' if ok else 'MISSED'}")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if rows:
        c, w = statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)
        print("-" * len(header))
        print(f"{'median':<20} {c:7.3f} {w:7.3f} {'':>8} {c / w:8.1f}x {w / c:9.2f}  "
              f"{len(rows) - len(missed)}/{len(rows)} katas within {TARGET_SECONDS:g} s")
    if missed:
        print(f"missed the target: {', '.join(missed)} (load average {os.getloadavg()[0]:.1f} at the end)")
    return 1 if (missed and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())
