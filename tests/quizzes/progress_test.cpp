// The progress file never loses a learner's work: failed writes (a full disk, a read-only
// directory) leave it as it was and are errors; concurrent programs never lose each other's
// updates; nothing but a regular file is ever read, renamed or replaced; every field is
// validated and a bad file is set aside; temporary files of killed programs are cleaned up.

#include "engine/notebook/progress.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "quiz/bank.h"
#include "quiz_test_support.h"

#ifdef __linux__
#include <linux/capability.h>
#include <sys/syscall.h>
#endif

namespace fs = std::filesystem;
using engine::notebook::Progress;

namespace {

std::string contents(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<std::string> names_in(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool any_name_contains(const fs::path& directory, const std::string& part) {
  for (const std::string& name : names_in(directory)) {
    if (name.find(part) != std::string::npos) return true;
  }
  return false;
}

// A progress file of several KiB: one verified lesson and forty labs.
void write_large_progress(const fs::path& path) {
  std::ostringstream report;
  engine::notebook::update_progress(path, report, [](Progress& p) {
    p.lessons_verified["01"] = "2026-11-21T10:00:00Z";
    for (int lab = 10; lab < 50; ++lab)
      p.labs[std::to_string(lab) + "_a_lab_with_a_long_name"].hints_shown = 1;
  });
}

// Runs the quiz with `args` in a child process, after `prepare` ran there; the child's output
// comes back through a pipe (which no file-size limit applies to).
Run quiz_in_child(
    const std::vector<std::string>& args, const std::function<void()>& prepare = [] {}) {
  int channel[2];
  REQUIRE(pipe(channel) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(channel[0]);
    prepare();
    const Run run = quiz_run(args);
    const std::string text = run.out + '\0' + run.err;
    for (std::size_t at = 0; at < text.size();) {
      const ssize_t n = write(channel[1], text.data() + at, text.size() - at);
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    _exit(run.status);
  }
  close(channel[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(channel[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(n));
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  const std::size_t split = text.find('\0');
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return {code, text.substr(0, split), split == std::string::npos ? "" : text.substr(split + 1)};
}

// What progress_path() says in a child process after `prepare` ran there: the path, or
// "error: " and why there is none.
std::string progress_path_in_child(const std::function<void()>& prepare) {
  int channel[2];
  REQUIRE(pipe(channel) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(channel[0]);
    prepare();
    std::string text;
    try {
      text = engine::notebook::progress_path().string();
    } catch (const std::exception& e) {
      text = std::string("error: ") + e.what();
    }
    const bool sent = write(channel[1], text.data(), text.size()) == ssize_t(text.size());
    _exit(sent ? 0 : 1);
  }
  close(channel[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(channel[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, static_cast<std::size_t>(n));
  close(channel[0]);
  waitpid(child, nullptr, 0);
  return text;
}

// In a child process: no variable that says where the progress is, run from `directory`.
void forget_where_progress_is(const fs::path& directory) {
  unsetenv("HOME");
  unsetenv("XDG_STATE_HOME");
  unsetenv("MPS_COURSE_PROGRESS");
  if (chdir(directory.c_str()) != 0) _exit(1);
}

// In a child process: a full disk, as far as this process can tell (writes past 1 KiB fail).
// The limit's signal, SIGXFSZ, is left as it is: it kills a program by default, and the quiz
// must turn it into a write that fails (once, it was killed here instead of exiting 4).
void fill_the_disk() {
  const rlimit limit{1024, 1024};
  setrlimit(RLIMIT_FSIZE, &limit);
}

// In a child process: give up root's right to write anywhere, so that a directory without
// write permission is read-only for this process too.
void obey_file_permissions() {
#ifdef __linux__
  if (geteuid() != 0) return;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  syscall(SYS_capget, &header, data);
  data[0].effective &=
      ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH) | (1u << CAP_FOWNER));
  syscall(SYS_capset, &header, data);
#endif
}

// Whether this process can make a directory read-only for itself (root can only with the help
// of obey_file_permissions, which needs Linux).
bool can_make_read_only() {
#ifdef __linux__
  return true;
#else
  return geteuid() != 0;
#endif
}

// An unbuffered stream buffer on a file descriptor, so that the quiz talks through pipes.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int fd) : fd_(fd) {}

 protected:
  int_type underflow() override {
    if (read(fd_, &c_, 1) != 1) return traits_type::eof();
    setg(&c_, &c_, &c_ + 1);
    return traits_type::to_int_type(c_);
  }
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    const char byte = traits_type::to_char_type(ch);
    return write(fd_, &byte, 1) == 1 ? ch : traits_type::eof();
  }

 private:
  int fd_;
  char c_ = 0;
};

int attempts_recorded(const fs::path& path) {
  std::ostringstream report;
  const Progress progress = engine::notebook::load_progress(path, report);
  const auto mastery = progress.quizzes.find("mastery");
  return mastery == progress.quizzes.end() ? 0 : mastery->second.attempts;
}

}  // namespace

TEST_CASE(
    "a full disk leaves the progress file as it was, and the quiz says the attempt was not recorded") {
  ScratchProgress scratch("full_disk");
  write_large_progress(scratch.path);
  const std::string before = contents(scratch.path);
  REQUIRE(before.size() > 2048);
  const Run run = quiz_in_child({"take", "mastery", "--answers", kMasteryKey}, fill_the_disk);
  CHECK(run.status == 4);
  CHECK(run.out.find("15 of 15 (100 %). Passed") !=
        std::string::npos);  // graded and shown all the same
  CHECK(run.err.find("quiz: this attempt was not recorded: cannot write") != std::string::npos);
  CHECK(run.err.find("File too large") != std::string::npos);
  CHECK(contents(scratch.path) == before);
  CHECK_FALSE(any_name_contains(scratch.path.parent_path(), ".tmp-"));
  CHECK(attempts_recorded(scratch.path) == 0);
}

TEST_CASE("programs recording at the same time never lose each other's attempts") {
  ScratchProgress scratch("concurrent");
  constexpr int kPrograms = 12, kAttemptsEach = 4;
  std::vector<pid_t> children;
  for (int i = 0; i < kPrograms; ++i) {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      int failures = 0;
      for (int a = 0; a < kAttemptsEach; ++a)
        failures += quiz_run({"take", "mastery", "--answers", kMasteryKey}).status;
      _exit(failures == 0 ? 0 : 1);
    }
    children.push_back(child);
  }
  for (const pid_t child : children) {
    int status = 0;
    waitpid(child, &status, 0);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  CHECK(attempts_recorded(scratch.path) == kPrograms * kAttemptsEach);
  CHECK_FALSE(any_name_contains(scratch.path.parent_path(), ".corrupt-"));
}

TEST_CASE("anything but a regular file at the progress path is an error that leaves it as it is") {
  ScratchProgress scratch("not_regular");
  const fs::path directory = scratch.path.parent_path();
  std::ofstream(directory / "target.json")
      << R"({"format": 1, "lessons_verified": {}, "quizzes": {}})";
  struct Case {
    std::string kind, says;
    std::function<void(const fs::path&)> make;
  };
  const std::vector<Case> cases{
      {"directory", "is a directory", [](const fs::path& p) { fs::create_directory(p); }},
      {"FIFO", "is a FIFO (named pipe)",
       [](const fs::path& p) { REQUIRE(mkfifo(p.c_str(), 0644) == 0); }},
      {"symbolic link", "is a symbolic link",
       [&](const fs::path& p) { fs::create_symlink(directory / "target.json", p); }},
  };
  for (const Case& c : cases) {
    CAPTURE(c.kind);
    fs::remove_all(scratch.path);
    c.make(scratch.path);
    const auto type = fs::symlink_status(scratch.path).type();
    // In a child with a deadline: a FIFO once made the quiz wait forever for a writer.
    const Run take =
        quiz_in_child({"take", "mastery", "--answers", kMasteryKey}, [] { alarm(20); });
    CHECK(take.status == 2);
    CHECK(take.err.find("quiz: cannot use the progress file: " + scratch.path.string() + " " +
                        c.says + ", not a regular file; it is left as it is") != std::string::npos);
    std::ostringstream report;
    CHECK_THROWS_WITH(engine::notebook::update_progress(scratch.path, report, [](Progress&) {}),
                      doctest::Contains(c.says.c_str()));
    CHECK(fs::symlink_status(scratch.path).type() == type);
    CHECK_FALSE(any_name_contains(directory, ".corrupt-"));
    CHECK_FALSE(any_name_contains(directory, ".tmp-"));
  }
  CHECK(contents(directory / "target.json") ==
        R"({"format": 1, "lessons_verified": {}, "quizzes": {}})");
}

TEST_CASE("a device at the progress path is never opened, renamed or replaced") {
  ScratchProgress scratch("device");
  // Root makes a null device of its own; anyone else tries /dev/null itself, which the test
  // then cannot damage.
  fs::path device = scratch.path;
  if (geteuid() != 0 || mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    device = "/dev/null";
  setenv("MPS_COURSE_PROGRESS", device.c_str(), 1);
  const Run take = quiz_run({"take", "mastery", "--answers", kMasteryKey});
  CHECK(take.status == 2);
  CHECK(take.err.find(device.string() + " is a character device, not a regular file") !=
        std::string::npos);
  CHECK(fs::is_character_file(fs::symlink_status(device)));
  CHECK_FALSE(any_name_contains(device.parent_path(), "progress.json.corrupt-"));
}

TEST_CASE(
    "every field is validated: a file with values out of range, of the wrong type or inconsistent is corrupt") {
  const auto file_with = [](const std::string& record) {
    return R"({"format": 1, "lessons_verified": {}, "quizzes": {"mastery": )" + record + "}}";
  };
  const auto record = [](const std::string& attempts, const std::string& missed,
                         const std::string& seed = "3") {
    return R"({"attempts": )" + attempts +
           R"(, "best_correct": 7, "total": 8, "passed": true, "last_seed": )" + seed +
           R"(, "last_missed": )" + missed + "}";
  };
  struct Case {
    std::string text, says;
  };
  const std::vector<Case> cases{
      {file_with(record("2147483647", "[]")),
       "quizzes.mastery.attempts: 2147483647 is out of range 0..1000000"},
      {file_with(record("1e300", "[]")),
       "quizzes.mastery.attempts: expected a whole number, found 1e+300"},
      {file_with(record("-3", "[]")), "quizzes.mastery.attempts: -3 is out of range"},
      {file_with(record("2.5", "[]")), "expected a whole number, found 2.5"},
      {file_with(record("\"2\"", "[]")), "expected a whole number, found \"2\""},
      {file_with(record("99999999999999999999999", "[]")), "expected a whole number"},
      {file_with(record("1e3080", "[]")),
       "the file: number overflow parsing '1e3080'"},  // found by fuzzing
      {file_with(record("2", "[]", "-1")),
       "quizzes.mastery.last_seed: expected a whole number from 0"},
      {file_with(record("2", "[]", "1e30")), "quizzes.mastery.last_seed"},
      {file_with(record("2", R"(["sync", "sync"])")), "\"sync\" is listed twice"},
      {file_with(record("2", R"(["a","b","c","d","e","f","g","h","i"])")),
       "9 missed questions in a quiz of 8"},
      {file_with(record("2", R"([3])")), "quizzes.mastery.last_missed: expected a string"},
      {file_with(record("0", "[]")), "quizzes.mastery: a score for a quiz with no attempts"},
      {file_with(
           R"({"attempts": 1, "best_correct": 9, "total": 8, "passed": true, "last_seed": 0, "last_missed": []})"),
       "quizzes.mastery.best_correct: 9 is out of range 0..8"},
      {file_with(
           R"({"attempts": 1, "best_correct": 1, "total": 8, "passed": "yes", "last_seed": 0, "last_missed": []})"),
       "quizzes.mastery.passed: expected true or false"},
      {file_with(
           R"({"attempts": 1, "best_correct": 1, "total": 8, "passed": false, "last_seed": 0})"),
       "quizzes.mastery.last_missed: missing"},
      {R"({"format": 1, "lessons_verified": {"7": "2026-11-21T10:00:00Z"}, "quizzes": {}})",
       "lessons_verified.7: not a lesson or section number such as \"03\" or \"08.2\""},
      {R"({"format": 1, "lessons_verified": {"08.0": "2026-11-21T10:00:00Z"}, "quizzes": {}})",
       "lessons_verified.08.0: not a lesson or section number such as \"03\" or \"08.2\""},
      {R"({"format": 1, "lessons_verified": {"08.12": "2026-11-21T10:00:00Z"}, "quizzes": {}})",
       "lessons_verified.08.12: not a lesson or section number such as \"03\" or \"08.2\""},
      {R"({"format": 1, "lessons_verified": {"03": "yesterday"}, "quizzes": {}})",
       "lessons_verified.03: \"yesterday\" is not a time"},
      {R"({"format": 1, "lessons_verified": {"03": "2026-13-21T10:00:00Z"}, "quizzes": {}})",
       "is not a time"},
      {R"({"format": 1, "lessons_verified": {}, "lessons_verified_on": {"03": "m1-8gb"}, "quizzes": {}})",
       "lessons_verified_on.03: a machine for a lesson not verified"},
      {R"({"format": 1, "lessons_verified": {"03": "2026-11-21T10:00:00Z"}, "lessons_verified_on": {"03": "../x"}, "quizzes": {}})",
       "lessons_verified_on.03: \"../x\" is not a machine's name"},
      {R"({"format": 2, "lessons_verified": {}, "quizzes": {}})",
       "format: 2 is not the format this course reads"},
      {R"({"format": 1, "lessons_verified": {}, "quizzes": {"../x": {}}})",
       "quizzes.../x: \"../x\" is not a quiz or lab name"},
      {R"({"format": 1, "lessons_verified": {}, "quizzes": {}, "labs": {"03_fallback": {"passed_at": "", "hints_shown": -1}}})",
       "labs.03_fallback.hints_shown: -1 is out of range"},
      {R"({"format": 1, "lessons_verified": {}, "quizzes": {}, "labs": {"03_fallback": {"passed_at": "soon", "hints_shown": 0}}})",
       "labs.03_fallback.passed_at"},
      {R"([1, 2])", "the file: expected an object, found an array"},
      {R"({"lessons_verified": {}, "quizzes": {}})", "version: missing"},
      {R"({"format": 1, "lessons_verified": [], "quizzes": {}})",
       "lessons_verified: expected an object, found an array"},
      {"{\"format\": 1, ", "the file: parse error"},
      {std::string(100000, '[') + std::string(100000, ']'),
       "the file: nested more than 64 levels deep"},
      {R"({"version": 2, "kept": )" + std::string(100, '[') + std::string(100, ']') + "}",
       "the file: nested more than 64 levels deep"},  // a kept field is written back: bounded too
      {std::string(2 << 20, ' '), "the file: larger than 1 MiB"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text.substr(0, 200));
    CHECK_THROWS_WITH_AS(engine::notebook::parse_progress(c.text),
                         doctest::Contains(c.says.c_str()), std::invalid_argument);
  }
  // Bounds that are valid: the largest seed, no labs (a file from before them), an id.
  const Progress valid = engine::notebook::parse_progress(
      file_with(record("2", R"(["sync"])", "18446744073709551615")));
  CHECK(valid.quizzes.at("mastery").last_seed == 18446744073709551615u);
  CHECK(valid.quizzes.at("mastery").last_missed == std::vector<std::string>{"sync"});
}

TEST_CASE(
    "a verified lesson is recorded with the machine it ran on, and a file from before machines still reads") {
  const ScratchProgress scratch("verified_on");
  std::ostringstream report;
  engine::notebook::record_lesson_verified("02", "m1-8gb", report);
  const Progress read = engine::notebook::load_progress(scratch.path, report);
  CHECK(read.lessons_verified_on.at("02") == "m1-8gb");
  const Progress older = engine::notebook::parse_progress(
      R"({"format": 1, "lessons_verified": {"02": "2026-11-21T10:00:00Z"}, "quizzes": {}})");
  CHECK(older.lessons_verified.count("02") == 1);
  CHECK(older.lessons_verified_on.empty());
  CHECK(report.str().empty());
}

TEST_CASE("a section of a lesson in sections is recorded under its own number, 08.2") {
  const ScratchProgress scratch("section");
  std::ostringstream report;
  engine::notebook::record_lesson_verified("08.2", "m3-max-64gb", report);
  const Progress read = engine::notebook::load_progress(scratch.path, report);
  CHECK(read.lessons_verified.count("08.2") == 1);
  CHECK(read.lessons_verified.count("08") == 0);
  CHECK(read.lessons_verified_on.at("08.2") == "m3-max-64gb");
  CHECK(report.str().empty());
}

TEST_CASE(
    "a course update that moved a question keeps the progress visible: the old question is kept and "
    "ignored") {
  // A file of the first release: lesson 1's bank then had "device-index", which moved to
  // lesson 2's. Once, even 'quiz list' set the file aside for it, and 'quiz progress' said 0
  // lessons verified.
  ScratchProgress scratch("course_update");
  const std::string released = contents(fs::path(TUTOR_SOURCE_DIR) /
                                        "tests/engine/notebook/fixtures/progress/"
                                        "format1_first_release.json");
  std::ofstream(scratch.path) << released;
  const Run list = quiz_run({"list"});
  CHECK(list.status == 0);
  CHECK(list.err.empty());
  CHECK(list.out.find("lesson01  Lesson 1 self-check, 5 questions: not passed yet, best 2/3") !=
        std::string::npos);
  CHECK(quiz_run({"progress"}).out.find(quiz_test::lessons_verified_line(2)) != std::string::npos);
  // Once, these ids made --missed ask nothing and record "7 of 8, passed".
  const Run retry = quiz_run({"take", "lesson01", "--missed", "--answers", "a"});
  CHECK(retry.status == 0);
  CHECK(
      retry.out.find("missed only questions this quiz no longer has; there is nothing to retry") !=
      std::string::npos);
  CHECK(contents(scratch.path) == released);  // read, never written or moved
  CHECK_FALSE(any_name_contains(scratch.path.parent_path(), ".corrupt-"));

  // A command that records writes this course's version, and keeps what it did not change.
  const quiz::Bank lesson02 = quiz::load_bank(kPaths.banks / "lesson02.toml");
  CHECK(quiz_run({"take", "lesson02", "--answers", quiz::answer_key(quiz::show(lesson02, 0))})
            .status == 0);
  std::ostringstream report;
  const Progress after = engine::notebook::load_progress(scratch.path, report);
  CHECK(after.version == engine::notebook::kProgressVersion);
  CHECK(after.quizzes.at("lesson01").last_missed == std::vector<std::string>{"device-index"});
  CHECK(after.quizzes.at("lesson02").passed);
  CHECK(after.lessons_verified.size() == 2);
  CHECK(report.str().empty());
}

TEST_CASE(
    "an unreadable progress file is left where it is by commands that only read it, and set aside "
    "by the next that records") {
  ScratchProgress scratch("untrusted");
  const std::string overflowing =
      R"({"format": 1, "lessons_verified": {}, "quizzes": {"mastery": {"attempts": 2147483647,
      "best_correct": 8, "total": 8, "passed": true, "last_seed": 0, "last_missed": []}}})";
  std::ofstream(scratch.path) << overflowing;
  for (const std::vector<std::string>& reads : {std::vector<std::string>{"list"},
                                                {"progress"},
                                                {"review", "mastery"},
                                                {"key", "mastery"}}) {
    CAPTURE(reads.front());
    const Run read = quiz_run(reads);
    CHECK(read.err.find("attempts: 2147483647 is out of range") != std::string::npos);
    CHECK(read.err.find("It is left as it is for now; the next command that records progress "
                        "keeps it as progress.json.corrupt-<time> and starts a new file.") !=
          std::string::npos);
  }
  CHECK(contents(scratch.path) == overflowing);
  CHECK_FALSE(any_name_contains(scratch.path.parent_path(), ".corrupt-"));
  const Run take =
      quiz_run({"take", "mastery", "--answers", kMasteryKey});  // once, attempts overflowed here
  CHECK(take.status == 0);
  CHECK(take.err.find("attempts: 2147483647 is out of range") != std::string::npos);
  CHECK(take.err.find("It is kept as " + scratch.path.string() + ".corrupt-") != std::string::npos);
  CHECK(attempts_recorded(scratch.path) == 1);
}

TEST_CASE(
    "a file of a newer version is shown as far as it can be read, and left as it is by every "
    "command") {
  ScratchProgress scratch("newer");
  const std::string newer = R"({"version": 3, "lessons_verified": {"01": "2026-11-21T10:00:00Z"},
      "quizzes": {"mastery": {"attempts": {"sittings": 2}}}, "badges": ["first-lesson"]})";
  std::ofstream(scratch.path) << newer;
  const Run progress = quiz_run({"progress"});
  CHECK(progress.status == 0);
  CHECK(progress.out.find(quiz_test::lessons_verified_line(1) + ", mastery check not taken yet") !=
        std::string::npos);
  CHECK(as_one_line(progress.err)
            .find("was written by a newer version of the course (its version 3; this one writes "
                  "version 2). What this one cannot read of it is not shown "
                  "(quizzes.mastery.attempts: expected a whole number, found an object)") !=
        std::string::npos);
  const Run take = quiz_run({"take", "mastery", "--answers", kMasteryKey});
  CHECK(take.status == 4);
  CHECK(take.out.find("15 of 15 (100 %). Passed") != std::string::npos);
  CHECK(as_one_line(take.err).find(
            "is left as it is so that nothing it holds is lost; update the course to record "
            "your progress in it") != std::string::npos);
  std::ostringstream report;
  CHECK_THROWS_WITH_AS(engine::notebook::record_lesson_verified("02", "m1-8gb", report),
                       doctest::Contains("written by a newer version of the course"),
                       std::runtime_error);
  CHECK(contents(scratch.path) == newer);
  CHECK_FALSE(any_name_contains(scratch.path.parent_path(), ".corrupt-"));
  CHECK_FALSE(any_name_contains(scratch.path.parent_path(), ".tmp-"));
}

