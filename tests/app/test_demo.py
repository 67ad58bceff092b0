"""`kata demo`: every known mistake can be written out as a learner file that computes exactly what
the variant computes; the demo shows the failure, names the mistake, passes the reference, and
writes nothing to the learner's history."""
from __future__ import annotations

import io
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from checker.text import catalog
from checker.app import demo
from checker.judge import static
from checker.errors import KataError
from checker.judge.results import Status
from checker.judge.worker import load_entry
from tests.conftest import run_check
from tests.namer import DRAWS

WITH_MISTAKES = [k for k in catalog.KATAS if demo.mistakes_of(k)]
PAIRS = [(k, n) for k in WITH_MISTAKES for n in range(len(demo.mistakes_of(k)))]


@pytest.mark.parametrize("kata,number", PAIRS, ids=lambda x: x.id if hasattr(x, "id") else str(x))
def test_every_mistake_writes_out_as_a_file_the_checker_runs(kata, number, tmp_path):
    """Written out, a known mistake is a learner's file the check accepts and loads. That it computes exactly what the
    variant computes is asserted where each written-out mistake is named (tests/katas/test_mistakes_named.py): on every
    case the naming ran the variant on, and at least the run's first twelve."""
    mistake = demo.mistakes_of(kata)[number]
    source = demo.variant_source(kata, mistake)
    assert source.startswith(f"# kata: {kata.id}\n")
    assert static.inspect(source, kata.filename, kata.entry, kata.all_banned) is None, "the checker would refuse it"
    path = tmp_path / kata.filename
    path.write_text(source)
    assert callable(load_entry(path, kata.entry, f"demo_{kata.module}_{number}"))


@pytest.mark.parametrize("kata", WITH_MISTAKES, ids=lambda k: k.id)
def test_the_written_mistake_fails_its_check(kata, tmp_path):
    mistake = demo.mistakes_of(kata)[0]
    path = tmp_path / kata.filename
    path.write_text(demo.variant_source(kata, mistake))
    # Through the real engine (forks, seal, codec), on its named cases and the first draws: the naming of every
    # written-out mistake is tested in process (tests/katas/test_mistakes_named.py), and through the real engine by
    # `kata demo` itself (test_demo_shows_the_failure_names_it_and_passes_the_reference).
    result = run_check(path, kata.id, seed=2, name=False, draws=DRAWS)
    assert result.status is not Status.PASS, f"{kata.id}: '{mistake.key}' written out passes"
    assert result.cases, f"{kata.id}: the written file did not even run: {result.message}"


def test_find_mistake_by_number_label_or_part():
    kata = catalog.get("gae")
    mistakes = demo.mistakes_of(kata)
    assert demo.find_mistake(kata, mistakes, "1") is mistakes[0]
    assert demo.find_mistake(kata, mistakes, demo.label_of(kata, mistakes[1]).upper()) is mistakes[1]
    assert demo.find_mistake(kata, mistakes, demo.label_of(kata, mistakes[0])[:-1]) is mistakes[0] or len(
        [m for m in mistakes if demo.label_of(kata, mistakes[0])[:-1].lower() in demo.label_of(kata, m).lower()]) > 1
    with pytest.raises(KataError, match="matches none"):
        demo.find_mistake(kata, mistakes, "no such mistake at all")
    with pytest.raises(KataError, match="gae declares no known mistakes|matches"):
        demo.find_mistake(kata, mistakes, "0")


def test_demo_shows_the_failure_names_it_and_passes_the_reference(kata_home):
    from cli import app

    result = CliRunner().invoke(app, ["demo", "gae", "--mistake", "dones ignored", "--seed", "3", "--device", "cpu"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "\x1b[" not in out  # piped: no colour
    assert "FAIL" in out and "◀" in out and "done" in out  # the timeline around the done
    assert "This looks like: dones ignored" in out
    assert "The planted mistake: dones ignored" in out
    assert "PASS" in out and "all" in out and "cases passed" in out
    assert "kata start gae" in out and "kata demo gae --mistake 1 --seed 3" in out
    assert "reproduce:" not in out  # the demo's files are gone: no command that points at them
    assert not kata_home.exists() or not any(kata_home.iterdir()), "the demo wrote to the learner's home"


def test_demo_picks_a_kata_and_a_mistake_at_random(kata_home):
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    assert demo.run(console, rng=random.Random(4), device="cpu") == 0
    text = console.export_text()
    assert "The planted mistake: " in text and "Your turn: kata start " in text
    assert not kata_home.exists() or not any(kata_home.iterdir())


def test_a_demo_with_no_id_is_of_another_kata_than_the_current_one():
    """`kata demo` alone: a random kata, as its help says, and never the one you are on."""
    help_text = CliRunner().invoke(__import__("cli").app, ["demo", "--help"]).output
    assert "a random one other than the current kata" in " ".join(help_text.split())
    for seed in range(20):
        kata, _ = demo.choose(None, None, random.Random(seed), avoid="gae")
        assert kata.id != "gae"
    assert {demo.choose(None, None, random.Random(s))[0].id for s in range(40)} - {"gae"}  # random, not one kata


def test_unknown_mistake_is_a_usage_error(kata_home):
    from cli import app

    result = CliRunner().invoke(app, ["demo", "gae", "--mistake", "no such mistake at all"])
    assert result.exit_code != 0
    assert isinstance(result.exception, KataError) and "known mistakes" in result.exception.message
