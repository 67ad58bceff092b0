# kata: bpe


class BPETokenizer:
    def __init__(self):
        self.merges = {}

    def train(self, text, vocab_size):
        raise NotImplementedError("write BPETokenizer.train")

    def encode(self, text):
        raise NotImplementedError("write BPETokenizer.encode")

    def decode(self, ids):
        raise NotImplementedError("write BPETokenizer.decode")
