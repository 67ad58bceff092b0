"""The catalog: every kata, read from its folder under content/.

A kata is four things, each in its own place, and nothing else:

    katas/<m>.py           the stub: `# kata: <id>`, then the signature raising NotImplementedError
    reference/<m>.py       the hidden reference
    checker/specs/<m>.py   its case families (named edge cases, then random draws) and known mistakes
    content/<m>/           kata.toml (the facts, in no language), en.toml and zh.toml (all it says)

where <m> is the id with underscores (`gae-batched` -> `gae_batched`). Adding a folder under
content/ adds the kata; nothing in this file changes. Import-light: no torch, no numpy.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

from checker.text import content, i18n
from checker.errors import KataError

PACKAGE_ROOT = Path(__file__).resolve().parents[2]
STUBS_DIR = PACKAGE_ROOT / "katas"
REFERENCE_DIR = PACKAGE_ROOT / "reference"
CONTENT_DIR = PACKAGE_ROOT / "content"

TOPICS = ("attention", "helpers", "rl", "transformer", "training", "alignment", "inference", "classic",
          "kernels")  # the order `kata list` shows them in
NEEDS = ("triton",)  # the optional libraries a kata may need (`needs = "triton"`: the kernels extra)
DIFFICULTIES = ("easy", "medium", "hard")
KINDS = ("function", "module", "class")  # class: a plain Python class, run by its spec's `call` hook

# Importing these would hand the learner the answer; every kata bans them.
ALWAYS_BANNED = ("reference", "checker")
# `banned = ["@name"]` in a kata.toml stands for one of these lists.
BANNED_GROUPS: dict[str, tuple[str, ...]] = {
    "attention": (
        "torch.nn.functional.scaled_dot_product_attention",
        "torch.nn.MultiheadAttention",
        "torch.nn.functional.multi_head_attention_forward",
        "torch.nn.modules.activation.MultiheadAttention",
    ),
    # gqa, kv-cache, flash-attention: the attention list and every fused kernel behind it.
    "attention-kernels": (
        "torch.nn.functional.scaled_dot_product_attention",
        "torch.nn.MultiheadAttention",
        "torch.nn.functional.multi_head_attention_forward",
        "torch.nn.modules.activation.MultiheadAttention",
        "torch.nn.attention.flex_attention",
        "torch._scaled_dot_product_flash_attention",
        "torch._scaled_dot_product_efficient_attention",
        "torch._scaled_dot_product_cudnn_attention",
        "torch._scaled_dot_product_attention_math",
        # torch's other private attention kernels, which the names above do not cover as prefixes
        "torch._scaled_dot_product_flash_attention_for_cpu",
        "torch._scaled_dot_product_attention_math_for_mps",
        "torch._flash_attention_forward_no_dropout_inplace",
        "torch._native_multi_head_attention",
        "torch._triton_multi_head_attention",
        "torch._triton_scaled_dot_attention",
        "torch.ops.aten",
    ),
    # layernorm, rmsnorm, batchnorm: every normalisation layer and function torch has.
    "norm": (
        "torch.nn.LayerNorm", "torch.nn.RMSNorm", "torch.nn.GroupNorm", "torch.nn.BatchNorm1d", "torch.nn.BatchNorm2d",
        "torch.nn.BatchNorm3d", "torch.nn.SyncBatchNorm", "torch.nn.InstanceNorm1d", "torch.nn.InstanceNorm2d",
        "torch.nn.InstanceNorm3d", "torch.nn.LazyBatchNorm1d", "torch.nn.LazyBatchNorm2d", "torch.nn.LazyBatchNorm3d",
        "torch.nn.LazyInstanceNorm1d", "torch.nn.LazyInstanceNorm2d", "torch.nn.LazyInstanceNorm3d",
        "torch.nn.modules.normalization", "torch.nn.modules.batchnorm", "torch.nn.modules.instancenorm",
        "torch.nn.functional.layer_norm", "torch.nn.functional.rms_norm", "torch.nn.functional.group_norm",
        "torch.nn.functional.batch_norm", "torch.nn.functional.instance_norm",
        "torch.layer_norm", "torch.rms_norm", "torch.group_norm", "torch.batch_norm", "torch.instance_norm",
        "torch.native_layer_norm", "torch.native_batch_norm", "torch.native_group_norm",
        "torch._native_batch_norm_legit", "torch._native_batch_norm_legit_no_training",
        "torch._native_batch_norm_legit_functional", "torch.ops.aten",
        # torch's other public and private entry points to the same kernels (torch 2.13)
        "torch._fused_rms_norm", "torch._batch_norm_impl_index", "torch.batch_norm_stats", "torch.batch_norm_elemt",
        "torch.batch_norm_update_stats", "torch.batch_norm_gather_stats", "torch.batch_norm_gather_stats_with_counts",
        "torch.cudnn_batch_norm", "torch.miopen_batch_norm", "torch.quantized_batch_norm", "torch._VF",
        "torch._C._VariableFunctions", "torch._decomp", "torch._refs",
    ),
}


@dataclass(frozen=True)
class Kata:
    """What the CLI and the checker know about one kata (its text is `kata.text()`).

    `entry` is the name the learner's file must define; `kind` says whether it is a function, an
    `nn.Module` class, or a plain Python class (`class`: the spec's `call` hook builds and drives it); `outputs` names the items of the returned value (one name = a single
    value, not a tuple). `banned` lists dotted names the file must not use (a prefix bans a whole
    module: "torch" bans every use of torch).
    """

    id: str
    topic: str
    difficulty: str
    order: int
    entry: str
    kind: str  # "function" | "module" | "class"
    outputs: tuple[str, ...]
    banned: tuple[str, ...] = ()
    numpy_only: bool = False
    needs: str | None = None  # an optional library the kata runs on ("triton": `pip install 'kata[kernels]'`)

    @property
    def module(self) -> str:
        """The module name shared by the stub, the reference, the spec and the content folder."""
        return self.id.replace("-", "_")

    @property
    def spec_module(self) -> str:
        return f"checker.specs.{self.module}"

    @property
    def stub_path(self) -> Path:
        return STUBS_DIR / f"{self.module}.py"

    @property
    def reference_path(self) -> Path:
        return REFERENCE_DIR / f"{self.module}.py"

    @property
    def content_dir(self) -> Path:
        return CONTENT_DIR / self.module

    @property
    def filename(self) -> str:
        return f"{self.module}.py"

    @property
    def all_banned(self) -> tuple[str, ...]:
        return self.banned + ALWAYS_BANNED

    def text(self, lang: str | None = None) -> content.KataText:
        """Everything the kata says, in `lang` (default: the language kata speaks now)."""
        return content.load(self.content_dir, lang or i18n.current())

    def stub(self, lang: str | None = None) -> str:
        """The file `kata start` writes: the `# kata:` line, the contract as its docstring, then the code."""
        return self.with_contract(self.stub_path.read_text(encoding="utf-8"), lang)

    def with_contract(self, source: str, lang: str | None = None, drill_file: str | None = None) -> str:
        """`source` (a learner file: `# kata:` line, then code) with the contract put in as its docstring,
        after the first line: the layout of the stub, and of a drill `kata bug` writes (`drill_file`, which
        is what its last line tells the learner to check: `kata check gae` would check their own gae.py)."""
        first, _, code = source.partition("\n")
        text = self.text(lang)
        with i18n.speaking(text.lang):
            if drill_file is None:
                run = i18n.tr("Run `kata check {id}` to test; `kata hint {id}` for a nudge.", id=self.id)
            else:
                run = i18n.tr("Run `kata check {file}` to test; `kata hint` for a nudge.", file=drill_file)
            doc = text.contract.strip("\n") + "\n\n" + run
        quote = 'r"""' if "\\" in doc else '"""'
        return f'{first}\n{quote}{doc}\n"""\n{code.lstrip(chr(10))}'

    @property
    def title(self) -> str:
        return content.title(self.content_dir, i18n.current())

    @property
    def summary(self) -> str:
        return self.text().summary

    @property
    def hints(self) -> tuple[str, ...]:
        return self.text().hints


