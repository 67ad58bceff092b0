"""`kata.check("gae")` over several cells: the file the learner ran, rebuilt from the notebook, or a refusal.

`build(entry, shell)` takes the statement that defined `entry` from the cell that ran it, and the statements
of what it uses, and writes them as one file. It never guesses: whenever it cannot be sure that the file does
what the learner's notebook would do now, it raises `Refusal` with one sentence saying why and what to do.
Checking other code than the learner ran would be a wrong verdict; a refusal is not.

Where code comes from. A function's code object names its cell (`co_filename`: `/tmp/ipykernel_<pid>/<hash>.py`
under ipykernel, `<ipython-input-N-hash>` in a plain IPython) and the line its statement starts on
(`co_firstlineno`, the first decorator's line). IPython keeps each cell's text in `linecache` under that name.
The cell's execution count comes from `shell.compile._filename_map` (IPython 8+), else from the name
(`<ipython-input-N-…>`), else from the newest entry of `In` with the same text (IPython 7.34 + ipykernel 6).
A class is found through its own functions (methods, static and class methods, properties): `inspect.getsource`
cannot find a class defined in a cell (ipython/ipython#11249).

The entry, and every function or class defined in a cell that it uses, is taken by these rules:
- `shell.user_ns[entry]` must exist, and be a function made by `def` (or `async def`), possibly decorated, or a
  class made by `class`; a lambda, a functools.partial, a built-in, a callable object is refused.
- Its `__name__` is the name it is used by (`gae = other` is refused) and its `__qualname__` is that name too
  (a `def` inside another function or class is refused).
- Its cell is a notebook cell (code made by `exec`, `<string>`, or imported from a file is refused), and the cell
  has a top-level `def <name>` / `class <name>` starting at that line (one inside a `for`, `if`, `with`, `try`
  is refused). That statement's text, decorators included, is taken exactly.
- The taken text, compiled, gives the very code that ran (same bytecode, constants, names): else refused.
- What the statement evaluated when it ran must still be what the file evaluates: default values are compared
  with the function's own (`__defaults__`, `__kwdefaults__`; a default computed from notebook values that cannot
  be compared is refused); a base class must be the class's own base (`cls.__bases__`); a decorator or a name read
  in the class body that was defined in a cell run after the statement's cell is refused (the statement ran with
  an older one); a plain notebook value read in a class body is refused unless `attr = NAME` can be compared.
  A function wrapped after its `def` ran (`gae = torch.no_grad()(gae)`) is refused; one decorated is unwrapped
  (`__wrapped__`) to find its `def`, and the decorator is taken with the statement.
- A class: every function in its `__dict__` comes from that one cell with a `__qualname__` of `Class.…`; every
  `def` in the class body is still there; no attribute was added from outside (a monkeypatched method, `del`,
  `Cls.x = 1` are refused; a decorated class, such as a dataclass, may have generated methods). A class with no
  function of its own is refused: its cell cannot be found.

What a taken statement uses: the global names its bytecode reads (LOAD_GLOBAL / LOAD_NAME in the statement and in
every code object nested in it, decorators, defaults, bases and annotations included; a local or an attribute
that happens to share a name is not read as a global), resolved in `shell.user_ns`:
- not there, or a builtin (or IPython's own, from `user_ns_hidden`): nothing (a NameError is the learner's own).
- a module: `import torch`, `from torch import nn`, `import torch.nn.functional as F`, when `sys.modules` holds
  that very module under its name.
- a function or class from a module: `from <module> import <name> [as <alias>]`, from the shortest already
  imported package path that gives back the very object (`from torch.nn import Linear`); else refused.
- a function or class defined in a cell: taken by the rules above, recursively (a cycle is fine).
- a literal (None, bool, int, float incl. inf and nan, complex, str, bytes, and tuples, lists, sets, dicts of
  those, small) whose text evaluates back to an equal value of the same types: `NAME = <repr>`; a value whose repr
  is a dotted path back to itself (`torch.float32`): `NAME = torch.float32`. Anything else (a tensor, a model,
  a dict of tensors) is a value computed in the notebook: refused.

The file: `from __future__ import annotations` when the code ran under it, the imports (sorted, one each), the
constants, then the statements (what a statement needs when it is defined, such as its base class or decorator,
before it; otherwise in the cells' execution order, then line order), two blank lines between. It must compile.
"""
from __future__ import annotations

import __future__
import ast
import builtins
import dis
import functools
import inspect
import linecache
import math
import re
import sys
import types
from dataclasses import dataclass, field

from checker.text.i18n import tr

FUTURE_ANNOTATIONS = __future__.annotations.compiler_flag
READS = {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_FROM_DICT_OR_GLOBALS"}
IPYTHON_INPUT = re.compile(r"<ipython-input-(\d+)-[0-9a-f]+>")
DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")
LITERAL_LIMIT = 10_000  # characters: a constant longer than this is data, not a constant
# What a class statement puts in the class's __dict__ without the body saying so.
CLASS_DUNDERS = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__annotations__",
                 "__firstlineno__", "__static_attributes__", "__orig_bases__", "__parameters__", "__classcell__",
                 "__abstractmethods__", "_abc_impl", "__annotate__", "__annotate_func__", "__annotations_cache__",
                 "__type_params__"}


