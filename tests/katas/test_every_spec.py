"""What every kata's spec owes, whatever its family: at least 100 cases with unique names, the named
families before the random draws, a device family that tracks devices (a torch kata), and inputs that depend only on
the seed and the case's name (so a reproduce command replays the case)."""
from __future__ import annotations

import pytest
import torch

from checker.judge import spec as spec_api
from checker.text import catalog
from tests.spec_support import cases, one_thread, spec_of  # noqa: F401 — one_thread: an autouse fixture

KATAS = [k.id for k in catalog.KATAS]


@pytest.mark.parametrize("kata_id", KATAS)
def test_enough_cases_named_first_and_a_device_family(kata_id):
    spec = spec_of(kata_id)
    names = spec_api.case_names(spec)
    assert len(names) >= 100, f"{kata_id} has {len(names)} cases"
    assert len(set(names)) == len(names), f"{kata_id}: two cases share a name"
    families = [f.name for f in spec.FAMILIES if not f.track_device]
    tail = len(families)
    while tail and families[tail - 1].startswith("random"):
        tail -= 1
    assert "random" not in families[:tail] and tail < len(families), f"{kata_id}: a named family after the random draws"
    tensors = any(isinstance(v, torch.Tensor) for c in cases(kata_id) for v in c.inputs.args.values())
    if tensors and not catalog.get(kata_id).numpy_only:
        assert any(f.track_device for f in spec.FAMILIES), f"{kata_id}: no device family that tracks devices"


@pytest.mark.parametrize("kata_id", KATAS)
def test_inputs_depend_only_on_seed_and_name(kata_id):
    def flat(drawn):
        return [(c.name, k, v) for c in drawn for k, v in sorted(c.inputs.args.items())]

    for (n1, k1, a), (n2, k2, b) in zip(flat(cases(kata_id, 5)), flat(cases(kata_id, 5)), strict=True):
        assert (n1, k1) == (n2, k2)
        assert torch.equal(a, b) if isinstance(a, torch.Tensor) else repr(a) == repr(b), f"{kata_id}: {n1}.{k1}"
    one = [c for c in cases(kata_id, 5) if c.family.name.startswith("random")]
    other = [c for c in cases(kata_id, 6) if c.family.name.startswith("random")]
    assert any(repr(a.inputs.args) != repr(b.inputs.args) for a, b in zip(one, other)), f"{kata_id}: seeds draw alike"
