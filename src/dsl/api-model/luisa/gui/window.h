#pragma once
// kernel-tidy API model of luisa/gui/window.h
#include <luisa/core/dll_export.h>
#include <luisa/core/stl/string.h>
#include <luisa/core/basic_types.h>
#include <luisa/core/stl/functional.h>
#include <luisa/core/stl/memory.h>
#include <luisa/gui/input.h>
struct GLFWwindow;
namespace luisa::compute {
class Window {
public:
    using MouseButtonCallback = luisa::move_only_function<void(MouseButton button, Action action, float2 xy)>;
    using CursorPositionCallback = luisa::move_only_function<void(float2 xy)>;
    using WindowSizeCallback = luisa::move_only_function<void(uint2 size)>;
    using KeyCallback = luisa::move_only_function<void(Key key, KeyModifiers modifiers, Action action)>;
    using ScrollCallback = luisa::move_only_function<void(float2 dxdy)>;
private:
    string _name;
    uint2 _size;
public:
    Window(string name, uint width, uint height, bool resizable = false, bool full_screen = false) noexcept {}
    Window(string name, uint2 size, bool resizable = false) noexcept {}
    Window(const Window &) = delete;
    Window(Window &&) = default;
    Window &operator=(Window &&) noexcept = default;
    Window &operator=(const Window &) noexcept = delete;
    [[nodiscard]] GLFWwindow *window() const noexcept { return nullptr; }
    [[nodiscard]] uint64_t native_handle() const noexcept { return 0u; }
    [[nodiscard]] uint64_t native_display() const noexcept { return 0u; }
    [[nodiscard]] bool should_close() const noexcept { return true; }
    void set_should_close(bool should_close = true) noexcept {}
    [[nodiscard]] auto size() const noexcept { return _size; }
    [[nodiscard]] luisa::string_view name() const noexcept { return _name; }
    Window &set_mouse_callback(MouseButtonCallback cb) noexcept { return *this; }
    Window &set_cursor_position_callback(CursorPositionCallback cb) noexcept { return *this; }
    Window &set_window_size_callback(WindowSizeCallback cb) noexcept { return *this; }
    Window &set_key_callback(KeyCallback cb) noexcept { return *this; }
    Window &set_scroll_callback(ScrollCallback cb) noexcept { return *this; }
    void poll_events() noexcept {}
    [[nodiscard]] bool is_key_down(Key key) const noexcept { return false; }
    [[nodiscard]] bool is_mouse_button_down(MouseButton mb) const noexcept { return false; }
    [[nodiscard]] explicit operator bool() const noexcept { return true; }
};
}// namespace luisa::compute
