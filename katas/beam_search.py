# kata: beam-search
import torch


def beam_search(log_prob_fn, input_ids, num_beams, max_new_tokens, eos_token_id=None, length_penalty=1.0,
                num_return_sequences=1, pad_token_id=0):
    raise NotImplementedError("write beam_search")
