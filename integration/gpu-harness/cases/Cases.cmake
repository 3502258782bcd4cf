# The harness cases (cases/<name>.cpp.in) and the value types each runs for.
# A case's reference is declared in CaseTable.h. Shared atomics on half are
# not part of the DSL, so the atomic cases stop at 32-bit types.
set(KERNEL_TIDY_HARNESS_CASES butterfly_sum butterfly_max scan_sum scan_sum_inclusive atomic_add atomic_max)
# Slot allocations keep the counter in the item buffer, so they run for u32.
list(APPEND KERNEL_TIDY_HARNESS_CASES warp_append_shared warp_append_global warp_append_weighted warp_global_counter
     warp_global_max_unbraced)
list(APPEND KERNEL_TIDY_HARNESS_CASES shuffle_down_sum lane_shift_scan)
list(APPEND KERNEL_TIDY_HARNESS_CASES block_privatized_counter block_privatized_append)
set(KERNEL_TIDY_HARNESS_TYPES_butterfly_sum u32 i32 f32 f16)
set(KERNEL_TIDY_HARNESS_TYPES_butterfly_max u32 i32 f32 f16)
set(KERNEL_TIDY_HARNESS_TYPES_scan_sum u32 i32 f32 f16)
set(KERNEL_TIDY_HARNESS_TYPES_scan_sum_inclusive u32 i32 f32 f16)
set(KERNEL_TIDY_HARNESS_TYPES_atomic_add u32 i32 f32)
set(KERNEL_TIDY_HARNESS_TYPES_atomic_max u32 i32 f32)
set(KERNEL_TIDY_HARNESS_TYPES_warp_append_shared u32)
set(KERNEL_TIDY_HARNESS_TYPES_warp_append_global u32)
set(KERNEL_TIDY_HARNESS_TYPES_warp_append_weighted u32)
set(KERNEL_TIDY_HARNESS_TYPES_warp_global_counter u32)
set(KERNEL_TIDY_HARNESS_TYPES_warp_global_max_unbraced u32)
set(KERNEL_TIDY_HARNESS_TYPES_block_privatized_counter u32 i32)
set(KERNEL_TIDY_HARNESS_TYPES_block_privatized_append u32)
set(KERNEL_TIDY_HARNESS_TYPES_shuffle_down_sum u32 i32 f32 f16)
set(KERNEL_TIDY_HARNESS_TYPES_lane_shift_scan u32 i32 f32 f16)
# Host-side cases: a host function that submits (cases/CaseKernel.h, HostCase).
set(KERNEL_TIDY_HARNESS_HOST_CASES stream_batching)
set(KERNEL_TIDY_HARNESS_TYPES_stream_batching u32)
# Shared-memory tree reductions (blocks of 256 and 1024 threads), 32-bit types.
list(APPEND KERNEL_TIDY_HARNESS_CASES tree_sum_256 tree_max_256 tree_sum_1024 tree_max_1024)
# A tree that stops at two partials, added after it.
list(APPEND KERNEL_TIDY_HARNESS_CASES tree_sum_two_partials)
set(KERNEL_TIDY_HARNESS_TYPES_tree_sum_two_partials u32 f32)
set(KERNEL_TIDY_HARNESS_TYPES_tree_sum_256 u32 i32 f32)
set(KERNEL_TIDY_HARNESS_TYPES_tree_max_256 u32 i32 f32)
set(KERNEL_TIDY_HARNESS_TYPES_tree_sum_1024 u32 i32 f32)
set(KERNEL_TIDY_HARNESS_TYPES_tree_max_1024 u32 i32 f32)
# The DSL spelling of each type suffix.
set(KERNEL_TIDY_HARNESS_DSL_TYPE_u32 uint)
set(KERNEL_TIDY_HARNESS_DSL_TYPE_i32 int)
set(KERNEL_TIDY_HARNESS_DSL_TYPE_f32 float)
set(KERNEL_TIDY_HARNESS_DSL_TYPE_f16 half)
