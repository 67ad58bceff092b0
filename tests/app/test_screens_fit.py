"""Issue 18, screens that fit: watch at 80×24, its status line, `kata list`'s title, grouped failures,
short family lists, follow-up paragraphs, reveal's title and folding, crash messages once, scalar values.

Reports are rendered from hand-built results (tests/golden/cases.py style) at fixed widths, without
colour, and measured in terminal cells.
"""
from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console

from checker.text import i18n
from checker.app.render import report
from checker.judge.results import CaseResult, CheckResult, LearnerError, Mismatch, Problem, Status, TensorInfo

WIDTHS = (60, 80, 200)


def text_of(renderable, width: int = 80, lang: str = "en") -> str:
    """`renderable` (or what a callable returns, built in `lang`) as plain text at `width` columns."""
    console = Console(width=width, file=io.StringIO(), color_system=None, highlight=False)
    with i18n.speaking(lang):
        if callable(renderable):
            renderable = renderable()
        with console.capture() as cap:
            console.print(renderable)
    return cap.get()


def fits(text: str, width: int) -> None:
    for line in text.splitlines():
        assert cell_len(line) <= width, f"wider than {width}: {line!r}"


def result(cases, kata="attention", title="Scaled dot-product attention", status=Status.FAIL, **kw) -> CheckResult:
    return CheckResult(kata, title, "attention.py", "cpu", 7, status, cases=tuple(cases), **kw)


# ---------------------------------------------------------------- a crash's message, once


def test_a_crash_message_with_a_hint_added_is_printed_once():
    said = ("value cannot be converted to type c10::Half without overflow — a constant too large for a half-precision "
            "tensor, such as a fill of -1e9 (float16's largest value is 65504): use torch.finfo(x.dtype).min")
    trace = ('  File "attention.py", line 20, in forward\n    scores = scores.masked_fill_(~mask, -1e9)\n'
             "RuntimeError: value cannot be converted to type c10::Half without overflow\n")
    case = CaseResult("float16", "float16", "float16 inputs", Status.ERROR, error=LearnerError("RuntimeError", said, trace),
                      reproduce="kata check attention --seed 7 --case float16")
    for width in WIDTHS:
        shown = text_of(report(result([case], status=Status.ERROR)), width)
        assert shown.count("without overflow") == 1, shown
        assert "masked_fill_" in shown and "finfo" in shown  # the traceback and the hint stay
        fits(shown, width)


def test_a_multi_line_crash_message_is_printed_once():
    trace = '  File "attention.py", line 3, in forward\n    raise ValueError(message)\nValueError: first\nsecond\n'
    case = CaseResult("basic", "basic", "basic", Status.ERROR, error=LearnerError("ValueError", "first\nsecond", trace))
    shown = text_of(report(result([case], status=Status.ERROR)))
    assert shown.count("first") == 1 and shown.count("second") == 1 and "line 3, in forward" in shown


# ---------------------------------------------------------------- scalars, inf, integers


def test_an_inf_scalar_says_inf_and_scalar_not_the_largest_float_and_an_empty_index():
    torch = pytest.importorskip("torch")
    from checker.judge.compare import _compare_data

    for lang in ("en", "zh"):
        with i18n.speaking(lang):
            [problem] = _compare_data("loss", torch.tensor(0.5, dtype=torch.float64),
                                      torch.tensor(float("inf"), dtype=torch.float64), 1e-4, 1e-5)
        assert problem.mismatch.max_abs == float("inf")
        case = CaseResult("basic", "basic", "basic", Status.FAIL, problems=(problem,))
        shown = text_of(lambda: report(result([case], kata="dpo-loss", title="DPO loss")), 80, lang)
        assert "1.79769e+308" not in shown and "()" not in shown, shown
        assert "inf" in shown
        assert ("(a scalar;" if lang == "en" else "（标量；") in shown


def test_a_tensors_first_nonfinite_value_still_has_its_index():
    torch = pytest.importorskip("torch")
    from checker.judge.compare import _compare_data

    [problem] = _compare_data("out", torch.zeros(3, dtype=torch.float64),
                              torch.tensor([0.0, float("nan"), 0.0], dtype=torch.float64), 1e-4, 1e-5)
    assert "at (1,)" in problem.message


