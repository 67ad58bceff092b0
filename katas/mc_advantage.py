# kata: mc-advantage
import torch


def compute_mc_advantage(rewards, dones, values, gamma=0.99):
    raise NotImplementedError("write compute_mc_advantage")
