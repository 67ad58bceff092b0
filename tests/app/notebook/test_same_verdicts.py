"""The notebook judges as the CLI does: right and wrong corpus files, checked under `%%kata` and with
`kata.check(file=…)` in a real kernel, get the CLI's verdict, case by case, with the same mistake named."""
from __future__ import annotations

import json

import pytest

from tests.app.notebook.harness import Kernel
from tests.conftest import CORPUS, run_check

SEED = 5
FILES = [  # (kata, corpus file): a right and a wrong answer each, a function kata, module katas, NumPy, a tokenizer
    ("gae", "gae/right_python_list.py"), ("gae", "gae/wrong_biased_std.py"),
    ("attention", "attention/right_dtype_aware_fill.py"), ("attention", "attention/wrong_additive_1e9.py"),
    ("kv-cache", "kv_cache/right_preallocated_copy.py"), ("kv-cache", "kv_cache/wrong_cat_heads_dim.py"),
    ("rmsnorm", "rmsnorm/right_einsum.py"), ("rmsnorm", "rmsnorm/wrong_centred_then_rms.py"),
    ("kmeans", "kmeans/right_vectorised.py"), ("kmeans", "kmeans/wrong_empty_nan.py"),
    ("bpe", "bpe/right_scan_first_seen.py"), ("bpe", "bpe/wrong_encode_greedy_pass.py"),
]
SUMMARY = ("import json\n"
           "def _summary(r):\n"
           "    r = getattr(r, 'result', r)\n"
           "    return json.dumps({'verdict': r.status.value, 'cases': [[c.name, c.status.value, c.mistake] "
           "for c in r.cases]})\n")


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    home = tmp_path_factory.mktemp("same-verdicts")
    with Kernel(env={"KATA_HOME": str(home), "KATA_LANG": "en"}, cwd=str(home)) as k:
        assert k.run("import kata\n" + SUMMARY).error is None
        yield k


def summary(result) -> dict:
    return {"verdict": result.status.value, "cases": [[c.name, c.status.value, c.mistake] for c in result.cases]}


@pytest.mark.parametrize("kata_id,file", FILES, ids=[f for _, f in FILES])
def test_the_notebook_gives_the_clis_verdict(kernel, kata_id, file):
    path = CORPUS / file
    cli = summary(run_check(path, kata_id, seed=SEED))
    assert (cli["verdict"] == "pass") == path.name.startswith("right_")
    magic = kernel.run(f"%%kata {kata_id} --seed {SEED}\n{path.read_text(encoding='utf-8')}", timeout=120)
    assert magic.error is None, magic.text
    ran = kernel.run("print(_summary(_))")
    assert json.loads(ran.text.strip().splitlines()[-1]) == cli
    ran = kernel.run(f"print(_summary(kata.check({kata_id!r}, file={str(path)!r}, seed={SEED})))", timeout=120)
    assert json.loads(ran.text.strip().splitlines()[-1]) == cli
