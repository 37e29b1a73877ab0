// Plain-text tables for the programs' summaries.
#pragma once

#include <string>
#include <vector>

namespace pivot::cli {

// Rows of cells printed to stdout in left-aligned columns, two spaces apart.
void print_table(const std::vector<std::vector<std::string>>& rows);

}  // namespace pivot::cli
