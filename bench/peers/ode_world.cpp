// The scene in ODE 0.16 (Debian libode-dev, double precision): one dBody and dBox per
// box, the ground a dPlane, contacts from ODE's own dCollide (box-box, box-plane).
//
// Contact settings, chosen for an exact-as-possible comparison with Pivot's LCP:
// - friction: dContactApprox1, ODE's friction pyramid whose bound is mu times the normal
//   force (without it ODE bounds friction by mu newtons). Its two directions give
//   |f1|, |f2| <= mu f_n, a square around the cone; Pivot's d = 4 gives the square's
//   inscribed diamond |f1| + |f2| <= mu f_n. Resting stacks carry no friction, so the two
//   differ only when something slides.
// - no restitution (no dContactBounce), as Stewart-Trinkle's inelastic impact.
// - up to kMaxContactsPerPair points per pair: dBoxBox makes at most 8, the box-plane 4.
// - CFM 1e-8 (ODE's default 1e-5): a constraint softness of CFM / h = 1e-6 /kg, against the
//   0.25 /kg of a 4 kg block's inverse mass, so contacts are hard; it keeps Dantzig's matrix
//   regular where the 4 contacts of a face are redundant. At 1e-9 dWorldStep already
//   reports "LCP internal error" on the 5-block stack; the errors it still reports (on the
//   tower) are counted (PeerStepStats::solver_errors).
// - ERP 0.2 (ODE's default): ODE's contacts appear only once bodies overlap (no speculative
//   margin as Pivot's), so each step removes a fifth of the depth, at most at the scene's
//   penetration recovery speed (dWorldSetContactMaxCorrectingVel), Pivot's own cap. ERP
//   is what lets ODE's stacks rest; the drift it leaves is part of what is measured.
// - no auto-disable (ODE's default): every body is stepped every step, as in Pivot.
#include <ode/ode.h>

#include <algorithm>
#include <cstdarg>
#include <stdexcept>
#include <vector>

#include "peers/peer_world.hpp"

namespace pivot::peers {
namespace {

constexpr int kMaxContactsPerPair = 8;
constexpr dReal kCfm = 1e-8;
constexpr dReal kErp = 0.2;

// ODE's messages ("LCP internal error" from dWorldStep's Dantzig solver), counted
// instead of printed; ODE steps on after them.
int g_ode_messages = 0;
void count_message(int, const char*, va_list) { ++g_ode_messages; }

// dInitODE2 once per process, before the first world.
void init_ode_once() {
  static const bool initialised = [] {
    dSetMessageHandler(&count_message);
    return dInitODE2(0) != 0;
  }();
  if (!initialised) throw std::runtime_error("dInitODE2 failed");
}

class OdeWorld final : public PeerWorld {
 public:
  OdeWorld(const Scene& scene, OdeStepper stepper) : stepper_(stepper) {
    check_boxes_on_ground(scene);
    init_ode_once();
    h_s_ = scene.settings.time_step_s;
    mu_ = single_friction(scene);
    world_ = dWorldCreate();
    space_ = dHashSpaceCreate(nullptr);
    contacts_ = dJointGroupCreate(0);
    const Vec3& g = scene.settings.gravity_mps2;
    dWorldSetGravity(world_, g.x(), g.y(), g.z());
    dWorldSetCFM(world_, kCfm);
    dWorldSetERP(world_, kErp);
    dWorldSetContactMaxCorrectingVel(world_, scene.settings.penetration_recovery_speed_mps);
    dWorldSetContactSurfaceLayer(world_, 0.0);
    bodies_.assign(scene.bodies.size(), nullptr);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const Body& body = scene.bodies[i];
      const BodyState& state = scene.initial_states[i];
      const auto* box = std::get_if<Box>(&body.shape);
      if (!box) {  // the ground (check_boxes_on_ground)
        dCreatePlane(space_, 0, 0, 1, 0);
        continue;
      }
      const Vec3 size = 2.0 * box->half_extents_m;
      const dGeomID geom = dCreateBox(space_, size.x(), size.y(), size.z());
      const Pose& pose = state.pose;
      const dQuaternion q = {pose.orientation.w(), pose.orientation.x(), pose.orientation.y(),
                             pose.orientation.z()};
      if (body.fixed) {
        dGeomSetPosition(geom, pose.position.x(), pose.position.y(), pose.position.z());
        dGeomSetQuaternion(geom, q);
        fixed_positions_.push_back({static_cast<int>(i), pose.position});
        continue;
      }
      const dBodyID b = dBodyCreate(world_);
      dMass mass;
      const Mat3& I = body.inertia_body_kgm2;
      dMassSetParameters(&mass, body.mass_kg, 0, 0, 0, I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2),
                         I(1, 2));
      dBodySetMass(b, &mass);
      dBodySetPosition(b, pose.position.x(), pose.position.y(), pose.position.z());
      dBodySetQuaternion(b, q);
      dBodySetLinearVel(b, state.twist.linear.x(), state.twist.linear.y(), state.twist.linear.z());
      dBodySetAngularVel(b, state.twist.angular.x(), state.twist.angular.y(),
                         state.twist.angular.z());
      dGeomSetBody(geom, b);
      bodies_[i] = b;
    }
  }

