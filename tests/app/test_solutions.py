"""`kata solutions ID`: after a pass, right answers in other styles with one line each; before one, kata reveal's
rule (asks, or --yes; recorded as a reveal). Each shipped solution passes the real checker in
tests/katas/test_corpus.py (its RIGHT list includes them)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import cli
from checker.app import practice, solutions
from checker.app.state import Event, Store
from checker.text import catalog, content, i18n
from tests.conftest import ROOT

runner = CliRunner()
GAE = catalog.get("gae")


def _passed(kata_id: str) -> None:
    store = Store()
    store.record(Event(kata_id, "start", 1.0))
    store.record(Event(kata_id, "check", 2.0, verdict="pass", passed=100, total=100))


def _kata(*args: str, lang: str = "en", cwd=None) -> subprocess.CompletedProcess:
    """The console entry point (main() decides exit codes), stdin not a terminal."""
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "100", "KATA_LANG": lang}, timeout=120)


def _invoke(*args: str, lang: str = "en", input: str | None = None):
    with i18n.speaking(lang):
        return runner.invoke(cli.app, list(args), input=input)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_after_a_pass_every_solution_is_shown_with_its_line(lang, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _passed("gae")
    result = _invoke("solutions", "gae", lang=lang)
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    shipped = solutions.of(GAE)
    assert 2 <= len(shipped) <= 3
    for n, solution in enumerate(shipped, 1):
        assert f"{n}. {solution.name}: " + " ".join(GAE.text(lang).solutions[solution.name].split()) in flat
    assert "def compute_gae" in result.output and "# kata:" not in result.output
    assert ("right answers in other styles" if lang == "en" else "个与参考答案写法不同的正确答案") in flat
    assert practice.progress("gae", Store().events("gae")).status == "mastered"  # seen after the pass: no help counted


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_before_a_pass_it_asks_as_reveal_does(lang, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused = _kata("solutions", "gae", lang=lang, cwd=tmp_path)  # no terminal to ask on: refused, nothing recorded
    assert refused.returncode == 2 and "kata solutions gae --yes" in refused.stderr, refused.stderr
    assert ("recorded as a reveal" if lang == "en" else "像查看参考答案一样被记录") in refused.stderr
    assert practice.progress("gae", Store().events("gae")).status == "new"
    from tests.app.test_watch import Terminal  # a pseudo-terminal: the question is asked, as kata reveal asks

    term = Terminal(["solutions", "gae"], tmp_path, {**os.environ, "KATA_LANG": lang})
    try:
        term.expect(r"Show other right answers .*\[y/N\]" if lang == "en" else r"要查看其他正确答案吗.*\[y/N\]")
        term.type("n\n")
        term.expect(r"Nothing revealed" if lang == "en" else r"kata hint gae")
    finally:
        assert term.finish() == 0
    assert practice.progress("gae", Store().events("gae")).status == "new"
    shown = _invoke("solutions", "gae", "--yes", lang=lang)
    assert shown.exit_code == 0 and "def compute_gae" in shown.output, shown.output
    assert practice.progress("gae", Store().events("gae")).status == "revealed"  # recorded as kata reveal records


def test_an_unknown_id_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # 'gae' must be offered; 'gqa' and 'gelu' are as close to "gea" (as tests/app/test_cli_commands.py says)
    for lang, said in (("en", "Did you mean 'gqa' or 'gae'"), ("zh", "你是不是想找")):
        result = _kata("solutions", "gea", "--yes", lang=lang, cwd=tmp_path)
        assert result.returncode == 2 and said in result.stderr and not result.stdout, result.stderr


def test_with_no_name_it_is_the_current_kata_and_with_none_it_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _kata("solutions", "--yes", cwd=tmp_path).returncode == 2
    assert _invoke("start", "softmax").exit_code == 0
    result = _invoke("solutions", "--yes")
    assert result.exit_code == 0 and "def softmax" in result.output, result.output


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_every_kata_ships_two_or_three_each_described_in_every_language(kata):
    folder = kata.content_dir / solutions.FOLDER
    files = sorted(p.stem for p in folder.glob("*.py"))
    assert 2 <= len(files) <= 3, f"{kata.id}: {files}"
    for lang in i18n.LANGS:
        text = kata.text(lang)
        assert sorted(text.solutions) == files, f"{kata.id} ({lang}): a solution without its line, or a line without its file"
        assert all(line.strip() and "\n" not in line for line in text.solutions.values())
    for path in folder.glob("*.py"):
        assert path.read_text().startswith(f"# kata: {kata.id}\n"), path  # the checker and the corpus test read it
    assert not [p for p in content.read_toml(kata.content_dir / "zh.toml").get("solutions", {}) if p not in files]


def test_solutions_are_packaged():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "*/solutions/*.py" in data["tool"]["setuptools"]["package-data"]["content"]
