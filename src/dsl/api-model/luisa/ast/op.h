#pragma once
#include <cstdint>
namespace luisa::compute {
enum struct UnaryOp : uint32_t { PLUS, MINUS, NOT, BIT_NOT };
enum struct BinaryOp : uint32_t {
    ADD, SUB, MUL, DIV, MOD, BIT_AND, BIT_OR, BIT_XOR, SHL, SHR, AND, OR,
    LESS, GREATER, LESS_EQUAL, GREATER_EQUAL, EQUAL, NOT_EQUAL
};
enum struct CastOp : uint32_t { STATIC, BITWISE };
enum struct CallOp : uint32_t { CUSTOM, EXTERNAL };
}// namespace luisa::compute
