#pragma once
// kernel-tidy API model of luisa/ast/type.h (type reflection traits only).
#include <tuple>
#include <array>
#include <luisa/core/basic_types.h>
#include <luisa/core/stl/string.h>

namespace luisa::compute {

class Type {
public:
    template<typename T>
    [[nodiscard]] static const Type *of() noexcept { return nullptr; }
    [[nodiscard]] static const Type *from(luisa::string_view) noexcept { return nullptr; }
    [[nodiscard]] luisa::string_view description() const noexcept { return {}; }
    [[nodiscard]] size_t size() const noexcept { return 0u; }
};

template<typename T>
struct struct_member_tuple {
    using type = std::tuple<T>;
};
template<typename T>
struct struct_member_tuple<Vector<T, 2>> { using type = std::tuple<T, T>; };
template<typename T>
struct struct_member_tuple<Vector<T, 3>> { using type = std::tuple<T, T, T>; };
template<typename T>
struct struct_member_tuple<Vector<T, 4>> { using type = std::tuple<T, T, T, T>; };
template<typename T>
struct struct_member_tuple<Matrix<T, 2>> { using type = std::tuple<Vector<T, 2>, Vector<T, 2>>; };
template<typename T>
struct struct_member_tuple<Matrix<T, 3>> { using type = std::tuple<Vector<T, 3>, Vector<T, 3>, Vector<T, 3>>; };
template<typename T>
struct struct_member_tuple<Matrix<T, 4>> { using type = std::tuple<Vector<T, 4>, Vector<T, 4>, Vector<T, 4>, Vector<T, 4>>; };
template<typename... T>
struct struct_member_tuple<std::tuple<T...>> { using type = std::tuple<T...>; };
template<typename T, size_t N>
struct struct_member_tuple<std::array<T, N>> { using type = std::array<T, N>; };
template<typename T, size_t N>
struct struct_member_tuple<T[N]> { using type = std::array<T, N>; };
template<typename T>
using struct_member_tuple_t = typename struct_member_tuple<T>::type;

template<typename T>
struct linear_layout { using type = std::tuple<T>; };
template<typename T>
using linear_layout_t = typename linear_layout<T>::type;

template<typename T>
struct is_struct : std::false_type {};
template<typename... T>
struct is_struct<std::tuple<T...>> : std::true_type {};
template<typename T>
constexpr auto is_struct_v = is_struct<T>::value;

template<typename T>
struct is_array : std::false_type {};
template<typename T, size_t N>
struct is_array<std::array<T, N>> : std::true_type {};
template<typename T, size_t N>
struct is_array<T[N]> : std::true_type {};
template<typename T>
constexpr auto is_array_v = is_array<T>::value;
template<typename T>
struct array_element { using type = T; };
template<typename T, size_t N>
struct array_element<std::array<T, N>> { using type = T; };
template<typename T, size_t N>
struct array_element<T[N]> { using type = T; };
template<typename T>
using array_element_t = typename array_element<T>::type;
template<typename T>
struct array_dimension { static constexpr size_t value = 0u; };
template<typename T, size_t N>
struct array_dimension<std::array<T, N>> { static constexpr size_t value = N; };
template<typename T, size_t N>
struct array_dimension<T[N]> { static constexpr size_t value = N; };
template<typename T>
constexpr auto array_dimension_v = array_dimension<T>::value;

template<typename T>
struct is_tuple : std::false_type {};
template<typename... T>
struct is_tuple<std::tuple<T...>> : std::true_type {};
template<typename T>
constexpr auto is_tuple_v = is_tuple<T>::value;

template<typename T>
struct dimension { static constexpr size_t value = std::tuple_size_v<struct_member_tuple_t<T>>; };
template<typename T>
constexpr auto dimension_v = dimension<T>::value;

/// backend-specific custom types (LUISA_CUSTOM_STRUCT_REFLECT); not set by LUISA_STRUCT
template<typename T>
struct is_custom_struct : std::false_type {};
template<typename T>
constexpr auto is_custom_struct_v = is_custom_struct<T>::value;

}// namespace luisa::compute
