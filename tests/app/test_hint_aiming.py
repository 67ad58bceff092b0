"""`kata hint` on the learner's own code starts from what the last check failed (checker/app/aiming.py):
the failing family, the named mistake's direction, the hint of the ladder about them, then the rest of the
ladder in order, none shown twice; in both languages."""
from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

import cli
from checker.app import aiming
from checker.app.state import Event, Store
from checker.judge.results import CaseResult, CheckResult, Status
from checker.text import catalog, i18n
from tests.conftest import CORPUS

runner = CliRunner()
GREEDY = catalog.get("greedy-generate")
EOS_HINT = 2  # greedy-generate's hint 3 of 5: the unfinished mask, pad after eos


def _result(kata, failing: dict[str, str | None], passing: tuple[str, ...] = ("no_eos",)) -> CheckResult:
    """A check that passed the `passing` families and failed each of `failing` (named as its mistake's label)."""
    cases = [CaseResult(f, f, "", Status.PASS) for f in passing]
    cases += [CaseResult(f, f, "", Status.FAIL, mistake=label) for f, label in failing.items()]
    return CheckResult(kata=kata.id, title=kata.title, file="x.py", device="cpu", seed=1,
                       status=Status.FAIL if failing else Status.PASS, cases=tuple(cases))


def _hints(n: int, lang: str = "en") -> list[str]:
    outputs = []
    for _ in range(n):
        with i18n.speaking(lang):
            result = runner.invoke(cli.app, ["hint", GREEDY.id])
        assert result.exit_code == 0, result.output
        outputs.append(" ".join(result.output.split()))
    return outputs


def test_the_first_hint_names_the_failing_family_and_jumps_to_the_hint_about_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    aiming.remember(Store(), GREEDY, _result(GREEDY, {"eos_mid_way": None, "one_row_finishes": None}))
    seen = _hints(len(GREEDY.hints) + 1)
    en = GREEDY.text("en")
    assert seen[0].startswith("Hint 1/5 for greedy-generate: Your last check failed the cases of `eos_mid_way` "
                              f"({en.family('eos_mid_way')}) and 1 more families.")
    assert " ".join(en.hints[EOS_HINT].split()) in seen[0]
    # then the ladder in its order, without the one already shown, numbered as they come
    rest = [i for i in range(len(en.hints)) if i != EOS_HINT]
    for number, (index, out) in enumerate(zip(rest, seen[1:]), start=2):
        assert out.startswith(f"Hint {number}/5 for greedy-generate: ") and " ".join(en.hints[index].split()) in out
        assert "Your last check" not in out
    assert seen[-1].startswith("The last hint (5/5) for greedy-generate, again:")


def test_a_named_mistake_gives_its_direction_not_its_code_in_both_languages(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    label = GREEDY.text("zh").mistakes["pads_with_eos"].label  # as a Chinese report named it
    aiming.remember(Store(), GREEDY, _result(GREEDY, {"pad_equals_eos": label}))
    assert aiming.last_failure(Store(), GREEDY).mistake == "pads_with_eos"
    zh = _hints(1, "zh")[0]
    text = GREEDY.text("zh")
    assert zh.startswith("greedy-generate 的提示 1/5：你上次检查没有通过用例类别 `pad_equals_eos`")
    assert f"看起来是：{label}。改的方向：" in zh and "torch.where" not in zh.split("。改的方向：")[1].split("。")[0]
    assert " ".join(text.hints[EOS_HINT].split()) in zh
    en = GREEDY.text("en").mistakes["pads_with_eos"]
    assert aiming.direction(en.fix) == "after the eos, a finished row gets pad_token_id"
    assert aiming.direction("return torch.cat([input_ids, new_tokens], dim=1): generate() returns it") == ""


def test_a_new_failure_aims_the_next_hint_again_and_nothing_is_shown_twice(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store()
    store.record(Event(GREEDY.id, "start", 1.0))
    first = aiming.step(GREEDY, store)
    assert first[0] == 1 and first[1] == GREEDY.hints[0]  # no check yet: the ladder from its start
    aiming.remember(store, GREEDY, _result(GREEDY, {"eos_mid_way": None}))
    second = aiming.step(GREEDY, store)
    assert second[0] == 2 and second[1].endswith(GREEDY.hints[EOS_HINT]) and "eos_mid_way" in second[1]
    third = aiming.step(GREEDY, store)  # no check since: on with the ladder, hint 2 (the first not shown)
    assert third[0] == 3 and third[1] == GREEDY.hints[1]


def test_a_pass_a_stub_or_a_new_attempt_leaves_the_ladder_in_order(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Store()
    aiming.remember(store, GREEDY, _result(GREEDY, {"eos_mid_way": None}))
    aiming.remember(store, GREEDY, _result(GREEDY, {}))  # passed since
    assert aiming.last_failure(store, GREEDY) is None
    aiming.remember(store, GREEDY, _result(GREEDY, {"no_eos": None}, passing=()))  # failed everything (a stub)
    assert aiming.last_failure(store, GREEDY) is None
    aiming.remember(store, GREEDY, _result(GREEDY, {"eos_mid_way": None}))
    store.record(Event(GREEDY.id, "start", aiming.last_failure(store, GREEDY).at + 1))  # start --force after it
    assert aiming.step(GREEDY, store)[1] == GREEDY.hints[0]


@pytest.mark.parametrize("kata", catalog.KATAS, ids=lambda k: k.id)
def test_every_family_and_mistake_aims_at_a_hint_that_is_not_the_key_line(kata):
    """And every family's or mistake's text is one a ladder can follow (no crash on any kata's content)."""
    movable = list(range(len(kata.hints) - 1)) or [0]
    text = kata.text("en")
    for family in text.families:
        best = aiming.best_hint(kata, aiming.Failure((family,), None, 0.0), movable)
        assert best is None or best in movable
    for key in text.mistakes:
        best = aiming.best_hint(kata, aiming.Failure((next(iter(text.families)),), key, 0.0), movable)
        assert best is None or best in movable
        with i18n.speaking("zh"):
            aiming.intro(kata, aiming.Failure((next(iter(text.families)),), key, 0.0))


def test_a_real_check_that_fails_on_pad_after_eos_aims_the_first_hint_there(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(CORPUS / "greedy_generate" / "wrong_pads_with_eos.py", tmp_path / "greedy_generate.py")
    checked = runner.invoke(cli.app, ["check", "greedy_generate.py", "--seed", "3"])
    assert checked.exit_code == 1, checked.output
    first = _hints(1)[0]
    assert "Your last check failed the cases of" in first
    assert " ".join(GREEDY.text("en").hints[EOS_HINT].split()) in first
