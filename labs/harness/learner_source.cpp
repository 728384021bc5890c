// The digest is FNV-1a over each file's name in the lab folder, length and bytes: it tells one version
// of a learner's file from another, which is all it is for (the learner could as well write a
// passing file as forge one).

#include "harness/learner_source.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include "harness/lab_source.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMostFiles = 64;  // a lab folder holds a handful

// A snapshot's first two lines, around its digest.
constexpr std::string_view kSnapshotFirstLine =
    "#include \"harness/built_from.h\"  // the build's copy of the file named below\n";
constexpr std::string_view kDigestBefore =
    "static const harness::BuiltFrom tutor_learner_source(\"";
constexpr std::string_view kDigestAfter = "\");\n";

class Fnv1a64 {
 public:
  void add(std::string_view bytes) {
    for (const char c : bytes) {
      hash_ ^= static_cast<unsigned char>(c);
      hash_ *= 0x100000001b3ULL;
    }
  }
  std::string hex() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text = "fnv1a64-";
    for (int shift = 60; shift >= 0; shift -= 4) text += kDigits[(hash_ >> shift) & 0xf];
    return text;
  }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// The names of the `#include "name"` lines of `code`.
std::vector<std::string> quoted_includes(std::string_view code) {
  std::vector<std::string> names;
  while (!code.empty()) {
    std::string_view line = code.substr(0, code.find('\n'));
    code.remove_prefix(std::min(code.size(), line.size() + 1));
    const auto skip_blanks = [&] {
      line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t")));
    };
    skip_blanks();
    if (line.empty() || line.front() != '#') continue;
    line.remove_prefix(1);
    skip_blanks();
    if (line.substr(0, 7) != "include") continue;
    line.remove_prefix(7);
    skip_blanks();
    const std::size_t close = line.find('"', 1);
    if (line.empty() || line.front() != '"' || close == std::string_view::npos) continue;
    names.emplace_back(line.substr(1, close - 1));
  }
  return names;
}

// The file of the lab folder `folder` that `#include "name"` in a file of `from` reaches, where
// the build looks (beside the including file, the lab folder, labs/); none when it reaches a file
// elsewhere, or none.
std::optional<fs::path> lab_folder_file(const std::string& name, const fs::path& from,
                                        const fs::path& folder) {
  for (const fs::path& base : {from, folder, folder.parent_path()}) {
    std::error_code error;
    const fs::path candidate = fs::weakly_canonical(base / name, error);
    if (error || !fs::exists(candidate, error)) continue;
    const fs::path inside = candidate.lexically_relative(folder);
    if (inside.empty() || *inside.begin() == "..") return std::nullopt;
    return candidate;
  }
  return std::nullopt;
}

}  // namespace

LearnerSource read_learner_source(const fs::path& lab_file) {
  std::error_code error;
  fs::path folder = fs::weakly_canonical(fs::absolute(lab_file).parent_path(), error);
  if (error) folder = fs::absolute(lab_file).parent_path();
  LearnerSource source{.text = read_lab_file(lab_file), .digest = ""};
  Fnv1a64 digest;
  std::vector<fs::path> files{folder / lab_file.filename()};
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string text = i == 0 ? source.text : read_lab_file(files[i]);
    const std::string name = files[i].lexically_relative(folder).generic_string();
    digest.add(name + '\0' + std::to_string(text.size()) + '\0');
    digest.add(text);
    for (const std::string& included : quoted_includes(text)) {
      const auto found = lab_folder_file(included, files[i].parent_path(), folder);
      if (!found || std::find(files.begin(), files.end(), *found) != files.end()) continue;
      if (files.size() == kMostFiles)
        throw DecoyError(lab_file.string() + ": includes more than 64 files of its folder");
      files.push_back(*found);
    }
  }
  source.digest = digest.hex();
  return source;
}

LearnerFiles read_learner_files(const fs::path& folder, const std::vector<std::string>& names) {
  LearnerFiles files;
  Fnv1a64 digest;
  for (const std::string& name : names) {
    std::string text = read_lab_file(folder / name);
    digest.add(name + '\0' + std::to_string(text.size()) + '\0');
    digest.add(text);
    files.texts.emplace(name, std::move(text));
  }
  files.digest = digest.hex();
  return files;
}

std::string learner_snapshot(const LearnerSource& source, const fs::path& lab_file) {
  std::string path;
  for (const char c : fs::absolute(lab_file).string()) {
    if (c == '"' || c == '\\') path += '\\';
    path += c;
  }
  std::string snapshot(kSnapshotFirstLine);
  snapshot.append(kDigestBefore).append(source.digest).append(kDigestAfter);
  return snapshot + "#line 1 \"" + path + "\"\n" + source.text;
}

std::string snapshot_digest(std::string_view snapshot) {
  if (snapshot.substr(0, kSnapshotFirstLine.size()) != kSnapshotFirstLine) return "";
  snapshot.remove_prefix(kSnapshotFirstLine.size());
  if (snapshot.substr(0, kDigestBefore.size()) != kDigestBefore) return "";
  snapshot.remove_prefix(kDigestBefore.size());
  return std::string(snapshot.substr(0, snapshot.find('"')));
}

}  // namespace harness