class Refusal(Exception):
    """kata.check cannot be sure which code the learner ran; .message is the sentence to show (already in the
    learner's language via checker.text.i18n.tr)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Built:
    source: str  # the whole file, ready to save and check (without kata's `# kata:` first line)
    cells: tuple[int, ...]  # the execution counts ("In [n]") of the cells it took code from, in file order
    said: str  # one line for the report's top: which cells it took code from


def build(entry: str, shell) -> Built:
    """The file that defines `entry` as the notebook in `shell` (IPython's InteractiveShell) does; or Refusal."""
    return _Builder(entry, shell).build()


# ---------------------------------------------------------------- what is taken


@dataclass
class _Cell:
    filename: str
    source: str
    count: int | None
    tree: ast.Module


@dataclass
class _Taken:
    name: str
    obj: object
    cell: _Cell
    node: ast.stmt
    text: str
    first: int  # the statement's first line in its cell (its first decorator's)
    future: bool  # compiled under `from __future__ import annotations`
    module_code: types.CodeType | None = None
    reads: list[str] = field(default_factory=list)  # global names read, in order, each once

    @property
    def order(self) -> tuple:
        return (self.cell.count if self.cell.count is not None else math.inf, self.first, self.name)


@dataclass
class _Import:
    line: str


@dataclass
class _Constant:
    line: str
    value: object


_ABSENT = object()  # a name the file leaves alone (a builtin, IPython's own, not defined)


class _Builder:
    def __init__(self, entry: str, shell):
        self.entry = entry
        self.shell = shell
        self.ns = shell.user_ns
        self.resolved: dict[str, object] = {}  # name -> _Taken | _Import | _Constant | _ABSENT
        self.cells: dict[str, _Cell | None] = {}
        self.helper_imports: set[str] = set()  # `import torch` for `DT = torch.float32`

    # ---------------------------------------------------------------- the file

    def build(self) -> Built:
        if self.entry not in self.ns:
            raise Refusal(tr("`{name}` is not defined in this notebook yet: run the cell that defines it, or put "
                             "`%%kata {name}` at the top of that cell.", name=self.entry))
        self.resolve(self.entry, None, entry=True)
        taken = self._ordered([v for v in self.resolved.values() if isinstance(v, _Taken)])
        imports = sorted({v.line for v in self.resolved.values() if isinstance(v, _Import)} | self.helper_imports,
                         key=lambda line: (line.startswith("from "), line))
        constants = [(n, v) for n, v in self.resolved.items() if isinstance(v, _Constant)]
        blocks = []
        if any(t.future for t in taken):
            blocks.append("from __future__ import annotations")
        if imports:
            blocks.append("\n".join(imports))
        if constants:
            blocks.append("\n".join(c.line for _, c in constants))
        blocks += [t.text for t in taken]
        source = "\n\n\n".join(blocks) + "\n"
        try:
            compile(source, f"<kata {self.entry}>", "exec", dont_inherit=True)
        except SyntaxError as e:
            raise Refusal(tr("kata.check built a file from the cells that does not compile ({error}); this is "
                             "kata's fault: put everything `{entry}` needs in one cell under `%%kata {entry}`.",
                             error=f"{e.msg}, line {e.lineno}", entry=self.entry)) from None
        counts = tuple(dict.fromkeys(t.cell.count for t in taken if t.cell.count is not None))
        return Built(source, counts, self._said(taken, imports, constants))

    def _ordered(self, taken: list[_Taken]) -> list[_Taken]:
        """Execution order, then line order; what a statement needs when it is defined goes before it."""
        by_name = {t.name: t for t in taken}
        needs = {t.name: [n for n in self._deftime_names(t) if n in by_name and n != t.name] for t in taken}
        out, done, doing = [], set(), set()

        def visit(t: _Taken) -> None:
            if t.name in done:
                return
            if t.name in doing:
                raise Refusal(tr("`{name}` and what it needs when it is defined depend on each other; put "
                                 "everything `{entry}` needs in one cell under `%%kata {entry}`.",
                                 name=t.name, entry=self.entry))
            doing.add(t.name)
            for n in sorted(needs[t.name], key=lambda n: by_name[n].order):
                visit(by_name[n])
            doing.discard(t.name)
            done.add(t.name)
            out.append(t)

        for t in sorted(taken, key=lambda t: t.order):
            visit(t)
        return out

    def _said(self, taken: list[_Taken], imports: list[str], constants: list) -> str:
        pieces = tr(", ").join(tr("{name} from cell {cell}", name=t.name, cell=_label(t.cell)) for t in taken)
        bound = [_bound_name(line) for line in imports]
        names = [n for n in self.resolved if isinstance(self.resolved[n], _Import)]
        imported = tr(", ").join(n for n in sorted(set(names) | set(bound)))
        consts = tr(", ").join(n for n, _ in constants)
        if imported and consts:
            return tr("kata.check took {taken}; imports: {imports}; constants: {constants}.", taken=pieces,
                      imports=imported, constants=consts)
        if imported:
            return tr("kata.check took {taken}; imports: {imports}.", taken=pieces, imports=imported)
        if consts:
            return tr("kata.check took {taken}; constants: {constants}.", taken=pieces, constants=consts)
        return tr("kata.check took {taken}.", taken=pieces)

    # ---------------------------------------------------------------- names

    def resolve(self, name: str, user: _Taken | None, entry: bool = False) -> object:
        """What `name` is in the file: taken, imported, a constant, or left alone; Refusal when it cannot be."""
        if name in self.resolved:
            return self.resolved[name]
        value = self.ns[name] if name in self.ns else _ABSENT
        hidden = getattr(self.shell, "user_ns_hidden", {})
        if value is _ABSENT or (name in hidden and hidden[name] is value and not entry):
            self.resolved[name] = _ABSENT
            return _ABSENT
        if entry or _is_from_cells(value):
            if isinstance(value, type):
                return self._take_class(name, value)
            return self._take_function(name, value)
        if isinstance(value, types.ModuleType):
            found = _Import(self._module_line(name, value))
        elif (line := self._object_line(name, value)) is not None:
            found = _Import(line)
        elif isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
            raise Refusal(self._not_importable(name, str(getattr(value, "__module__", None))))
        else:
            found = self._constant(name, value, user)
        self.resolved[name] = found
        return found

    def _module_line(self, name: str, module: types.ModuleType) -> str:
        full = getattr(module, "__name__", None)
        if not isinstance(full, str) or sys.modules.get(full) is not module or full == "__main__":
            raise Refusal(self._not_importable(name, repr(full)))
        if name == full:
            return f"import {full}"
        parent, _, last = full.rpartition(".")
        if parent and name == last and getattr(sys.modules.get(parent), last, None) is module:
            return f"from {parent} import {last}"
        return f"import {full} as {name}"

    def _object_line(self, name: str, obj: object) -> str | None:
        """`from torch.nn import Linear` for an object a module holds under its own name; None for any other."""
        if isinstance(obj, (functools.partial, types.MethodType)) or not callable(obj):
            return None
        try:
            module = getattr(obj, "__module__", None)
            qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
        except Exception:
            return None
        if not isinstance(module, str) or not isinstance(qualname, str) or "." in qualname or module == "__main__":
            return None
        if module not in sys.modules:
            return None
        parts = module.split(".")
        for i in range(1, len(parts) + 1):
            place = ".".join(parts[:i])
            if any(p.startswith("_") for p in parts[1:i]) and i < len(parts):
                continue  # a private package path only when it is the module itself
            if getattr(sys.modules.get(place), qualname, None) is obj:
                return f"from {place} import {qualname}" + ("" if qualname == name else f" as {name}")
        return None

    def _not_importable(self, name: str, module: str) -> str:
        return tr("`{name}` cannot be imported again by name (it comes from {module}), so kata.check cannot "
                  "rebuild it in a file: import it with a plain `import` or `from … import` in a cell.",
                  name=name, module=module)

    def _constant(self, name: str, value: object, user: _Taken | None) -> _Constant:
        text = _literal(value)
        if text is None:
            dotted = _dotted(value)
            if dotted is not None:
                root = dotted.split(".")[0]
                self.helper_imports.add(f"import {root}")
                if root in self.ns and self.ns[root] is not sys.modules[root]:
                    raise Refusal(self._computed(name, value, user))
                text = dotted
        if text is None:
            raise Refusal(self._computed(name, value, user))
        return _Constant(f"{name} = {text}", value)

    def _computed(self, name: str, value: object, user: _Taken | None) -> str:
        return tr("`{name}` is a value computed in the notebook (a {type}); kata.check cannot rebuild it in a file: "
                  "compute it inside `{user}`, or put everything `{entry}` needs in one cell under `%%kata {entry}`.",
                  name=name, type=type(value).__name__, user=user.name if user else self.entry, entry=self.entry)

    # ---------------------------------------------------------------- cells

    def _cell(self, filename: str) -> _Cell | None:
        if filename in self.cells:
            return self.cells[filename]
        lines = None
        for cache in (linecache.cache, getattr(linecache, "_ipython_cache", {})):
            entry = cache.get(filename)
            if entry and len(entry) >= 3 and entry[2]:
                lines = entry[2]
                break
        cell = None
        if lines is not None:
            source = "".join(lines)
            count = self._count(filename, source)
            if count is not False:
                try:
                    tree = ast.parse(source)
                except SyntaxError:
                    tree = None
                if tree is not None:
                    cell = _Cell(filename, source, count, tree)
        self.cells[filename] = cell
        return cell

    def _count(self, filename: str, source: str) -> int | None | bool:
        """The cell's execution count; None when it is a cell of unknown count; False when it is no cell."""
        known = getattr(getattr(self.shell, "compile", None), "_filename_map", None)
        if isinstance(known, dict) and filename in known:
            return known[filename] if isinstance(known[filename], int) else None
        match = IPYTHON_INPUT.fullmatch(filename)
        if match:
            return int(match.group(1))
        inputs = self.ns.get("In")
        if isinstance(inputs, list):
            wanted = source.splitlines()
            for n in range(len(inputs) - 1, 0, -1):
                if isinstance(inputs[n], str) and inputs[n].splitlines() == wanted:
                    return n
        return False

    def _not_a_cell(self, name: str, filename: str) -> Refusal:
        return Refusal(tr("`{name}` was not defined by a notebook cell (its code comes from {file}); kata.check "
                          "takes code only from cells: define it with `def` or `class` in a cell and run that "
                          "cell.", name=name, file=filename))

    # ---------------------------------------------------------------- functions

    def _take_function(self, name: str, obj: object) -> _Taken:
        fn, wrapped = _unwrap(obj)
        if fn is None:
            raise Refusal(tr("`{name}` is {what}; kata.check takes a function or a class from the `def` or "
                             "`class` statement that made it: write `def {name}(...)` in a cell and run it.",
                             name=name, what=_what(obj)))
        code = fn.__code__
        if fn.__name__ == "<lambda>":
            raise Refusal(tr("`{name}` is {what}; kata.check takes a function or a class from the `def` or "
                             "`class` statement that made it: write `def {name}(...)` in a cell and run it.",
                             name=name, what=tr("a lambda")))
        if getattr(fn, "__module__", None) != "__main__" and not self._is_cell_file(code.co_filename):
            raise self._not_a_cell(name, getattr(fn, "__module__", None) or code.co_filename)
        if fn.__name__ != name:
            raise Refusal(self._alias(name, fn.__name__))
        if fn.__qualname__ != name:
            raise Refusal(self._nested(name, fn.__qualname__))
        cell = self._cell(code.co_filename)
        if cell is None:
            if code.co_filename.startswith("<") and not IPYTHON_INPUT.fullmatch(code.co_filename):
                raise self._not_a_cell(name, code.co_filename)
            if self._is_cell_file(code.co_filename):
                raise Refusal(tr("kata.check cannot find the text of the cell that defined `{name}`; run that "
                                 "cell again.", name=name))
            raise self._not_a_cell(name, code.co_filename)
        node = self._statement(name, cell, code.co_firstlineno, (ast.FunctionDef, ast.AsyncFunctionDef))
        if wrapped and not node.decorator_list:
            raise Refusal(tr("`{name}` is not the function its `def` in cell {cell} made: it was wrapped or "
                             "replaced afterwards; run that cell again, or decorate the `def` itself.",
                             name=name, cell=_label(cell)))
        taken = self._register(name, obj, cell, node, bool(code.co_flags & FUTURE_ANNOTATIONS))
        compiled = _find_code(taken.module_code, code.co_name, code.co_firstlineno)
        if compiled is None or not _same_code(compiled, code):
            raise self._changed_text(name, cell)
        self._check_defaults(name, fn, node, cell)
        self._resolve_reads(taken)
        self._check_deftime(taken, skip=_default_names(node))
        return taken

    def _register(self, name: str, obj: object, cell: _Cell, node: ast.stmt, future: bool) -> _Taken:
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        lines = cell.source.splitlines(keepends=True)
        text = "".join(lines[first - 1:node.end_lineno]).rstrip()
        flags = FUTURE_ANNOTATIONS if future else 0
        try:
            module_code = compile("\n" * (first - 1) + text + "\n", cell.filename, "exec", flags, dont_inherit=True)
        except SyntaxError:
            raise self._changed_text(name, cell) from None
        taken = _Taken(name, obj, cell, node, text, first, future, module_code)
        taken.reads = _global_reads(module_code)
        self.resolved[name] = taken
        return taken

    def _resolve_reads(self, taken: _Taken) -> None:
        for read in taken.reads:
            if read != taken.name:
                self.resolve(read, taken)

    def _statement(self, name: str, cell: _Cell, line: int, kinds: tuple) -> ast.stmt:
        """The top-level `def name` / `class name` of `cell` that starts at `line` (spans it, for a class)."""
        for node in cell.tree.body:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            if isinstance(node, kinds) and node.name == name and (
                    first == line if kinds != (ast.ClassDef,) else first <= line <= node.end_lineno):
                return node
        for node in cell.tree.body:
            if node.lineno <= line <= (node.end_lineno or node.lineno) and not isinstance(node, kinds):
                kind = {ast.For: "for", ast.AsyncFor: "async for", ast.While: "while", ast.If: "if",
                        ast.With: "with", ast.AsyncWith: "async with", ast.Try: "try"}.get(type(node))
                if kind is None and type(node).__name__ == "TryStar":
                    kind = "try"
                if kind is not None:
                    raise Refusal(tr("`{name}` is defined inside a `{kind}` statement in cell {cell}; kata.check "
                                     "takes only top-level `def` and `class` statements: move it out of the "
                                     "`{kind}`.", name=name, kind=kind, cell=_label(cell)))
        raise self._changed_text(name, cell)

    def _check_defaults(self, name: str, fn: types.FunctionType, node: ast.AST, cell: _Cell) -> None:
        """The function's defaults are what its `def`, evaluated again in the file, gives."""
        args = node.args
        positional = list(args.posonlyargs) + list(args.args)
        got = fn.__defaults__ or ()
        kwgot = fn.__kwdefaults__ or {}
        pairs = []
        if len(got) != len(args.defaults):
            raise self._changed_text(name, cell)
        for arg, expr, value in zip(positional[len(positional) - len(args.defaults):], args.defaults, got):
            pairs.append((arg.arg, expr, value))
        for arg, expr in zip(args.kwonlyargs, args.kw_defaults):
            if expr is None:
                continue
            if arg.arg not in kwgot:
                raise self._changed_text(name, cell)
            pairs.append((arg.arg, expr, kwgot[arg.arg]))
        for arg, expr, value in pairs:
            try:
                literal = ast.literal_eval(expr)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                pass
            else:
                if not _same_value(literal, value):
                    raise Refusal(self._stale_default(name, arg, cell))
                continue
            target = self._evaluate_path(expr)
            if target is not _ABSENT:
                if target is not value and not (_literal(value) is not None and _same_value(target, value)):
                    raise Refusal(self._stale_default(name, arg, cell))
                continue
            unsure = [n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and not self._steady(n.id)]
            if unsure:
                raise Refusal(tr("The default value of `{arg}` in `{name}` is computed from values in the notebook "
                                 "({names}); kata.check cannot be sure it is what ran: write it as a literal, or "
                                 "compute it inside `{name}`.", arg=arg, name=name, names=", ".join(unsure)))

    def _stale_default(self, name: str, arg: str, cell: _Cell) -> str:
        return tr("The default value of `{arg}` in `{name}` is no longer what cell {cell} says (it was changed, or "
                  "a value it reads was redefined after that cell ran); run cell {cell} again.",
                  arg=arg, name=name, cell=_label(cell))

    def _evaluate_path(self, expr: ast.AST) -> object:
        """The value of `NAME` or `NAME.attr.attr` as the notebook has it now; _ABSENT for anything else."""
        attrs = []
        while isinstance(expr, ast.Attribute):
            attrs.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return _ABSENT
        if expr.id in self.ns:
            value = self.ns[expr.id]
        elif hasattr(builtins, expr.id):
            value = getattr(builtins, expr.id)
        else:
            return _ABSENT
        for attr in reversed(attrs):
            try:
                value = getattr(value, attr)
            except Exception:
                return _ABSENT
        return value

    def _steady(self, name: str) -> bool:
        """A name whose value the file gives back exactly: a builtin, a module, an imported function or class."""
        found = self.resolved.get(name, _ABSENT if name not in self.ns else None)
        if found is None:
            found = self.resolve(name, None)
        return found is _ABSENT or isinstance(found, _Import)

    def _check_deftime(self, taken: _Taken, skip: set[str], verified: set[str] = frozenset()) -> None:
        """Names read when the statement ran (decorators, bases, class bodies) are still what they were then."""
        for read in self._deftime_names(taken):
            if read in skip or read in verified or read == taken.name:
                continue
            found = self.resolve(read, taken)
            if found is _ABSENT or isinstance(found, _Import):
                continue
            if isinstance(found, _Taken):
                if (found.cell.count is not None and taken.cell.count is not None
                        and found.cell.count > taken.cell.count):
                    raise Refusal(tr("`{name}` was defined in cell {cell} with an older `{dep}` (cell {dep_cell} "
                                     "redefined it afterwards); run cell {cell} again.", name=taken.name,
                                     cell=_label(taken.cell), dep=read, dep_cell=_label(found.cell)))
                if found.cell.count is None or taken.cell.count is None:
                    if found.cell.filename != taken.cell.filename:
                        raise Refusal(self._unsure_deftime(taken, read))
                continue
            raise Refusal(self._unsure_deftime(taken, read))

    def _unsure_deftime(self, taken: _Taken, read: str) -> str:
        return tr("`{name}` reads `{dep}` when it is defined (cell {cell}); kata.check cannot be sure `{dep}` still "
                  "has the value it had then: write the value there, or put both in one cell under "
                  "`%%kata {entry}`.", name=taken.name, dep=read, cell=_label(taken.cell), entry=self.entry)

    def _deftime_names(self, taken: _Taken) -> list[str]:
        """The global names the statement reads when it runs (not when its functions are called), annotations
        aside: decorators, defaults, bases and keywords, class bodies."""
        names: list[str] = []

        def expr(node: ast.AST | None) -> None:
            if node is not None:
                names.extend(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))

        def statement(node: ast.stmt) -> None:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for d in node.decorator_list:
                    expr(d)
                for d in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                    expr(d)
            elif isinstance(node, ast.ClassDef):
                for d in node.decorator_list + node.bases + [k.value for k in node.keywords]:
                    expr(d)
                for child in node.body:
                    statement(child)
            elif isinstance(node, ast.AnnAssign):
                expr(node.value)
            else:
                expr(node)

        statement(taken.node)
        reads = set(taken.reads)
        return [n for n in dict.fromkeys(names) if n in reads]

    # ---------------------------------------------------------------- classes

    def _take_class(self, name: str, cls: type) -> _Taken:
        if cls.__module__ != "__main__":
            raise self._not_a_cell(name, cls.__module__)
        if cls.__name__ != name:
            raise Refusal(self._alias(name, cls.__name__))
        if cls.__qualname__ != name:
            raise Refusal(self._nested(name, cls.__qualname__))
        own = []  # (attribute, function)
        for attr, value in vars(cls).items():
            for fn in _functions_of(value):
                own.append((attr, fn))
        if not own:
            raise Refusal(tr("`{name}` has no function of its own (no method), so kata.check cannot tell which cell "
                             "defined it; put everything `{entry}` needs in one cell under `%%kata {entry}`.",
                             name=name, entry=self.entry))
        files = {fn.__code__.co_filename for _, fn in own if self._is_cell_file(fn.__code__.co_filename)}
        for attr, fn in own:
            if not fn.__qualname__.startswith(name + "."):
                raise Refusal(self._patched(name, attr, None))
        if not files:
            raise self._not_a_cell(name, sorted({fn.__code__.co_filename for _, fn in own})[0])
        holding = [f for f in sorted(files) if self._holds_class(f, name, own)]
        if len(holding) != 1:
            if not holding:  # inside a loop or an if: _statement says so
                first = sorted(files)[0]
                cell = self._cell(first)
                self._statement(name, cell, min(fn.__code__.co_firstlineno for _, fn in own
                                                if fn.__code__.co_filename == first), (ast.ClassDef,))
            newest = max(holding, key=lambda f: self._cell(f).count or 0)
            raise Refusal(self._patched(name, next(a for a, fn in own if fn.__code__.co_filename != newest), None))
        filename = holding[0]
        cell = self._cell(filename)
        in_cell = [(a, fn) for a, fn in own if fn.__code__.co_filename == filename]
        node = self._statement(name, cell, min(fn.__code__.co_firstlineno for _, fn in in_cell), (ast.ClassDef,))
        elsewhere = [a for a, fn in own if fn.__code__.co_filename != filename]
        if elsewhere and not node.decorator_list:
            raise Refusal(self._patched(name, elsewhere[0], cell))
        future = any(fn.__code__.co_flags & FUTURE_ANNOTATIONS for _, fn in in_cell)
        taken = self._register(name, cls, cell, node, future)
        body = _find_code(taken.module_code, name, node.lineno)
        if body is None:
            raise self._changed_text(name, cell)
        for attr, fn in in_cell:
            if not (node.lineno <= fn.__code__.co_firstlineno <= node.end_lineno):
                raise Refusal(self._patched(name, attr, cell))
            compiled = _find_code(body, fn.__code__.co_name, fn.__code__.co_firstlineno)
            if compiled is None or not _same_code(compiled, fn.__code__):
                raise Refusal(self._patched(name, attr, cell))
        self._check_class_dict(name, cls, node, body, cell, elsewhere)
        self._resolve_reads(taken)
        skip = set()
        for child in node.body:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fns = [fn for fn in _functions_of(vars(cls).get(child.name)) if fn.__code__.co_name == child.name]
                if fns:
                    self._check_defaults(f"{name}.{child.name}", fns[0], child, cell)
                    skip |= _default_names(child)
        self._check_bases(taken, cls)
        skip |= {n.id for b in node.bases for n in ast.walk(b) if isinstance(n, ast.Name)}
        self._check_deftime(taken, skip, self._verified_assignments(cls, node))
        return taken

    def _holds_class(self, filename: str, name: str, own: list) -> bool:
        """Whether the cell has a top-level `class name` spanning one of the class's functions from that cell."""
        cell = self._cell(filename)
        lines = [fn.__code__.co_firstlineno for _, fn in own if fn.__code__.co_filename == filename]
        return cell is not None and any(
            isinstance(node, ast.ClassDef) and node.name == name and node.lineno <= line <= node.end_lineno
            for node in cell.tree.body for line in lines)

    def _check_class_dict(self, name, cls, node, body, cell, generated) -> None:
        """Every `def` of the body is in the class, and nothing the body did not bind was added from outside."""
        defs = {}
        for child in node.body:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs[child.name] = child
            elif isinstance(child, ast.ClassDef):
                defs.pop(child.name, None)
        stored = {i.argval for i in dis.get_instructions(body) if i.opname in ("STORE_NAME", "STORE_GLOBAL")}
        for attr, child in defs.items():
            if attr.startswith("__") and not attr.endswith("__"):
                attr = f"_{name.lstrip('_')}{attr}"  # name-mangled
            fns = [fn for fn in _functions_of(vars(cls).get(attr)) if fn.__code__.co_filename == cell.filename]
            first = min([child.lineno] + [d.lineno for d in child.decorator_list])
            if not any(fn.__code__.co_firstlineno == first for fn in fns):
                raise Refusal(self._patched(name, attr, cell))
        extra = [a for a in vars(cls) if a not in stored and a not in CLASS_DUNDERS and a not in generated]
        if extra and not node.decorator_list and type(cls) is type:
            raise Refusal(self._patched(name, extra[0], cell))

    def _check_bases(self, taken: _Taken, cls: type) -> None:
        node = taken.node
        if not node.bases:
            return
        values = [self._evaluate_path(b) for b in node.bases]
        if len(values) != len(cls.__bases__) or any(v is not b for v, b in zip(values, cls.__bases__)):
            wrong = [i for i, (v, b) in enumerate(zip(values, cls.__bases__)) if v is not b] or [0]
            base = ast.unparse(node.bases[wrong[0]])
            raise Refusal(tr("`{name}` was defined in cell {cell} with an older `{dep}` (cell {dep_cell} "
                             "redefined it afterwards); run cell {cell} again.", name=taken.name,
                             cell=_label(taken.cell), dep=base, dep_cell=self._cell_of(base)))

    def _cell_of(self, name: str) -> str:
        found = self.resolved.get(name)
        return _label(found.cell) if isinstance(found, _Taken) else "[?]"

    def _verified_assignments(self, cls: type, node: ast.ClassDef) -> set[str]:
        """Names read by `attr = NAME` in the class body whose value the class still holds (a constant)."""
        ok = set()
        for child in node.body:
            if (isinstance(child, ast.Assign) and len(child.targets) == 1 and isinstance(child.targets[0], ast.Name)
                    and isinstance(child.value, ast.Name)):
                attr, read = child.targets[0].id, child.value.id
                if attr in vars(cls) and read in self.ns and _literal(self.ns[read]) is not None and _same_value(
                        vars(cls)[attr], self.ns[read]):
                    ok.add(read)
        return ok

    # ---------------------------------------------------------------- sentences

    def _alias(self, name: str, real: str) -> str:
        return tr("`{name}` is another name for `{real}`: kata.check takes a function or a class by the name its "
                  "`def` or `class` gave it; define `{name}` with its own `def` or `class`, or use `{real}` by "
                  "that name.", name=name, real=real)

    def _nested(self, name: str, qualname: str) -> str:
        outer = qualname.rsplit(".", 1)[0].replace(".<locals>", "")
        return tr("`{name}` is defined inside `{outer}`; kata.check takes only top-level `def` and `class` "
                  "statements: move it out to the top of a cell.", name=name, outer=outer)

    def _patched(self, name: str, attr: str, cell: _Cell | None) -> str:
        return tr("`{name}.{attr}` was changed after `class {name}` ran (set, replaced or deleted from outside the "
                  "class body); kata.check cannot rebuild that: put it in the class body and run that cell again.",
                  name=name, attr=attr)

    def _changed_text(self, name: str, cell: _Cell) -> Refusal:
        return Refusal(tr("The code of `{name}` that ran is not the text of cell {cell} any more (was it changed "
                          "afterwards?); run that cell again.", name=name, cell=_label(cell)))

    def _is_cell_file(self, filename: str) -> bool:
        known = getattr(getattr(self.shell, "compile", None), "_filename_map", None)
        if isinstance(known, dict) and filename in known:
            return True
        if IPYTHON_INPUT.fullmatch(filename):
            return True
        return self._cell(filename) is not None


