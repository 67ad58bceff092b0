# kata: bpe
# why: one scan keeps count and first position per pair, picks by (count, -first) explicitly; in-place list surgery
class BPETokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {}

    def train(self, text, vocab_size):
        seq = list(bytearray(text, "utf-8"))
        self.merges = {}
        self.vocab = {b: bytes([b]) for b in range(256)}
        for new in range(256, vocab_size):
            if len(seq) < 2:
                break
            count, first = {}, {}
            for pos in range(len(seq) - 1):
                p = (seq[pos], seq[pos + 1])
                count[p] = count.get(p, 0) + 1
                if p not in first:
                    first[p] = pos
            best = max(count, key=lambda p: (count[p], -first[p]))
            self.merges[best] = new
            self.vocab[new] = self.vocab[best[0]] + self.vocab[best[1]]
            seq = self._apply(seq, best, new)

    @staticmethod
    def _apply(seq, pair, new):
        seq = seq[:]
        pos = 0
        while pos < len(seq) - 1:
            if seq[pos] == pair[0] and seq[pos + 1] == pair[1]:
                seq[pos:pos + 2] = [new]
            pos += 1
        return seq

    def encode(self, text):
        seq = list(bytearray(text, "utf-8"))
        for pair in sorted(self.merges, key=self.merges.get):
            seq = self._apply(seq, pair, self.merges[pair])
        return seq

    def decode(self, ids):
        raw = bytearray()
        for i in ids:
            raw += self.vocab[i] if i in self.vocab else bytes([i])
        return raw.decode("utf-8", errors="replace")
