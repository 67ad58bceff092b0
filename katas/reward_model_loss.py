# kata: reward-model-loss
import torch


def reward_model_loss(chosen_rewards, rejected_rewards, margin=None, center_rewards_coefficient=None):
    raise NotImplementedError("write reward_model_loss")
