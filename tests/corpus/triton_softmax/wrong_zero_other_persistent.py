# kata: triton-softmax
# why: persistent loop over rows; the tail lanes are loaded with other=0., so they enter the max and the sum
# mistake: zero_padding
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    for row_idx in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask, other=0.)
        row = row.to(tl.float32)
        numerator = tl.exp(row - tl.max(row, axis=0))
        softmax_output = numerator / tl.sum(numerator, axis=0)
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets, softmax_output, mask=mask)


def softmax(x):
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    softmax_kernel[(min(n_rows, 4),)](y, x, x.stride(0), y.stride(0), n_rows, n_cols,
                                      BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y
