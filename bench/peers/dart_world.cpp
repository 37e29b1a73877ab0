// The scene in DART 6.12 (Debian libdart-dev): one Skeleton with a FreeJoint per box, the
// ground a welded 20 x 20 x 1 m box whose top face is z = 0. World::step with its default
// BoxedLcpConstraintSolver (Dantzig) and its default FCLCollisionDetector, which by
// default turns boxes into triangle meshes (DartCollision::Mesh); DartCollision::Primitive
// has FCL collide the boxes as boxes (FCL's box-box is ODE's dBoxBox), which DART's own
// warning calls incomplete but which is what rests the tower (docs/benchmarks.md).
//
// Contact settings, the same as ODE's (ode_world.cpp) for the same reasons: DART's
// ContactConstraint has a friction pyramid (two directions, bound mu times the normal
// force, DART's own default), no restitution (coefficient 0), CFM 1e-8 (DART's default
// 1e-5), ERP 0.2 capped at the scene's penetration recovery speed (DART's defaults 0.01
// and 0.1 m/s), no allowed penetration (DART's default 0). DART caps contacts at 1,000 per
// collision query, never reached by these scenes.
#include <algorithm>
#include <dart/collision/CollisionResult.hpp>
#include <dart/collision/fcl/FCLCollisionDetector.hpp>
#include <dart/constraint/ConstraintSolver.hpp>
#include <dart/constraint/ContactConstraint.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/ShapeNode.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>
#include <stdexcept>
#include <vector>

#include "peers/peer_world.hpp"

namespace pivot::peers {
namespace {

namespace dd = dart::dynamics;

constexpr double kCfm = 1e-8;
constexpr double kErp = 0.2;
constexpr double kGroundSize_m = 20.0;

// A body node with a box shape that collides, with mu and no restitution.
dd::BodyNode* add_box(dd::BodyNode* body, const Vec3& size, double mu) {
  dd::ShapeNode* shape = body->createShapeNodeWith<dd::CollisionAspect, dd::DynamicsAspect>(
      std::make_shared<dd::BoxShape>(size));
  shape->getDynamicsAspect()->setFrictionCoeff(mu);
  shape->getDynamicsAspect()->setRestitutionCoeff(0.0);
  return body;
}

Eigen::Isometry3d isometry(const Pose& pose) {
  Eigen::Isometry3d tf = Eigen::Isometry3d::Identity();
  tf.linear() = pose.orientation.toRotationMatrix();
  tf.translation() = pose.position;
  return tf;
}

class DartWorld final : public PeerWorld {
 public:
  DartWorld(const Scene& scene, DartCollision collision) {
    check_boxes_on_ground(scene);
    const double mu = single_friction(scene);
    dart::constraint::ContactConstraint::setConstraintForceMixing(kCfm);
    dart::constraint::ContactConstraint::setErrorReductionParameter(kErp);
    dart::constraint::ContactConstraint::setMaxErrorReductionVelocity(
        scene.settings.penetration_recovery_speed_mps);
    dart::constraint::ContactConstraint::setErrorAllowance(0.0);
    world_ = dart::simulation::World::create();
    world_->setGravity(scene.settings.gravity_mps2);
    world_->setTimeStep(scene.settings.time_step_s);
    if (collision == DartCollision::Primitive) {
      const auto fcl = std::dynamic_pointer_cast<dart::collision::FCLCollisionDetector>(
          world_->getConstraintSolver()->getCollisionDetector());
      if (!fcl) throw std::logic_error("DART's default collision detector is not FCL");
      fcl->setPrimitiveShapeType(dart::collision::FCLCollisionDetector::PRIMITIVE);
    }
    nodes_.assign(scene.bodies.size(), nullptr);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const Body& body = scene.bodies[i];
      const BodyState& state = scene.initial_states[i];
      const auto skeleton = dd::Skeleton::create(body.name);
      const auto* box = std::get_if<Box>(&body.shape);
      if (body.fixed) {
        Eigen::Isometry3d tf = isometry(state.pose);
        Vec3 size = Vec3::Constant(kGroundSize_m);
        size.z() = 1.0;
        if (box) {
          size = 2.0 * box->half_extents_m;
        } else {
          tf = Eigen::Isometry3d::Identity();
          tf.translation().z() = -0.5;  // the top face is the ground z = 0
        }
        dd::WeldJoint::Properties weld;
        weld.mT_ParentBodyToJoint = tf;
        nodes_[i] = add_box(
            skeleton->createJointAndBodyNodePair<dd::WeldJoint>(nullptr, weld).second, size, mu);
      } else {
        auto [joint, node] = skeleton->createJointAndBodyNodePair<dd::FreeJoint>();
        add_box(node, 2.0 * box->half_extents_m, mu);
        node->setInertia(dd::Inertia(body.mass_kg, Vec3::Zero(), body.inertia_body_kgm2));
        joint->setTransform(isometry(state.pose));
        joint->setLinearVelocity(state.twist.linear);
        joint->setAngularVelocity(state.twist.angular);
        nodes_[i] = node;
      }
      world_->addSkeleton(skeleton);
    }
  }

  void step() override {
    world_->step();
    const dart::collision::CollisionResult& result = world_->getLastCollisionResult();
    stats_ = {};
    stats_.contacts = static_cast<int>(result.getNumContacts());
    for (std::size_t k = 0; k < result.getNumContacts(); ++k) {
      stats_.max_penetration_m =
          std::max(stats_.max_penetration_m, result.getContact(k).penetrationDepth);
    }
  }

  const PeerStepStats& last_stats() const override { return stats_; }

  Vec3 position(int body) const override {
    return nodes_.at(static_cast<std::size_t>(body))->getWorldTransform().translation();
  }

 private:
  dart::simulation::WorldPtr world_;
  std::vector<dd::BodyNode*> nodes_;  // per scene body
  PeerStepStats stats_;
};

}  // namespace

std::unique_ptr<PeerWorld> make_dart_world(const Scene& scene, DartCollision collision) {
  return std::make_unique<DartWorld>(scene, collision);
}

}  // namespace pivot::peers
