// The collision stage per step on Lloyd's (2005) test scenes: the 16-contact peg-in-hole
// (a square peg touching the four walls of a square hole at both rims) and a stack of ten
// blocks on the ground (40 contacts); and the round peg of scenes/peg_in_hole_round_16.json
// seated, its head's disc resting face on face on the eight staves (touching curved pairs,
// the case that cost Pivot's own narrowphase an overlap search per pair). Baselines in the same
// run: the reduced fast Lemke solve of a contact LCP of the same size
// (bench/support/lloyd_problems), which is the budget collision should stay under, and the one-shot
// collide() that rebuilds FCL's trees and the shapes' polyhedra every call. Ratios of medians are
// printed at the end.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pivot/contact.hpp"
#include "pivot/lcp.hpp"
#include "support/lloyd_problems.hpp"

namespace {

using namespace pivot;

struct Scene {
  std::vector<Body> bodies;
  std::vector<BodyState> states;

  int add(const Shape& shape, const Vec3& position, bool fixed) {
    Body body;
    body.name = "body" + std::to_string(bodies.size());
    body.shape = shape;
    body.fixed = fixed;
    body.mass_kg = fixed ? 0.0 : 1.0;
    bodies.push_back(body);
    BodyState state;
    state.pose.position = position;
    states.push_back(state);
    return static_cast<int>(bodies.size()) - 1;
  }
};

// A 0.3 m plate with a 0.1 m square hole, from four bars, and a peg that fits exactly.
Scene peg_in_hole_scene() {
  Scene s;
  const double hw = 0.05, t = 0.02, outer = 0.15, bar = 0.5 * (outer - hw);
  Compound plate;
  for (double side : {-1.0, 1.0}) {
    Pose p;
    p.position = Vec3(side * (hw + bar), 0, -t / 2);
    plate.pieces.push_back({Box{Vec3(bar, outer, t / 2)}, p});
    p.position = Vec3(0, side * (hw + bar), -t / 2);
    plate.pieces.push_back({Box{Vec3(hw, bar, t / 2)}, p});
  }
  s.add(plate, Vec3::Zero(), true);
  s.add(Box{Vec3(hw, hw, 0.1)}, Vec3::Zero(), false);
  return s;
}

// scenes/peg_in_hole_round_16.json with the peg seated: a 0.05 m shaft in an eight-stave
// hole (0.5 mm clearance), its 0.08 m head resting on the staves' tops.
Scene round_peg_seated_scene() {
  Scene s;
  Compound block;
  for (int k = 0; k < 8; ++k) {
    const double angle = k * M_PI / 4;
    Pose p;
    p.position = Vec3(0.1005 * std::cos(angle), 0.1005 * std::sin(angle), 0.075);
    p.orientation = Quat(Eigen::AngleAxisd(angle, Vec3::UnitZ()));
    block.pieces.push_back({Box{Vec3(0.05, 0.120917785, 0.075)}, p});
  }
  s.add(block, Vec3::Zero(), true);
  Compound peg;
  peg.pieces.push_back({Cylinder{0.05, 0.15}, Pose{}});
  Pose head;
  head.position = Vec3(0, 0, 0.175);
  peg.pieces.push_back({Cylinder{0.08, 0.025}, head});
  s.add(peg, Vec3::Zero(), false);
  return s;
}

Scene stack_scene() {
  Scene s;
  s.add(HalfSpace{}, Vec3::Zero(), true);
  for (int k = 0; k < 10; ++k) s.add(Box{Vec3(0.5, 0.5, 0.5)}, Vec3(0, 0, 0.5 + k), false);
  return s;
}

// A simulation moves bodies a little every step; alternating two poses makes every call
// refit the trees and redo the narrowphase, as a step would.
void nudge(Scene* s, int body, benchmark::IterationCount i) {
  s->states[body].pose.position.x() = (i & 1) ? 1e-5 : 0.0;
}

void detect(benchmark::State& state, Scene scene, int moving) {
  CollisionDetector detector(scene.bodies);
  const CollisionSettings settings;
  size_t contacts = 0;
  benchmark::IterationCount i = 0;
  for (auto _ : state) {
    nudge(&scene, moving, ++i);
    const CollisionResult& r = detector.detect(scene.states, settings);
    benchmark::DoNotOptimize(r.contacts.data());
    contacts = r.contacts.size();
  }
  state.counters["contacts"] = static_cast<double>(contacts);
}

void collide_once(benchmark::State& state, Scene scene, int moving) {
  const CollisionSettings settings;
  benchmark::IterationCount i = 0;
  for (auto _ : state) {
    nudge(&scene, moving, ++i);
    CollisionResult r = collide(scene.bodies, scene.states, settings);
    benchmark::DoNotOptimize(r.contacts.data());
  }
}

void solve_reduced(benchmark::State& state, const ContactProblem& problem) {
  for (auto _ : state) {
    LcpResult r = solve_contact(problem, LcpMethod::Reduced);
    benchmark::DoNotOptimize(r.z.data());
  }
  state.counters["contacts"] = problem.num_contacts();
}

void BM_Collision_PegInHole16(benchmark::State& state) { detect(state, peg_in_hole_scene(), 1); }
void BM_Collision_Stack10(benchmark::State& state) { detect(state, stack_scene(), 10); }
void BM_Collision_RoundPegSeated(benchmark::State& state) {
  detect(state, round_peg_seated_scene(), 1);
}
void BM_OneShotCollide_PegInHole16(benchmark::State& state) {
  collide_once(state, peg_in_hole_scene(), 1);
}
void BM_OneShotCollide_Stack10(benchmark::State& state) { collide_once(state, stack_scene(), 10); }
void BM_LemkeReduced_PegInHole16(benchmark::State& state) {
  solve_reduced(state, lloyd::peg_in_hole(16, 1));
}
void BM_LemkeReduced_Stack10(benchmark::State& state) {
  solve_reduced(state, lloyd::block_stack(10, false, 1));
}

#define PIVOT_COLLISION_BENCH(name) \
  BENCHMARK(name)->Unit(benchmark::kMicrosecond)->Repetitions(9)->ReportAggregatesOnly(true)

PIVOT_COLLISION_BENCH(BM_Collision_PegInHole16);
PIVOT_COLLISION_BENCH(BM_OneShotCollide_PegInHole16);
PIVOT_COLLISION_BENCH(BM_LemkeReduced_PegInHole16);
PIVOT_COLLISION_BENCH(BM_Collision_Stack10);
PIVOT_COLLISION_BENCH(BM_OneShotCollide_Stack10);
PIVOT_COLLISION_BENCH(BM_LemkeReduced_Stack10);
PIVOT_COLLISION_BENCH(BM_Collision_RoundPegSeated);

// Console output as usual, plus the medians kept for the ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median") {
        median_us_[run.run_name.function_name] = run.GetAdjustedRealTime();
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }

  void print_ratios() const {
    std::printf("\nratios of medians:\n");
    for (const char* scene : {"PegInHole16", "Stack10"}) {
      const double collision = median("BM_Collision_", scene);
      const double lemke = median("BM_LemkeReduced_", scene);
      const double once = median("BM_OneShotCollide_", scene);
      if (collision > 0 && lemke > 0) {
        std::printf("  %-12s collision / reduced Lemke solve  %6.3f\n", scene, collision / lemke);
      }
      if (collision > 0 && once > 0) {
        std::printf("  %-12s one-shot collide / reused detector %6.2f\n", scene, once / collision);
      }
    }
    const double round = median("BM_Collision_", "RoundPegSeated");
    const double square = median("BM_Collision_", "PegInHole16");
    if (round > 0 && square > 0) {
      std::printf("  round peg seated / square peg collision   %6.2f\n", round / square);
    }
  }

 private:
  double median(const std::string& prefix, const std::string& scene) const {
    const auto it = median_us_.find(prefix + scene);
    return it == median_us_.end() ? 0.0 : it->second;
  }
  std::map<std::string, double> median_us_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_ratios();
  benchmark::Shutdown();
  return 0;
}
