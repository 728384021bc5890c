#pragma once
// quiz take NAME: asks the questions (or grades an answer sheet), shows the result and records
// the attempt in the progress file. See commands.h for its options and exit status.

#include <iosfwd>

#include "commands.h"
#include "quiz_options.h"

namespace quiz {

int take(const Options& o, std::istream& in, std::ostream& out, std::ostream& err,
         const Paths& paths);

}  // namespace quiz
