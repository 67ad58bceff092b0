"""kata — practise the code ML interviews ask you to write from memory.

Thin typer commands: parse, call into `checker`, render, exit with a named code. The language is
chosen before anything is printed (--lang > KATA_LANG > `kata config lang` > the locale); torch is
imported only for a check, by a worker `kata check` forks before typer loads (checker/app/prefork.py), so a typo
costs no more than starting typer, and a check no more than importing torch.
"""

import os
import signal
import sys

# Said when Ctrl-C comes before `main` can say it through tr() (content/ui/zh.toml has the same words).
_INTERRUPTED = {"en": "kata: interrupted.", "zh": "kata：已中断。"}


def _startup_lang() -> str:
    """The language `main` would choose (--lang > KATA_LANG > `kata config lang` > the locale), read without
    importing anything of kata's: Ctrl-C can come while those imports run."""
    argv = sys.argv[1:]
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return "zh" if argv[i + 1].strip().lower() == "zh" else "en"
        if arg.startswith("--lang="):
            return "zh" if arg.split("=", 1)[1].strip().lower() == "zh" else "en"
    if os.environ.get("KATA_LANG"):
        return "zh" if os.environ["KATA_LANG"].strip().lower() == "zh" else "en"
    try:
        import sqlite3
        from pathlib import Path

        root = (Path(os.environ["KATA_HOME"]).expanduser() if os.environ.get("KATA_HOME")
                else Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "kata")
        db = root / "history.db"
        if db.is_file():
            with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True, timeout=0.2) as conn:
                row = conn.execute("SELECT value FROM settings WHERE key = 'lang'").fetchone()
            if row and row[0] in _INTERRUPTED:
                return row[0]
    except Exception:  # noqa: BLE001 — no store, or a busy one: the locale decides
        pass
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # as i18n.from_locale
        value = os.environ.get(name, "").strip()
        if value:
            return "zh" if value.split(":")[0].strip().lower().startswith("zh") else "en"
    return "en"


def _interrupted_on_the_way_in(signum: int, frame: object) -> None:
    """Ctrl-C while kata is still importing (typer, checker: the first second or so): the same word and exit
    code as later, no traceback, and no worker left importing torch. `main` replaces this handler with
    Python's own, whose KeyboardInterrupt it catches."""
    try:
        try:
            sys.stderr.write("\n" + _INTERRUPTED[_startup_lang()] + "\n")
        except UnicodeEncodeError:  # a terminal that cannot show Chinese: English, as main would choose
            sys.stderr.write("\n" + _INTERRUPTED["en"] + "\n")
        sys.stderr.flush()
        stop = getattr(sys.modules.get("checker.app.prefork"), "stop", None)  # None while it is still importing
        if stop is not None:
            stop()
    except BaseException:  # noqa: BLE001 — a closed stderr, a second Ctrl-C: the exit code still says it
        pass
    finally:
        os._exit(130)  # checker.errors.INTERRUPTED, not importable yet


if os.path.basename(sys.argv[0]) in ("kata", "cli.py"):  # run as the program, not imported by a test
    signal.signal(signal.SIGINT, _interrupted_on_the_way_in)

import codecs  # noqa: E402 — after the handler above, as is everything below
import json  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Any, Optional  # noqa: E402

from checker.app import prefork  # noqa: E402 — standard library only

if prefork.wanted(sys.argv):
    prefork.start()  # `kata check …`: torch's import starts now, in a worker, while typer's does here


def _defer(module: str, *names: str) -> None:
    """Hold `module`'s place with a stand-in until something uses it. typer imports rich.markdown (and
    markdown-it with it) for help written in markdown, which kata never asks for (rich_markup_mode=None),
    and rich.traceback (and pygments with it) for pretty exceptions, which kata turns off: together a
    third of what `import typer` costs. Each of `names` is a stand-in class: calling it, or reading any of
    its attributes (Traceback.from_exception), imports the real module and goes on as usual, as does any
    other name read from the stand-in module."""
    import types

    if module in sys.modules:
        return

    def real() -> types.ModuleType:
        if isinstance(sys.modules.get(module), _StandIn):
            del sys.modules[module]
        import importlib

        return importlib.import_module(module)

    class _StandIn(types.ModuleType):
        def __getattr__(self, name: str) -> Any:
            if name.startswith("__"):  # the import system asking (__path__, __file__): not a use
                raise AttributeError(name)
            return getattr(real(), name)

    class _Deferred(type):
        def __getattr__(cls, attr: str) -> Any:
            if attr.startswith("__"):
                raise AttributeError(attr)
            return getattr(getattr(real(), cls.__name__), attr)

        def __call__(cls, *args: Any, **kwargs: Any) -> Any:
            return getattr(real(), cls.__name__)(*args, **kwargs)

    stand_in = _StandIn(module)
    for name in names:
        setattr(stand_in, name, _Deferred(name, (), {}))
    sys.modules[module] = stand_in