  ~OdeWorld() override {
    dJointGroupDestroy(contacts_);
    dSpaceDestroy(space_);  // destroys its geoms (cleanup mode on by default)
    dWorldDestroy(world_);
  }
  OdeWorld(const OdeWorld&) = delete;
  OdeWorld& operator=(const OdeWorld&) = delete;

  void step() override {
    stats_ = {};
    dSpaceCollide(space_, this, &OdeWorld::near_callback);
    const int messages = g_ode_messages;
    if (stepper_ == OdeStepper::Exact) {
      dWorldStep(world_, h_s_);
    } else {
      dWorldQuickStep(world_, h_s_);
    }
    stats_.solver_errors = g_ode_messages - messages;
    dJointGroupEmpty(contacts_);
  }

  const PeerStepStats& last_stats() const override { return stats_; }

  Vec3 position(int body) const override {
    if (const dBodyID b = bodies_.at(static_cast<std::size_t>(body))) {
      const dReal* p = dBodyGetPosition(b);
      return Vec3(p[0], p[1], p[2]);
    }
    for (const auto& [index, p] : fixed_positions_) {
      if (index == body) return p;
    }
    return Vec3::Zero();  // the ground
  }

 private:
  // dSpaceCollide's callback: contact joints for one pair of geoms that may touch.
  static void near_callback(void* data, dGeomID a, dGeomID b) {
    auto* self = static_cast<OdeWorld*>(data);
    const dBodyID body_a = dGeomGetBody(a);
    const dBodyID body_b = dGeomGetBody(b);
    if (!body_a && !body_b) return;  // two fixed geoms
    dContact contact[kMaxContactsPerPair];
    const int n = dCollide(a, b, kMaxContactsPerPair, &contact[0].geom, sizeof(dContact));
    for (int k = 0; k < n; ++k) {
      contact[k].surface.mode = dContactApprox1;
      contact[k].surface.mu = self->mu_;
      self->stats_.max_penetration_m =
          std::max(self->stats_.max_penetration_m, static_cast<double>(contact[k].geom.depth));
      const dJointID joint = dJointCreateContact(self->world_, self->contacts_, &contact[k]);
      dJointAttach(joint, body_a, body_b);
    }
    self->stats_.contacts += n;
  }

  OdeStepper stepper_;
  double h_s_ = 0.01;
  double mu_ = 0.5;
  dWorldID world_ = nullptr;
  dSpaceID space_ = nullptr;
  dJointGroupID contacts_ = nullptr;
  std::vector<dBodyID> bodies_;  // per scene body; null for fixed ones
  std::vector<std::pair<int, Vec3>> fixed_positions_;
  PeerStepStats stats_;
};

}  // namespace

std::unique_ptr<PeerWorld> make_ode_world(const Scene& scene, OdeStepper stepper) {
  return std::make_unique<OdeWorld>(scene, stepper);
}

}  // namespace pivot::peers
