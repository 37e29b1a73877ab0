// OpenGL 3.3 core drawing: lit meshes and coloured line overlays. Knows GL, not physics.
#pragma once

#include <glad/gl.h>

#include <Eigen/Core>
#include <string>
#include <vector>

#include "shape_mesh.hpp"

namespace pivot::viewer {

struct GpuMesh {
  GLuint vao = 0;
  GLuint vbo = 0;
  GLsizei vertex_count = 0;
};

struct LineVertex {
  float position[3];
  float colour[4];
};

class Renderer {
 public:
  Renderer() = default;
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;
  ~Renderer();

  // Compiles the shaders in shader_dir (mesh.*, line.*). Returns false with *error set.
  bool init(const std::string& shader_dir, std::string* error);

  GpuMesh upload(const TriangleMesh& mesh);
  void release(GpuMesh* mesh);

  void begin_frame(int width_px, int height_px, const Eigen::Matrix4f& view_projection,
                   const Eigen::Vector3f& eye, const Eigen::Vector3f& background);
  // Bodies cut by the section plane n . x > offset (world frame) from here on; n = 0: none.
  void set_section_plane(const Eigen::Vector3f& normal, float offset_m);
  // alpha < 1 draws a translucent mesh: it does not hide what is drawn after it, and its
  // back faces are blended before its front faces. Translucent meshes go last, farthest
  // first (the caller sorts them).
  void draw_mesh(const GpuMesh& mesh, const Eigen::Matrix4f& model, const Eigen::Vector3f& colour,
                 float alpha = 1.0f);
  // Lines are batched: add during the frame, drawn in one call by flush_lines(). Lines are
  // depth tested; with hidden_alpha > 0 the parts hidden behind what is already drawn are
  // drawn too, at hidden_alpha times their alpha, so an overlay behind a face looks behind.
  void add_line(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector4f& colour);
  void flush_lines(float hidden_alpha = 0.0f);
  // A line from a to b with a two-stroke head at b, a fifth of its length, in the plane
  // that faces the eye (so the head never shows edge-on).
  void add_arrow(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector4f& colour);

 private:
  GLuint mesh_program_ = 0;
  GLuint line_program_ = 0;
  GLuint line_vao_ = 0;
  GLuint line_vbo_ = 0;
  std::vector<LineVertex> lines_;
  Eigen::Matrix4f view_projection_ = Eigen::Matrix4f::Identity();
  Eigen::Vector3f eye_ = Eigen::Vector3f::Zero();
};

}  // namespace pivot::viewer
