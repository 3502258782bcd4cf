#pragma once
// kernel-tidy API model of luisa/runtime/context.h
#include <luisa/core/stl.h>
#include <luisa/runtime/device.h>

namespace luisa::compute {

struct DeviceConfig {
    const void *extension{nullptr};
    size_t device_index{~0ull};
    bool inqueue_buffer_limit{true};
    bool headless{false};
};

class Context {
public:
    explicit Context(luisa::string_view program_path) noexcept {}
    explicit Context(const char *program_path) noexcept {}
    Context(Context &&) noexcept = default;
    Context(const Context &) noexcept = default;
    Context &operator=(Context &&) noexcept = default;
    Context &operator=(const Context &) noexcept = default;
    ~Context() noexcept = default;
    [[nodiscard]] Device create_device(luisa::string_view backend_name,
                                       const DeviceConfig *settings = nullptr,
                                       bool enable_validation = false) noexcept { return {}; }
    [[nodiscard]] Device create_default_device() noexcept { return {}; }
    [[nodiscard]] luisa::span<const luisa::string> installed_backends() const noexcept { return {}; }
    [[nodiscard]] luisa::vector<luisa::string> backend_device_names(luisa::string_view backend_name) const noexcept { return {}; }
    [[nodiscard]] luisa::string runtime_directory() const noexcept { return {}; }
};

}// namespace luisa::compute
