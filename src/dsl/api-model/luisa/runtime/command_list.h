#pragma once
// kernel-tidy API model of luisa/runtime/command_list.h
// LuisaCompute 2024-10 and the xiaohunqupo fork (2026-05) agree on create(),
// operator<<, append, add_callback, commit() and the deleted move assignment;
// add_range/operator<<(CommandList &&)/add_dtor_callback are the fork's.
#include <luisa/core/stl/functional.h>
#include <luisa/core/stl/span.h>
#include <luisa/runtime/rhi/command.h>
namespace luisa::compute {
class CommandList {
public:
    class Commit {};
    CommandList() noexcept = default;
    CommandList(CommandList &&) noexcept = default;
    CommandList &operator=(CommandList &&) noexcept = delete;
    [[nodiscard]] static CommandList create(size_t reserved_command_size = 0u, size_t reserved_callback_size = 0u) noexcept { return {}; }
    void reserve(size_t command_size, size_t callback_size) noexcept {}
    CommandList &operator<<(luisa::unique_ptr<Command> &&cmd) noexcept { return *this; }
    CommandList &append(luisa::unique_ptr<Command> &&cmd) noexcept { return *this; }
    CommandList &add_callback(luisa::move_only_function<void()> &&callback) noexcept { return *this; }
    CommandList &add_dtor_callback(luisa::move_only_function<void()> &&callback) noexcept { return *this; }
    CommandList &add_range(CommandList &&cmdlist) noexcept { return *this; }
    CommandList &operator<<(CommandList &&cmdlist) noexcept { return add_range(std::move(cmdlist)); }
    void clear() noexcept {}
    [[nodiscard]] luisa::span<const luisa::unique_ptr<Command>> commands() const noexcept { return {}; }
    [[nodiscard]] bool empty() const noexcept { return true; }
    [[nodiscard]] Commit commit() noexcept { return {}; }
};
}// namespace luisa::compute
