"""The cute-* rules: id -> check(Context) returning findings. The ids, fix
kinds and summaries are registered in rules/Rules.def with the C++ rules
(the RuleRegistry tests compare both lists)."""

from . import (butterfly_reduction, calling_convention, divergent_barrier,
               hardcoded_warp_width, jit_recompile, launch_config)

RULES = {
    "cute-calling-convention": calling_convention.check,
    "cute-launch-config": launch_config.check,
    "cute-butterfly-reduction": butterfly_reduction.check,
    "cute-hardcoded-warp-width": hardcoded_warp_width.check,
    "cute-divergent-barrier": divergent_barrier.check,
    "cute-jit-recompile": jit_recompile.check,
}
