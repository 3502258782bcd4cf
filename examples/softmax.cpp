// Row-wise softmax over rows of exactly 32 logits: one warp per row.
//
// Both reductions (the row maximum and the sum of exponentials) are written
// as hand-rolled butterflies over the full 32-lane warp.
#include <random>

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

int main(int argc, char *argv[]) {
    Context context{argv[0]};
    Device device = context.create_device(argc > 1 ? argv[1] : "cuda");
    Stream stream = device.create_stream();

    constexpr uint row_length = 32u;
    constexpr uint row_count = 4096u;

    Kernel1D softmax_rows = [&](BufferFloat logits, BufferFloat probs) noexcept {
        set_block_size(128u, 1u, 1u);
        set_warp_size(32u);
        auto lane = warp_lane_id();
        auto row = dispatch_x() / row_length;
        auto index = row * row_length + lane;
        Float x = logits.read(index);

        // row maximum, for numerical stability
        Float m = x;
        m = max(m, warp_read_lane(m, lane ^ 16u));
        m = max(m, warp_read_lane(m, lane ^ 8u));
        m = max(m, warp_read_lane(m, lane ^ 4u));
        m = max(m, warp_read_lane(m, lane ^ 2u));
        m = max(m, warp_read_lane(m, lane ^ 1u));

        // sum of exponentials
        Float e = exp(x - m);
        Float total = e;
        for (uint d = 16u; d > 0u; d >>= 1u) {
            total += warp_read_lane(total, lane ^ d);
        }
        probs.write(index, e / total);
    };
    auto shader = device.compile(softmax_rows);

    luisa::vector<float> host_logits(row_length * row_count);
    std::mt19937 rng{42u};
    std::uniform_real_distribution<float> dist{-4.f, 4.f};
    for (auto &v : host_logits) { v = dist(rng); }
    luisa::vector<float> host_probs(host_logits.size());

    auto logits = device.create_buffer<float>(host_logits.size());
    auto probs = device.create_buffer<float>(host_logits.size());
    stream << logits.copy_from(host_logits.data())
           << shader(logits, probs).dispatch(row_length * row_count)
           << probs.copy_to(host_probs.data())
           << synchronize();

    float row_sum = 0.f;
    for (auto i = 0u; i < row_length; i++) { row_sum += host_probs[i]; }
    LUISA_INFO("First row sums to {} (expected 1).", row_sum);
}
