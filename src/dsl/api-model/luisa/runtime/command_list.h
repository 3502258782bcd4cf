#pragma once
// kernel-tidy API model of luisa/runtime/command_list.h
#include <luisa/runtime/rhi/command.h>
namespace luisa::compute {
class CommandList {
public:
    class Commit {};
    CommandList() noexcept = default;
    CommandList(CommandList &&) noexcept = default;
    CommandList &operator=(CommandList &&) noexcept = default;
    [[nodiscard]] static CommandList create(size_t reserved_command_size = 0u, size_t reserved_callback_size = 0u) noexcept { return {}; }
    void reserve(size_t command_size, size_t callback_size) noexcept {}
    CommandList &operator<<(luisa::unique_ptr<Command> &&cmd) & noexcept { return *this; }
    CommandList &append(luisa::unique_ptr<Command> &&cmd) & noexcept { return *this; }
    CommandList &add_callback(luisa::move_only_function<void()> &&callback) & noexcept { return *this; }
    void clear() noexcept {}
    [[nodiscard]] size_t size() const noexcept { return 0u; }
    [[nodiscard]] bool empty() const noexcept { return true; }
    [[nodiscard]] Commit commit() noexcept { return {}; }
};
}// namespace luisa::compute
