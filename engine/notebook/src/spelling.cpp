#include "engine/notebook/spelling.h"

#include <algorithm>
#include <vector>

namespace engine::notebook {

std::size_t spelling_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> nearest_name(std::string_view typed,
                                        std::span<const std::string> known) {
  std::optional<std::string> nearest;
  std::size_t best = 0;
  for (const std::string& name : known) {
    const std::size_t distance = spelling_distance(typed, name);
    const std::size_t allowed = std::min(typed.size(), name.size()) > 5 ? 2 : 1;
    if (distance <= allowed && (!nearest || distance < best)) {
      nearest = name;
      best = distance;
    }
  }
  return nearest;
}

}  // namespace engine::notebook
