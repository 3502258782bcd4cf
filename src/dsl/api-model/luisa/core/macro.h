#pragma once
// kernel-tidy API model: subset of luisa/core/macro.h
#define LUISA_STRINGIFY_IMPL(x) #x
#define LUISA_STRINGIFY(x) LUISA_STRINGIFY_IMPL(x)
#define LUISA_CONCAT_IMPL(a, b) a##b
#define LUISA_CONCAT(a, b) LUISA_CONCAT_IMPL(a, b)
#define LUISA_FORCE_INLINE inline
#define LUISA_NEVER_INLINE
#define LUISA_DEBUG_TRAP() __builtin_trap()

// LUISA_MAP(f, ...): apply f to each argument (up to 64)
#define LUISA_MAP_EVAL0(...) __VA_ARGS__
#define LUISA_MAP_EVAL1(...) LUISA_MAP_EVAL0(LUISA_MAP_EVAL0(LUISA_MAP_EVAL0(__VA_ARGS__)))
#define LUISA_MAP_EVAL2(...) LUISA_MAP_EVAL1(LUISA_MAP_EVAL1(LUISA_MAP_EVAL1(__VA_ARGS__)))
#define LUISA_MAP_EVAL3(...) LUISA_MAP_EVAL2(LUISA_MAP_EVAL2(LUISA_MAP_EVAL2(__VA_ARGS__)))
#define LUISA_MAP_EVAL(...) LUISA_MAP_EVAL3(LUISA_MAP_EVAL3(LUISA_MAP_EVAL3(__VA_ARGS__)))
#define LUISA_MAP_END(...)
#define LUISA_MAP_OUT
#define LUISA_MAP_GET_END2() 0, LUISA_MAP_END
#define LUISA_MAP_GET_END1(...) LUISA_MAP_GET_END2
#define LUISA_MAP_GET_END(...) LUISA_MAP_GET_END1
#define LUISA_MAP_NEXT0(test, next, ...) next LUISA_MAP_OUT
#define LUISA_MAP_NEXT1(test, next) LUISA_MAP_NEXT0(test, next, 0)
#define LUISA_MAP_NEXT(test, next) LUISA_MAP_NEXT1(LUISA_MAP_GET_END test, next)
#define LUISA_MAP0(f, x, peek, ...) f(x) LUISA_MAP_NEXT(peek, LUISA_MAP1)(f, peek, __VA_ARGS__)
#define LUISA_MAP1(f, x, peek, ...) f(x) LUISA_MAP_NEXT(peek, LUISA_MAP0)(f, peek, __VA_ARGS__)
#define LUISA_MAP(f, ...) LUISA_MAP_EVAL(LUISA_MAP1(f, __VA_ARGS__, ()()(), ()()(), ()()(), 0))
#define LUISA_MAP_LIST0(f, x, peek, ...) , f(x) LUISA_MAP_NEXT(peek, LUISA_MAP_LIST1)(f, peek, __VA_ARGS__)
#define LUISA_MAP_LIST1(f, x, peek, ...) , f(x) LUISA_MAP_NEXT(peek, LUISA_MAP_LIST0)(f, peek, __VA_ARGS__)
#define LUISA_MAP_LIST2(f, x, peek, ...) f(x) LUISA_MAP_NEXT(peek, LUISA_MAP_LIST1)(f, peek, __VA_ARGS__)
#define LUISA_MAP_LIST(f, ...) LUISA_MAP_EVAL(LUISA_MAP_LIST2(f, __VA_ARGS__, ()()(), ()()(), ()()(), 0))

#define LUISA_MACRO_EVAL0(...) __VA_ARGS__
#define LUISA_MACRO_EVAL1(...) LUISA_MACRO_EVAL0(LUISA_MACRO_EVAL0(LUISA_MACRO_EVAL0(__VA_ARGS__)))
#define LUISA_MACRO_EVAL2(...) LUISA_MACRO_EVAL1(LUISA_MACRO_EVAL1(LUISA_MACRO_EVAL1(__VA_ARGS__)))
#define LUISA_MACRO_EVAL(...) LUISA_MACRO_EVAL2(__VA_ARGS__)
#define LUISA_MACRO_EMPTY()
#define LUISA_MACRO_DEFER(id) id LUISA_MACRO_EMPTY()
