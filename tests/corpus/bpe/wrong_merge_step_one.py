# kata: bpe
# why: after emitting the new id the merge loop advances by one, so the pair's second token is emitted too
# mistake: replace_overlapping
from collections import Counter


class BPETokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def merge(self, ids, pair, idx):
        out = []
        i = 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
                out.append(idx)
            else:
                out.append(ids[i])
            i += 1
        return out

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}
        for idx in range(256, vocab_size):
            if len(ids) < 2:
                break
            pair = Counter(zip(ids, ids[1:])).most_common(1)[0][0]
            ids = self.merge(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for pair, idx in self.merges.items():
            ids = self.merge(ids, pair, idx)
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
