// Warp-level stream compaction: every lane that keeps its element needs the
// number of kept elements in the lanes below it.
#include <random>

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

int main(int argc, char *argv[]) {
    Context context{argv[0]};
    Device device = context.create_device(argc > 1 ? argv[1] : "cuda");
    Stream stream = device.create_stream();

    constexpr uint n = 1u << 16u;

    Kernel1D compact = [&](BufferFloat input, BufferFloat output, BufferUInt count, Float threshold) noexcept {
        set_block_size(64u, 1u, 1u);
        set_warp_size(32u);
        auto lane = warp_lane_id();
        Float value = input.read(dispatch_x());
        UInt keep = ite(value > threshold, 1u, 0u);

        // exclusive prefix of `keep` over the lanes below this one
        UInt offset = 0u;
        $for (i, lane) {
            offset += warp_read_lane(keep, i);
        };

        // one global atomic per warp reserves the output range
        UInt warp_total = warp_active_sum(keep);
        UInt base = 0u;
        $if (warp_is_first_active_lane()) {
            base = count.atomic(0u).fetch_add(warp_total);
        };
        base = warp_read_first_active_lane(base);
        $if (keep == 1u) {
            output.write(base + offset, value);
        };
    };
    auto shader = device.compile(compact);

    luisa::vector<float> host_input(n);
    std::mt19937 rng{3u};
    std::uniform_real_distribution<float> dist{0.f, 1.f};
    for (auto &v : host_input) { v = dist(rng); }
    uint host_count = 0u;

    auto input = device.create_buffer<float>(n);
    auto output = device.create_buffer<float>(n);
    auto count = device.create_buffer<uint>(1u);
    stream << input.copy_from(host_input.data())
           << count.copy_from(&host_count)
           << shader(input, output, count, 0.5f).dispatch(n)
           << count.copy_to(&host_count)
           << synchronize();
    LUISA_INFO("Kept {} of {} elements.", host_count, n);
}