_defer("rich.markdown", "Markdown")
_defer("rich.traceback", "Traceback")

import typer  # noqa: E402 — after the stand-ins above
from rich.console import Console  # noqa: E402
from rich.text import Text  # noqa: E402

from checker.text import catalog, i18n
from checker.app import commands
from checker.errors import INTERNAL, INTERRUPTED, KATA_FAILED, OK, USAGE, KataError
from checker.text.i18n import tr
from checker.app.state import Store, home

console = Console(highlight=False, emoji=False)
err = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)  # messages stay one line, copy-pasteable
_STORE: Store | None = None


def _store() -> Store:
    """The history store, one per KATA_HOME (tests change it between commands run in one process)."""
    global _STORE
    if _STORE is None or _STORE.root != home():
        _STORE = Store()
    return _STORE


def _finish(code: int = OK) -> None:
    global _STORE
    if _STORE is not None:
        for warning in _STORE.take_warnings():
            err.print(tr("kata: warning: {warning}", warning=warning), markup=False)
        _STORE = None  # the next command (in tests, the same process) opens the store afresh
    raise typer.Exit(code)


def _rel(path: Path) -> str:
    """A path as the learner would type it from here."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)


def _say(message: str, style: str = "", to: Console | None = None) -> None:
    from checker.app.views import say

    (to or console).print(say(message, style))


def complete_kata(incomplete: str) -> list[str]:
    return [k for k in catalog.ids() if k.startswith(incomplete.replace("_", "-"))]


def complete_case(ctx: typer.Context, incomplete: str) -> list[str]:
    """The cases of the kata the command line is about: --kata's, the typed TARGET's, else the current kata's.
    While completing, click leaves the positional TARGET unparsed in ctx.args."""
    target = ctx.params.get("target") or next((a for a in ctx.args if not a.startswith("-")), None)
    kata = commands.kata_for(target, ctx.params.get("kata"), _store())
    return [f for f in (kata.text().families if kata else ()) if f.startswith(incomplete)]


def _check_positive(timeout: float, memory_gb: float) -> None:
    if timeout <= 0 or memory_gb <= 0:
        raise KataError(tr("--timeout and --memory-gb must be positive."))


COMMANDS = ("list", "start", "bug", "check", "watch", "hint", "reveal", "solutions", "followup", "cases", "stats", "next",
            "interview", "reset", "demo", "config")


def make_app(only: str | None = None) -> typer.Typer:
    """The commands, with their help in the language kata speaks now: all of them, or `only` the one a
    command line names (typer turns each registered function into a click command on every run, which
    for all fifteen cost a command about as much as the rest of its own work)."""
    _localise_typer()
    app = typer.Typer(add_completion=True, rich_markup_mode=None, pretty_exceptions_enable=False,
                      context_settings={"help_option_names": ["-h", "--help"]},
                      help=tr("Practise the code ML and LLM interviews ask you to write from memory. "
                              "Start with 'kata demo gae', then 'kata start gae' and 'kata check gae'."))
    KataName = Annotated[Optional[str], typer.Argument(help=tr("Kata id, e.g. gae (see 'kata list'); default: the current kata."),
                                                       autocompletion=complete_kata, show_default=False)]
    TargetArg = Annotated[Optional[str], typer.Argument(help=tr("A kata id or the path to your file; default: the current kata."),
                                                        autocompletion=complete_kata, show_default=False)]
    KataOpt = Annotated[Optional[str], typer.Option("--kata", help=tr("Which kata the file is for (default: its '# kata:' line)."),
                                                    autocompletion=complete_kata, show_default=False)]
    DeviceOpt = Annotated[str, typer.Option(help=tr("auto, cpu, cuda or mps."))]
    MemoryOpt = Annotated[float, typer.Option("--memory-gb", help=tr("Memory your code may use (GiB)."))]
    DirOpt = Annotated[Path, typer.Option("--dir", "-d", help=tr("Where to write the stub."))]

    def command(name: str | None = None, **options: Any) -> Any:
        """app.command, for the commands this run builds."""
        def register(function: Any) -> Any:
            called = name or function.__name__
            assert called in COMMANDS, f"add {called!r} to cli.COMMANDS"
            if only is None or called == only:
                app.command(name, **options)(function)
            return function

        return register

    @app.callback(invoke_without_command=True)
    def overview(ctx: typer.Context,
                 lang: Annotated[Optional[str], typer.Option("--lang", help=tr(
                     "en or zh: the language kata speaks, on any command (default: KATA_LANG, then 'kata config "
                     "lang', then your locale)."), show_default=False)] = None) -> None:
        """Where you stand: the current kata, your progress, and what to run next."""
        if ctx.invoked_subcommand is not None:
            return
        from checker.app import views

        store = _store()
        current = commands.current(store)
        current_file = store.get(commands.CURRENT_FILE)
        console.print(views.overview(store.events(), current, _rel(Path(current_file)) if current_file else None))
        _finish()

    @command("list", help=tr("Every kata with your status, best time to pass and when you last practised it. "
                                 "Example: kata list --topic rl"))
    def list_katas(topic: Annotated[Optional[str], typer.Option(help=tr("Only this topic."), show_default=False)] = None) -> None:
        from checker.app import practice, views

        topic = practice.topic_id(topic) if topic is not None else None  # an id, or the name the list shows
        store = _store()
        console.print(views.kata_list(store.events(), console.width, commands.current(store), topic))
        _finish()

    @command(help=tr("Write the kata's stub (the signature and the exact contract, no answer) and make it the current "
                         "kata; your own file there is resumed, never overwritten. Example: kata start gae --dir practice/"))
    def start(name: KataName = None, dir: DirOpt = Path("."),
              force: Annotated[bool, typer.Option("--force", help=tr("Start over: back up your file, then write the stub."))] = False) -> None:
        store = _store()
        if name is None:  # the current kata: its file is resumed wherever it is, as `kata check` finds it
            kata = commands.current(store)
            if kata is None:
                raise KataError(tr("Give a kata id: `kata start gae` (`kata list` shows them all)."))
            started = commands.resume_current(kata, dir, force, store)
        else:
            kata = catalog.get(name)
            started = commands.start(kata, dir, force, store)
        where = _rel(started.path)
        if started.resumed:
            _say(tr("{file} is already there: resuming it (your work is kept; `kata start {id} --force` starts over "
                    "from the stub).", file=where, id=kata.id))
        else:
            if started.saved:
                _say(tr("Kept your previous file as {file}.", file=_rel(started.saved)))
            _say(tr("Wrote {file} — {summary}.", file=where, summary=kata.summary))
        _say(tr("Write {entry}, then `kata check {id}` (or `kata watch {id}` to re-check on every save). Stuck? "
                "`kata hint {id}`.", entry=kata.entry, id=kata.id))
        _finish()

    @command(help=tr("Find the bug: write a whole solution of a kata with one realistic bug in it, as "
                         "<kata>_bug.py, and make it current; `kata check` it until it passes. Example: kata bug gae"))
    def bug(name: KataName = None,
            dir: Annotated[Path, typer.Option("--dir", "-d", help=tr("Where to write the drill."))] = Path("."),
            force: Annotated[bool, typer.Option("--force", help=tr("Back up the file there, then write another drill."))] = False,
            listing: Annotated[bool, typer.Option("--list", help=tr("Drills fixed per kata."))] = False,
            json_out: Annotated[bool, typer.Option("--json", help=tr("Print one JSON document and nothing else."))] = False) -> None:
        from checker.app import drilling, drills

        store = _store()
        if listing:
            if json_out:
                rows = [{"kata": r.kata.id, "fixed": r.fixed, "available": r.available, "given_up": r.given_up}
                        for r in drills.tally(store.events())]
                sys.stdout.write(json.dumps({"drills": rows}, ensure_ascii=False) + "\n")
            else:
                console.print(drilling.listing(store.events()))
            _finish()
        kata = commands.kata_or_current(name, store, "bug")
        wrote = drilling.write(kata, dir, force, store)
        if json_out:
            data = {**drilling.fields(wrote.written, store), "saved": str(wrote.saved) if wrote.saved else None}
            sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
            _finish()
        if wrote.saved:
            _say(tr("Kept your previous file as {file}.", file=_rel(wrote.saved)))
        _say(drilling.wrote_line(wrote))
        _finish()

    @command(help=tr("Check your file: named edge cases first, then random draws. "
                         "Example: kata check gae --seed 81723 --case done_at_last_step"))
    def check(
        target: TargetArg = None,
        kata: KataOpt = None,
        device: DeviceOpt = "auto",
        seed: Annotated[Optional[int], typer.Option(help=tr("Reproduce a run exactly."), show_default=False)] = None,
        case: Annotated[Optional[str], typer.Option(help=tr("Run only this case or family ('kata cases' lists them)."),
                                                    autocompletion=complete_case, show_default=False)] = None,
        json_out: Annotated[bool, typer.Option("--json", help=tr("Print one JSON document and nothing else."))] = False,
        timeout: Annotated[float, typer.Option(help=tr("Seconds your code may run in all."))] = 30.0,
        memory_gb: MemoryOpt = 4.0,
        verbose: Annotated[bool, typer.Option("--verbose", "-v", help=tr("Show every failing case in full."))] = False,
        bench: Annotated[bool, typer.Option(help=tr("Also time your code against the reference on a large input."))] = False,
        no_color: Annotated[bool, typer.Option("--no-color", help=tr("No colours."))] = False,
    ) -> None:
        store = _store()
        resolved = commands.resolve_target(target, kata, store)
        commands.check_seed(seed)
        commands.check_case(resolved.kata, case)
        device = commands.check_device(device)
        _check_positive(timeout, memory_gb)
        if resolved.note and not json_out:
            _say(resolved.note, "yellow")  # on stdout, just above the report's header
        from checker.app import checking

        outcome = checking.check(resolved.kata, resolved.path, store, device=device, seed=seed, case=case, timeout=timeout,
                            memory_gb=memory_gb, bench=bench, explicit_kata=kata is not None)
        if json_out:
            data = outcome.result.to_dict()
            if outcome.drill is not None:
                from checker.app import drilling

                data["drill"] = drilling.fields(outcome.drill, store)
            sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        else:
            out = Console(highlight=False, emoji=False, no_color=no_color or None)
            out.print(checking.report_for(outcome, store, verbose=verbose), crop=False)  # commands stay whole
            if bench and outcome.result.bench is None:
                _say(tr("bench: runs only once every case passes.") if not outcome.result.passed
                     else tr("bench: {id} has no benchmark input.", id=resolved.kata.id), "dim", to=out)
        _finish(OK if outcome.result.passed else KATA_FAILED)

    @command(help=tr("Re-check your file every time you save it. Keys: h next hint, r re-run with a new seed, q quit. "
                         "Example: kata watch gae"))
    def watch(
        target: TargetArg = None,
        kata: KataOpt = None,
        device: DeviceOpt = "auto",
        seed: Annotated[Optional[int], typer.Option(help=tr("Seed for every re-check (default: one per session; r draws a new one)."),
                                                    show_default=False)] = None,
        timeout: Annotated[float, typer.Option(help=tr("Seconds your code may run per check."))] = 10.0,
        memory_gb: MemoryOpt = 4.0,
        poll: Annotated[bool, typer.Option("--poll", help=tr("Notice saves by polling only (for file systems without events)."))] = False,
    ) -> None:
        store = _store()
        resolved = commands.resolve_target(target, kata, store, command="watch")
        commands.check_seed(seed)
        device = commands.check_device(device)
        _check_positive(timeout, memory_gb)
        if resolved.note:
            _say(resolved.note, "yellow")
        from checker.app.watch import watch as run_watch

        code = run_watch(resolved.kata, resolved.path, store, console, device=device, seed=seed, seconds=timeout,
                         memory_gb=memory_gb, poll=poll)
        _finish(code)

    @command(help=tr("The next hint, from a nudge to the key line, one per call. Example: kata hint gae"))
    def hint(name: KataName = None) -> None:
        from checker.app import drilling

        store = _store()
        kata = commands.kata_or_current(name, store, "hint")
        console.print(drilling.next_hint(kata, store.get(commands.CURRENT_FILE), store))  # a drill has its own ladder
        _finish()

    def _confirm_reveal(kata, refusal: str, question: str) -> None:
        """Before a pass, seeing an answer asks first (and is refused where nobody can answer); a no ends the command."""
        if not sys.stdin.isatty():
            raise KataError(refusal)
        try:
            answer = console.input(question, markup=False)
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes", "是", "好"):
            _say(tr("Nothing revealed. Stuck? `kata hint {id}` gives a nudge.", id=kata.id))
            _finish()

    @command(help=tr("Show the hidden reference solution (recorded; asks first if you never passed it). "
                         "Example: kata reveal gae --diff"))
    def reveal(
        name: KataName = None,
        diff: Annotated[bool, typer.Option("--diff", help=tr("Show how your code differs from the reference (a unified diff)."))] = False,
        file: Annotated[Optional[Path], typer.Option("--file", help=tr("With --diff: compare this file (default: the one that "
                                                                       "passed, else your file for the kata)."), show_default=False)] = None,
        yes: Annotated[bool, typer.Option("--yes", "-y", help=tr("Reveal without asking, even if you never passed it."))] = False,
    ) -> None:
        from checker.app import views

        store = _store()
        kata = commands.kata_or_current(name, store, "reveal")
        from checker.app import drilling

        drill = drilling.current(kata, store)
        if drill is not None:  # the current file is a drill of this kata: giving up shows its bug, not the reference
            console.print(drilling.reveal(drill, store))
            _finish()
        attempt = None
        if diff:
            attempt = file if file is not None else (commands.passed_file(kata, store) or commands.file_of(kata, store))
            if attempt is None or not Path(attempt).is_file():
                raise KataError(tr("No file of yours for {id} to compare: give one with `--file PATH`, or run "
                                   "`kata reveal {id}` without --diff.", id=kata.id))
        if not yes and not commands.ever_passed(kata, store):
            _confirm_reveal(kata,
                            tr("You have not passed {id} yet, and revealing it is recorded. Run `kata reveal {id} "
                               "--yes` to see it anyway.", id=kata.id),
                            tr("You have not passed {id} yet. Reveal the reference (it is recorded)? [y/N] ", id=kata.id))
        source = commands.reveal(kata, store)
        if attempt is not None:
            console.print(views.unified_diff(Path(attempt).read_text(encoding="utf-8", errors="replace"), source,
                                             left=tr("yours: {file}", file=_rel(Path(attempt))),
                                             right=tr("reference: {file}", file=kata.filename)))
        else:
            console.print(views.reference(kata, source))
        _finish()

    @command(help=tr("Right answers in other styles than the reference, each with what it does differently (recorded; "
                         "asks first if you never passed it). Example: kata solutions gae"))
    def solutions(
        name: KataName = None,
        yes: Annotated[bool, typer.Option("--yes", "-y", help=tr("Show them without asking, even if you never passed it."))] = False,
    ) -> None:
        from checker.app import solutions as shipped

        store = _store()
        kata = commands.kata_or_current(name, store, "solutions")
        if not yes and not commands.ever_passed(kata, store):  # kata reveal's rule: seeing them is a reveal
            _confirm_reveal(kata,
                            tr("You have not passed {id} yet, and seeing its solutions is recorded as a reveal. Run "
                               "`kata solutions {id} --yes` to see them anyway.", id=kata.id),
                            tr("You have not passed {id} yet. Show other right answers (recorded as a "
                               "reveal)? [y/N] ", id=kata.id))
        console.print(shipped.show(kata, store))
        _finish()

    @command(help=tr("The questions an interviewer asks once your code passes (answers with --answers). "
                         "Example: kata followup gae --answers"))
    def followup(name: KataName = None,
                 answers: Annotated[bool, typer.Option("--answers", help=tr("Show the model answers too."))] = False) -> None:
        from checker.app import views

        store = _store()
        kata = commands.kata_or_current(name, store, "followup")
        commands.followups(kata, store, answers)
        console.print(views.followups(kata, answers))
        _finish()

    @command(help=tr("The case families of a kata, for --case. Example: kata cases gae"))
    def cases(name: KataName = None) -> None:
        from rich.table import Table

        kata = commands.kata_or_current(name, _store(), "cases")
        table = Table.grid(padding=(0, 2))
        table.add_column(style="cyan", no_wrap=True)
        table.add_column()
        for family, about in kata.text().families.items():
            table.add_row(Text(family), Text(about))  # literally: "[out, in]" is not a style tag
        console.print(table)
        _say(tr("Run one with `kata check {id} --case NAME` (a family's draws are NAME.0, NAME.1, …).", id=kata.id), "dim")
        _finish()

    @command(help=tr("Your progress per topic, your streak of days with a check, and the katas that fail most. "
                         "Example: kata stats"))
    def stats() -> None:
        from checker.app import drilling, views

        events = _store().events()
        console.print(views.stats(events))
        console.print(drilling.stats_line(events))
        _finish()

    @command("next", help=tr("What to practise next, by spaced repetition, and why. Example: kata next --topic rl"))
    def next_kata(
        topic: Annotated[Optional[str], typer.Option(help=tr("Only katas of this topic."), show_default=False)] = None,
        count: Annotated[int, typer.Option("--count", "-n", help=tr("How many suggestions."))] = 3,
    ) -> None:
        from checker.app import practice

        store = _store()
        ranked = practice.suggest(store.events(), topic=topic)
        if not ranked:
            raise KataError(tr("No katas in topic '{topic}' yet.", topic=topic))
        first, rest = ranked[0], ranked[1:max(1, count)]
        _say(tr("Next: `{id}` — {title}: {why}.", id=first.kata.id, title=first.kata.title, why=first.why))
        advice = commands.next_step(first.kata, practice.progress(first.kata.id, store.events()), store)
        if advice == "start":
            _say(tr("Start it with `kata start {id}`, then `kata watch {id}`.", id=first.kata.id))
        elif advice == "watch":
            _say(tr("Carry on: `kata watch {id}` re-checks your file on every save.", id=first.kata.id))
        else:
            _say(tr("Redo it from the stub with `kata reset {id}` (your file is backed up), then `kata watch {id}`.",
                    id=first.kata.id))
            from checker.app import drilling

            drill = drilling.suggestion(first.kata, store.events()) if first.tier in (2, 4) else None
            if drill:  # passed before: a drill of it is practice too, and changes nothing of its status
                _say(drill)
        for s in rest:
            _say(tr("  then {id}: {why}", id=s.kata.id, why=s.why), "dim")
        _finish()

    @command(help=tr("A timed mock interview: a kata you have not mastered, a fresh stub, a countdown; each save is "
                         "checked, and the follow-up questions come after a pass. Example: kata interview --minutes 20 --topic rl"))
    def interview(
        minutes: Annotated[float, typer.Option(help=tr("Time allowed."))] = 30.0,
        topic: Annotated[Optional[str], typer.Option(help=tr("Pick from this topic only."), show_default=False)] = None,
        dir: DirOpt = Path("."),
        device: DeviceOpt = "auto",
        poll: Annotated[bool, typer.Option("--poll", help=tr("Notice saves by polling only."))] = False,
        bug: Annotated[bool, typer.Option("--bug", help=tr("A timed bug drill instead of a stub: find and fix the bug "
                                                           "in a whole solution."))] = False,
    ) -> None:
        device = commands.check_device(device)
        if bug:
            from checker.app import bug_interview

            _finish(bug_interview.run(_store(), console, minutes=minutes, topic=topic, directory=dir, device=device,
                                      poll=poll))
        from checker.app.watch import interview as run_interview

        code = run_interview(_store(), console, minutes=minutes, topic=topic, directory=dir, device=device, poll=poll)
        _finish(code)

    @command(help=tr("Restore a kata's stub to redo it; your file is kept as a numbered backup. Example: kata reset gae"))
    def reset(
        name: Annotated[Optional[str], typer.Argument(help=tr("Kata id to restore."), autocompletion=complete_kata,
                                                      show_default=False)] = None,
        every: Annotated[bool, typer.Option("--all", help=tr("Restore every stub kata wrote for you (files you named "
                                                             "yourself are left alone)."))] = False,
    ) -> None:
        if (name is None) == (not every):
            raise KataError(tr("Give a kata id, or --all: `kata reset gae` or `kata reset --all`."))
        store = _store()
        katas = list(catalog.KATAS) if every else [catalog.get(name)]
        done = commands.reset(katas, store, every=every)
        for r in done:
            if r.saved:
                _say(tr("Restored the stub of {id} at {file} (your file is kept as {saved}).", id=r.kata.id,
                        file=_rel(r.path), saved=_rel(r.saved)))
            elif r.wrote_new:  # never started: there was nothing to restore
                _say(tr("Wrote the stub of {id} at {file}.", id=r.kata.id, file=_rel(r.path)))
            else:
                _say(tr("Restored the stub of {id} at {file}.", id=r.kata.id, file=_rel(r.path)))
        if not done:
            _say(tr("No stub of kata's to reset."))
        _finish()

    @command(help=tr("See what kata does: check a solution with one known mistake, then the reference. Writes no "
                         "history. Example: kata demo gae --mistake 2"))
    def demo(
        name: Annotated[Optional[str], typer.Argument(help=tr("Kata id (default: a random one other than the current kata)."),
                                                      autocompletion=complete_kata,
                                                      show_default=False)] = None,
        mistake: Annotated[Optional[str], typer.Option(help=tr("Which known mistake: a number or part of its name "
                                                               "(default: random)."), show_default=False)] = None,
        seed: Annotated[Optional[int], typer.Option(help=tr("Replay a demo exactly."), show_default=False)] = None,
        device: DeviceOpt = "auto",
        no_color: Annotated[bool, typer.Option("--no-color", help=tr("No colours."))] = False,
    ) -> None:
        kata = catalog.get(name) if name is not None else None
        commands.check_seed(seed)
        device = commands.check_device(device)
        from checker.app.demo import run as run_demo

        avoid = None
        if kata is None and (home() / "history.db").is_file():  # a demo of another kata; no store is made for this
            current = commands.current(_store())
            avoid = current.id if current else None
        out = Console(highlight=False, emoji=False, no_color=no_color or None)
        raise typer.Exit(run_demo(out, kata.id if kata else None, mistake, seed=seed, device=device, avoid=avoid))

    @command(help=tr("Show or change a setting. Settings: lang (en or zh). Example: kata config lang zh"))
    def config(
        key: Annotated[Optional[str], typer.Argument(help=tr("The setting: lang."), show_default=False)] = None,
        value: Annotated[Optional[str], typer.Argument(help=tr("Its new value."), show_default=False)] = None,
        unset: Annotated[bool, typer.Option("--unset", help=tr("Forget the setting (use the default)."))] = False,
    ) -> None:
        store = _store()
        settings = {"lang": i18n.LANGS}
        if key is None:
            for name in settings:
                _say(f"{name} = {store.get(name) or tr('(not set)')}")
            _finish()
        if key not in settings:
            raise KataError(tr("No setting named '{key}'. Settings: {keys}.", key=key, keys=", ".join(settings)))
        if unset:
            store.delete(key)
            _say(tr("{key} is no longer set.", key=key))
        elif value is None:
            _say(f"{key} = {store.get(key) or tr('(not set)')}")
        else:
            if value not in settings[key]:
                raise KataError(tr("{key} must be one of: {values}.", key=key, values=", ".join(settings[key])))
            store.set(key, value)
            i18n.use(value)
            _say(tr("{key} = {value}: kata speaks this from now on (KATA_LANG and --lang still win).", key=key, value=value))
        _finish()

    return app


def _localise_typer() -> None:
    """typer's and click's own words (panel titles, errors) in the language kata speaks."""
    import typer.rich_utils as ru

    for name, english in (("ARGUMENTS_PANEL_TITLE", "Arguments"), ("OPTIONS_PANEL_TITLE", "Options"),
                          ("COMMANDS_PANEL_TITLE", "Commands"), ("ERRORS_PANEL_TITLE", "Error"),
                          ("ABORTED_TEXT", "Aborted.")):
        setattr(ru, name, i18n.external(english))
    ru.DEFAULT_STRING = i18n.external("[default: {}]")
    ru.REQUIRED_LONG_STRING = i18n.external("[required]")
    ru.RICH_HELP = i18n.external("Try [blue]'{command_path} {help_option}'[/] for help.")
    import typer.core

    def ngettext(one: str, many: str, n: int) -> str:
        return i18n.external(one if n == 1 else many)

    click = _click_modules("core", "exceptions", "types", "parser", "decorators", "formatting")
    for module in (*click.values(), ru, typer.core):
        if hasattr(module, "_"):
            module._ = i18n.external
        if hasattr(module, "ngettext"):  # "Got unexpected extra argument(s)", "Did you mean …?"
            module.ngettext = ngettext
    # Help is plain click text (rich_markup_mode=None), but typer escapes "[default: …]" for rich markup
    # whenever rich is importable, which printed "\[default: .]". Nothing else in typer.core reads this name
    # once markup is off.
    typer.core.rich = None
    _localise_completion_options()
    if i18n.current() != i18n.ENGLISH:  # English help has no wide characters: its start-up stays as light
        _wrap_in_cells()


def _click_modules(*names: str) -> dict[str, Any]:
    """The modules of the click that typer runs on: its own copy from typer 0.26 on (`typer._click`, which has no
    `types`), else the click package. Patching the click package beside a typer that brings its own would change
    nothing typer prints (Colab has typer 0.27 with click 8.4 beside it)."""
    import importlib

    try:
        base = importlib.import_module("typer._click").__name__
    except ImportError:
        base = "click"
    found = {}
    for name in names:
        try:
            found[name] = importlib.import_module(f"{base}.{name}")
        except ImportError:
            continue
    return found


def _localise_completion_options() -> None:
    """typer's --install-completion / --show-completion help, in the language spoken when the command is built."""
    import typer.main

    build = typer.main.get_install_completion_arguments
    if getattr(build, "_kata", False):
        return

    def localised() -> tuple:
        params = build()
        for param in params:
            param.help = i18n.external(param.help) if param.help else param.help
        return params

    localised._kata = True  # type: ignore[attr-defined]
    typer.main.get_install_completion_arguments = localised


