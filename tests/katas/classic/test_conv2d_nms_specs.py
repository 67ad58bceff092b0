"""The conv2d and nms specs (classic family, branch convnms): what their cases promise, the bans the
static checker must find, and the NMS picture (its content, and that it fits a 60-column report panel in
English and Chinese)."""
from __future__ import annotations

import ast
import importlib

import pytest
import torch
from rich.cells import cell_len

from checker.text import catalog, i18n
from checker.judge import spec as spec_api
from checker.judge.codec import TensorValue
from checker.specs.pictures.nms import nms_picture
from checker.judge.spec import Outcome
from checker.judge.static import banned_uses
from checker.judge.worker import load_entry

PANEL = 56  # cells inside a report panel's border at COLUMNS=60


def _spec(kata_id):
    return importlib.import_module(catalog.get(kata_id).spec_module)


def _reference(kata_id):
    kata = catalog.get(kata_id)
    return load_entry(kata.reference_path, kata.entry, f"convnms_{kata.module}")


# ---------------------------------------------------------------- conv2d


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_conv2d_cases_probe_the_whole_output_and_every_given_tensor(seed):
    """A probe of another shape would make the gradients silently those of .sum(): every case's probe
    has the output's shape, and grad_of names x, weight and the bias exactly when a bias tensor is given."""
    spec, conv2d = _spec("conv2d"), _reference("conv2d")
    cases = spec_api.build_cases(spec, seed)
    assert len(cases) >= 100
    for case in cases:
        args = case.inputs.args
        out = conv2d(**args)
        assert case.inputs.probe is not None and case.inputs.probe.shape == out.shape, case.name
        wants = {"x", "weight"} | ({"bias"} if isinstance(args.get("bias"), torch.Tensor) else set())
        assert set(case.inputs.grad_of) == wants, case.name
        assert out.dtype == args["x"].dtype


def test_conv2d_tolerance_grows_with_the_largest_expected_value():
    spec = _spec("conv2d")
    case = spec_api.build_cases(spec, 1, only="pad1_3x3")[0]
    small = spec.tolerance_for(case, "output", torch.float32, torch.tensor([0.5, -0.25]))
    large = spec.tolerance_for(case, "grad of weight", torch.float32, torch.tensor([40.0, -3.0]))
    assert small == spec_api.TOLERANCES[torch.float32]
    assert large == (spec_api.TOLERANCES[torch.float32][0], spec_api.TOLERANCES[torch.float32][1] * 40)


BANNED_USES = [
    "import torch.nn.functional as F\nF.conv2d(x, w)",
    "from torch.nn.functional import conv2d as c\nc(x, w)",
    "import torch\ntorch.conv2d(x, w)",
    "import torch as T\nT.convolution(x, w, None, [1], [0], [1], False, [0], 1)",
    "import torch\ntorch._convolution(x)",
    "from torch import nn\nnn.Conv2d(3, 4, 3)",
    "from torch.nn import ConvTranspose2d\n",
    "import torch.nn.functional as F\nF.unfold(x, 3)",
    "from torch.nn import functional as F\nF.fold(x, (4, 4), 3)",
    "import torch\ntorch.nn.Unfold(3)",
    "import torch\ntorch.ops.aten.convolution(x)",
    "import torch\ntorch._C._nn.im2col(x)",
    "import torch\nG = torch.nn.functional\nG.conv2d(x, w)",
    "import torch.nn.functional as F\ngetattr(F, 'conv2d')(x, w)",
    "from scipy.signal import correlate2d\n",
    "import scipy.ndimage as nd\nnd.correlate(x, w)",
    "from torch import _VF\n_VF.conv2d(x, w)",
]


@pytest.mark.parametrize("source", BANNED_USES)
def test_conv2d_bans_are_found_through_aliases_and_from_imports(source):
    assert banned_uses(ast.parse(source), catalog.get("conv2d").banned), source


def test_conv2d_allows_what_the_contract_allows():
    source = ("import torch\nimport torch.nn.functional as F\nxp = F.pad(x, (1, 1, 1, 1))\n"
              "win = xp.unfold(2, 3, 1).unfold(3, 3, 1)\nv = xp.as_strided((1,), (1,))\n"
              "y = torch.einsum('nchwpq,ocpq->nohw', win, w) + torch.matmul(a, b)\n")
    assert banned_uses(ast.parse(source), catalog.get("conv2d").banned) == []
    for source in ("import torch\ny = torch.Tensor.unfold(x, 2, 3, 1)", "from torch import Tensor\ny = Tensor.unfold(x, 2, 3, 1)"):
        assert banned_uses(ast.parse(source), catalog.get("conv2d").banned) == [], source  # the method, not F.unfold


# ---------------------------------------------------------------- nms: the cases


