#pragma once
// Internal: Metal's math functions on one float (MSL specification, section 6.5), computed so
// that every host gives the same bits (Note [The same bits on every host] in
// engine/pytorch/src/kernels/portable_math.h): the transcendental functions come from the
// engine's own series in double precision, rounded once to float; the rest are IEEE operations
// that round exactly. Results can differ from an Apple GPU's in the last bit (Metal's precise
// functions are accurate to a few units in the last place, not correctly rounded); they never
// differ between the hosts the course runs on. half is computed as float, then rounded.

#include "builtins.h"

namespace engine::metal::detail {

float msl_unary(Builtin function, float x);  // exp ... isfinite, as floats (1 or 0)
float msl_binary(Builtin function, float x,
                 float y);  // pow, powr, fmin, fmax, fmod, copysign, step
float msl_ternary(Builtin function, float x, float y, float z);  // fma, mix

}  // namespace engine::metal::detail
