"""The normalisation references against code nobody here wrote: torch.nn.LayerNorm, torch.nn.RMSNorm,
torch.nn.BatchNorm1d (outputs, gradients and both running buffers over train and eval steps), and
transformers' LlamaRMSNorm. Run with -s to see the largest differences measured."""
from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from checker.text import catalog
from checker.judge.worker import load_entry


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"crosscheck_{kata.module}")


def _draw(seed, *shape, dtype=torch.float64, scale=1.0, offset=0.0):
    return (offset + scale * torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)).to(dtype)


def _twins(ours, theirs, dtype, seed):
    """Both modules with the same random parameters (and buffers), in `dtype`."""
    state = {k: (_draw(seed + i, *v.shape, scale=0.5, offset=1.0) if "var" in k or k == "weight" else _draw(seed + i, *v.shape))
             for i, (k, v) in enumerate(theirs.state_dict().items()) if v.is_floating_point()}
    state = {k: v.abs() if "var" in k else v for k, v in state.items()}
    ours.load_state_dict(state, strict=True)
    theirs.load_state_dict(state, strict=False)
    return ours.to(dtype), theirs.to(dtype)


def _report(what, err):
    print(f"\n  {what}: max abs error {err:.2g}")
    return err


def _max_err(a, b):
    return float((a.detach().double() - b.detach().double()).abs().max())


# ---------------------------------------------------------------- layernorm


@pytest.mark.parametrize("dtype,bound", [(torch.float64, 1e-12), (torch.float32, 3e-4)])  # float32: rows around 300
def test_layernorm_matches_torch(dtype, bound):
    worst = 0.0
    for seed, (shape, eps, offset) in enumerate([((4, 7, 32), 1e-5, 0.0), ((3, 16), 1e-2, 0.0), ((5, 64), 1e-5, 300.0),
                                                 ((24,), 1e-5, 0.0), ((2, 3, 4, 8), 1e-2, 300.0)]):
        ours, theirs = _twins(_reference("layernorm")(shape[-1], eps=eps), nn.LayerNorm(shape[-1], eps=eps), dtype, 10 * seed)
        x = _draw(seed, *shape, dtype=dtype, offset=offset).requires_grad_(True)
        x2 = x.detach().clone().requires_grad_(True)
        probe = _draw(99, *shape, dtype=dtype)
        y, y2 = ours(x), theirs(x2)
        (y * probe).sum().backward()
        (y2 * probe).sum().backward()
        worst = max(worst, _max_err(y, y2))
        if dtype == torch.float64:
            torch.testing.assert_close(x.grad, x2.grad, rtol=1e-9, atol=1e-10)
            for name in ("weight", "bias"):
                torch.testing.assert_close(getattr(ours, name).grad, getattr(theirs, name).grad, rtol=1e-9, atol=1e-10)
    assert _report(f"layernorm vs torch.nn.LayerNorm, {dtype}", worst) <= bound


@pytest.mark.parametrize("dtype,bound", [(torch.float16, 1e-2), (torch.bfloat16, 4e-2)])
def test_layernorm_half_matches_torch(dtype, bound):
    worst = 0.0
    for seed, (scale, offset) in enumerate([(1.0, 0.0), (400.0, 0.0), (1.0, 8.0)]):
        if dtype == torch.float16 and offset or dtype == torch.bfloat16 and scale > 1:
            continue
        ours, theirs = _twins(_reference("layernorm")(64), nn.LayerNorm(64), dtype, seed)
        x = _draw(seed, 16, 64, dtype=dtype, scale=scale, offset=offset)
        y, y2 = ours(x), theirs(x)
        assert y.dtype == y2.dtype == dtype
        worst = max(worst, _max_err(y, y2))
    assert _report(f"layernorm vs torch.nn.LayerNorm, {dtype}", worst) <= bound


# ---------------------------------------------------------------- rmsnorm


