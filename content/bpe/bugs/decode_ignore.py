# kata: bpe
from collections import Counter


def merge(tokens, pair, token_id):
    merged = []
    i = 0
    while i < len(tokens):
        if tokens[i:i + 2] == list(pair):
            merged.append(token_id)
            i += 2
        else:
            merged.append(tokens[i])
            i += 1
    return merged


class BPETokenizer:
    def __init__(self):
        self.merges = {}

    def train(self, text, vocab_size):
        tokens = list(text.encode("utf-8"))
        self.merges = {}
        for token_id in range(256, vocab_size):
            if len(tokens) < 2:
                break
            pair, _ = Counter(zip(tokens, tokens[1:])).most_common(1)[0]
            tokens = merge(tokens, pair, token_id)
            self.merges[pair] = token_id

    def encode(self, text):
        tokens = list(text.encode("utf-8"))
        for pair, token_id in self.merges.items():
            tokens = merge(tokens, pair, token_id)
        return tokens

    def decode(self, ids):
        vocab = {i: bytes([i]) for i in range(256)}
        for (a, b), token_id in self.merges.items():
            vocab[token_id] = vocab[a] + vocab[b]
        raw = b"".join(vocab[i] for i in ids)
        return raw.decode("utf-8", errors="ignore")
