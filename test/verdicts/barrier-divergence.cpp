// RULES: luisa-divergent-barrier
#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

// CASE thread-if: luisa-divergent-barrier
void thread_if(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        $if (thread_x() < 32u) { sync_block(); };
    };
}
// CASE thread-else: luisa-divergent-barrier
void thread_else(Device &device) {
    Kernel1D k = [&](BufferFloat data) noexcept {
        $if (thread_x() == 0u) { data.write(0u, 1.f); } $else { sync_block(); };
    };
}
// CASE elif-after-uniform-if: luisa-divergent-barrier
void elif_chain(Device &device) {
    Kernel1D k = [&](BufferFloat data, UInt n) noexcept {
        $if (n == 0u) { sync_block(); } $elif (thread_x() > n) { sync_block(); };
    };
}
// CASE dispatch-guard-around-staging: luisa-divergent-barrier
void dispatch_guard(Device &device) {
    Kernel1D k = [&](BufferFloat data, UInt size) noexcept {
        set_block_size(128u, 1u, 1u);
        Shared<float> tile{128u};
        $if (dispatch_x() < size) {
            tile[thread_x()] = data.read(dispatch_x());
            sync_block();
            data.write(dispatch_x(), tile[127u - thread_x()]);
        };
    };
}
// CASE early-return-then-barrier: luisa-divergent-barrier
void early_return(Device &device) {
    Kernel1D k = [&](BufferFloat data, UInt size) noexcept {
        $if (dispatch_x() >= size) { $return(); };
        sync_block();
    };
}
// CASE thread-dependent-while: luisa-divergent-barrier
void thread_while(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        UInt i = thread_x();
        $while (i < 64u) {
            sync_block();
            i += 32u;
        };
    };
}
// CASE thread-dependent-for-bound: luisa-divergent-barrier
void thread_for(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        $for (i, 0u, data.read(dispatch_x())) { sync_block(); };
    };
}
// CASE continue-under-lane-test: luisa-divergent-barrier
void lane_continue(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt n) noexcept {
        $for (i, 0u, n) {
            $if (warp_lane_id() == i) { $continue; };
            sync_block();
        };
    };
}
// CASE 2d-thread-y: luisa-divergent-barrier
void thread_y(Device &device) {
    Kernel2D k = [&](BufferUInt data) noexcept {
        $if (thread_id().y < 8u) { sync_block(); };
    };
}
// CASE flag-set-under-thread-if: luisa-divergent-barrier
void flag_variable(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Bool leader = false;
        $if (thread_x() == 0u) { leader = true; };
        $if (leader) { sync_block(); };
    };
}
// CASE atomic-ticket: luisa-divergent-barrier
void atomic_ticket(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        Shared<uint> tickets{1u};
        auto mine = tickets.atomic(0u).fetch_add(1u);
        $if (mine % 2u == 0u) { sync_block(); };
    };
}
// CASE helper-function-under-thread-if: luisa-divergent-barrier
void publish_tile() noexcept { sync_block(); }
void helper_function(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        $if (thread_x() < 16u) { publish_tile(); };
    };
}
// CASE member-helper-with-three-barriers: luisa-divergent-barrier
struct BlockAppend {
    Shared<uint> *count = new Shared<uint>{1u};
    UInt append() noexcept {
        $if (thread_x() == 0u) { count->write(0u, 0u); };
        sync_block();
        auto slot = count->atomic(0u).fetch_add(1u);
        sync_block();
        auto base = count->read(0u);
        sync_block();
        return base + slot;
    }
};
void member_helper(Device &device) {
    Kernel1D k = [&](BufferUInt data, UInt size) noexcept {
        BlockAppend queue;
        $if (dispatch_id().x < size) { data.write(dispatch_x(), queue.append()); };
    };
}
// CASE callable-under-thread-if: luisa-divergent-barrier
void callable_helper(Device &device) {
    Callable step = [](UInt v) noexcept { sync_block(); return v + 1u; };
    Kernel1D k = [&](BufferUInt data) noexcept {
        $if (thread_x() > 3u) { data.write(dispatch_x(), step(thread_x())); };
    };
}
// CASE helper-condition-on-thread-argument: luisa-divergent-barrier
void barrier_if_below(Expr<uint> index, Expr<uint> bound) noexcept {
    $if (index < bound) { sync_block(); };
}
void helper_argument(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept { barrier_if_below(thread_x(), 8u); };
}
// CASE lambda-helper-under-warp-vote: luisa-divergent-barrier
void lambda_helper(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept {
        auto flush = [&] { sync_block(); };
        $if (warp_active_all(data.read(dispatch_x()) > 0u)) { flush(); };
    };
}
// CASE argument-passed-through-two-helpers: luisa-divergent-barrier (known: missed)
void inner_guard(Expr<uint> i) noexcept { $if (i < 4u) { sync_block(); }; }
void outer_guard(Expr<uint> i) noexcept { inner_guard(i); }
void two_helpers(Device &device) {
    Kernel1D k = [&](BufferUInt data) noexcept { outer_guard(thread_x()); };
}
// CASE callable-result-condition: luisa-divergent-barrier (known: missed)
void callable_condition(Device &device) {
    Callable lane = []() noexcept { return thread_x(); };
    Kernel1D k = [&](BufferUInt data) noexcept {
        $if (lane() < 8u) { sync_block(); };
    };
}