@pytest.mark.parametrize("dtype,bound", [(torch.float64, 1e-13), (torch.float32, 2e-6)])
def test_rmsnorm_matches_torch(dtype, bound):
    worst = 0.0
    for seed, (shape, eps, scale) in enumerate([((4, 7, 32), 1e-6, 1.0), ((3, 16), 1e-2, 0.3), ((5, 64), 1e-6, 1e-3),
                                                ((24,), 1e-5, 10.0)]):
        ours, theirs = _twins(_reference("rmsnorm")(shape[-1], eps=eps), nn.RMSNorm(shape[-1], eps=eps), dtype, 10 * seed)
        x = _draw(seed, *shape, dtype=dtype, scale=scale).requires_grad_(True)
        x2 = x.detach().clone().requires_grad_(True)
        probe = _draw(99, *shape, dtype=dtype)
        y, y2 = ours(x), theirs(x2)
        (y * probe).sum().backward()
        (y2 * probe).sum().backward()
        worst = max(worst, _max_err(y, y2))
        if dtype == torch.float64:
            torch.testing.assert_close(x.grad, x2.grad, rtol=1e-9, atol=1e-10)
            torch.testing.assert_close(ours.weight.grad, theirs.weight.grad, rtol=1e-9, atol=1e-10)
    assert _report(f"rmsnorm vs torch.nn.RMSNorm, {dtype}", worst) <= bound


@pytest.mark.parametrize("dtype,scale,bound", [(torch.float32, 1.0, 2e-6), (torch.float16, 300.0, 1e-2),
                                               (torch.bfloat16, 1.0, 4e-2)])
def test_rmsnorm_matches_transformers_llama(dtype, scale, bound):
    llama = pytest.importorskip("transformers.models.llama.modeling_llama")
    ours, theirs = _twins(_reference("rmsnorm")(64, eps=1e-6), llama.LlamaRMSNorm(64, eps=1e-6), dtype, 7)
    x = _draw(3, 4, 9, 64, dtype=dtype, scale=scale)
    y, y2 = ours(x), theirs(x)
    assert y.dtype == y2.dtype == dtype
    assert _report(f"rmsnorm vs transformers LlamaRMSNorm, {dtype}, |x| ~ {scale:g}", _max_err(y, y2)) <= bound


def test_llama_rmsnorm_loses_float64_accuracy():
    """Why the kata's float64 cases fail Hugging Face's verbatim code: it computes in float32."""
    llama = pytest.importorskip("transformers.models.llama.modeling_llama")
    ours, theirs = _twins(_reference("rmsnorm")(64), llama.LlamaRMSNorm(64, eps=1e-6), torch.float64, 7)
    x = _draw(3, 4, 64)
    assert _max_err(ours(x), theirs(x)) > 1e-8
    huge = x * 1e20
    assert theirs(huge).abs().max() == 0 and ours(huge).abs().max() > 0.1


# ---------------------------------------------------------------- batchnorm


@pytest.mark.parametrize("shape,momentum", [((8, 4), 0.1), ((5, 3, 6), 0.3), ((1, 3, 8), 1.0), ((6, 2), 0.0)])
@pytest.mark.parametrize("dtype,bound", [(torch.float64, 1e-13), (torch.float32, 2e-5)])
def test_batchnorm_matches_torch_over_train_and_eval_steps(shape, momentum, dtype, bound):
    C = shape[1]
    ours, theirs = _twins(_reference("batchnorm")(C, momentum=momentum), nn.BatchNorm1d(C, momentum=momentum), dtype, 3)
    worst = 0.0
    for step, mode in enumerate(["train", "train", "train", "eval", "eval"]):
        ours.train(mode == "train")
        theirs.train(mode == "train")
        x = _draw(step, *shape, dtype=dtype, scale=2.0, offset=1.0).requires_grad_(True)
        x2 = x.detach().clone().requires_grad_(True)
        y, y2 = ours(x), theirs(x2)
        worst = max(worst, _max_err(y, y2), _max_err(ours.running_mean, theirs.running_mean),
                    _max_err(ours.running_var, theirs.running_var))
        assert not ours.running_mean.requires_grad and ours.running_mean.grad_fn is None
        if mode == "train" and dtype == torch.float64:
            probe = _draw(50 + step, *shape)
            (y * probe).sum().backward()
            (y2 * probe).sum().backward()
            torch.testing.assert_close(x.grad, x2.grad, rtol=1e-9, atol=1e-10)
            for name in ("weight", "bias"):
                torch.testing.assert_close(getattr(ours, name).grad, getattr(theirs, name).grad, rtol=1e-9, atol=1e-10)
    assert set(ours.state_dict()) == set(theirs.state_dict()) - {"num_batches_tracked"}
    assert _report(f"batchnorm vs torch.nn.BatchNorm1d, {dtype}, {list(shape)}, momentum {momentum}", worst) <= bound
