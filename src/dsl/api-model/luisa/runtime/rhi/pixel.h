#pragma once
#include <luisa/core/basic_types.h>
namespace luisa::compute {
enum struct PixelStorage : uint32_t {
    BYTE1, BYTE2, BYTE4, SHORT1, SHORT2, SHORT4, INT1, INT2, INT4,
    HALF1, HALF2, HALF4, FLOAT1, FLOAT2, FLOAT4, R10G10B10A2, R11G11B10,
    BC1, BC2, BC3, BC4, BC5, BC6, BC7
};
enum struct PixelFormat : uint32_t {
    R8SInt, R8UInt, R8UNorm, RG8SInt, RG8UInt, RG8UNorm, RGBA8SInt, RGBA8UInt, RGBA8UNorm,
    R16SInt, R16UInt, R16UNorm, RG16SInt, RG16UInt, RG16UNorm, RGBA16SInt, RGBA16UInt, RGBA16UNorm,
    R32SInt, R32UInt, RG32SInt, RG32UInt, RGBA32SInt, RGBA32UInt,
    R16F, RG16F, RGBA16F, R32F, RG32F, RGBA32F, R10G10B10A2UInt, R10G10B10A2UNorm, R11G11B10F,
    BC1UNorm, BC2UNorm, BC3UNorm, BC4UNorm, BC5UNorm, BC6HUF16, BC7UNorm
};
[[nodiscard]] constexpr size_t pixel_storage_size(PixelStorage, uint3) noexcept { return 0u; }
[[nodiscard]] constexpr size_t pixel_storage_size(PixelStorage, uint2) noexcept { return 0u; }
[[nodiscard]] constexpr PixelStorage pixel_format_to_storage(PixelFormat) noexcept { return PixelStorage::BYTE4; }
[[nodiscard]] constexpr uint pixel_storage_channel_count(PixelStorage) noexcept { return 4u; }
[[nodiscard]] constexpr PixelFormat pixel_storage_to_format(PixelStorage) noexcept { return PixelFormat{}; }
[[nodiscard]] constexpr size_t pixel_format_size(PixelFormat, uint3) noexcept { return 0u; }
[[nodiscard]] constexpr uint pixel_format_channel_count(PixelFormat) noexcept { return 4u; }
}// namespace luisa::compute
