// The probes of tests/lessons/python_twins/pytorch_probes.py, each computed by the engine and
// compared with what PyTorch 2.11 printed for it (tests/data/pytorch-2.11/probes.json): texts,
// warnings, defaults and autograd node names the engine documents. Every probe of the capture is
// either reproduced here or listed, with the reason, among those the engine does not reproduce.

#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/autograd.h"
#include "engine/backends/mps.h"
#include "engine/errors.h"
#include "engine/factories.h"
#include "engine/mps.h"
#include "engine/nn/functional.h"
#include "engine/nn/init.h"
#include "engine/nn/linear.h"
#include "engine/ops.h"
#include "engine/optim/adam.h"
#include "engine/optim/sgd.h"
#include "engine/python_format.h"
#include "engine/random.h"
#include "engine/sim.h"
#include "test_support.h"

namespace F = engine::nn::functional;
using engine::Device;
using engine::Tensor;

namespace {

// What Python prints for an error, or "no error", as the probes' error_of() does.
std::string error_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const engine::Error& e) {
    return engine::py::format_exception_only(e) + "\n";
  }
  return "no error\n";
}

// The name of a tensor's autograd node, or None, as the probes' node() prints it.
std::string node(const Tensor& t) {
  return (t.grad_fn() ? t.grad_fn()->name() : std::string("None")) + "\n";
}

Tensor x() { return engine::ones({2, 3}).requires_grad_(); }

