#include "engine/notebook/progress.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <stdexcept>

#include "engine/notebook/lesson_names.h"
#include "state_file.h"

namespace engine::notebook {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kMaxFileBytes = 1 << 20;  // a real progress file is a few KiB
constexpr std::size_t kMaxNameLength = 64;

// "2026-11-21T10:00:00Z"
std::string utc_now(const char* format = "%Y-%m-%dT%H:%M:%SZ") {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

// Validation: every field is checked for its type and range; `where` names it in the message,
// as "quizzes.mastery.attempts".

[[noreturn]] void corrupt(const std::string& where, const std::string& problem) {
  throw std::invalid_argument(where + ": " + problem);
}

std::string field(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

std::string shown(const json& value) {
  if (!value.is_primitive())
    return std::string("an ") + value.type_name();  // never dump deep nesting
  std::string text = value.dump();
  return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

// `value` is an object with the `required` keys, and no keys but those and `optional`.
void expect_object(const json& value, const std::string& where,
                   std::initializer_list<std::string_view> required,
                   std::initializer_list<std::string_view> optional = {}) {
  if (!value.is_object())
    corrupt(where.empty() ? "the file" : where, "expected an object, found " + shown(value));
  for (const auto& item : value.items()) {
    const std::string& key = item.key();  // not a structured binding: clang 14 cannot capture one
    const auto known = [&](std::string_view k) { return k == key; };
    if (std::none_of(required.begin(), required.end(), known) &&
        std::none_of(optional.begin(), optional.end(), known)) {
      corrupt(field(where, key), "not a field of the progress file");
    }
  }
  for (std::string_view key : required) {
    if (!value.contains(key)) corrupt(field(where, std::string(key)), "missing");
  }
}

// `value` is an object whose keys are names (lessons, quizzes, labs).
const json& names_map(const json& object, const std::string& key) {
  const json& value = object[key];
  if (!value.is_object()) corrupt(key, "expected an object, found " + shown(value));
  return value;
}

std::int64_t integer(const json& value, const std::string& where, std::int64_t low,
                     std::int64_t high) {
  if (!value.is_number_integer()) corrupt(where, "expected a whole number, found " + shown(value));
  const bool fits = value.is_number_unsigned()
                        ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(high)
                        : value.get<std::int64_t>() >= low && value.get<std::int64_t>() <= high;
  if (!fits)
    corrupt(where,
            shown(value) + " is out of range " + std::to_string(low) + ".." + std::to_string(high));
  return value.get<std::int64_t>();
}

int bounded(const json& value, const std::string& where, int low, int high) {
  return static_cast<int>(integer(value, where, low, high));
}

const std::string& string_value(const json& value, const std::string& where) {
  if (!value.is_string()) corrupt(where, "expected a string, found " + shown(value));
  return value.get_ref<const std::string&>();
}

bool boolean(const json& value, const std::string& where) {
  if (!value.is_boolean()) corrupt(where, "expected true or false, found " + shown(value));
  return value.get<bool>();
}

// "2026-11-21T10:00:00Z", as progress_timestamp writes it.
const std::string& timestamp(const json& value, const std::string& where) {
  const std::string& t = string_value(value, where);
  const auto digits = [&](std::size_t at, std::size_t n, int low, int high) {
    if (t.size() < at + n || !std::all_of(t.begin() + static_cast<std::ptrdiff_t>(at),
                                          t.begin() + static_cast<std::ptrdiff_t>(at + n),
                                          [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    const int number = std::stoi(t.substr(at, n));
    return number >= low && number <= high;
  };
  const bool valid = t.size() == 20 && digits(0, 4, 1970, 9999) && t[4] == '-' &&
                     digits(5, 2, 1, 12) && t[7] == '-' && digits(8, 2, 1, 31) && t[10] == 'T' &&
                     digits(11, 2, 0, 23) && t[13] == ':' && digits(14, 2, 0, 59) && t[16] == ':' &&
                     digits(17, 2, 0, 60) && t[19] == 'Z';
  if (!valid) corrupt(where, shown(value) + " is not a time such as \"2026-11-21T10:00:00Z\"");
  return t;
}

// Quiz and lab names: what a bank's or a lab's file name can be.
void check_name(const std::string& name, const std::string& where) {
  const bool valid = !name.empty() && name.size() <= kMaxNameLength &&
                     std::all_of(name.begin(), name.end(), [](char c) {
                       return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
                     });
  if (!valid)
    corrupt(where, "\"" + name.substr(0, kMaxNameLength) + "\" is not a quiz or lab name");
}

// A simulated machine's name as --machine takes it ("m3-max-64gb").
std::string machine_name(const json& value, const std::string& where) {
  const std::string name = value.is_string() ? value.get<std::string>() : std::string();
  const bool valid =
      !name.empty() && name.size() <= kMaxNameLength &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
      });
  if (!valid) corrupt(where, shown(value) + " is not a machine's name");
  return name;
}

QuizRecord quiz_record(const json& q, const std::string& where,
                       const std::vector<std::string>* bank_ids) {
  expect_object(q, where,
                {"attempts", "best_correct", "total", "passed", "last_seed", "last_missed"});
  QuizRecord r;
  r.attempts = bounded(q["attempts"], field(where, "attempts"), 0, QuizRecord::kMaxAttempts);
  r.total = bounded(q["total"], field(where, "total"), 0, QuizRecord::kMaxQuestions);
  r.best_correct = bounded(q["best_correct"], field(where, "best_correct"), 0, r.total);
  r.passed = boolean(q["passed"], field(where, "passed"));
  const json& seed = q["last_seed"];
  if (!seed.is_number_unsigned() && !(seed.is_number_integer() && seed.get<std::int64_t>() >= 0)) {
    corrupt(field(where, "last_seed"),
            "expected a whole number from 0 to 2^64-1, found " + shown(seed));
  }
  r.last_seed = seed.get<std::uint64_t>();
  const std::string missed_at = field(where, "last_missed");
  const json& missed = q["last_missed"];
  if (!missed.is_array())
    corrupt(missed_at, "expected a list of question ids, found " + shown(missed));
  if (missed.size() > static_cast<std::size_t>(r.total)) {
    corrupt(missed_at, std::to_string(missed.size()) + " missed questions in a quiz of " +
                           std::to_string(r.total));
  }
  std::set<std::string> seen;
  for (const json& id : missed) {
    const std::string& name = string_value(id, missed_at);
    if (name.empty()) corrupt(missed_at, "an empty question id");
    if (!seen.insert(name).second) corrupt(missed_at, "\"" + name + "\" is listed twice");
    if (bank_ids != nullptr &&
        std::find(bank_ids->begin(), bank_ids->end(), name) == bank_ids->end()) {
      corrupt(missed_at, "\"" + name + "\" is not a question of this quiz");
    }
    r.last_missed.push_back(name);
  }
  if (r.attempts == 0 && (r.passed || r.best_correct > 0 || !r.last_missed.empty())) {
    corrupt(where, "a score for a quiz with no attempts");
  }
  return r;
}

// "fnv1a64-" and 16 hexadecimal digits, as harness/learner_source.h writes a digest.
LabCheck lab_check(const json& c, const std::string& where) {
  expect_object(c, where, {"source", "passed"});
  const std::string& source = string_value(c["source"], field(where, "source"));
  const bool valid = source.size() == 24 && source.rfind("fnv1a64-", 0) == 0 &&
                     std::all_of(source.begin() + 8, source.end(), [](char d) {
                       return (d >= '0' && d <= '9') || (d >= 'a' && d <= 'f');
                     });
  if (!valid) corrupt(field(where, "source"), shown(c["source"]) + " is not a lab file's digest");
  return LabCheck{source, boolean(c["passed"], field(where, "passed"))};
}

LabRecord lab_record(const json& l, const std::string& where) {
  expect_object(l, where, {"passed_at", "hints_shown"}, {"last_check"});
  LabRecord r;
  r.passed_at = l["passed_at"].is_string() && l["passed_at"].get_ref<const std::string&>().empty()
                    ? std::string()
                    : timestamp(l["passed_at"], field(where, "passed_at"));
  r.hints_shown = bounded(l["hints_shown"], field(where, "hints_shown"), 0, LabRecord::kMaxHints);
  if (l.contains("last_check"))
    r.last_check = lab_check(l["last_check"], field(where, "last_check"));
  return r;
}

Progress from_json(const json& j, const QuizQuestionIds& known) {
  // No labs, no lessons_verified_on: a file from before them.
  expect_object(j, "", {"format", "lessons_verified", "quizzes"}, {"labs", "lessons_verified_on"});
  if (!j["format"].is_number_integer() || j["format"].get<std::int64_t>() != 1) {
    corrupt("format", shown(j["format"]) + " is not the format this course reads (1)");
  }
  Progress p;
  for (const auto& [lesson, when] : names_map(j, "lessons_verified").items()) {
    const std::string where = field("lessons_verified", lesson);
    std::string stem = lesson + "_x";  // "08.2" is the section a stem "08_2_x" names
    std::replace(stem.begin(), stem.end(), '.', '_');
    if (program_number(stem) != lesson)
      corrupt(where, "not a lesson or section number such as \"03\" or \"08.2\"");
    p.lessons_verified[lesson] = timestamp(when, where);
  }
  if (j.contains("lessons_verified_on")) {
    for (const auto& [lesson, machine] : names_map(j, "lessons_verified_on").items()) {
      const std::string where = field("lessons_verified_on", lesson);
      if (p.lessons_verified.count(lesson) == 0)
        corrupt(where, "a machine for a lesson not verified");
      p.lessons_verified_on[lesson] = machine_name(machine, where);
    }
  }
  for (const auto& [name, record] : names_map(j, "quizzes").items()) {
    const std::string where = field("quizzes", name);
    check_name(name, where);
    const auto bank = known.find(name);
    p.quizzes[name] = quiz_record(record, where, bank == known.end() ? nullptr : &bank->second);
  }
  if (j.contains("labs")) {
    for (const auto& [name, record] : names_map(j, "labs").items()) {
      const std::string where = field("labs", name);
      check_name(name, where);
      p.labs[name] = lab_record(record, where);
    }
  }
  return p;
}

json to_json(const Progress& p) {
  json quizzes = json::object();
  for (const auto& [name, r] : p.quizzes) {
    quizzes[name] = {{"attempts", r.attempts},   {"best_correct", r.best_correct},
                     {"total", r.total},         {"passed", r.passed},
                     {"last_seed", r.last_seed}, {"last_missed", r.last_missed}};
  }
  json labs = json::object();
  for (const auto& [name, r] : p.labs) {
    labs[name] = {{"passed_at", r.passed_at}, {"hints_shown", r.hints_shown}};
    if (r.last_check) {
      labs[name]["last_check"] = {{"source", r.last_check->source},
                                  {"passed", r.last_check->passed}};
    }
  }
  return {{"format", 1},
          {"lessons_verified", p.lessons_verified},
          {"lessons_verified_on", p.lessons_verified_on},
          {"quizzes", quizzes},
          {"labs", labs}};
}

// The file's text; what is written must read back, so a bug never writes a file that the next
// run would set aside as corrupt.
std::string serialized(const Progress& progress) {
  std::string text = to_json(progress).dump(2) + "\n";
  try {
    parse_progress(text);
  } catch (const std::invalid_argument& e) {
    throw std::logic_error(std::string("refusing to write invalid progress: ") + e.what());
  }
  return text;
}

// The progress at `path`, or why its file is corrupt.
struct Loaded {
  Progress progress;
  std::string problem;
};

Loaded read_progress(const fs::path& path, const QuizQuestionIds& known) {
  const auto contents = read_state_file(path, kMaxFileBytes + 1);
  if (!contents) return {};
  try {
    return {parse_progress(*contents, known), ""};
  } catch (const std::invalid_argument& e) {
    return {{}, e.what()};
  }
}

// With the lock held: the progress at `path`, after moving a corrupt file aside.
Progress load_locked(const fs::path& path, std::ostream& report, const QuizQuestionIds& known) {
  Loaded loaded = read_progress(path, known);
  if (loaded.problem.empty()) return std::move(loaded.progress);
  const fs::path aside = set_aside_state_file(path, ".corrupt-" + utc_now("%Y%m%d-%H%M%S"));
  report << "The progress file " << path.string() << " could not be read (" << loaded.problem
         << ").\n"
         << "It is kept as " << aside.string() << "; a new progress file starts now.\n";
  return {};
}

}  // namespace

fs::path progress_path() {
  if (const char* chosen = std::getenv("MPS_COURSE_PROGRESS"); chosen != nullptr && *chosen != '\0')
    return chosen;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state != '\0') {
    return fs::path(state) / "mps-course" / "progress.json";
  }
  const char* home = std::getenv("HOME");
  return fs::path(home != nullptr ? home : ".") / ".local" / "state" / "mps-course" /
         "progress.json";
}

bool lesson_verified(const Progress& progress, const std::vector<std::string>& program_numbers) {
  return std::all_of(
      program_numbers.begin(), program_numbers.end(),
      [&](const std::string& number) { return progress.lessons_verified.count(number) > 0; });
}

Progress parse_progress(std::string_view text, const QuizQuestionIds& known) {
  if (text.size() > kMaxFileBytes)
    corrupt("the file", "larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB");
  json j;
  try {
    j = json::parse(text);
  } catch (
      const json::exception& e) {  // a parse error, or a number too large for a double (1e3080)
    const std::string message = e.what();  // "[json.exception.parse_error.101] parse error at ..."
    corrupt("the file", message.substr(message.find(']') + 2));
  }
  return from_json(j, known);
}

Progress load_progress(const fs::path& path, std::ostream& report, const QuizQuestionIds& known) {
  Loaded loaded;
  try {
    loaded = read_progress(path, known);
  } catch (const StateFileError& e) {
    throw std::runtime_error(std::string("cannot use the progress file: ") + e.what());
  }
  if (loaded.problem.empty()) return std::move(loaded.progress);
  try {
    const StateFileLock lock(path);
    return load_locked(path, report,
                       known);  // read again: another program may have replaced it since
  } catch (const StateFileError& e) {
    report << "The progress file " << path.string() << " could not be read (" << loaded.problem
           << ").\n"
           << "It could not be moved aside either (" << e.what() << "); it is left as it is.\n";
    return {};
  }
}

void update_progress(const fs::path& path, std::ostream& report,
                     const std::function<void(Progress&)>& change) {
  update_progress(path, report, {}, change);
}

void update_progress(const fs::path& path, std::ostream& report, const QuizQuestionIds& known,
                     const std::function<void(Progress&)>& change) {
  const StateFileLock lock(path);
  remove_stale_temporaries(path);
  Progress progress = load_locked(path, report, known);
  change(progress);
  replace_state_file(path, serialized(progress));
}

std::string progress_timestamp() { return utc_now(); }

void record_lesson_verified(const std::string& lesson, std::string_view machine,
                            std::ostream& report) {
  update_progress(progress_path(), report, [&](Progress& progress) {
    progress.lessons_verified[lesson] = utc_now();
    progress.lessons_verified_on[lesson] = machine;
  });
}

}  // namespace engine::notebook
