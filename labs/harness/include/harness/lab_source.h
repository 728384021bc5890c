#pragma once
// The lab format's text, read by one parser wherever it is needed (labs/README.md describes the
// format): the TODO("id", "what") lines of a lab file, which the course command counts and the
// starter's proof points at, a decoy's description, from which the build writes the decoy's
// lab.cpp, and the code of the hints, which the build puts into the starter where each hint says
// and compiles.

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace harness {

struct TodoLine {
  int line = 0;      // 1-based
  std::string id;    // "5.1"
  std::string what;  // what to write there, as the literal spells it
};

// The TODO("id", "what") lines of `code`, in order: a TODO first on its line but for
// indentation, both arguments string literals.
std::vector<TodoLine> todo_lines(std::string_view code);

// A decoy (decoys/NAME.md): the test that must catch it, a phrase its message must say, the tests
// that must fail with it, and the change to the solution, as pairs of blocks.
struct DecoySpec {
  struct Change {
    std::string solution;  // lines of solution/lab.cpp (~~~cpp solution; a lab of Metal kernels:
                           // ~~~metal solution), each ending in a newline
    std::string decoy;     // what the decoy has instead (~~~cpp decoy, ~~~metal decoy)
  };
  std::string fails;                    // Fails: "test name"
  std::string says;                     // Says: "phrase"
  std::vector<std::string> also_fails;  // Also fails: "test name", any number
  std::vector<Change> changes;
};

// What is wrong with a decoy or a hint, as "path: message".
class DecoyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

DecoySpec parse_decoy(std::string_view text, const std::string& path);

// The text of a lab file; throws DecoyError "path: cannot be read: why".
std::string read_lab_file(const std::filesystem::path& path);

// `solution` with each change made; each solution block must occur in it exactly once.
std::string apply_decoy(const DecoySpec& spec, std::string_view solution, const std::string& path);

// A lab of several files (lab 9's Metal kernels, "~~~metal solution" blocks): `files` (name ->
// text) with each change made; each solution block must occur exactly once in all of them.
std::map<std::string, std::string> apply_decoy_to_files(const DecoySpec& spec,
                                                        std::map<std::string, std::string> files,
                                                        const std::string& path);

// A block of C++ in hints.md, with the TODO lines of the starter it takes the place of. Its fence
// says where it goes: ```cpp TODO 1.2 for one TODO line, ```cpp TODO 5.1-5.4 for the lines from
// TODO 5.1's to TODO 5.4's (the starter's code between them included).
struct HintCode {
  std::string first, last;  // TODO ids: "5.1" and "5.4"; the same id for one line
  std::string code;         // its lines, each ending in a newline
};

// The ```cpp blocks of a hints.md (```metal for lab 9's kernels), in order; throws DecoyError for
// one whose fence does not say which TODO lines it replaces. Blocks in other languages are left
// alone.
std::vector<HintCode> parse_hint_code(std::string_view text, const std::string& path,
                                      std::string_view language = "cpp");

// `starter` with each block in place of its TODO lines, indented as the first of them; throws
// DecoyError for a block whose TODO the starter lacks, or whose lines another block replaces.
std::string apply_hint_code(const std::vector<HintCode>& blocks, std::string_view starter,
                            const std::string& path);

}  // namespace harness