TEST_CASE(
    "temporary files of programs killed while writing are removed; those of running ones are not") {
  ScratchProgress scratch("stale");
  const pid_t gone = fork();
  REQUIRE(gone >= 0);
  if (gone == 0) _exit(0);
  waitpid(gone, nullptr, 0);
  const fs::path directory = scratch.path.parent_path();
  const std::string stale = "progress.json.tmp-" + std::to_string(gone);
  const std::string running = "progress.json.tmp-" + std::to_string(getppid());
  std::ofstream(directory / stale) << "{\"format\": 1, \"lesso";
  std::ofstream(directory / running) << "{";
  std::ofstream(directory / "progress.json.tmp-notes") << "not ours";
  CHECK(quiz_run({"take", "mastery", "--answers", kMasteryKey}).status == 0);
  CHECK_FALSE(fs::exists(directory / stale));
  CHECK(fs::exists(directory / running));
  CHECK(fs::exists(directory / "progress.json.tmp-notes"));
}

TEST_CASE(
    "a read-only progress directory: the attempt is graded, not recorded, and the quiz exits non-zero") {
  if (!can_make_read_only()) {
    MESSAGE("skipped: this process is root and cannot give up its right to write here");
    return;
  }
  ScratchProgress scratch("read_only");
  write_large_progress(scratch.path);
  const std::string before = contents(scratch.path);
  const fs::path directory = scratch.path.parent_path();
  fs::permissions(directory, fs::perms::owner_read | fs::perms::owner_exec);
  const Run run =
      quiz_in_child({"take", "mastery", "--answers", kMasteryKey}, obey_file_permissions);
  fs::permissions(directory, fs::perms::owner_all);
  CHECK(run.status == 4);
  CHECK(run.out.find("15 of 15 (100 %). Passed") != std::string::npos);
  CHECK(run.err.find("quiz: this attempt was not recorded: cannot create " +
                     (directory / "progress.json.tmp-").string()) != std::string::npos);
  CHECK(run.err.find("Permission denied") != std::string::npos);
  CHECK(contents(scratch.path) == before);
  // Reading still works there: the quiz lists the progress it cannot change.
  const Run list = quiz_in_child({"progress"}, obey_file_permissions);
  CHECK(list.status == 0);
  CHECK(list.out.find(quiz_test::lessons_verified_line(1)) != std::string::npos);
}

