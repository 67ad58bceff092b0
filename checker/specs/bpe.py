"""Case families for `bpe`: karpathy/minbpe's BasicTokenizer, a plain Python class (kind "class").

A case trains one tokenizer and probes it (KATAS-classic.md): the `call` hook below builds the
learner's class, trains it on the case's text (after an earlier training run, in the `retrain`
family), reads `merges`, then encodes a few texts and decodes a few id lists. What travels back is
checked for its Python types in the child (a dict of int pairs, lists of ints, strings) and carried
in a shape the wire keeps whole: merges as an int64 tensor [M, 3] of rows (a, b, id), each encoding
as an int64 tensor. A wrong type comes back as a finding `("!", code, detail)` that `compare` puts
in words. Items: "merges", "ids" (of text 1, the training text), "decoded" (of id list 1), then
"ids of text 2" … and "decoded of ids 2" …, and a "digest" of everything, so the mistake namer's
plain-extras test matches a variant only when every output is the learner's (its shape-only
fallback would otherwise let a variant that merges differently pass for the learner's).

Pair-count ties are the heart of the contract: the named families are small texts whose counts tie
(minbpe's "aaabdaaabac", "aaaxbcbc" where overlap decides), and the random draws are tie-heavy texts
over two to four symbols. When the merges differ, the report shows the pair counts at the first
differing merge: the top pairs with their counts and first positions, the expected pick and the
learner's.
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

import torch
from rich.cells import cell_len

from checker.judge.codec import TensorValue
from checker.judge.compare import words_wanted
from checker.text.i18n import tr
from checker.judge.results import Problem
from checker.judge.spec import Family, Inputs, Mistake, Outcome

FINDING = "!"  # a finding in place of a value: (FINDING, code, detail)
RUNS_OUT = "runs out of pairs"  # Inputs.show key: the training text stops early (fewer than 2 tokens)
DIGEST = "digest"


# ---------------------------------------------------------------- drawing cases


def _case(text: str, vocab_size: int, *, texts: tuple[str, ...] = (), id_lists: tuple[list[int], ...] = (),
          pretrain: tuple[str, int] | None = None, rng: random.Random | None = None) -> Inputs:
    """A case: train on `text` with `vocab_size`; encode `text` ("ids"), then `texts` ("ids of text 2", …); decode
    a window of at most 16 ids of text's expected encoding ("decoded"; a window may cut a character), then
    `id_lists` ("decoded of ids 2", …), topped up to three lists with a random one: token ids of the trained
    vocabulary and ids of the text, mixed."""
    right = _right()
    right.train(text, vocab_size)
    ids = right.encode(text)
    rng = rng or random.Random(len(text) * 1_000_003 + vocab_size)
    start = rng.randint(0, max(0, len(ids) - 12))
    lists = [ids[start:start + 16], *id_lists]
    if len(lists) < 3:
        top = 256 + len(right.merges)
        lists.append([rng.randrange(top) if rng.random() < 0.5 else rng.choice(ids or [0]) for _ in range(rng.randint(1, 10))])
    args: dict[str, Any] = {"text": text, "vocab_size": vocab_size, "texts": list(texts), "id_lists": lists}
    if pretrain is not None:
        args = {"pretrain": pretrain, **args}
    show = {RUNS_OUT: True} if len(right.merges) < vocab_size - 256 else {}
    return Inputs(args=args, show=show)


def _fixed(text: str, vocab_size: int, **kw: Any):
    def make(g: torch.Generator) -> Inputs:
        return _case(text, vocab_size, rng=_rng(g), **kw)
    return make


def _rng(g: torch.Generator) -> random.Random:
    """A Python generator seeded from the case's: drawing characters one by one through torch costs µs each."""
    return random.Random(int(torch.randint(0, 2**62, (1,), generator=g)))


def _cut(text: str, keep: int) -> list[int]:
    """The first `keep` bytes of `text` (a cut inside a multi-byte character when keep falls there)."""
    return list(text.encode("utf-8")[:keep])


