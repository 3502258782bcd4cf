// The object that carries the precompiled header of the LuisaCompute DSL, which the
// fuzzers' generated batches reuse (integration/simt/CMakeLists.txt): it has no code.