# ---------------------------------------------------------------- helpers


def _label(cell: _Cell) -> str:
    return f"[{cell.count}]" if cell.count is not None else "[?]"


def _bound_name(line: str) -> str:
    words = line.split()
    if " as " in line:
        return words[-1]
    return words[-1] if words[0] == "from" else words[1].split(".")[0]


def _is_from_cells(value: object) -> bool:
    """A function or class whose code was written in __main__ (a cell, or exec there): taken, not imported."""
    if isinstance(value, type):
        return getattr(value, "__module__", None) == "__main__"
    fn, _ = _unwrap(value)
    return fn is not None and getattr(fn, "__module__", None) == "__main__"


def _unwrap(obj: object) -> tuple[types.FunctionType | None, bool]:
    """The `def`'s function behind `obj` (through decorators' __wrapped__), and whether it was wrapped."""
    if isinstance(obj, types.FunctionType) and not hasattr(obj, "__wrapped__"):
        return obj, False
    try:
        inner = inspect.unwrap(obj)
    except (ValueError, TypeError):
        return None, False
    if isinstance(inner, types.FunctionType) and inner is not obj:
        return inner, True
    return None, False


def _functions_of(value: object) -> list[types.FunctionType]:
    """The functions a class attribute holds: a method, a static or class method, a property's accessors."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        return [f for v in (value.fget, value.fset, value.fdel) if v is not None for f in _functions_of(v)]
    if isinstance(value, functools.cached_property):
        value = value.func
    if isinstance(value, types.FunctionType):
        fn, _ = _unwrap(value)
        return [fn] if fn is not None else [value]
    if callable(value) and hasattr(value, "__wrapped__"):
        fn, _ = _unwrap(value)
        return [fn] if fn is not None else []
    return []


def _what(obj: object) -> str:
    if isinstance(obj, functools.partial):
        return tr("a functools.partial")
    if isinstance(obj, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        return tr("a built-in function")
    if isinstance(obj, types.MethodType):
        return tr("a method of an object")
    if isinstance(obj, types.ModuleType):
        return tr("a module")
    return tr("an object of type {type}", type=type(obj).__name__)


def _global_reads(code: types.CodeType) -> list[str]:
    """The names `code` and every code object in it read as globals (or, in a class body, from its namespace and
    then globals), each once; a class body's own names aside."""
    names: list[str] = []
    stack = [code]
    while stack:
        c = stack.pop(0)
        instructions = list(dis.get_instructions(c))
        stored = {i.argval for i in instructions if i.opname == "STORE_NAME"} if c is not code else set()
        names += [i.argval for i in instructions if i.opname in READS and i.argval not in stored]
        stack += [k for k in c.co_consts if isinstance(k, types.CodeType)]
    return list(dict.fromkeys(names))


