"""Every default path of an optional argument runs on the (simulated) GPU at least once, in every kata.

Why. `mask = torch.ones(log_probs.shape)` under `if mask is None:` builds a CPU tensor; on a GPU the next
`log_probs * mask` raises. A kata whose one device case passes a mask never takes that branch there, so the
slip passed (issue 31). The same holds for every mode switch that changes which tensors are built: a CPU
case taking `kind="k1"` or `mask=None` says nothing of what the code does with CUDA inputs.

How. The reference's entry point is wrapped so that it records the arguments each call binds (a module's
`__init__` and `forward` alike), and run through the kata's own call hook on every case, the device cases
on the simulated GPU. An argument's default path is taken when the call leaves it out or passes its default.
DEFAULT_PATHS lists, per kata, each optional argument of the reference and one device case that takes its
default: a kata that gains an optional argument fails here until its table row (and a device case) says how
its default is covered. Modes (arguments defaulting to None, a bool or a string: None or given, each value the
cases pass) that some case takes must each be taken by a device case too.
"""
from __future__ import annotations

import functools
import importlib
import inspect
from typing import Any

import pytest
import torch

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.spec_support import fresh, reference_of

CPU = torch.device("cpu")

# kata -> {optional argument of the reference: a device case that takes its default path}
DEFAULT_PATHS: dict[str, dict[str, str]] = {
    "attention": {"dropout_p": "device", "mask": "device_no_mask"},
    "causal-mask": {"device": "device_none_on_gpu"},
    "offset-causal-mask": {"device": "device_none_on_gpu"},
    "sliding-window-mask": {"device": "device_none_on_gpu"},
    "mha": {"mask": "device_no_mask"},
    "cross-attention": {"mask": "device_no_mask"},
    "mc-advantage": {"gamma": "device"},
    "gae": {"gamma": "device", "lam": "device"},
    "gae-batched": {"gamma": "device", "lam": "device"},
    "grpo-advantage": {},
    "grpo-loss": {"clip_epsilon": "device", "kl_beta": "device", "mask": "device"},
    "layernorm": {"eps": "device"},
    "rmsnorm": {"eps": "device"},
    "batchnorm": {"eps": "device", "momentum": "device"},
    "rope": {"start_pos": "device_defaults", "base": "device"},
    "swiglu": {},
    "gqa": {"mask": "device_no_mask"},
    "kv-cache": {"past_kv": "device_no_cache"},
    "flash-attention": {"block_size": "device_defaults", "causal": "device_defaults"},
    "linear-attention": {"state": "device_defaults", "eps": "device_defaults"},
    "cross-entropy": {"ignore_index": "device", "label_smoothing": "device_defaults"},
    "top-p": {"top_k": "device_defaults", "top_p": "device_defaults"},
    "dpo-loss": {"beta": "device"},
    "ppo-loss": {"clip_eps": "device", "value_clip": "device", "vf_coef": "device", "entropy": "device_defaults", "ent_coef": "device_defaults"},
    "lora": {"r": "device_defaults", "alpha": "device_defaults", "bias": "device_defaults"},
    "moe-router": {"k": "device"},
    "adamw": {"lr": "device", "betas": "device", "eps": "device", "weight_decay": "device"},
    "loss-agg": {"loss_agg_mode": "device_default_mode", "loss_scale_factor": "device"},
    "kl-estimators": {"kind": "device", "mask": "device_no_mask"},
    "dapo-loss": {"clip_ratio_low": "device", "clip_ratio_high": "device", "clip_ratio_c": "device_no_dual_clip"},
    "gspo-loss": {"clip_ratio_low": "device", "clip_ratio_high": "device"},
    "rloo-loss": {"mask": "device_no_mask"},
    "clip-loss": {},
    "sample-token": {"temperature": "device", "generator": "device_no_generator"},
    "greedy-generate": {"eos_token_id": "device_defaults", "pad_token_id": "device_defaults"},
    "beam-search": {"eos_token_id": "device_defaults", "length_penalty": "device_defaults", "num_return_sequences": "device_defaults", "pad_token_id": "device_defaults"},
    "beam-search-hf": {"eos_token_id": "device_defaults", "length_penalty": "device_defaults", "early_stopping": "device_defaults", "num_return_sequences": "device_defaults", "pad_token_id": "device_defaults"},
    "speculative-decoding": {},
    "int8-quant": {"dim": "device_symmetric", "symmetric": "device_symmetric"},
    "llama-block": {"rms_norm_eps": "device", "rope_theta": "device"},
    "sinusoidal-pe": {"start_pos": "device_defaults", "base": "device", "device": "device_defaults", "dtype": "device"},
    "conv2d": {"bias": "device_defaults", "stride": "device_defaults", "padding": "device_defaults", "dilation": "device", "groups": "device_defaults"},
    "nms": {},
    "gpt2-block": {},
    "kaiming-init": {"a": "device_defaults", "mode": "device_defaults", "nonlinearity": "device_defaults", "distribution": "device_defaults", "generator": "device_no_generator"},
    "gelu": {"approximate": "device_default"},
    "dropout": {"p": "device_defaults", "training": "device_defaults", "generator": "device_defaults"},
    "reward-model-loss": {"margin": "device", "center_rewards_coefficient": "device"},
    "grad-clip": {"norm_type": "device"},
    "vit-patch-embed": {"class_token": "device"},
    "moe-layer": {"top_k": "device_defaults", "norm_topk_prob": "device_defaults"},
    "mla": {"q_lora_rank": "device", "rope_theta": "device", "past_kv": "device"},
    "lstm-cell": {"bias": "device", "hx": "device"},
    "triton-vector-add": {"BLOCK": "default_block"},
    "triton-flash-attention": {"causal": "defaults", "BM": "defaults", "BN": "defaults"},
    "triton-layernorm": {"eps": "default_eps"},
    "triton-matmul": {"BM": "default_blocks", "BN": "default_blocks", "BK": "default_blocks"},
    "triton-reduce-sum": {"BLOCK": "default_block"},
    "triton-online-softmax": {"BLOCK": "default_block"},
    "preference-losses": {"ref_chosen_logps": "device_simpo", "ref_rejected_logps": "device_simpo", "loss_type": "device_defaults", "beta": "device_defaults", "label_smoothing": "device_defaults", "simpo_gamma": "device_defaults", "chosen_lengths": "device_defaults", "rejected_lengths": "device_defaults"},
}

