// The subcommands of the `pivot` program. Each add_* registers one group on the CLI11
// app; its callback does the work and stores the process exit code in *exit_code.
// Errors in input are thrown as pivot::InputError and printed once by main().
#pragma once

#include <CLI/CLI.hpp>

namespace pivot::cli {


}  // namespace pivot::cli