def test_integer_arguments_print_as_integers():
    from checker.app.render.scalars import scalar_table
    from checker.app.render.values import num

    assert num(-100, 4) == "-100" and num(3) == "3" and num(0.5, 4) == "0.5000" and num(True) == "T"
    problem = Problem("values", "loss", "loss differs", Mismatch(1, 1, 0.1, (), 0.1, (), 1e-4, 1e-5, ((), 1.0, 1.1)),
                      expected=1.0, got=1.1)
    case = CaseResult("basic", "basic", "basic", Status.FAIL, problems=(problem,),
                      inputs=(TensorInfo("ignore_index", None, "int", -100), TensorInfo("label_smoothing", None, "float", 0.1)))
    shown = text_of(scalar_table(case, problem))
    assert "-100" in shown and "-100.0" not in shown and "0.1000" in shown


# ---------------------------------------------------------------- reveal: a title, folds at spaces


def test_fold_breaks_at_a_space_and_keeps_every_character():
    from checker.app.views import fold

    line = "        assert advantages.shape == (G,), f'advantages should be [{G}], got {tuple(advantages.shape)}'"
    for room in (20, 37, 50, 80):
        pieces = fold(line, room)
        assert "".join(pieces) == line and all(cell_len(p) <= room for p in pieces)
        if room > 25:  # every word fits: never inside `tuple(` or `advantages`
            assert all(p.endswith(" ") for p in pieces[:-1]), pieces
    assert fold("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]  # no space: at the width
    assert fold("    " + "y" * 20, 12) == ["    " + "y" * 8, "y" * 12]  # the indentation is not a place to fold
    assert fold("中文" * 5, 9) == ["中文中文", "中文中文", "中文"]
    assert fold("", 10) == [""]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reveal_has_a_title_line_and_folds_between_words(lang):
    from checker.text import catalog
    from checker.app.views import reference

    kata = catalog.get("grpo-loss")
    source = kata.reference_path.read_text()
    for width in WIDTHS:
        shown = text_of(lambda: reference(kata, source), width, lang)
        title = "grpo-loss — " + (kata.title if lang == "en" else "")
        assert shown.startswith(title) and ("the reference" if lang == "en" else "参考答案") in " ".join(shown.split(" 1 │")[0].split())
        fits(shown, width)
        lines = shown.splitlines()
        for above, below in zip(lines, lines[1:]):
            if "┆ " in below[:6]:  # a continuation starts a new word: the row above ended at a space
                assert below.split("┆ ", 1)[1][:1] != " " and not above.rstrip().endswith(("tup", "pi_ne")), (above, below)
        assert "tuple(advantages.shape)" in shown.replace("\n", "")


# ---------------------------------------------------------------- follow-up answers: paragraphs


def test_paragraphs_join_hard_wrapped_lines_and_keep_code_and_blank_lines():
    from checker.app.views import paragraphs

    source = ("\nGAE is an average: A = Σ_l\n(γλ)^l δ_{t+l} (eq. 16).\n\nA second paragraph\nends here:\n"
              "    A[t] = delta[t] + gamma * lam * A[t + 1]\n    return A\nthen prose again\n```\nx = 1\ny = 2\n```\n")
    assert paragraphs(source).splitlines() == [
        "GAE is an average: A = Σ_l (γλ)^l δ_{t+l} (eq. 16).", "", "A second paragraph ends here:",
        "    A[t] = delta[t] + gamma * lam * A[t + 1]", "    return A", "then prose again", "```", "x = 1", "y = 2", "```"]
    assert paragraphs("偏差小，\n但方差大。λ = 1 时\n无偏（V 只起基线作用），\nbut no\nspace lost") == \
        "偏差小，但方差大。λ = 1 时无偏（V 只起基线作用），but no space lost"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_followup_answers_wrap_once_at_the_screens_width(lang):
    from checker.text import catalog
    from checker.app.views import followups

    kata = catalog.get("gae")
    for width in WIDTHS:
        shown = text_of(lambda: followups(kata, answers=True), width, lang)
        fits(shown, width)
        with i18n.speaking(lang):
            first = kata.text().followups[0].answer.strip().splitlines()
        # the source's hard breaks are gone: its first line runs on into its second on one screen line
        joined = first[0] + (" " if lang == "en" else "") + first[1][:8]
        if width == 200:
            assert joined in shown, shown
        lines = shown.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("GAE "))
        answer = lines[start:lines.index("", start)]  # the first answer, as wrapped
        assert all(cell_len(line) > width - 20 for line in answer[:-1]), (width, answer)  # no ragged short lines


