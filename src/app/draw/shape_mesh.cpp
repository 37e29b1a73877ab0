#include "shape_mesh.hpp"

#include <cmath>

namespace pivot::viewer {

namespace {

constexpr int kSegments = 32;  // around curved surfaces: smooth at viewer distances

void add_vertex(TriangleMesh* mesh, const Pose& pose, const Vec3& p, const Vec3& n) {
  const Vec3 wp = pose.to_world(p);
  const Vec3 wn = pose.orientation * n;
  mesh->vertices.push_back(
      {{static_cast<float>(wp.x()), static_cast<float>(wp.y()), static_cast<float>(wp.z())},
       {static_cast<float>(wn.x()), static_cast<float>(wn.y()), static_cast<float>(wn.z())}});
}

void add_flat_polygon(TriangleMesh* mesh, const Pose& pose, const std::vector<Vec3>& ring) {
  if (ring.size() < 3) return;
  Vec3 normal = Vec3::Zero();  // Newell's method: robust for any planar polygon
  for (size_t i = 0; i < ring.size(); ++i) normal += ring[i].cross(ring[(i + 1) % ring.size()]);
  if (normal.norm() == 0.0) return;
  normal.normalize();
  for (size_t i = 1; i + 1 < ring.size(); ++i) {
    add_vertex(mesh, pose, ring[0], normal);
    add_vertex(mesh, pose, ring[i], normal);
    add_vertex(mesh, pose, ring[i + 1], normal);
  }
}

void add_box(TriangleMesh* mesh, const Pose& pose, const Vec3& h) {
  // Each face as (axis, sign): corners ordered counter-clockwise seen from outside.
  for (int axis = 0; axis < 3; ++axis) {
    for (double sign : {-1.0, 1.0}) {
      const int u = (axis + 1) % 3;
      const int v = (axis + 2) % 3;
      std::vector<Vec3> ring(4);
      const double cu[4] = {-1, 1, 1, -1};
      const double cv[4] = {-1, -1, 1, 1};
      for (int k = 0; k < 4; ++k) {
        Vec3 p;
        p[axis] = sign * h[axis];
        p[u] = cu[k] * h[u];
        p[v] = sign * cv[k] * h[v];
        ring[k] = p;
      }
      add_flat_polygon(mesh, pose, ring);
    }
  }
}

// A surface of revolution about z given by a profile of (radius, z, normal-radial,
// normal-z) samples from bottom to top.
struct ProfilePoint {
  double r, z, nr, nz;
};

void add_revolution(TriangleMesh* mesh, const Pose& pose,
                    const std::vector<ProfilePoint>& profile) {
  for (int s = 0; s < kSegments; ++s) {
    const double a0 = 2.0 * kPi * s / kSegments;
    const double a1 = 2.0 * kPi * (s + 1) / kSegments;
    for (size_t k = 0; k + 1 < profile.size(); ++k) {
      const ProfilePoint& p = profile[k];
      const ProfilePoint& q = profile[k + 1];
      auto point = [](const ProfilePoint& pp, double a) {
        return Vec3(pp.r * std::cos(a), pp.r * std::sin(a), pp.z);
      };
      auto normal = [](const ProfilePoint& pp, double a) {
        return Vec3(pp.nr * std::cos(a), pp.nr * std::sin(a), pp.nz);
      };
      add_vertex(mesh, pose, point(p, a0), normal(p, a0));
      add_vertex(mesh, pose, point(p, a1), normal(p, a1));
      add_vertex(mesh, pose, point(q, a1), normal(q, a1));
      add_vertex(mesh, pose, point(p, a0), normal(p, a0));
      add_vertex(mesh, pose, point(q, a1), normal(q, a1));
      add_vertex(mesh, pose, point(q, a0), normal(q, a0));
    }
  }
}

std::vector<ProfilePoint> sphere_profile(double radius, double z_centre, double from_rad,
                                         double to_rad) {
  std::vector<ProfilePoint> profile;
  const int steps = kSegments / 2;
  for (int k = 0; k <= steps; ++k) {
    const double lat = from_rad + (to_rad - from_rad) * k / steps;
    profile.push_back(
        {radius * std::cos(lat), z_centre + radius * std::sin(lat), std::cos(lat), std::sin(lat)});
  }
  return profile;
}

void add_convex(TriangleMesh* mesh, const Pose& pose, const ConvexShape& shape) {
  if (const auto* box = std::get_if<Box>(&shape)) {
    add_box(mesh, pose, box->half_extents_m);
  } else if (const auto* sphere = std::get_if<Sphere>(&shape)) {
    add_revolution(mesh, pose, sphere_profile(sphere->radius_m, 0.0, -0.5 * kPi, 0.5 * kPi));
  } else if (const auto* cylinder = std::get_if<Cylinder>(&shape)) {
    const double r = cylinder->radius_m;
    const double h = cylinder->half_length_m;
    add_revolution(mesh, pose, {{0, -h, 0, -1}, {r, -h, 0, -1}});  // bottom cap
    add_revolution(mesh, pose, {{r, -h, 1, 0}, {r, h, 1, 0}});     // side
    add_revolution(mesh, pose, {{r, h, 0, 1}, {0, h, 0, 1}});      // top cap
  } else if (const auto* capsule = std::get_if<Capsule>(&shape)) {
    const double r = capsule->radius_m;
    const double h = capsule->half_length_m;
    add_revolution(mesh, pose, sphere_profile(r, -h, -0.5 * kPi, 0.0));
    add_revolution(mesh, pose, {{r, -h, 1, 0}, {r, h, 1, 0}});
    add_revolution(mesh, pose, sphere_profile(r, h, 0.0, 0.5 * kPi));
  } else if (const auto* convex = std::get_if<ConvexMesh>(&shape)) {
    for (const std::vector<int>& face : convex->faces) {
      std::vector<Vec3> ring;
      ring.reserve(face.size());
      for (int index : face) ring.push_back(convex->vertices[index]);
      add_flat_polygon(mesh, pose, ring);
    }
  }
}

}  // namespace

TriangleMesh tessellate(const Shape& shape, double half_space_extent_m) {
  TriangleMesh mesh;
  const Pose identity;
  std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, HalfSpace>) {
          const Vec3 n = s.normal.normalized();
          const Vec3 u = n.unitOrthogonal();
          const Vec3 v = n.cross(u);
          const Vec3 c = s.offset_m * n;
          const double e = half_space_extent_m;
          add_flat_polygon(
              &mesh, identity,
              {c - e * u - e * v, c + e * u - e * v, c + e * u + e * v, c - e * u + e * v});
        } else if constexpr (std::is_same_v<T, Compound>) {
          for (const CompoundPiece& piece : s.pieces) add_convex(&mesh, piece.local, piece.shape);
        } else {
          add_convex(&mesh, identity, ConvexShape(s));
        }
      },
      shape);
  return mesh;
}

}  // namespace pivot::viewer
