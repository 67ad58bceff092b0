"""`triton-vector-add`'s known mistakes: each a wrapper (and the kernel it launches) with one slip.

The right kernel and wrapper first; each mistake changes one line of one of them.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def grid_floor(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(n // BLOCK,)](x, y, out, n, BLOCK=BLOCK)  # the last, partial block gets no program
    return out


@triton.jit
def add_kernel_load_unmasked(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def load_unmasked(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel_load_unmasked[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def add_kernel_store_unmasked(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y)


def store_unmasked(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel_store_unmasked[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def add_kernel_mask_le(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets <= n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def mask_off_by_one(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel_mask_le[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def add_kernel_no_stride(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def offsets_without_block(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel_no_stride[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out


def output_is_input(x, y, BLOCK=256):
    n = x.numel()
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, x, n, BLOCK=BLOCK)
    return x


def fixed_block(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=256)
    return out


def sum_after_launch(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return x + y


def cast_after_launch(x, y, BLOCK=256):
    out = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    n = x.numel()
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out.to(x.dtype)


def no_device(x, y, BLOCK=256):
    n = x.numel()
    out = torch.empty(n, dtype=x.dtype)
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out


def float32_output(x, y, BLOCK=256):
    n = x.numel()
    out = torch.empty(n, device=x.device)
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def add_kernel_x_twice(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def x_loaded_twice(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel_x_twice[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out


def output_is_y(x, y, BLOCK=256):
    n = y.numel()
    add_kernel[(triton.cdiv(n, BLOCK),)](x, y, y, n, BLOCK=BLOCK)
    return y


TUTORIAL_BLOCK = 1024


def tutorial_block(x, y, BLOCK=256):
    out = torch.empty_like(x)
    n = x.numel()
    add_kernel[(triton.cdiv(n, TUTORIAL_BLOCK),)](x, y, out, n, BLOCK=TUTORIAL_BLOCK)
    return out