# ---------------------------------------------------------------- kata list keeps the title


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_list_keeps_a_title_at_every_width_and_drops_best_and_last_first(lang):
    from checker.text import catalog
    from checker.app.views import kata_list

    with i18n.speaking(lang):
        heads = {name: i18n.tr(name) for name in ("title", "topic", "level", "best", "last practised")}
    for width in (60, 80, 100, 120, 130, 200):  # 130: every column beside the longest id (triton-flash-attention)
        shown = text_of(lambda: kata_list([], width, None), width, lang)
        fits(shown, width)
        head = shown.splitlines()[0]
        assert heads["title"] in head, (width, head)
        order = ["last practised", "best", "level", "topic"]  # the order they go in
        shown_heads = [heads[n] in head for n in order]
        assert shown_heads == sorted(shown_heads), (width, head)  # one goes only after those before it
        if width >= 130:
            assert all(shown_heads)
        elif width <= 120:
            assert heads["last practised"] not in head  # a title cut to make room for it would be the wrong trade
        if width == 60:
            assert not any(shown_heads)  # id, status and the title
        if width >= 80:
            assert heads["topic"] in head, (width, head)  # what `kata list --topic` takes, at 80 columns too
        for k in catalog.KATAS:
            row = next(line for line in shown.splitlines() if line[2:].startswith(k.id + " "))
            with i18n.speaking(lang):
                title = k.title
            assert title in row or ("…" in row and title[:4] in row), (width, row)


def test_list_stays_light():
    """The list's layout imports no torch (`kata list` is a light command)."""
    import subprocess
    import sys

    probe = "import sys; from checker.app import views; views.kata_list([], 80, None); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "False"


# ---------------------------------------------------------------- grouped failures, short family lists

MISTAKE = "the causal mask ignores the cache: query i sees keys j <= i instead of j <= P + i"


def kv_like() -> CheckResult:
    """One mistake that hits different calls' outputs in different cases (as a kv-cache file that ignores
    the cache does): ~95 failing cases in a dozen groups of items, the mistake named on some of them."""
    cases = []
    families = [f"family_{k}" for k in range(18)]
    for k, family in enumerate(families):
        calls = 1 + k % 6
        items = tuple(Problem("values", f"out of call {c}", f"out of call {c} differs") for c in range(1, calls + 1))
        cases.append(CaseResult(f"{family}", family, "about", Status.FAIL, problems=items,
                                mistake=MISTAKE if k % 4 == 0 else None, reproduce=f"kata check kv-cache --case {family}"))
    for r in range(77):
        calls = 1 + r % 7
        items = tuple(Problem("values", f"out of call {c}", f"out of call {c} differs") for c in range(1, calls + 1))
        cases.append(CaseResult(f"random.{r}", "random", "about", Status.FAIL, problems=items))
    cases += [CaseResult("prefill_only", "prefill_only", "about", Status.PASS)]
    return result(cases, kata="kv-cache", title="KV cache")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_mistake_over_many_outputs_is_a_few_lines_not_twenty_five(lang):
    for width in WIDTHS:
        shown = text_of(lambda: report(kv_like()), width, lang)
        fits(shown, width)
        lines = shown.splitlines()
        end = next(i for i, line in enumerate(lines) if line.startswith("╰"))
        for i in range(end + 1, len(lines)):  # the second panel, if any, ends lower
            if lines[i].startswith("╰"):
                end = i
        families = next(i for i, line in enumerate(lines) if line.startswith(("Failing families", "未通过的用例类别")))
        between = lines[end + 1:families]
        assert 1 <= len(between) <= 5, (width, between)
        assert not any("failing on" in line or "out of call" in line for line in between), between
        assert any(("The same mistake in" if lang == "en" else "是同一个错误") in line for line in between), between
        assert any(("more cases in" if lang == "en" else "个类别") in line for line in between), between


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_failing_families_take_at_most_two_lines(lang):
    from checker.app.render import FamilyLine

    rope = [("start_pos_zero", 1, 1)] + [(f"family_number_{k}", 1, 0) for k in range(27)] + [("random", 75, 0)]
    for width in WIDTHS:
        shown = text_of(lambda: FamilyLine(rope), width, lang)
        assert len(shown.splitlines()) <= 2 and "start_pos_zero" in shown and "29" in shown, (width, shown)
        fits(shown, width)
    some = [(f"family_number_{k}", 2, 0 if k < 20 else 2) for k in range(40)]  # 20 fail, 20 pass
    for width in WIDTHS:
        shown = text_of(lambda: FamilyLine(some), width, lang)
        assert len(shown.splitlines()) <= 2, (width, shown)
        if width < 200:
            assert ("… and" if lang == "en" else "……另有") in shown and "family_number_0 2/2" in shown
    few = [("no_dones", 1, 0), ("device", 1, 0), ("basic", 1, 1)]
    assert text_of(lambda: FamilyLine(few), 80).strip() == \
        "Failing families: no_dones 1/1 · device 1/1  (1 other family passed)"  # on one line: every one, counted


