#pragma once
// Predicted against measured, per case and per regime, and whether the targets are met.

#include <iosfwd>
#include <vector>

#include "cases.h"

namespace cost_model {

struct Result {
  const Case* c;
  double predicted;  // in the case's unit
  // How far the predicted time is from the measured one: +0.20 = 20 % too slow. Rates
  // (TFLOPS, MFU) are inverted first, so every error is about time.
  double error() const;
};

// The targets the cost model must meet on the check cases (tests/benchmarks/cost_model/README.md).
constexpr double kCheckMedianTarget = 0.25;
constexpr double kRegimeMedianTarget = 0.50;
// Whole training steps (the model families' cases): the median over the check cases of each
// device, and over each family's check cases on both devices.
constexpr double kWholeStepMpsTarget = 0.25;
constexpr double kWholeStepCpuTarget = 0.30;
constexpr double kFamilyMedianTarget = 0.40;
// No lean: the median signed error of each device's whole-step check cases (DESIGN's bias
// target), reported and not yet enforced (report.cpp says why).
constexpr double kWholeStepBiasTarget = 0.10;

// Prints the cases (only the fit cases when `fit_only`) and the summary; returns whether every
// target holds.
bool report(const std::vector<Result>& results, bool fit_only, std::ostream& out);

}  // namespace cost_model