// What the engine prints for each probe, in a fresh simulated process on linux-x86_64 (PyTorch's
// Linux wheel, the machine the capture ran as).
std::map<std::string, std::function<std::string()>> engine_probes() {
  return {
      {"mps_route_to", [] { return error_of([] { engine::ones({2}).to(Device("mps")); }); }},
      {"mps_route_tensor",
       [] { return error_of([] {
              engine::tensor({1.0, 2.0}, Device("mps"));
            }); }},
      {"mps_route_module_to",
       [] { return error_of([] { engine::nn::Linear(2, 2)->to(Device("mps")); }); }},
      {"mps_route_zeros", [] { return error_of([] { engine::zeros({2}, Device("mps")); }); }},
      {"mps_route_ones", [] { return error_of([] { engine::ones({2}, Device("mps")); }); }},
      {"mps_route_empty", [] { return error_of([] { engine::zeros({2}, Device("mps")); }); }},
      {"mps_route_randn", [] { return error_of([] { engine::randn({2}, Device("mps")); }); }},
      {"mps_built_available",
       [] {
         return engine::py::str(engine::py::torch::backends::mps::is_built()) + " " +
                engine::py::str(engine::py::torch::backends::mps::is_available()) + "\n";
       }},
      {"mps_synchronize_without_mps", [] { return error_of([] { engine::mps::synchronize(); }); }},
      {"mps_memory_without_mps",
       [] { return error_of([] { engine::py::torch::mps::current_allocated_memory(); }); }},
      {"mps_empty_cache_without_mps",
       [] { return error_of([] { engine::py::torch::mps::empty_cache(); }); }},
      {"mps_rng_state_without_mps",
       [] { return error_of([] { engine::py::torch::mps::get_rng_state(); }); }},
      {"mps_seed_without_mps", [] { return error_of([] { engine::py::torch::mps::seed(); }); }},
      {"mps_manual_seed_without_mps",
       [] { return error_of([] { engine::py::torch::mps::manual_seed(1); }); }},
      // Every generator's set_state checks its argument with one helper (check_rng_state): the
      // capture, without MPS, asks the cpu's; the engine, whose only settable state is mps's,
      // asks a Mac's.
      {"rng_state_not_bytes",
       [] {
         engine::sim::use_machine("m3-max-64gb");
         return error_of([] { engine::py::torch::mps::set_rng_state(engine::zeros({44})); });
       }},
      {"device_strings",
       [] {
         return Device("mps").str() + " " + Device("mps:0").str() + " " +
                engine::py::str(Device("mps") == Device("mps:0")) + "\n";
       }},
      {"device_unknown_type", [] { return error_of([] { Device("mpss"); }); }},
      {"device_empty", [] { return error_of([] { Device(""); }); }},
      {"device_bad_index", [] { return error_of([] { Device("cpu:x"); }); }},
      {"device_negative_index",
       [] { return error_of([] { Device(engine::DeviceType::CPU, -2); }); }},
      {"device_cpu_index", [] { return error_of([] { engine::ones({1}, Device("cpu:1")); }); }},
      {"nonleaf_grad_warning",
       [] {
         test_support::CaptureStderr warnings;
         const Tensor grad = (x() * 2).grad();
         return std::string(grad.defined() ? "defined" : "None") + "\n" + warnings.text();
       }},
      {"backward_twice",
       [] {
         const Tensor y = (x() * x()).sum();
         y.backward();
         return error_of([&] { y.backward(); });
       }},
      {"backward_twice_without_saved",
       [] {
         const Tensor leaf = x();
         const Tensor y = (leaf + 1).sum();
         y.backward();
         const std::string second = error_of([&] { y.backward(); });  // then read the gradient
         return second + engine::py::str(leaf.grad().data_ptr<float>()[0]) + "\n";
       }},
      {"backward_non_scalar", [] { return error_of([] { (x() * 2).backward(); }); }},
      {"backward_no_grad_fn", [] { return error_of([] { engine::ones({2}).sum().backward(); }); }},
      {"requires_grad_integer_factory",
       [] {
         return error_of(
             [] { engine::ones({2}, engine::TensorOptions(engine::kInt64).requires_grad(true)); });
       }},
      {"requires_grad_integer_method",
       [] { return error_of([] { engine::arange(3).requires_grad_(); }); }},
      {"requires_grad_nonleaf_false",
       [] { return error_of([] { (x() * 2).requires_grad_(false); }); }},
      {"no_grad_result",
       [] {
         engine::NoGradGuard no_grad;
         const Tensor y = x() * 2;
         return engine::py::str(y.requires_grad()) + " " + (y.grad_fn() ? "node" : "None") + "\n";
       }},
      {"nodes_elementwise",
       [] {
         return node(x() + 1) + node(x() - 1) + node(x() * 2) + node(x() / 2) + node(x() + x()) +
                node(-x());
       }},
      {"nodes_reductions",
       [] {
         return node(x().sum()) + node(x().mean()) + node(x().sum({0})) + node(x().mean({1}));
       }},
      {"nodes_products",
       [] {
         const Tensor w = engine::ones({3, 4}).requires_grad_();
         return node(x().matmul(w)) + node(x().matmul(w)) +
                node(x().slice(0, 0, 1).reshape({3}).matmul(w)) +
                node(engine::ones({5, 2, 3}).matmul(w));
       }},
      {"nodes_activations",
       [] {
         return node(F::relu(x())) + node(F::gelu(x())) + node(engine::softmax(x(), 1)) +
                node(engine::log_softmax(x(), 1));
       }},
      {"tensor_repr_grad_fn",
       [] { return engine::py::repr(x() * 2) + "\n" + engine::py::repr(x().sum()) + "\n"; }},
      {"tensor_repr_requires_grad",
       [] { return engine::py::repr(engine::ones({2}).requires_grad_()) + "\n"; }},
      {"linear_shape_mismatch",
       [] { return error_of([] {
              F::linear(engine::ones({3, 5}), engine::ones({2, 4}));
            }); }},
      {"linear_zero_dim",
       [] { return error_of([] {
              F::linear(engine::tensor(1.0), engine::ones({2, 1}));
            }); }},
      {"matmul_zero_dim",
       [] { return error_of([] { engine::tensor(1.0).matmul(engine::ones({2})); }); }},
      {"matmul_mv_mismatch",
       [] { return error_of([] {
              engine::ones({2, 3}).matmul(engine::ones({2}));
            }); }},
      {"matmul_mm_mismatch",
       [] { return error_of([] {
              engine::ones({2, 3}).matmul(engine::ones({4, 5}));
            }); }},
      {"matmul_bmm_mismatch",
       [] { return error_of([] {
              engine::ones({2, 2, 3}).matmul(engine::ones({3, 4, 5}));
            }); }},
      {"broadcast_mismatch",
       [] { return error_of([] { engine::ones({3}) + engine::ones({4}); }); }},
      {"reshape_two_inferred",
       [] { return error_of([] {
              engine::ones({6}).reshape({-1, -1});
            }); }},
      {"reshape_invalid", [] { return error_of([] {
                                 engine::ones({6}).reshape({4, 2});
                               }); }},
      {"dimension_out_of_range", [] { return error_of([] { engine::ones({2}).sum({1}); }); }},
      {"negative_dimension", [] { return error_of([] { engine::zeros({-1}); }); }},
      {"arange_zero_step", [] { return error_of([] { engine::arange(0, 5, 0); }); }},
      {"embedding_index_out_of_range",
       [] { return error_of([] {
              F::embedding(engine::tensor({3}), engine::randn({3, 2}));
            }); }},
      {"embedding_float_indices",
       [] { return error_of([] {
              F::embedding(engine::tensor({1.0}), engine::randn({3, 2}));
            }); }},
      {"cross_entropy_batch_mismatch",
       [] {
         return error_of([] { F::cross_entropy(engine::ones({4, 3}), engine::tensor({0, 1})); });
       }},
      {"cross_entropy_multi_target",
       [] {
         return error_of([] {
           F::cross_entropy(engine::ones({4, 3}), engine::zeros({4, 1}, engine::kInt64));
         });
       }},
      {"layer_norm_shape_mismatch",
       [] {
         return error_of([] { F::layer_norm(engine::ones({2, 3}), F::LayerNormFuncOptions({4})); });
       }},
      {"item_of_many", [] { return error_of([] { engine::ones({2}).item<float>(); }); }},
      {"sgd_bad_learning_rate",
       [] { return error_of([] { engine::optim::SGD({x()}, engine::optim::SGDOptions(-1)); }); }},
      {"sgd_bad_momentum",
       [] {
         return error_of(
             [] { engine::optim::SGD({x()}, engine::optim::SGDOptions(0.1).momentum(-0.5)); });
       }},
      {"sgd_bad_weight_decay",
       [] {
         return error_of(
             [] { engine::optim::SGD({x()}, engine::optim::SGDOptions(0.1).weight_decay(-1)); });
       }},
      {"sgd_nesterov",
       [] {
         return error_of(
             [] { engine::optim::SGD({x()}, engine::optim::SGDOptions(0.1).nesterov(true)); });
       }},
      {"adam_bad_betas",
       [] {
         return error_of([] {
                  engine::optim::Adam({x()}, engine::optim::AdamOptions().betas({1.0, 0.999}));
                }) +
                error_of([] {
                  engine::optim::Adam({x()}, engine::optim::AdamOptions().betas({0.9, -0.1}));
                });
       }},
      {"adam_bad_eps",
       [] {
         return error_of(
             [] { engine::optim::Adam({x()}, engine::optim::AdamOptions().eps(-1e-8)); });
       }},
      {"optimizer_no_parameters",
       [] { return error_of([] { engine::optim::SGD({}, engine::optim::SGDOptions(0.1)); }); }},
      {"dropout_bad_probability",
       [] { return error_of([] { F::dropout(x(), F::DropoutFuncOptions().p(1.5)); }); }},
      {"kaiming_fan_in_1d",
       [] {
         return error_of([] { engine::nn::init::kaiming_uniform_(engine::zeros({3}), 0.0); });
       }},
      {"linear_init_bounds",
       [] {
         engine::manual_seed(0);
         const engine::nn::Linear lin(768, 3);
         const auto largest = [](const Tensor& t) {
           float m = 0;
           for (const float v : t.to_vector<float>()) m = std::max(m, std::abs(v));
           return m;
         };
         char line[64];
         std::snprintf(line, sizeof line, "%.6f %.6f %.6f\n", largest(lin->weight),
                       largest(lin->bias), 1 / std::sqrt(768.0));
         return std::string(line);
       }},
      {"repr_floats",
       [] {
         return engine::py::str(engine::tensor({1.0, 2.5, -3.25})) + "\n" +
                engine::py::str(engine::tensor({1e-5, 1.0})) + "\n" +
                engine::py::str(engine::tensor({123456.0, 1.0})) + "\n";
       }},
      {"repr_ints_bools",
       [] {
         return engine::py::str(engine::arange(5)) + "\n" +
                engine::py::str(engine::tensor({1, 0}).to(engine::kBool)) + "\n" +
                engine::py::str(engine::tensor(3)) + "\n";
       }},
      {"repr_dtypes",
       [] {
         return engine::py::str(engine::ones({2}).dtype()) + " " +
                engine::py::str(engine::arange(2).dtype()) + " " +
                engine::py::str(engine::ScalarType::Bool) + "\n";
       }},
      {"sum_of_integers",
       [] {
         return engine::py::str(engine::arange(5).sum()) + " " +
                engine::py::str(engine::tensor({1, 1}).to(engine::kBool).sum()) + " " +
                engine::py::str(engine::ones({0}).mean()) + "\n";
       }},
  };
}

