"""The bpe kata's engine capability: a plain Python class (kind "class") driven by its spec's `call` hook,
with Python types checked in the child and long results carried whole, and the report's picture of the
pair counts at the first differing merge."""
from __future__ import annotations

import importlib

import numpy as np
import pytest
import torch
from rich.cells import cell_len

from checker.text import catalog, i18n
from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.judge.mistakes import roundtrip
from checker.judge.worker import load_entry

KATA = catalog.get("bpe")
SPEC = importlib.import_module(KATA.spec_module)
CASES = {c.name: c for c in spec_api.build_cases(SPEC, 1)}


def _reference():
    return load_entry(KATA.reference_path, KATA.entry, "kata_test_bpe_reference")


def _run(cls, case):
    """The learner's outcome as the parent decodes it, and the problems the spec's compare finds."""
    expected = roundtrip(SPEC.call(KATA, _reference(), case.inputs, torch.device("cpu")))
    got = roundtrip(SPEC.call(KATA, cls, case.inputs, torch.device("cpu")))
    return got, SPEC.compare(KATA, case, [expected], got)


def test_class_is_a_kind_and_bpe_uses_it():
    assert "class" in catalog.KINDS and KATA.kind == "class"
    with pytest.raises(TypeError, match="call hook"):
        spec_api.call(KATA, _reference(), CASES["three_a"].inputs, torch.device("cpu"))


def test_every_class_kata_defines_a_call_hook():
    for kata in catalog.KATAS:
        if kata.kind == "class":
            assert hasattr(importlib.import_module(kata.spec_module), "call"), kata.id


def test_the_reference_passes_and_has_over_100_cases():
    assert len(CASES) >= 100
    for name in ("minbpe_example", "long_text", "cut_multibyte", "retrain", "empty_training_text"):
        _, problems = _run(_reference(), CASES[name])
        assert problems == [], (name, problems)


def test_long_results_travel_whole():
    got, _ = _run(_reference(), CASES["long_text"])
    merges, ids, _ = got.value
    assert isinstance(merges, TensorValue) and merges.shape == (60, 3) and merges.dtype == "int64"
    assert isinstance(ids, TensorValue) and ids.shape[0] > 64


def _subclass(**methods):
    return type("BPETokenizer", (_reference(),), methods)


def _exposing(transform):
    """A right tokenizer whose `merges` attribute shows `transform(merges)` (None: no attribute at all)."""
    def train(self, text, vocab_size):
        _reference().train(self, text, vocab_size)
        self._real = self.merges
        del self.merges
        if transform is not None:
            self.merges = transform(self._real)

    def encode(self, text):
        shown = self.__dict__.pop("merges", None)
        self.merges = self._real
        try:
            return _reference().encode(self, text)
        finally:
            del self.merges
            if shown is not None:
                self.merges = shown
    return _subclass(train=train, encode=encode)


def _wrapping(method, wrap):
    def run(self, *args):
        return wrap(getattr(_reference(), method)(self, *args))
    return run


@pytest.mark.parametrize("make, item, words", [
    (lambda: _exposing(list), "merges", "is a list"),
    (lambda: _exposing(lambda m: {(str(a), str(b)): i for (a, b), i in m.items()}), "merges", "tuple of two Python ints"),
    (lambda: _exposing(lambda m: {k: float(i) for k, i in m.items()}), "merges", "a Python int"),
    (lambda: _subclass(encode=_wrapping("encode", tuple)), "ids", "is a tuple"),
    (lambda: _subclass(encode=_wrapping("encode", lambda ids: torch.tensor(ids, dtype=torch.long))), "ids", "torch.Tensor"),
    (lambda: _subclass(encode=_wrapping("encode", np.array)), "ids", "numpy.ndarray"),
    (lambda: _subclass(encode=_wrapping("encode", lambda ids: [np.int64(i) for i in ids])), "ids", "(int64)"),
    (lambda: _subclass(decode=_wrapping("decode", lambda s: s.encode("utf-8"))), "decoded", "is a bytes"),
])
def test_types_are_checked_in_the_child(make, item, words):
    _, problems = _run(make(), CASES["minbpe_example"])
    mine = [p for p in problems if p.item == item]
    assert mine and mine[0].kind == "type" and words in mine[0].message, problems


