"""2-D convolution (cross-correlation) with stride, zero padding, dilation and groups: `torch.nn.functional.conv2d`.

PyTorch documents it as
    out(N_i, C_out_j) = bias(C_out_j) + sum_k weight(C_out_j, k) ⋆ input(N_i, k)
where ⋆ is the valid 2-D cross-correlation (no kernel flip), and
    H_out = floor((H_in + 2·padding[0] − dilation[0]·(kernel_size[0] − 1) − 1) / stride[0] + 1), W_out alike.
With groups, the input channels and the output channels are each cut into `groups` contiguous blocks and
block g of the output sees block g of the input only (Krizhevsky et al. 2012 split AlexNet this way; groups =
C_in is a depthwise convolution, MobileNet). Here: im2col without F.unfold — zero-pad, cut every window with
Tensor.unfold (one axis at a time), keep every dilation-th tap, then one einsum per group.
"""
import torch
import torch.nn.functional as F


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """x [N, C_in, H, W]; weight [C_out, C_in/groups, kH, kW]; bias [C_out] or None. Returns [N, C_out, H_out, W_out]."""
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    assert C_in == Cg * groups and C_out % groups == 0, f"groups={groups} must divide C_in={C_in} and C_out={C_out}"
    span_h, span_w = dh * (kH - 1) + 1, dw * (kW - 1) + 1  # the rows and columns one dilated window covers
    x_pad = F.pad(x, (pw, pw, ph, ph))  # zeros: left, right, top, bottom
    assert x_pad.shape[2] >= span_h and x_pad.shape[3] >= span_w, "the dilated kernel is larger than the padded input"
    # Window (i, j) starts at row i·sh and column j·sw; unfold makes floor((H + 2ph − span_h)/sh) + 1 of them.
    windows = x_pad.unfold(2, span_h, sh).unfold(3, span_w, sw)  # (N, C_in, H_out, W_out, span_h, span_w)
    windows = windows[..., ::dh, ::dw]  # (N, C_in, H_out, W_out, kH, kW): the taps the kernel touches
    H_out, W_out = windows.shape[2], windows.shape[3]
    windows = windows.reshape(N, groups, Cg, H_out, W_out, kH, kW)  # contiguous channel blocks
    w = weight.reshape(groups, C_out // groups, Cg, kH, kW)  # output block g reads input block g
    out = torch.einsum("ngchwpq,gocpq->ngohw", windows, w)  # cross-correlation: weight[p, q] meets tap (p, q)
    out = out.reshape(N, C_out, H_out, W_out)
    if bias is not None:
        out = out + bias.view(1, C_out, 1, 1)
    return out
