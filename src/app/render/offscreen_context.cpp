#include "offscreen_context.hpp"

#include <glad/egl.h>

#include <stdexcept>

namespace pivot::render {

namespace {

// glad's loader signature over EGL's: core GL functions are found through
// eglGetProcAddress too (EGL 1.5, Mesa's EGL_KHR_get_all_proc_addresses).
GLADapiproc egl_proc(const char* name) {
  return reinterpret_cast<GLADapiproc>(eglGetProcAddress(name));
}

[[noreturn]] void fail(const std::string& step) {
  throw std::runtime_error("offscreen OpenGL: " + step);
}

}  // namespace

OffscreenContext::OffscreenContext(int width_px, int height_px)
    : width_(width_px), height_(height_px) {
  try {
    open();
  } catch (...) {
    close();
    throw;
  }
}

OffscreenContext::~OffscreenContext() { close(); }

void OffscreenContext::open() {
  const int width_px = width_, height_px = height_;
  // First without a display: the client extensions that say which platforms there are.
  if (gladLoaderLoadEGL(EGL_NO_DISPLAY) == 0) {
    fail("cannot load libEGL.so.1 (Debian packages libegl1 and libegl-mesa0)");
  }
  // Without a display glad sees EGL 1.0 only, so the platform display comes from the
  // EXT_platform_base extension rather than EGL 1.5's eglGetPlatformDisplay.
  if (!GLAD_EGL_EXT_platform_base || !GLAD_EGL_MESA_platform_surfaceless ||
      eglGetPlatformDisplayEXT == nullptr) {
    fail(
        "EGL has no surfaceless platform (EGL_MESA_platform_surfaceless; Debian package "
        "libegl-mesa0)");
  }
  EGLDisplay display =
      eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || eglInitialize(display, &major, &minor) != EGL_TRUE) {
    fail("cannot initialise EGL's surfaceless display (is libgl1-mesa-dri installed?)");
  }
  display_ = display;
  // Again with the display: its own extensions (surfaceless contexts).
  gladLoaderLoadEGL(display);
  if (!GLAD_EGL_KHR_surfaceless_context) fail("EGL lacks EGL_KHR_surfaceless_context");
  if (eglBindAPI(EGL_OPENGL_API) != EGL_TRUE) fail("EGL cannot bind desktop OpenGL");
  // EGL's default surface type is a window, which the surfaceless platform has none of.
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                      EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (eglChooseConfig(display, config_attributes, &config, 1, &configs) != EGL_TRUE ||
      configs < 1) {
    fail("EGL offers no configuration for desktop OpenGL");
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                       3,
                                       EGL_CONTEXT_MINOR_VERSION,
                                       3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_NONE};
  context_ = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context_ == EGL_NO_CONTEXT) fail("cannot create an OpenGL 3.3 core context");
  if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context_) != EGL_TRUE) {
    fail("cannot make the context current without a surface");
  }
  if (gladLoadGL(egl_proc) == 0) fail("cannot load the OpenGL 3.3 functions");

  glGenRenderbuffers(1, &colour_);
  glBindRenderbuffer(GL_RENDERBUFFER, colour_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width_px, height_px);
  glGenRenderbuffers(1, &depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width_px, height_px);
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    fail("the " + std::to_string(width_px) + "x" + std::to_string(height_px) +
         " framebuffer is incomplete (too large for the driver?)");
  }
}

void OffscreenContext::close() {
  if (context_ != nullptr) {
    if (framebuffer_ != 0) glDeleteFramebuffers(1, &framebuffer_);
    if (colour_ != 0) glDeleteRenderbuffers(1, &colour_);
    if (depth_ != 0) glDeleteRenderbuffers(1, &depth_);
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display_, context_);
  }
  if (display_ != nullptr) eglTerminate(display_);
  context_ = display_ = nullptr;
  framebuffer_ = colour_ = depth_ = 0;
  gladLoaderUnloadEGL();
}

std::string OffscreenContext::renderer_name() const {
  const GLubyte* name = glGetString(GL_RENDERER);
  return name != nullptr ? reinterpret_cast<const char*>(name) : "unknown";
}

}  // namespace pivot::render
