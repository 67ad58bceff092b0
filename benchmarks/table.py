"""Issue 23's table in one run: every kata's cold check and watch re-check, every light command and usage error,
each against its floor measured in the same run.

    python benchmarks/table.py                       # every kata, 3 interleaved rounds
    python benchmarks/table.py --runs 5 --katas gae,mha,flash-attention --no-watch

Floors: `python -c "import typer, rich"` for the light commands and usage errors (bar 1.5×), `python -c "import
torch"` for a cold `kata check` of a right file (the reference with its `# kata:` line; bar 1.25× per kata, median of
all katas 1.15×). Each round runs every floor and every command once, in turn (interleaved), so a burst of load
on a shared machine hits the floors and the commands alike; each figure is the median over rounds.

Two ratios per row. wall: seconds from launch to exit, what a learner waits. cpu: user + sys seconds of the whole
process tree (the check's children included), which the machine's load distorts less than wall time. The watch
column is `kata watch`'s save-to-verdict latency (benchmarks/watch_latency.py's method, each kata in a process of
its own as a learner's `kata watch` is; bar 0.3 s).
"""
from __future__ import annotations

import argparse
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
# One kata's watch latencies, in a fresh process: what a learner's `kata watch` process is (a process that had
# watched every kata before would be larger, and fork slower, than any learner's).
WATCH = """
import json, sys
from pathlib import Path
from watch_latency import warm
latencies, _ = warm(Path(sys.argv[2]), sys.argv[1], 1, int(sys.argv[3]), poll=False)
print(json.dumps(latencies))
"""
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from checker.text import catalog  # noqa: E402  (no torch)

PY = sys.executable
KATA = [PY, str(ROOT / "cli.py")]
LIGHT_BAR, CHECK_BAR, CHECK_MEDIAN_BAR, WATCH_BAR = 1.5, 1.25, 1.15, 0.3
# The Triton kernel katas' own bars (issue 36): a check imports triton and runs kernels under its interpreter,
# program after program. Their rows are left out of the torch katas' median.
KERNEL_CHECK_BAR, KERNEL_WATCH_BAR = 3.0, 2.0
KERNEL_IDS = {kata.id for kata in catalog.KATAS if kata.needs == "triton"}


def right_source(kata) -> str:
    """A right file's code: the reference's, or for a Triton kernel kata (whose reference is torch, computed in the
    checker's parent, and launches no kernel) its first solution's, without its `# kata:` line."""
    if kata.needs == "triton":
        first = sorted((kata.content_dir / "solutions").glob("*.py"))[0].read_text()
        return first.split("\n", 1)[1] if first.startswith("# kata:") else first
    return kata.reference_path.read_text()


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """(wall seconds, user + sys seconds of the process and every descendant it waited for).

    Waited for with a blocking wait4, not subprocess.run(timeout=…): with a timeout, Popen.wait polls in
    sleeps of up to 50 ms, which rounded every light command's time up to the next 50 ms (a 0.17 s command
    read 0.215 or 0.265 s, 1.3× or 1.6× its floor). A timer still kills a command that hangs."""
    import signal
    import threading

    started = time.perf_counter()
    process = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    killer = threading.Timer(600, lambda: os.kill(process.pid, signal.SIGKILL))
    killer.start()
    try:
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        killer.cancel()
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    return wall, usage.ru_utime + usage.ru_stime


def light_commands(work: Path) -> list[tuple[str, list[str]]]:
    return [("kata", []), ("kata --help", ["--help"]), ("kata list", ["list"]), ("kata start gae", ["start", "gae", "--force", "--dir", "s"]),
            ("kata hint gae", ["hint", "gae"]), ("kata reveal gae", ["reveal", "gae", "--yes"]), ("kata followup gae", ["followup", "gae"]),
            ("kata cases gae", ["cases", "gae"]), ("kata stats", ["stats"]), ("kata next", ["next"]), ("kata config", ["config"]),
            ("kata check --help", ["check", "--help"])]


