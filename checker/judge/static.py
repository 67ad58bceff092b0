"""What can be said about a learner's file without running it: readable, parseable, no banned
calls, and the entry point defined. Import-light (no torch): this runs before torch is loaded.
"""
from __future__ import annotations

import ast
import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from checker.errors import KataError
from checker.text.i18n import tr

KATA_LINE = re.compile(r"^#\s*kata:\s*([A-Za-z0-9_-]+)\s*$")


@dataclass(frozen=True)
class Finding:
    status: str  # "error" (cannot run) or "fail" (broke a rule)
    message: str
    hint: str = ""


def read_source(path: Path, kata_id: str = "<name>") -> tuple[str | None, Finding | None]:
    """The file's text, or a finding saying why it cannot be read as Python source."""
    if not path.exists():
        raise KataError(tr("No file at {path}. Start the kata with `kata start {id}`, or give the path to your file.",
                           path=path, id=kata_id))
    if path.is_dir():
        raise KataError(tr("{path} is a directory; give the path to your .py file.", path=path))
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KataError(tr("Cannot read {path}: {why}.", path=path, why=exc.strerror or exc)) from exc
    if b"\x00" in data:
        return None, Finding("error", tr("{file} is a binary file, not Python source.", file=path.name))
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (Windows editors write one) is not source; Python skips it too
    except UnicodeDecodeError as exc:
        return None, Finding("error", tr("{file} is not valid UTF-8 (byte {at}): save it as UTF-8 text.", file=path.name,
                                         at=exc.start))
    if not text.strip():
        return None, Finding("error", tr("{file} is empty.", file=path.name),
                             tr("Run `kata start {id} --force` to get the stub back (the old file is kept as a backup).",
                                id=kata_id))
    return text, None


def kata_line(text: str) -> str | None:
    for line in text.removeprefix("\ufeff").splitlines()[:5]:
        match = KATA_LINE.match(line.strip())
        if match:
            return match.group(1)
    return None


# Characters that a paste from a formula, a PDF or a Chinese input method brings in for ASCII code.
_LOOKALIKES = {"\u2212": "-", "\u2013": "-", "\u00d7": "*", "\u201c": '"', "\u201d": '"', "\u2018": "'",
               "\u2019": "'", "\u3000": " ", "\u3001": ",", "\u3002": "."}


def _lookalike(message: str) -> str:
    """A sentence naming the ASCII character meant, when the SyntaxError is a look-alike character."""
    found = re.search(r"invalid (?:non-printable )?character '(.)' \(U\+([0-9A-F]{4,6})\)", message)
    if not found:
        return ""
    char = found.group(1)
    meant = _LOOKALIKES.get(char)
    if meant is None and 0xFF01 <= ord(char) <= 0xFF5E:
        meant = chr(ord(char) - 0xFEE0)  # a full-width form of an ASCII character
    if meant is None:
        return ""
    if char == "\u2212":
        return "\n" + tr("That is a Unicode minus (U+2212), not the ASCII one: type -.")
    return "\n" + tr("That is {char} (U+{code}), not ASCII: type {meant}.", char=char, code=found.group(2), meant=meant)


def inspect(text: str, filename: str, entry: str, banned: tuple[str, ...]) -> Finding | None:
    try:
        tree = ast.parse(text, filename=filename)
    except SyntaxError as exc:
        where = (tr("line {line}, column {column}", line=exc.lineno, column=exc.offset) if exc.offset
                 else tr("line {line}", line=exc.lineno))
        line = (exc.text or "").rstrip("\n")
        shown = f"\n    {line}\n    {' ' * max((exc.offset or 1) - 1, 0)}^" if line.strip() else ""
        return Finding("error", tr("SyntaxError in {file}, {where}: {why}", file=filename, where=where, why=exc.msg) + shown
                       + _lookalike(exc.msg))
    used = banned_uses(tree, banned)
    if used:
        name, lineno = used[0]
        return Finding("fail", tr("{file}, line {line}: uses {name}, which this kata bans — the point is to write it "
                                  "yourself.", file=filename, line=lineno, name=name))
    refused = kernel_refusals(tree)
    if refused:
        line, why = refused[0]
        return Finding("fail", tr("{file}, line {line}: {why}", file=filename, line=line, why=why))
    defined = top_level_names(tree)
    if entry not in defined:
        close = difflib.get_close_matches(entry, defined, n=1, cutoff=0.6)
        listing = ", ".join(defined) if defined else tr("nothing at the top level")
        hint = tr(" Did you mean '{close}'? Rename it to '{entry}'.", close=close[0], entry=entry) if close else ""
        return Finding("error", tr("{file} does not define '{entry}' (it defines {listing}).", file=filename, entry=entry,
                                   listing=listing) + hint)
    return None


