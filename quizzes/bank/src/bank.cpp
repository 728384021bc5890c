#include "quiz/bank.h"

#include <toml++/toml.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "engine/notebook/text_file.h"

namespace quiz {
namespace {

// TOML allows characters beyond ASCII only in strings and comments. toml++ 3.3 must never see
// one anywhere else: its Unicode tables reach __builtin_unreachable for some of them (U+00A1 to
// U+0499, for instance; marzer/tomlplusplus#295), which is undefined behaviour. So the text is
// scanned first, and such a character is a clean error at its line.
void check_ascii_outside_strings(std::string_view text, const std::string& path) {
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == '#') {
      i = std::min(text.find('\n', i), text.size());
    } else if (c == '"' || c == '\'') {
      const std::string quotes(text.substr(i, 3) == std::string(3, c) ? 3 : 1, c);
      for (i += quotes.size(); i < text.size();) {
        if (text[i] == '\n' && quotes.size() == 1)
          break;  // an unterminated string: toml++ reports it
        if (text.substr(i, quotes.size()) == quotes) {
          i += quotes.size();
          for (int extra = 0; quotes.size() == 3 && extra < 2 && i < text.size() && text[i] == c;
               ++extra)
            ++i;  // """a""""
          break;
        }
        if (text[i] == '\n') ++line;
        i += (c == '"' && text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\n') ? 2 : 1;
      }
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      throw BankError(
          path, line,
          "a character beyond ASCII outside a string or comment; TOML allows them only in "
          "quoted strings and comments");
    } else {
      ++i;
    }
  }
}

int line_of(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::string required_string(const toml::table& table, std::string_view key, const std::string& path,
                            int line) {
  const auto* node = table.get(key);
  if (node == nullptr) throw BankError(path, line, "missing '" + std::string(key) + "'");
  const auto* value = node->as_string();
  if (value == nullptr || value->get().empty()) {
    throw BankError(path, line_of(*node), "'" + std::string(key) + "' must be a non-empty string");
  }
  return value->get();
}

std::vector<std::string> required_strings(const toml::table& table, std::string_view key,
                                          const std::string& path, int line) {
  const auto* node = table.get(key);
  if (node == nullptr) throw BankError(path, line, "missing '" + std::string(key) + "'");
  const auto* array = node->as_array();
  if (array == nullptr)
    throw BankError(path, line_of(*node), "'" + std::string(key) + "' must be a list of strings");
  std::vector<std::string> values;
  for (const toml::node& element : *array) {
    const auto* text = element.as_string();
    if (text == nullptr || text->get().empty()) {
      throw BankError(path, line_of(element),
                      "'" + std::string(key) + "' must hold non-empty strings");
    }
    values.push_back(text->get());
  }
  return values;
}

const toml::table& required_table(const toml::table& table, std::string_view key,
                                  const std::string& path, int line) {
  const auto* node = table.get(key);
  if (node == nullptr || !node->is_table())
    throw BankError(path, line, "missing table '" + std::string(key) + "'");
  return *node->as_table();
}

Question read_question(const toml::table& t, const std::string& path) {
  Question q;
  q.line = line_of(t);
  q.id = required_string(t, "id", path, q.line);
  const std::string type = required_string(t, "type", path, q.line);
  if (type != "MultipleChoice")
    throw BankError(
        path, q.line,
        "question '" + q.id + "': type must be \"MultipleChoice\", not \"" + type + "\"");
  const toml::table& prompt = required_table(t, "prompt", path, q.line);
  q.prompt = required_string(prompt, "prompt", path, q.line);
  q.distractors = required_strings(prompt, "distractors", path, q.line);
  q.answer = required_string(required_table(t, "answer", path, q.line), "answer", path, q.line);
  q.context = required_string(t, "context", path, q.line);
  q.why = required_strings(t, "why", path, q.line);
  q.lesson = required_string(t, "lesson", path, q.line);
  if (q.distractors.size() != 3) {
    throw BankError(path, q.line,
                    "question '" + q.id +
                        "': needs 3 distractors (one correct answer and three wrong ones), has " +
                        std::to_string(q.distractors.size()));
  }
  if (q.why.size() != q.distractors.size()) {
    throw BankError(path, q.line,
                    "question '" + q.id + "': needs a 'why' for each of its " +
                        std::to_string(q.distractors.size()) + " distractors, has " +
                        std::to_string(q.why.size()));
  }
  std::set<std::string> options{q.answer};
  for (const std::string& d : q.distractors) {
    if (!options.insert(d).second)
      throw BankError(path, q.line,
                      "question '" + q.id + "': two options read the same: \"" + d + "\"");
  }
  if (q.lesson.find('#') == std::string::npos) {
    throw BankError(path, q.line, "question '" + q.id + "': 'lesson' must read \"NN_topic#cell\"");
  }
  return q;
}

}  // namespace

BankError::BankError(const std::string& path, int line, const std::string& message)
    : std::runtime_error(path + ":" + std::to_string(line) + ": error: " + message) {}

Bank load_bank(const std::filesystem::path& file) {
  constexpr std::uintmax_t kLimit = 4u << 20;  // a bank is a few tens of KiB
  try {
    return parse_bank(engine::notebook::read_text_file(file.string(), kLimit), file);
  } catch (const engine::notebook::UnreadableFile& e) {
    throw BankError(file.string(), 0, std::string("cannot read the bank: ") + e.what());
  }
}

Bank parse_bank(std::string_view text, const std::filesystem::path& file) {
  const std::string path = file.string();
  check_ascii_outside_strings(text, path);
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw BankError(path, static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
  Bank bank{file.stem().string(), required_string(root, "title", path, 1), path, {}, false};
  if (const toml::node* exam = root.get("exam")) {
    if (!exam->is_boolean()) throw BankError(path, line_of(*exam), "'exam' must be true or false");
    bank.exam = exam->as_boolean()->get();
  }
  const auto* questions = root.get_as<toml::array>("questions");
  if (questions == nullptr || questions->empty()) throw BankError(path, 1, "no [[questions]]");
  std::set<std::string> ids;
  for (const toml::node& node : *questions) {
    const auto* table = node.as_table();
    if (table == nullptr)
      throw BankError(path, line_of(node), "each [[questions]] entry must be a table");
    Question q = read_question(*table, path);
    if (!ids.insert(q.id).second)
      throw BankError(path, q.line, "duplicate question id '" + q.id + "'");
    bank.questions.push_back(std::move(q));
  }
  return bank;
}

namespace {

std::size_t characters(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // one per UTF-8 code point
  }));
}

}  // namespace

std::vector<std::string> longest_answer_questions(const Bank& bank) {
  std::vector<std::string> ids;
  for (const Question& q : bank.questions) {
    const bool longest =
        std::all_of(q.distractors.begin(), q.distractors.end(),
                    [&](const std::string& d) { return characters(q.answer) > characters(d); });
    if (longest) ids.push_back(q.id);
  }
  return ids;
}

std::string length_giveaway(const Bank& bank) {
  const std::vector<std::string> longest = longest_answer_questions(bank);
  if (3 * longest.size() <= bank.questions.size()) return "";
  std::string names;
  for (const std::string& id : longest) names += (names.empty() ? "" : ", ") + id;
  return "the answer is the longest option in " + std::to_string(longest.size()) + " of " +
         std::to_string(bank.questions.size()) + " questions (" + names +
         "), so picking the longest option pays; at most a third may have the longest answer";
}

std::vector<std::filesystem::path> bank_files(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  }
  // "lesson01" < ... < "lesson06" < "mastery": the self-checks in course order, the mastery check last.
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace quiz
