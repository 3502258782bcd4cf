#pragma once
namespace luisa {
inline namespace constants {
constexpr auto pi = 3.14159265358979323846264338327950288f;
constexpr auto pi_over_two = 1.57079632679489661923132169163975144f;
constexpr auto pi_over_four = 0.785398163397448309615660845819875721f;
constexpr auto inv_pi = 0.318309886183790671537767526745028724f;
constexpr auto two_over_pi = 0.636619772367581343075535053490057448f;
constexpr auto sqrt_two = 1.41421356237309504880168872420969808f;
constexpr auto inv_sqrt_two = 0.707106781186547524400844362104849039f;
constexpr auto one_minus_epsilon = 0x1.fffffep-1f;
}// namespace constants
}// namespace luisa