UNSEEN = "the zebra quickly jumped; 新的 текст ü"
CJK = "自然语言处理很有趣。语言模型学习语言，自然而然。"
EMOJI = "🙂🙂🙃 👍🏽👍🏽 🙂🙃🙂"
ACCENTS = "café déjà vu: naïve façade, résumé, cafe\u0301"
SPACES = "hello world\n\nhello  world\t\n  hello\r\nworld  "
PARAGRAPH = ("byte pair encoding starts from the bytes of the text and merges the most frequent adjacent pair "
             "again and again; each merge mints a new token id, so the vocabulary grows by one per merge, and the "
             "sequence of ids gets shorter. the tokenizer remembers the merges in order and replays them to encode "
             "new text. ")


def _random(alphabets: list[str], low: int, high: int, most_merges: int):
    """Tie-heavy texts: few symbols, short, so many pairs share the top count."""
    def make(g: torch.Generator) -> Inputs:
        rng = _rng(g)
        alphabet = rng.choice(alphabets)
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))
        vocab_size = 256 + rng.randint(0, most_merges)
        extra = "".join(rng.choice(alphabet + "q") for _ in range(rng.randint(0, 12)))
        return _case(text, vocab_size, texts=(extra, ""), rng=rng)
    return make


def _words(g: torch.Generator) -> Inputs:
    """Random words from a small pool, mixed scripts: ties among longer tokens, merges of merges."""
    rng = _rng(g)
    pool = ["low", "lower", "newest", "widest", "語言", "模型", "café", "🙂", "a", "aa", "\n", "  "]
    text = " ".join(rng.choice(pool) for _ in range(rng.randint(3, 30)))
    probe = " ".join(rng.choice(pool) for _ in range(rng.randint(1, 6)))
    return _case(text, 256 + rng.randint(0, 40), texts=(probe,), rng=rng)


def _cut_multibyte(g: torch.Generator) -> Inputs:
    """Decode ids that cut a character: the first byte of 语 alone, two bytes of 🙂, an ok one, then é cut."""
    return _case(CJK, 270, id_lists=(_cut("语", 1), _cut("🙂", 2), _cut("ok语", 4) + _cut("é", 1)), rng=_rng(g))


def _cut_merged(g: torch.Generator) -> Inputs:
    """Merged tokens that are parts of characters (CJK's 3-byte characters merge byte by byte)."""
    rng = _rng(g)
    right = _right()
    right.train(CJK, 262)
    partial = [idx for (a, b), idx in right.merges.items()
               if not _whole(right.vocab[idx])][:3] or [0xE8]
    return _case(CJK, 262, texts=("语",), id_lists=(partial, partial[:1] + [ord("a")]), rng=rng)


def _whole(token: bytes) -> bool:
    try:
        token.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


