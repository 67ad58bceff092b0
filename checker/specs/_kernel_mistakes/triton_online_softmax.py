"""`triton-online-softmax`'s known mistakes: each a wrapper (and the kernel it launches) with one slip.

The right kernel and wrapper first: one program per row, a first loop over the row's column blocks keeping the
running max m and the running sum l (rescaled by exp(m_old − m_new) when the max grows), a second loop writing
exp(x − m) / l block by block. Each mistake changes one line of one of them.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l, mask=mask)


def right(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


# ---------------------------------------------------------------- the recurrence


@triton.jit
def softmax_kernel_not_rescaled(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l, mask=mask)


def not_rescaled(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_not_rescaled[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


@triton.jit
def softmax_kernel_max_from_zero(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = 0.0
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l, mask=mask)


def max_from_zero(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_max_from_zero[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


@triton.jit
def softmax_kernel_zero_padding(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=0.0).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l, mask=mask)


def zero_padding(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_zero_padding[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


@triton.jit
def softmax_kernel_no_max(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        l = l + tl.sum(tl.exp(x), axis=0)
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x) / l, mask=mask)


def no_max(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_no_max[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


@triton.jit
def softmax_kernel_single_pass(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l, mask=mask)


def single_pass(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_single_pass[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


# ---------------------------------------------------------------- the blocks


@triton.jit
def softmax_kernel_whole_row(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out + cols, num / tl.sum(num, axis=0), mask=mask)


def whole_row(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_whole_row[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=triton.next_power_of_2(N))
    return out


@triton.jit
def softmax_kernel_last_block_dropped(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for b in range(0, n_cols // BLOCK):
        mask = b * BLOCK + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + b * BLOCK + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for b in range(0, n_cols // BLOCK):
        mask = b * BLOCK + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + b * BLOCK + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + b * BLOCK + cols, tl.exp(x - m) / l, mask=mask)


def last_block_dropped(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_last_block_dropped[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


def fixed_block(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=64)
    return out


# ---------------------------------------------------------------- the masks


@triton.jit
def softmax_kernel_load_unmasked(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols).to(tl.float32)
        x = tl.where(mask, x, -float("inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l, mask=mask)


def load_unmasked(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_load_unmasked[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


@triton.jit
def softmax_kernel_store_unmasked(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    l = 0.0
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m) / l)


def store_unmasked(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel_store_unmasked[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


# ---------------------------------------------------------------- the wrapper


def row_stride_is_n(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel[(M,)](x, out, N, N, out.stride(0), BLOCK=BLOCK)
    return out


def out_stride_of_x(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    softmax_kernel[(M,)](x, out, N, x.stride(0), x.stride(0), BLOCK=BLOCK)
    return out


def cast_after_launch(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=torch.float32, device=x.device)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out.to(x.dtype)


@triton.jit
def exp_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = -float("inf")
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        m = tl.maximum(m, tl.max(x, axis=0))
    for start in range(0, n_cols, BLOCK):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_x + start + cols, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + row * stride_out + start + cols, tl.exp(x - m), mask=mask)


def sum_after_launch(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    exp_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out / out.sum(dim=1, keepdim=True)


def no_device(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


def output_is_input(x, BLOCK=64):
    M, N = x.shape
    out = x
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out


def float32_output(x, BLOCK=64):
    M, N = x.shape
    out = torch.empty((M, N), dtype=torch.float32, device=x.device)
    softmax_kernel[(M,)](x, out, N, x.stride(0), out.stride(0), BLOCK=BLOCK)
    return out
