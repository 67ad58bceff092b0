"""`triton-layernorm`'s known mistakes: each a wrapper (and the kernel it launches) with one slip.

The right kernel and wrapper first (one program per row, the block covering the row); each mistake changes one or
two lines of one of them. The kernels that differ only in the statistics share one body through constexpr switches
(`kata demo` writes a mistake out with its switches set, as a learner would write that one kernel).
"""
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    y = diff * rstd * w + b
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def layernorm(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK = triton.next_power_of_2(N)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=BLOCK)
    return y


# ---------------------------------------------------------------- the statistics: one kernel, a switch per slip


@triton.jit
def layernorm_kernel_stats(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr,
                           PADDING_IN_VARIANCE: tl.constexpr, DIVIDE_BY_BLOCK: tl.constexpr,
                           UNBIASED: tl.constexpr, EPS_OUTSIDE_ROOT: tl.constexpr, ONE_PASS: tl.constexpr,
                           HALF_STATISTICS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    if not HALF_STATISTICS:
        x = x.to(tl.float32)
    count = BLOCK if DIVIDE_BY_BLOCK else N
    mean = tl.sum(x, axis=0) / count
    if PADDING_IN_VARIANCE:
        diff = x - mean
    else:
        diff = tl.where(mask, x - mean, 0.0)
    if ONE_PASS:
        var = tl.sum(x * x, axis=0) / count - mean * mean
    elif UNBIASED:
        var = tl.sum(diff * diff, axis=0) / (count - 1)
    else:
        var = tl.sum(diff * diff, axis=0) / count
    if EPS_OUTSIDE_ROOT:
        rstd = 1 / (tl.sqrt(var) + eps)
    else:
        rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    y = (x - mean) * rstd * w + b
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


RIGHT_STATISTICS = dict(PADDING_IN_VARIANCE=False, DIVIDE_BY_BLOCK=False, UNBIASED=False, EPS_OUTSIDE_ROOT=False,
                        ONE_PASS=False, HALF_STATISTICS=False)


def _statistics(**slip):

    def wrapper(x, weight, bias, eps=1e-5):
        M, N = x.shape
        y = torch.empty((M, N), dtype=x.dtype, device=x.device)
        BLOCK = triton.next_power_of_2(N)
        layernorm_kernel_stats[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=BLOCK,
                                     **{**RIGHT_STATISTICS, **slip})
        return y
    return wrapper


padding_in_variance = _statistics(PADDING_IN_VARIANCE=True)
divide_by_block = _statistics(DIVIDE_BY_BLOCK=True)
unbiased_variance = _statistics(UNBIASED=True)
eps_outside_root = _statistics(EPS_OUTSIDE_ROOT=True)
one_pass_moments = _statistics(ONE_PASS=True)
half_statistics = _statistics(HALF_STATISTICS=True)


def eps_hardcoded(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK = triton.next_power_of_2(N)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), 1e-5, BLOCK=BLOCK)
    return y


# ---------------------------------------------------------------- masks and strides


@triton.jit
def layernorm_kernel_masks(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr,
                           MASK_X: tl.constexpr, MASK_AFFINE: tl.constexpr, MASK_STORE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    if MASK_X:
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    else:
        x = tl.load(x_ptr + row * stride_x + cols).to(tl.float32)
    mean = tl.sum(tl.where(mask, x, 0.0), axis=0) / N
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    if MASK_AFFINE:
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
    else:
        w = tl.load(w_ptr + cols)
        b = tl.load(b_ptr + cols)
    y = diff * rstd * w + b
    if MASK_STORE:
        tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)
    else:
        tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty))


RIGHT_MASKS = dict(MASK_X=True, MASK_AFFINE=True, MASK_STORE=True)


def _masks(**slip):

    def wrapper(x, weight, bias, eps=1e-5):
        M, N = x.shape
        y = torch.empty((M, N), dtype=x.dtype, device=x.device)
        BLOCK = triton.next_power_of_2(N)
        layernorm_kernel_masks[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=BLOCK,
                                     **{**RIGHT_MASKS, **slip})
        return y
    return wrapper


load_unmasked = _masks(MASK_X=False)
weight_bias_unmasked = _masks(MASK_AFFINE=False)
store_unmasked = _masks(MASK_STORE=False)


def row_stride_as_n(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK = triton.next_power_of_2(N)
    layernorm_kernel[(M,)](x, weight, bias, y, N, N, N, eps, BLOCK=BLOCK)
    return y


def output_with_input_stride(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK = triton.next_power_of_2(N)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), x.stride(0), eps, BLOCK=BLOCK)
    return y


# ---------------------------------------------------------------- the wrapper: grid, block, allocation


def grid_too_small(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK = triton.next_power_of_2(N)
    layernorm_kernel[(triton.cdiv(M * N, BLOCK),)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=BLOCK)
    return y


def block_is_n(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=N)
    return y


def fixed_block(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=128)
    return y


def no_device(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype)
    BLOCK = triton.next_power_of_2(N)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=BLOCK)
    return y


def cast_after_launch(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=torch.float32, device=x.device)
    BLOCK = triton.next_power_of_2(N)
    layernorm_kernel[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=BLOCK)
    return y.to(x.dtype)


@triton.jit
def normalise_kernel(x_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    diff = tl.where(mask, x - mean, 0.0)
    var = tl.sum(diff * diff, axis=0) / N
    tl.store(y_ptr + row * stride_y + cols, (diff / tl.sqrt(var + eps)).to(y_ptr.dtype.element_ty), mask=mask)


def affine_after_launch(x, weight, bias, eps=1e-5):
    M, N = x.shape
    x_hat = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK = triton.next_power_of_2(N)
    normalise_kernel[(M,)](x, x_hat, N, x.stride(0), x_hat.stride(0), eps, BLOCK=BLOCK)
    return x_hat * weight + bias


# ---------------------------------------------------------------- the same slip in a kernel that loops over the row


@triton.jit
def layernorm_kernel_loop_store_unmasked(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / N
    squares = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0).to(tl.float32)
        diff = tl.where(cols < N, x - mean, 0.0)
        squares += diff * diff
    rstd = 1.0 / tl.sqrt(tl.sum(squares, axis=0) / N + eps)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + row * stride_y + cols, ((x - mean) * rstd * w + b).to(y_ptr.dtype.element_ty))


def loop_store_unmasked(x, weight, bias, eps=1e-5):
    M, N = x.shape
    y = torch.empty((M, N), dtype=x.dtype, device=x.device)
    BLOCK = min(64, triton.next_power_of_2(N))
    layernorm_kernel_loop_store_unmasked[(M,)](x, weight, bias, y, N, x.stride(0), y.stride(0), eps, BLOCK=BLOCK)
    return y
