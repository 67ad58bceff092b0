"""Known mistakes of the Triton kernel katas, as real wrappers and `@triton.jit` kernels.

Each module here is one kata's (`triton_vector_add.py` for `triton-vector-add`): importing it imports triton, so
nothing imports it but `checker/specs/_kernels.lazy`, the first time a mistake is called, in a process that has
entered Triton's interpreter (the learner's child never does: it is sealed). The spec lists each mistake by its
function's name, so the parent draws cases and judges without triton.
"""
