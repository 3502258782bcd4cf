#include <luisa/luisa-compute.h>
#include <no/such/header.h>
void f() {}