def _default_names(node: ast.AST) -> set[str]:
    args = node.args
    return {n.id for d in args.defaults + [d for d in args.kw_defaults if d is not None]
            for n in ast.walk(d) if isinstance(n, ast.Name)}


def _find_code(code: types.CodeType | None, name: str, line: int) -> types.CodeType | None:
    """The code object named `name` starting on `line`, anywhere inside `code`."""
    if code is None:
        return None
    stack = [code]
    while stack:
        c = stack.pop()
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                if k.co_name == name and k.co_firstlineno == line:
                    return k
                stack.append(k)
    return None


def _same_code(a: types.CodeType, b: types.CodeType) -> bool:
    for attr in ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars", "co_argcount",
                 "co_posonlyargcount", "co_kwonlyargcount", "co_name"):
        if getattr(a, attr) != getattr(b, attr):
            return False
    if (a.co_flags & ~FUTURE_ANNOTATIONS) != (b.co_flags & ~FUTURE_ANNOTATIONS) or len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType) or isinstance(y, types.CodeType):
            if not (isinstance(x, types.CodeType) and isinstance(y, types.CodeType) and _same_code(x, y)):
                return False
        elif not _same_value(x, y):
            return False
    return True


def _same_value(x: object, y: object) -> bool:
    if type(x) is not type(y):
        return False
    try:
        if x == y:
            return True
    except Exception:
        return False
    return repr(x) == repr(y)  # nan, and containers of nan


