// An OpenGL 3.3 core context without a window or a display: EGL on Mesa's surfaceless
// platform (EGL_MESA_platform_surfaceless), drawing into a framebuffer object whose pixels
// are read back. libEGL is opened at run time (glad's loader), so `pivot` starts without it.
#pragma once

#include <glad/gl.h>

#include <memory>
#include <string>

namespace pivot::render {

class OffscreenContext {
 public:
  // A current context with a width x height RGBA + depth framebuffer bound for drawing and
  // reading. Throws std::runtime_error saying which step failed and which package provides
  // what is missing.
  OffscreenContext(int width_px, int height_px);
  ~OffscreenContext();
  OffscreenContext(const OffscreenContext&) = delete;
  OffscreenContext& operator=(const OffscreenContext&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }
  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
  std::string renderer_name() const;

 private:
  void open();
  void close();  // what open() made, in reverse; safe after a partial open()

  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  GLuint framebuffer_ = 0, colour_ = 0, depth_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace pivot::render
