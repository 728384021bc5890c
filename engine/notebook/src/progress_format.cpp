// The progress file's text, read and written: the JSON shape of each version (progress.h,
// Note [Progress versions]), the fields this course does not know, kept and written back, and
// the checks of every value the course uses (progress_fields.h).

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "engine/notebook/lesson_names.h"
#include "engine/notebook/progress.h"
#include "progress_fields.h"

namespace engine::notebook {
namespace {

using nlohmann::json;
using namespace progress_fields;

constexpr std::size_t kMaxNesting = 64;  // the file nests four deep; kept fields no deeper

// How deep brackets nest in JSON text, outside its strings: checked before parsing, so that
// nothing recurses through a hostile file's nesting (writing a kept field back would).
std::size_t nesting(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      in_string = escaped || c != '"';
      escaped = !escaped && c == '\\';
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// In a file of a newer version, a part that fails its checks is left out and noted
// (Progress::unread); in any other, it makes the whole file unreadable.
template <class Read>
void read_part(Progress& progress, Read&& read) {
  if (progress.version <= kProgressVersion) return read();
  try {
    read();
  } catch (const std::invalid_argument& e) {
    progress.unread.push_back(e.what());
  }
}

void expect_object(const json& value, const std::string& where) {
  if (!value.is_object()) corrupt(where, "expected an object, found " + shown(value));
}

// The value of `key` in `object`, checked by `check` (a function of progress_fields.h).
template <class Check, class... Limits>
auto required(const json& object, const std::string& where, const char* key, Check check,
              Limits... limits) {
  const auto value = object.find(key);
  if (value == object.end()) corrupt(field(where, key), "missing");
  return check(*value, field(where, key), limits...);
}

UnknownFields unknown_fields(const json& object, std::initializer_list<std::string_view> known) {
  UnknownFields unknown;
  for (const auto& item : object.items()) {
    if (std::find(known.begin(), known.end(), item.key()) == known.end())
      unknown[item.key()] = item.value().dump();
  }
  return unknown;
}

json with_unknown(json object, const UnknownFields& unknown) {
  for (const auto& [key, text] : unknown) object.emplace(key, json::parse(text));
  return object;
}

std::vector<std::string> missed_ids(const json& missed, const std::string& where, int total) {
  if (!missed.is_array()) corrupt(where, "expected a list of question ids, found " + shown(missed));
  if (missed.size() > static_cast<std::size_t>(total)) {
    corrupt(where, std::to_string(missed.size()) + " missed questions in a quiz of " +
                       std::to_string(total));
  }
  std::vector<std::string> ids;
  std::set<std::string> seen;
  for (const json& id : missed) {
    const std::string& name = string_value(id, where);
    if (name.empty()) corrupt(where, "an empty question id");
    if (!seen.insert(name).second) corrupt(where, "\"" + name + "\" is listed twice");
    ids.push_back(name);  // an id the bank no longer has is kept: the quiz ignores it
  }
  return ids;
}

QuizRecord quiz_record(const json& q, const std::string& where) {
  expect_object(q, where);
  QuizRecord r;
  r.attempts = required(q, where, "attempts", bounded, 0, QuizRecord::kMaxAttempts);
  r.total = required(q, where, "total", bounded, 0, QuizRecord::kMaxQuestions);
  r.best_correct = required(q, where, "best_correct", bounded, 0, r.total);
  r.passed = required(q, where, "passed", boolean);
  r.last_seed = required(q, where, "last_seed", unsigned_64);
  r.last_missed = required(q, where, "last_missed", missed_ids, r.total);
  if (r.attempts == 0 && (r.passed || r.best_correct > 0 || !r.last_missed.empty()))
    corrupt(where, "a score for a quiz with no attempts");
  r.unknown = unknown_fields(
      q, {"attempts", "best_correct", "total", "passed", "last_seed", "last_missed"});
  return r;
}

// "" for a lab not passed yet, else a time.
std::string pass_time(const json& value, const std::string& where) {
  return value.is_string() && value.get_ref<const std::string&>().empty() ? std::string()
                                                                          : timestamp(value, where);
}

// The verdict on one version of the lab file: "fnv1a64-" and 16 hexadecimal digits, as
// harness/learner_source.h writes a digest, and whether it passed.
LabCheck lab_check(const json& c, const std::string& where) {
  expect_object(c, where);
  LabCheck check;
  check.source = required(c, where, "source", string_value);
  const bool valid = check.source.size() == 24 && check.source.starts_with("fnv1a64-") &&
                     std::all_of(check.source.begin() + 8, check.source.end(), [](char d) {
                       return (d >= '0' && d <= '9') || (d >= 'a' && d <= 'f');
                     });
  if (!valid)
    corrupt(field(where, "source"), shown(json(check.source)) + " is not a lab file's digest");
  check.passed = required(c, where, "passed", boolean);
  return check;
}

LabRecord lab_record(const json& l, const std::string& where) {
  expect_object(l, where);
  LabRecord r;
  r.passed_at = required(l, where, "passed_at", pass_time);
  r.hints_shown = required(l, where, "hints_shown", bounded, 0, LabRecord::kMaxHints);
  if (l.contains("last_check"))
    r.last_check = lab_check(l["last_check"], field(where, "last_check"));
  r.unknown = unknown_fields(l, {"passed_at", "hints_shown", "last_check"});
  return r;
}

// The file's version: "version" from version 2 on; the first shape said "format": 1.
int version_of(const json& file) {
  if (file.contains("version"))
    return static_cast<int>(integer(file["version"], "version", 1, 1'000'000));
  if (!file.contains("format")) corrupt("version", "missing");
  if (!file["format"].is_number_integer() || file["format"].get<std::int64_t>() != 1)
    corrupt("format", shown(file["format"]) + " is not the format this course reads (1)");
  return 1;
}

// Reads each entry of the object at file[key] (none where it is missing) with `read`.
template <class Read>
void each_entry(Progress& p, const json& file, const char* key, Read&& read) {
  const auto map = file.find(key);
  if (map == file.end()) return;
  read_part(p, [&] { expect_object(*map, key); });
  if (!map->is_object()) return;
  for (const auto& item : map->items()) {
    const std::string& name = item.key();  // not a structured binding: clang 14 cannot capture one
    read_part(p, [&] { read(name, item.value(), field(key, name)); });
  }
}

Progress from_json(const json& file) {
  expect_object(file, "the file");
  Progress p;
  p.version = version_of(file);
  each_entry(p, file, "lessons_verified",
             [&](const std::string& lesson, const json& when, const std::string& where) {
               std::string stem = lesson + "_x";  // "08.2" is the section a stem "08_2_x" names
               std::replace(stem.begin(), stem.end(), '.', '_');
               if (program_number(stem) != lesson)
                 corrupt(where, "not a lesson or section number such as \"03\" or \"08.2\"");
               p.lessons_verified[lesson] = timestamp(when, where);
             });
  each_entry(p, file, "lessons_verified_on",
             [&](const std::string& lesson, const json& machine, const std::string& where) {
               if (p.lessons_verified.count(lesson) == 0)
                 corrupt(where, "a machine for a lesson not verified");
               p.lessons_verified_on[lesson] = machine_name(machine, where);
             });
  each_entry(p, file, "quizzes",
             [&](const std::string& name, const json& record, const std::string& where) {
               check_name(name, where);
               p.quizzes[name] = quiz_record(record, where);
             });
  each_entry(p, file, "labs",
             [&](const std::string& name, const json& record, const std::string& where) {
               check_name(name, where);
               p.labs[name] = lab_record(record, where);
             });
  const bool first_shape = !file.contains("version");
  p.unknown = unknown_fields(file, {"version", first_shape ? "format" : "version",
                                    "lessons_verified", "lessons_verified_on", "quizzes", "labs"});
  return p;
}

json to_json(const Progress& p) {
  json quizzes = json::object();
  for (const auto& [name, r] : p.quizzes) {
    quizzes[name] = with_unknown({{"attempts", r.attempts},
                                  {"best_correct", r.best_correct},
                                  {"total", r.total},
                                  {"passed", r.passed},
                                  {"last_seed", r.last_seed},
                                  {"last_missed", r.last_missed}},
                                 r.unknown);
  }
  json labs = json::object();
  for (const auto& [name, r] : p.labs) {
    json record = {{"passed_at", r.passed_at}, {"hints_shown", r.hints_shown}};
    if (r.last_check)
      record["last_check"] = {{"source", r.last_check->source}, {"passed", r.last_check->passed}};
    labs[name] = with_unknown(std::move(record), r.unknown);
  }
  return with_unknown({{"version", kProgressVersion},
                       {"lessons_verified", p.lessons_verified},
                       {"lessons_verified_on", p.lessons_verified_on},
                       {"quizzes", quizzes},
                       {"labs", labs}},
                      p.unknown);
}

}  // namespace

Progress parse_progress(std::string_view text) {
  if (text.size() > kMaxFileBytes)
    corrupt("the file", "larger than " + std::to_string(kMaxFileBytes >> 20) + " MiB");
  if (nesting(text) > kMaxNesting)
    corrupt("the file", "nested more than " + std::to_string(kMaxNesting) + " levels deep");
  json file;
  try {
    file = json::parse(text);
  } catch (const json::exception& e) {     // a parse error, or a number too large for a double
    const std::string message = e.what();  // "[json.exception.parse_error.101] parse error at ..."
    corrupt("the file", message.substr(message.find(']') + 2));
  }
  return from_json(file);
}

std::string progress_text(const Progress& progress) {
  if (progress.version > kProgressVersion)
    throw std::logic_error("refusing to write progress read from a newer version's file");
  std::string text = to_json(progress).dump(2) + "\n";
  if (text.size() > kMaxFileBytes)  // fields kept from a huge file, written with indentation
    throw std::runtime_error("the progress would take more than " +
                             std::to_string(kMaxFileBytes >> 20) + " MiB");
  try {
    parse_progress(text);  // what is written must read back, or the next run would set it aside
  } catch (const std::invalid_argument& e) {
    throw std::logic_error(std::string("refusing to write invalid progress: ") + e.what());
  }
  return text;
}

}  // namespace engine::notebook