// A C++ warning's text in Python ends with where PyTorch's source raised it, "(Triggered
// internally at /pytorch/build/...)", which the engine, having no such source, leaves out.
std::string without_origin(std::string text) {
  const std::string origin = " (Triggered internally at ";
  for (std::size_t at; (at = text.find(origin)) != std::string::npos;) {
    text.erase(at, text.find(".)", at) + 2 - at);
  }
  return text;
}

// Probes the engine does not reproduce, and why.
const std::map<std::string, std::string> kNotReproduced = {
    {"repr_specials",
     "the engine has no way to spell nan and inf in a factory call that no lesson needs"},
    {"nodes_shapes",
     "the engine has no t() or unsqueeze(), which no lesson uses (its view() is reshape(): tensors are always contiguous)"},
    {"nodes_linear",
     "the cpu's linear nodes are covered in linear_test.cpp by route; Linear's 1-D input is not in any lesson"},
    {"nodes_losses", "the engine has no mse_loss, and nll_loss on its own is not in any lesson"},
    {"nodes_layers",
     "layer_norm, embedding and dropout nodes: checked in autograd_test.cpp with the engine's names"},
    {"defaults_sgd",
     "Python prints its optimizers' defaults as a dict with Python-only keys (foreach, fused, ...)"},
    {"defaults_adam", "as defaults_sgd"},
    {"defaults_adamw", "as defaults_sgd"},
    {"defaults_modules",
     "Python's module reprs; the engine's modules are LibTorch's, which print otherwise"},
    {"embedding_float_indices", "covered by argument_checks_test.cpp"},
    {"rng_state_wrong_size",
     "the cpu generator's size check has a text of its own; the engine's settable state is mps's, "
     "whose check says \"RNG state is wrong size\" (MPSGeneratorImpl.mm), in mps_random_test.cpp"},
};