def test_nms_exact_cases_have_the_ious_they_claim():
    spec = _spec("nms")
    iou = lambda rows: spec.iou_matrix(torch.tensor(rows, dtype=torch.float32))  # noqa: E731
    assert float(iou(spec.AT_THRESHOLD[0])[0, 1]) == 0.5
    assert float(iou(spec.JUST_ABOVE[0])[0, 1]) == 0.5078125
    chain = iou(spec.CHAIN[0])
    assert float(chain[0, 1]) == float(chain[1, 2]) == 0.6 and float(chain[0, 2]) < 0.5
    assert float(iou(spec.NESTED[0])[0, 1]) == 0.25
    assert float(iou(spec.TOUCHING[0])[0, 1]) == 0.0 and float(iou(spec.DUPLICATES[0])[0, 1]) == 1.0
    d = torch.tensor(spec.DISJOINT[0])
    assert (d[0, 2] < d[1, 0]) and (d[0, 3] < d[1, 1])  # apart on both axes


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_nms_random_float_draws_keep_every_iou_away_from_the_threshold(seed):
    spec, nms = _spec("nms"), _reference("nms")
    cases = spec_api.build_cases(spec, seed)
    assert len(cases) >= 100
    for case in cases:
        args = case.inputs.args
        keep = nms(**args)
        assert keep.dtype == torch.int64 and keep.dim() == 1
        if case.family.name in ("random", "random_ties", "random_float64", "float64", "large_coordinates", "device"):
            iou = spec.iou_matrix(args["boxes"])
            off = ~torch.eye(len(iou), dtype=torch.bool)
            assert bool(((iou - args["iou_threshold"]).abs()[off] >= spec.MARGIN).all()), case.name


def test_nms_ties_in_random_draws_are_real():
    spec = _spec("nms")
    cases = spec_api.build_cases(spec, 1, only="random_ties")
    assert sum(len(c.inputs.args["scores"]) - len(set(c.inputs.args["scores"].tolist())) for c in cases) > 20


# ---------------------------------------------------------------- nms: the report


def _judge(family, keep, seed=1):
    """The spec's compare hook on one case of `family`, the learner's answer being `keep`."""
    kata, spec = catalog.get("nms"), _spec("nms")
    kata.text("zh")  # registers the kata's own translations, as a check does
    case = spec_api.build_cases(spec, seed, only=family)[0]
    expected = _reference("nms")(**case.inputs.args)
    as_value = lambda t: TensorValue(t, str(t.dtype).removeprefix("torch."), tuple(t.shape), "cpu")  # noqa: E731
    return case, expected, spec.compare(kata, case, [Outcome(as_value(expected))], Outcome(as_value(keep)))


def test_the_picture_says_who_suppressed_whom_in_visiting_order():
    case, _, _ = _judge("chain", torch.tensor([0]))
    order = torch.sort(case.inputs.args["scores"], descending=True, stable=True).indices.tolist()
    a, b, c = order[:3]  # A suppresses B; C survives
    _, _, problems = _judge("chain", torch.tensor([a, order[3]]))
    (problem,) = problems
    text = problem.message
    assert problem.kind == "rule" and "2 boxes kept, expected 3" in text and f"yours drops [{c}]" in text
    rows = text.splitlines()[2:]  # the sentence, the picture's head, then one row per visited box
    assert rows[0].split()[:2] == ["1", str(a)] and "kept #1" in rows[0]
    assert f"cut by {a} (IoU 0.6000)" in rows[1] and "✗" not in rows[1]
    assert "kept #2" in rows[2] and rows[2].rstrip().endswith("✗")
    assert "IoU > 0.5 suppresses a box; IoU = 0.5 keeps it" in text


def test_the_right_boxes_in_index_order_are_said_to_be_out_of_order():
    _, expected, _ = _judge("iou_at_threshold_kept", torch.tensor([0]))
    _, _, problems = _judge("iou_at_threshold_kept", expected.sort().values)
    assert "the right boxes, in the wrong order" in problems[0].message


@pytest.mark.parametrize("keep,says", [([0, 7], "not a box index"), ([1, 1], "appears 2 times")])
def test_indices_that_cannot_be_boxes_are_said_plainly(keep, says):
    _, _, problems = _judge("chain", torch.tensor(keep))
    assert says in problems[0].message and "\n" not in problems[0].message


def test_a_float_or_int32_answer_gets_the_structure_message():
    _, expected, _ = _judge("chain", torch.tensor([0]))
    _, _, problems = _judge("chain", expected.float())
    assert problems[0].kind == "dtype"
    _, _, problems = _judge("chain", expected.int())
    assert problems[0].kind == "dtype"
    _, _, problems = _judge("chain", expected)
    assert problems == []


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_picture_fits_a_60_column_panel(lang):
    """The widest rows: two-digit box numbers and places, a cut-by row with a two-digit suppressor."""
    catalog.get("nms").text(lang)
    visit = list(range(39, -1, -1))
    scores = [i / 40 for i in range(40)]
    want = [39, 37] + list(range(35, -1, -1))
    have = [39, 38] + list(range(35, 0, -1))
    suppressor = {38: (39, 0.61234), 36: (37, 0.98765)}
    with i18n.speaking(lang):
        text = nms_picture(visit, scores, want, have, suppressor, 0.5)
        head = i18n.tr("{n} boxes kept, expected {want}: {detail}", n=37, want=38, detail="x")
    lines = text.splitlines()
    assert len(lines) <= 12 and head
    widest = max(cell_len(line) for line in lines)
    assert widest <= PANEL, f"{lang}: {widest} cells\n{text}"
    assert any("✗" in line for line in lines)
