#pragma once
// kernel-tidy API model of luisa/tensor/tensor.h: tensor element types, TensorData (the
// shape and type a TensorBuilder allocates) and Tensor (a view of a buffer with a shape, and
// the operations that build a tensor graph: matmul, conv_1d/2d/3d, init_tensor).
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <luisa/core/dll_export.h>
#include <luisa/core/basic_types.h>
#include <luisa/core/stl/memory.h>
#include <luisa/core/stl/span.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/byte_buffer.h>
#include <luisa/tensor/fused_activation.h>

namespace luisa::compute {

enum struct TensorElementType : uint32_t { Float16, Float32, Float64 };

// Only half, float and double are tensor elements: another type fails the static_assert
// in the body when it is instantiated. As in the real header, the function has no
// constraint, so valid_tensor_elem_type (a call that names it) holds for every type.
template<typename T>
constexpr TensorElementType get_tensor_elem_type() {
    if constexpr (std::is_same_v<T, half>) {
        return TensorElementType::Float16;
    } else if constexpr (std::is_same_v<T, float>) {
        return TensorElementType::Float32;
    } else if constexpr (std::is_same_v<T, double>) {
        return TensorElementType::Float64;
    } else {
        static_assert(luisa::always_false_v<T>, "Bad type.");
    }
}
template<typename T>
concept valid_tensor_elem_type = requires() { get_tensor_elem_type<T>(); };
constexpr uint64_t tensor_element_size(TensorElementType type) {
    return type == TensorElementType::Float16 ? 2 : type == TensorElementType::Float32 ? 4 : 8;
}
constexpr uint64_t tensor_element_align(TensorElementType type) { return tensor_element_size(type); }

class LUISA_TENSOR_API TensorData {
public:
    TensorData(luisa::span<uint64_t const> sizes, TensorElementType element_type, uint64_t uid) noexcept;
    TensorData(TensorData &&rhs) noexcept;
    TensorData(TensorData const &rhs) = delete;
    [[nodiscard]] uint64_t idx() const noexcept { return 0u; }
    [[nodiscard]] uint64_t get_size(uint dimension) const noexcept { return 1u; }
    [[nodiscard]] uint64_t dimension() const noexcept { return 0u; }
    [[nodiscard]] uint64_t size_bytes() const noexcept { return 0u; }
    [[nodiscard]] TensorElementType element_type() const noexcept { return TensorElementType::Float32; }
};

class TensorBuilder;
class LUISA_TENSOR_API Tensor {
    friend class TensorBuilder;
    TensorData *_data{nullptr};
public:
    explicit Tensor(TensorData *data, bool contained = true) noexcept : _data{data} {}
    Tensor(Tensor &&rhs) noexcept;
    ~Tensor() noexcept;
    Tensor &operator=(Tensor &&rhs) noexcept { return *this; }
    template<typename T>
        requires(is_buffer_or_view_v<T> && valid_tensor_elem_type<buffer_element_t<T>>)
    Tensor(T const &t, luisa::span<const uint64_t> sizes) noexcept {}
    template<typename T>
        requires(is_buffer_or_view_v<T> && valid_tensor_elem_type<buffer_element_t<T>>)
    Tensor(T const &t, std::initializer_list<const uint64_t> sizes) noexcept {}
    template<typename T>
        requires(is_buffer_or_view_v<T> && valid_tensor_elem_type<buffer_element_t<T>>)
    Tensor(T const &t) noexcept {}
    [[nodiscard]] auto data() const noexcept { return _data; }
    void dispose() noexcept;
    [[nodiscard]] static Tensor matmul(Tensor const &lhs, Tensor const &rhs,
                                       FusedActivation const &activation) noexcept;
    static void init_tensor(Tensor const &input, uint64_t value) noexcept;
    static void init_tensor(Tensor const &input, void *ptr, void (*disposer)(void *)) noexcept;
    [[nodiscard]] static Tensor conv_1d(Tensor const &input, Tensor const &weight,
                                        FusedActivation const &activation, TensorElementType out_type,
                                        uint filter_radius, uint dilation,
                                        uint start_padding = std::numeric_limits<uint>::max(),
                                        uint end_padding = std::numeric_limits<uint>::max()) noexcept;
    [[nodiscard]] static Tensor conv_2d(Tensor const &input, Tensor const &weight,
                                        FusedActivation const &activation, TensorElementType out_type,
                                        uint2 filter_radius, uint2 dilation,
                                        uint2 start_padding = uint2(std::numeric_limits<uint>::max()),
                                        uint2 end_padding = uint2(std::numeric_limits<uint>::max())) noexcept;
    [[nodiscard]] static Tensor conv_3d(Tensor const &input, Tensor const &weight,
                                        FusedActivation const &activation, TensorElementType out_type,
                                        uint3 filter_radius, uint3 dilation,
                                        uint3 start_padding = uint3(std::numeric_limits<uint>::max()),
                                        uint3 end_padding = uint3(std::numeric_limits<uint>::max())) noexcept;
};

}// namespace luisa::compute
