#pragma once
#include <type_traits>
#include <utility>
