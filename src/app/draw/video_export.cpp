#include "video_export.hpp"

#include <csignal>
#include <cstdlib>

#include "move_into_place.hpp"

namespace pivot::viewer {

namespace {

// A path as one single-quoted shell word.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

VideoExport::~VideoExport() { abandon(); }

bool VideoExport::available() { return std::system("command -v ffmpeg > /dev/null 2>&1") == 0; }

bool VideoExport::start(const std::string& path, int width, int height, int fps,
                        std::string* error) {
  if (active()) {
    *error = "a video is already being written to " + path_;
    return false;
  }
  if (!available()) {
    *error = "video export needs ffmpeg on the PATH (Debian package ffmpeg)";
    return false;
  }
  // A dying ffmpeg must fail the next write, not kill the viewer with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  path_ = path;
  temp_path_ = path + ".part";
  width_ = width;
  height_ = height;
  frames_ = 0;
  // Frames arrive bottom row first (GL), hence vflip; yuv420p, which players expect, needs
  // even sizes, hence the crop to even.
  const std::string command = "ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgb24 -s " +
                              std::to_string(width) + "x" + std::to_string(height) + " -r " +
                              std::to_string(fps) +
                              " -i - -vf 'vflip,crop=trunc(iw/2)*2:trunc(ih/2)*2' "
                              "-pix_fmt yuv420p -f mp4 " +
                              shell_quote(temp_path_);
  pipe_ = popen(command.c_str(), "w");
  if (pipe_ == nullptr) {
    *error = "cannot start ffmpeg";
    return false;
  }
  return true;
}

bool VideoExport::add_frame(const std::vector<unsigned char>& rgb, int width, int height,
                            std::string* error) {
  if (!active()) return true;
  if (width != width_ || height != height_) {
    *error = "the window changed size during the video (" + std::to_string(width_) + "x" +
             std::to_string(height_) + " to " + std::to_string(width) + "x" +
             std::to_string(height) + "); the video was abandoned";
    abandon();
    return false;
  }
  if (std::fwrite(rgb.data(), 1, rgb.size(), pipe_) != rgb.size()) {
    *error = "ffmpeg stopped taking frames; the video to " + path_ + " was abandoned";
    abandon();
    return false;
  }
  ++frames_;
  return true;
}

bool VideoExport::finish(std::string* error) {
  if (!active()) return true;
  const int status = pclose(pipe_);
  pipe_ = nullptr;
  if (status != 0 || frames_ == 0) {
    *error = frames_ == 0 ? "no frames were drawn for the video " + path_
                          : "ffmpeg failed writing " + path_;
    std::remove(temp_path_.c_str());
    return false;
  }
  return move_into_place(temp_path_, path_, error);
}

void VideoExport::abandon() {
  if (pipe_ == nullptr) return;
  pclose(pipe_);
  pipe_ = nullptr;
  std::remove(temp_path_.c_str());
}

}  // namespace pivot::viewer
