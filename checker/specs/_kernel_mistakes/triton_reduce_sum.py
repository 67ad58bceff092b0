"""`triton-reduce-sum`'s known mistakes: each a wrapper (and the kernel it launches) with one slip.

The right kernel and wrapper first: one program per block sums its block in float32 and adds the sum to a zeroed
float32 output with tl.atomic_add. Each mistake changes one or two lines of one of them.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def total(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def sum_kernel_load_add_store(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr, tl.load(out_ptr) + tl.sum(x, axis=0))  # read-modify-write: two programs race on out


def store_not_atomic(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel_load_add_store[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def partial_kernel_one_slot(x_ptr, partials_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.store(partials_ptr, tl.sum(x, axis=0))  # every program writes slot 0, not its own slot pid


@triton.jit
def add_partials_kernel(partials_ptr, out_ptr, count, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    partials = tl.load(partials_ptr + offsets, mask=offsets < count, other=0.0)
    tl.store(out_ptr, tl.sum(partials, axis=0))


def partials_one_slot(x, BLOCK=64):
    n = x.numel()
    programs = triton.cdiv(n, BLOCK)
    partials = torch.zeros(programs, dtype=torch.float32, device=x.device)
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    partial_kernel_one_slot[(programs,)](x, partials, n, BLOCK=BLOCK)
    add_partials_kernel[(1,)](partials, out, programs, BLOCK=triton.next_power_of_2(programs))
    return out


def output_not_zeroed(x, BLOCK=64):
    out = torch.empty(1, dtype=torch.float32, device=x.device)  # holds garbage (NaN under the checker)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def sum_kernel_half(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)  # float16 x stays float16: its block sum overflows
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def float16_block_sums(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel_half[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def sum_kernel_looping(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def single_program(x, BLOCK=64):
    out = torch.empty(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel_looping[(1,)](x, out, n, BLOCK=BLOCK)
    return out


def total_in_input_dtype(x, BLOCK=64):
    out = torch.zeros(1, dtype=x.dtype, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


def grid_floor(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(n // BLOCK,)](x, out, n, BLOCK=BLOCK)  # the last, partial block gets no program
    return out


@triton.jit
def sum_kernel_unmasked(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def load_unmasked(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel_unmasked[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def sum_kernel_no_stride(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def offsets_without_block(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel_no_stride[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


@triton.jit
def partial_kernel(x_ptr, partials_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float32)
    tl.store(partials_ptr + pid, tl.sum(x, axis=0))


def partials_summed_by_torch(x, BLOCK=64):
    n = x.numel()
    partials = torch.empty(triton.cdiv(n, BLOCK), dtype=torch.float32, device=x.device)
    partial_kernel[(triton.cdiv(n, BLOCK),)](x, partials, n, BLOCK=BLOCK)
    return partials.sum(dim=0, keepdim=True)  # a new tensor torch computed: no kernel stored it


def cast_after_launch(x, BLOCK=64):
    out = torch.zeros(1, dtype=x.dtype, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out.float()  # a copy for float16 x, which no kernel stored


def no_device(x, BLOCK=64):
    out = torch.zeros(1)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return out


def fixed_block_128(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, 128),)](x, out, n, BLOCK=128)
    return out


def fixed_block_256(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    return out


def fixed_block_512(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=512)
    return out


def fixed_block_1024(x, BLOCK=64):
    out = torch.zeros(1, dtype=torch.float32, device=x.device)
    n = x.numel()
    sum_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out
