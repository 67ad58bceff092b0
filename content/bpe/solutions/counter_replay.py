# kata: bpe
from collections import Counter


class BPETokenizer:
    def __init__(self):
        self.merges = {}

    @staticmethod
    def _replace(tokens, pair, new_id):
        out = []
        skip = False
        for i, tok in enumerate(tokens):
            if skip:
                skip = False
                continue
            if i + 1 < len(tokens) and (tok, tokens[i + 1]) == pair:
                out.append(new_id)
                skip = True
            else:
                out.append(tok)
        return out

    def train(self, text, vocab_size):
        tokens = list(text.encode("utf-8"))
        self.merges = {}
        next_id = 256
        while next_id < vocab_size and len(tokens) >= 2:
            counts = Counter(zip(tokens, tokens[1:]))
            (best, _), = counts.most_common(1)
            tokens = self._replace(tokens, best, next_id)
            self.merges[best] = next_id
            next_id += 1

    def encode(self, text):
        tokens = list(text.encode("utf-8"))
        for pair, new_id in self.merges.items():
            tokens = self._replace(tokens, pair, new_id)
        return tokens

    def decode(self, ids):
        pieces = {i: bytes([i]) for i in range(256)}
        for (a, b), new_id in self.merges.items():
            pieces[new_id] = pieces[a] + pieces[b]
        return b"".join(pieces[i] for i in ids).decode("utf-8", "replace")