def _wrap_in_cells() -> None:
    """click wraps help and pads its columns counting characters; a Chinese character takes two cells.
    Count cells instead (the same number for ASCII, so English help is unchanged), break a run of
    Chinese between characters (checker/text/cjk.py), and end a command's one-line summary at its first 。.
    Wrapping is measured through click's `term_len` from click 8.4 on; an older click keeps its own wrapping."""
    from rich.cells import cell_len

    from checker.text import cjk

    click = _click_modules("_textwrap", "core", "formatting", "utils", "_compat")
    textwrap_, core, formatting = click["_textwrap"], click["core"], click["formatting"]
    make_default_short_help = click["utils"].make_default_short_help
    cjk.install()  # rich, too, may break a line of Chinese between characters
    if getattr(core, "_kata_cells", False):
        return
    core._kata_cells = True

    def short_help(help: str, max_length: int = 45) -> str:
        first = help.split("\n\n")[0]
        return first[:first.index("。") + 1] if "。" in first else make_default_short_help(help, max_length)

    core.make_default_short_help = short_help
    if not hasattr(textwrap_, "_truncate_visible"):
        return
    _ansi_re, strip_ansi = click["_compat"]._ansi_re, click["_compat"].strip_ansi

    def term_len(text: str) -> int:
        return cell_len(strip_ansi(text))

    def truncate(text: str, n: int) -> str:
        """The longest prefix of `text` that takes at most `n` cells (escape sequences take none), one character at least."""
        cells = i = cut = 0
        while i < len(text) and n > 0:
            match = _ansi_re.match(text, i)
            if match is not None:
                i = match.end()
                continue
            width = cell_len(text[i])
            if cells + width > n and cut:
                break
            cells, i, cut = cells + width, i + 1, i + 1
            if cells >= n:
                break
        return text[:cut]

    split = textwrap_.TextWrapper._split

    def split_wide(self: Any, text: str) -> list[str]:
        return [piece for chunk in split(self, text) for piece in cjk.pieces(chunk)]

    textwrap_.term_len = formatting.term_len = term_len
    textwrap_._truncate_visible = truncate
    textwrap_.TextWrapper._split = split_wide


