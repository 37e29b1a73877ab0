#version 330 core
// Lit bodies: positions and normals in the body frame, moved by the model matrix.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;

uniform mat4 u_model;
uniform mat4 u_view_projection;

out vec3 v_world_position;
out vec3 v_world_normal;

void main() {
  vec4 world = u_model * vec4(a_position, 1.0);
  v_world_position = world.xyz;
  // Models are rigid (rotation + translation), so the upper 3x3 transforms normals.
  v_world_normal = mat3(u_model) * a_normal;
  gl_Position = u_view_projection * world;
}
