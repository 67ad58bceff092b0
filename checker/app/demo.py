"""`kata demo`: what a check shows, on a solution with one known mistake, then on the reference.

The wrong solution is one of the kata's declared MISTAKES, written out as an ordinary learner
file: the variant's own source, the helpers it calls (from the spec and its shared modules) and
the imports they need, so the real checker runs it exactly as it runs a learner's file. Nothing
is written to the learner's history, and the files live in a temporary directory.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import math
import random
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from checker.text import catalog
from checker.text.catalog import Kata
from checker.errors import KataError
from checker.text.i18n import tr

OWN_PACKAGES = ("checker", "reference")  # their imports are inlined: a learner's file may not import them


class SourceError(Exception):
    """A variant that cannot be written out as a self-contained file."""


# ---------------------------------------------------------------- which kata, which mistake


def mistakes_of(kata: Kata) -> tuple[Any, ...]:
    try:
        spec = importlib.import_module(kata.spec_module)
    except ImportError:
        return ()
    return tuple(getattr(spec, "MISTAKES", ()))


def label_of(kata: Kata, mistake: Any) -> str:
    said = kata.text().mistakes.get(mistake.key)
    if not said:
        return mistake.key
    how = said.variants.get(getattr(mistake, "variant", ""))  # several variants of one key: each says how it differs
    return tr("{label} ({how})", label=said.label, how=how) if how else said.label


def writable(kata: Kata, mistakes: tuple[Any, ...]) -> list[Any]:
    out = []
    for mistake in mistakes:
        try:
            variant_source(kata, mistake)
        except SourceError:
            continue
        out.append(mistake)
    return out


def choose(name: str | None, label: str | None, rng: random.Random, avoid: str | None = None) -> tuple[Kata, Any]:
    """The kata named, else one at random other than `avoid` (the current kata: a demo of something else)."""
    if name is not None:
        kata = catalog.get(name)
        mistakes = mistakes_of(kata)
        if not mistakes:
            raise KataError(tr("{id} declares no known mistakes yet; try `kata demo gae`.", id=kata.id))
    else:
        ready = [k for k in catalog.KATAS if k.reference_path.exists() and mistakes_of(k)]
        if not ready:
            raise KataError(tr("No kata declares known mistakes yet."))
        kata = rng.choice([k for k in ready if k.id != avoid] or ready)
        mistakes = mistakes_of(kata)
    if label is not None:
        mistake = find_mistake(kata, mistakes, label)
        variant_source(kata, mistake)  # a SourceError here is a bug in the spec, shown as such
        return kata, mistake
    candidates = writable(kata, mistakes)
    if not candidates:
        raise KataError(tr("None of {id}'s known mistakes can be written out as a file.", id=kata.id))
    return kata, rng.choice(candidates)


def find_mistake(kata: Kata, mistakes: tuple[Any, ...], label: str) -> Any:
    """By number (1-based), exact label, or a unique part of a label (case-insensitive)."""
    key = label.strip().lower()
    if key.isdigit() and 1 <= int(key) <= len(mistakes):
        return mistakes[int(key) - 1]
    exact = [m for m in mistakes if label_of(kata, m).lower() == key]
    partial = [m for m in mistakes if key in label_of(kata, m).lower()]
    if exact or len(partial) == 1:
        return (exact or partial)[0]
    listing = "\n".join(f"  {n}. {label_of(kata, m)}" for n, m in enumerate(mistakes, 1))
    if partial:
        raise KataError(tr("'{label}' matches several of {id}'s known mistakes; give a number or a label:\n{listing}",
                           label=label, id=kata.id, listing=listing))
    raise KataError(tr("'{label}' matches none of {id}'s known mistakes; give a number or a label:\n{listing}",
                       label=label, id=kata.id, listing=listing))


# ---------------------------------------------------------------- the variant as a file


def variant_source(kata: Kata, mistake: Any) -> str:
    """A learner file whose entry point is `mistake.fn`: its source and everything it needs."""
    builder = _Builder()
    binding = builder.bind(kata.entry, mistake.fn)
    head = [f"# kata: {kata.id}",
            f"# demo: a known mistake — {label_of(kata, mistake)}",
            "from __future__ import annotations", ""]
    body = builder.imports() + ["", ""] + builder.definitions() + binding
    return "\n".join(head + body).rstrip() + "\n"


class _Module:
    def __init__(self, module: Any):
        self.name = module.__name__
        try:
            self.text = inspect.getsource(module)
        except (OSError, TypeError) as exc:
            raise SourceError(f"no source for {self.name}") from exc
        self.tree = ast.parse(self.text)
        self.defs: dict[str, ast.stmt] = {}
        self.imports: dict[str, ast.stmt] = {}
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.defs[node.name] = node
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            self.defs[name.id] = node
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    self.imports[(alias.asname or alias.name).split(".")[0]] = node

    def segment(self, node: ast.stmt) -> str:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        lines = self.text.splitlines()[first - 1:node.end_lineno]
        return "\n".join(lines)


class _Builder:
    """Collects the definitions a variant needs, following names through the spec's imports."""

    def __init__(self) -> None:
        self.modules: dict[str, _Module] = {}
        self.order: list[str] = []  # modules in discovery order
        self.chosen: dict[str, set[int]] = {}  # module -> ids of chosen nodes
        self.nodes: dict[tuple[str, int], ast.stmt] = {}
        self.lines_imports: list[str] = []
        self.aliases: list[str] = []

    def module(self, name: str) -> _Module:
        if name not in self.modules:
            self.modules[name] = _Module(importlib.import_module(name))
            self.order.append(name)
        return self.modules[name]

    def bind(self, entry: str, fn: Any) -> list[str]:
        resolved = getattr(fn, "resolved", None)  # a known mistake imported when first used (a Triton kata's kernels)
        if callable(resolved) and not isinstance(fn, type):
            fn = resolved()
        module_name = getattr(fn, "__module__", None)
        if module_name is None or module_name not in sys.modules:
            raise SourceError(f"{fn!r} has no module")
        qualname = getattr(fn, "__qualname__", "")
        module = self.module(module_name)
        if "<lambda>" in qualname:
            raise SourceError("a lambda variant has no name to bind")
        if qualname in module.defs and getattr(sys.modules[module_name], qualname, None) is fn:
            self.need(module, qualname)  # a top-level function or class of the spec
            return [] if qualname == entry else [f"{entry} = {qualname}", ""]
        if isinstance(fn, type):  # a subclass made with type(name, (Base,), switches)
            return self.subclass(entry, fn, module)
        if ".<locals>." in qualname:  # a closure returned by a top-level factory
            return self.closure(entry, fn, module, qualname.split(".<locals>.")[0])
        raise SourceError(f"cannot locate the source of {qualname}")

    def subclass(self, entry: str, cls: type, module: _Module) -> list[str]:
        if len(cls.__bases__) != 1:
            raise SourceError("a variant class with several bases")
        base = cls.__bases__[0]
        base_module = self.module(base.__module__)
        if base.__qualname__ not in base_module.defs:
            raise SourceError(f"{base.__qualname__} is not a top-level class")
        self.need(base_module, base.__qualname__)
        switches = {k: v for k, v in vars(cls).items() if not k.startswith("__")}
        if any(callable(v) for v in switches.values()):
            raise SourceError("a variant class that defines methods on the fly")
        body = [f"    {k} = {_literal(v)}" for k, v in switches.items()] or ["    pass"]
        return [f"class {entry}({base.__qualname__}):", *body, ""]

    def closure(self, entry: str, fn: Any, module: _Module, factory: str) -> list[str]:
        if factory not in module.defs:
            raise SourceError(f"{factory} is not a top-level function")
        self.need(module, factory)
        cells = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
        outer = getattr(sys.modules[module.name], factory)
        arguments = []
        for param in inspect.signature(outer).parameters.values():
            if param.kind is param.VAR_KEYWORD:
                extra = cells.get(param.name, {})
                arguments += [f"{k}={_literal(v)}" for k, v in extra.items()]
            elif param.name in cells:
                value = cells[param.name]
                if value != param.default:
                    arguments.append(f"{param.name}={_literal(value)}")
            elif param.default is param.empty or param.kind is param.VAR_POSITIONAL:
                raise SourceError(f"cannot recover the argument {param.name} of {factory}")
        return [f"{entry} = {factory}({', '.join(arguments)})", ""]

    def need(self, module: _Module, name: str) -> None:
        if name in module.defs:
            node = module.defs[name]
            chosen = self.chosen.setdefault(module.name, set())
            if id(node) in chosen:
                return
            chosen.add(id(node))
            self.nodes[(module.name, id(node))] = node
            for used in _names_used(node):
                if used != name:
                    self.need(module, used)
            return
        if name in module.imports:
            self.imported(module, name, module.imports[name])
            return
        if hasattr(builtins, name):
            return
        # a name that is nowhere at the top level is local to the def it appears in

    def imported(self, module: _Module, name: str, node: ast.stmt) -> None:
        if isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                raise SourceError(f"a relative import in {module.name}")
            alias = next(a for a in node.names if (a.asname or a.name) == name)
            if source.split(".")[0] in OWN_PACKAGES:
                other = self.module(source)
                if alias.name not in other.defs and alias.name not in other.imports:
                    raise SourceError(f"{source}.{alias.name} is not a plain definition (a module?)")
                self.need(other, alias.name)
                if alias.asname and alias.asname != alias.name:
                    self.aliases.append(f"{alias.asname} = {alias.name}")
                return
            line = f"from {source} import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")
        else:
            alias = next(a for a in node.names if (a.asname or a.name).split(".")[0] == name)
            if alias.name.split(".")[0] in OWN_PACKAGES:
                raise SourceError(f"{module.name} uses the module {alias.name} itself")
            line = f"import {alias.name}" + (f" as {alias.asname}" if alias.asname else "")
        if line not in self.lines_imports:
            self.lines_imports.append(line)

    def imports(self) -> list[str]:
        plain = sorted(l for l in self.lines_imports if l.startswith("import "))
        froms = sorted(l for l in self.lines_imports if l.startswith("from "))
        return plain + froms

    def definitions(self) -> list[str]:
        out: list[str] = []
        for name in reversed(self.order):  # helpers from shared modules before the spec's own
            module = self.modules[name]
            chosen = [n for n in module.tree.body if id(n) in self.chosen.get(name, set())]
            for node in chosen:
                out += [module.segment(node), "", ""]
        if self.aliases:
            out += self.aliases + ["", ""]
        return out


