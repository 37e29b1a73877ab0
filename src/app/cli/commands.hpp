// The subcommands of the `pivot` program. Each add_* registers one group on the CLI11
// app; its callback does the work and stores the process exit code in *exit_code.
// Errors in input are thrown as pivot::InputError and printed once by main().
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "pivot/scene.hpp"

namespace pivot::cli {

// `pivot lcp solve FILE` and `pivot lcp check FILE` (lcp_command.cpp).
void add_lcp_commands(CLI::App& app, int* exit_code);
// `pivot check SCENE` (scene_command.cpp).
void add_check_command(CLI::App& app, int* exit_code);
// `pivot run SCENE` and `pivot replay FILE` (run_command.cpp).
void add_run_commands(CLI::App& app, int* exit_code);
// `pivot contacts SCENE` (contacts_command.cpp).
void add_contacts_command(CLI::App& app, int* exit_code);
// `pivot sweep FILE` (sweep_command.cpp).
void add_sweep_command(CLI::App& app, int* exit_code);

// The --nonconvex option of `run` and `contacts`, one vocabulary for both: "max" | "sum" |
// "off" sets *formulation, an empty text (option not given) keeps the scene's setting.
// Throws CLI::ValidationError for anything else (run_command.cpp).
void override_nonconvex(const std::string& text, NonconvexFormulation* formulation);

}  // namespace pivot::cli