TEST_CASE(
    "the quiz is recorded on the file as it is when the quiz ends, not as it was when it began") {
  ScratchProgress scratch("late_read");
  int answers[2], questions[2];
  REQUIRE(pipe(answers) == 0);
  REQUIRE(pipe(questions) == 0);
  const pid_t taker = fork();
  REQUIRE(taker >= 0);
  if (taker == 0) {  // a learner taking the self-check through pipes
    close(answers[1]);
    close(questions[0]);
    DescriptorBuffer in_buffer(answers[0]), out_buffer(questions[1]);
    std::istream in(&in_buffer);
    std::ostream out(&out_buffer);
    std::ostringstream err;
    _exit(quiz::run({"take", "lesson02", "--seed", "0"}, in, out, err, kPaths) == 3 ? 1 : 0);
  }
  close(answers[0]);
  close(questions[1]);
  std::string shown;
  char c;
  while (shown.find("Question 1 of ") == std::string::npos && read(questions[0], &c, 1) == 1)
    shown += c;
  // The learner is thinking; meanwhile another program records an attempt.
  const quiz::Bank bank = quiz::load_bank(kPaths.banks / "lesson02.toml");
  std::string sheet, typed;
  for (const quiz::Question& q : bank.questions) {
    sheet += (sheet.empty() ? "" : ",") + q.id + "=a";
    typed += "a\n";
  }
  CHECK(quiz_run({"take", "lesson02", "--answers", sheet}).status != 2);
  REQUIRE(write(answers[1], typed.data(), typed.size()) == static_cast<ssize_t>(typed.size()));
  close(answers[1]);
  while (read(questions[0], &c, 1) == 1) {
  }
  close(questions[0]);
  int status = 0;
  waitpid(taker, &status, 0);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  std::ostringstream report;
  CHECK(engine::notebook::load_progress(scratch.path, report).quizzes.at("lesson02").attempts == 2);
}