def test_no_merges_attribute():
    _, problems = _run(_exposing(None), CASES["three_a"])
    assert problems[0].item == "merges" and "self.merges" in problems[0].message


def test_a_raise_in_train_is_an_answer_only_where_the_text_runs_out_of_pairs():
    def train(self, text, vocab_size):
        if len(text.encode("utf-8")) < vocab_size - 256 + 1:
            raise ValueError("max() arg is an empty sequence")
        _reference().train(self, text, vocab_size)
    got, problems = _run(_subclass(train=train), CASES["runs_out_of_pairs"])
    assert len(problems) == 1 and "ValueError" in problems[0].message and "fewer than 2 tokens" in problems[0].message
    with pytest.raises(ValueError):  # elsewhere a raise is the learner's error, with its traceback
        SPEC.call(KATA, _subclass(train=train), _more_merges_than_bytes(),
                  torch.device("cpu"))

    def stub(self, text, vocab_size):
        raise NotImplementedError("write train")
    with pytest.raises(NotImplementedError):
        SPEC.call(KATA, _subclass(train=stub), CASES["runs_out_of_pairs"].inputs, torch.device("cpu"))


def _more_merges_than_bytes():
    """three_a's inputs asking for more merges than "aaa" has bytes, without the case's runs-out mark."""
    inputs = CASES["three_a"].inputs
    return spec_api.Inputs(args={**inputs.args, "vocab_size": 270}, show={})


def test_decode_strict_is_an_answer_and_an_unknown_id_points_at_merges():
    strict = _subclass(decode=lambda self, ids: b"".join(self.vocab[i] for i in ids).decode("utf-8"))
    _, problems = _run(strict, CASES["cut_multibyte"])
    assert any("UnicodeDecodeError" in p.message and "errors=\"replace\"" in p.message for p in problems)

    def short(self, text, vocab_size):
        _reference().train(self, text, max(256, vocab_size - 3))
    _, problems = _run(_subclass(train=short), CASES["long_text"])
    assert problems[0].item == "merges" and "you made 57 merges, expected 60" in problems[0].message


def test_the_digest_tells_any_difference():
    same, _ = _run(_reference(), CASES["cut_multibyte"])
    again, _ = _run(_reference(), CASES["cut_multibyte"])
    ignore = _subclass(decode=lambda self, ids: b"".join(self.vocab[i] for i in ids).decode("utf-8", "ignore"))
    other, _ = _run(ignore, CASES["cut_multibyte"])
    assert same.extras[SPEC.DIGEST] == again.extras[SPEC.DIGEST] != other.extras[SPEC.DIGEST]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_first_differing_merge_is_pictured_within_60_columns(lang):
    non_overlapping = next(m.fn for m in SPEC.MISTAKES if m.key == "non_overlapping_counts")
    with i18n.speaking(lang):
        _, problems = _run(non_overlapping, CASES["overlap_decides"])
    said = problems[0].message
    lines = said.splitlines()
    assert problems[0].item == "merges" and "(97, 97)" in lines[0] and "(98, 99)" in lines[0]
    rows = {line.split()[0] + line.split()[1]: line for line in lines if line.startswith("  (")}
    assert rows["(97,97)"].split()[4:6] == ["2", "0"] and rows["(98,99)"].split()[4:6] == ["2", "4"]
    assert rows["(97,97)"].endswith(i18n.tr("expected") if lang == "en" else "期望")
    assert rows["(98,99)"].endswith("yours" if lang == "en" else "你的")
    assert all(cell_len(line) <= 56 for line in lines[1:]), lines  # inside a 60-column panel


def test_ids_problems_show_the_text_and_the_first_difference():
    right_to_left = next(m.fn for m in SPEC.MISTAKES if m.key == "replace_right_to_left")
    _, problems = _run(right_to_left, CASES["three_a"])
    first = next(p for p in problems if p.item == "ids")
    assert "encode('aaa')" in first.message and "[256, 97]" in first.message and "[97, 256]" in first.message
