"""vit-patch-embed's own rules: the contract's state_dict, row-major tokens with the class token first (checked
against patches sliced by hand), every patchify the contract accepts agreeing with the reference, the suite's size
and named families, and each known mistake failing a named case (not only the random draws) on several seeds."""
from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from checker.judge import spec as spec_api
from checker.specs import vit_patch_embed as spec
from checker.text import catalog
from tests.namer import first_failing_named_case
from tests.spec_support import reference_of

PatchEmbedding = reference_of(catalog.get("vit-patch-embed"))  # loaded by path, never as `reference.*`

KATA = catalog.get("vit-patch-embed")


def _loaded(img, p, C, D, class_token=True, seed=0):
    module = PatchEmbedding(img, p, C, D, class_token)
    params = spec.weights(torch.Generator().manual_seed(seed), img, p, C, D, class_token)
    spec_api.load_params(module, params)
    return module.double()


def test_state_dict_is_the_contracts():
    shapes = lambda m: {k: tuple(v.shape) for k, v in m.state_dict().items()}  # noqa: E731
    assert shapes(PatchEmbedding(224, 16, 3, 768)) == {"proj.weight": (768, 3, 16, 16), "proj.bias": (768,),
                                                       "cls_token": (1, 1, 768), "pos_embed": (1, 197, 768)}
    assert shapes(PatchEmbedding((8, 24), 4, 5, 6, class_token=False)) == {"proj.weight": (6, 5, 4, 4),
                                                                           "proj.bias": (6,), "pos_embed": (1, 12, 6)}


@pytest.mark.parametrize("img,p,class_token", [((12, 20), 4, True), (8, 2, False), (6, 6, True)])
def test_tokens_are_row_major_with_the_class_token_first(img, p, class_token):
    C, D = 3, 5
    module = _loaded(img, p, C, D, class_token)
    H, W = (img, img) if isinstance(img, int) else img
    x = torch.randn(2, C, H, W, dtype=torch.float64)
    out = module(x)
    w, b = module.proj.weight, module.proj.bias
    tokens = [(x[:, None, :, i * p:(i + 1) * p, j * p:(j + 1) * p] * w).sum((2, 3, 4)) + b
              for i in range(H // p) for j in range(W // p)]
    seq = torch.stack(tokens, 1)
    if class_token:
        seq = torch.cat([module.cls_token.expand(2, -1, -1), seq], 1)
    torch.testing.assert_close(out, seq + module.pos_embed, rtol=1e-12, atol=1e-12)


def test_an_unfold_patchify_equals_the_conv_and_a_p1p2c_one_needs_the_weight_permuted():
    module = _loaded((8, 12), 4, 3, 6, class_token=False)
    x = torch.randn(2, 3, 8, 12, dtype=torch.float64)
    want = module(x) - module.pos_embed
    cols = F.unfold(x, 4, stride=4).transpose(1, 2)
    torch.testing.assert_close(cols @ module.proj.weight.flatten(1).T + module.proj.bias, want)
    p1p2c = x.reshape(2, 3, 2, 4, 3, 4).permute(0, 2, 4, 3, 5, 1).reshape(2, 6, 48)
    permuted = module.proj.weight.permute(0, 2, 3, 1).flatten(1)
    torch.testing.assert_close(p1p2c @ permuted.T + module.proj.bias, want)
    assert not torch.allclose(p1p2c @ module.proj.weight.flatten(1).T + module.proj.bias, want)


def test_x_is_not_modified_and_gradients_reach_every_parameter():
    module = _loaded(8, 4, 2, 4)
    x = torch.randn(2, 2, 8, 8, dtype=torch.float64, requires_grad=True)
    before = x.detach().clone()
    module(x).sum().backward()
    assert torch.equal(x.detach(), before)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in module.parameters())


def test_the_suite_has_over_100_cases_and_every_family_a_sentence():
    cases = spec_api.build_cases(spec, 1)
    assert len(cases) >= 100
    families = {f.name for f in spec.FAMILIES}
    for lang in ("en", "zh"):
        assert set(KATA.text(lang).families) == families, lang
    assert len({m.key for m in spec.MISTAKES}) >= 8


@pytest.mark.parametrize("mistake", spec.MISTAKES, ids=lambda m: m.key)
def test_every_known_mistake_fails_a_named_case(mistake):
    for seed in (0, 1, 2):
        assert first_failing_named_case(KATA, mistake.fn, seed) is not None, (mistake.key, seed)