TEST_CASE(
    "without HOME, the progress file is in the home the user database names, wherever the program "
    "runs") {
  const passwd* user = getpwuid(geteuid());
  REQUIRE(user != nullptr);
  const std::string expected =
      (fs::path(user->pw_dir) / ".local/state/mps-course/progress.json").string();
  const fs::path elsewhere = scratch_directory("quiz_test_no_home");
  fs::create_directories(elsewhere);
  // Once, this was ./.local/state/... below whatever folder the program ran in.
  CHECK(progress_path_in_child([&] { forget_where_progress_is(elsewhere); }) == expected);
  CHECK(progress_path_in_child([&] { forget_where_progress_is("/"); }) == expected);

  // A user the database does not know, and no HOME: an error that says what to set.
  if (geteuid() != 0) {
    MESSAGE("skipped the unknown user: only root can become one");
  } else {
    uid_t stranger = 54321;
    while (getpwuid(stranger) != nullptr) ++stranger;
    const std::string said = progress_path_in_child([&] {
      forget_where_progress_is(elsewhere);
      if (setuid(stranger) != 0) _exit(1);
    });
    CHECK(said ==
          "error: cannot tell where your progress is kept: HOME is not set and the user database "
          "names no home folder; set MPS_COURSE_PROGRESS to the file to use (or XDG_STATE_HOME to "
          "a folder)");
  }
  fs::remove_all(elsewhere);
}

