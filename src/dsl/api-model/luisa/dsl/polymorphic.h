#pragma once
// kernel-tidy API model of luisa/dsl/polymorphic.h
#include <luisa/core/stl.h>
#include <luisa/dsl/expr_traits.h>
#include <luisa/dsl/builtin.h>
#include <luisa/dsl/stmt.h>
namespace luisa::compute {
template<typename T>
class Polymorphic {
private:
    luisa::vector<luisa::unique_ptr<T>> _impl;
public:
    [[nodiscard]] auto empty() const noexcept { return _impl.empty(); }
    [[nodiscard]] auto size() const noexcept { return _impl.size(); }
    [[nodiscard]] auto impl(size_t i) noexcept { return _impl[i].get(); }
    [[nodiscard]] auto impl(size_t i) const noexcept { return const_cast<const T *>(_impl[i].get()); }
    [[nodiscard]] auto emplace(luisa::unique_ptr<T> impl) noexcept { return static_cast<uint>(_impl.size()); }
    template<typename Impl, typename... Args>
        requires std::derived_from<Impl, T>
    [[nodiscard]] auto create(Args &&...args) noexcept { return static_cast<uint>(_impl.size()); }
    template<typename Tag>
        requires is_integral_expr_v<Tag>
    void dispatch_with_default(Tag &&tag, const luisa::function<void(const T *)> &f,
                               const luisa::function<void()> &default_case = ([] {})) const noexcept {}
    template<typename Tag>
        requires is_integral_expr_v<Tag>
    void dispatch_range_with_default(Tag &&tag, uint lo, uint hi, const luisa::function<void(const T *)> &f,
                                     const luisa::function<void()> &default_case = ([] {})) const noexcept {}
    template<typename Tag, typename Group>
        requires is_integral_expr_v<Tag>
    void dispatch_group_with_default(Tag &&tag, const Group &group, const luisa::function<void(const T *)> &f,
                                     const luisa::function<void()> &default_case = ([] {})) const noexcept {}
    template<typename Tag>
        requires is_integral_expr_v<Tag>
    void dispatch(Tag &&tag, const luisa::function<void(const T *)> &f) const noexcept {}
    template<typename Tag>
        requires is_integral_expr_v<Tag>
    void dispatch_range(Tag &&tag, uint lo, uint hi, const luisa::function<void(const T *)> &f) const noexcept {}
    template<typename Tag, typename Group>
        requires is_integral_expr_v<Tag>
    void dispatch_group(Tag &&tag, const Group &group, const luisa::function<void(const T *)> &f) const noexcept {}
};
}// namespace luisa::compute
