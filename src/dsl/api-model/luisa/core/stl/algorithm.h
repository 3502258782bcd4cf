#pragma once
// kernel-tidy API model of luisa/core/stl/algorithm.h: the names it gives
// `luisa` (declarations; the real ones are EASTL's and pdqsort's).
#include <type_traits>
#include <utility>

// pdqsort.h (which the real header includes) declares these globally.
template<class Iter, class Compare>
void pdqsort(Iter begin, Iter end, Compare comp) {}
template<class Iter>
void pdqsort(Iter begin, Iter end) {}
template<class Iter, class Compare>
void pdqsort_branchless(Iter begin, Iter end, Compare comp) {}
template<class Iter>
void pdqsort_branchless(Iter begin, Iter end) {}

namespace luisa {

using std::swap;

template<class InputIt, class OutputIt, class UnaryOp>
OutputIt transform(InputIt first, InputIt last, OutputIt out, UnaryOp op);
template<class InputIt1, class InputIt2, class OutputIt, class BinaryOp>
OutputIt transform(InputIt1 first1, InputIt1 last1, InputIt2 first2, OutputIt out, BinaryOp op);
template<class ForwardIt, class T>
bool binary_search(ForwardIt first, ForwardIt last, const T &value);
template<class ForwardIt, class T, class Compare>
bool binary_search(ForwardIt first, ForwardIt last, const T &value, Compare comp);

template<typename Begin, typename End>
void sort(Begin &&begin, End &&end) noexcept {}
template<typename Begin, typename End, typename Compare>
void sort(Begin &&begin, End &&end, Compare &&comp) noexcept {}

}// namespace luisa