FAMILIES = (
    Family("minbpe_example", _fixed("aaabdaaabac", 259, texts=("aaabdaaabac" * 2, "abac", "bad"))),
    Family("minbpe_example_more", _fixed("aaabdaaabac", 262, texts=("daaa", "cab"))),
    Family("every_pair_tied", _fixed("qwertyuiop", 262, texts=("poiuytrewq", "rtyu"))),
    Family("every_pair_tied_twice", _fixed("abcdabcd", 261, texts=("dcba", "abcdab"))),
    Family("five_a", _fixed("aaaaa", 258, texts=("aaaa", "aaaaaaa", "a"))),
    Family("overlap_decides", _fixed("aaaxbcbc", 257, texts=("aaa", "bcbc", "aaaa"))),
    Family("overlap_decides_more", _fixed("aaaxbcbc", 260, texts=("xaaabcbc",))),
    Family("three_a", _fixed("aaa", 257, texts=("aaaa", "aaaaa", "baaa"))),
    Family("merges_of_merges", _fixed("abababababab cdcdcdcd abab", 266, texts=("abababab", "cdab ab"))),
    Family("runs_out_of_pairs", _fixed("abcabc", 300, texts=("abcabcabc", "cab"))),
    Family("runs_out_to_one_token", _fixed("aa", 260, texts=("aaaa", "a"))),
    Family("one_character", _fixed("x", 270, texts=("xx", "y"))),
    Family("empty_training_text", _fixed("", 300, texts=("hello", ""))),
    Family("vocab_size_256", _fixed("hello hello", 256, texts=("hell", ""))),
    Family("cjk", _fixed(CJK, 275, texts=("自然语言", "处理语言模型"))),
    Family("emoji", _fixed(EMOJI, 270, texts=("🙂🙃", "👍🏽 🙂"))),
    Family("accents", _fixed(ACCENTS, 272, texts=("déjà café", "cafe\u0301 naïve"))),
    Family("newlines_and_spaces", _fixed(SPACES, 270, texts=("\n\n", "hello\nworld", " "))),
    Family("unseen_text", _fixed("low lower lowest", 266, texts=(UNSEEN, "zzz"))),
    Family("empty_string", _fixed("banana bandana", 262, texts=("",), id_lists=([],))),
    Family("cut_multibyte", _cut_multibyte),
    Family("cut_merged_token", _cut_merged),
    Family("retrain", _fixed("banana", 260, texts=("nab",), pretrain=("xyzxyzxyz", 259))),
    Family("long_text", _fixed(PARAGRAPH, 316, texts=("the merges of new text", "bytes"))),
    Family("random_ties", _random(["ab", "ab", "abc", "aab", "xyz ", "ab\n"], 2, 40, 20), draws=50),
    Family("random_multibyte", _random(["aé", "中文a", "🙂a", "é語 "], 1, 24, 16), draws=20),
    Family("random_words", _words, draws=20),
)


# ---------------------------------------------------------------- running a case


def call(kata, entry, inputs: Inputs, device: torch.device, track_device: bool = False) -> Outcome:
    """Build the tokenizer, train it (twice in `retrain`), then encode each text and decode each id list.
    Python types are checked here, in the child, where they still exist."""
    args = inputs.args
    tokenizer = entry()
    if "pretrain" in args:
        tokenizer.train(*args["pretrain"])
    try:
        tokenizer.train(args["text"], args["vocab_size"])
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 — only where the text runs out of pairs: the contract's early stop
        if not inputs.show.get(RUNS_OUT):
            raise
        raised = (FINDING, "train raised", type(exc).__name__)
        return Outcome((raised, None, None), {DIGEST: repr(raised)})
    merges = _merges_value(tokenizer)
    ids = [_ids_value(tokenizer.encode(text)) for text in [args["text"], *args["texts"]]]
    made = merges.shape[0] if isinstance(merges, torch.Tensor) else None
    decoded = [_decoded_value(tokenizer, list(id_list), made) for id_list in args["id_lists"]]
    extras: dict[str, Any] = {f"ids of text {n}": v for n, v in enumerate(ids[1:], 2)}
    extras.update({f"decoded of ids {n}": v for n, v in enumerate(decoded[1:], 2)})
    everything = [merges, *ids, *decoded]
    extras[DIGEST] = hashlib.sha1(repr([v.tolist() if isinstance(v, torch.Tensor) else v for v in everything])
                                  .encode("utf-8", "backslashreplace")).hexdigest()
    return Outcome((merges, ids[0], decoded[0]), extras)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _merges_value(tokenizer: Any) -> Any:
    if not hasattr(tokenizer, "merges"):
        return (FINDING, "no merges", "")
    merges = tokenizer.merges
    if not isinstance(merges, dict):
        return (FINDING, "merges not dict", type(merges).__name__)
    rows = []
    for key, value in merges.items():
        if not (type(key) is tuple and len(key) == 2 and all(type(k) is int for k in key)):
            return (FINDING, "merges key", _short(key))
        if type(value) is not int:
            return (FINDING, "merges value", f"{_short(key)}: {_short(value)}")
        rows.append((key[0], key[1], value))
    try:
        return torch.tensor(rows, dtype=torch.int64).reshape(len(rows), 3)
    except (OverflowError, RuntimeError):
        return (FINDING, "merges value", _short(rows[0]))


