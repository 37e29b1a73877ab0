// `pivot check SCENE`: reads a scene file with every check the loader makes, prints its
// warnings to stderr and a summary (settings, materials, bodies with their shapes and mass
// properties, wrenches, camera) to stdout.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "table.hpp"
#include "pivot/scene.hpp"

namespace pivot::cli {

namespace {

std::string num(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

std::string counted(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string vec(const Vec3& v) {
  return "(" + num(v.x()) + ", " + num(v.y()) + ", " + num(v.z()) + ")";
}

std::string describe(const Box& s) {
  const Vec3 size = 2.0 * s.half_extents_m;
  return "box " + num(size.x()) + " x " + num(size.y()) + " x " + num(size.z()) + " m";
}
std::string describe(const Sphere& s) { return "sphere r " + num(s.radius_m) + " m"; }
std::string describe(const Cylinder& s) {
  return "cylinder r " + num(s.radius_m) + " m, length " + num(2.0 * s.half_length_m) + " m";
}
std::string describe(const Capsule& s) {
  return "capsule r " + num(s.radius_m) + " m, segment " + num(2.0 * s.half_length_m) + " m";
}
std::string describe(const ConvexMesh& s) {
  return "convex, " + std::to_string(s.vertices.size()) + " vertices, " +
         std::to_string(s.faces.size()) + " faces";
}
std::string describe(const HalfSpace& s) {
  return "half_space n " + vec(s.normal) + ", offset " + num(s.offset_m) + " m";
}
std::string describe(const Compound& s) {
  return "compound, " + std::to_string(s.pieces.size()) + " pieces";
}

int run_check(const std::string& path) {
  const LoadedScene loaded = read_scene_file(path);
  for (const std::string& warning : loaded.warnings)
    std::cerr << "pivot: warning: " << warning << "\n";
  const Scene& scene = loaded.scene;
  const auto dynamic = std::count_if(scene.bodies.begin(), scene.bodies.end(),
                                     [](const Body& b) { return !b.fixed; });
  std::cout << path << ": valid scene, " << counted(scene.bodies.size(), "body", "bodies") << " ("
            << dynamic << " dynamic, " << scene.bodies.size() - static_cast<std::size_t>(dynamic)
            << " fixed), " << counted(scene.materials.size(), "material", "materials") << ", "
            << counted(scene.wrenches.size(), "wrench", "wrenches") << "\n";
  if (!scene.description.empty()) std::cout << "  " << scene.description << "\n";

  const SceneSettings& s = scene.settings;
  std::cout << "settings\n";
  print_table({{"gravity", vec(s.gravity_mps2) + " m/s^2"},
               {"time step", num(s.time_step_s) + " s"},
               {"friction directions", std::to_string(s.friction_directions)},
               {"solver", to_string(s.solver)},
               {"nonconvex", to_string(s.nonconvex)},
               {"contact margin",
                num(contact_margin_m(scene)) + " m" + (s.contact_margin_m ? "" : " (derived)")}});

  std::cout << "materials\n";
  std::vector<std::vector<std::string>> materials;
  for (const Material& m : scene.materials) materials.push_back({m.name, "mu " + num(m.friction)});
  print_table(materials);

  std::cout << "bodies\n";
  std::vector<std::vector<std::string>> bodies = {
      {"name", "", "shape", "mass [kg]", "principal inertia [kg m^2]", "position [m]", "material"}};
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const Body& b = scene.bodies[i];
    std::string mass = "-", inertia = "-";
    if (!b.fixed) {
      const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(b.inertia_body_kgm2).eigenvalues();
      mass = num(b.mass_kg);
      inertia = num(moments[0]) + " " + num(moments[1]) + " " + num(moments[2]);
    }
    bodies.push_back({b.name, b.fixed ? "fixed" : "dynamic",
                      std::visit([](const auto& shape) { return describe(shape); }, b.shape), mass,
                      inertia, vec(scene.initial_states[i].pose.position),
                      scene.materials[static_cast<std::size_t>(b.material)].name});
  }
  print_table(bodies);

  if (!scene.wrenches.empty()) {
    std::cout << "wrenches\n";
    std::vector<std::vector<std::string>> wrenches;
    for (const ExternalWrench& w : scene.wrenches) {
      wrenches.push_back({scene.bodies[static_cast<std::size_t>(w.body)].name,
                          "force " + vec(w.force_n) + " N", "torque " + vec(w.torque_nm) + " N m",
                          "at " + vec(w.point_m) + " m",
                          "t " + num(w.t0_s) + " to " + num(w.t1_s) + " s"});
    }
    print_table(wrenches);
  }
  if (scene.camera) {
    std::cout << "camera\n";
    print_table({{"eye", vec(scene.camera->eye_m)},
                 {"target", vec(scene.camera->target_m)},
                 {"up", vec(scene.camera->up)}});
  }
  return 0;
}

}  // namespace

void add_check_command(CLI::App& app, int* exit_code) {
  auto path = std::make_shared<std::string>();
  CLI::App* check = app.add_subcommand("check", "Validate a scene file and print a summary of it");
  check->add_option("scene", *path, "Scene JSON file (docs/scene-format.md)")->required();
  check->callback([path, exit_code] { *exit_code = run_check(*path); });
}

}  // namespace pivot::cli
