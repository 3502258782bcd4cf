#pragma once
#include <luisa/runtime/event.h>
