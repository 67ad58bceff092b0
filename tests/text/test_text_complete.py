"""The katas' text and kata's messages: complete, current in every language, and printed literally.

What a kata says lives in content/<kata>/ (see CONTRIBUTING.md); kata's own messages are `tr("…")`
calls in the code, translated in content/ui/<lang>.toml. These tests fail when a text is missing,
when a translation is older than its English, when a message has no translation, or when a
translation is kept for a message the code no longer says.
"""
from __future__ import annotations

import ast
import importlib
import io
import re
import string
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from checker.text import catalog, content, i18n
from tests.conftest import ROOT

OTHER_LANGS = [lang for lang in i18n.LANGS if lang != i18n.ENGLISH]
CODE = sorted([ROOT / "cli.py", *(p for p in (ROOT / "checker").rglob("*.py") if p.name != "i18n.py")])
SPECS = ROOT / "checker" / "specs"


def english(kata: catalog.Kata) -> dict:
    return content.read_toml(kata.content_dir / "en.toml")


# ---------------------------------------------------------------- every kata's text is complete


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_the_english_text_is_complete(kata):
    spec = importlib.import_module(kata.spec_module)
    text = kata.text("en")
    assert not text.missing
    assert text.title and text.summary and len(text.contract.splitlines()) >= 5, kata.id
    assert 2 <= len(text.hints) <= 5, f"{kata.id}: {len(text.hints)} hints"
    assert set(text.families) == {f.name for f in spec.FAMILIES}, "a family without a description, or one described twice"
    mistakes = {m.key for m in getattr(spec, "MISTAKES", ())}
    assert set(text.mistakes) == mistakes, f"{kata.id}: mistakes in the spec {sorted(mistakes)} vs the text {sorted(text.mistakes)}"
    assert all(m.label and m.fix for m in text.mistakes.values())
    conventions = {c.key for c in getattr(spec, "CONVENTIONS", ())}
    assert set(text.conventions) == conventions, f"{kata.id}: conventions in the spec {sorted(conventions)} vs the text"
    assert 3 <= len(text.followups) <= 5, f"{kata.id}: {len(text.followups)} follow-up questions (3 to 5)"
    assert all(f.question.rstrip().endswith("?") and len(f.answer) > 80 for f in text.followups)


@pytest.mark.parametrize("lang", OTHER_LANGS)
@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_every_translation_exists_and_is_current(kata, lang):
    state = content.translation_state(english(kata), content.read_toml(kata.content_dir / f"{lang}.toml"))
    bad = {path: s for path, s in state.items() if s != "current"}
    assert not bad, (f"{kata.id} ({lang}): {len(bad)} text(s) missing or stale: {bad}. Translate them, then "
                     f"`python -m checker.text.content stamp {kata.id} PATH...`")


@pytest.mark.parametrize("lang", OTHER_LANGS)
@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_translations_keep_the_placeholders_and_the_code(kata, lang):
    """A translated text keeps every `code span` and every {placeholder} of its English."""
    theirs = dict(content.leaves(content.read_toml(kata.content_dir / f"{lang}.toml")))
    for path, en in content.leaves(english(kata)):
        if path in theirs:
            assert _fields(en) == _fields(theirs[path]), f"{kata.id} {path}: placeholders differ"


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_the_stub_states_the_contract_and_runs(kata, lang):
    source = kata.stub(lang)
    assert source.startswith(f"# kata: {kata.id}\n")
    tree = ast.parse(source)
    doc = ast.get_docstring(tree, clean=False)
    assert doc is not None and doc.startswith(kata.text(lang).contract.strip("\n")[:40])
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert kata.entry in defined and "NotImplementedError" in source
    namespace: dict = {}
    exec(compile(source, kata.filename, "exec"), namespace)  # noqa: S102 — kata's own stub
    assert kata.entry in namespace


# ---------------------------------------------------------------- kata's own messages


def _fields(template: str) -> set[str]:
    fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return fields | set(re.findall(r"`[^`]*`", template)) if "`" in template else fields


