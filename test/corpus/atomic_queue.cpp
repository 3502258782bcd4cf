// GPU append queues built on two-level (block, then global) counting.
//
// AtomicQueue<T>::push_if reserves a slot per element with a shared atomic
// whose old value is the slot (it cannot be aggregated blindly); count_if only
// counts; BucketQueue spreads elements over per-key shared counters.

#include <luisa/luisa-compute.h>
#include <luisa/dsl/sugar.h>

using namespace luisa;
using namespace luisa::compute;

template<typename T>
class AtomicQueue {

private:
    Buffer<T> _buffer;
    Buffer<uint> _counter;
    Shader1D<> _reset;

public:
    AtomicQueue(Device &device, size_t capacity) noexcept
        : _buffer{device.create_buffer<T>(capacity)},
          _counter{device.create_buffer<uint>(2u)} {
        _reset = device.compile<1>([this] {
            _counter->write(dispatch_x(), 0u);
        });
    }

    // Append `value` when `pred` holds; one global atomic per block.
    void push_if(Expr<bool> pred, Expr<T> value) noexcept {
        Shared<uint> index{1};
        $if (thread_x() == 0u) { index.write(0u, 0u); };
        sync_block();
        auto local_index = def(0u);
        $if (pred) { local_index = index.atomic(0).fetch_add(1u); };
        sync_block();
        $if (thread_x() == 0u) {
            auto local_count = index.read(0u);
            auto global_offset = _counter->atomic(0u).fetch_add(local_count);
            index.write(0u, global_offset);
        };
        sync_block();
        $if (pred) {
            _buffer->write(index.read(0u) + local_index, value);
        };
    }

    // Count how many threads of the block satisfy `pred`.
    void count_if(Expr<bool> pred) noexcept {
        Shared<uint> hits{1u};
        $if (thread_x() == 0u) { hits.write(0u, 0u); };
        sync_block();
        $if (pred) {
            hits.atomic(0u).fetch_add(1u);
        };
        sync_block();
        $if (thread_x() == 0u) {
            _counter->atomic(1u).fetch_add(hits.read(0u));
        };
    }

    // Elements are already aggregated per warp by the caller.
    void push_warp(Expr<T> value, Expr<uint> warp_count) noexcept {
        UInt base = 0u;
        $if (warp_is_first_active_lane()) {
            base = _counter->atomic(0u).fetch_add(warp_count);
        };
        base = warp_read_first_active_lane(base);
        UInt rank = warp_prefix_count_bits(true);
        _buffer->write(base + rank, value);
    }

    void reset(CommandList &list) noexcept {
        list << _reset().dispatch(2u);
    }
};

class BucketQueue {

private:
    Buffer<uint> _keys;
    Buffer<uint> _bucket_sizes;

public:
    static constexpr uint bucket_count = 8u;

    BucketQueue(Device &device, size_t capacity) noexcept
        : _keys{device.create_buffer<uint>(capacity * bucket_count)},
          _bucket_sizes{device.create_buffer<uint>(bucket_count)} {}

    void push(const BufferVar<uint> &input) noexcept {
        UInt key = input.read(dispatch_x());
        Shared<uint> sizes{bucket_count};
        Shared<uint> bases{bucket_count};
        $if (thread_x() < bucket_count) { sizes[thread_x()] = 0u; };
        sync_block();
        UInt bucket = key % bucket_count;
        // the slot depends on each thread's key: nothing uniform here
        UInt local = sizes.atomic(bucket).fetch_add(1u);
        sizes.atomic(key & 7u).fetch_max(0u);
        sync_block();
        $if (thread_x() < bucket_count) {
            bases[thread_x()] = _bucket_sizes->atomic(thread_x()).fetch_add(sizes[thread_x()]);
        };
        sync_block();
        _keys->write(bucket * 1024u + bases[bucket] + local, key);
    }
};

void test_atomic_queue(Device &device) {
    AtomicQueue<float> q1{device, 1u << 20u};
    AtomicQueue<uint> q2{device, 1u << 20u};
    BucketQueue buckets{device, 1024u};

    Kernel1D push_kernel = [&](BufferFloat values) noexcept {
        set_block_size(256u, 1u, 1u);
        Float v = values.read(dispatch_x());
        q1.push_if(v > 0.5f, v);
        q2.push_if(v <= 0.5f, dispatch_x());
        q1.count_if(v > 0.9f);
        q2.count_if(v < 0.1f);
    };

    Kernel1D warp_push_kernel = [&](BufferFloat values) noexcept {
        set_block_size(64u, 1u, 1u);
        Float v = values.read(dispatch_x());
        q1.push_warp(v, warp_lane_count());
    };

    Kernel1D bucket_kernel = [&](BufferUInt keys, BufferUInt owner) noexcept {
        set_block_size(128u, 1u, 1u);
        buckets.push(keys);
        // first thread to claim the block's owner slot wins
        Shared<uint> claimed{1u};
        $if (thread_x() == 0u) { claimed[0u] = ~0u; };
        sync_block();
        claimed.atomic(0u).compare_exchange(~0u, thread_x());
        sync_block();
        $if (thread_x() == 0u) { owner.write(block_id().x, claimed[0u]); };
    };

    auto push = device.compile(push_kernel);
    auto warp_push = device.compile(warp_push_kernel);
    auto bucket = device.compile(bucket_kernel);
}
