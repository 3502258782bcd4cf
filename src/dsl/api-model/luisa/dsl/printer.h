#pragma once
// kernel-tidy API model of luisa/dsl/printer.h: the kernel printer of the 2024
// releases (LuisaCompute 79f4795, which LuisaRender pins; removed by 2024-10,
// whose kernels log with device_log). Kernels call the logging members; the host
// resets it and retrieves the logs through a stream.
#include <tuple>
#include <luisa/core/stl.h>
#include <luisa/core/stl/functional.h>
#include <luisa/runtime/device.h>
#include <luisa/runtime/stream.h>
#include <luisa/runtime/rhi/command.h>

namespace luisa::compute {

class Printer {
public:
    explicit Printer(Device &device, luisa::string_view name = "device",
                     size_t capacity = 1024u * 1024u) noexcept {}
    /// Must reach the stream before any dispatch that logs.
    [[nodiscard]] luisa::unique_ptr<Command> reset() noexcept { return {}; }
    /// Download, print, reset and synchronize, for `stream << printer.retrieve()`.
    [[nodiscard]] std::tuple<luisa::unique_ptr<Command>, luisa::move_only_function<void()>,
                             luisa::unique_ptr<Command>, Stream::Synchronize>
    retrieve(bool abort_on_error = false) noexcept { return {}; }
    template<typename... Args>
    void verbose(luisa::string fmt, Args &&...args) noexcept {}
    template<typename... Args>
    void info(luisa::string fmt, Args &&...args) noexcept {}
    template<typename... Args>
    void warning(luisa::string fmt, Args &&...args) noexcept {}
    template<typename... Args>
    void error(luisa::string fmt, Args &&...args) noexcept {}
    template<typename... Args>
    void verbose_with_location(luisa::string fmt, Args &&...args) noexcept {}
    template<typename... Args>
    void info_with_location(luisa::string fmt, Args &&...args) noexcept {}
    template<typename... Args>
    void warning_with_location(luisa::string fmt, Args &&...args) noexcept {}
    template<typename... Args>
    void error_with_location(luisa::string fmt, Args &&...args) noexcept {}
    [[nodiscard]] bool empty() const noexcept { return true; }
};

}// namespace luisa::compute
