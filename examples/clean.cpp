// Attention-style scores over groups of 8 lanes, packed 4 groups per warp.
//
// Nothing here should be reported: the butterflies only span 8-lane groups,
// the whole-warp reduction already uses warp_active_sum, the shared atomics
// are indexed per thread and the global counter takes one atomic per warp.
#include <random>

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

int main(int argc, char *argv[]) {
    Context context{argv[0]};
    Device device = context.create_device(argc > 1 ? argv[1] : "cuda");
    Stream stream = device.create_stream();

    constexpr uint group_lanes = 8u;
    constexpr uint n = 1u << 14u;

    Kernel1D grouped_softmax = [&](BufferFloat scores, BufferFloat warp_sums, BufferUInt buckets, BufferUInt processed) noexcept {
        set_block_size(64u, 1u, 1u);
        set_warp_size(32u);
        auto lane = warp_lane_id();
        Float x = scores.read(dispatch_x());

        // maximum within each group of 8 lanes: must stay a butterfly
        Float m = x;
        m = max(m, warp_read_lane(m, lane ^ 4u));
        m = max(m, warp_read_lane(m, lane ^ 2u));
        m = max(m, warp_read_lane(m, lane ^ 1u));

        Float e = exp(x - m);
        Float group_sum = e;
        for (uint d = group_lanes / 2u; d > 0u; d >>= 1u) {
            group_sum += warp_read_lane(group_sum, lane ^ d);
        }
        Float p = e / group_sum;
        scores.write(dispatch_x(), p);

        // whole-warp total, already a builtin
        Float total = warp_active_sum(p);
        $if (lane == 0u) { warp_sums.write(dispatch_x() / 32u, total); };

        // per-thread bucket counts in shared memory
        Shared<uint> local_buckets{16u};
        $if (thread_x() < 16u) { local_buckets[thread_x()] = 0u; };
        sync_block();
        UInt bucket = clamp(cast<uint>(p * 16.f), 0u, 15u);
        local_buckets.atomic(bucket).fetch_add(1u);
        sync_block();
        $if (thread_x() < 16u) {
            buckets.atomic(thread_x()).fetch_add(local_buckets[thread_x()]);
        };
        // one atomic per warp on the global counter
        auto warp_count = warp_active_count_bits(true);
        $if (warp_is_first_active_lane()) { processed.atomic(0u).fetch_add(warp_count); };
    };
    auto shader = device.compile(grouped_softmax);

    luisa::vector<float> host_scores(n);
    std::mt19937 rng{11u};
    std::normal_distribution<float> dist{0.f, 2.f};
    for (auto &v : host_scores) { v = dist(rng); }
    luisa::vector<uint> zeros(16u, 0u);

    auto scores = device.create_buffer<float>(n);
    auto warp_sums = device.create_buffer<float>(n / 32u);
    auto buckets = device.create_buffer<uint>(16u);
    auto processed = device.create_buffer<uint>(1u);
    uint host_processed = 0u;
    stream << scores.copy_from(host_scores.data())
           << buckets.copy_from(zeros.data())
           << processed.copy_from(zeros.data())
           << shader(scores, warp_sums, buckets, processed).dispatch(n)
           << processed.copy_to(&host_processed)
           << synchronize();
    LUISA_INFO("Processed {} scores.", host_processed);
}