# Katas whose inputs are NumPy arrays or Python values: no tensor of theirs could live on a GPU.
NO_TENSORS = {"softmax", "numpy-mha", "logistic-regression", "kmeans", "mlp-backprop", "roc-auc", "bpe", "cosine-schedule", "linear-regression", "knn", "decision-tree-split"}


def optional_arguments(kata: catalog.Kata) -> dict[str, tuple[str, Any]]:
    """The reference's arguments that have a default: name -> (the call that takes it: "call", a module's "init" or
    "forward", its default)."""
    ref = reference_of(kata)
    fns = {"call": ref} if kata.kind == "function" else {"init": ref.__init__, "forward": getattr(ref, "forward", None)}
    found: dict[str, tuple[str, Any]] = {}
    for where, fn in fns.items():
        if fn is None:
            continue
        for name, p in inspect.signature(fn).parameters.items():
            if p.default is not inspect.Parameter.empty:
                found[name] = (where, p.default)
    return found


def _recording(kata: catalog.Kata, calls: list[tuple[str, dict[str, Any]]]) -> Any:
    """The reference's entry point, recording the arguments each call binds (self left out), with which call it was."""
    ref = reference_of(kata)
    if kata.kind == "function":
        sig = inspect.signature(ref)

        @functools.wraps(ref)
        def entry(*args, **kwargs):
            calls.append(("call", dict(sig.bind(*args, **kwargs).arguments)))
            return ref(*args, **kwargs)
        return entry
    init_sig = inspect.signature(ref.__init__)
    forward_sig = inspect.signature(ref.forward) if hasattr(ref, "forward") else None

    class Recorded(ref):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs):
            calls.append(("init", dict(init_sig.bind(self, *args, **kwargs).arguments)))
            super().__init__(*args, **kwargs)

        if forward_sig is not None:
            def forward(self, *args, **kwargs):
                calls.append(("forward", dict(forward_sig.bind(self, *args, **kwargs).arguments)))
                return super().forward(*args, **kwargs)

    Recorded.__name__ = Recorded.__qualname__ = ref.__name__
    return Recorded


def _mode(value: Any, default: Any) -> Any:
    """The mode a bound value selects, for arguments whose default is None, a bool or a string; else None."""
    if default is None:
        return "None" if value is None else "given"
    if isinstance(default, (bool, str)) and isinstance(value, (bool, str)):
        return value
    return None


