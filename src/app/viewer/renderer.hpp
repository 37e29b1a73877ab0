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
  void draw_mesh(const GpuMesh& mesh, const Eigen::Matrix4f& model, const Eigen::Vector3f& colour,
                 float alpha = 1.0f);
  // Lines are batched: add during the frame, drawn in one call by flush_lines().
  void add_line(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector4f& colour);
  void flush_lines(bool depth_test);

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
