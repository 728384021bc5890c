#include "engine/notebook/print.h"

#include <iostream>

namespace engine::notebook {

void write_printed_line(std::string_view line) { std::cout << line; }

}  // namespace engine::notebook
