#pragma once
#include <luisa/ast/expression.h>
namespace luisa::compute::detail {
class AtomicRefNode {};
}// namespace luisa::compute::detail
