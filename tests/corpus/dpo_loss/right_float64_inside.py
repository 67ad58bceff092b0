# kata: dpo-loss
# why: everything in float64 inside, F.logsigmoid, cast back to the input dtype
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps, ref_rejected_logps, beta=0.1):
    dtype = policy_chosen_logps.dtype
    pc, pr = policy_chosen_logps.double(), policy_rejected_logps.double()
    rc, rr = ref_chosen_logps.double(), ref_rejected_logps.double()
    chosen, rejected = beta * (pc - rc), beta * (pr - rr)
    loss = -F.logsigmoid(chosen - rejected).mean()
    return loss.to(dtype), chosen.detach().to(dtype), rejected.detach().to(dtype)
