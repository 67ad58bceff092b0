"""greedy-generate's engine capability: a tiny model handed to the learner, its calls recorded and judged in
words; the EOS cases found from the model's own greedy run; misuse of the model said clearly."""
from __future__ import annotations

import pytest
import torch

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.judge.mistakes import roundtrip
from checker.specs import greedy_generate as spec
from checker.specs._tinylm import VOCAB, TinyLM, TinyLMSpec, calls_of, free_run
from tests.spec_support import reference_of



def reference(*args, **kwargs):
    """The reference, loaded per use under a test's own module name: nothing of it stays imported as
    `reference.…` or alive between tests (tests/judge/test_engine_reference_in_parent.py looks for both)."""
    return reference_of(catalog.get("greedy-generate"))(*args, **kwargs)

from tests.conftest import run_check  # noqa: E402

KATA = catalog.get("greedy-generate")
CPU = torch.device("cpu")


def _model(dtype=torch.float32) -> TinyLM:
    return TinyLM(TinyLMSpec(7, dtype), CPU)


# ---------------------------------------------------------------- the model follows Hugging Face's convention


def test_the_model_takes_every_calling_form_and_returns_a_named_tuple():
    ids = torch.randint(0, VOCAB, (2, 4), generator=torch.Generator().manual_seed(0))
    model = _model()
    out = model(ids)
    logits, past = out
    assert logits is out.logits and past is out.past_key_values
    assert logits.shape == (2, 4, VOCAB) and logits.dtype == torch.float32 and len(past) == 4
    nxt = logits[:, -1].argmax(-1, keepdim=True)
    a = model(nxt, past_key_values=past).logits
    b = model(nxt, past).logits  # the cache by position
    c = model(input_ids=nxt, past_key_values=past, use_cache=True).logits  # input_ids= and use_cache
    assert torch.equal(a, b) and torch.equal(a, c)
    assert calls_of(model) == [(2, 4, -1), (2, 1, 0), (2, 1, 0), (2, 1, 0)]


def test_the_record_of_calls_is_out_of_the_learner_s_reach():
    # A loop that ignores the cache, then writes itself a clean record, must not pass (issue 31): the record
    # is not on the model, and the model takes no new attributes.
    model = _model()
    model(torch.zeros(1, 3, dtype=torch.int64))
    assert not hasattr(model, "calls") and not hasattr(model, "__dict__")
    with pytest.raises(AttributeError):
        model.calls = [(1, 3, -1)]
    assert calls_of(model) == [(1, 3, -1)]


def test_the_cache_gives_the_same_logits_as_the_whole_sequence():
    ids = torch.randint(0, VOCAB, (3, 6), generator=torch.Generator().manual_seed(1))
    model = _model(torch.float64)
    whole = model(ids).logits
    past, steps = None, []
    for t in range(6):
        out = model(ids[:, t:t + 1], past_key_values=past)
        past = out.past_key_values
        steps.append(out.logits)
    assert torch.allclose(torch.cat(steps, dim=1), whole, rtol=0, atol=1e-12)


@pytest.mark.parametrize("misuse, words", [
    (lambda m, ids, past: m(ids[:, 0], past), "[:, None]"),
    (lambda m, ids, past: m(ids.float()), "int64"),
    (lambda m, ids, past: m(ids + VOCAB), "outside the vocabulary"),
    (lambda m, ids, past: m(ids.tolist()), "int64 tensor"),
    (lambda m, ids, past: m(ids[:, :1], (past.key, past.value)), "past_key_values"),
    (lambda m, ids, past: m(ids[:1, :1], past), "every call passes all the batch's rows"),
    (lambda m, ids, past: m(ids, past=past), "past_key_values="),
    (lambda m, ids, past: m(ids, attention_mask=None), "unknown argument"),
    (lambda m, ids, past: m(ids, past, True), "positional arguments"),
    (lambda m, ids, past: m(ids, input_ids=ids), "twice"),
    (lambda m, ids, past: m(), "without input_ids"),
    (lambda m, ids, past: TinyLM(TinyLMSpec(7), CPU)(ids[:, :1], past), "past_key_values"),  # another model's cache
])
def test_misuse_of_the_model_is_a_clear_value_error(misuse, words):
    ids = torch.randint(0, VOCAB, (2, 3), generator=torch.Generator().manual_seed(2))
    model = _model()
    past = model(ids).past_key_values
    with pytest.raises(ValueError, match="the model was called") as raised:
        misuse(model, ids, past)
    assert words in str(raised.value)