TEST_CASE("stray and empty arguments are refused, never silently ignored") {
  ScratchProgress scratch("arguments");
  const Run extra = quiz_run({"take", "mastery", "extra"});
  CHECK(extra.status == 2);
  CHECK(extra.err.find("unexpected argument 'extra'") != std::string::npos);
  const Run empty = quiz_run({"take", "mastery", "--answers", ""});
  CHECK(empty.status == 2);
  CHECK(empty.err.find("--answers needs an answer sheet") != std::string::npos);
  const Run named = quiz_run({"progress", "mastery"});
  CHECK(named.status == 2);
  CHECK(named.err.find("'quiz progress' takes no name") != std::string::npos);
  CHECK_FALSE(fs::exists(scratch.path));
}

TEST_CASE(
    "a lab's last check is kept with the digest of what it checked, and a wrong one refused") {
  const ScratchProgress scratch("last_check");
  std::ostringstream report;
  engine::notebook::update_progress(scratch.path, report, [](Progress& p) {
    p.labs["05_timing"].last_check =
        engine::notebook::LabCheck{.source = "fnv1a64-0123456789abcdef", .passed = true};
  });
  const Progress read = engine::notebook::load_progress(scratch.path, report);
  CHECK(read.labs.at("05_timing").last_check ==
        engine::notebook::LabCheck{.source = "fnv1a64-0123456789abcdef", .passed = true});
  const auto lab_with = [](const std::string& check) {
    return R"({"format": 1, "lessons_verified": {}, "quizzes": {}, "labs": {"05_timing": {"passed_at": "", "hints_shown": 0, "last_check": )" +
           check + "}}}";
  };
  CHECK_FALSE(
      engine::notebook::parse_progress(
          R"({"format": 1, "lessons_verified": {}, "quizzes": {}, "labs": {"05_timing": {"passed_at": "", "hints_shown": 0}}})")
          .labs.at("05_timing")
          .last_check.has_value());  // a file from before checks were kept
  CHECK_THROWS_WITH_AS(
      engine::notebook::parse_progress(lab_with(R"({"source": "md5-x", "passed": true})")),
      doctest::Contains("labs.05_timing.last_check.source: \"md5-x\" is not a lab file's digest"),
      std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      engine::notebook::parse_progress(
          lab_with(R"({"source": "fnv1a64-0123456789abcdef", "passed": 1})")),
      doctest::Contains("labs.05_timing.last_check.passed: expected true or false"),
      std::invalid_argument);
  CHECK(report.str().empty());
}