_english_app: typer.Typer | None = None


def _app(argv: list[str] | None = None) -> typer.Typer:
    """The commands in the language kata speaks now, for the command line `argv`: only the command it names
    (every command's options and help are its own), else all of them — for `kata --help`, a mistyped command
    (click suggests the nearest) and shell completion. All of them in English are built once, when first
    needed (a command in Chinese never builds them); anything else is built afresh."""
    global _english_app
    only = argv[0] if argv and argv[0] in COMMANDS and "_KATA_COMPLETE" not in os.environ else None
    if only is not None or i18n.current() != i18n.ENGLISH:
        return make_app(only)
    if _english_app is None:
        with i18n.speaking(i18n.ENGLISH):
            _english_app = make_app()
    return _english_app


def __getattr__(name: str) -> Any:
    """`cli.app`, the English commands (tests, typer's completion), built on first use."""
    if name == "app":
        with i18n.speaking(i18n.ENGLISH):
            return _app()
    raise AttributeError(f"module 'cli' has no attribute {name!r}")


# ---------------------------------------------------------------- the one entry point


def _take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """--lang X / --lang=X from anywhere on the command line (every command takes it)."""
    out, flag, i = [], None, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            out += argv[i:]
            break
        if arg == "--lang":
            if i + 1 >= len(argv):
                raise KataError(tr("--lang needs a value: en or zh."))
            flag, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            flag, i = arg.split("=", 1)[1], i + 1
            continue
        out.append(arg)
        i += 1
    return flag, out


