#pragma once
// kernel-tidy API model of luisa/dsl/resource.h: Expr/Var specializations for resources.
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/byte_buffer.h>
#include <luisa/runtime/image.h>
#include <luisa/runtime/volume.h>
#include <luisa/runtime/bindless_array.h>
#include <luisa/dsl/expr.h>
#include <luisa/dsl/var.h>
#include <luisa/dsl/atomic.h>

namespace luisa::compute {

enum struct SamplerFilter { POINT = 0, LINEAR_POINT = 1, LINEAR_LINEAR = 2, ANISOTROPIC = 3 };
enum struct SamplerAddress { EDGE = 0, REPEAT = 1, MIRROR = 2, ZERO = 3 };

namespace detail {

template<typename T>
struct BufferExprAsAtomic {
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto atomic(I &&i) const noexcept {
        return AtomicRef<T>{nullptr};
    }
};

template<typename T>
    requires is_custom_struct_v<T>
struct BufferExprAsAtomic<T> {};

}// namespace detail

template<typename T>
struct Expr<Buffer<T>>
    : detail::BufferExprAsAtomic<T> {
private:
    const RefExpr *_expression{nullptr};
public:
    explicit Expr(const RefExpr *expr) noexcept : _expression{expr} {}
    Expr(BufferView<T> buffer) noexcept {}
    Expr(const Buffer<T> &buffer) noexcept {}
    Expr(const Var<Buffer<T>> &buffer) noexcept {}
    Expr(const Var<BufferView<T>> &buffer) noexcept {}
    [[nodiscard]] const RefExpr *expression() const noexcept { return _expression; }
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto read(I &&index) const noexcept { return def<T>(detail::model_expression()); }
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto volatile_read(I &&index) const noexcept { return def<T>(detail::model_expression()); }
    template<typename I>
        requires is_integral_expr_v<I>
    void write(I &&index, Expr<T> value) const noexcept {}
    template<typename I>
        requires is_integral_expr_v<I>
    void volatile_write(I &&index, Expr<T> value) const noexcept {}
    [[nodiscard]] Expr<uint64_t> device_address() const noexcept { return Expr<uint64_t>{detail::model_expression()}; }
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

template<>
struct Expr<ByteBuffer> {
private:
    const RefExpr *_expression{nullptr};
public:
    explicit Expr(const RefExpr *expr) noexcept : _expression{expr} {}
    Expr(const ByteBuffer &buffer) noexcept {}
    [[nodiscard]] const RefExpr *expression() const noexcept { return _expression; }
    template<typename T, typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto read(I &&byte_offset) const noexcept { return def<T>(detail::model_expression()); }
    template<typename I, typename V>
        requires is_integral_expr_v<I>
    void write(I &&byte_offset, V &&value) const noexcept {}
    template<typename T, typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto volatile_read(I &&byte_offset) const noexcept { return def<T>(detail::model_expression()); }
    template<typename I, typename V>
        requires is_integral_expr_v<I>
    void volatile_write(I &&byte_offset, V &&value) const noexcept {}
    [[nodiscard]] Expr<uint64_t> device_address() const noexcept { return Expr<uint64_t>{detail::model_expression()}; }
};

template<typename T>
struct Expr<BufferView<T>> : public Expr<Buffer<T>> {
    using Expr<Buffer<T>>::Expr;
};

template<typename T>
struct Expr<Image<T>> {
private:
    const RefExpr *_expression{nullptr};
public:
    explicit Expr(const RefExpr *expr) noexcept : _expression{expr} {}
    Expr(ImageView<T> image) noexcept {}
    Expr(const Image<T> &image) noexcept {}
    Expr(const Var<Image<T>> &image) noexcept {}
    Expr(const Var<ImageView<T>> &image) noexcept {}
    [[nodiscard]] auto expression() const noexcept { return _expression; }
    [[nodiscard]] auto read(Expr<uint2> uv) const noexcept { return def<Vector<T, 4>>(detail::model_expression()); };
    void write(Expr<uint2> uv, Expr<Vector<T, 4>> value) const noexcept {}
    [[nodiscard]] auto size() const noexcept { return def<uint2>(detail::model_expression()); }
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

template<typename T>
struct Expr<ImageView<T>> : public Expr<Image<T>> {
    using Expr<Image<T>>::Expr;
};

template<typename T>
struct Expr<Volume<T>> {
private:
    const RefExpr *_expression{nullptr};
public:
    explicit Expr(const RefExpr *expr) noexcept : _expression{expr} {}
    Expr(VolumeView<T> volume) noexcept {}
    Expr(const Volume<T> &volume) noexcept {}
    Expr(const Var<Volume<T>> &volume) noexcept {}
    Expr(const Var<VolumeView<T>> &volume) noexcept {}
    [[nodiscard]] auto expression() const noexcept { return _expression; }
    [[nodiscard]] auto read(Expr<uint3> uvw) const noexcept { return def<Vector<T, 4>>(detail::model_expression()); };
    void write(Expr<uint3> uvw, Expr<Vector<T, 4>> value) const noexcept {}
    [[nodiscard]] auto size() const noexcept { return def<uint3>(detail::model_expression()); }
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

template<typename T>
struct Expr<VolumeView<T>> : public Expr<Volume<T>> {
    using Expr<Volume<T>>::Expr;
};

namespace detail {

template<typename T>
class BindlessBuffer {
public:
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto read(I &&i) const noexcept { return def<T>(model_expression()); }
    template<typename I, typename V>
        requires is_integral_expr_v<I>
    void write(I &&i, V &&value) const noexcept {}
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

class BindlessTexture2D {
public:
    [[nodiscard]] Var<float4> sample(Expr<float2> uv) const noexcept { return Var<float4>{model_expression()}; }
    [[nodiscard]] Var<float4> sample(Expr<float2> uv, Expr<float> mip) const noexcept { return Var<float4>{model_expression()}; }
    [[nodiscard]] Var<uint2> size() const noexcept { return Var<uint2>{model_expression()}; }
    [[nodiscard]] Var<float4> read(Expr<uint2> coord) const noexcept { return Var<float4>{model_expression()}; }
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

class BindlessTexture3D {
public:
    [[nodiscard]] Var<float4> sample(Expr<float3> uvw) const noexcept { return Var<float4>{model_expression()}; }
    [[nodiscard]] Var<uint3> size() const noexcept { return Var<uint3>{model_expression()}; }
    [[nodiscard]] Var<float4> read(Expr<uint3> coord) const noexcept { return Var<float4>{model_expression()}; }
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

template<typename T>
class BufferExprProxy {
private:
    T _buffer;
public:
    LUISA_RESOURCE_PROXY_AVOID_CONSTRUCTION(BufferExprProxy)
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto read(I &&index) const noexcept { return Expr<T>{_buffer}.read(std::forward<I>(index)); }
    template<typename I, typename V>
        requires is_integral_expr_v<I>
    void write(I &&index, V &&value) const noexcept {}
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto volatile_read(I &&index) const noexcept { return Expr<T>{_buffer}.volatile_read(std::forward<I>(index)); }
    template<typename I, typename V>
        requires is_integral_expr_v<I>
    void volatile_write(I &&index, V &&value) const noexcept {}
    [[nodiscard]] auto device_address() const noexcept { return Expr<T>{_buffer}.device_address(); }
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto atomic(I &&index) const noexcept { return Expr<T>{_buffer}.atomic(std::forward<I>(index)); }
};

class ByteBufferExprProxy {
private:
    ByteBuffer _buffer;
public:
    LUISA_RESOURCE_PROXY_AVOID_CONSTRUCTION(ByteBufferExprProxy)
    template<typename T, typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto read(I &&offset) const noexcept { return def<T>(model_expression()); }
    template<typename I, typename V>
        requires is_integral_expr_v<I>
    void write(I &&offset, V &&value) const noexcept {}
};

template<typename T>
class ImageExprProxy {
private:
    T _img;
public:
    LUISA_RESOURCE_PROXY_AVOID_CONSTRUCTION(ImageExprProxy)
    [[nodiscard]] auto read(Expr<uint2> uv) const noexcept { return Expr<T>{_img}.read(uv); }
    template<typename V>
    void write(Expr<uint2> uv, V &&value) const noexcept {}
    [[nodiscard]] auto size() const noexcept { return Expr<T>{_img}.size(); }
};

template<typename T>
class VolumeExprProxy {
private:
    T _img;
public:
    LUISA_RESOURCE_PROXY_AVOID_CONSTRUCTION(VolumeExprProxy)
    [[nodiscard]] auto read(Expr<uint3> uvw) const noexcept { return Expr<T>{_img}.read(uvw); }
    template<typename V>
    void write(Expr<uint3> uvw, V &&value) const noexcept {}
};

}// namespace detail

template<>
struct Expr<BindlessArray> {
private:
    const RefExpr *_expression{nullptr};
public:
    explicit Expr(const RefExpr *expr) noexcept : _expression{expr} {}
    Expr(const BindlessArray &array) noexcept {}
    [[nodiscard]] auto expression() const noexcept { return _expression; }
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto tex2d(I &&index, bool is_typed = false, bool is_uniform_index = false) const noexcept { return detail::BindlessTexture2D{}; }
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto tex3d(I &&index, bool is_typed = false, bool is_uniform_index = false) const noexcept { return detail::BindlessTexture3D{}; }
    template<typename T, typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto buffer(I &&index, bool is_typed = false, bool is_uniform_index = false) const noexcept { return detail::BindlessBuffer<T>{}; }
    [[nodiscard]] auto operator->() const noexcept { return this; }
};

namespace detail {
class BindlessArrayExprProxy {
private:
    BindlessArray _array;
public:
    LUISA_RESOURCE_PROXY_AVOID_CONSTRUCTION(BindlessArrayExprProxy)
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto tex2d(I &&index, bool is_typed = false, bool is_uniform_index = false) const noexcept { return BindlessTexture2D{}; }
    template<typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto tex3d(I &&index, bool is_typed = false, bool is_uniform_index = false) const noexcept { return BindlessTexture3D{}; }
    template<typename T, typename I>
        requires is_integral_expr_v<I>
    [[nodiscard]] auto buffer(I &&index, bool is_typed = false, bool is_uniform_index = false) const noexcept { return BindlessBuffer<T>{}; }
};
}// namespace detail

template<typename T>
struct Var<Buffer<T>> : public Expr<Buffer<T>> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<Buffer<T>>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<typename T>
struct Var<BufferView<T>> : public Expr<Buffer<T>> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<Buffer<T>>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<typename T>
struct Var<Image<T>> : public Expr<Image<T>> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<Image<T>>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<typename T>
struct Var<ImageView<T>> : public Expr<Image<T>> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<Image<T>>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<typename T>
struct Var<Volume<T>> : public Expr<Volume<T>> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<Volume<T>>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<typename T>
struct Var<VolumeView<T>> : public Expr<Volume<T>> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<Volume<T>>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<>
struct Var<ByteBuffer> : public Expr<ByteBuffer> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<ByteBuffer>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<>
struct Var<BindlessArray> : public Expr<BindlessArray> {
    explicit Var(detail::ArgumentCreation) noexcept
        : Expr<BindlessArray>{detail::model_ref_expression()} {}
    Var(Var &&) noexcept = default;
    Var(const Var &) noexcept = delete;
    Var &operator=(Var &&) noexcept = delete;
    Var &operator=(const Var &) noexcept = delete;
};

template<typename T>
using BufferVar = Var<Buffer<T>>;
template<typename T>
using ImageVar = Var<Image<T>>;
template<typename T>
using VolumeVar = Var<Volume<T>>;
using BindlessVar = Var<BindlessArray>;
using ByteBufferVar = Var<ByteBuffer>;

using BufferInt = BufferVar<int>;
using BufferInt2 = BufferVar<int2>;
using BufferInt3 = BufferVar<int3>;
using BufferInt4 = BufferVar<int4>;
using BufferUInt = BufferVar<uint>;
using BufferUInt2 = BufferVar<uint2>;
using BufferUInt3 = BufferVar<uint3>;
using BufferUInt4 = BufferVar<uint4>;
using BufferFloat = BufferVar<float>;
using BufferFloat2 = BufferVar<float2>;
using BufferFloat3 = BufferVar<float3>;
using BufferFloat4 = BufferVar<float4>;
using BufferBool = BufferVar<bool>;
using BufferBool2 = BufferVar<bool2>;
using BufferBool3 = BufferVar<bool3>;
using BufferBool4 = BufferVar<bool4>;
using BufferShort = BufferVar<short>;
using BufferShort2 = BufferVar<short2>;
using BufferShort3 = BufferVar<short3>;
using BufferShort4 = BufferVar<short4>;
using BufferUShort = BufferVar<ushort>;
using BufferUShort2 = BufferVar<ushort2>;
using BufferUShort3 = BufferVar<ushort3>;
using BufferUShort4 = BufferVar<ushort4>;
using BufferSLong = BufferVar<slong>;
using BufferSLong2 = BufferVar<slong2>;
using BufferSLong3 = BufferVar<slong3>;
using BufferSLong4 = BufferVar<slong4>;
using BufferULong = BufferVar<ulong>;
using BufferULong2 = BufferVar<ulong2>;
using BufferULong3 = BufferVar<ulong3>;
using BufferULong4 = BufferVar<ulong4>;
using BufferHalf = BufferVar<half>;
using BufferHalf2 = BufferVar<half2>;
using BufferHalf3 = BufferVar<half3>;
using BufferHalf4 = BufferVar<half4>;
using BufferFloat2x2 = BufferVar<float2x2>;
using BufferFloat3x3 = BufferVar<float3x3>;
using BufferFloat4x4 = BufferVar<float4x4>;
using ImageInt = ImageVar<int>;
using VolumeInt = VolumeVar<int>;
using ImageUInt = ImageVar<uint>;
using VolumeUInt = VolumeVar<uint>;
using ImageFloat = ImageVar<float>;
using VolumeFloat = VolumeVar<float>;

}// namespace luisa::compute