def _literal(value: object, budget: list | None = None) -> str | None:
    """Source text that gives back `value` (equal, same types all the way down), or None."""
    budget = [LITERAL_LIMIT] if budget is None else budget
    text = _literal_text(value, budget, 0)
    if text is None or len(text) > LITERAL_LIMIT:
        return None
    try:
        again = eval(text, {"__builtins__": {"float": float, "set": set, "frozenset": frozenset}})
    except Exception:
        return None
    return text if _same_types(again, value) and _same_value(again, value) else None


def _literal_text(value: object, budget: list, depth: int) -> str | None:
    budget[0] -= 1
    if budget[0] < 0 or depth > 20:
        return None
    kind = type(value)
    if value is None or kind in (bool, int, str, bytes):
        return repr(value)
    if kind is float:
        if math.isfinite(value):
            return repr(value)
        return f"float('{value}')"  # inf, -inf, nan
    if kind is complex:
        return repr(value) if math.isfinite(value.real) and math.isfinite(value.imag) else None
    if kind in (tuple, list, set, frozenset):
        parts = [_literal_text(v, budget, depth + 1) for v in value]
        if any(p is None for p in parts):
            return None
        if kind is tuple:
            return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        if kind is list:
            return "[" + ", ".join(parts) + "]"
        inner = "{" + ", ".join(parts) + "}"
        if kind is set:
            return inner if parts else "set()"
        return f"frozenset({inner})" if parts else "frozenset()"
    if kind is dict:
        parts = []
        for k, v in value.items():
            kt, vt = _literal_text(k, budget, depth + 1), _literal_text(v, budget, depth + 1)
            if kt is None or vt is None:
                return None
            parts.append(f"{kt}: {vt}")
        return "{" + ", ".join(parts) + "}"
    return None


def _same_types(x: object, y: object) -> bool:
    if type(x) is not type(y):
        return False
    if isinstance(x, (tuple, list)):
        return len(x) == len(y) and all(_same_types(a, b) for a, b in zip(x, y))
    if isinstance(x, dict):
        return len(x) == len(y) and all(_same_types(a, b) for a, b in zip(x.items(), y.items()))
    return True


def _dotted(value: object) -> str | None:
    """`torch.float32` for torch.float32: a repr that is a dotted path from an imported module back to it."""
    try:
        text = repr(value)
    except Exception:
        return None
    if not DOTTED.fullmatch(text):
        return None
    root, *attrs = text.split(".")
    found = sys.modules.get(root)
    if found is None:
        return None
    for attr in attrs:
        found = getattr(found, attr, _ABSENT)
    return text if found is value else None