def _ids_value(ids: Any) -> Any:
    if type(ids) is not list:
        kind = type(ids)
        return (FINDING, "ids not list", kind.__name__ if kind.__module__ == "builtins" else
                f"{kind.__module__.split('.')[0]}.{kind.__name__}")
    for item in ids:
        if type(item) is not int:
            return (FINDING, "ids item", f"{_short(item)} ({type(item).__name__})")
    try:
        return torch.tensor(ids, dtype=torch.int64)
    except (OverflowError, RuntimeError):
        return (FINDING, "ids item", _short(max(ids)))


def _decoded_value(tokenizer: Any, ids: list[int], made: int | None) -> Any:
    """decode's answer; a finding when it raised UnicodeDecodeError (errors="strict"), or raised on an id the
    learner's own train never made (fewer merges than expected: the merges' problem is the one to fix)."""
    try:
        text = tokenizer.decode(ids)
    except UnicodeDecodeError:
        return (FINDING, "decode raised", "UnicodeDecodeError")
    except Exception:  # noqa: BLE001
        unknown = [i for i in ids if made is not None and i >= 256 + made]
        if not unknown:
            raise
        return (FINDING, "unknown id", str(unknown[0]))
    if type(text) is not str:
        return (FINDING, "decoded not str", type(text).__name__)
    return text


# ---------------------------------------------------------------- judging


def compare(kata, case, expected, got) -> list[Problem]:
    """Exact, item by item; the merges first (a wrong merge explains every later difference)."""
    want, have = expected[0], got
    merges = have.value[0] if isinstance(have.value, tuple) and len(have.value) == 3 else have.value
    if _is_finding(merges) and merges[1] == "train raised":
        return [_train_raised(case, merges[2], want.value[0])]
    problems = _merges_problems(case, want.value[0], merges)
    texts, lists = [case.inputs.args["text"], *case.inputs.args["texts"]], case.inputs.args["id_lists"]
    names = [("ids", texts[0], 1)] + [(f"ids of text {n}", t, 1) for n, t in enumerate(texts[1:], 2)]
    names += [("decoded", lists[0], 2)] + [(f"decoded of ids {n}", l, 2) for n, l in enumerate(lists[1:], 2)]
    values = dict(zip(("ids", "decoded"), have.value[1:])) if isinstance(have.value, tuple) else {}
    values.update(have.extras)
    wanted = dict(zip(("ids", "decoded"), want.value[1:]))
    wanted.update(want.extras)
    for item, probe, kind in names:
        exp, out = wanted[item], values.get(item)
        problem = _ids_problem(item, probe, exp, out) if kind == 1 else _decoded_problem(item, probe, exp, out)
        if problem is not None:
            problems.append(problem)
    return problems


