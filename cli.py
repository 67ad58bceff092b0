"""kata — practise the code ML interviews ask you to write from memory.

Thin typer commands: parse, call into `checker`, render, exit with a named code. torch is only
imported by the commands that run code (check); the others start as fast as typer and rich.
"""
from __future__ import annotations

import json
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
err = Console(stderr=True, highlight=False)


def complete_kata(incomplete: str) -> list[str]:
    return [k for k in catalog.ids() if k.startswith(incomplete.replace("_", "-"))]


KataName = Annotated[str, typer.Argument(help="Kata id, e.g. gae (see 'kata list').", autocompletion=complete_kata)]


def _store() -> Store:
    return Store()


def _finish(store: Store, code: int = OK) -> None:
    store.flush_warnings()
    raise typer.Exit(code)


@app.command("list")
def list_katas() -> None:
    """List every kata with its topic, difficulty and your status.

    Example: kata list
    """
    from rich.table import Table

    store = _store()
    statuses = commands.statuses(store)
    table = Table(header_style="bold")
    for column in ("id", "title", "topic", "difficulty", "status"):
        table.add_column(column)
    colours = {"passed": "green", "attempted": "yellow", "revealed": "magenta", "new": "dim"}
    for kata in catalog.KATAS:
        status = statuses[kata.id]
        table.add_row(kata.id, kata.title, kata.topic, kata.difficulty, f"[{colours[status]}]{status}[/]")
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
    target: Annotated[Optional[str], typer.Argument(help="A kata id (its file here) or a path; default: the current kata.",
                                                    autocompletion=complete_kata)] = None,
    kata: Annotated[Optional[str], typer.Option("--kata", help="Which kata the file is for (default: its '# kata:' line).")] = None,
    device: Annotated[str, typer.Option(help="auto, cpu, cuda or mps.")] = "auto",
    seed: Annotated[Optional[int], typer.Option(help="Reproduce a run exactly.")] = None,
    case: Annotated[Optional[str], typer.Option(help="Run only this case (or family).")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON document and nothing else.")] = False,
    timeout: Annotated[float, typer.Option(help="Seconds your code may run in all.")] = 30.0,
    memory_gb: Annotated[float, typer.Option("--memory-gb", help="Memory your code may use (GiB).")] = 4.0,
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
    _finish(store, OK if result.passed else KATA_FAILED)


@app.command()
def reveal(name: KataName) -> None:
    """Show the hidden reference solution (recorded in your history).

    Example: kata reveal gae
    """
    from rich.syntax import Syntax

    store = _store()
    kata = catalog.get(name)
    source = commands.reveal(kata, store)
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


def main() -> None:
    """Console-script entry: one place turns KataError and Ctrl-C into a message and an exit code."""
    json_mode = "--json" in sys.argv
    try:
        app(standalone_mode=False)
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
    except Exception as exc:  # click's usage errors arrive here in standalone_mode=False
        import click

        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            sys.exit(USAGE)
        if isinstance(exc, click.exceptions.Abort):
            sys.exit(INTERRUPTED)
        raise


if __name__ == "__main__":
    main()
