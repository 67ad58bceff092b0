# kata: bpe


def get_stats(ids):
    stats = {}
    for pair in zip(ids, ids[1:]):
        stats[pair] = stats.get(pair, 0) + 1
    return stats


def merge(ids, pair, idx):
    out = []
    i = 0
    while i < len(ids):
        if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class BPETokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {idx: bytes([idx]) for idx in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        self.merges = {}
        self.vocab = {idx: bytes([idx]) for idx in range(256)}
        for idx in range(256, vocab_size):
            if len(ids) < 2:
                break
            stats = get_stats(ids)
            pair = max(stats, key=stats.get)
            ids = merge(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            candidates = [p for p in get_stats(ids) if p in self.merges]
            if not candidates:
                break
            pair = max(candidates, key=lambda p: self.merges[p])
            ids = merge(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[idx] for idx in ids).decode("utf-8", errors="replace")