def _is_finding(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 3 and value[0] == FINDING


def _rows(value: TensorValue) -> list[tuple[int, int, int]]:
    return [tuple(r) for r in value.data.tolist()]


def _train_raised(case, error: str, expected: TensorValue) -> Problem:
    vocab_size = case.inputs.args["vocab_size"]
    return Problem("values", "merges", tr(
        "train raised {error}: this text runs out of pairs after {n} merges (vocab_size {vocab_size} asks for "
        "{asked}); stop early once the sequence has fewer than 2 tokens", error=error, n=expected.shape[0],
        vocab_size=vocab_size, asked=vocab_size - 256))


def _finding_problem(item: str, finding: tuple) -> Problem:
    code, detail = finding[1], finding[2]
    said = {
        "no merges": lambda: tr("your tokenizer has no attribute merges after train: keep the merges in self.merges"),
        "merges not dict": lambda: tr("merges is a {type}; expected a dict {{(int, int): int}} in creation order",
                                      type=detail),
        "merges key": lambda: tr("merges has the key {key}: every key is a pair of token ids, a tuple of two Python "
                                 "ints", key=detail),
        "merges value": lambda: tr("merges holds {entry}: every value is the new token's id, a Python int",
                                   entry=detail),
        "ids not list": lambda: tr("{item} is a {type}; encode returns a list of Python ints", item=item, type=detail),
        "ids item": lambda: tr("{item} holds {value}; encode returns a list of Python ints", item=item, value=detail),
        "decoded not str": lambda: tr("{item} is a {type}; decode returns a str", item=item, type=detail),
        "unknown id": lambda: tr("decode raised on the id {id}, which your train never made (it made fewer merges than "
                                 "expected: see merges)", id=detail),
        "decode raised": lambda: tr("decode raised {error} on these ids: decode the joined bytes with "
                                    "errors=\"replace\" (ids that cut a multi-byte character give U+FFFD)",
                                    error=detail),
    }.get(code)
    message = said() if said else f"{code}: {detail}"
    return Problem("values" if code in ("decode raised", "unknown id") else "type", item, message)


def _merges_problems(case, expected: TensorValue, got: Any) -> list[Problem]:
    if _is_finding(got):
        return [_finding_problem("merges", got)]
    if not isinstance(got, TensorValue):
        return [Problem("type", "merges", tr("merges could not be read back ({what})", what=repr(got)[:60]))]
    want, have = _rows(expected), _rows(got)
    if want == have:
        return []
    k = next((i for i, (a, b) in enumerate(zip(want, have)) if a != b), min(len(want), len(have)))
    text, vocab_size = case.inputs.args["text"], case.inputs.args["vocab_size"]
    if k < min(len(want), len(have)):
        (a, b, idx), (c, d, jdx) = want[k], have[k]
        if (a, b) == (c, d):
            return [Problem("values", "merges", tr(
                "merge {n} gives the pair {pair} the id {got}, expected {want}: new ids count up from 256 in the order "
                "the merges are made", n=k + 1, pair=f"({a}, {b})", got=jdx, want=idx))]
        said = tr("merge {n} (id {id}) differs: expected the pair {want}, yours is {got}", n=k + 1, id=idx,
                  want=f"({a}, {b})", got=f"({c}, {d})")
        picture = "\n" + pair_picture(text, want, k, (c, d)) if words_wanted() else ""
        return [Problem("values", "merges", said + picture)]
    if len(have) > len(want):
        if case.inputs.show.get(RUNS_OUT):
            said = tr("you made {got} merges, expected {want}: after merge {want} the sequence has fewer than 2 "
                      "tokens; stop there", got=len(have), want=len(want))
        else:
            said = tr("you made {got} merges, expected {want}: vocab_size {vocab_size} means ids 256 … {last}, "
                      "vocab_size - 256 merges", got=len(have), want=len(want), vocab_size=vocab_size,
                      last=vocab_size - 1)
    else:
        said = tr("you made {got} merges, expected {want}: vocab_size {vocab_size} asks for {asked} and the text "
                  "still has pairs to merge", got=len(have), want=len(want), vocab_size=vocab_size,
                  asked=vocab_size - 256)
    return [Problem("values", "merges", said)]


def _window(ids: list, at: int) -> str:
    lo, hi = max(0, at - 3), at + 6
    inner = ", ".join(str(i) for i in ids[lo:hi])
    return ("[… " if lo else "[") + inner + (" …]" if hi < len(ids) else "]")


def _ids_problem(item: str, text: str, expected: TensorValue, got: Any) -> Problem | None:
    if _is_finding(got):
        return _finding_problem(item, got)
    if not isinstance(got, TensorValue):
        return Problem("type", item, tr("{item} could not be read back ({what})", item=item, what=repr(got)[:60]))
    want, have = expected.data.tolist(), got.data.tolist()
    if want == have:
        return None
    at = next((i for i, (a, b) in enumerate(zip(want, have)) if a != b), min(len(want), len(have)))
    said = tr("{item} (encode({text})) differ at position {at}: expected {want}, yours {got}", item=item,
              text=_short(text), at=at, want=_window(want, at), got=_window(have, at))
    if len(want) != len(have):
        said += tr(" ({n_want} ids expected, {n_got} yours)", n_want=len(want), n_got=len(have))
    return Problem("values", item, said)


def _decoded_problem(item: str, ids: list[int], expected: str, got: Any) -> Problem | None:
    if _is_finding(got) and got[1] == "decode raised":  # which ids: a case decodes several lists
        return Problem("values", item, tr("{item}: decode({ids}) raised {error}: decode the joined bytes with "
                                          "errors=\"replace\" (ids that cut a multi-byte character give U+FFFD)",
                                          item=item, ids=_short(ids), error=got[2]))
    if _is_finding(got):
        return _finding_problem(item, got)
    if got == expected:
        return None
    return Problem("values", item, tr("{item} (decode({ids})) is {got}, expected {want}", item=item,
                                      ids=_short(ids), got=_short(got), want=_short(expected)))


# ---------------------------------------------------------------- known mistakes
# minbpe's tokenizer with switches: at their defaults it is the contract (`_right()`, which the cases above draw
# their probes with); each known mistake flips one.


class _BPE:
    """minbpe's BasicTokenizer. Every switch at its default is the contract (the spec builds its probes
    with it); each known mistake flips one."""

    counts = "overlapping"  # "non_overlapping": "aaa" holds (a, a) once
    ties = "first_seen"  # "largest", "smallest", "last_seen": which of the most frequent pairs wins
    direction = "left_to_right"  # "right_to_left", "overlapping": how a merge replaces its pair
    encoding = "lowest_id"  # "highest_id", "one_pass", "reversed": which merge encode applies next
    errors = "replace"  # decode's errors= ("strict", "ignore")
    units = "bytes"  # "chars": ord() of each character
    keys = "ids"  # "strings": merges keyed by the tokens' text
    budget = "vocab_size"  # "merges": vocab_size merges; "one_more": vocab_size - 255
    early_stop = True  # False: max() of no pairs raises
    picker = "max"  # "most_common": Counter.most_common(1)[0] (IndexError when there are no pairs)
    fresh = True  # False: train adds to the merges of an earlier train

    def __init__(self):
        self.merges = {}
        self.vocab = {i: self._base(i) for i in range(256)}
        self._by_ids = {}

    def _base(self, i):
        return chr(i) if self.units == "chars" else bytes([i])

    def _units(self, text):
        return [ord(c) for c in text] if self.units == "chars" else list(text.encode("utf-8"))

    def _pair_counts(self, ids):
        counts, last = {}, {}
        for i, pair in enumerate(zip(ids, ids[1:])):
            if self.counts == "non_overlapping" and last.get(pair) == i - 1:
                continue  # overlaps the occurrence counted just before
            counts[pair] = counts.get(pair, 0) + 1
            last[pair] = i
        return counts

    def _pick(self, counts):
        if self.picker == "most_common":
            from collections import Counter

            return Counter(counts).most_common(1)[0][0]
        if self.ties == "largest":
            return max(counts, key=lambda p: (counts[p], p))
        if self.ties == "smallest":
            return max(counts, key=lambda p: (counts[p], -p[0], -p[1]))
        if self.ties == "last_seen":
            return sorted(counts, key=counts.get)[-1]
        return max(counts, key=counts.get)

    def _merge(self, ids, pair, idx):
        if self.direction == "right_to_left":
            out, i = [], len(ids) - 1
            while i >= 0:
                if i > 0 and (ids[i - 1], ids[i]) == pair:
                    out.append(idx)
                    i -= 2
                else:
                    out.append(ids[i])
                    i -= 1
            return out[::-1]
        step = 1 if self.direction == "overlapping" else 2
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += step
            else:
                out.append(ids[i])
                i += 1
        return out

    def train(self, text, vocab_size):
        n_merges = {"vocab_size": vocab_size - 256, "merges": vocab_size, "one_more": vocab_size - 255}[self.budget]
        ids = self._units(text)
        if self.fresh:
            self._by_ids, self.vocab = {}, {i: self._base(i) for i in range(256)}
        for i in range(n_merges):
            if len(ids) < 2 and self.early_stop:
                break
            pair = self._pick(self._pair_counts(ids))
            idx = 256 + i
            ids = self._merge(ids, pair, idx)
            self._by_ids[pair] = idx
            self.vocab[idx] = self._token(pair[0]) + self._token(pair[1])
        if self.keys == "strings":
            self.merges = {(self._text(a), self._text(b)): idx for (a, b), idx in self._by_ids.items()}
        else:
            self.merges = dict(self._by_ids)

    def _token(self, i):
        return self.vocab[i] if i in self.vocab else chr(i)

    def _text(self, i):
        token = self._token(i)
        return token if isinstance(token, str) else token.decode("utf-8", errors="replace")

    def encode(self, text):
        ids = self._units(text)
        if self.encoding == "one_pass":
            out, i = [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) in self._by_ids:
                    out.append(self._by_ids[(ids[i], ids[i + 1])])
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            return out
        if self.encoding == "reversed":  # each merge once, newest first
            for pair, idx in reversed(list(self._by_ids.items())):
                ids = self._merge(ids, pair, idx)
            return ids
        while len(ids) >= 2:
            present = [p for p in zip(ids, ids[1:]) if p in self._by_ids]
            if not present:
                break
            choose = max if self.encoding == "highest_id" else min
            pair = choose(present, key=self._by_ids.get)
            ids = self._merge(ids, pair, self._by_ids[pair])
        return ids

    def decode(self, ids):
        if self.units == "chars":
            return "".join(self._token(i) for i in ids)
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors=self.errors)


