#pragma once
// kernel-tidy API model of luisa/runtime/rhi/device_interface.h: the base of
// the backend extensions (DeviceInterface itself is in runtime/device.h).
#include <luisa/runtime/device.h>

namespace luisa::compute {

class DeviceExtension {
protected:
    ~DeviceExtension() noexcept = default;
};

}// namespace luisa::compute
