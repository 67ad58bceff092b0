# kata: bpe
# why: loops vocab_size times, as if vocab_size were the number of merges
# mistake: vocab_size_as_merges
class BPETokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}
        for i in range(vocab_size):
            if len(ids) < 2:
                break
            stats = {}
            for pair in zip(ids, ids[1:]):
                stats[pair] = stats.get(pair, 0) + 1
            pair = max(stats, key=stats.get)
            idx = 256 + i
            new, j = [], 0
            while j < len(ids):
                if j + 1 < len(ids) and (ids[j], ids[j + 1]) == pair:
                    new.append(idx)
                    j += 2
                else:
                    new.append(ids[j])
                    j += 1
            ids = new
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for pair, idx in self.merges.items():
            new, j = [], 0
            while j < len(ids):
                if j + 1 < len(ids) and (ids[j], ids[j + 1]) == pair:
                    new.append(idx)
                    j += 2
                else:
                    new.append(ids[j])
                    j += 1
            ids = new
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