def test_a_file_that_misuses_the_model_gets_the_model_s_words_not_a_checker_traceback(tmp_path):
    path = tmp_path / "greedy_generate.py"
    path.write_text("# kata: greedy-generate\nimport torch\n\n\n"
                    "def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):\n"
                    "    logits, past = model(input_ids)\n"
                    "    nxt = logits[:, -1].argmax(-1)\n"
                    "    logits, past = model(nxt, past)\n"
                    "    return input_ids\n")
    result = run_check(path, "greedy-generate", case="no_eos")
    (case,) = result.cases
    assert case.error.type == "ValueError" and "the model was called with input_ids of shape (3,)" in case.error.message
    assert "_tinylm" not in case.error.traceback and "greedy_generate.py" in case.error.traceback


# ---------------------------------------------------------------- the calls, judged in words


def _judge(fn, name="eos_every_row_early", seed=3):
    (case,) = spec_api.build_cases(spec, seed, name)
    expected = roundtrip(spec.call(KATA, reference, case.inputs, CPU))
    got = roundtrip(spec.call(KATA, fn, case.inputs, CPU))
    return spec.compare(KATA, case, [expected], got)


def _loop(cache="yes", extra=0, stale=False):
    def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
        logits, past = model(input_ids)
        first, seq = past, input_ids
        unfinished = torch.ones(input_ids.shape[0], dtype=torch.bool)
        for step in range(max_new_tokens):
            nxt = torch.where(unfinished, logits[:, -1].argmax(-1), pad_token_id)
            if eos_token_id is not None:
                unfinished &= nxt != eos_token_id
            seq = torch.cat([seq, nxt[:, None]], 1)
            if step + 1 == max_new_tokens or not unfinished.any():
                break
            if cache == "none":
                logits, past = model(seq)
            else:
                logits, past = model(nxt[:, None], first if stale and step > 0 else past)
        for _ in range(extra):
            logits, past = model(seq[:, -1:], past)
        return seq
    return greedy_generate


def test_the_calls_are_judged_by_the_contract_and_said_in_words():
    assert _judge(_loop()) == []
    assert _judge(_loop(extra=1)) == []  # one last call on the final token is accepted
    (problem,) = _judge(_loop(extra=3))
    assert problem.item == "calls" and problem.message.startswith("3 calls after the last token")
    (problem,) = _judge(_loop(cache="none"))
    assert problem.message.startswith("call 1 passed 4 tokens and no cache")
    assert problem.message.splitlines()[1].endswith("#0 3 #1 4")  # the calls made, in one line
    said = [p.message.splitlines()[0] for p in _judge(_loop(stale=True), "no_eos")]
    assert "the cache passed at call 2 is not the one call 1 returned (it is call 0's)" in said


