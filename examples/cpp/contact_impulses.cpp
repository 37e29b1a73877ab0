// Loads a scene, steps it and prints the contact impulses of the last step: what a program
// built on the installed library (find_package(pivot), pivot::pivot) looks like.
//   contact_impulses SCENE [STEPS]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "pivot/error.hpp"
#include "pivot/scene.hpp"
#include "pivot/world.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: contact_impulses SCENE [STEPS]\n");
    return 2;
  }
  try {
    const pivot::LoadedScene loaded = pivot::read_scene_file(argv[1]);
    const int steps = argc > 2 ? std::atoi(argv[2]) : 100;
    pivot::World world(loaded.scene);
    for (int k = 0; k < steps; ++k) world.step();

    // Impulses refer to the contacts found at the start of the last step.
    const pivot::CollisionResult& collision = world.collision();
    const double h = world.scene().settings.time_step_s;
    double weight_n = 0.0;
    for (const pivot::Body& body : world.scene().bodies) {
      if (!body.fixed) weight_n += body.mass_kg * world.scene().settings.gravity_mps2.norm();
    }
    std::printf("t = %.3f s, %zu contacts\n", world.state().time_s, world.impulses().size());
    std::printf("contact  bodies                 normal [N s]   friction (world) [N s]\n");
    double ground_ns = 0.0;  // what the fixed bodies push up with
    for (const pivot::ContactImpulse& impulse : world.impulses()) {
      const pivot::Contact& c = collision.contacts[impulse.contact];
      const std::string pair =
          world.scene().bodies[c.body_a].name + " / " + world.scene().bodies[c.body_b].name;
      std::printf("%7d  %-21s %14.6g   (%.3g, %.3g, %.3g)\n", impulse.contact, pair.c_str(),
                  impulse.normal_ns, impulse.friction_ns.x(), impulse.friction_ns.y(),
                  impulse.friction_ns.z());
      if (world.scene().bodies[c.body_b].fixed) ground_ns += impulse.normal_ns * c.normal.z();
    }
    // At rest the fixed bodies carry the whole weight: their impulses sum to weight x h.
    std::printf("vertical impulse from fixed bodies %.9g N s\n", ground_ns);
    std::printf("weight x h                         %.9g N s\n", weight_n * h);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "contact_impulses: %s\n", e.what());
    return 1;
  }
}
