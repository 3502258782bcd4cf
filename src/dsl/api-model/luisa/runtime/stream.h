#pragma once
// kernel-tidy API model of luisa/runtime/stream.h
#include <tuple>
#include <luisa/core/stl/functional.h>
#include <luisa/runtime/rhi/resource.h>
#include <luisa/runtime/rhi/command.h>
#include <luisa/runtime/command_list.h>
#include <luisa/runtime/event.h>

namespace luisa::compute {

class Stream final : public Resource {
public:
    struct Commit {};
    struct Synchronize {};
    class Delegate {
    private:
        Stream *_stream;
        CommandList _command_list;
        friend class Stream;
        explicit Delegate(Stream *s) noexcept : _stream{s} {}
    public:
        Delegate(Delegate &&) noexcept = default;
        ~Delegate() noexcept = default;
        Delegate(const Delegate &) noexcept = delete;
        Delegate &operator=(Delegate &&) noexcept = delete;
        Delegate &operator=(const Delegate &) noexcept = delete;
        Delegate operator<<(luisa::unique_ptr<Command> &&cmd) && noexcept { return std::move(*this); }
        Delegate operator<<(luisa::move_only_function<void()> &&f) && noexcept { return std::move(*this); }
        template<typename T>
            requires std::is_rvalue_reference_v<T &&> && is_stream_event_v<T>
        Stream &operator<<(T &&t) && noexcept { return *_stream; }
        Stream &operator<<(CommandList::Commit &&commit) && noexcept { return *_stream; }
        Stream &operator<<(Synchronize &&) && noexcept { return *_stream; }
        Stream &operator<<(Commit &&) && noexcept { return *_stream; }
        template<typename P>
            requires requires(P p) { p.chain; p.frame; }
        Stream &operator<<(P p) && noexcept { return *_stream; }// Swapchain::Present
        template<typename... T>
        decltype(auto) operator<<(std::tuple<T...> args) && noexcept { return std::move(*this); }
    };

private:
    StreamTag _stream_tag{};

public:
    Stream() noexcept = default;
    ~Stream() noexcept override = default;
    Stream(Stream &&) noexcept = default;
    Stream(Stream const &) noexcept = delete;
    Stream &operator=(Stream &&rhs) noexcept = default;
    Stream &operator=(Stream const &) noexcept = delete;
    using Resource::operator bool;
    using Resource::release;
    Delegate operator<<(luisa::unique_ptr<Command> &&cmd) noexcept { return Delegate{this}; }
    Delegate operator<<(luisa::move_only_function<void()> &&f) noexcept { return Delegate{this}; }
    template<typename T>
        requires std::is_rvalue_reference_v<T &&> && is_stream_event_v<T>
    Stream &operator<<(T &&t) noexcept { return *this; }
    Stream &operator<<(CommandList::Commit &&commit) noexcept { return *this; }
    Stream &operator<<(Synchronize &&) noexcept { return *this; }
    template<typename P>
        requires requires(P p) { p.chain; p.frame; }
    Stream &operator<<(P p) noexcept { return *this; }// Swapchain::Present
    void synchronize() noexcept {}
    [[nodiscard]] auto stream_tag() const noexcept { return _stream_tag; }
    template<typename... T>
    decltype(auto) operator<<(std::tuple<T...> &&args) noexcept { return Delegate{this}; }
    template<typename F>
    void set_log_callback(F &&callback) noexcept {}
};

[[nodiscard]] constexpr auto commit() noexcept { return Stream::Commit{}; }
[[nodiscard]] constexpr auto synchronize() noexcept { return Stream::Synchronize{}; }

}// namespace luisa::compute