def test_the_model_is_never_called_is_said():
    def lazy(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
        return input_ids
    said = [p.message.splitlines()[0] for p in _judge(lazy)]
    assert "the model was never called" in said


# ---------------------------------------------------------------- cases found from the model's own run


def _generated(case):
    out = spec.call(KATA, reference, case.inputs, CPU).value[0]
    return out[:, case.inputs.args["input_ids"].shape[1]:]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_eos_cases_are_what_their_names_say(seed):
    cases = {c.name: c for c in spec_api.build_cases(spec, seed)}
    for name in ("eos_every_row_early", "pad_equals_eos_early_stop", "batch_of_one_eos", "float64_early_stop"):
        case = cases[name]
        assert _generated(case).shape[1] < case.inputs.args["max_new_tokens"], name  # the early stop shows
    eos = cases["eos_first_token"].inputs.args["eos_token_id"]
    assert (_generated(cases["eos_first_token"])[:, 0] == eos).any()
    case = cases["eos_never_emitted"]
    assert not (_generated(case) == case.inputs.args["eos_token_id"]).any()
    case = cases["one_row_finishes"]
    assert int((_generated(case) == case.inputs.args["eos_token_id"]).any(dim=1).sum()) == 1
    case = cases["eos_mid_way"]
    hit = (_generated(case) == case.inputs.args["eos_token_id"]).any(dim=1)
    assert 0 < int(hit.sum()) < hit.numel()
    assert cases["pad_equals_eos"].inputs.args["pad_token_id"] == cases["pad_equals_eos"].inputs.args["eos_token_id"]


def test_every_case_s_greedy_path_is_clear_and_the_tie_is_met():
    for case in spec_api.build_cases(spec, 5):
        model, ids = case.inputs.args["model"], case.inputs.args["input_ids"]
        run, gap = free_run(model, ids, case.inputs.args["max_new_tokens"])
        assert gap >= spec.GAP, case.name
        if model.tie is not None:
            assert (run == model.tie[0]).any(), case.name
    last = spec.MISTAKES[[m.key for m in spec.MISTAKES].index("last_index_on_ties")].fn
    (case,) = spec_api.build_cases(spec, 5, "tied_logits")
    right = spec.call(KATA, reference, case.inputs, CPU).value[0]
    assert not torch.equal(spec.call(KATA, last, case.inputs, CPU).value[0], right)


# ---------------------------------------------------------------- speculative-decoding: forced outcomes


def _accepts(args):
    x = args["draft_tokens"]
    K = x.shape[1]
    p = args["target_probs"][:, :K].double().gather(-1, x[..., None]).squeeze(-1)
    q = args["draft_probs"].double().gather(-1, x[..., None]).squeeze(-1)
    return args["uniforms"].double() <= p / q, (args["uniforms"].double() - p / q).abs()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_speculative_cases_force_the_outcomes_their_names_say(seed):
    from checker.specs import speculative_decoding as sd

    cases = {c.name: c for c in spec_api.build_cases(sd, seed)}
    assert len(cases) >= 100
    for case in cases.values():
        accepted, gap = _accepts(case.inputs.args)
        assert bool((gap > 1e-6).all()), case.name  # no uniform near its ratio: < and <= agree
        assert case.inputs.args["draft_probs"].double().gather(-1, case.inputs.args["draft_tokens"][..., None]).min() > 0
    pattern = {"all_accepted": "AAAA", "first_rejected": "RAAA", "accept_after_reject": "ARAAA",
               "k1_accepted": "A", "k1_rejected": "R", "ratio_above_one": "AAAA", "target_equals_draft": "AAAA"}
    for name, want in pattern.items():
        accepted, _ = _accepts(cases[name].inputs.args)
        assert all("".join("A" if a else "R" for a in row) == want for row in accepted.tolist()), name
    accepted, _ = _accepts(cases["rows_with_every_outcome"].inputs.args)
    assert accepted.long().cumprod(-1).sum(-1).tolist() == [0, 1, 2, 3, 4]
    args = cases["target_zero_at_draft"].inputs.args
    x = args["draft_tokens"]
    assert (args["target_probs"][:, 1].gather(-1, x[:, 1:2]) == 0).all()
    args = cases["target_equals_draft"].inputs.args
    assert torch.equal(args["target_probs"][:, :-1], args["draft_probs"])


def test_a_wrong_count_is_shown_with_the_row_s_ratios_and_uniforms():
    from checker.specs import speculative_decoding as sd
    speculative_verify = reference_of(catalog.get("speculative-decoding"))

    kata = catalog.get("speculative-decoding")
    (case,) = spec_api.build_cases(sd, 1, "accept_after_reject")
    every = sd.MISTAKES[[m.key for m in sd.MISTAKES].index("every_accept_counted")].fn
    expected = roundtrip(spec_api.call(kata, speculative_verify, case.inputs, CPU))
    got = roundtrip(spec_api.call(kata, every, case.inputs, CPU))
    (problem,) = [p for p in sd.compare(kata, case, [expected], got) if p.item == "num_accepted"]
    lines = problem.message.splitlines()
    assert lines[1].startswith("row 0: num_accepted is ") and lines[1].endswith("expected 1")
    assert [line.split()[-1] for line in lines[3:8]] == ["accept", "reject", "accept", "accept", "accept"]
