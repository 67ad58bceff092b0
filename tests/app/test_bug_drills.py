"""Bug drills (`kata bug`, issue 19): every drill in content/ is sound, and the command works end to end.

Each drill file (content/<m>/bugs/<key>.py, found here whoever wrote it) fails its check with its own
mistake named, gives nothing away in a comment, string or name, and passes once its undo is applied.
Then a learner's session: three drills (one fixed with a one-line change, one rewritten, one given up)
as `kata bug --list`, `kata stats`, `kata list` and `kata next` show it, in English and Chinese, at 60, 80
and 200 columns and in a pipe. One seed per real check: there are many drills.
"""
from __future__ import annotations

import ast
import difflib
import importlib
import io
import json
import os
import re
import subprocess
import sys
import time
import tokenize
import tomllib
from pathlib import Path

import pytest
from rich.cells import cell_len

from checker.text import catalog
from checker.app import drills, practice
from checker.judge import mistakes
from checker.judge.results import Status
from checker.app.state import Event, Store
from tests.conftest import ROOT, run_check
from tests.namer import DRAWS

DRILL_FILES = sorted(catalog.CONTENT_DIR.glob(f"*/{drills.BUGS}/*.py"))
# Words that would point at the slip (COMMON.md's list), in English and Chinese.
GIVEAWAYS = ("bug", "mistake", "wrong", "fix", "incorrect", "oops", "todo", "hack", "careful", "note",
             "错", "修", "漏洞", "缺陷", "注意")
SOFTMAX = catalog.get("softmax")


def kata_of(path: Path) -> catalog.Kata:
    return catalog.get(path.parent.parent.name)


def drill_of(path: Path) -> drills.Drill:
    drill = drills.get(kata_of(path), path.stem)
    assert drill is not None, f"{path}: no [{path.stem}] table with an undo in {path.parent.parent.name}/bugs.toml"
    return drill


def ids(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.stem}"


# ---------------------------------------------------------------- every drill, whoever wrote it


