// `pivot contacts SCENE`: the contacts and nonconvex groups of the scene's initial state,
// as the collision stage hands them to the stepper, printed as a table or as JSON.
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "pivot/contact.hpp"
#include "pivot/scene.hpp"
#include "table.hpp"

namespace pivot::cli {

namespace {

struct ContactsOptions {
  std::string file;
  double margin_m = -1.0;  // < 0: the scene's margin
  std::string nonconvex;   // empty: from the scene's settings
  bool json = false;
};

std::string num(double x) {
  std::ostringstream out;
  out << x + 0.0;  // -0 (a negated zero component of a normal) prints as 0
  return out.str();
}

std::string vec(const Vec3& v) {
  return "(" + num(v.x()) + ", " + num(v.y()) + ", " + num(v.z()) + ")";
}

nlohmann::json vec_json(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

nlohmann::json feature_json(const Feature& f) {
  return {{"type", to_string(f.type)}, {"index", f.index}, {"piece", f.piece}};
}

int run_contacts(const ContactsOptions& options) {
  const LoadedScene loaded = read_scene_file(options.file);
  for (const std::string& warning : loaded.warnings) {
    std::cerr << "pivot: warning: " << warning << "\n";
  }
  const Scene& scene = loaded.scene;
  CollisionSettings settings;
  settings.margin_m = options.margin_m >= 0.0 ? options.margin_m : contact_margin_m(scene);
  settings.nonconvex = scene.settings.nonconvex;
  override_nonconvex(options.nonconvex, &settings.nonconvex);
  const CollisionResult result = collide(scene.bodies, scene.initial_states, settings);
  auto name = [&](int body) { return scene.bodies[static_cast<std::size_t>(body)].name; };

  if (options.json) {
    nlohmann::json out = {{"margin_m", settings.margin_m},
                          {"nonconvex", to_string(settings.nonconvex)},
                          {"contacts", nlohmann::json::array()},
                          {"groups", nlohmann::json::array()}};
    for (const Contact& c : result.contacts) {
      out["contacts"].push_back({{"body_a", name(c.body_a)},
                                 {"body_b", name(c.body_b)},
                                 {"point", vec_json(c.point)},
                                 {"normal", vec_json(c.normal)},
                                 {"gap_m", c.gap_m},
                                 {"feature_a", feature_json(c.feature_a)},
                                 {"feature_b", feature_json(c.feature_b)}});
    }
    for (const ContactGroup& g : result.groups) {
      nlohmann::json sides = nlohmann::json::array();
      for (const ContactSide& s : g.sides) {
        sides.push_back({{"normal", vec_json(s.normal)},
                         {"gap_m", s.gap_m},
                         {"point", vec_json(s.point)},
                         {"feature", feature_json(s.feature)}});
      }
      out["groups"].push_back({{"body_a", name(g.body_a)},
                               {"body_b", name(g.body_b)},
                               {"vertex_on_a", g.vertex_on_a},
                               {"point", vec_json(g.point)},
                               {"feature_a", feature_json(g.feature_a)},
                               {"feature_b", feature_json(g.feature_b)},
                               {"sides", sides}});
    }
    std::cout << out.dump(2) << "\n";
    return 0;
  }

  std::cout << options.file << ": " << result.contacts.size()
            << (result.contacts.size() == 1 ? " contact, " : " contacts, ") << result.groups.size()
            << (result.groups.size() == 1 ? " group" : " groups") << " (margin "
            << num(settings.margin_m) << " m, nonconvex " << to_string(settings.nonconvex) << ")\n";
  if (!result.contacts.empty()) {
    std::cout << "contacts (normal from b to a; point on b)\n";
    std::vector<std::vector<std::string>> rows = {
        {"a", "b", "point [m]", "normal", "gap [m]", "features a / b"}};
    for (const Contact& c : result.contacts) {
      rows.push_back({name(c.body_a), name(c.body_b), vec(c.point), vec(c.normal), num(c.gap_m),
                      describe(c.feature_a) + " / " + describe(c.feature_b)});
    }
    print_table(rows);
  }
  for (std::size_t k = 0; k < result.groups.size(); ++k) {
    const ContactGroup& g = result.groups[k];
    const int vertex_body = g.vertex_on_a ? g.body_a : g.body_b;
    const Feature& vertex = g.vertex_on_a ? g.feature_a : g.feature_b;
    const Feature& met = g.vertex_on_a ? g.feature_b : g.feature_a;
    std::cout << "group " << k << ": " << name(g.body_a) << " / " << name(g.body_b) << ", vertex "
              << describe(vertex) << " of " << name(vertex_body) << " at " << vec(g.point)
              << " meets " << describe(met) << "\n";
    std::vector<std::vector<std::string>> rows = {{"side", "normal", "gap [m]", "point [m]"}};
    for (const ContactSide& s : g.sides) {
      rows.push_back({describe(s.feature), vec(s.normal), num(s.gap_m), vec(s.point)});
    }
    print_table(rows);
  }
  return 0;
}

}  // namespace

void add_contacts_command(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ContactsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "contacts", "Print the contacts and nonconvex groups of a scene's initial state");
  cmd->add_option("SCENE", options->file, "Scene file (JSON)")->required();
  cmd->add_option("--margin", options->margin_m,
                  "Report feature pairs with gap up to this [m] (default: the scene's margin)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--nonconvex", options->nonconvex,
                  "max | sum | off: max and sum report the same groups, off none "
                  "(default: from the scene)");
  cmd->add_flag("--json", options->json, "Print one JSON object instead of tables");
  cmd->callback([options, exit_code]() { *exit_code = run_contacts(*options); });
}

}  // namespace pivot::cli
