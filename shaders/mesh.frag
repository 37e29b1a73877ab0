#version 330 core
// Blinn-Phong with a headlight-ish key light and a dim fill from below, so faces that
// point away from the key light still show their shape.
in vec3 v_world_position;
in vec3 v_world_normal;

uniform vec3 u_colour;
uniform vec3 u_eye;
uniform vec3 u_light_direction;  // towards the light, unit
uniform float u_alpha;
// Which faces to draw, by their outward normal: 0 all, 1 those facing the eye, -1 those
// facing away. A translucent body is drawn back faces first, then front faces, so its own
// faces blend in depth order (exact for convex pieces).
uniform int u_faces;
// Section plane: fragments with dot(xyz, p) > w are cut away; xyz = 0 cuts nothing.
uniform vec4 u_section;

out vec4 frag_colour;

void main() {
  if (dot(u_section.xyz, v_world_position) > u_section.w && u_section.xyz != vec3(0.0)) discard;
  vec3 n = normalize(v_world_normal);
  vec3 to_eye = normalize(u_eye - v_world_position);
  bool facing = dot(n, to_eye) >= 0.0;
  if ((u_faces == 1 && !facing) || (u_faces == -1 && facing)) discard;
  if (!facing) n = -n;  // two-sided lighting for planes, thin pieces and cut-open bodies
  float key = max(dot(n, u_light_direction), 0.0);
  float fill = 0.25 * max(dot(n, -u_light_direction), 0.0);
  vec3 h = normalize(u_light_direction + to_eye);
  float specular = pow(max(dot(n, h), 0.0), 48.0) * 0.25;
  vec3 colour = u_colour * (0.28 + 0.72 * key + fill) + vec3(specular);
  frag_colour = vec4(colour, u_alpha);
}
