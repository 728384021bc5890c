// lab_proof: the proofs of one lab version, run by CTest (cmake/TutorLabs.cmake registers them).
//   lab_proof starter PROGRAM STARTER TOP   the starter's program fails, and its report names the
//                                           first TODO of STARTER (shown from the course folder
//                                           TOP) as the next step
//   lab_proof decoy PROGRAM DECOY.md        the decoy's program fails the test DECOY.md names,
//                                           saying its phrase, fails every test it lists under
//                                           "Also fails:", and passes every other test
// Each run of PROGRAM is printed, for CTest's log. Exit status: 0 proved, 1 not, 2 a usage error.

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "engine/notebook/child_process.h"
#include "harness/lab_source.h"

namespace {

namespace fs = std::filesystem;

// A proof that does not hold, in words that say what the lab version does instead.
struct NotProved {
  std::string why;
};

engine::notebook::Finished run(const std::string& program, std::vector<std::string> arguments) {
  // Wide enough that no line wraps: the proofs check what the report says, not its layout.
  arguments.insert(arguments.begin(), {program, "--width=1000"});
  std::string shown = "$";
  for (const std::string& a : arguments) shown += ' ' + a;
  const engine::notebook::Finished finished = engine::notebook::run_collecting(arguments);
  std::cout << shown << '\n' << finished.output << '\n';
  return finished;
}

void require_text(const engine::notebook::Finished& run, const std::string& text) {
  if (run.output.find(text) == std::string::npos) throw NotProved{"the output should say: " + text};
}

// doctest's --test-case filters split at unescaped commas.
std::string filter(const std::string& test_name) {
  std::string escaped;
  for (const char c : test_name) escaped += c == ',' ? std::string("\\,") : std::string(1, c);
  return escaped;
}

void prove_starter(const std::string& program, const fs::path& starter, const fs::path& top) {
  const auto todos = harness::todo_lines(harness::read_lab_file(starter));
  if (todos.empty())
    throw harness::DecoyError(starter.string() +
                              ": a starter needs at least one TODO(\"N.M\", \"...\") line");
  const auto finished = run(program, {});
  if (finished.status == 0)
    throw NotProved{"the starter passes its tests; it should leave work for the learner"};
  require_text(finished, "Next: TODO " + todos.front().id + " in " +
                             fs::relative(starter, top).generic_string() + ":" +
                             std::to_string(todos.front().line) + ":");
}

void prove_decoy(const std::string& program, const fs::path& description) {
  const harness::DecoySpec spec =
      harness::parse_decoy(harness::read_lab_file(description), description.string());
  const auto caught = run(program, {"--test-case=" + filter(spec.fails)});
  if (caught.status == 0)
    throw NotProved{"the decoy passes \"" + spec.fails + "\"; that test should catch it"};
  require_text(caught, "✘ " + spec.fails);
  require_text(caught, spec.says);
  std::string failing = filter(spec.fails);
  for (const std::string& also : spec.also_fails) {
    if (run(program, {"--test-case=" + filter(also)}).status == 0) {
      throw NotProved{"the decoy passes \"" + also +
                      "\", which its description says it also fails"};
    }
    failing += ',' + filter(also);
  }
  if (run(program, {"--test-case-exclude=" + failing}).status != 0) {
    throw NotProved{
        "the decoy fails more than the tests it names; each decoy should fail exactly those"};
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "starter" && argc == 5) {
      prove_starter(argv[2], argv[3], argv[4]);
      return 0;
    }
    if (command == "decoy" && argc == 4) {
      prove_decoy(argv[2], argv[3]);
      return 0;
    }
  } catch (const NotProved& e) {
    std::cerr << "lab_proof: " << e.why << '\n';
    return 1;
  } catch (const harness::DecoyError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  }
  std::cerr << "usage: lab_proof starter PROGRAM STARTER TOP | decoy PROGRAM DECOY.md\n";
  return 2;
}
