#pragma once
// Internal: the functions of Metal's standard library the emulator implements (the checker
// resolves a call to one of these; the executor runs it), and the kernel inputs that
// attributes such as [[thread_position_in_grid]] give a parameter.

#include <cstdint>
#include <optional>
#include <string_view>

namespace engine::metal::detail {

enum class Builtin : std::uint8_t {
  None,
  // per-component math on half and float (MSL specification, section 6.5)
  Exp,
  Exp2,
  Exp10,
  Log,
  Log2,
  Log10,
  Sqrt,
  Rsqrt,
  Sin,
  Cos,
  Tan,
  Tanh,
  Sinh,
  Cosh,
  Floor,
  Ceil,
  Round,
  Trunc,
  Rint,
  Fract,
  Sign,
  Saturate,
  Fabs,
  IsNan,
  IsInf,
  IsFinite,
  Pow,
  Powr,
  Fmin,
  Fmax,
  Fmod,
  Copysign,
  Step,
  Fma,
  Mix,
  // on integers and floating point alike (section 6.4)
  Abs,
  Min,
  Max,
  Clamp,
  Popcount,
  Select,
  // geometric and relational (sections 6.6, 6.7)
  Dot,
  Length,
  Normalize,
  All,
  Any,
  // as_type<T>(x): the same bits seen as another type of the same size
  AsType,
  // synchronization (section 6.9)
  ThreadgroupBarrier,
  // SIMD-group functions (section 6.9.2)
  SimdSum,
  SimdProduct,
  SimdMax,
  SimdMin,
  SimdPrefixExclusiveSum,
  SimdPrefixInclusiveSum,
  SimdShuffle,
  SimdShuffleDown,
  SimdShuffleUp,
  SimdShuffleXor,
  SimdBroadcast,
  SimdBroadcastFirst,
  SimdAll,
  SimdAny,
  // atomics (section 6.15), memory_order_relaxed being the only order MSL has
  AtomicLoad,
  AtomicStore,
  AtomicExchange,
  AtomicFetchAdd,
  AtomicFetchSub,
  AtomicFetchMin,
  AtomicFetchMax,
  AtomicFetchAnd,
  AtomicFetchOr,
  AtomicFetchXor,
  AtomicCompareExchangeWeak,
};

// The builtin a name in a call means (without its metal::, precise:: or fast:: qualifier).
std::optional<Builtin> find_builtin(std::string_view name);
std::string_view builtin_name(Builtin builtin);
// MSL functions the emulator does not implement, for a diagnostic that says so instead of
// "use of undeclared identifier".
bool is_unimplemented_msl_function(std::string_view name);

// What an attribute on a kernel parameter gives it (MSL specification, section 5.2.3.6).
enum class KernelInput : std::uint8_t {
  ThreadPositionInGrid,
  ThreadPositionInThreadgroup,
  ThreadgroupPositionInGrid,
  ThreadsPerThreadgroup,
  DispatchThreadsPerThreadgroup,
  ThreadsPerGrid,
  ThreadgroupsPerGrid,
  ThreadIndexInThreadgroup,
  ThreadIndexInSimdgroup,
  SimdgroupIndexInThreadgroup,
  ThreadsPerSimdgroup,
  SimdgroupsPerThreadgroup,
};
std::optional<KernelInput> find_kernel_input(std::string_view attribute);
// Whether the input is a position or size with up to three components (uint, uint2, uint3),
// or a single index (uint).
bool is_vector_input(KernelInput input);

}  // namespace engine::metal::detail
