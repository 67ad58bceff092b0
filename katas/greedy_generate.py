# kata: greedy-generate
import torch


def greedy_generate(model, input_ids, max_new_tokens, eos_token_id=None, pad_token_id=0):
    raise NotImplementedError("write greedy_generate")
