# kata: conv2d
# why: loops over the output pixels; dilation unpacked as (w, h), stride and padding as (h, w)
# mistake: tuple_hw_swapped
import torch
import torch.nn.functional as F


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    sh, sw = stride if isinstance(stride, tuple) else (stride, stride)
    ph, pw = padding if isinstance(padding, tuple) else (padding, padding)
    dw, dh = dilation if isinstance(dilation, tuple) else (dilation, dilation)
    N, C_in, H, W = x.shape
    C_out, Cg, kH, kW = weight.shape
    opg = C_out // groups
    Ho = (H + 2 * ph - dh * (kH - 1) - 1) // sh + 1
    Wo = (W + 2 * pw - dw * (kW - 1) - 1) // sw + 1
    xp = F.pad(x, (pw, pw, ph, ph))
    rows = []
    for i in range(Ho):
        cols = []
        for j in range(Wo):
            patch = xp[:, :, i * sh:i * sh + dh * (kH - 1) + 1:dh, j * sw:j * sw + dw * (kW - 1) + 1:dw]
            parts = [torch.einsum("nchw,ochw->no", patch[:, g * Cg:(g + 1) * Cg], weight[g * opg:(g + 1) * opg])
                     for g in range(groups)]
            cols.append(torch.cat(parts, dim=1))
        rows.append(torch.stack(cols, dim=-1))
    out = torch.stack(rows, dim=-2)
    if bias is not None:
        out = out + bias.view(1, -1, 1, 1)
    return out
