// cost_model_validation: every published measurement of tests/data/cost_model_cases.toml run
// through the engine on its simulated machine, predicted against measured, the fit cases
// marked, and the median and worst error overall and per regime. Exits non-zero when a target
// is missed (README.md). --fit-only shows the fit cases alone, for tuning the model without
// looking at the cases it must predict.

#include <cxxopts.hpp>
#include <exception>
#include <iostream>
#include <vector>

#include "cases.h"
#include "report.h"
#include "workloads.h"

int main(int argc, char** argv) {
  cxxopts::Options options("cost_model_validation",
                           "The cost model against published PyTorch timings on Apple silicon");
  options.add_options()("cases", "the validation set",
                        cxxopts::value<std::string>()->default_value(TUTOR_COST_MODEL_CASES))(
      "fit-only", "show only the cases the model is fitted to")("h,help", "this help");
  try {
    const auto parsed = options.parse(argc, argv);
    if (parsed.count("help")) {
      std::cout << options.help() << '\n';
      return 0;
    }
    const cost_model::Cases cases = cost_model::load_cases(parsed["cases"].as<std::string>());
    const bool fit_only = parsed.count("fit-only") > 0;
    std::vector<cost_model::Result> results;
    for (const cost_model::Case& c : cases.cases) {
      if (fit_only && !c.fitted()) continue;
      try {
        results.push_back({&c, cost_model::predict(c)});
      } catch (const std::exception&
                   error) {  // name the case: a simulated run can fail as a real one would
        throw cost_model::CaseError(parsed["cases"].as<std::string>(), c.line,
                                    c.label() + ": " + error.what());
      }
    }
    return cost_model::report(results, fit_only, std::cout) ? 0 : 1;
  } catch (const std::exception& error) {
    std::cerr << "cost_model_validation: " << error.what() << '\n';
    return 2;
  }
}
