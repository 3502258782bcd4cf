// 64-bin histogram of 8-bit samples, privatized per block in shared memory.
//
// The per-bin shared atomics depend on each thread's sample and must stay;
// the "samples seen" counter is bumped by every thread on slot 0.
#include <random>

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

int main(int argc, char *argv[]) {
    Context context{argv[0]};
    Device device = context.create_device(argc > 1 ? argv[1] : "cuda");
    Stream stream = device.create_stream();

    constexpr uint bin_count = 64u;
    constexpr uint block_size = 256u;
    constexpr uint sample_count = 1u << 20u;

    Kernel1D histogram = [&](BufferUInt samples, BufferUInt bins, BufferUInt seen, UInt n) noexcept {
        set_block_size(block_size, 1u, 1u);
        Shared<uint> local_bins{bin_count};
        Shared<uint> local_seen{1u};
        auto tid = thread_x();
        $if (tid < bin_count) { local_bins[tid] = 0u; };
        $if (tid == 0u) { local_seen[0u] = 0u; };
        sync_block();

        $if (dispatch_x() < n) {
            UInt bin = samples.read(dispatch_x()) % bin_count;
            local_bins.atomic(bin).fetch_add(1u);
            local_seen.atomic(0u).fetch_add(1u);
        };
        sync_block();

        // one global atomic per bin and block
        $if (tid < bin_count) {
            bins.atomic(tid).fetch_add(local_bins[tid]);
        };
        $if (tid == 0u) {
            seen.atomic(0u).fetch_add(local_seen[0u]);
        };
    };
    auto shader = device.compile(histogram);

    luisa::vector<uint> host_samples(sample_count);
    std::mt19937 rng{7u};
    for (auto &s : host_samples) { s = rng() & 0xffu; }
    luisa::vector<uint> zeros(bin_count, 0u);
    luisa::vector<uint> host_bins(bin_count);
    uint host_seen = 0u;

    auto samples = device.create_buffer<uint>(sample_count);
    auto bins = device.create_buffer<uint>(bin_count);
    auto seen = device.create_buffer<uint>(1u);
    stream << samples.copy_from(host_samples.data())
           << bins.copy_from(zeros.data())
           << seen.copy_from(zeros.data())
           << shader(samples, bins, seen, sample_count).dispatch(sample_count)
           << bins.copy_to(host_bins.data())
           << seen.copy_to(&host_seen)
           << synchronize();
    LUISA_INFO("Counted {} samples, bin 0 holds {}.", host_seen, host_bins[0]);
}
