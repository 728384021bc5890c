#pragma once
// The engine's side of each entry tests/tools/capture_precision.py records, in the capture's own
// JSON shapes: an outcome is {"dtype", "bits"} (floating-point elements as hexadecimal bits,
// integers as numbers), {"value"} for what is not a tensor, or {"error": "RuntimeError: ..."},
// with "warnings" beside it when there were any. Each function mirrors the capture's case of the
// same name; precision_parity_test.cpp compares.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace precision_probes {

using Outcome = nlohmann::json;
using Probe = std::function<Outcome(const std::string& key)>;

// "uint8,int8" -> "torch.int16"
Outcome promote_types(const std::string& key);
// "tensor:int64|scalar:float" -> result_type; with "|add", "|truediv" or "|lt", that operation.
Outcome result_type(const std::string& key);
// The capture's float32 values ("float32" bits) rounded as each key says.
Probe rounding(const nlohmann::json& captured);
// "randn:float16:20", "rand:float64:5", "dropout:float32:64": seeded draws. Dropout's masks are
// compared only with a capture made without MKL (null otherwise: not comparable), since PyTorch's
// x86 wheels draw bernoulli with MKL and Macs do not (engine/pytorch/src/nn/dropout.cpp).
Probe sampler(bool capture_without_mkl);
// "matmul:float16": a kernel on seeded inputs.
Outcome kernel(const std::string& key);
// "bfloat16:lower:softmax", "default_dtype", "nested:enabled_false": dtypes under autocast.
Outcome autocast_cpu(const std::string& key);
// "softmax_long": the error (or result) of a dtype mistake.
Outcome text(const std::string& key);
// "float16", "element_size": what Python prints.
Outcome printing(const std::string& key);

// Equal outcomes, except that floating-point elements may differ by one unit in the last place
// of their dtype: the engine adds in an order of its own (Note [Summation order on the cpu]).
bool within_one_unit(const Outcome& ours, const Outcome& theirs);

}  // namespace precision_probes
