"""kata — practise the code ML interviews ask you to write from memory.

Thin typer commands: parse, call into `checker`, render, exit with a named code. torch is only
imported by the commands that run code (check); the others start as fast as typer and rich.
"""
from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from checker import catalog, commands
from checker.errors import INTERRUPTED, KATA_FAILED, OK, USAGE, KataError
from checker.state import Event, Store

app = typer.Typer(
    add_completion=True,
    no_args_is_help=True,
    rich_markup_mode="rich",
    help="Practise the code ML and LLM interviews ask you to write from memory.\n\n"
         "Start with [bold]kata list[/], then [bold]kata start gae[/] and [bold]kata check gae[/].",
)
console = Console(highlight=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)  # messages stay one line, copy-pasteable


def complete_kata(incomplete: str) -> list[str]:
    return [k for k in catalog.ids() if k.startswith(incomplete.replace("_", "-"))]


KataName = Annotated[str, typer.Argument(help="Kata id, e.g. gae (see 'kata list').", autocompletion=complete_kata)]
TargetArg = Annotated[Optional[str], typer.Argument(help="A kata id (its file here) or a path; default: the current kata.",
                                                   autocompletion=complete_kata)]
KataOpt = Annotated[Optional[str], typer.Option("--kata", help="Which kata the file is for (default: its '# kata:' line).")]
DeviceOpt = Annotated[str, typer.Option(help="auto, cpu, cuda or mps.")]
MemoryOpt = Annotated[float, typer.Option("--memory-gb", help="Memory your code may use (GiB).")]


def _store() -> Store:
    return Store()


def _finish(store: Store, code: int = OK) -> None:
    store.flush_warnings()
    raise typer.Exit(code)