def _variant(name: str, **switches: Any) -> type:
    return type(name, (_BPE,), switches)


def _right() -> _BPE:
    return _BPE()


MISTAKES = (
    Mistake("non_overlapping_counts", _variant("BPETokenizer", counts="non_overlapping")),
    Mistake("ties_to_largest_pair", _variant("BPETokenizer", ties="largest")),
    Mistake("ties_to_smallest_pair", _variant("BPETokenizer", ties="smallest")),
    Mistake("ties_to_last_seen", _variant("BPETokenizer", ties="last_seen")),
    Mistake("replace_right_to_left", _variant("BPETokenizer", direction="right_to_left")),
    Mistake("replace_overlapping", _variant("BPETokenizer", direction="overlapping")),
    Mistake("encode_highest_id_first", _variant("BPETokenizer", encoding="highest_id")),
    Mistake("encode_one_pass", _variant("BPETokenizer", encoding="one_pass")),
    Mistake("encode_reverse_order", _variant("BPETokenizer", encoding="reversed")),
    Mistake("decode_strict", _variant("BPETokenizer", errors="strict")),
    Mistake("decode_ignore", _variant("BPETokenizer", errors="ignore")),
    Mistake("chars_not_bytes", _variant("BPETokenizer", units="chars")),
    Mistake("merges_keyed_by_strings", _variant("BPETokenizer", keys="strings")),
    Mistake("vocab_size_as_merges", _variant("BPETokenizer", budget="merges")),
    Mistake("one_merge_too_many", _variant("BPETokenizer", budget="one_more")),
    Mistake("no_early_stop", _variant("BPETokenizer", early_stop=False)),
    Mistake("no_early_stop", _variant("BPETokenizer", early_stop=False, picker="most_common")),
    Mistake("train_keeps_old_merges", _variant("BPETokenizer", fresh=False)),
)