def missing_library(needs: str | None) -> str | None:
    """Why a kata that needs an optional library (catalog.NEEDS: `needs = "triton"`) cannot be checked here, in the
    learner's words (how to install it), or None. Reads the installed metadata: nothing is imported."""
    if needs != "triton":
        return None
    from checker.judge import kernels

    return kernels.availability()


def kernel_refusals(tree: ast.Module) -> list[tuple[int, str]]:
    """What a file that imports triton may not do (checker.judge.kernels.refusals: @triton.autotune, torch inside a
    @triton.jit function, block pointers and tensor descriptors, TF32 requests): (line, why), first first."""
    imports = (alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names)
    froms = (node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom))
    if not any(name.split(".")[0] == "triton" for name in (*imports, *froms)):
        return []
    from checker.judge import kernels  # imports neither triton nor torch

    return kernels.refusals(tree)


def top_level_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"]
    return [n for n in dict.fromkeys(names) if not n.startswith("__")]


def banned_uses(tree: ast.Module, banned: tuple[str, ...]) -> list[tuple[str, int]]:
    """Dotted names the file uses that fall under a banned name, resolving import aliases, star
    imports, names assigned a module or function (`F = torch.nn.functional`) and getattr with a
    constant name (`getattr(F, "cross_entropy")`)."""
    aliases: dict[str, str] = {}
    starred: dict[str, str] = {}  # banned names a `from module import *` brings in
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[(alias.asname or alias.name).split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
                _check(alias.name, node.lineno, banned, found)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name == "*":
                    starred.update({ban.rpartition(".")[2]: ban for ban in banned if ban.rpartition(".")[0] == node.module})
                    continue
                full = f"{node.module}.{alias.name}"
                aliases[alias.asname or alias.name] = full
                _check(full, node.lineno, banned, found)
    defined = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    aliases.update({name: ban for name, ban in starred.items() if name not in defined and name not in aliases})
    _follow_assignments(tree, aliases)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            head, _, rest = (dotted or "").partition(".")
            if head in aliases and rest:  # only names that come from an import can be library calls
                _check(f"{aliases[head]}.{rest}", node.lineno, banned, found)
        elif isinstance(node, ast.Name) and node.id in aliases:
            _check(aliases[node.id], node.lineno, banned, found)
        elif isinstance(node, ast.Call):
            name = _getattr_name(node, aliases)
            if name:
                _check(name, node.lineno, banned, found)
    return sorted(set(found), key=lambda item: item[1])


def _resolve(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """The full dotted name an expression stands for, when it starts from an imported name."""
    if isinstance(node, ast.Call):
        return _getattr_name(node, aliases)
    head, _, rest = (_dotted(node) or "").partition(".")
    if head not in aliases:
        return None
    return f"{aliases[head]}.{rest}" if rest else aliases[head]


def _getattr_name(node: ast.Call, aliases: dict[str, str]) -> str | None:
    """`getattr(F, "cross_entropy")` -> "torch.nn.functional.cross_entropy"."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) >= 2):
        return None
    owner, attr = _resolve(node.args[0], aliases), node.args[1]
    if owner and isinstance(attr, ast.Constant) and isinstance(attr.value, str):
        return f"{owner}.{attr.value}"
    return None


def _follow_assignments(tree: ast.Module, aliases: dict[str, str]) -> None:
    """`F = torch.nn.functional`, `G = F`: a name assigned an imported name is an alias too."""
    assigns = [n for n in ast.walk(tree)
               if isinstance(n, ast.Assign) and isinstance(n.value, (ast.Name, ast.Attribute, ast.Call))]
    for _ in range(3):  # chains of a few assignments, in any order
        for node in assigns:
            target = _resolve(node.value, aliases)
            if target:
                aliases.update({t.id: target for t in node.targets if isinstance(t, ast.Name)})


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _check(name: str, lineno: int, banned: tuple[str, ...], found: list[tuple[str, int]]) -> None:
    # A banned function reached under another module (torch._C._nn.x for torch.nn.functional.x) is banned too,
    # but not a Tensor method of the same short name: conv2d bans F.unfold and allows Tensor.unfold.
    method = name.startswith("torch.Tensor.")
    for ban in banned:
        short = ban.rsplit(".", 1)[-1]
        if name == ban or name.startswith(ban + ".") or (len(ban.split(".")) > 2 and name.endswith("." + short)
                                                          and name.split(".")[0] in ("torch", "F", "nn", "scipy")
                                                          and not method):
            found.append((ban, lineno))
            return
