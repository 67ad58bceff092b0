"""A transformers causal LM whose next-token log-probs are given rows: the beam-search katas' cross-checks run
transformers' own `generate` on the case model of checker/specs/_beam.py through it."""
from __future__ import annotations

import torch


def stand_in(transformers, model):
    """A causal LM whose last position's logits are `model`'s log-prob row of each input row (`transformers`: the
    module, imported by the caller's test, which skips without it)."""
    from transformers.modeling_outputs import CausalLMOutputWithPast

    class StandIn(transformers.PreTrainedModel, transformers.GenerationMixin):
        config_class = transformers.PretrainedConfig

        def __init__(self, config):
            super().__init__(config)
            self.anchor = torch.nn.Parameter(torch.zeros(1))  # a parameter, so generate finds a device and dtype

        def forward(self, input_ids, attention_mask=None, **kwargs):
            B, L = input_ids.shape
            logits = torch.zeros(B, L, model.vocab, dtype=torch.float64)
            logits[:, -1] = torch.tensor([model.row(r) for r in input_ids.tolist()], dtype=torch.float64)
            return CausalLMOutputWithPast(logits=logits.to(model.dtype))

        def prepare_inputs_for_generation(self, input_ids, **kwargs):
            return {"input_ids": input_ids}

    config = transformers.PretrainedConfig(vocab_size=model.vocab, is_encoder_decoder=False)
    return StandIn(config).eval()
