#include "renderer.hpp"

#include <cstddef>
#include <fstream>
#include <sstream>

namespace pivot::viewer {

namespace {

bool read_text(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read shader " + path;
    return false;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

GLuint compile(GLenum kind, const std::string& path, std::string* error) {
  std::string source;
  if (!read_text(path, &source, error)) return 0;
  const GLuint shader = glCreateShader(kind);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[1024] = {0};
    glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
    *error = path + ": " + log;
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

GLuint link_program(const std::string& dir, const std::string& name, std::string* error) {
  const GLuint vs = compile(GL_VERTEX_SHADER, dir + "/" + name + ".vert", error);
  if (vs == 0) return 0;
  const GLuint fs = compile(GL_FRAGMENT_SHADER, dir + "/" + name + ".frag", error);
  if (fs == 0) {
    glDeleteShader(vs);
    return 0;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[1024] = {0};
    glGetProgramInfoLog(program, sizeof(log), nullptr, log);
    *error = "linking shader " + name + ": " + log;
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

// Attribute pointers take byte offsets disguised as pointers (GL's own API).
const void* offset_of(size_t bytes) { return reinterpret_cast<const void*>(bytes); }

}  // namespace

Renderer::~Renderer() {
  if (line_vbo_ != 0) glDeleteBuffers(1, &line_vbo_);
  if (line_vao_ != 0) glDeleteVertexArrays(1, &line_vao_);
  if (mesh_program_ != 0) glDeleteProgram(mesh_program_);
  if (line_program_ != 0) glDeleteProgram(line_program_);
}

bool Renderer::init(const std::string& shader_dir, std::string* error) {
  mesh_program_ = link_program(shader_dir, "mesh", error);
  if (mesh_program_ == 0) return false;
  line_program_ = link_program(shader_dir, "line", error);
  if (line_program_ == 0) return false;
  glGenVertexArrays(1, &line_vao_);
  glGenBuffers(1, &line_vbo_);
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        offset_of(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        offset_of(offsetof(LineVertex, colour)));
  glBindVertexArray(0);
  return true;
}

GpuMesh Renderer::upload(const TriangleMesh& mesh) {
  GpuMesh gpu;
  gpu.vertex_count = static_cast<GLsizei>(mesh.vertices.size());
  glGenVertexArrays(1, &gpu.vao);
  glGenBuffers(1, &gpu.vbo);
  glBindVertexArray(gpu.vao);
  glBindBuffer(GL_ARRAY_BUFFER, gpu.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(MeshVertex)),
               mesh.vertices.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                        offset_of(offsetof(MeshVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(MeshVertex),
                        offset_of(offsetof(MeshVertex, normal)));
  glBindVertexArray(0);
  return gpu;
}

void Renderer::release(GpuMesh* mesh) {
  if (mesh->vbo != 0) glDeleteBuffers(1, &mesh->vbo);
  if (mesh->vao != 0) glDeleteVertexArrays(1, &mesh->vao);
  *mesh = GpuMesh{};
}

void Renderer::begin_frame(int width_px, int height_px, const Eigen::Matrix4f& view_projection,
                           const Eigen::Vector3f& eye, const Eigen::Vector3f& background) {
  view_projection_ = view_projection;
  eye_ = eye;
  glViewport(0, 0, width_px, height_px);
  glClearColor(background.x(), background.y(), background.z(), 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glUseProgram(mesh_program_);
  glUniformMatrix4fv(glGetUniformLocation(mesh_program_, "u_view_projection"), 1, GL_FALSE,
                     view_projection_.data());
  glUniform3fv(glGetUniformLocation(mesh_program_, "u_eye"), 1, eye_.data());
  const Eigen::Vector3f light = Eigen::Vector3f(0.4f, 0.3f, 1.0f).normalized();
  glUniform3fv(glGetUniformLocation(mesh_program_, "u_light_direction"), 1, light.data());
  set_section_plane(Eigen::Vector3f::Zero(), 0.0f);
}

void Renderer::set_section_plane(const Eigen::Vector3f& normal, float offset_m) {
  glUseProgram(mesh_program_);
  glUniform4f(glGetUniformLocation(mesh_program_, "u_section"), normal.x(), normal.y(), normal.z(),
              offset_m);
}

void Renderer::draw_mesh(const GpuMesh& mesh, const Eigen::Matrix4f& model,
                         const Eigen::Vector3f& colour, float alpha) {
  glUseProgram(mesh_program_);
  glUniformMatrix4fv(glGetUniformLocation(mesh_program_, "u_model"), 1, GL_FALSE, model.data());
  glUniform3fv(glGetUniformLocation(mesh_program_, "u_colour"), 1, colour.data());
  glUniform1f(glGetUniformLocation(mesh_program_, "u_alpha"), alpha);
  const GLint faces = glGetUniformLocation(mesh_program_, "u_faces");
  glBindVertexArray(mesh.vao);
  if (alpha >= 1.0f) {
    glUniform1i(faces, 0);
    glDrawArrays(GL_TRIANGLES, 0, mesh.vertex_count);
  } else {
    glDepthMask(GL_FALSE);
    for (const int side : {-1, 1}) {
      glUniform1i(faces, side);
      glDrawArrays(GL_TRIANGLES, 0, mesh.vertex_count);
    }
    glDepthMask(GL_TRUE);
  }
  glBindVertexArray(0);
}

void Renderer::add_line(const Eigen::Vector3f& a, const Eigen::Vector3f& b,
                        const Eigen::Vector4f& colour) {
  lines_.push_back({{a.x(), a.y(), a.z()}, {colour[0], colour[1], colour[2], colour[3]}});
  lines_.push_back({{b.x(), b.y(), b.z()}, {colour[0], colour[1], colour[2], colour[3]}});
}

void Renderer::add_arrow(const Eigen::Vector3f& a, const Eigen::Vector3f& b,
                         const Eigen::Vector4f& colour) {
  add_line(a, b, colour);
  const Eigen::Vector3f along = b - a;
  const float length = along.norm();
  const Eigen::Vector3f across = along.cross(eye_ - b);
  if (length <= 0.0f || across.norm() <= 0.0f) return;
  const Eigen::Vector3f back = -0.2f * along, side = 0.1f * length * across.normalized();
  add_line(b, b + back + side, colour);
  add_line(b, b + back - side, colour);
}

void Renderer::flush_lines(float hidden_alpha) {
  if (lines_.empty()) return;
  glUseProgram(line_program_);
  glUniformMatrix4fv(glGetUniformLocation(line_program_, "u_view_projection"), 1, GL_FALSE,
                     view_projection_.data());
  const GLint alpha_scale = glGetUniformLocation(line_program_, "u_alpha_scale");
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lines_.size() * sizeof(LineVertex)),
               lines_.data(), GL_STREAM_DRAW);
  const GLsizei count = static_cast<GLsizei>(lines_.size());
  if (hidden_alpha > 0.0f) {
    glDepthMask(GL_FALSE);
    glDepthFunc(GL_GREATER);
    glUniform1f(alpha_scale, hidden_alpha);
    glDrawArrays(GL_LINES, 0, count);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
  }
  glUniform1f(alpha_scale, 1.0f);
  glDrawArrays(GL_LINES, 0, count);
  glBindVertexArray(0);
  lines_.clear();
}

}  // namespace pivot::viewer