# ---------------------------------------------------------------- watch at 80×24 and shorter


def watch_screen(name: str, width: int, height: int, lang: str = "en") -> list[str]:
    """What `kata watch` draws for a golden report on a `width`×`height` terminal (the status line aside)."""
    from checker.app.render import brief, whole_command
    from checker.app.watch import fit
    from tests.golden.cases import CASES

    console = Console(width=width, height=height, file=io.StringIO(), color_system=None, highlight=False)
    with i18n.speaking(lang):
        result = CASES[name]().result
        parts = report(result)
        top = [f"kata watch · {result.file} · 12:00:00", *parts.top]
        with console.capture() as cap:
            console.print(fit(console, top, parts.body, parts.bottom, height - 1, brief=brief(result),
                              whole=whole_command(result), context=2, spare=len(parts.bottom), width=width))
    return cap.get().splitlines()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", ["gae_done", "mask_offset", "attention_weights"])
def test_watch_keeps_the_verdict_the_mistake_and_the_first_failure_on_a_short_screen(name, lang):
    from tests.golden.cases import CASES

    with i18n.speaking(lang):
        result = CASES[name]().result
        verdict = report(result).top[1].plain.strip()
        failures = result.failures()
        first = failures[0].problems[0].message
        mistake = next(c.mistake for c in failures if c.mistake)
        whole = result.failures()[0].reproduce.replace(f" --case {failures[0].name}", "")
    for width in WIDTHS:
        for height in (12, 16, 24, 40):
            shown = watch_screen(name, width, height, lang)
            flat = " ".join(" ".join(line.strip("│ ").split()) for line in shown)
            assert len(shown) <= height - 1, (width, height, shown)
            fits("\n".join(shown), width)
            assert any(line.strip() == verdict for line in shown), (width, height, shown)
            assert mistake.split(":")[0] in flat, (width, height, shown)
            assert " ".join(first.split())[:30] in flat, (width, height, shown)  # the first failing item
            if height < 40:
                assert whole in flat and ("shows the whole report" in flat or "完整报告" in flat), (width, height, shown)


def test_watch_reads_the_terminals_real_height_not_a_stale_lines(monkeypatch):
    import fcntl
    import os
    import pty
    import struct
    import termios

    from checker.app.watch import screen_size

    master, slave = pty.openpty()
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        monkeypatch.setenv("LINES", "50")
        monkeypatch.setenv("COLUMNS", "120")
        with open(slave, "w", closefd=False) as tty:
            console = Console(file=tty, force_terminal=True)
            assert console.height == 50  # rich believes LINES
            assert screen_size(console) == (80, 24)
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_status_line_keeps_the_keys_down_to_40_columns(lang):
    from checker.app.watch import watch_status

    with i18n.speaking(lang):
        keys = i18n.tr("h hint · r re-run · q quit")
        new_seed = i18n.tr("h hint · r re-run, new seed · q quit")  # r draws a new seed: said wherever it fits
        left = i18n.tr("{time} left", time="04:59")
        for name in ("gae.py", "causal_mask.py", "offset_causal_mask.py", "sliding_window_mask_attempt_2.py"):
            for width in (40, 60, 80, 120, 200):
                for clock in (None, left):
                    line = watch_status(name, 93485, width - 1, clock)
                    assert cell_len(line) <= width - 1 and line.endswith((keys, new_seed)), (width, line)
                    if width >= 80:
                        assert line.endswith(new_seed), (width, line)
                    if clock:
                        assert line.startswith(clock)
                    if width >= 80 and clock is None:
                        assert name in line  # the whole name, where there is room for it
            assert watch_status("gae.py", 93485, 199).startswith(i18n.tr("watching {file} (seed {seed})", file="gae.py",
                                                                          seed=93485))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_list_of_one_topic_has_no_topic_column(lang):
    from checker.app.views import kata_list

    with i18n.speaking(lang):
        topic_head = i18n.tr("topic")
    shown = text_of(lambda: kata_list([], 80, None, "rl"), 80, lang)
    fits(shown, 80)
    assert topic_head not in shown.splitlines()[0] and "mc-advantage" in shown
    assert not any(line[2:].startswith("attention ") for line in shown.splitlines())