def _names_used(node: ast.stmt) -> list[str]:
    """Names a definition reads, not counting its annotations (they stay strings here)."""
    skip: set[int] = set()
    for sub in ast.walk(node):
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if sub.returns is not None:
                skip.update(id(n) for n in ast.walk(sub.returns))
            for arg in sub.args.args + sub.args.kwonlyargs + sub.args.posonlyargs + [sub.args.vararg, sub.args.kwarg]:
                if arg is not None and arg.annotation is not None:
                    skip.update(id(n) for n in ast.walk(arg.annotation))
        elif isinstance(sub, ast.AnnAssign):
            skip.update(id(n) for n in ast.walk(sub.annotation))
    names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and id(n) not in skip and isinstance(n.ctx, ast.Load)]
    return list(dict.fromkeys(names))


def _literal(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    if isinstance(value, (bool, int, float, str, type(None))):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_literal(v) for v in value)
        return f"({inner},)" if isinstance(value, tuple) and len(value) == 1 else (f"({inner})" if isinstance(value, tuple) else f"[{inner}]")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    raise SourceError(f"cannot write {value!r} as a literal")


# ---------------------------------------------------------------- the demo itself


def right_file(kata: Kata) -> Path:
    """A right answer to check after the mistake: the reference, or for a Triton kernel kata (whose reference is torch,
    computed in the checker's parent, and launches no kernel) its first solution."""
    if kata.needs == "triton":
        solutions = sorted((kata.content_dir / "solutions").glob("*.py"))
        if solutions:
            return solutions[0]
    return kata.reference_path


