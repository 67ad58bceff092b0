"""Byte-level BPE tokenizer: karpathy/minbpe's BasicTokenizer (minbpe/basic.py, minbpe/base.py @1acefe8).

Sennrich et al., "Neural Machine Translation of Rare Words with Subword Units" (ACL 2016) learn merges
by repeatedly fusing the most frequent adjacent pair; GPT-2 runs it on UTF-8 bytes, so ids 0-255 are
the bytes and nothing is ever out of vocabulary. minbpe's BasicTokenizer is that algorithm with no
regex pre-split and no special tokens: `get_stats` counts every adjacent pair (overlapping: "aaa"
holds (a, a) twice), `max(stats, key=stats.get)` takes the most frequent one, ties to the pair seen
first, and `merge` replaces it left to right without overlap. One difference, as the kata asks:
training stops once the sequence has fewer than 2 tokens, where minbpe's max() of no pairs raises.
"""


def get_stats(ids):
    """Counts of adjacent pairs, in order of first occurrence: [1, 2, 3, 1, 2] -> {(1, 2): 2, (2, 3): 1, (3, 1): 1}."""
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    """Every occurrence of `pair` in `ids` replaced by `idx`, scanning left to right: [1, 1, 1], (1, 1) -> [idx, 1]."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class BPETokenizer:
    def __init__(self):
        self.merges = {}  # (int, int) -> int, in creation order
        self.vocab = {idx: bytes([idx]) for idx in range(256)}  # int -> bytes

    def train(self, text, vocab_size):
        assert vocab_size >= 256, f"vocab_size must be at least 256 (the bytes), got {vocab_size}"
        ids = list(text.encode("utf-8"))  # ints in 0..255
        self.merges = {}
        self.vocab = {idx: bytes([idx]) for idx in range(256)}
        for idx in range(256, vocab_size):
            if len(ids) < 2:
                break  # no pair left to merge: stop early (minbpe raises here)
            stats = get_stats(ids)
            pair = max(stats, key=stats.get)  # the most frequent; ties to the first seen (dicts keep insertion order)
            ids = merge(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))  # the earliest merge present
            if pair not in self.merges:
                break  # nothing left to merge
            ids = merge(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        text_bytes = b"".join(self.vocab[idx] for idx in ids)
        return text_bytes.decode("utf-8", errors="replace")  # a cut multi-byte character becomes U+FFFD
