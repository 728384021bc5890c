#include "report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace cost_model {
namespace {

struct Stats {
  std::size_t count = 0;
  double median = 0, worst = 0;
};

Stats stats_of(std::vector<double> errors) {
  Stats s;
  s.count = errors.size();
  if (errors.empty()) return s;
  for (double& e : errors) e = std::abs(e);
  std::sort(errors.begin(), errors.end());
  const std::size_t mid = errors.size() / 2;
  s.median = errors.size() % 2 ? errors[mid] : (errors[mid - 1] + errors[mid]) / 2;
  s.worst = errors.back();
  return s;
}

std::string percent(double e) { return fmt::format("{:.0f} %", 100 * e); }

std::string cell(const Stats& s) {
  if (s.count == 0) return fmt::format("{:>22}", "-");
  return fmt::format("{:>3} {:>7} {:>9}", s.count, percent(s.median), percent(s.worst));
}

std::vector<double> errors_where(const std::vector<Result>& results, const std::string& regime,
                                 const char* role) {
  std::vector<double> errors;
  for (const Result& r : results) {
    if ((regime.empty() || r.c->regime == regime) && r.c->role == role) errors.push_back(r.error());
  }
  return errors;
}

// The check cases' errors of whole training steps, on `device` ("" for both) in `family` (""
// for every family).
std::vector<double> whole_step_errors(const std::vector<Result>& results, const std::string& family,
                                      const std::string& device) {
  std::vector<double> errors;
  for (const Result& r : results) {
    const std::string f = family_of(r.c->op);
    if (f == "operator" || r.c->fitted()) continue;
    if ((family.empty() || f == family) && (device.empty() || r.c->device == device))
      errors.push_back(r.error());
  }
  return errors;
}

// The whole-step table, by family and device; false where a target is missed.
bool report_whole_steps(const std::vector<Result>& results, std::ostream& out) {
  bool ok = true;
  out << fmt::format("\n{:<26} {:>22} {:>22} {:>22}\n", "whole training steps",
                     "mps: n median worst", "cpu: n median worst", "both: n median worst");
  for (const char* family : {"gpt", "encoder", "cnn", "mlp"}) {
    const Stats both = stats_of(whole_step_errors(results, family, ""));
    out << fmt::format("{:<26} {} {} {}\n", family,
                       cell(stats_of(whole_step_errors(results, family, "mps"))),
                       cell(stats_of(whole_step_errors(results, family, "cpu"))), cell(both));
    if (both.count > 0 && both.median > kFamilyMedianTarget) ok = false;
  }
  const Stats mps = stats_of(whole_step_errors(results, "", "mps"));
  const Stats cpu = stats_of(whole_step_errors(results, "", "cpu"));
  out << fmt::format("{:<26} {} {} {}\n", "every family", cell(mps), cell(cpu),
                     cell(stats_of(whole_step_errors(results, "", ""))));
  if ((mps.count > 0 && mps.median > kWholeStepMpsTarget) ||
      (cpu.count > 0 && cpu.median > kWholeStepCpuTarget))
    ok = false;
  out << fmt::format(
      "targets for whole steps: median at most {} on mps ({}) and {} on the cpu ({}), every "
      "family's at most {}: {}\n",
      percent(kWholeStepMpsTarget), mps.count > 0 ? percent(mps.median) : "no cases",
      percent(kWholeStepCpuTarget), cpu.count > 0 ? percent(cpu.median) : "no cases",
      percent(kFamilyMedianTarget), ok ? "met" : "MISSED");
  return ok;
}

}  // namespace

double Result::error() const {
  const bool rate = c->unit == "TFLOPS" || c->unit == "%";
  return rate ? c->measured / predicted - 1 : predicted / c->measured - 1;
}

bool report(const std::vector<Result>& results, bool fit_only, std::ostream& out) {
  bool ok = true;
  for (const std::string& regime : regimes()) {
    out << fmt::format("\n{}\n", regime);
    for (const Result& r : results) {
      if (r.c->regime != regime || (fit_only && !r.c->fitted())) continue;
      std::string verdict;
      if (r.c->within > 0) {
        const bool inside = std::abs(r.error()) <= r.c->within;
        ok = ok && inside;
        verdict = inside ? fmt::format("  within {}", percent(r.c->within))
                         : fmt::format("  OUTSIDE {}", percent(r.c->within));
      }
      out << fmt::format("  {:5} {:<78} {:>10.4g} {:>10.4g} {:<6} {:>+6.0f} %{}\n",
                         r.c->fitted() ? "fit" : "check", r.c->label(), r.predicted, r.c->measured,
                         r.c->unit, 100 * r.error(), verdict);
    }
  }
  out << fmt::format("\n{:<26} {:>22} {:>22}\n", "absolute error", "fit: n median worst",
                     fit_only ? "" : "check: n median worst");
  for (const std::string& regime : regimes()) {
    const Stats check = stats_of(errors_where(results, regime, "check"));
    out << fmt::format("{:<26} {} {}\n", regime,
                       cell(stats_of(errors_where(results, regime, "fit"))),
                       fit_only ? "" : cell(check));
    if (!fit_only && check.count > 0 && check.median > kRegimeMedianTarget) ok = false;
  }
  const Stats check = stats_of(errors_where(results, "", "check"));
  const Stats fit = stats_of(errors_where(results, "", "fit"));
  out << fmt::format("{:<26} {} {}\n", "all cases", cell(fit), fit_only ? "" : cell(check));
  if (fit_only) return ok;
  if (check.median > kCheckMedianTarget) ok = false;
  const bool whole_steps = report_whole_steps(results, out);
  out << fmt::format(
      "\ntargets: check median at most {} ({}), every regime's check median at most {}, "
      "the cases with a tolerance within it: {}\n",
      percent(kCheckMedianTarget), percent(check.median), percent(kRegimeMedianTarget),
      ok ? "met" : "MISSED");
  return ok && whole_steps;
}

}  // namespace cost_model
