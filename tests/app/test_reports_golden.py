"""Failure reports: golden text for every failure kind, terminal citizenship, and the pictures on
real checks of small wrong files.

The golden files are re-generated with `python tests/golden/regenerate.py` (see its docstring).
"""
from __future__ import annotations

import difflib
import io
import re
import textwrap
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from checker.app.render import report
from checker.judge.results import Status
from tests.conftest import run_check
from tests.golden.cases import CASES, CHINESE, ZH_WIDTHS, render

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


# ---------------------------------------------------------------- golden text


@pytest.mark.parametrize("name", sorted(CASES))
def test_report_matches_golden(name):
    golden = CASES[name]()
    want = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    got = render(golden)
    if got != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), f"golden/{name}.txt", "rendered"))
        pytest.fail(f"the {name} report changed; if on purpose, run python tests/golden/regenerate.py\n{diff}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_report_fits_its_width(name):
    """In terminal cells: a Chinese character takes two."""
    golden = CASES[name]()
    for line in render(golden).splitlines():
        assert cell_len(line) <= golden.width, f"{name}: a line is wider than {golden.width} columns: {line!r}"


def test_every_golden_file_has_a_case():
    assert {p.stem for p in GOLDEN.glob("*.txt")} == set(CASES)


def test_pictures_read_without_colour():
    """The differing cells carry their own glyphs: +/- in the mask difference, ✗ in rows and timelines."""
    mask = render(CASES["mask_offset"]())
    assert "0 ·---···" in mask and "3 ····---" in mask  # the missing offset, row by row
    assert "shifted 3 columns to the left" in mask
    assert "every difference lies on one diagonal: j = i" in render(CASES["mask_batched_diagonal"]())
    assert "transposed" in render(CASES["mask_transposed"]())
    weights = render(CASES["attention_weights"]())
    assert "every key masked" in weights and "NaN✗" in weights
    timeline = render(CASES["gae_done"]())
    done_row = next(line for line in timeline.splitlines() if "done" in line and "◀" in line)
    assert done_row.split("│")[1].split()[0] == "3"  # the done step is the marked one
    assert "mask lengths" in render(CASES["grpo_loss"]())


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    result = CASES["mask_offset"]().result
    coloured = Console(width=80, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    coloured.print(report(result))
    assert "\x1b[31" in coloured.file.getvalue() or "\x1b[1;31" in coloured.file.getvalue()
    piped = Console(width=80, file=io.StringIO())  # not a terminal: no escape codes at all
    piped.print(report(result))
    assert "\x1b[" not in piped.file.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    honest = Console(width=80, file=io.StringIO(), force_terminal=True, color_system="truecolor")
    honest.print(report(result))
    assert "\x1b[31" not in honest.file.getvalue() and "\x1b[1;31" not in honest.file.getvalue()


def test_bounded_output_and_verbose():
    result = CASES["bounded"]().result
    short = render(CASES["bounded"]())
    assert "Failing like random.0 above, 3 more cases: random.1, random.2, random.3." in short and "3 more: grad of w_k.weight" in short
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(report(result, verbose=True))
    full = console.export_text()
    assert "FAIL random.3" in full and "grad of w_v.weight differs" in full and "Failing like" not in full


# ---------------------------------------------------------------- pictures on real checks


WRONG = {
    "gae": ("dones ignored", """
        import torch
        def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
            T = rewards.shape[0]
            adv = torch.zeros_like(rewards)
            gae, next_value = 0.0, 0.0
            for t in reversed(range(T)):
                delta = rewards[t] + gamma * next_value - values[t]
                gae = delta + gamma * lam * gae
                adv[t] = gae
                next_value = values[t]
            returns = adv + values
            return (adv - adv.mean()) / (adv.std() + 1e-8), returns
    """),
    "mc-advantage": ("a done cuts one step late", """
        import torch
        def compute_mc_advantage(rewards, dones, values, gamma=0.99):
            returns = torch.zeros_like(rewards)
            running = 0.0
            for t in reversed(range(rewards.shape[0])):
                running = rewards[t] + gamma * running
                returns[t] = running
                running = running * (1.0 - dones[t].to(rewards.dtype))
            a = returns - values
            return (a - a.mean()) / (a.std() + 1e-8), returns
    """),
    "gae-batched": ("no bootstrap", """
        import torch
        def compute_gae_batched(rewards, dones, values, last_values, gamma=0.99, lam=0.95):
            T = rewards.shape[0]
            nd = 1.0 - dones.to(rewards.dtype)
            adv = torch.zeros_like(rewards)
            gae = torch.zeros_like(last_values)
            next_value = torch.zeros_like(last_values)
            for t in reversed(range(T)):
                delta = rewards[t] + gamma * next_value * nd[t] - values[t]
                gae = delta + gamma * lam * nd[t] * gae
                adv[t] = gae
                next_value = values[t]
            return adv, adv + values
    """),
    "causal-mask": ("diagonal left out", """
        import torch
        def create_batch_causal_mask(batch_size, n_head, seq_len, device=None):
            m = torch.ones(seq_len, seq_len, dtype=torch.bool, device=device).tril(-1)
            return m.expand(batch_size, n_head, seq_len, seq_len)
    """),
    "offset-causal-mask": ("start_pos ignored", """
        import torch
        def create_offset_causal_mask(seq_len, start_pos, device=None):
            q = torch.arange(seq_len, device=device)[:, None]
            k = torch.arange(start_pos + seq_len, device=device)[None, :]
            return k <= q
    """),
    "sliding-window-mask": ("window one too wide", """
        import torch
        def create_sliding_window_mask(seq_len, start_pos, window, device=None):
            p = start_pos + torch.arange(seq_len, device=device)[:, None]
            k = torch.arange(start_pos + seq_len, device=device)[None, :]
            return (k <= p) & (k >= p - window)
    """),
    "attention": ("-inf fill", """
        import math, torch, torch.nn as nn
        class ScaledDotProductAttention(nn.Module):
            def __init__(self, dropout_p=0.0):
                super().__init__()
                self.dropout = nn.Dropout(dropout_p)
            def forward(self, q, k, v, mask=None):
                s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
                if mask is not None:
                    s = s.masked_fill(~mask, float("-inf"))
                w = self.dropout(torch.softmax(s, dim=-1))
                return w @ v, w
    """),
    "mha": ("mask inverted", """
        import math, torch, torch.nn as nn
        class MultiHeadAttention(nn.Module):
            def __init__(self, embed_dim, num_heads):
                super().__init__()
                assert embed_dim % num_heads == 0
                self.h, self.d = num_heads, embed_dim // num_heads
                self.w_q, self.w_k = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
                self.w_v, self.w_o = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
            def forward(self, x, mask=None):
                B, L, C = x.shape
                split = lambda t: t.view(B, L, self.h, self.d).transpose(1, 2)
                q, k, v = split(self.w_q(x)), split(self.w_k(x)), split(self.w_v(x))
                s = q @ k.transpose(-2, -1) / math.sqrt(self.d)
                if mask is not None:
                    s = s.masked_fill(mask, torch.finfo(s.dtype).min)
                w = torch.softmax(s, dim=-1)
                return self.w_o((w @ v).transpose(1, 2).reshape(B, L, C)), w
    """),
    "cross-attention": ("no scaling", """
        import torch, torch.nn as nn
        class CrossAttention(nn.Module):
            def __init__(self, embed_dim, num_heads):
                super().__init__()
                assert embed_dim % num_heads == 0
                self.h, self.d = num_heads, embed_dim // num_heads
                self.w_q, self.w_k = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
                self.w_v, self.w_o = nn.Linear(embed_dim, embed_dim), nn.Linear(embed_dim, embed_dim)
            def forward(self, x, context, mask=None):
                B, Lq, C = x.shape
                Lk = context.shape[1]
                q = self.w_q(x).view(B, Lq, self.h, self.d).transpose(1, 2)
                k = self.w_k(context).view(B, Lk, self.h, self.d).transpose(1, 2)
                v = self.w_v(context).view(B, Lk, self.h, self.d).transpose(1, 2)
                s = q @ k.transpose(-2, -1)
                if mask is not None:
                    s = s.masked_fill(~mask, torch.finfo(s.dtype).min)
                w = torch.softmax(s, dim=-1)
                return self.w_o((w @ v).transpose(1, 2).reshape(B, Lq, C)), w
    """),
    "softmax": ("dim ignored", """
        import numpy as np
        def softmax(x, dim=-1):
            e = np.exp(x - x.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)
    """),
    "grpo-advantage": ("global statistics", """
        def compute_group_advantages(rewards):
            return (rewards - rewards.mean()) / (rewards.std() + 1e-8)
    """),
    "grpo-loss": ("token-level mean", """
        import torch
        def grpo_calc_loss(old_log_probs, new_log_probs, advantages, ref_log_probs, clip_epsilon=0.2, kl_beta=0.04,
                           mask=None):
            A = advantages if new_log_probs.dim() == 1 else advantages[:, None]
            ratio = torch.exp(new_log_probs - old_log_probs)
            surr = torch.min(ratio * A, torch.clamp(ratio, 1 - clip_epsilon, 1 + clip_epsilon) * A)
            d = ref_log_probs - new_log_probs
            loss = -(surr - kl_beta * (torch.exp(d) - d - 1))
            if loss.dim() == 1:
                return loss.mean()
            m = torch.ones_like(loss) if mask is None else mask.to(loss.dtype)
            return (loss * m).sum() / m.sum()
    """),
}

# What the picture of each kata's failure must contain (plain text, no colour).
PICTURE = {
    "gae": ["t  reward  done", "◀", "is a done"],
    "mc-advantage": ["t  reward  done", "◀"],
    "gae-batched": ["env ", "last_values", "◀"],
    "causal-mask": ["difference", "every difference lies on one diagonal: j = i"],
    "offset-causal-mask": ["difference", "shifted"],
    "sliding-window-mask": ["difference", "every difference lies on one diagonal"],
    "attention": ["every key masked", "NaN✗", "mask "],
    "mha": ["query [", "mask "],
    "cross-attention": ["query [", "key "],
    "softmax": ["slice [", "x "],
    "grpo-advantage": ["group [", "rewards "],
    "grpo-loss": ["loss expected", "mask lengths"],
}


def _text(result) -> str:
    console = Console(width=80, record=True, color_system=None, file=io.StringIO(), highlight=False)
    console.print(report(result))
    return console.export_text()


@pytest.mark.parametrize("kata_id", sorted(WRONG))
def test_a_real_failure_shows_its_picture(kata_id, tmp_path):
    from checker.text import catalog

    kata = catalog.get(kata_id)
    why, body = WRONG[kata_id]
    path = tmp_path / kata.filename
    path.write_text(f"# kata: {kata_id}\n# why: {why}\n" + textwrap.dedent(body).lstrip())
    result = run_check(path, kata_id, seed=5)
    assert result.status is Status.FAIL, (result.message, [c.error for c in result.failures()][:1])
    text = _text(result)
    for piece in PICTURE[kata_id]:
        assert piece in text, f"{kata_id}: the report lacks {piece!r}:\n{text[:6000]}"
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_figure_that_fails_to_draw_leaves_the_report_whole(monkeypatch):
    from checker.app.render import masks

    def broken(self, console, options):
        raise ValueError("a bug in a figure")
        yield  # pragma: no cover

    monkeypatch.setattr(masks.MaskFigure, "__rich_console__", broken)
    text = render(CASES["mask_offset"]())
    assert "expected    yours" not in text  # no picture…
    assert "This looks like: start_pos ignored" in text and "1 of 2 cases passed" in text  # …and the rest is there


# ---------------------------------------------------------------- precision and digits


def test_float32_rounding_is_not_blamed_on_a_step():
    """A float64 case computed partly in float32 is close everywhere: the report says so, and the
    timeline points at no step."""
    text = " ".join(line.strip("│ ") for line in render(CASES["gae_precision"]()).splitlines())
    assert "not float64-precise" in text and "part of your computation runs in float32" in text
    assert "each by float32 rounding only" in text and "No step holds a logic error" in text
    assert "◀" not in text and "latest step that differs" not in text
    for name in ("attention_precision", "grpo_loss_precision"):
        assert "not float64-precise" in render(CASES[name]()).replace("│\n│", ""), name


def _pairs(text: str) -> list[tuple[str, str]]:
    """(expected, yours) as printed for every cell marked ✗: rows figures, timelines, scalar tables."""
    lines = [line.strip("│ ").rstrip(" │") for line in text.splitlines()]
    pairs = []
    for above, line in zip(lines, lines[1:]):
        if line.startswith("yours ") and above.startswith("expected "):  # a rows figure: columns by position
            cells = [(m.start(), m.group()) for m in __import__("re").finditer(r"\S+", line[5:])]
            for start, cell in cells:
                if cell.endswith("✗"):
                    end = start + len(cell) - 1
                    pairs.append((above[5:][:end].split()[-1], cell[:-1]))
        elif line.startswith("loss yours") and above.startswith("loss expected"):
            pairs.append((above.split()[2], line.split()[2]))
    header = next((i for i, line in enumerate(lines) if line.split()[:1] == ["t"] and "expected" in line), None)
    if header is not None:
        for line in lines[header + 2:]:
            cells = line.split()
            if cells[:1] == ["…"]:
                continue
            if not cells or not cells[0].isdigit():
                break
            if "✗" in cells:
                k = 4 if cells[2] in ("·", "done") else 3
                pairs.append((cells[k], cells[k + 1]))
    return pairs


@pytest.mark.parametrize("name", ["gae_precision", "attention_precision", "grpo_digits", "grpo_loss_precision",
                                  "gae_done", "grpo_groups", "attention_wide"])
def test_a_differing_pair_prints_digits_that_differ(name):
    pairs = _pairs(render(CASES[name]()))
    assert pairs, f"{name}: no differing pair found in the report"
    same = [(e, g) for e, g in pairs if e == g]
    assert not same, f"{name}: expected and yours print alike: {same}"


def test_a_real_float32_leak_in_float64_is_named_as_precision(tmp_path):
    from checker.text import catalog

    kata = catalog.get("gae")
    path = tmp_path / kata.filename
    path.write_text(textwrap.dedent("""\
        # kata: gae
        import torch
        def compute_gae(rewards, dones, values, gamma=0.99, lam=0.95):
            r, v = rewards.float(), values.float()
            nd = 1.0 - dones.float()
            adv, gae, nxt = torch.zeros_like(r), torch.zeros_like(r[0]), torch.zeros_like(r[0])
            for t in reversed(range(len(r))):
                delta = r[t] + gamma * nxt * nd[t] - v[t]
                gae = delta + gamma * lam * nd[t] * gae
                adv[t] = gae
                nxt = v[t]
            ret = adv + v
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            return adv.to(rewards.dtype), ret.to(rewards.dtype)
    """))
    result = run_check(path, "gae", seed=5, case="long_float64")
    assert result.status is Status.FAIL
    kinds = {p.kind for c in result.failures() for p in c.problems}
    assert kinds == {"precision"}, kinds
    text = _text(result)
    assert "not float64-precise" in text and "◀" not in text


# ---------------------------------------------------------------- in Chinese


ZH = [f"{name}_zh_{width}" for name in CHINESE for width in ZH_WIDTHS]


def _tokens(line: str) -> list[tuple[int, int, str]]:
    """The words of a line as (first cell, cell after the last, word): positions on screen, not in the string."""
    out, i = [], 0
    for word in line.split(" "):
        if word:
            start = cell_len(line[:i])
            out.append((start, start + cell_len(word), word))
        i += len(word) + 1
    return out


def _inside(text: str) -> list[str]:
    """The report's lines with a panel's borders taken off (a border is the same width on every line)."""
    return [line[2:-2] if line.startswith("│ ") and line.endswith(" │") else line for line in text.splitlines()]


@pytest.mark.parametrize("name", ZH)
def test_a_chinese_report_speaks_chinese(name):
    text = render(CASES[name]())
    first = text.splitlines()[0] if name.startswith("passed") else text.splitlines()[2]
    assert any(word in first for word in ("未通过", "通过", "出错")), first  # the verdict
    for english in ("cases passed", "differs", "expected", "yours", "This looks like", "Reproduce", "families",
                    "out of tolerance", "steps differ", "cells differ"):
        assert english not in text, f"{name}: {english!r} is left in English:\n{text}"


@pytest.mark.parametrize("width", ZH_WIDTHS)
def test_chinese_mask_grids_line_up(width):
    lines = _inside(render(CASES[f"mask_offset_zh_{width}"]()))
    head = next(i for i, line in enumerate(lines) if line.startswith("期望"))
    titles = [start for start, _, word in _tokens(lines[head])]
    assert [word for _, _, word in _tokens(lines[head])] == ["期望", "你的", "差异"]
    grid = [line for line in lines[head + 2:] if re.match(r"\d+ [■·+-]", line)]
    assert len(grid) == 4
    for line in grid:  # every grid row: the row number of each grid sits under its title
        assert [start for start, _, word in _tokens(line) if word.isdigit()] == titles, (line, lines[head])


@pytest.mark.parametrize("width", ZH_WIDTHS)
def test_chinese_attention_rows_line_up(width):
    lines = _inside(render(CASES[f"attention_weights_zh_{width}"]()))
    head = next(i for i, line in enumerate(lines) if line.startswith("键 "))
    ends = [end for _, end, word in _tokens(lines[head])[1:]]  # the key numbers' right edges
    for label in ("mask", "期望", "你的"):
        line = next(line for line in lines[head:head + 4] if line.startswith(label + " "))
        cells = [end - (1 if word.endswith("✗") else 0) for _, end, word in _tokens(line)[1:]]
        assert cells == ends, (label, line, lines[head])


@pytest.mark.parametrize("width", ZH_WIDTHS)
def test_chinese_timeline_lines_up(width):
    lines = _inside(render(CASES[f"gae_done_zh_{width}"]()))
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["t", "奖励"])
    heads = _tokens(lines[head])
    assert [word for _, _, word in heads][:6] == ["t", "奖励", "终止", "价值", "期望", "你的"]
    rows = [_tokens(line) for line in lines[head + 2:] if line.split()[:1] and line.split()[0].isdigit()]
    assert len(rows) == 8
    for row in rows:  # numbers end where their heading ends: right-aligned in cells
        for k in (0, 1, 3, 4, 5):
            assert row[k][1] == heads[k][1], (row, heads)


@pytest.mark.parametrize("width", ZH_WIDTHS)
def test_chinese_scalar_table_lines_up(width):
    lines = _inside(render(CASES[f"grpo_loss_zh_{width}"]()))
    rows = [next(line for line in lines if line.startswith(label)) for label in ("loss 期望", "loss 你的", "差异")]
    ends = {next(end for _, end, word in _tokens(row) if word[:1] in "-+0123456789") for row in rows}
    assert len(ends) == 1, rows
