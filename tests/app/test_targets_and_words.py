"""Issue 18, round three: where a kata id leads, what `start`, `hint` and `next` say, plurals, a verdict judged
before torch loads, the Chinese wording, and the install the README gives.

The id-resolution tests call `commands.resolve_target` with a history built by hand (no check runs); the ones
that go through the console script use files judged from their text alone, so no torch is imported.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from checker.text import catalog, i18n
from checker.app import checking, commands, practice
from checker.app.state import Event, Store
from tests.conftest import ROOT

runner = CliRunner()


def kata(*args: str, cwd: Path, env: dict | None = None, columns: int = 100) -> subprocess.CompletedProcess:
    environ = {**os.environ, "COLUMNS": str(columns), "KATA_LANG": "en", **(env or {})}
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=cwd, capture_output=True, text=True,
                          env=environ, timeout=120)


def checked(store: Store, kata_id: str, path: Path, at: float = 1_700_000_000.0) -> None:
    """What `kata check PATH` leaves behind: the file remembered for the kata, and a check event."""
    commands.remember(store, catalog.get(kata_id), path)
    store.record(Event(kata_id, "check", at, verdict="fail", file=str(path.resolve())))


def solution(kata_id: str, header: str | None = None) -> str:
    text = catalog.get(kata_id).reference_path.read_text(encoding="utf-8")
    return (f"# kata: {header}\n" if header else "") + text


@pytest.fixture
def place(tmp_path, monkeypatch):
    """A practice folder `work/` (the current directory) and a scratch folder `pc/` beside it."""
    (tmp_path / "pc").mkdir()
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path


# ---------------------------------------------------------------- 1. where a kata id leads


def test_an_id_takes_its_file_here_over_a_headerless_scratch_file_checked_with_kata(place):
    store = Store()
    scratch = place / "pc" / "my_attn.py"
    scratch.write_text(solution("attention"))  # no `# kata:` line: checked with --kata attention
    checked(store, "attention", scratch)
    (place / "work" / "attention.py").write_text(solution("attention", "attention"))
    target = commands.resolve_target("attention", None, store)
    assert target.kata.id == "attention" and target.path.resolve() == (place / "work" / "attention.py").resolve()
    assert target.note == ""  # the file here needs no word


def test_an_id_leads_to_a_headerless_scratch_file_as_its_kata_and_says_so(place):
    store = Store()
    scratch = place / "pc" / "my_attn.py"
    scratch.write_text(solution("attention"))
    checked(store, "attention", scratch)
    target = commands.resolve_target("attention", None, store)  # was: "Cannot tell which kata my_attn.py is for"
    assert target.kata.id == "attention" and target.path.resolve() == scratch.resolve()
    assert target.note == f"checking {os.path.relpath(scratch)}, the file you last checked for attention"


def test_an_id_prefers_the_file_here_to_the_one_last_checked_elsewhere(place):
    store = Store()
    loop = place / "pc" / "loop.py"
    loop.write_text(solution("gae", "gae"))
    checked(store, "gae", loop)
    assert commands.resolve_target("gae", None, store).path.resolve() == loop.resolve()  # nothing here yet
    (place / "work" / "gae.py").write_text(solution("gae", "gae"))
    assert commands.resolve_target("gae", None, store).path.resolve() == (place / "work" / "gae.py").resolve()


def test_an_id_takes_the_file_start_wrote_before_the_one_last_checked(place, monkeypatch):
    store = Store()
    practice_dir = place / "practice"
    commands.start(catalog.get("gae"), practice_dir, False, store)  # kata start gae --dir practice
    loop = place / "pc" / "loop.py"
    loop.write_text(solution("gae", "gae"))
    checked(store, "gae", loop, at=2_000_000_000.0)  # checked later, elsewhere
    target = commands.resolve_target("gae", None, store)
    assert target.path.resolve() == (practice_dir / "gae.py").resolve()
    assert target.note == "checking ../practice/gae.py, the file kata start wrote for gae"
    assert commands.resolve_target("gae", None, store, command="watch").note == (
        "watching ../practice/gae.py, the file kata start wrote for gae")


def test_a_remembered_file_whose_header_now_names_another_kata_is_never_used(place):
    store = Store()
    loop = place / "pc" / "loop.py"
    loop.write_text(solution("gae", "gae"))
    checked(store, "gae", loop)
    loop.write_text(solution("mha", "mha"))  # the learner reused the file for mha
    with pytest.raises(Exception, match="No file for gae yet"):
        commands.resolve_target("gae", None, store)
    scratch = place / "pc" / "my_attn.py"
    scratch.write_text(solution("attention"))
    checked(store, "attention", scratch)  # checked with --kata attention, no header then
    scratch.write_text(solution("gae", "gae"))  # now it says gae
    with pytest.raises(Exception, match="No file for attention yet"):
        commands.resolve_target("attention", None, store)


def test_reveal_diff_never_compares_a_file_that_now_declares_another_kata(place):
    store = Store()
    loop = place / "pc" / "loop.py"
    loop.write_text(solution("gae", "gae"))
    store.record(Event("gae", "check", 1.0, verdict="pass", file=str(loop.resolve())))
    assert commands.passed_file(catalog.get("gae"), store) == loop.resolve()
    loop.write_text(solution("mha", "mha"))
    assert commands.passed_file(catalog.get("gae"), store) is None
    done = runner.invoke(cli.app, ["reveal", "gae", "--diff", "--yes"])
    assert "No file of yours for gae to compare" in str(done.exception), done.output  # main() makes it exit 2


def test_the_current_files_kata_is_the_current_kata_when_it_has_no_header(place):
    store = Store()
    scratch = place / "pc" / "my_attn.py"
    scratch.write_text(solution("attention"))
    checked(store, "attention", scratch)
    assert commands.resolve_target(None, None, store).kata.id == "attention"  # `kata check` alone


def test_the_check_report_names_the_file_an_id_led_to_and_why(place):
    loop = place / "pc" / "loop.py"
    loop.write_text("# kata: gae\ndef compute_gae(:\n")  # judged from its text: no torch
    assert kata("check", str(loop), cwd=place / "work").returncode == 1
    done = kata("check", "gae", cwd=place / "work")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "checking ../pc/loop.py, the file you last checked for gae", done.stdout
    assert lines[1].startswith("kata gae") and lines[2].startswith("../pc/loop.py · ")


def test_kata_over_a_header_says_so_and_the_does_not_define_verdict_is_whole(place):
    store = Store()
    path = place / "work" / "gae_f32.py"
    path.write_text(solution("gae", "gae"))
    target = commands.resolve_target(str(path), "mha", store)
    assert target.kata.id == "mha" and target.note == "the header says gae; checking as mha"
    done = kata("check", "gae_f32.py", "--kata", "mha", cwd=place / "work", columns=200)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "the header says gae; checking as mha"
    verdict = next(line for line in lines if "does not define" in line)
    assert verdict.rstrip().endswith("(it defines torch, compute_gae).") and "ERROR" in verdict, done.stdout


def complete(words: str, cwd: Path) -> list[str]:
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    done = subprocess.run([sys.executable, str(ROOT / "cli.py")], cwd=cwd, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "_KATA_COMPLETE": "complete_bash", "COMP_WORDS": words,
                               "COMP_CWORD": str(cword)})
    return done.stdout.split()


def test_case_completion_follows_the_typed_target_not_the_current_kata(place):
    assert kata("start", "causal-mask", cwd=place / "work").returncode == 0  # the current kata
    gae = list(catalog.get("gae").text("en").families)
    assert complete("kata check gae --case ", place / "work") == gae
    assert complete("kata check gae --case do", place / "work") == [f for f in gae if f.startswith("do")]
    (place / "work" / "x.py").write_text("# kata: top-p\n")
    assert complete("kata check x.py --case ", place / "work") == list(catalog.get("top-p").text("en").families)
    assert complete("kata check x.py --kata gae --case ", place / "work") == gae
    assert complete("kata check --case ", place / "work") == list(catalog.get("causal-mask").text("en").families)


# ---------------------------------------------------------------- start, hint


def test_start_without_a_name_resumes_the_current_kata_as_its_help_says(place):
    assert kata("start", cwd=place / "work").returncode == 2  # no current kata: the usage error
    assert kata("start", "gae", "--dir", "../practice", cwd=place / "work").returncode == 0
    stub = (place / "practice" / "gae.py").read_text()
    done = kata("start", cwd=place / "pc")
    assert done.returncode == 0, done.stderr
    assert "../practice/gae.py is already there: resuming it" in " ".join(done.stdout.split())
    assert not (place / "pc" / "gae.py").exists() and (place / "practice" / "gae.py").read_text() == stub
    assert "default: the current kata" in " ".join(kata("start", "--help", cwd=place / "work").stdout.split())


def test_a_hint_past_the_last_says_so_and_points_to_reveal(place):
    gae = catalog.get("gae")
    for _ in gae.hints:
        runner.invoke(cli.app, ["hint", "gae"])
    again = " ".join(runner.invoke(cli.app, ["hint", "gae"]).output.split())
    n = len(gae.hints)
    assert f"Hint {n}/{n}" not in again and f"The last hint ({n}/{n}) for gae, again: " in again
    assert "That was the last hint. kata reveal gae shows the reference solution" in again


# ---------------------------------------------------------------- next agrees with list after a reset


def test_next_after_a_reset_keeps_the_status_and_never_advises_resetting_a_fresh_stub(place):
    work = place / "work"
    store = Store()
    for kata_id in ("gae", "grpo-loss"):
        commands.start(catalog.get(kata_id), work, False, store)
    store.record(Event("gae", "check", time.time(), verdict="pass", file=str(work / "gae.py")))
    commands.reset([catalog.get("gae"), catalog.get("grpo-loss")], store)  # as finding #6: both reset
    events = store.events()
    assert practice.progress("gae", events).status == "mastered"  # the status earned is kept
    assert practice.progress("gae", events).opened_at is not None  # and a new attempt is open
    listed = runner.invoke(cli.app, ["list"], env={"COLUMNS": "200"}).output
    assert re.search(r"\bgae\s+mastered\b", listed), listed
    nxt = " ".join(runner.invoke(cli.app, ["next"], env={"COLUMNS": "200"}).output.split())
    assert nxt.startswith("Next: grpo-loss"), nxt
    assert "kata watch grpo-loss" in nxt and "kata reset" not in nxt, nxt  # the stub was just reset
    assert "then gae: passed before; redoing it from the stub" in nxt, nxt  # was: "have not passed it yet"


def test_next_advises_reset_for_a_passed_kata_due_for_review_but_watch_for_its_untouched_stub(place):
    work = place / "work"
    store = Store()
    commands.start(catalog.get("gae"), work, False, store)
    (work / "gae.py").write_text(solution("gae", "gae"))
    store.record(Event("gae", "check", 1.0, verdict="pass", file=str(work / "gae.py")))
    p = practice.progress("gae", store.events())
    assert commands.next_step(catalog.get("gae"), p, store) == "reset"  # a review: redo it from the stub
    (work / "gae.py").write_text(catalog.get("gae").stub())  # the learner put the stub back by hand
    assert commands.next_step(catalog.get("gae"), p, store) == "watch"


def test_next_advises_carrying_on_with_a_failing_attempt_not_resetting_it(place):
    store = Store()
    scratch = place / "pc" / "mine.py"
    scratch.write_text("# kata: mha\n")
    checked(store, "mha", scratch)  # checked, failed, never started or passed
    p = practice.progress("mha", store.events())
    assert p.status == "attempted" and commands.next_step(catalog.get("mha"), p, store) == "watch"
    scratch.unlink()
    assert commands.next_step(catalog.get("mha"), p, store) == "start"  # no file of it left
    nxt = " ".join(runner.invoke(cli.app, ["next"], env={"COLUMNS": "200"}).output.split())
    assert nxt.startswith("Next: mha") and "kata start mha" in nxt and "kata reset" not in nxt, nxt


# ---------------------------------------------------------------- plurals


def _code_strings() -> list[tuple[str, str]]:
    found = []
    for path in [ROOT / "cli.py", *sorted((ROOT / "checker").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append((path.name, node.value))
    return found


def test_no_message_says_s_in_brackets_for_a_plural():
    bad = [(name, text) for name, text in _code_strings() if re.search(r"[a-z]\(s\)", text)]
    assert bad == []


def test_streak_and_interview_counts_read_as_english():
    from rich.console import Console

    from checker.app import views

    now = 1_700_000_000.0
    console = Console(width=200, record=True)
    console.print(views.stats([Event("gae", "check", now - 10, verdict="fail")], now=now))
    assert "streak: 1 day in a row with a check" in console.export_text()
    console = Console(width=200, record=True)
    console.print(views.stats([Event("gae", "check", now - 10 - d * 86400, verdict="fail") for d in range(2)], now=now))
    assert "streak: 2 days in a row with a check" in console.export_text()
    assert i18n.plural(0, "{n} hint", "{n} hints") == "0 hints" and i18n.plural(1, "{n} check", "{n} checks") == "1 check"


# ---------------------------------------------------------------- judged before torch loads


@pytest.mark.parametrize("text, verdict", [("# kata: gae\ndef compute_gae(:\n    pass\n", "SyntaxError in"),
                                           ("", "is empty."), ("# kata: gae\nimport torch\n", "does not define")])
def test_a_file_judged_from_its_text_never_imports_torch_and_names_the_device(tmp_path, text, verdict):
    path = tmp_path / "gae.py"
    path.write_text(text)
    script = (f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
              "from pathlib import Path\n"
              "from checker.text import catalog\nfrom checker.app import checking\n"
              "from checker.app.state import Store\n"
              f"done = checking.check(catalog.get('gae'), Path({str(path)!r}), Store(), seed=5)\n"
              "assert 'torch' not in sys.modules, 'torch was imported'\n"
              "print(done.result.status.value, done.result.device, done.result.message.splitlines()[0])\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "KATA_LANG": "en"})
    assert out.returncode == 0, out.stderr
    status, device, message = out.stdout.split(" ", 2)
    assert device in ("cpu", "cuda", "mps") and verdict in message
    from checker.judge.engine import Request, check, resolve_device

    engine = check(Request(catalog.get("gae"), path, seed=5))  # the verdict is the engine's, word for word
    assert (engine.status.value, engine.message.splitlines()[0]) == (status, message.strip())
    assert device == resolve_device("auto").type


# ---------------------------------------------------------------- Chinese


def _zh_texts() -> list[tuple[str, str]]:
    texts = []

    def walk(where: str, value: object) -> None:
        if isinstance(value, str):
            texts.append((where, value))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(f"{where}.{key}", item)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(f"{where}[{i}]", item)

    for path in sorted((ROOT / "content").rglob("zh.toml")):
        walk(str(path.relative_to(ROOT)), tomllib.loads(path.read_text(encoding="utf-8")))
    for term in tomllib.loads((ROOT / "content" / "glossary.toml").read_text(encoding="utf-8")).get("term", []):
        walk("glossary", term.get("zh", ""))
    return texts


def test_no_chinese_text_has_a_full_stop_followed_by_a_space_or_the_old_wording():
    texts = _zh_texts()
    assert len(texts) > 1000
    assert [(w, t) for w, t in texts if "。 " in t] == []
    assert [(w, t) for w, t in texts if "评论家" in t] == []
    assert [(w, t) for w, t in texts if re.search(r"个测试用例通过了|道已通过|道题已通过", t)] == []


def test_chinese_counts_and_screens(place):
    with i18n.speaking("zh"):
        assert i18n.tr("{passed} of {total} cases passed", passed=6, total=103) == "103 个用例中通过了 6 个"
        assert i18n.tr("{passed} of {total} passed, {mastered} mastered.", passed=13, total=27,
                       mastered=2).startswith("27 道题中已通过 13 道")
        assert i18n.tr("{passed} of {total} katas passed, {mastered} mastered.", passed=11, total=27,
                       mastered=2).startswith("27 道题中已通过 11 道")
    assert "critic（价值网络）" in catalog.get("grpo-advantage").text("zh").followups[0].question
    kata("start", "gae", cwd=place / "work")
    for args in (["list"], [], ["next"], ["stats"], ["hint"], ["--help"]):
        done = kata(*args, cwd=place / "work", env={"KATA_LANG": "zh"}, columns=200)
        assert done.returncode == 0, done.stderr
        assert "。 " not in done.stdout, (args, done.stdout)
    help_text = kata("--help", cwd=place / "work", env={"KATA_LANG": "zh"}, columns=200).stdout
    assert "Install completion" not in help_text and "Show completion" not in help_text
    assert "为当前 shell 安装命令补全。" in help_text


# ---------------------------------------------------------------- install


def _bash_blocks(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)```", text, re.S)


def _tests_block(text: str) -> str:
    """The README's test command: the first bash block under its Tests heading."""
    heading = re.search(r"^## (Tests|测试)$", text, re.M)
    assert heading, "the README has no Tests section"
    return _bash_blocks(text[heading.end():])[0].strip()


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_the_readme_installs_from_pypi_first_gives_the_cpu_index_and_practises_in_a_folder(readme):
    text = (ROOT / readme).read_text(encoding="utf-8")
    blocks = _bash_blocks(text)
    first = blocks[0].strip()
    assert "pip install torch==2.13.0 &&" in first and "download.pytorch.org" not in first  # works with PyPI alone
    assert re.search(r"(mkdir -p (\S+) && cd \2|--dir \S+)", first), first  # never writes into the clone's root
    assert first.index("pip install -e .") < first.index("kata start gae")
    cpu = blocks[1].strip()
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in cpu
    assert cpu.replace("pip install torch --index-url https://download.pytorch.org/whl/cpu",
                       "pip install torch==2.13.0") == first  # the same command but for where torch comes from
    run = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q torch==2.13.0" in run and _tests_block(text) == "pip install -e '.[dev,crosscheck,kernels]' && pytest"
    assert "pip install -q -e '.[dev,crosscheck,kernels]'" in run and "\npytest" in run


def test_torch_is_bounded_below_only():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    torch = next(d for d in deps if re.match(r"torch\b", d))
    assert torch.replace(" ", "") == "torch>=2.11"  # the oldest the whole suite was measured to pass on
    readme = (ROOT / "README.md").read_text()
    assert "2.13.0" in readme and "torch 2.13.0 and 2.11.0" in readme


@pytest.mark.parametrize("readme, count", [("README.md", "{n} katas in"), ("README.zh-CN.md", "{n} 道题")])
def test_the_readme_lists_every_kata_once_with_its_entry_point(readme, count):
    from checker.text import catalog

    text = (ROOT / readme).read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| `(\w+)`", text, re.M)
    assert [kata_id for kata_id, _ in rows] == [k.id for k in catalog.KATAS]  # every kata once, in `kata list`'s order
    assert all(entry == catalog.get(kata_id).entry for kata_id, entry in rows)
    assert count.format(n=len(catalog.KATAS)) in text
