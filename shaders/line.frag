#version 330 core
in vec4 v_colour;
// Overlays hidden behind an opaque body are drawn a second time, faint (Renderer::flush_lines).
uniform float u_alpha_scale;
out vec4 frag_colour;

void main() { frag_colour = vec4(v_colour.rgb, v_colour.a * u_alpha_scale); }