@pytest.mark.parametrize("path", DRILL_FILES, ids=ids)
def test_the_drill_is_a_learner_file_and_its_undo_is_exact(path):
    kata, drill = kata_of(path), drill_of(path)
    source = path.read_text(encoding="utf-8")
    assert source.startswith(f"# kata: {kata.id}\n"), "line 1 is `# kata: <id>`"
    tree = ast.parse(source)
    assert ast.get_docstring(tree) is None, "no module docstring: kata bug puts the contract there"
    assert kata.entry in {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    spec = importlib.import_module(kata.spec_module)
    assert drill.key in {m.key for m in spec.MISTAKES}, f"{drill.key} is not a mistake of {kata.id}'s spec"
    assert drill.undo, "an undo of at least one [old, new] pair"
    for old, new in drill.undo:
        assert old and old != new
        assert source.count(old) == 1, f"{old!r} occurs {source.count(old)} times in the drill, not once"
    first, last = drill.region()
    assert 1 < first <= last <= len(source.splitlines())
    # As written, the region names the same lines, after the contract.
    for lang in ("en", "zh"):
        written = drill.written(lang)
        assert written.startswith(f"# kata: {kata.id}\n") and written.endswith(source.partition("\n")[2].lstrip("\n"))
        a, b = drill.region(written)
        assert written.splitlines()[a - 1:b] == source.splitlines()[first - 1:last]


@pytest.mark.parametrize("path", DRILL_FILES, ids=ids)
def test_no_comment_string_or_name_gives_the_drill_away(path):
    said = []
    with path.open("rb") as handle:
        for token in tokenize.tokenize(handle.readline):
            if token.type in (tokenize.COMMENT, tokenize.STRING, tokenize.NAME) or token.type == getattr(
                    tokenize, "FSTRING_MIDDLE", -1):
                said += [(token.start[0], token.string, word) for word in GIVEAWAYS if word in token.string.lower()]
    assert not said, f"{ids(path)}: {said}"


@pytest.mark.parametrize("path", DRILL_FILES, ids=ids)
def test_the_drill_fails_with_its_own_mistake_named_and_passes_undone(path, tmp_path):
    kata, drill = kata_of(path), drill_of(path)
    # Its named cases and the first DRAWS random draws (the namer's fork names every failing case: with every draw,
    # most of the test's time); the undone file, a right answer, on the same cases, where every rule of the contract
    # is a named case (on every draw, the 287 undone files were 90 s of the suite; the corpus's right files and the
    # solutions meet every draw).
    result = run_check(path, kata.id, seed=1, draws=DRAWS)
    assert result.status is not Status.PASS, f"{ids(path)} passes its check"
    label = kata.text().mistakes[drill.key].label
    shown = {c.mistake for c in result.failures()[:mistakes.SHOWN_FAILING]}  # the cases a report shows in full
    assert label in shown, f"{ids(path)}: the cases a report shows are named {shown}, not {label!r}"
    named = {c.mistake for c in result.failures()} - {None}
    assert named == {label}, f"{ids(path)}: named {named}: one name per run, the drill's own"
    undone = tmp_path / kata.filename
    undone.write_text(drill.undone(), encoding="utf-8")
    fixed = run_check(undone, kata.id, seed=1, name=False, draws=DRAWS)
    assert fixed.passed, f"{ids(path)} with its undo applied: {fixed.message or [c.name for c in fixed.failures()][:5]}"


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_every_kata_has_at_least_three_drills(kata):
    """Each a different mistake (one file per mistake key). Fails until every kata's drills are written."""
    assert len(drills.of(kata)) >= 3, f"{kata.id}: {len(drills.of(kata))} drills"


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_the_drill_files_and_bugs_toml_agree(kata):
    tables = set(tomllib.loads(p.read_text(encoding="utf-8"))) if (p := kata.content_dir / "bugs.toml").exists() else set()
    files = {f.stem for f in (kata.content_dir / drills.BUGS).glob("*.py")}
    assert tables == files, f"{kata.id}: tables without a file {sorted(tables - files)}, files without a table {sorted(files - tables)}"


def test_the_package_data_ships_every_drill():
    """pyproject's package-data globs (relative to content/, as setuptools reads them) match every drill and bugs.toml."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["content"]
    shipped = {p for pattern in patterns for p in catalog.CONTENT_DIR.glob(pattern)}
    wanted = set(DRILL_FILES) | set(catalog.CONTENT_DIR.glob("*/bugs.toml"))
    assert wanted and wanted <= shipped, sorted(str(p) for p in wanted - shipped)


# ---------------------------------------------------------------- the history, without a terminal


def ev(kind, at, verdict=None, detail="", kata="softmax"):
    return Event(kata, kind, at, verdict=verdict, detail=detail)


def test_a_drill_is_picked_unfixed_first_then_least_recently_seen():
    keys = [d.key for d in drills.of(SOFTMAX)]
    assert drills.pick(SOFTMAX, []).key == keys[0]
    events = [ev("drill", 1.0, detail=keys[0]), ev("drill-check", 2.0, "pass", f"{keys[0]}; seed 1"),
              ev("drill", 3.0, detail=keys[1])]
    assert drills.pick(SOFTMAX, events).key == keys[2]  # never seen comes before seen; fixed comes last
    events += [ev("drill", 4.0 + i, detail=k) for i, k in enumerate(keys[2:])]
    assert drills.pick(SOFTMAX, events).key == keys[1]  # every unfixed one seen: the least recently
    events += [ev("drill-check", 10.0 + i, "pass", f"{k}; seed 1") for i, k in enumerate(keys[1:])]
    assert drills.pick(SOFTMAX, events).key == keys[0]  # all fixed: they repeat, least recently seen first


def test_a_pass_after_a_reveal_is_not_fixed_and_a_drill_never_moves_the_kata():
    key = drills.of(SOFTMAX)[0].key
    events = [ev("drill", 1.0, detail=key), ev("drill-check", 2.0, "fail", f"{key}; seed 1"),
              ev("drill-hint", 3.0, detail=f"{key}; 1"), ev("drill-reveal", 4.0, detail=key),
              ev("drill-check", 5.0, "pass", f"{key}; seed 1")]
    record = drills.records(SOFTMAX, events)[key]
    assert (record.fixed, record.given_up, record.hints) == (False, True, 1)
    assert practice.progress("softmax", events).status == "new"
    assert practice.progress("softmax", events).checks == 0
    assert [s.kata.id for s in practice.suggest(events) if s.tier == 3].count("softmax") == 1  # still "not practised"


# ---------------------------------------------------------------- the command, end to end


def kata(*args: str, cwd: Path, columns: int | None = None, lang: str = "en") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "KATA_LANG")}
    env["PYTHONIOENCODING"] = "utf-8"
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), "--lang", lang, *args], cwd=cwd, capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL, timeout=300)


def fits(done: subprocess.CompletedProcess, columns: int | None, code: int = 0) -> str:
    """stdout, known to have ended with `code`, without a traceback, every line within the screen (in cells)."""
    shown = done.stdout + done.stderr
    assert "Traceback" not in shown, shown
    assert done.returncode == code, (done.returncode, shown)
    for line in done.stdout.splitlines():
        if line.startswith("  kata "):
            continue  # a command to copy is printed whole, never wrapped
        assert cell_len(line) <= (columns or 80), f"{cell_len(line)} cells on a {columns}-column screen: {line!r}"
    return done.stdout


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def squeezed(text: str) -> str:
    """Without any whitespace: a line wrapped anywhere (Chinese wraps between characters) reads the same."""
    return re.sub(r"\s+", "", text)


def test_a_session_of_three_drills(tmp_path):
    here = tmp_path / "work"
    here.mkdir()
    keys = [d.key for d in drills.of(SOFTMAX)]
    label = {k: SOFTMAX.text("en").mistakes[k].label for k in keys}
    path = here / "softmax_bug.py"

    # 1. a drill, rewritten whole
    out = one_line(fits(kata("bug", "softmax", cwd=here), 80))
    assert "kata check softmax_bug.py" in out and "kata watch" in out
    written = path.read_text(encoding="utf-8")
    assert written.startswith(SOFTMAX.stub().partition("Run `kata check")[0])  # header, contract as the stub has them
    assert "Run `kata check softmax_bug.py` to test" in written  # `kata check softmax` would check softmax.py
    first = drills.at(Store(), path)
    assert first is not None and first.key == keys[0] and path.read_text(encoding="utf-8") == first.drill.written("en")
    out = fits(kata("check", cwd=here), 80, code=1)
    assert "FAIL" in out and "This looks like" not in out and label[keys[0]] not in out, out
    assert "softmax_bug.py --seed" in out  # the reproduce line names the drill, not the kata's own file
    rewrite = (f"# kata: softmax\nimport numpy as np\n\n\ndef softmax(x, dim=-1):\n"
               f"    z = np.moveaxis(x, dim, -1)\n    e = np.exp(z - z.max(axis=-1, keepdims=True))\n"
               f"    return np.moveaxis(e / e.sum(axis=-1, keepdims=True), -1, dim)\n")
    path.write_text(rewrite, encoding="utf-8")
    out = fits(kata("check", "softmax_bug.py", cwd=here), 80)
    assert f"Fixed: {label[keys[0]]}" in out and "--- the drill as written" in out and "+++ yours: softmax_bug.py" in out
    assert "z = np.moveaxis(x, dim, -1)" in out  # the rewrite shows as one

    # 2. a drill with a one-line change, after the hint ladder
    refused = kata("bug", "softmax", cwd=here)
    assert refused.returncode == 2 and "--force" in refused.stderr and path.read_text(encoding="utf-8") == rewrite
    out = one_line(fits(kata("bug", "--force", cwd=here), 80))  # no id: the current kata
    assert "softmax_bug.py.bak-1" in out and (here / "softmax_bug.py.bak-1").read_text(encoding="utf-8") == rewrite
    second = drills.at(Store(), path)
    assert second.key == keys[1]
    assert "Check it first" in kata("hint", cwd=here).stdout  # no check yet: the ladder waits
    fits(kata("check", cwd=here), 80, code=1)
    ladder = [one_line(kata("hint", cwd=here).stdout) for _ in range(4)]
    assert "Hint 1/3 for softmax_bug.py" in ladder[0] and "fail" in ladder[0]
    a, b = second.region()
    assert (f"line {a} of" if a == b else f"lines {a} to {b} of") in ladder[1]
    assert label[keys[1]] in ladder[2] and SOFTMAX.text("en").mistakes[keys[1]].fix.split()[0] in ladder[2]
    assert ladder[3].startswith("The last hint (3/3) for softmax_bug.py, again: ") and label[keys[1]] in ladder[3]
    assert "`kata reveal`" in ladder[3] or "kata reveal gives this drill up" in ladder[3]  # past the end: what is left
    old, new = second.drill.undo[0]
    assert len(second.drill.undo) == 1 and old.count("\n") == 1, "the one-line drill of this session"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    done = kata("check", "--json", cwd=here)
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["verdict"] == "pass"
    assert data["drill"] == {"kata": "softmax", "key": keys[1], "file": str(path.resolve()), "region": [a, b],
                             "fixed": True}
    out = fits(kata("check", cwd=here), 80)
    assert f"Fixed: {label[keys[1]]}" in out
    changed = [line for line in out.splitlines() if re.match(r"^[-+](?![-+])", line)]
    assert len(changed) == 2, out  # one line out, one line in

    # 3. a drill given up
    done = kata("bug", "--force", "--json", cwd=here)
    data = json.loads(done.stdout)
    third = drills.at(Store(), path)
    assert data["key"] == third.key == keys[2] and data["fixed"] is False and data["saved"].endswith(".bak-2")
    fits(kata("check", cwd=here), 80, code=1)
    out = fits(kata("reveal", cwd=here), 80)
    assert label[keys[2]] in out and "--- the drill as written" in out and "given up" in out
    assert "Goodfellow" not in out  # the drill's answer, not the reference

    # what the learner sees of it
    out = fits(kata("bug", "--list", cwd=here), 80)
    assert re.search(r"^\s+softmax\s+2/%d$" % len(keys), out, re.M), out
    assert not any(k in out for k in keys) and not any(label[k] in out for k in keys), "nothing about what they are"
    listed = json.loads(kata("bug", "--list", "--json", cwd=here).stdout)["drills"]
    assert {"kata": "softmax", "fixed": 2, "available": len(keys), "given_up": 1} in listed
    out = one_line(fits(kata("stats", cwd=here), 80))
    assert f"bug drills: 2 of {sum(len(drills.of(k)) for k in catalog.KATAS)} fixed, 1 given up" in out
    out = fits(kata("list", cwd=here), 200)
    assert re.search(r"softmax\s+new\s", out), "a drill never changes the kata's status"
    events = Store().events("softmax")
    assert practice.progress("softmax", events).status == "new" and practice.progress("softmax", events).checks == 0
    assert {e.kind for e in events} <= set(drills.KINDS)
    assert re.search(r"softmax[^\n]*not practised yet", kata("next", "--topic", "helpers", "-n", "9", cwd=here).stdout)
    # the kata's own file is untouched by all this: `kata check softmax` does not find the drill
    assert commands_file_of("softmax") is None


def commands_file_of(kata_id: str):
    from checker.app import commands

    return commands.file_of(catalog.get(kata_id), Store())


def test_kata_next_suggests_a_drill_for_a_kata_passed_long_ago(tmp_path):
    store = Store()
    long_ago = time.time() - 40 * practice.DAY
    store.record(Event("softmax", "start", long_ago))
    store.record(Event("softmax", "check", long_ago + 300, verdict="pass", detail="seed 1"))
    out = one_line(kata("next", "--topic", "helpers", cwd=tmp_path).stdout)
    assert "Next: softmax" in out and "kata bug softmax" in out, out
    fixed_all = [Event("softmax", "drill-check", time.time(), verdict="pass", detail=f"{d.key}; seed 1")
                 for d in drills.of(SOFTMAX)]
    for e in fixed_all:
        store.record(e)
    assert "kata bug" not in kata("next", "--topic", "helpers", cwd=tmp_path).stdout  # every drill fixed: none
    assert practice.progress("softmax", Store().events()).clean_passes == 1  # the drills changed nothing


def test_usage_errors_of_kata_bug(tmp_path):
    done = kata("bug", cwd=tmp_path)
    assert done.returncode == 2 and "kata bug gae" in done.stderr and "Traceback" not in done.stderr
    done = kata("bug", "no-such-kata", cwd=tmp_path)
    assert done.returncode == 2 and "No kata named" in done.stderr
    (tmp_path / "afile").write_text("x")
    done = kata("bug", "softmax", "--dir", "afile", cwd=tmp_path)
    assert done.returncode == 2 and "not a directory" in done.stderr
    empty = next((k for k in catalog.KATAS if not drills.of(k)), None)
    if empty is not None:
        done = kata("bug", empty.id, cwd=tmp_path)
        assert done.returncode == 2 and "no drills yet" in done.stderr
    done = kata("bug", "softmax", "--dir", "sub/dir", cwd=tmp_path)
    assert done.returncode == 0 and (tmp_path / "sub" / "dir" / "softmax_bug.py").is_file()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("columns", (60, 80, 200, None), ids=lambda c: f"{c}-columns" if c else "pipe")
def test_the_screens_fit_in_both_languages(lang, columns, tmp_path):
    chinese = re.compile(r"[\u4e00-\u9fff]")
    looks_like = {"en": "This looks like", "zh": "看起来是"}[lang]

    def screen(*args: str, code: int = 0) -> str:
        out = fits(kata(*args, cwd=tmp_path, columns=columns, lang=lang), columns, code)
        assert (chinese.search(out) is not None) == (lang == "zh"), out
        return out

    assert "katachecksoftmax_bug.py" in squeezed(screen("bug", "softmax"))
    text = (tmp_path / "softmax_bug.py").read_text(encoding="utf-8")
    assert (chinese.search(text) is not None) == (lang == "zh"), "the contract in the language kata speaks"
    out = screen("check", code=1)
    assert looks_like not in out
    for n in (1, 2, 3):
        out = screen("hint")
        assert f"{n}/3" in out
    assert looks_like in out  # the third hint names it
    written = drills.at(Store(), tmp_path / "softmax_bug.py")
    (tmp_path / "softmax_bug.py").write_text(written.drill.undone(text), encoding="utf-8")
    out = screen("check")
    assert squeezed(SOFTMAX.text(lang).mistakes[written.key].label) in squeezed(out)
    screen("bug", "--list")
    screen("stats")
    screen("bug", "--force")
    screen("reveal")
    done = kata("bug", "--help", cwd=tmp_path, columns=columns, lang=lang)
    assert done.returncode == 0 and "--list" in done.stdout


def test_kata_watch_hides_the_name_and_climbs_the_drill_ladder(tmp_path, monkeypatch):
    from rich.console import Console

    from checker.app import drilling
    from checker.app.watch import KeyReader, Watcher

    monkeypatch.chdir(tmp_path)
    store = Store()
    wrote = drilling.write(SOFTMAX, tmp_path, False, store)
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    watcher = None
    try:
        watcher = Watcher(SOFTMAX, wrote.written.path, store, Console(file=out, width=100, force_terminal=False),
                          KeyReader(read_fd), device="cpu", seed=7, seconds=20.0)
        watcher.recheck()
        assert "FAIL" in out.getvalue() and "This looks like" not in out.getvalue()
        watcher.next_hint()
        assert "Hint 1/3 for softmax_bug.py" in out.getvalue()
        wrote.written.path.write_text(wrote.written.drill.undone(wrote.written.text), encoding="utf-8")
        watcher.recheck()
        label = SOFTMAX.text().mistakes[wrote.written.key].label
        assert f"Fixed: {label}" in out.getvalue()
    finally:
        if watcher is not None:
            watcher.files.close()
        os.close(read_fd)
        os.close(write_fd)
    kinds = [e.kind for e in store.events("softmax")]
    assert kinds.count("drill-check") == 2 and "drill-hint" in kinds and "check" not in kinds


def test_kata_interview_bug_is_a_timed_drill_that_leaves_the_kata_as_it_was(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "cli.py"), "interview", "--bug", "--minutes", "0.03", "--topic",
                           "helpers", "--poll", "--device", "cpu"], cwd=tmp_path, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300, env=os.environ | {"KATA_LANG": "en"})
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert "find the bug in softmax_bug.py" in one_line(done.stdout) and "Time's up" in done.stdout
    assert "Find the bug in softmax_bug.py, fix it and save" in one_line(done.stdout)
    written = drills.at(Store(), tmp_path / "softmax_bug.py")
    assert written is not None and (tmp_path / "softmax_bug.py").read_text(encoding="utf-8") == written.text
    events = Store().events("softmax")
    opened, closed = [e for e in events if e.kind == "drill-interview"]
    assert opened.session == closed.session and closed.verdict == "timeout" and Store().interview() is None
    assert practice.progress("softmax", events).status == "new"


# ---------------------------------------------------------------- a drill's record, and the fix's diff (issue 31)


def test_a_drill_whose_kata_line_was_deleted_is_still_checked_as_its_kata(tmp_path):
    """kata recorded the path when it wrote the drill: `kata check FILE` uses that record, not the `# kata:` line."""
    here = tmp_path / "work"
    here.mkdir()
    kata("bug", "softmax", cwd=here)
    path = here / "softmax_bug.py"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# kata: softmax\n")
    path.write_text(text.split("\n", 1)[1], encoding="utf-8")
    done = kata("check", "softmax_bug.py", cwd=here)
    assert done.returncode == 1 and "Cannot tell which kata" not in done.stderr, done.stdout + done.stderr
    assert "FAIL" in done.stdout and "softmax" in done.stdout
    assert [e.kind for e in Store().events("softmax")][-1] == drills.CHECK  # a drill's check, as before


def test_the_fix_diff_numbers_lines_as_the_learners_file_and_the_hint_do():
    """The second hint says "line N of X_bug.py"; the diff after a pass shows the same N in its hunk header."""
    from checker.app import views

    for drill in drills.of(SOFTMAX) + drills.of(catalog.get("rope")):
        written = drill.written("en")
        fixed = drill.undone(written)
        first, last = drill.region(written)
        lines = views.diff_lines(written, fixed, "as written", "fixed")
        heads = [line for line in lines if line.startswith("@@")]
        assert heads, drill.key
        starts = [int(re.match(r"@@ -(\d+)", h).group(1)) for h in heads]
        spans = [re.match(r"@@ -(\d+)(?:,(\d+))?", h).groups() for h in heads]
        covered = [(int(a), int(a) + int(n if n is not None else 1) - 1) for a, n in spans]
        for line in (first, last):  # where the hint points is inside a hunk, by the file's numbers
            assert any(lo <= line <= hi for lo, hi in covered), (drill.key, (first, last), heads)
        for start in starts:  # a hunk starts at a line of code of the file itself
            assert written.splitlines()[start - 1].strip(), (drill.key, start)
        # the lines shown are those difflib shows of the stripped code, only the numbers differ
        plain = list(difflib.unified_diff(views.without_docs(written), views.without_docs(fixed), "as written", "fixed",
                                          lineterm="", n=2))
        assert [l for l in lines if not l.startswith("@@")] == [l for l in plain if not l.startswith("@@")]