# ---------------------------------------------------------------- the picture: pair counts at a merge

TOP = 4  # pairs shown besides the two picks


def _sequence(text: str, merges: list[tuple[int, int, int]], k: int) -> list[int]:
    """The training sequence after the first k merges."""
    right = _BPE()
    ids = list(text.encode("utf-8"))
    for a, b, idx in merges[:k]:
        ids = right._merge(ids, (a, b), idx)
    return ids


def _token_text(token: bytes, width: int = 6) -> str:
    """A token as the picture shows it: its text when it is whole UTF-8 ('ab', '语'), else its bytes in hex
    (0xe8af, a piece of a character), cut to `width` cells."""
    try:
        shown = repr(token.decode("utf-8"))
    except UnicodeDecodeError:
        shown = "0x" + token.hex()
    if cell_len(shown) <= width:
        return shown
    out = ""
    for ch in shown:
        if cell_len(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def pair_picture(text: str, merges: list[tuple[int, int, int]], k: int, theirs: tuple[int, int]) -> str:
    """The pairs of the training sequence at merge k+1 (0-based k), most frequent first, ties in order of
    first occurrence: the expected pick is the first row; the learner's pick is marked wherever it is."""
    ids = _sequence(text, merges, k)
    vocab = {i: bytes([i]) for i in range(256)}
    for a, b, idx in merges[:k]:
        vocab[idx] = vocab[a] + vocab[b]
    counts: dict[tuple[int, int], int] = {}
    first: dict[tuple[int, int], int] = {}
    for i, pair in enumerate(zip(ids, ids[1:])):
        counts[pair] = counts.get(pair, 0) + 1
        first.setdefault(pair, i)
    order = sorted(counts, key=lambda p: (-counts[p], first[p]))
    ours = merges[k][:2]
    shown = order[:TOP]
    if theirs not in shown and theirs in counts:
        shown = shown[:TOP - 1] + [theirs]
    pair_w = max(cell_len(tr("pair")), max(len(f"({a}, {b})") for a, b in shown))
    tok_w = max(cell_len(tr("tokens")), 14)
    count_w, first_w = max(5, cell_len(tr("count"))), max(8, cell_len(tr("first at")))
    lines = [tr("  pairs before merge {n} ({m} tokens):", n=k + 1, m=len(ids)),
             "  " + _pad(tr("pair"), pair_w) + "  " + _pad(tr("tokens"), tok_w) + _rjust(tr("count"), count_w)
             + "  " + _rjust(tr("first at"), first_w)]
    for pair in shown:
        tokens = _token_text(vocab.get(pair[0], b"?")) + " " + _token_text(vocab.get(pair[1], b"?"))
        mark = tr("expected") if pair == ours else ""
        if pair == theirs:
            mark = tr("yours")
        lines.append(("  " + _pad(f"({pair[0]}, {pair[1]})", pair_w) + "  " + _pad(tokens, tok_w)
                      + _rjust(str(counts[pair]), count_w) + "  " + _rjust(str(first[pair]), first_w)
                      + "  " + mark).rstrip())
    if theirs not in counts:
        lines.append("  " + tr("yours, {pair}, is not a pair of this sequence", pair=f"({theirs[0]}, {theirs[1]})"))
    lines.append("  " + tr("the most frequent pair wins; overlaps count"))
    lines.append("  " + tr("ties: the pair that occurs first (leftmost)"))
    return "\n".join(lines)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - cell_len(text))


def _rjust(text: str, width: int) -> str:
    return " " * max(0, width - cell_len(text)) + text


# ---------------------------------------------------------------- the benchmark input


def _bench(g: torch.Generator) -> Inputs:
    rng = _rng(g)
    text = "".join(rng.choice("abcdefgh ") for _ in range(20_000))
    return Inputs(args={"text": text, "vocab_size": 356, "texts": [text[:5000]], "id_lists": [list(range(200))]})


# `kata check bpe --bench`: 100 merges over 20k characters.
BENCH = ("20k characters, 100 merges, encode 5k", _bench)
