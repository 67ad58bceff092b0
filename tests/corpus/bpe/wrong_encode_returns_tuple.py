# kata: bpe
# why: right algorithm, but encode returns a tuple and merges is a list of pairs: the contract asks for a list and a dict
# mistake: none
class BPETokenizer:
    def __init__(self):
        self.merges = []

    def _merge(self, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        self.merges = []
        for idx in range(256, vocab_size):
            if len(ids) < 2:
                break
            stats = {}
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
            pair = max(stats, key=stats.get)
            ids = self._merge(ids, pair, idx)
            self.merges.append(pair)

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for n, pair in enumerate(self.merges):
            ids = self._merge(ids, pair, 256 + n)
        return tuple(ids)

    def decode(self, ids):
        vocab = {i: bytes([i]) for i in range(256)}
        for n, (a, b) in enumerate(self.merges):
            vocab[256 + n] = vocab[a] + vocab[b]
        return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
