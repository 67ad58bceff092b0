"""greedy-generate and speculative-decoding against transformers (KATAS-inference.md, "Agreement with libraries").

speculative-decoding: see the test's docstring (transformers `_speculative_sampling`, uniforms and the
multinomial intercepted): num_accepted identical in 625/625 rows, next-token distribution 6.7e-16 apart.

greedy-generate: the reference drives a tiny random `LlamaForCausalLM` (2 layers, GQA 4/2, vocabulary 40)
through an adapter with the kata's calling convention (`model(ids, past_key_values=past)` -> (logits, past)),
and must return exactly what `generate(do_sample=False, eos_token_id=…, pad_token_id=…)` returns on the same
unpadded prompts: eos none, emitted by some rows, by every row (early stop), pad = eos.

Measured on this machine (torch 2.13 CPU, transformers 5.24): tokens identical in 24/24 runs (12 models, each
without eos and with one); of the 12 eos runs, 4 stop early (every row finished) and 9 write pad columns.
"""
from __future__ import annotations

from typing import NamedTuple

import pytest
import torch


from checker.text import catalog  # noqa: E402
from tests.spec_support import reference_of  # noqa: E402


transformers = None  # imported by _libraries, below


@pytest.fixture(autouse=True, scope="module")
def _libraries():
    """transformers, imported when this module's first test runs rather than when pytest collects the suite: a test
    process that imports it at collection is ~100-200 MB larger for all of its ~900 real checks, and each of them
    forks it (the suite runs these modules last: tests/conftest.py)."""
    global transformers
    transformers = pytest.importorskip("transformers", reason="the cross-check needs transformers (the [crosscheck] extra)")



def greedy_generate(*args, **kwargs):
    """The reference, loaded per use under a test's own module name: nothing of it stays imported as
    `reference.…` or alive between tests (tests/judge/test_engine_reference_in_parent.py looks for both)."""
    return reference_of(catalog.get("greedy-generate"))(*args, **kwargs)


class _Out(NamedTuple):
    logits: torch.Tensor
    past_key_values: object


class _Adapter:
    """The kata's calling convention over a transformers causal LM."""

    def __init__(self, model):
        self.model = model

    def __call__(self, input_ids, past_key_values=None):
        out = self.model(input_ids=input_ids, past_key_values=past_key_values, use_cache=True)
        return _Out(out.logits, out.past_key_values)


def _tiny_llama(seed: int):
    torch.manual_seed(seed)
    config = transformers.LlamaConfig(vocab_size=40, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                                      bos_token_id=None, eos_token_id=None, pad_token_id=None)
    model = transformers.LlamaForCausalLM(config).eval()
    with torch.no_grad():  # sharper logits than the init's, so greedy paths are varied and ties are rare
        model.lm_head.weight.mul_(20.0)
    return model


def _hf(model, ids, n, eos, pad):
    with torch.no_grad():
        return model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=n,
                              min_new_tokens=0, eos_token_id=eos, pad_token_id=pad, num_beams=1, top_k=None,
                              top_p=None, temperature=None)


@pytest.mark.parametrize("seed", range(12))
def test_greedy_generate_matches_transformers_generate(seed):
    model = _tiny_llama(seed)
    g = torch.Generator().manual_seed(seed)
    B, L, n = 1 + seed % 4, 2 + seed % 5, 12
    ids = torch.randint(0, 40, (B, L), generator=g)
    free = _hf(model, ids, n, None, 0)
    with torch.no_grad():
        mine = greedy_generate(_Adapter(model), ids, n)
    assert torch.equal(mine, free)
    new = free[:, L:]
    # an eos some rows emit mid-way when there is one, else the last token of row 0 (every row finishes by then
    # only when B = 1); pad = eos on odd seeds
    candidates = [int(t) for t in new[:, 1:-1].flatten()]
    eos = candidates[seed % len(candidates)] if candidates else int(new[0, -1])
    pad = eos if seed % 2 else (eos + 1) % 40
    want = _hf(model, ids, n, eos, pad)
    with torch.no_grad():
        got = greedy_generate(_Adapter(model), ids, n, eos_token_id=eos, pad_token_id=pad)
    assert got.shape == want.shape and torch.equal(got, want), (got, want)


# ---------------------------------------------------------------- speculative-decoding vs _speculative_sampling


def test_speculative_verify_matches_transformers_speculative_sampling(monkeypatch):
    """speculative-decoding: every row of every case of the spec on seeds 1 and 2 (float64 logs of the
    probabilities as logits), one row at a time as transformers takes it, its `torch.rand_like` replaced by the
    case's uniforms and its `torch.multinomial` by a catch of the distribution it samples from.

    Measured: num_accepted identical in 625/625 rows (seeds 1 and 2, every case); the distribution the next
    token is drawn from, max abs difference 6.7e-16 (transformers takes the softmax of the logs)."""
    utils = pytest.importorskip("transformers.generation.utils")
    from checker.judge import spec as spec_api
    from checker.specs import speculative_decoding as spec
    speculative_verify = reference_of(catalog.get("speculative-decoding"))

    seen: dict = {}
    monkeypatch.setattr(torch, "rand_like", lambda like, **kw: seen["u"].to(like.dtype).reshape(like.shape))

    def catch(probs, num_samples=1, **kw):
        seen["p_prime"] = probs.clone()
        return torch.zeros(probs.shape[0], num_samples, dtype=torch.long)

    monkeypatch.setattr(torch, "multinomial", catch)
    rows = worst = 0
    for seed in (1, 2):
        for case in spec_api.build_cases(spec, seed):
            args = {k: v.double() if v.is_floating_point() else v for k, v in case.inputs.args.items()}
            for name in ("draft_probs", "target_probs"):  # rows that sum to 1 in float64, as a softmax gives
                args[name] = args[name] / args[name].sum(-1, keepdim=True)
            n, next_probs = speculative_verify(**args)
            x, q, p, u = args["draft_tokens"], args["draft_probs"], args["target_probs"], args["uniforms"]
            for b in range(x.shape[0]):
                seen["u"] = u[b]
                _, matches = utils._speculative_sampling(x[b:b + 1], q[b:b + 1].log(), x.shape[1], p[b:b + 1].log())
                assert int(matches) == int(n[b]), (case.name, b)
                worst = max(worst, float((seen["p_prime"][0] - next_probs[b]).abs().max()))
                rows += 1
    assert rows > 400 and worst < 1e-12, (rows, worst)
