#include "builtins.h"

#include <map>
#include <set>
#include <string>

namespace engine::metal::detail {
namespace {

const std::map<std::string_view, Builtin>& builtin_table() {
  static const std::map<std::string_view, Builtin> table = {
      {"exp", Builtin::Exp},
      {"exp2", Builtin::Exp2},
      {"exp10", Builtin::Exp10},
      {"log", Builtin::Log},
      {"log2", Builtin::Log2},
      {"log10", Builtin::Log10},
      {"sqrt", Builtin::Sqrt},
      {"rsqrt", Builtin::Rsqrt},
      {"sin", Builtin::Sin},
      {"cos", Builtin::Cos},
      {"tan", Builtin::Tan},
      {"tanh", Builtin::Tanh},
      {"sinh", Builtin::Sinh},
      {"cosh", Builtin::Cosh},
      {"floor", Builtin::Floor},
      {"ceil", Builtin::Ceil},
      {"round", Builtin::Round},
      {"trunc", Builtin::Trunc},
      {"rint", Builtin::Rint},
      {"fract", Builtin::Fract},
      {"sign", Builtin::Sign},
      {"saturate", Builtin::Saturate},
      {"fabs", Builtin::Fabs},
      {"isnan", Builtin::IsNan},
      {"isinf", Builtin::IsInf},
      {"isfinite", Builtin::IsFinite},
      {"pow", Builtin::Pow},
      {"powr", Builtin::Powr},
      {"fmin", Builtin::Fmin},
      {"fmax", Builtin::Fmax},
      {"fmod", Builtin::Fmod},
      {"copysign", Builtin::Copysign},
      {"step", Builtin::Step},
      {"fma", Builtin::Fma},
      {"mix", Builtin::Mix},
      {"abs", Builtin::Abs},
      {"min", Builtin::Min},
      {"max", Builtin::Max},
      {"clamp", Builtin::Clamp},
      {"popcount", Builtin::Popcount},
      {"select", Builtin::Select},
      {"dot", Builtin::Dot},
      {"length", Builtin::Length},
      {"normalize", Builtin::Normalize},
      {"all", Builtin::All},
      {"any", Builtin::Any},
      {"as_type", Builtin::AsType},
      {"threadgroup_barrier", Builtin::ThreadgroupBarrier},
      {"simd_sum", Builtin::SimdSum},
      {"simd_product", Builtin::SimdProduct},
      {"simd_max", Builtin::SimdMax},
      {"simd_min", Builtin::SimdMin},
      {"simd_prefix_exclusive_sum", Builtin::SimdPrefixExclusiveSum},
      {"simd_prefix_inclusive_sum", Builtin::SimdPrefixInclusiveSum},
      {"simd_shuffle", Builtin::SimdShuffle},
      {"simd_shuffle_down", Builtin::SimdShuffleDown},
      {"simd_shuffle_up", Builtin::SimdShuffleUp},
      {"simd_shuffle_xor", Builtin::SimdShuffleXor},
      {"simd_broadcast", Builtin::SimdBroadcast},
      {"simd_broadcast_first", Builtin::SimdBroadcastFirst},
      {"simd_all", Builtin::SimdAll},
      {"simd_any", Builtin::SimdAny},
      {"atomic_load_explicit", Builtin::AtomicLoad},
      {"atomic_store_explicit", Builtin::AtomicStore},
      {"atomic_exchange_explicit", Builtin::AtomicExchange},
      {"atomic_fetch_add_explicit", Builtin::AtomicFetchAdd},
      {"atomic_fetch_sub_explicit", Builtin::AtomicFetchSub},
      {"atomic_fetch_min_explicit", Builtin::AtomicFetchMin},
      {"atomic_fetch_max_explicit", Builtin::AtomicFetchMax},
      {"atomic_fetch_and_explicit", Builtin::AtomicFetchAnd},
      {"atomic_fetch_or_explicit", Builtin::AtomicFetchOr},
      {"atomic_fetch_xor_explicit", Builtin::AtomicFetchXor},
      {"atomic_compare_exchange_weak_explicit", Builtin::AtomicCompareExchangeWeak},
  };
  return table;
}

// Functions of Metal's standard library that the emulator leaves out.
const std::set<std::string_view> kUnimplemented = {"acos",
                                                   "acosh",
                                                   "asin",
                                                   "asinh",
                                                   "atan",
                                                   "atan2",
                                                   "atanh",
                                                   "cbrt",
                                                   "cospi",
                                                   "sinpi",
                                                   "tanpi",
                                                   "divide",
                                                   "exp10m1",
                                                   "fdim",
                                                   "frexp",
                                                   "ldexp",
                                                   "log1p",
                                                   "expm1",
                                                   "modf",
                                                   "nextafter",
                                                   "sincos",
                                                   "smoothstep",
                                                   "distance",
                                                   "cross",
                                                   "reflect",
                                                   "refract",
                                                   "faceforward",
                                                   "mad",
                                                   "mul24",
                                                   "mad24",
                                                   "mulhi",
                                                   "mul_hi",
                                                   "mad_hi",
                                                   "mad_sat",
                                                   "add_sat",
                                                   "sub_sat",
                                                   "hadd",
                                                   "rhadd",
                                                   "rotate",
                                                   "clz",
                                                   "ctz",
                                                   "extract_bits",
                                                   "insert_bits",
                                                   "reverse_bits",
                                                   "isordered",
                                                   "isunordered",
                                                   "signbit",
                                                   "simdgroup_barrier",
                                                   "simd_ballot",
                                                   "simd_shuffle_rotate_down",
                                                   "simd_shuffle_rotate_up",
                                                   "simd_shuffle_and_fill_down",
                                                   "simd_shuffle_and_fill_up",
                                                   "simd_prefix_exclusive_product",
                                                   "simd_prefix_inclusive_product",
                                                   "simd_and",
                                                   "simd_or",
                                                   "simd_xor",
                                                   "simd_is_first",
                                                   "quad_sum",
                                                   "quad_shuffle",
                                                   "atomic_thread_fence",
                                                   "threadgroup_imageblock"};

}  // namespace

std::optional<Builtin> find_builtin(std::string_view name) {
  const auto found = builtin_table().find(name);
  if (found == builtin_table().end()) return std::nullopt;
  return found->second;
}

std::string_view builtin_name(Builtin builtin) {
  for (const auto& [name, b] : builtin_table()) {
    if (b == builtin) return name;
  }
  return "?";
}

bool is_unimplemented_msl_function(std::string_view name) { return kUnimplemented.contains(name); }

std::optional<KernelInput> find_kernel_input(std::string_view attribute) {
  static const std::map<std::string_view, KernelInput> inputs = {
      {"thread_position_in_grid", KernelInput::ThreadPositionInGrid},
      {"thread_position_in_threadgroup", KernelInput::ThreadPositionInThreadgroup},
      {"threadgroup_position_in_grid", KernelInput::ThreadgroupPositionInGrid},
      {"threads_per_threadgroup", KernelInput::ThreadsPerThreadgroup},
      {"dispatch_threads_per_threadgroup", KernelInput::DispatchThreadsPerThreadgroup},
      {"threads_per_grid", KernelInput::ThreadsPerGrid},
      {"threadgroups_per_grid", KernelInput::ThreadgroupsPerGrid},
      {"thread_index_in_threadgroup", KernelInput::ThreadIndexInThreadgroup},
      {"thread_index_in_simdgroup", KernelInput::ThreadIndexInSimdgroup},
      {"simdgroup_index_in_threadgroup", KernelInput::SimdgroupIndexInThreadgroup},
      {"threads_per_simdgroup", KernelInput::ThreadsPerSimdgroup},
      {"thread_execution_width", KernelInput::ThreadsPerSimdgroup},
      {"simdgroups_per_threadgroup", KernelInput::SimdgroupsPerThreadgroup},
  };
  const auto found = inputs.find(attribute);
  if (found == inputs.end()) return std::nullopt;
  return found->second;
}

bool is_vector_input(KernelInput input) {
  switch (input) {
    case KernelInput::ThreadPositionInGrid:
    case KernelInput::ThreadPositionInThreadgroup:
    case KernelInput::ThreadgroupPositionInGrid:
    case KernelInput::ThreadsPerThreadgroup:
    case KernelInput::DispatchThreadsPerThreadgroup:
    case KernelInput::ThreadsPerGrid:
    case KernelInput::ThreadgroupsPerGrid:
      return true;
    default:
      return false;
  }
}

}  // namespace engine::metal::detail
