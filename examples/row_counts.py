"""Counts the selected elements of each 32-wide row, one warp per row, and
normalises the row by its count (a CuTe DSL kernel, CUTLASS 4 Python).
See README.md for what kernel-tidy reports here."""
import cutlass
import cutlass.cute as cute


@cute.kernel
def row_counts(flags: cute.Tensor, values: cute.Tensor, counts: cute.Tensor, rows: cutlass.Int32):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    row = bidx * 4 + tidx // 32
    lane = tidx % 32
    selected: cutlass.Int32 = flags[row, lane]
    for i in range(5):
        selected = selected + cute.arch.shuffle_sync_bfly(selected, offset=1 << i)
    if row < rows:
        counts[row] = selected
        # Every thread of the block must reach a barrier: rows past the end skip it.
        cute.arch.sync_threads()
        values[row, lane] = values[row, lane] / counts[row]


@cute.jit
def launch(flags: cute.Tensor, values: cute.Tensor, counts: cute.Tensor, rows: cutlass.Int32):
    row_counts(flags, values, counts, rows).launch(grid=[(rows + 3) // 4, 1, 1], block=[128, 1, 1])