@app.command("list")
def list_katas() -> None:
    """List every kata with its topic, difficulty, your status, best time to pass and when you last practised it.

    Example: kata list
    """
    from rich.table import Table

    from rich import box

    from checker import practice

    store = _store()
    progress = practice.progress_all(store.events())
    wide = console.width >= 120  # the title column goes first on a narrow terminal
    table = Table(header_style="bold", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in ("id", "title", "topic", "level", "status", "best", "last practised"):
        if column != "title" or wide:
            table.add_column(column, no_wrap=column != "title")
    colours = {"passed": "green", "attempted": "yellow", "revealed": "magenta", "new": "dim"}
    for kata in catalog.KATAS:
        p = progress[kata.id]
        row = [kata.id, kata.title, kata.topic, kata.difficulty, f"[{colours[p.status]}]{p.status}[/]",
               practice.duration(p.best_seconds), practice.ago(p.last_at)]
        table.add_row(*(row if wide else row[:1] + row[2:]))
    console.print(table)
    _finish(store)


@app.command()
def start(
    name: KataName,
    dir: Annotated[Path, typer.Option("--dir", "-d", help="Where to write the stub.")] = Path("."),
    force: Annotated[bool, typer.Option("--force", help="Start over: back up the existing file, then write the stub.")] = False,
) -> None:
    """Write the kata's stub (signature + contract, no answer) and make it the current kata.

    Example: kata start gae --dir practice/
    """
    store = _store()
    kata = catalog.get(name)
    path, saved = commands.start(kata, dir, force, store)
    if saved:
        console.print(f"Kept your previous file as [bold]{saved}[/].")
    console.print(f"Wrote [bold]{path}[/] — {kata.summary}.")
    console.print(f"Write [bold]{kata.entry}[/], then run [bold]kata check {kata.id}[/]. Stuck? [bold]kata hint {kata.id}[/].")
    _finish(store)


@app.command()
def check(
    target: TargetArg = None,
    kata: KataOpt = None,
    device: DeviceOpt = "auto",
    seed: Annotated[Optional[int], typer.Option(help="Reproduce a run exactly.")] = None,
    case: Annotated[Optional[str], typer.Option(help="Run only this case (or family).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON document and nothing else.")] = False,
    timeout: Annotated[float, typer.Option(help="Seconds your code may run in all.")] = 30.0,
    memory_gb: MemoryOpt = 4.0,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show every failing case in full.")] = False,
    bench: Annotated[bool, typer.Option(help="Also time your code against the reference on a large input.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No colours.")] = False,
) -> None:
    """Check your file against the kata: named edge cases first, then random draws.

    Example: kata check gae --seed 81723 --case done_at_last_step
    """
    from checker.engine import Request, check as run_check
    from checker.worker import Limits, MiB

    store = _store()
    resolved = commands.resolve_target(target, kata, store)
    if timeout <= 0 or memory_gb <= 0:
        raise KataError("--timeout and --memory-gb must be positive.")
    limits = Limits(seconds=timeout, memory_bytes=int(memory_gb * 1024 * MiB))
    request = Request(resolved.kata, resolved.path, device=device, seed=seed, case=case, limits=limits, bench=bench)
    result = run_check(request)
    if target is not None or case is None:
        commands.remember(store, resolved.kata, resolved.path)
    store.record(Event(result.kata, "check", time.time(), verdict=result.status.value,
                       passed=sum(c.status.value == "pass" for c in result.cases), total=len(result.cases),
                       seconds=result.seconds, detail=f"seed {result.seed}"))
    if json_out:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        from checker.render import report

        out = Console(highlight=False, no_color=no_color or None)
        out.print(report(result, verbose=verbose))
        if bench and result.bench is None:
            out.print("[dim]bench: runs only once every case passes.[/]" if not result.passed
                      else f"[dim]bench: {resolved.kata.id} has no benchmark input.[/]")
    _finish(store, OK if result.passed else KATA_FAILED)


@app.command()
def reveal(
    name: KataName,
    diff: Annotated[bool, typer.Option("--diff", help="Show your attempt and the reference side by side.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Reveal without asking, even if you never passed it.")] = False,
) -> None:
    """Show the hidden reference solution (recorded in your history; asks first if you never passed it).

    Example: kata reveal gae --diff
    """
    from rich.syntax import Syntax

    from checker import practice

    store = _store()
    kata = catalog.get(name)
    attempt = commands.attempt_path(kata, store) if diff else None
    if diff and attempt is None:
        raise KataError(f"No attempt at {kata.id} to compare: no {kata.filename} here, and none started elsewhere. "
                        f"Run 'kata reveal {kata.id}' without --diff.")
    if not yes and not commands.ever_passed(kata, store):
        if not sys.stdin.isatty():
            raise KataError(f"You have not passed {kata.id} yet, and revealing it marks it revealed. "
                            f"Run 'kata reveal {kata.id} --yes' to see it anyway.")
        try:
            answer = console.input(f"You have not passed {kata.id} yet. Reveal the reference (it is marked revealed)? [y/N] ",
                                   markup=False)
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            console.print("Nothing revealed. Stuck? 'kata hint " + kata.id + "' gives a nudge.")
            _finish(store)
    source = commands.reveal(kata, store)
    if attempt is not None:
        console.print(practice.side_by_side(attempt.read_text(encoding="utf-8", errors="replace"), source,
                                            left=f"yours: {attempt}", right=f"reference: {kata.filename}"))
    else:
        console.print(Syntax(source, "python", line_numbers=True, theme="ansi_dark"))
    _finish(store)


@app.command()
def hint(name: KataName) -> None:
    """Show the next hint for a kata: from a nudge to the key line, one per call.

    Example: kata hint gae
    """
    store = _store()
    kata = catalog.get(name)
    number, text = commands.next_hint(kata, store)
    console.print(f"[bold]Hint {number}/{len(kata.hints)}[/] for {kata.id}: {text}")
    _finish(store)


@app.command()
def watch(
    target: TargetArg = None,
    kata: KataOpt = None,
    device: DeviceOpt = "auto",
    seed: Annotated[Optional[int], typer.Option(help="Seed for every re-check (default: one per session; r draws a new one).")] = None,
    timeout: Annotated[float, typer.Option(help="Seconds your code may run per check.")] = 10.0,
    memory_gb: MemoryOpt = 4.0,
    poll: Annotated[bool, typer.Option("--poll", help="Notice saves by polling only (for file systems without events).")] = False,
) -> None:
    """Re-check your file every time you save it. Keys: h next hint, r re-run with a new seed, q quit.

    Example: kata watch gae
    """
    from checker.watch import watch as run_watch

    store = _store()
    resolved = commands.resolve_target(target, kata, store)
    code = run_watch(resolved.kata, resolved.path, store, console, device=device, seed=seed, seconds=timeout,
                     memory_gb=memory_gb, poll=poll)
    _finish(store, code)


@app.command()
def stats() -> None:
    """Your progress per topic, your streak of days with a check, and the katas that fail most.

    Example: kata stats
    """
    from checker import practice

    store = _store()
    console.print(practice.stats_view(store.events()))
    _finish(store)


@app.command("next")
def next_kata(
    topic: Annotated[Optional[str], typer.Option(help="Only katas of this topic.")] = None,
    count: Annotated[int, typer.Option("--count", "-n", help="How many suggestions.")] = 3,
) -> None:
    """Suggest what to practise next, by spaced repetition, and say why.

    Failed or revealed recently first, then reviews that are due (sooner when you were slow),
    then katas you have not practised.

    Example: kata next
    """
    from checker import practice

    store = _store()
    ranked = practice.suggest(store.events(), topic=topic)
    if not ranked:
        raise KataError(f"No katas in topic '{topic}'.")
    first, rest = ranked[0], ranked[1:max(1, count)]
    console.print(f"Next: [bold cyan]{first.kata.id}[/] — {first.kata.title}: {first.why}.")
    if practice.progress(first.kata.id, store.events()).status == "new":
        console.print(f"Start it with [bold]kata start {first.kata.id}[/], then [bold]kata watch {first.kata.id}[/].")
    else:
        console.print(f"Redo it from the stub with [bold]kata reset {first.kata.id}[/] (your file is backed up), "
                      f"then [bold]kata watch {first.kata.id}[/].")
    for s in rest:
        console.print(f"  then {s.kata.id}: {s.why}", style="dim")
    _finish(store)


@app.command()
def interview(
    minutes: Annotated[float, typer.Option(help="Time allowed.")] = 30.0,
    topic: Annotated[Optional[str], typer.Option(help="Pick from this topic only (attention, helpers, rl).")] = None,
    dir: Annotated[Path, typer.Option("--dir", "-d", help="Where to write the stub.")] = Path("."),
    device: Annotated[str, typer.Option(help="auto, cpu, cuda or mps.")] = "auto",
    poll: Annotated[bool, typer.Option("--poll", help="Notice saves by polling only.")] = False,
) -> None:
    """A timed mock interview: a kata you have not mastered, a fresh stub, a countdown; each save is checked.

    Hints (h) and reveals during it are recorded as part of the interview.

    Example: kata interview --minutes 20 --topic rl
    """
    from checker.watch import interview as run_interview

    store = _store()
    code = run_interview(store, console, minutes=minutes, topic=topic, directory=dir, device=device, poll=poll)
    _finish(store, code)


@app.command()
def reset(
    name: Annotated[Optional[str], typer.Argument(help="Kata id to restore.", autocompletion=complete_kata)] = None,
    every: Annotated[bool, typer.Option("--all", help="Restore every kata you have a file for.")] = False,
) -> None:
    """Restore a kata's stub to redo it; your file is kept as a numbered backup.

    Example: kata reset gae
    """
    if (name is None) == (not every):
        raise KataError("Give a kata id, or --all: 'kata reset gae' or 'kata reset --all'.")
    store = _store()
    katas = list(catalog.KATAS) if every else [catalog.get(name)]
    done = commands.reset(katas, store, every=every)
    for r in done:
        kept = f" (your file is kept as [bold]{r.saved}[/])" if r.saved else ""
        console.print(f"Restored the stub of {r.kata.id} at [bold]{r.path}[/]{kept}.")
    if not done:
        console.print("No kata files found to reset.")
    _finish(store)


@app.command()
def demo(
    name: Annotated[Optional[str], typer.Argument(help="Kata id (default: a random one).", autocompletion=complete_kata)] = None,
    mistake: Annotated[Optional[str], typer.Option(help="Which known mistake: a number or part of its label (default: random).")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Replay a demo exactly.")] = None,
    device: Annotated[str, typer.Option(help="auto, cpu, cuda or mps.")] = "auto",
    no_color: Annotated[bool, typer.Option("--no-color", help="No colours.")] = False,
) -> None:
    """See what kata does: check a solution with one known mistake, then the reference. Writes no history.

    Example: kata demo gae --mistake "dones ignored"
    """
    from checker.demo import run as run_demo

    out = Console(highlight=False, no_color=no_color or None)
    raise typer.Exit(run_demo(out, name, mistake, seed=seed, device=device))


def main() -> None:
    """Console-script entry: one place turns KataError and Ctrl-C into a message and an exit code."""
    json_mode = "--json" in sys.argv
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with Ctrl-C ignored
    try:
        code = app(standalone_mode=False)  # in this mode typer returns the exit code of typer.Exit
    except KataError as exc:
        if json_mode:
            sys.stdout.write(json.dumps({"error": exc.message, "exit_code": exc.exit_code}) + "\n")
        else:
            err.print(f"[bold red]kata:[/] {exc.message}")
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        err.print("\nkata: interrupted.")
        sys.exit(INTERRUPTED)
    except Exception as exc:  # usage errors arrive here in standalone_mode=False
        # typer vendors click (typer._click), so recognise its errors by shape, not by import.
        show, exit_code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
        if callable(show) and isinstance(exit_code, int):
            show()
            sys.exit(USAGE)
        if type(exc).__name__ == "Abort":
            sys.exit(INTERRUPTED)
        raise
    sys.exit(code if isinstance(code, int) else OK)


if __name__ == "__main__":
    main()
