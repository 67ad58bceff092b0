# kata: conv2d
# why: loops over output pixels and multiplies each window by weight.flip(2, 3): the textbook convolution
# mistake: kernel_flipped
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    st = (stride, stride) if isinstance(stride, int) else stride
    pd = (padding, padding) if isinstance(padding, int) else padding
    dl = (dilation, dilation) if isinstance(dilation, int) else dilation
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    xp = F.pad(x, (pd[1], pd[1], pd[0], pd[0]))
    Ho = (xp.shape[2] - dl[0] * (kH - 1) - 1) // st[0] + 1
    Wo = (xp.shape[3] - dl[1] * (kW - 1) - 1) // st[1] + 1
    k = weight.flip(2, 3).reshape(groups, C_out // groups, Cg, kH, kW)
    out = x.new_zeros(N, C_out, Ho, Wo)
    for i in range(Ho):
        for j in range(Wo):
            r, c = i * st[0], j * st[1]
            patch = xp[:, :, r:r + dl[0] * (kH - 1) + 1:dl[0], c:c + dl[1] * (kW - 1) + 1:dl[1]]
            patch = patch.reshape(N, groups, Cg, kH, kW)
            out[:, :, i, j] = torch.einsum("ngcpq,gocpq->ngo", patch, k).reshape(N, C_out)
    if bias is not None:
        out = out + bias.view(1, C_out, 1, 1)
    return out