def run(console: Console, name: str | None = None, label: str | None = None, seed: int | None = None,
        device: str = "auto", rng: random.Random | None = None, avoid: str | None = None) -> int:
    """Check a known mistake, then the reference; print both. Returns the exit code (0). With no `name`, a
    random kata other than `avoid`."""
    from checker.judge import Request, check
    from checker.app.render import report, verdict_line
    from checker.app.views import say

    rng = rng or random.Random()
    kata, mistake = choose(name, label, rng, avoid)
    seed = seed if seed is not None else rng.randrange(1, 100_000)
    number = next(n for n, m in enumerate(mistakes_of(kata), 1) if m is mistake)
    replay = f"kata demo {kata.id} --mistake {number} --seed {seed}"
    console.print(Text("kata demo", style="bold") + Text(" — " + tr("{title} ({id}).", title=kata.title, id=kata.id)))
    console.print(Text(tr("A solution with one known mistake, checked exactly as your file would be:")))
    console.print()
    with tempfile.TemporaryDirectory(prefix="kata-demo-") as tmp:
        path = Path(tmp) / kata.filename
        path.write_text(variant_source(kata, mistake), encoding="utf-8")
        wrong = check(Request(kata, path, device=device, seed=seed))
    wrong = replace(wrong, file=tr("{file} (a known wrong variant)", file=kata.filename),
                    cases=tuple(replace(c, reproduce="") for c in wrong.cases))
    console.print(report(wrong))
    named = any(c.mistake == label_of(kata, mistake) for c in wrong.cases)
    line = Text("\n" + tr("The planted mistake: "), style="bold")
    line.append(label_of(kata, mistake), style="magenta")
    line.append(tr(" — the report named it.") if named else tr(" — the report shows where the output goes wrong."))
    console.print(line)
    console.print()
    console.print(Text(tr("The reference solution, checked the same way:"), style="bold"))
    right = check(Request(kata, right_file(kata), device=device, seed=seed))
    console.print(verdict_line(right))
    console.print()
    console.print(say(tr("Your turn: `kata start {id}`, write {entry}, then `kata check {id}`.", id=kata.id,
                         entry=kata.entry)))
    console.print(say(tr("Replay this demo: `{command}`", command=replay), "dim"))
    return 0
