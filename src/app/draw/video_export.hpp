// Video export: frames piped to ffmpeg (when it is installed) as raw RGB, encoded to MP4.
// The video is written under a temporary name and renamed when finished, so an
// interrupted export never leaves a truncated file over a good one.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace pivot::viewer {

class VideoExport {
 public:
  VideoExport() = default;
  ~VideoExport();  // an unfinished export is abandoned: its temporary file is removed
  VideoExport(const VideoExport&) = delete;
  VideoExport& operator=(const VideoExport&) = delete;

  // Whether an `ffmpeg` program is on the PATH.
  static bool available();

  // Starts ffmpeg writing `path` at `fps` frames per second of frames width x height.
  bool start(const std::string& path, int width, int height, int fps, std::string* error);
  // One frame as read_back_buffer() returns it (bottom row first).
  bool add_frame(const std::vector<unsigned char>& rgb, int width, int height, std::string* error);
  // Closes the pipe, waits for ffmpeg and renames the video into place.
  bool finish(std::string* error);

  bool active() const { return pipe_ != nullptr; }
  int frames() const { return frames_; }
  const std::string& path() const { return path_; }

 private:
  void abandon();

  std::FILE* pipe_ = nullptr;
  std::string path_;
  std::string temp_path_;
  int width_ = 0, height_ = 0, frames_ = 0;
};

}  // namespace pivot::viewer
