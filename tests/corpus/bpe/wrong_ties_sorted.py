# kata: bpe
# why: picks the pair with sorted(stats.items(), key=(-count, pair)): ties go to the smallest pair, not the first seen
# mistake: ties_to_smallest_pair
def pair_counts(ids):
    stats = {}
    for a, b in zip(ids, ids[1:]):
        stats[(a, b)] = stats.get((a, b), 0) + 1
    return stats


def replace_pair(ids, pair, new_id):
    result = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            result.append(new_id)
            i += 2
        else:
            result.append(ids[i])
            i += 1
    return result


class BPETokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}
        for new_id in range(256, vocab_size):
            if len(ids) < 2:
                break
            ranked = sorted(pair_counts(ids).items(), key=lambda kv: (-kv[1], kv[0]))
            best = ranked[0][0]
            ids = replace_pair(ids, best, new_id)
            self.merges[best] = new_id
            self.vocab[new_id] = self.vocab[best[0]] + self.vocab[best[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        for pair, new_id in self.merges.items():
            ids = replace_pair(ids, pair, new_id)
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
