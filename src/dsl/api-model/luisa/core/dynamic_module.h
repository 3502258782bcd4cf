#pragma once
// kernel-tidy API model of luisa/core/dynamic_module.h
#include <luisa/core/stl/string.h>
namespace luisa {
class DynamicModule {
public:
    DynamicModule() noexcept = default;
    DynamicModule(DynamicModule &&) noexcept = default;
    DynamicModule &operator=(DynamicModule &&) noexcept = default;
    template<typename F>
    [[nodiscard]] F *function(luisa::string_view name) const noexcept { return nullptr; }
    template<typename F, typename... Args>
    decltype(auto) invoke(luisa::string_view name, Args &&...args) const noexcept { return function<F>(name)(static_cast<Args &&>(args)...); }
    [[nodiscard]] explicit operator bool() const noexcept { return true; }
    [[nodiscard]] static DynamicModule load(luisa::string_view name) noexcept { return {}; }
    [[nodiscard]] static DynamicModule load(luisa::string_view folder, luisa::string_view name) noexcept { return {}; }
};
}// namespace luisa
