#include "screenshot.hpp"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstdio>
#include <vector>

#include "move_into_place.hpp"

namespace pivot::viewer {

std::vector<unsigned char> read_back_buffer(int width, int height) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
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
  return move_into_place(temp, path, error);
}

}  // namespace pivot::viewer
