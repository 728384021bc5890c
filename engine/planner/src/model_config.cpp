// Reading a ModelConfig. Both formats become one list of assignments (field, line, value), which
// one function checks and applies, so TOML and nanoGPT's Python files follow the same rules.

#include "planner/model_config.h"

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <variant>
#include <vector>

#include "engine/notebook/text_file.h"

namespace planner {
namespace {

using Value = std::variant<std::int64_t, double, bool, std::string, std::vector<std::int64_t>>;

struct Assignment {
  std::string field;
  int line = 0;
  std::optional<Value> value;  // empty: written in a form the planner cannot read
  std::string text;            // the value as written, for messages
};

// train.py's globals that do not change what an iteration computes: accepted and ignored.
constexpr std::array kIgnoredFields{"out_dir",       "eval_interval", "log_interval",
                                    "eval_iters",    "eval_only",     "always_save_checkpoint",
                                    "wandb_log",     "wandb_project", "wandb_run_name",
                                    "learning_rate", "max_iters",     "weight_decay",
                                    "beta1",         "beta2",         "grad_clip",
                                    "decay_lr",      "warmup_iters",  "lr_decay_iters",
                                    "min_lr",        "backend",       "device",
                                    "dtype"};
// A GPT's fields, beside `family`.
constexpr std::array kGptFields{"n_layer",
                                "n_head",
                                "n_embd",
                                "block_size",
                                "batch_size",
                                "vocab_size",
                                "gradient_accumulation_steps",
                                "dropout",
                                "bias",
                                "compile",
                                "optimizer",
                                "dataset",
                                "init_from"};

template <std::size_t N>
bool one_of(const std::array<const char*, N>& names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

// Edits (insertions, deletions, substitutions) that turn `a` into `b`.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// An MLP's fields, beside `family`.
constexpr std::array kMlpFields{"widths", "batch_size", "dropout", "optimizer"};

// The field of `fields` that `name` is most likely a misspelling of (n_layers, n_embed), if any.
template <std::size_t N>
std::optional<std::string> near_field(std::string_view name,
                                      const std::array<const char*, N>& fields) {
  for (std::string_view field : fields) {
    if (edit_distance(name, field) <= (field.size() >= 6 ? 2u : 1u)) return std::string(field);
  }
  return std::nullopt;
}

// model.py's from_pretrained: the GPT-2 checkpoints' shapes (bias on, GPT-2's 50257 tokens).
struct Pretrained {
  const char* name;
  std::int64_t n_layer, n_head, n_embd;
};
constexpr std::array<Pretrained, 4> kPretrained{{{"gpt2", 12, 12, 768},
                                                 {"gpt2-medium", 24, 16, 1024},
                                                 {"gpt2-large", 36, 20, 1280},
                                                 {"gpt2-xl", 48, 25, 1600}}};

std::string describe(const Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return "'" + *s + "'";
  if (std::holds_alternative<std::vector<std::int64_t>>(v)) return "a list";
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  std::ostringstream out;
  out << std::get<double>(v);
  return out.str();
}

class Applier {
 public:
  explicit Applier(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const Assignment& a, const std::string& message) const {
    throw ConfigError(path_, a.line, a.field + ": " + message);
  }
  const Value& value_of(const Assignment& a) const {
    if (!a.value) {
      fail(
          a,
          "cannot read '" + a.text +
              "' (the planner reads numbers, True/False, quoted strings and products such as 5 * 8)");
    }
    return *a.value;
  }
  std::int64_t positive_integer(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* i = std::get_if<std::int64_t>(&v);
    if (i == nullptr || *i < 1)
      fail(a, "expected a positive integer, got " + (a.text.empty() ? describe(v) : a.text));
    return *i;
  }
  double fraction(const Assignment& a) const {
    const Value& v = value_of(a);
    double x = -1;
    if (const auto* d = std::get_if<double>(&v)) x = *d;
    if (const auto* i = std::get_if<std::int64_t>(&v)) x = static_cast<double>(*i);
    if (!(x >= 0 && x < 1))
      fail(a, "expected a probability from 0 up to (not including) 1, got " + describe(v));
    return x;
  }
  bool boolean(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* b = std::get_if<bool>(&v);
    if (b == nullptr) fail(a, "expected true or false, got " + describe(v));
    return *b;
  }
  std::vector<std::int64_t> widths(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* list = std::get_if<std::vector<std::int64_t>>(&v);
    const bool positive = list != nullptr && std::all_of(list->begin(), list->end(),
                                                         [](std::int64_t w) { return w > 0; });
    if (!positive || list->size() < 2) {
      fail(a,
           "expected a list of two or more positive integers, the inputs first and the classes "
           "last: widths = [784, 256, 10]");
    }
    return *list;
  }
  std::string text(const Assignment& a) const {
    const Value& v = value_of(a);
    const auto* s = std::get_if<std::string>(&v);
    if (s == nullptr) fail(a, "expected a quoted string, got " + describe(v));
    return *s;
  }

  ModelConfig apply(const std::vector<Assignment>& assignments, bool ignore_unknown) const {
    for (const Assignment& a : assignments) {
      if (a.field != "family") continue;
      const std::string family = text(a);
      if (family == "mlp") return apply_mlp(assignments);
      if (family != "gpt") fail(a, "expected \"gpt\" or \"mlp\", got \"" + family + "\"");
    }
    ModelConfig c;
    c.name = std::filesystem::path(path_).stem().string();
    std::optional<Assignment> vocab, embd, head;
    bool block_given = false;
    for (const Assignment& a : assignments) {
      if (a.field == "family")
        continue;  // "gpt"
      else if (a.field == "widths")
        fail(
            a,
            "an MLP's field; a GPT has n_layer, n_head and n_embd (family = \"mlp\" plans an MLP)");
      else if (a.field == "n_layer")
        c.n_layer = positive_integer(a);
      else if (a.field == "n_head")
        c.n_head = positive_integer(a), head = a;
      else if (a.field == "n_embd")
        c.n_embd = positive_integer(a), embd = a;
      else if (a.field == "block_size")
        c.block_size = positive_integer(a), block_given = true;
      else if (a.field == "batch_size")
        c.batch_size = positive_integer(a);
      else if (a.field == "vocab_size")
        c.vocab_size = positive_integer(a), vocab = a;
      else if (a.field == "gradient_accumulation_steps")
        c.gradient_accumulation_steps = positive_integer(a);
      else if (a.field == "dropout")
        c.dropout = fraction(a);
      else if (a.field == "bias")
        c.bias = boolean(a);
      else if (a.field == "compile")
        c.compile = boolean(a);
      else if (a.field == "dataset")
        c.dataset = text(a);
      else if (a.field == "init_from")
        c.init_from = text(a);
      else if (a.field == "optimizer")
        c.optimizer = optimizer(a);
      else if (one_of(kIgnoredFields, a.field)) {
        continue;
      } else if (const auto near = near_field(a.field, kGptFields)) {
        fail(a, "not a field the planner knows; did you mean " + *near + "?");
      } else if (!ignore_unknown) {
        fail(
            a,
            "not a field the planner knows (its fields: n_layer, n_head, n_embd, block_size, batch_size, "
            "vocab_size, gradient_accumulation_steps, dropout, bias, compile, optimizer, dataset, init_from)");
      }
      if (one_of(kGptFields, a.field)) c.set_in_file.push_back(a.field);
    }
    if (c.set_in_file.empty()) {
      throw ConfigError(
          path_, 0,
          "sets none of the planner's fields, so the plan would be train.py's defaults "
          "(GPT-2 124M on OpenWebText); set at least n_layer, n_head, n_embd, block_size "
          "and batch_size");
    }
    if (!vocab)
      c.vocab_size =
          c.dataset == "shakespeare_char" ? 65 : 50304;  // meta.pkl, else train.py's fallback
    for (const Pretrained& p : kPretrained) {
      if (c.init_from != p.name)
        continue;  // from_pretrained keeps only dropout (and a shorter block_size)
      c.n_layer = p.n_layer, c.n_head = p.n_head, c.n_embd = p.n_embd, c.vocab_size = 50257,
      c.bias = true;
      if (!block_given || c.block_size > 1024) c.block_size = 1024;
      head.reset(), embd.reset();
    }
    if (c.n_embd % c.n_head != 0) {
      const Assignment& later = embd && (!head || embd->line > head->line) ? *embd : *head;
      fail(later, "n_embd (" + std::to_string(c.n_embd) + ") must be a multiple of n_head (" +
                      std::to_string(c.n_head) + ")");
    }
    return c;
  }

  // An MLP classifier: its widths, batch, dropout and optimizer; a GPT's field is named as one.
  ModelConfig apply_mlp(const std::vector<Assignment>& assignments) const {
    ModelConfig c;
    c.name = std::filesystem::path(path_).stem().string();
    c.family = Family::Mlp;
    c.batch_size = 64;
    c.gradient_accumulation_steps = 1;
    c.compile = false;
    for (const Assignment& a : assignments) {
      if (a.field == "family") continue;
      if (a.field == "widths")
        c.widths = widths(a);
      else if (a.field == "batch_size")
        c.batch_size = positive_integer(a);
      else if (a.field == "dropout")
        c.dropout = fraction(a);
      else if (a.field == "optimizer")
        c.optimizer = optimizer(a);
      else if (one_of(kGptFields, a.field))
        fail(
            a,
            "a GPT's field, not an MLP's (an MLP's fields: widths, batch_size, dropout, optimizer)");
      else if (const auto near = near_field(a.field, kMlpFields))
        fail(a, "not a field the planner knows; did you mean " + *near + "?");
      else
        fail(a, "not a field of an MLP (its fields: widths, batch_size, dropout, optimizer)");
      c.set_in_file.push_back(a.field);
    }
    if (c.widths.empty()) {
      throw ConfigError(path_, 0,
                        "an MLP needs its widths, the inputs first and the classes last: "
                        "widths = [784, 256, 10]");
    }
    return c;
  }

  std::string optimizer(const Assignment& a) const {
    const std::string kind = text(a);
    if (kind != "adamw" && kind != "adam" && kind != "sgd")
      fail(a, "expected \"adamw\", \"adam\" or \"sgd\", got \"" + kind + "\"");
    return kind;
  }

 private:
  std::string path_;
};

// --- TOML ----------------------------------------------------------------------------------

std::vector<Assignment> toml_assignments(std::string_view text, const std::string& path) {
  toml::table table;
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw ConfigError(path, static_cast<int>(error.source().begin.line),
                      std::string(error.description()));
  }
  std::vector<Assignment> out;
  for (const auto& [key, node] : table) {
    Assignment a{std::string(key.str()), static_cast<int>(node.source().begin.line), std::nullopt,
                 ""};
    if (const auto* i = node.as_integer())
      a.value = i->get();
    else if (const auto* d = node.as_floating_point())
      a.value = d->get();
    else if (const auto* b = node.as_boolean())
      a.value = b->get();
    else if (const auto* s = node.as_string())
      a.value = s->get();
    else if (const auto* list = node.as_array();
             list != nullptr && list->is_homogeneous<std::int64_t>()) {
      std::vector<std::int64_t> numbers;
      for (const toml::node& n : *list) numbers.push_back(n.as_integer()->get());
      a.value = numbers;
    } else
      a.text = std::string(node.is_table()   ? "a table"
                           : node.is_array() ? "a list of other than integers"
                                             : "a date or time");
    out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(),
            [](const Assignment& a, const Assignment& b) { return a.line < b.line; });
  return out;
}

// --- nanoGPT's config/*.py --------------------------------------------------------------------

// The line without a trailing comment (a # outside quotes).
std::string without_comment(const std::string& line) {
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (quote != 0) {
      if (line[i] == quote) quote = 0;
    } else if (line[i] == '\'' || line[i] == '"') {
      quote = line[i];
    } else if (line[i] == '#') {
      return line.substr(0, i);
    }
  }
  return line;
}

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A Python literal the planner reads: True/False, a number, a quoted string, or a product of
// integers (gradient_accumulation_steps = 5 * 8).
std::optional<Value> python_value(const std::string& text) {
  if (text == "True") return Value(true);
  if (text == "False") return Value(false);
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front() && text.find(text.front(), 1) == text.size() - 1) {
    return Value(text.substr(1, text.size() - 2));
  }
  const bool negative = !text.empty() && text[0] == '-';
  const std::string unsigned_text =
      !text.empty() && (text[0] == '-' || text[0] == '+') ? text.substr(1) : text;
  std::int64_t product = negative ? -1 : 1;
  bool integers = !trimmed(unsigned_text).empty();
  std::istringstream factors(unsigned_text);
  for (std::string factor; integers && std::getline(factors, factor, '*');) {
    factor = trimmed(factor);
    integers = is_digits(factor) && factor.size() <= 18;  // fits an int64
    if (!integers) break;
    const std::int64_t value = std::stoll(factor);
    integers = value == 0 || std::abs(product) <= std::numeric_limits<std::int64_t>::max() / value;
    if (integers) product *= value;
  }
  if (integers) return Value(product);
  double number = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, number);
  if (error == std::errc() && stop == end && text.find_first_of("0123456789") != std::string::npos)
    return Value(number);
  return std::nullopt;
}

