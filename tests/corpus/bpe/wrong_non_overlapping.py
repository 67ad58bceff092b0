# kata: bpe
# why: counts a pair again only when it does not overlap its previous occurrence ("aaa" holds (a, a) once)
# mistake: non_overlapping_counts
class BPETokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def _count(self, ids):
        counts, last = {}, {}
        for i in range(len(ids) - 1):
            pair = (ids[i], ids[i + 1])
            if last.get(pair) == i - 1:
                continue
            counts[pair] = counts.get(pair, 0) + 1
            last[pair] = i
        return counts

    def _merge(self, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
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
            counts = self._count(ids)
            pair = max(counts, key=counts.get)
            ids = self._merge(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for pair, idx in self.merges.items():
            ids = self._merge(ids, pair, idx)
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
