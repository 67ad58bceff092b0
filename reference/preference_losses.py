"""Five pairwise preference losses, each as TRL 1.16 writes it (DPOTrainer._compute_loss, CPOTrainer.cpo_loss).

With the log-ratio margin h = (pi_c - ref_c) - (pi_r - ref_r), eps = label_smoothing and nls(x) = -log sigma(x):
    sigmoid  DPO (Rafailov et al. 2023, eq. 7); conservative DPO (Mitchell 2023) for eps > 0:
             (1 - eps) * nls(beta * h) + eps * nls(-beta * h)
    robust   rDPO (Chowdhury et al. 2024), unbiased under label noise eps: the flipped term subtracted,
             ((1 - eps) * nls(beta * h) - eps * nls(-beta * h)) / (1 - 2 * eps)
    hinge    SLiC (Zhao et al. 2023): relu(1 - beta * h)
    ipo      IPO (Azar et al. 2023, eq. 17, beta = tau): (h_ipo - 1 / (2 * beta))^2, each log-ratio divided by its
             completion's length (TRL's per-token average; lengths None: the paper's summed form)
    simpo    SimPO (Meng et al. 2024), reference-free on average log-likelihoods h_s = pi_c / L_c - pi_r / L_r:
             (1 - eps) * nls(beta * h_s - gamma) + eps * nls(-(beta * h_s - gamma))
Each is averaged over the batch. nls is F.logsigmoid's: exact for |x| in the thousands and smooth at x = 0.
"""
import torch
import torch.nn.functional as F

LOSS_TYPES = ("sigmoid", "robust", "hinge", "ipo", "simpo")


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    """[B] summed completion log-probs (the reference ones None for "simpo"); lengths None or [B]. Returns a 0-dim loss."""
    if loss_type not in LOSS_TYPES:
        raise ValueError(f"unknown loss_type {loss_type!r}: expected one of {', '.join(LOSS_TYPES)}")
    eps = label_smoothing
    L_c = 1 if chosen_lengths is None else chosen_lengths  # (B,) tokens per completion, or 1: sums used as given
    L_r = 1 if rejected_lengths is None else rejected_lengths

    if loss_type == "simpo":  # no reference model: the policy's average log-likelihoods
        x = beta * (policy_chosen_logps / L_c - policy_rejected_logps / L_r) - simpo_gamma  # (B,)
        losses = -(1 - eps) * F.logsigmoid(x) - eps * F.logsigmoid(-x)
        return losses.mean()

    assert ref_chosen_logps is not None and ref_rejected_logps is not None, f"{loss_type} needs the reference log-probs"
    chosen = policy_chosen_logps - ref_chosen_logps  # (B,) log pi/pi_ref of the preferred completion
    rejected = policy_rejected_logps - ref_rejected_logps  # (B,) ... of the dispreferred one
    if loss_type == "ipo":
        h = chosen / L_c - rejected / L_r  # (B,) per-token log-ratio margin
        losses = (h - 1 / (2 * beta)) ** 2
        return losses.mean()

    x = beta * (chosen - rejected)  # (B,)
    if loss_type == "sigmoid":
        losses = -(1 - eps) * F.logsigmoid(x) - eps * F.logsigmoid(-x)
    elif loss_type == "robust":
        losses = (-(1 - eps) * F.logsigmoid(x) + eps * F.logsigmoid(-x)) / (1 - 2 * eps)
    else:  # hinge
        losses = torch.relu(1 - x)
    return losses.mean()