nlohmann::json captured_probes() {
  std::ifstream in(TUTOR_TEST_DATA_DIR "/pytorch-2.11/probes.json");
  REQUIRE(in);
  return nlohmann::json::parse(in)["probes"];
}

}  // namespace

TEST_CASE("the engine prints what PyTorch 2.11 printed for every probe it reproduces") {
  const nlohmann::json captured = captured_probes();
  const auto probes = engine_probes();
  int compared = 0;
  for (const auto& item : captured.items()) {
    const std::string name = item.key();  // CAPTURE of a structured binding: not before clang 16
    const nlohmann::json& probe = item.value();
    CAPTURE(name);
    if (kNotReproduced.count(name) != 0) continue;
    REQUIRE_MESSAGE(probes.count(name) == 1,
                    "a probe the engine neither reproduces nor lists with a reason");
    engine::sim::use_machine("linux-x86_64");
    CHECK(probes.at(name)() == without_origin(probe["printed"].get<std::string>()));
    ++compared;
  }
  CHECK(compared >= 55);
}

TEST_CASE("every probe listed as not reproduced is one the capture has") {
  const nlohmann::json captured = captured_probes();
  for (const auto& listed : kNotReproduced) {
    const std::string& name = listed.first;
    CAPTURE(name);
    CHECK(captured.contains(name));
  }
}
