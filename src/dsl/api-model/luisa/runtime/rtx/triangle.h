#pragma once
#include <cstdint>
namespace luisa::compute {
struct Triangle {
    uint32_t i0;
    uint32_t i1;
    uint32_t i2;
};
}// namespace luisa::compute
