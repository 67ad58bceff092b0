"""kata's light commands under two environments (two typer/click versions), as ratios measured in one run.

    python benchmarks/typer_versions.py /path/to/venv-a/bin/python /path/to/venv-b/bin/python [--runs 15]

Each round runs every command once in each environment, in turn (interleaved), so a burst of load on a shared
machine hits both alike; each figure is the median over rounds of wall seconds and of CPU seconds (user + sys of
the process and its children, which load distorts less). Both environments must have kata installed from the same
tree (`pip install --no-deps -e .`). The README's Notebook section quotes the result for typer 0.16 against the
newest typer and Colab's.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = [["--help"], ["list"], ["hint", "gae"], ["nosuchcommand"]]


def _versions(python: str) -> str:
    code = "import importlib.metadata as m; print(' '.join(f'{p} {m.version(p)}' for p in ('typer', 'click', 'rich')))"
    return subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def _run(python: str, args: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([python, "-m", "cli", *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("other")
    parser.add_argument("--runs", type=int, default=15)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "KATA_HOME": home, "KATA_LANG": "en", "NO_COLOR": "1", "COLUMNS": "80"}
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(opts.runs):
            for args in COMMANDS:
                for python in (opts.base, opts.other):
                    times.setdefault((python, " ".join(args)), []).append(_run(python, args, env))
    print(f"base:  {_versions(opts.base)}\nother: {_versions(opts.other)}")
    print(f"{'kata …':<18}{'base wall':>11}{'other wall':>12}{'ratio':>8}{'base cpu':>11}{'other cpu':>11}{'ratio':>8}")
    for args in COMMANDS:
        key = " ".join(args)
        bw, bc = (statistics.median(x[i] for x in times[(opts.base, key)]) for i in (0, 1))
        ow, oc = (statistics.median(x[i] for x in times[(opts.other, key)]) for i in (0, 1))
        print(f"{key:<18}{bw:>10.3f}s{ow:>11.3f}s{ow / bw:>7.2f}×{bc:>10.3f}s{oc:>10.3f}s{oc / bc:>7.2f}×")


if __name__ == "__main__":
    sys.exit(main())