_ASCII = {"—": "-", "–": "-", "✗": "x", "✓": "v", "■": "#", "·": ".", "◀": "<", "▶": ">", "→": "->", "…": "...",
          "≥": ">=", "≤": "<=", "√": "sqrt", "ᵀ": "^T", "×": "x", "⏱": "", "±": "+/-", "│": "|", "─": "-", "λ": "lambda",
          "γ": "gamma", "ε": "eps", "β": "beta", "Δ": "d", "σ": "sigma", "θ": "theta", "‘": "'", "’": "'", "“": '"', "”": '"'}


def _ascii_fallback(error: UnicodeError) -> tuple[str, int]:
    bad = error.object[error.start:error.end]
    return "".join(_ASCII.get(ch, "?") for ch in bad), error.end


def _safe_streams() -> None:
    """A terminal or pipe that cannot print UTF-8 gets ASCII stand-ins, never a crash."""
    codecs.register_error("kata-ascii", _ascii_fallback)
    for stream in (sys.stdout, sys.stderr):
        try:
            "—✗■".encode(stream.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            try:
                stream.reconfigure(errors="kata-ascii")
            except (AttributeError, ValueError):
                pass


def _can_print(text: str) -> bool:
    try:
        text.encode(sys.stdout.encoding or "ascii")
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def _choose_language(flag: str | None) -> None:
    saved = None
    if flag is None and not os.environ.get("KATA_LANG"):
        saved = _store().get("lang")
    lang = i18n.resolve(flag, saved)
    if lang != i18n.ENGLISH and not _can_print("中文"):
        lang = i18n.ENGLISH  # this terminal cannot show Chinese: English rather than question marks
    i18n.use(lang)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry: one place turns every outcome into a message and an exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    json_mode = "--json" in argv
    _safe_streams()
    code = OK
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started with Ctrl-C ignored
        flag, argv = _take_lang(argv)
        _choose_language(flag)
        application = _app(argv)
        result = application(args=argv, prog_name="kata", standalone_mode=False)
        code = result if isinstance(result, int) else OK
        if code == INTERRUPTED:  # Ctrl-C inside a command: typer makes it this exit code, silently
            err.print("\n" + tr("kata: interrupted."), markup=False)
    except KataError as exc:
        if json_mode:
            sys.stdout.write(json.dumps({"error": exc.message, "exit_code": exc.exit_code}, ensure_ascii=False) + "\n")
        else:
            _say(tr("kata: {message}", message=exc.message), to=err)
        code = exc.exit_code
    except typer.Exit as exc:
        code = exc.exit_code
    except KeyboardInterrupt:
        err.print("\n" + tr("kata: interrupted."), markup=False)
        code = INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # a reader that went away (| head) is fine
        code = OK
    except Exception as exc:  # usage errors arrive here in standalone_mode=False, and anything unforeseen
        # typer vendors click in some versions, so recognise its errors by shape, not by import.
        show, exit_code = getattr(exc, "show", None), getattr(exc, "exit_code", None)
        if callable(show) and isinstance(exit_code, int):
            show()
            code = USAGE
        elif type(exc).__name__ == "Abort":  # click's word for a Ctrl-C it caught
            err.print(tr("kata: interrupted."), markup=False)
            code = INTERRUPTED
        else:
            if os.environ.get("KATA_DEBUG"):
                raise
            err.print(tr("kata: internal error ({type}: {message}). This is a bug in kata, not in your code; "
                         "KATA_DEBUG=1 shows where it happened.", type=type(exc).__name__, message=str(exc)[:300]),
                      markup=False)
            code = INTERNAL
    if os.path.basename(sys.argv[0]) in ("kata", "cli.py"):
        # The command is over: a Ctrl-C now would interrupt Python's own teardown (a traceback from atexit, or
        # death by the signal once Python has put back its default action). Nothing is left to stop.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":
    main()
