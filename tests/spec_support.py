"""What the spec tests of every kata family share: the spec and reference of a kata, its cases, and
an outcome as the parent sees it (encoded by a child, decoded again)."""
from __future__ import annotations

import copy
import functools
import importlib
from dataclasses import replace

import pytest
import torch

from checker.text import catalog
from checker.judge import spec as spec_api
from checker.judge.mistakes import roundtrip  # noqa: F401 — what the parent sees of a child's outcome
from checker.judge.worker import load_entry
from tests.conftest import built_cases

CPU = torch.device("cpu")


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny tensors: threads only add contention (the checker's children run on one thread too)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def spec_of(kata_id: str):
    return importlib.import_module(catalog.get(kata_id).spec_module)


@functools.lru_cache(maxsize=None)
def reference_of(kata: catalog.Kata):
    return load_entry(kata.reference_path, kata.entry, f"test_reference_{kata.module}")


def fresh(inputs: spec_api.Inputs) -> spec_api.Inputs:
    """A copy whose tensors the code under test may not share with the case (RUN_DEVICE stays itself)."""
    return replace(inputs, args=copy.deepcopy(inputs.args))


def cases(kata_id: str, seed: int = 1) -> list[spec_api.Case]:
    return built_cases(spec_of(kata_id), seed)


def family(kata_id: str, name: str, seed: int = 1) -> list[spec_api.Case]:
    return [c for c in cases(kata_id, seed) if c.family.name == name]


class lazy_module:  # noqa: N801 — stands where a module object stood
    """A cross-check's library (transformers, scikit-learn), imported by the first test that uses it, or that test
    skipped when it is missing (`pytest.importorskip`): not at collection, where every xdist worker would import it
    for tests another worker runs (transformers alone is 3-5 s of a worker's collection)."""

    def __init__(self, name: str, reason: str | None = None) -> None:
        self._name, self._reason = name, reason

    def __getattr__(self, attr: str):
        if attr.startswith(("__", "_pytest", "_mock")):  # what pytest's collection asks of every module-level name
            raise AttributeError(attr)
        return getattr(pytest.importorskip(self._name, reason=self._reason), attr)
