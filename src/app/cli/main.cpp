// `pivot`: the command-line program. A thin dispatcher over libpivot; every subcommand
// lives in its own *_command.cpp.
#include <iostream>

#include "commands.hpp"
#include "pivot/error.hpp"
#ifdef PIVOT_WITH_RENDER
#include "render_command.hpp"
#endif

int main(int argc, char** argv) {
  CLI::App app{"Pivot: rigid-body contact simulation with Lloyd's fast Lemke solver"};
  app.set_version_flag("--version", std::string("pivot ") + PIVOT_VERSION);
  app.require_subcommand(1);
  int exit_code = 0;
  pivot::cli::add_lcp_commands(app, &exit_code);
  pivot::cli::add_check_command(app, &exit_code);
  pivot::cli::add_run_commands(app, &exit_code);
  pivot::cli::add_contacts_command(app, &exit_code);
#ifdef PIVOT_WITH_RENDER
  pivot::render::add_render_command(app, &exit_code);
#else
  app.add_subcommand("render", "Not in this build (configured with PIVOT_BUILD_VIEWER=OFF)")
      ->allow_extras()
      ->callback([] {
        throw std::runtime_error(
            "this pivot was built without the renderer; configure with -DPIVOT_BUILD_VIEWER=ON");
      });
#endif
  pivot::cli::add_sweep_command(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const pivot::InputError& e) {
    std::cerr << "pivot: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "pivot: error: " << e.what() << "\n";
    return 1;
  }
  return exit_code;
}