def usage_errors(work: Path) -> list[tuple[str, list[str]]]:
    return [("kata check casual-mask", ["check", "casual-mask"]), ("kata check nothere.py", ["check", "nothere.py"]),
            ("kata check <a folder>", ["check", "s"]), ("kata check gae --nope", ["check", "gae", "--nope"]),
            ("kata check gae --seed -1", ["check", "gae", "--seed", "-1"]), ("kata check gae --case nope", ["check", "gae", "--case", "nope"]),
            ("kata check gae --device cuda", ["check", "gae", "--device", "cuda"]), ("kata watch foo", ["watch", "foo"]),
            ("kata check syntax_error.py", ["check", "syntax_error.py"]), ("kata check empty.py", ["check", "empty.py", "--kata", "gae"])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="interleaved rounds (medians; at least 3)")
    parser.add_argument("--katas", default=",".join(catalog.ids()))
    parser.add_argument("--langs", default="en,zh", help="languages of the light commands and usage errors")
    parser.add_argument("--no-watch", action="store_true", help="leave out the watch re-check column")
    parser.add_argument("--watch-runs", type=int, default=5)
    args = parser.parse_args()
    katas = [catalog.get(k.strip()) for k in args.katas.split(",") if k.strip()]
    langs = [lang.strip() for lang in args.langs.split(",") if lang.strip()]

    work = Path(tempfile.mkdtemp(prefix="kata-table-"))
    os.environ["KATA_HOME"] = str(work / "home")  # never the learner's own history
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Python writes kata's bytecode on a learner's first run and reads it on every run after; a shell with
    # PYTHONDONTWRITEBYTECODE set (as this project's sandbox has) would compile kata from source in every
    # measured command, while the torch floor reads the bytecode pip wrote. Compile it once, as that first run would.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "cli.py"), str(ROOT / "checker"), str(ROOT / "reference")],
                   env=env, capture_output=True)
    (work / "s").mkdir()
    (work / "syntax_error.py").write_text("# kata: gae\ndef compute_gae(rewards, values:\n    return 1\n")
    (work / "empty.py").write_text("")
    subprocess.run([*KATA, "start", "gae", "--dir", str(work)], env=env, capture_output=True)
    files = {}
    for kata in katas:
        path = work / "right" / kata.filename
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"# kata: {kata.id}\n" + right_source(kata))
        files[kata.id] = path

    # (section, label, command, floor) in the order of one round
    jobs: list[tuple[str, str, list[str], str]] = [("floor", "import typer, rich", [PY, "-c", "import typer, rich"], ""),
                                                   ("floor", "import torch", [PY, "-c", "import torch"], "")]
    for lang in langs:
        jobs += [("light", f"{label} ({lang})", [*KATA, "--lang", lang, *argv], "import typer, rich") for label, argv in light_commands(work)]
        jobs += [("usage error", f"{label} ({lang})", [*KATA, "--lang", lang, *argv], "import typer, rich")
                 for label, argv in usage_errors(work)]
    jobs += [("check", kata.id, [*KATA, "check", str(files[kata.id]), "--seed", "1", "--device", "cpu"], "import torch") for kata in katas]

    load = os.getloadavg()[0]
    samples: dict[str, list[tuple[float, float]]] = {label: [] for _, label, _, _ in jobs}
    for round_ in range(args.runs):
        print(f"round {round_ + 1}/{args.runs} …", file=sys.stderr, flush=True)
        for _, label, cmd, _ in jobs:
            samples[label].append(timed(cmd, work, env))

    watch: dict[str, float | str] = {}
    if not args.no_watch:
        for kata in katas:  # each in a process of its own, as a learner watches one kata at a time
            print(f"watch {kata.id} …", file=sys.stderr, flush=True)
            done = subprocess.run([PY, "-c", WATCH, kata.id, str(files[kata.id]), str(args.watch_runs)],
                                  env={**env, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "benchmarks")])},
                                  capture_output=True, text=True, timeout=600)
            lines = done.stdout.strip().splitlines()
            if done.returncode == 0 and lines:
                watch[kata.id] = statistics.median(json.loads(lines[-1]))
            else:  # one kata that cannot be watched should not lose the table
                watch[kata.id] = f"error: {(done.stderr.strip().splitlines() or ['?'])[-1]}"[:40]

    median = {label: (statistics.median(s[0] for s in got), statistics.median(s[1] for s in got)) for label, got in samples.items()}
    header = ("section", "command", "wall s", "wall ×", "cpu s", "cpu ×", "bar", "watch s", "")
    rows: list[tuple] = []
    check_ratios: list[tuple[float, float]] = []
    over: list[str] = []
    for section, label, _, floor in jobs:
        wall, cpu = median[label]
        if section == "floor":
            rows.append((section, label, f"{wall:.3f}", "", f"{cpu:.3f}", "", "", "", ""))
            continue
        floor_wall, floor_cpu = median[floor]
        rw, rc = wall / floor_wall, cpu / floor_cpu
        kernel = section == "check" and label in KERNEL_IDS
        bar = (KERNEL_CHECK_BAR if kernel else CHECK_BAR) if section == "check" else LIGHT_BAR
        seen = watch.get(label, "") if section == "check" else ""
        watch_ok = not isinstance(seen, str) and seen <= (KERNEL_WATCH_BAR if kernel else WATCH_BAR) or seen == ""
        ok = rw <= bar and watch_ok
        if section == "check" and not kernel:
            check_ratios.append((rw, rc))
        if not ok:
            over.append(label)
        rows.append((section, label, f"{wall:.3f}", f"{rw:.2f}", f"{cpu:.3f}", f"{rc:.2f}", f"≤ {bar}",
                     seen if isinstance(seen, str) else f"{seen:.3f}", "ok" if ok else "OVER"))
    if check_ratios:
        mw, mc = statistics.median(r[0] for r in check_ratios), statistics.median(r[1] for r in check_ratios)
        rows.append(("check", f"median of {len(check_ratios)} katas", "", f"{mw:.2f}", "", f"{mc:.2f}", f"≤ {CHECK_MEDIAN_BAR}", "",
                     "ok" if mw <= CHECK_MEDIAN_BAR else "OVER"))

    print(f"kata benchmark: {args.runs} interleaved rounds, medians; {os.cpu_count()} cores, load average {load:.1f} at the "
          f"start and {os.getloadavg()[0]:.1f} at the end; Python {sys.version.split()[0]}; the wall ratio is the bar, the cpu "
          f"ratio (user + sys of the process tree) is what load distorts less. watch: save → verdict, bar {WATCH_BAR} s, "
          f"median of {args.watch_runs}. Triton kernel katas: cold check ≤ {KERNEL_CHECK_BAR}×, watch ≤ "
          f"{KERNEL_WATCH_BAR} s, outside the median.")
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
    if over:
        print(f"over a bar: {', '.join(over)}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
