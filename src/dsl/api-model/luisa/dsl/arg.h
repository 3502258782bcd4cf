#pragma once
namespace luisa::compute::detail {
struct ArgumentCreation {};
struct ReferenceArgumentCreation {};
}// namespace luisa::compute::detail
