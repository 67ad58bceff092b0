# kata: grpo-advantage
# why: std + 1e-9 instead of 1e-8: invisible unless a group's rewards barely differ
# mistake: epsilon_1e9
def compute_group_advantages(rewards):
    mean = rewards.mean(dim=-1, keepdim=True)
    std = rewards.std(dim=-1, keepdim=True)
    return (rewards - mean) / (std + 1e-9)