def _load(folder: Path) -> Kata:
    facts = content.read_toml(folder / "kata.toml")
    where = f"content/{folder.name}/kata.toml"
    try:
        banned: list[str] = []
        for name in facts.get("banned", []):
            banned += BANNED_GROUPS[name[1:]] if name.startswith("@") else [name]
        kata = Kata(id=folder.name.replace("_", "-"), topic=facts["topic"], difficulty=facts["difficulty"],
                    order=int(facts["order"]), entry=facts["entry"], kind=facts["kind"],
                    outputs=tuple(facts["outputs"]), banned=tuple(banned), numpy_only=bool(facts.get("numpy_only", False)),
                    needs=facts.get("needs"))
    except KeyError as exc:
        raise RuntimeError(f"{where}: missing or unknown {exc}") from None
    if kata.topic not in TOPICS or kata.difficulty not in DIFFICULTIES or kata.kind not in KINDS:
        raise RuntimeError(f"{where}: topic, difficulty or kind is not one of {TOPICS}, {DIFFICULTIES}, {KINDS}")
    if kata.needs is not None and kata.needs not in NEEDS:
        raise RuntimeError(f"{where}: needs is not one of {NEEDS}")
    return kata


def _load_all() -> tuple[Kata, ...]:
    folders = [p.parent for p in CONTENT_DIR.glob("*/kata.toml")]
    katas = [_load(folder) for folder in folders]
    return tuple(sorted(katas, key=lambda k: (TOPICS.index(k.topic), k.order, k.id)))


KATAS: tuple[Kata, ...] = _load_all()
_BY_ID = {kata.id: kata for kata in KATAS}


def ids() -> list[str]:
    return [kata.id for kata in KATAS]


def get(name: str) -> Kata:
    """The kata called `name` (ids with - or _ both work), or a KataError with a suggestion."""
    key = name.strip().lower().replace("_", "-")
    if key.endswith(".py"):
        key = key[:-3]
    if key in _BY_ID:
        return _BY_ID[key]
    close = difflib.get_close_matches(key, _BY_ID, n=3, cutoff=0.5)
    close += [k for k in _BY_ID if key and k.startswith(key) and k not in close]  # "grpo" -> both grpo katas
    if close:
        hint = i18n.tr(" Did you mean {names}?", names=i18n.tr(" or ").join(f"'{c}'" for c in close[:3]))
    else:
        hint = ""
    raise KataError(i18n.tr("No kata named '{name}'.", name=name) + hint + i18n.tr(" Run `kata list` to see them all."))


def find(name: str) -> Kata | None:
    try:
        return get(name)
    except KataError:
        return None