bool is_name(std::string_view text) {
  return !text.empty() && !(text[0] >= '0' && text[0] <= '9') &&
         std::all_of(text.begin(), text.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

std::vector<Assignment> python_assignments(std::string_view text) {
  std::vector<Assignment> out;
  std::istringstream in{std::string(text)};
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::string code = trimmed(without_comment(line));
    const std::size_t equals = code.find('=');
    if (equals == std::string::npos || code.compare(equals, 2, "==") == 0)
      continue;  // imports, blank lines
    const std::string name = trimmed(code.substr(0, equals));
    if (!is_name(name)) continue;  // augmented or indexed assignments are not train.py globals
    Assignment a{name, number, std::nullopt, trimmed(code.substr(equals + 1))};
    a.value = python_value(a.text);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

std::vector<std::string> defaulted_fields(const ModelConfig& c) {
  const auto set = [&](std::string_view field) {
    return std::find(c.set_in_file.begin(), c.set_in_file.end(), field) != c.set_in_file.end();
  };
  if (c.family == Family::Mlp) {
    std::vector<std::string> out;
    if (!set("batch_size")) out.push_back("batch_size " + std::to_string(c.batch_size));
    if (!set("dropout"))
      out.push_back("dropout " + std::string(c.dropout == 0 ? "0.0" : std::to_string(c.dropout)));
    if (!set("optimizer")) out.push_back("optimizer \"" + c.optimizer + "\"");
    return out;
  }
  const bool pretrained = c.init_from.starts_with("gpt2");  // the checkpoint gives the shape
  std::vector<std::string> out;
  const auto add = [&](std::string_view field, const std::string& value,
                       bool from_checkpoint = false) {
    if (!set(field) && !(pretrained && from_checkpoint))
      out.push_back(std::string(field) + " " + value);
  };
  add("n_layer", std::to_string(c.n_layer), true);
  add("n_head", std::to_string(c.n_head), true);
  add("n_embd", std::to_string(c.n_embd), true);
  add("block_size", std::to_string(c.block_size));
  add("batch_size", std::to_string(c.batch_size));
  add("vocab_size",
      std::to_string(c.vocab_size) + (c.dataset == "shakespeare_char"
                                          ? " (shakespeare_char's meta.pkl)"
                                          : " (GPT-2's, padded)"),
      true);
  add("gradient_accumulation_steps", std::to_string(c.gradient_accumulation_steps));
  add("dropout", c.dropout == 0 ? "0.0" : std::to_string(c.dropout));
  add("bias", c.bias ? "True" : "False", true);
  add("compile", c.compile ? "True" : "False");
  add("optimizer", "\"" + c.optimizer + "\"");
  return out;
}

ConfigError::ConfigError(const std::string& path, int line, const std::string& message)
    : std::runtime_error(path + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " +
                         message) {}

ModelConfig parse_toml_config(std::string_view text, const std::string& path) {
  return Applier(path).apply(toml_assignments(text, path), /*ignore_unknown=*/false);
}

// A nanoGPT config file sets whatever train.py global it likes; the planner reads the ones
// that shape the model and the step and ignores the rest, unread, except a name one or two
// letters from one of its fields, which is taken for a misspelling of it.
ModelConfig parse_python_config(std::string_view text, const std::string& path) {
  return Applier(path).apply(python_assignments(text), /*ignore_unknown=*/true);
}

ModelConfig read_model_config(const std::filesystem::path& path) {
  constexpr std::uintmax_t kLimit = 4u << 20;  // a config is a few KiB
  std::string text;
  try {
    text = engine::notebook::read_text_file(path.string(), kLimit);
  } catch (const engine::notebook::UnreadableFile& e) {
    throw ConfigError(path.string(), 0, std::string("cannot read the file: ") + e.what());
  }
  return path.extension() == ".py" ? parse_python_config(text, path.string())
                                   : parse_toml_config(text, path.string());
}

}  // namespace planner
