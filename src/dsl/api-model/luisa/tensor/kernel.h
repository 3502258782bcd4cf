#pragma once
// kernel-tidy API model of luisa/tensor/kernel.h: load_tensor(interface, lambda) makes a
// TensorKernel of the lambda's signature (Tensor parameters are given as TensorDescriptors
// to compile(), buffers to execute(), which returns the output buffers).
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <luisa/core/stl/span.h>
#include <luisa/core/stl/vector.h>
#include <luisa/runtime/buffer.h>
#include <luisa/runtime/command_list.h>
#include <luisa/runtime/device.h>
#include <luisa/tensor/expression.h>
#include <luisa/tensor/tensor_interface.h>
#include <luisa/tensor/tensor_builder.h>

namespace luisa::compute {

namespace detail {
template<template<typename...> typename Object, typename ExtraTypes, typename Ret, typename... Args>
struct ObjType {
    using Type = Object<ExtraTypes, Ret, Args...>;
};
template<template<typename...> typename Object, typename ExtraTypes, typename T>
struct member_func_meta;
template<template<typename...> typename Object, typename ExtraTypes, typename Ret, typename Class, typename... Args>
struct member_func_meta<Object, ExtraTypes, Ret (Class::*)(Args...) const> : ObjType<Object, ExtraTypes, Ret, Args...> {
    static constexpr bool is_const = true;
};
template<template<typename...> typename Object, typename ExtraTypes, typename Ret, typename Class, typename... Args>
struct member_func_meta<Object, ExtraTypes, Ret (Class::*)(Args...)> : ObjType<Object, ExtraTypes, Ret, Args...> {
    static constexpr bool is_const = false;
};
template<template<typename...> typename Object, typename ExtraTypes, typename Ret, typename Class, typename... Args>
struct member_func_meta<Object, ExtraTypes, Ret (Class::*)(Args...) const noexcept> : ObjType<Object, ExtraTypes, Ret, Args...> {
    static constexpr bool is_const = true;
};
template<template<typename...> typename Object, typename ExtraTypes, typename Ret, typename Class, typename... Args>
struct member_func_meta<Object, ExtraTypes, Ret (Class::*)(Args...) noexcept> : ObjType<Object, ExtraTypes, Ret, Args...> {
    static constexpr bool is_const = false;
};
}// namespace detail

struct TensorDescriptor {
    luisa::fixed_vector<uint64_t, 4> _sizes;
    TensorElementType _type;
    TensorDescriptor(std::initializer_list<uint64_t> dimensions, TensorElementType type) noexcept : _type(type) {}
    TensorDescriptor(luisa::span<uint64_t const> dimensions, TensorElementType type) noexcept : _type(type) {}
};

namespace detail {
// What compile() takes for a parameter of the tensor lambda: a TensorDescriptor for a Tensor.
template<typename T>
struct tensor_kernel_type {
    using Type = T;
};
template<>
struct tensor_kernel_type<Tensor> {
    using Type = TensorDescriptor;
};
}// namespace detail

template<typename Lambda, typename Ret, typename... Args>
struct TensorKernel {
    Lambda _lambda;
    TensorInterface *_tensor_interface;
    void *_kernel_ptr{nullptr};
public:
    explicit TensorKernel(TensorInterface *tensor_interface, Lambda &&lambda) noexcept
        : _lambda(std::forward<Lambda>(lambda)), _tensor_interface(tensor_interface) {}
    void compile(typename detail::tensor_kernel_type<Args>::Type... args) noexcept {}
    // One buffer or buffer view per parameter.
    template<typename... ExecArgs>
        requires(sizeof...(Args) == sizeof...(ExecArgs) &&
                 (is_buffer_or_view_v<std::remove_cvref_t<ExecArgs>> && ...))
    luisa::vector<BufferView<float4>> execute(CommandList &cmdlist, ExecArgs const &...args) noexcept { return {}; }
    ~TensorKernel() noexcept {}
};

template<typename Lambda>
static auto load_tensor(TensorInterface *tensor_interface, Lambda &&lambda) noexcept {
    using FuncType = decltype(&std::remove_cvref_t<decltype(lambda)>::operator());
    using KernelType = typename detail::member_func_meta<TensorKernel, Lambda, FuncType>::Type;
    return KernelType{tensor_interface, std::forward<Lambda>(lambda)};
}

}// namespace luisa::compute
