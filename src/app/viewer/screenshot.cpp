#include "screenshot.hpp"

#include <glad/gl.h>

#include <cstdio>
#include <vector>

#include <stb_image_write.h>

namespace pivot::viewer {

std::vector<unsigned char> read_back_buffer(int width, int height) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  return pixels;
}

bool write_screenshot(const std::string& path, int width, int height, std::string* error) {
  const std::vector<unsigned char> pixels = read_back_buffer(width, height);
  stbi_flip_vertically_on_write(1);  // GL's origin is bottom-left, PNG's top-left
  const std::string temp = path + ".tmp";
  if (stbi_write_png(temp.c_str(), width, height, 3, pixels.data(), width * 3) == 0) {
    *error = "cannot write screenshot " + temp;
    return false;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    *error = "cannot rename " + temp + " to " + path;
    return false;
  }
  return true;
}

}  // namespace pivot::viewer
