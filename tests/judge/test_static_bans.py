"""Banned calls are found by reading the syntax tree, through any import alias; nothing else is."""
from __future__ import annotations

import subprocess
import sys

import pytest

from checker.text import catalog
from checker.judge import static
from tests.conftest import ROOT

ATT = catalog.get("attention").all_banned
SOFTMAX = catalog.get("softmax").all_banned


@pytest.mark.parametrize("source", [
    "import torch.nn.functional as F\ny = F.scaled_dot_product_attention(q, k, v)",
    "import torch\ny = torch.nn.functional.scaled_dot_product_attention(q, k, v)",
    "from torch.nn.functional import scaled_dot_product_attention as sdpa\ny = sdpa(q, k, v)",
    "from torch.nn import functional\ny = functional.scaled_dot_product_attention(q, k, v)",
    "from torch import nn\nm = nn.MultiheadAttention(8, 2)",
    "import torch.nn as nn\nm = nn.MultiheadAttention(8, 2)",
    "from torch.nn import MultiheadAttention",
    "import torch.nn.functional as F\nF.multi_head_attention_forward",
    "from reference.attention import ScaledDotProductAttention",
    "import checker.judge.engine",
])
def test_banned_calls_are_found(source):
    assert static.banned_uses(__import__("ast").parse(source), ATT)


@pytest.mark.parametrize("source", [
    "import torch\nF = torch.nn.functional\ny = F.scaled_dot_product_attention(q, k, v)",
    "import torch.nn.functional as F\nG = F\nH = G\ny = H.scaled_dot_product_attention(q, k, v)",
    "from torch.nn.functional import *\ny = scaled_dot_product_attention(q, k, v)",
    "from torch.nn import *\nm = MultiheadAttention(8, 2)",
    "import torch\nsdpa = getattr(torch.nn.functional, 'scaled_dot_product_attention')",
    "import torch.nn.functional as F\ny = getattr(F, 'scaled_dot_product_attention')(q, k, v)",
])
def test_assigned_starred_and_getattr_aliases_are_followed(source):
    assert static.banned_uses(__import__("ast").parse(source), ATT)


@pytest.mark.parametrize("source", [
    "from torch.nn.functional import *\ndef scaled_dot_product_attention(q, k, v):\n    return softmax(q @ k.T, -1) @ v",
    "import torch\nF = torch.nn.functional\nw = F.softmax(s, dim=-1)",
    "import torch\nsm = getattr(torch, 'softmax')",
])
def test_followed_aliases_flag_only_banned_names(source):
    assert not static.banned_uses(__import__("ast").parse(source), ATT)


@pytest.mark.parametrize("source", [
    "import torch\nimport torch.nn.functional as F\nw = F.softmax(s, dim=-1)\nd = F.dropout(w, 0.1)",
    "import torch.nn as nn\nlin = nn.Linear(4, 4)\nattn = None",
    "checker = 3\nx = checker + 1",
    "def scaled_dot_product_attention(q, k, v):\n    return q",
])
def test_allowed_code_is_not_flagged(source):
    assert not static.banned_uses(__import__("ast").parse(source), ATT)


@pytest.mark.parametrize("source", ["import torch", "from torch import softmax", "import scipy.special\nscipy.special.softmax(x)",
                                    "from scipy.special import softmax"])
def test_softmax_is_numpy_only(source):
    assert static.banned_uses(__import__("ast").parse(source), SOFTMAX)


def test_numpy_softmax_is_allowed():
    assert not static.banned_uses(__import__("ast").parse("import numpy as np\ne = np.exp(x - x.max())"), SOFTMAX)


def test_a_banned_call_fails_the_check_with_its_line(tmp_path):
    from tests.conftest import run_check

    target = tmp_path / "softmax.py"
    target.write_text("# kata: softmax\nimport numpy as np\nimport torch\n\ndef softmax(x, dim=-1):\n"
                      "    return torch.softmax(torch.from_numpy(x), dim).numpy()\n")
    result = run_check(target, "softmax")
    assert result.status.value == "fail"
    assert "line 3" in result.message and "bans" in result.message


@pytest.mark.parametrize("command", [["--help"], ["list"], ["start", "gae", "--dir", "{tmp}"], ["hint", "gae"],
                                     ["reveal", "gae", "--yes"], ["stats"], ["next"]])
def test_light_commands_import_neither_torch_nor_numpy(command, tmp_path):
    """Structural, not timed: the fast commands must never load torch or numpy."""
    args = [a.replace("{tmp}", str(tmp_path / "w")) for a in command]
    probe = ("import sys, runpy\nsys.argv = ['kata', *%r]\n"
             "try:\n    runpy.run_path(%r, run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "heavy = [m for m in ('torch', 'numpy') if m in sys.modules]\n"
             "sys.stderr.write('HEAVY=' + ','.join(heavy))\n") % (args, str(ROOT / "cli.py"))
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                          env={"KATA_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert "HEAVY=" in done.stderr, done.stderr[-2000:]
    assert done.stderr.rsplit("HEAVY=", 1)[1].strip() == "", f"{command} imported {done.stderr.rsplit('HEAVY=', 1)[1]}"


@pytest.mark.parametrize("source, meant", [
    ("x = 2 \u2212 1\n", "Unicode minus (U+2212)"),      # a hint's formula pasted
    ("y = f\uff08x)\n", "type (."),                      # a full-width parenthesis from a Chinese input method
    ("z = a \u00d7 b\n", "type *."),
])
def test_a_look_alike_character_is_named_with_the_key_to_type(source, meant):
    finding = static.inspect(source, "mine.py", "f", ())
    assert finding.status == "error" and "SyntaxError" in finding.message and meant in finding.message


def test_a_plain_syntax_error_names_no_character():
    finding = static.inspect("def f(:\n", "mine.py", "f", ())
    assert finding.status == "error" and "not ASCII" not in finding.message and "U+2212" not in finding.message


def test_no_text_kata_shows_writes_a_unicode_minus():
    """A hint or a fix is pasted into code: a U+2212 in it is a SyntaxError there."""
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "content").rglob("*.toml"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "\u2212" in line]
    assert not found, found
