"""Inputs changed in place through their metadata: the bytes stay, the caller's tensor does not.

`advantages.unsqueeze_(-1)`, `x.t_()`, `x.resize_(n)`, `x.as_strided_(...)`, `x.set_(other)` and `x.data = x.data.double()`
leave every value where it was, so comparing values alone passed them; the caller's tensor comes back with another
shape, other strides or another dtype. Each learner file below returns dapo-loss's right answer (computed before it
touches its input) and then changes `old_log_probs` one of those ways: each must fail, every failure an in-place one.
"""
from __future__ import annotations

import pytest

from checker.judge import engine
from checker.judge.results import Status
from checker.text import i18n
from tests.conftest import run_check

RIGHT = '''# kata: dapo-loss
import torch


def dapo_loss(old_log_probs, log_probs, advantages, response_mask, clip_ratio_low=0.2, clip_ratio_high=0.28,
              clip_ratio_c=None):
    A = advantages[:, None] if advantages.dim() == 1 else advantages
    ratio = torch.exp(log_probs - old_log_probs)
    pg = torch.maximum(-A * ratio, -A * torch.clamp(ratio, 1 - clip_ratio_low, 1 + clip_ratio_high))
    if clip_ratio_c is not None:
        pg = torch.where(A < 0, torch.minimum(pg, -A * clip_ratio_c), pg)
    m = response_mask.to(pg.dtype)
    loss = (pg * m).sum() / m.sum()
    x = old_log_probs
    {change}
    return loss
'''

CHANGES = {  # method -> (the line, what the report says changed)
    "unsqueeze_": ("x.unsqueeze_(-1)", "shape"),
    "t_": ("x.t_() if x.shape[0] != x.shape[1] else x.unsqueeze_(0)", "shape"),
    "resize_": ("x.resize_(x.numel())", "shape"),
    "as_strided_": ("x.as_strided_((x.numel(),), (1,))", "shape"),
    # same shape, same values, same dtype: only the strides say it (column-major where the case was row-major)
    "set_": ("x.set_(x.clone().t().contiguous().t()) if min(x.shape) > 1 else x.unsqueeze_(0)", "strides"),
    "data_dtype": ("x.data = x.data.double() if x.dtype != torch.float64 else x.data.float()", "dtype"),
}


@pytest.mark.parametrize("method", list(CHANGES))
def test_an_input_changed_through_its_metadata_fails(tmp_path, method):
    line, what = CHANGES[method]
    path = tmp_path / "dapo_loss.py"
    path.write_text(RIGHT.replace("{change}", line))
    result = run_check(path, "dapo-loss", seed=4, name=False)
    assert result.status is Status.FAIL, result.message
    failing = [c for c in result.cases if c.status is not Status.PASS]
    assert failing and all(p.kind == "inplace" for c in failing for p in c.problems), [c.problems for c in failing][:2]
    said = [p.message for c in failing for p in c.problems]
    assert any(f"changed the {what} of the input 'old_log_probs' in place" in m for m in said), said[:3]
    assert "device" in {c.name for c in failing}, "the simulated GPU's case sees the change too"


def test_the_same_file_untouched_passes(tmp_path):
    path = tmp_path / "dapo_loss.py"
    path.write_text(RIGHT.replace("{change}", "pass"))
    result = run_check(path, "dapo-loss", seed=4, name=False)
    assert result.status is Status.PASS, result.message


def test_the_metadata_problem_is_said_in_both_languages():
    def said() -> list[str]:
        return [engine._metadata_change(((4,), "float32"), ((4, 1), "float32"), None)[0],
                engine._metadata_change(((4,), "float32"), ((4,), "float64"), None)[0],
                engine._metadata_change(((2, 3), "float32"), ((2, 3), "float32"), ["stride (3, 1), offset 0",
                                                                                     "stride (1, 2), offset 0"])[1]]
    assert said() == ["shape", "dtype", "stride (3, 1), offset 0 → stride (1, 2), offset 0"]
    message = "your code changed the {what} of the input '{name}' in place ({how}); work on a copy " \
              "(x = x.unsqueeze(-1), not x.unsqueeze_(-1))"
    with i18n.speaking("zh"):
        assert said()[:2] == ["形状", "数据类型（dtype）"]
        assert "原地改变" in i18n.tr(message, what="形状", name="advantages", how="(4,) → (4, 1)")
    assert engine._metadata_change(((4,), "float32"), ((4,), "float32"), None) is None
