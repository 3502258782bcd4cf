#pragma once
#include <luisa/runtime/rhi/resource.h>
namespace luisa::compute {
class Event final : public Resource {
public:
    struct Signal { const Event *event; };
    struct Wait { const Event *event; };
    Event() noexcept = default;
    Event(Event &&) noexcept = default;
    Event &operator=(Event &&) noexcept = default;
    [[nodiscard]] Signal signal() const noexcept { return {this}; }
    [[nodiscard]] Wait wait() const noexcept { return {this}; }
    void synchronize() const noexcept {}
    [[nodiscard]] bool is_completed() const noexcept { return true; }
};
class TimelineEvent final : public Resource {
public:
    struct Signal { const TimelineEvent *event; uint64_t fence; };
    struct Wait { const TimelineEvent *event; uint64_t fence; };
    TimelineEvent() noexcept = default;
    TimelineEvent(TimelineEvent &&) noexcept = default;
    TimelineEvent &operator=(TimelineEvent &&) noexcept = default;
    [[nodiscard]] Signal signal(uint64_t fence) const noexcept { return {this, fence}; }
    [[nodiscard]] Wait wait(uint64_t fence) const noexcept { return {this, fence}; }
    void synchronize(uint64_t fence) const noexcept {}
    [[nodiscard]] bool is_completed(uint64_t fence) const noexcept { return true; }
};
template<typename T>
struct is_stream_event : std::false_type {};
template<>
struct is_stream_event<Event::Signal> : std::true_type {};
template<>
struct is_stream_event<Event::Wait> : std::true_type {};
template<>
struct is_stream_event<TimelineEvent::Signal> : std::true_type {};
template<>
struct is_stream_event<TimelineEvent::Wait> : std::true_type {};
template<typename T>
constexpr bool is_stream_event_v = is_stream_event<std::remove_cvref_t<T>>::value;
}// namespace luisa::compute