def _msgids(path: Path) -> list[tuple[str, int]]:
    """Every tr("…") / plural("…", "…") message in a file, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if name == "tr" and node.args:
                assert isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str), (
                    f"{path.name}:{node.lineno}: tr() takes a literal English message (values go in as keywords)")
                found.append((node.args[0].value, node.lineno))
            elif name == "plural" and len(node.args) >= 3:
                found += [(a.value, node.lineno) for a in node.args[1:3] if isinstance(a, ast.Constant)]
    return found


def _kata_of(path: Path) -> catalog.Kata | None:
    return catalog.find(path.stem) if path.parent == SPECS and not path.stem.startswith("_") else None


def test_every_message_formats_with_its_own_placeholders():
    for path in CODE:
        for msgid, line in _msgids(path):
            specs = {name: spec for _, name, spec, _ in string.Formatter().parse(msgid) if name}
            values = {name: 0 if spec else "x" for name, spec in specs.items()}  # {s:02d} takes a number
            msgid.format(**values)  # braces that are not placeholders must be doubled


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_every_message_kata_prints_is_translated(lang):
    ui = dict(content.read_toml(i18n.UI_DIR / f"{lang}.toml").get("messages", {}))
    missing, used = [], set()
    for path in CODE:
        kata = _kata_of(path)
        table = ui if kata is None else {**ui, **content.read_toml(kata.content_dir / f"{lang}.toml").get("messages", {})}
        for msgid, line in _msgids(path):
            used.add(msgid)
            if msgid not in table:
                missing.append(f"{path.relative_to(ROOT)}:{line}: {msgid!r}")
            elif _fields(msgid) != _fields(table[msgid]):
                missing.append(f"{path.relative_to(ROOT)}:{line}: placeholders differ in {table[msgid]!r}")
    assert not missing, f"{len(missing)} message(s) without a {lang} translation:\n" + "\n".join(missing[:40])
    unused = [m for m in ui if m not in used]
    assert not unused, f"{lang} translations of messages the code no longer says: {unused[:10]}"


# ---------------------------------------------------------------- content prints literally


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_content_is_printed_literally(kata, lang):
    """Hints and mistake names print exactly as written: `[t + 1]` is text, not rich markup."""
    text = kata.text(lang)
    pieces = list(text.hints) + [m.label for m in text.mistakes.values()] + [m.fix for m in text.mistakes.values()]
    for piece in pieces:
        out = io.StringIO()
        Console(file=out, width=10_000, color_system=None).print(Text(piece), soft_wrap=True)
        assert out.getvalue().rstrip("\n") == piece


# ---------------------------------------------------------------- one term, one translation


def _chinese_texts() -> list[tuple[str, str]]:
    out = [(f"ui: {en}", zh) for en, zh in content.read_toml(i18n.UI_DIR / "zh.toml").get("messages", {}).items()]
    for kata in catalog.KATAS:
        data = content.read_toml(kata.content_dir / "zh.toml")
        out += [(f"{kata.id} {path}", text) for path, text in content.leaves(data)]
        out += [(f"{kata.id} message", text) for text in data.get("messages", {}).values()]
    return out


def test_chinese_follows_the_glossary():
    terms = content.read_toml(ROOT / "content" / "glossary.toml")["term"]
    assert len({t["en"] for t in terms}) == len(terms)
    # An avoided form may be part of the right term itself (组查询注意力 in 分组查询注意力): look for it
    # only outside the right term.
    wrong = [f"{where}: '{bad}' (use {t['zh']})" for where, text in _chinese_texts()
             for t in terms for bad in t.get("avoid", []) if bad in text.replace(t["zh"].split("（")[0], "")]
    assert not wrong, "\n".join(wrong[:20])


# ---------------------------------------------------------------- a stale translation, and the parsed-file cache


def _write(path: Path, text: str, at_ns: int) -> None:
    import os

    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(at_ns, at_ns))


def test_a_translation_made_from_older_english_is_not_shown(tmp_path):
    """A changed English text shows in English (in the title alone and in the whole text alike) until
    its translation is restamped; the parsed-file cache notices the change."""
    folder = tmp_path / "toy"
    folder.mkdir()
    _write(folder / "en.toml", 'title = "Toy"\nhints = ["one"]\n', 1_000_000_000)
    _write(folder / "zh.toml", f'title = "玩具"\nhints = ["一"]\n[sources]\ntitle = "{content.digest("Toy")}"\n'
           f'"hints.0" = "{content.digest("one")}"\n', 1_000_000_000)
    assert content.title(folder, "zh") == content.load(folder, "zh").title == "玩具"
    _write(folder / "en.toml", 'title = "Toy kata"\nhints = ["one"]\n', 2_000_000_000)
    content.load.cache_clear()
    assert content.title(folder, "zh") == content.load(folder, "zh").title == "Toy kata"
    assert content.load(folder, "zh").hints == ("一",) and content.load(folder, "zh").missing == ("title",)


def test_the_parsed_file_cache_is_only_an_optimisation(tmp_path, monkeypatch):
    """Corrupt or unwritable, the cache is ignored; a file changed since it was kept is parsed again."""
    from checker.text import tomlcache

    home = tmp_path / "home"
    monkeypatch.setenv("KATA_HOME", str(home))
    monkeypatch.setattr(tomlcache, "_buckets", {})  # restored after the test: other tests' reads stay kept
    monkeypatch.setattr(tomlcache, "_dirty", set())
    path = tmp_path / "a.toml"
    _write(path, 'x = "first"\n', 1_000_000_000)
    assert tomlcache.read(path) == {"x": "first"}
    tomlcache._save()
    kept = home / "cache" / "content-a.marshal"  # one cache file per kind of file (its stem)
    assert kept.is_file()
    tomlcache._reset()  # a new process: reads the cache
    assert tomlcache.read(path) == {"x": "first"}
    _write(path, 'x = "second"\n', 2_000_000_000)
    assert tomlcache.read(path) == {"x": "second"}
    kept.write_bytes(b"\x00garbage")
    tomlcache._reset()
    assert tomlcache.read(path) == {"x": "second"}
    assert tomlcache.read(tmp_path / "none.toml") == {}
    monkeypatch.setenv("KATA_HOME", "/dev/null/kata")  # cannot be written: nothing breaks
    tomlcache._reset()
    assert tomlcache.read(path) == {"x": "second"}
    tomlcache._save()


def test_what_is_worked_out_from_files_is_kept_until_one_changes(tmp_path, monkeypatch):
    """memo: computed once, read back in a new process, computed again when a file changes, appears or goes."""
    from checker.text import tomlcache

    monkeypatch.setenv("KATA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tomlcache, "_buckets", {})
    monkeypatch.setattr(tomlcache, "_dirty", set())
    a, b = tmp_path / "en.toml", tmp_path / "zh.toml"
    _write(a, 'x = "one"\n', 1_000_000_000)
    calls = []

    def work_out() -> tuple:
        calls.append(1)
        return (tomlcache.read(a).get("x"), tomlcache.read(b).get("x"))

    assert tomlcache.memo("zh", "both", (a, b), work_out) == ("one", None)
    assert tomlcache.memo("zh", "both", (a, b), work_out) == ("one", None) and len(calls) == 1
    tomlcache._save()
    tomlcache._reset()  # a new process
    assert tomlcache.memo("zh", "both", (a, b), work_out) == ("one", None) and len(calls) == 1
    _write(b, 'x = "二"\n', 1_000_000_000)  # appears
    assert tomlcache.memo("zh", "both", (a, b), work_out) == ("one", "二") and len(calls) == 2
    _write(a, 'x = "three"\n', 2_000_000_000)  # changes
    assert tomlcache.memo("zh", "both", (a, b), work_out) == ("three", "二") and len(calls) == 3
    b.unlink()  # goes
    assert tomlcache.memo("zh", "both", (a, b), work_out) == ("three", None) and len(calls) == 4
