# kata: kaiming-init
import torch


def kaiming_init_(weight, a=0.0, mode="fan_in", nonlinearity="leaky_relu", distribution="normal", generator=None):
    raise NotImplementedError("write kaiming_init_")
