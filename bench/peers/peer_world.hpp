// Whole-step peers for step_bench and pile_bench (CMake option PIVOT_BENCH_PEERS): other
// engines stepping the same Pivot scene, built from its bodies, material and settings so
// the two cannot drift apart. A peer takes the scenes the benchmarks use: boxes over a
// fixed ground half-space z >= 0, one friction coefficient, no scripted wrenches; anything
// else throws std::invalid_argument naming what it cannot model.
#pragma once

#include <memory>
#include <string>

#include "pivot/scene.hpp"

namespace pivot::peers {

// What the peer's last step did, for the pile table.
struct PeerStepStats {
  int contacts = 0;                // contact points its collision made
  double max_penetration_m = 0.0;  // deepest of them (their depth)
  int solver_errors = 0;           // errors the engine reported and stepped on after
};

class PeerWorld {
 public:
  virtual ~PeerWorld() = default;
  virtual void step() = 0;  // one time step of the scene's h
  virtual const PeerStepStats& last_stats() const = 0;
  // Centre of mass of scene body `body`, world frame [m].
  virtual Vec3 position(int body) const = 0;
};

// The scene's one friction coefficient: the override, else the single material's (a peer
// cannot mix materials as Pivot does).
double single_friction(const Scene& scene);
// Throws std::invalid_argument unless every body is a box or the fixed ground z >= 0 and
// no wrench is scripted.
void check_boxes_on_ground(const Scene& scene);

#ifdef PIVOT_BENCH_ODE
enum class OdeStepper {
  Exact,  // dWorldStep: the Dantzig LCP solved directly
  Quick,  // dWorldQuickStep: projected Gauss-Seidel (SOR-LCP), 20 iterations
};
std::unique_ptr<PeerWorld> make_ode_world(const Scene& scene, OdeStepper stepper);
#endif

#ifdef PIVOT_BENCH_DART
// How DART's default collision detector (FCL) sees a box.
enum class DartCollision {
  Mesh,       // as a triangle mesh: DART's default
  Primitive,  // as a box (FCLCollisionDetector::PRIMITIVE)
};
// dart::simulation::World with its default collision detector (FCL) and default boxed LCP
// solver (Dantzig).
std::unique_ptr<PeerWorld> make_dart_world(const Scene& scene, DartCollision collision);
#endif

}  // namespace pivot::peers
