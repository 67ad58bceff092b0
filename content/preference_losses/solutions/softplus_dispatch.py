# kata: preference-losses
import torch
import torch.nn.functional as F


def preference_loss(policy_chosen_logps, policy_rejected_logps, ref_chosen_logps=None, ref_rejected_logps=None,
                    loss_type="sigmoid", beta=0.1, label_smoothing=0.0, simpo_gamma=0.5,
                    chosen_lengths=None, rejected_lengths=None):
    eps = label_smoothing

    def nls(x):
        return F.softplus(-x)

    def margin():
        return (policy_chosen_logps - ref_chosen_logps) - (policy_rejected_logps - ref_rejected_logps)

    def per_token(logps, lengths):
        return logps if lengths is None else logps / lengths

    def sigmoid():
        x = beta * margin()
        return (1 - eps) * nls(x) + eps * nls(-x)

    def robust():
        x = beta * margin()
        return ((1 - eps) * nls(x) - eps * nls(-x)) / (1 - 2 * eps)

    def hinge():
        return torch.relu(1 - beta * margin())

    def ipo():
        h = (per_token(policy_chosen_logps - ref_chosen_logps, chosen_lengths)
             - per_token(policy_rejected_logps - ref_rejected_logps, rejected_lengths))
        return (h - 1 / (2 * beta)) ** 2

    def simpo():
        x = beta * (per_token(policy_chosen_logps, chosen_lengths)
                    - per_token(policy_rejected_logps, rejected_lengths)) - simpo_gamma
        return (1 - eps) * nls(x) + eps * nls(-x)

    losses = {"sigmoid": sigmoid, "robust": robust, "hinge": hinge, "ipo": ipo, "simpo": simpo}
    if loss_type not in losses:
        raise ValueError(f"unsupported loss_type: {loss_type}")
    return losses[loss_type]().mean()