def _is_default(value: Any, default: Any) -> bool:
    if value is default:
        return True  # left out, or None passed for None
    if isinstance(value, torch.Tensor) or default is None or isinstance(value, bool) != isinstance(default, bool):
        return False
    try:
        return bool(value == default)  # 0.99 passed for 0.99, (0.9, 0.999) for (0.9, 0.999)
    except (TypeError, ValueError, RuntimeError):
        return False


def is_device_case(case: spec_api.Case) -> bool:
    return case.family.track_device or case.inputs.simulate == "cuda"


@functools.lru_cache(maxsize=None)
def coverage(kata_id: str) -> tuple[dict[str, list[str]], dict[str, dict[Any, list[str]]], dict[str, dict[Any, list[str]]]]:
    """(argument -> device cases taking its default, argument -> mode -> device cases, argument -> mode -> any cases)."""
    kata = catalog.get(kata_id)
    spec = importlib.import_module(kata.spec_module)
    hook = getattr(spec, "call", spec_api.call)
    optional = optional_arguments(kata)
    defaults: dict[str, list[str]] = {name: [] for name in optional}
    on_device: dict[str, dict[Any, list[str]]] = {name: {} for name in optional}
    anywhere: dict[str, dict[Any, list[str]]] = {name: {} for name in optional}
    for case in spec_api.build_cases(spec, 1):
        if case.inputs.raises is not None:
            continue  # the contract's errors: a kind the kata rejects is no mode
        calls: list[tuple[str, dict[str, Any]]] = []
        device = is_device_case(case)
        with torch.random.fork_rng(devices=[]):
            hook(kata, _recording(kata, calls), fresh(case.inputs), CPU, track_device=case.family.track_device)
        for made_by, bound in calls:
            for name, (where, default) in optional.items():
                if where != made_by:
                    continue
                value = bound.get(name, default)  # left out: the default
                mode = _mode(value, default)
                if mode is not None:
                    anywhere[name].setdefault(mode, []).append(case.name)
                    if device:
                        on_device[name].setdefault(mode, []).append(case.name)
                if device and _is_default(value, default) and case.name not in defaults[name]:
                    defaults[name].append(case.name)
    return defaults, on_device, anywhere


TENSOR_KATAS = [k.id for k in catalog.KATAS if k.id not in NO_TENSORS]


def test_the_katas_without_a_device_case_take_no_tensors():
    for kata_id in NO_TENSORS:
        spec = importlib.import_module(catalog.get(kata_id).spec_module)
        cases = spec_api.build_cases(spec, 1)
        assert not any(is_device_case(c) for c in cases), kata_id
        assert not any(isinstance(v, torch.Tensor) for c in cases for v in c.inputs.args.values()), kata_id
    assert set(TENSOR_KATAS) | NO_TENSORS == {k.id for k in catalog.KATAS}


@pytest.mark.parametrize("kata_id", TENSOR_KATAS)
def test_every_optional_argument_has_its_default_taken_on_the_simulated_gpu(kata_id):
    kata = catalog.get(kata_id)
    optional = optional_arguments(kata)
    listed = DEFAULT_PATHS.get(kata_id, {})
    assert set(listed) == set(optional), (
        f"{kata_id}'s optional arguments are {sorted(optional)}; DEFAULT_PATHS lists {sorted(listed)}: "
        "add a device case that takes each new one's default, and name it there")
    defaults, _, _ = coverage(kata_id)
    for name, case in listed.items():
        assert case in defaults[name], (f"{kata_id}: device case {case!r} does not take {name}'s default "
                                        f"({optional[name][1]!r}); the device cases that do: {defaults[name]}")


@pytest.mark.parametrize("kata_id", TENSOR_KATAS)
def test_every_mode_the_cases_take_is_taken_on_the_simulated_gpu_too(kata_id):
    _, on_device, anywhere = coverage(kata_id)
    missing = {name: sorted(set(modes) - set(on_device[name]), key=str) for name, modes in anywhere.items()}
    missing = {name: modes for name, modes in missing.items() if modes}
    assert not missing, f"{kata_id}: modes no device case takes (argument: modes): {missing}"


def test_a_default_that_no_device_case_takes_is_found(monkeypatch):
    """Without its device_no_mask case, rloo-loss's mask=None runs on the CPU only: the issue's hole, seen here."""
    spec = importlib.import_module(catalog.get("rloo-loss").spec_module)
    monkeypatch.setattr(spec, "FAMILIES", tuple(f for f in spec.FAMILIES if f.name != "device_no_mask"))
    defaults, on_device, anywhere = coverage.__wrapped__("rloo-loss")
    assert defaults["mask"] == []
    assert "None" in anywhere["mask"] and "None" not in on_device["mask"]
