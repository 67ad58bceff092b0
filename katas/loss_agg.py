# kata: loss-agg
import torch


def agg_loss(loss_mat, loss_mask, loss_agg_mode="token-mean", loss_scale_factor=None):
    raise NotImplementedError("write agg_loss")
