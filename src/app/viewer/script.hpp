// Scripted sessions (`pivot-viewer --script FILE`): a test or a user drives the real viewer
// with timed actions, one per line, executed one per frame so the window draws between
// them:
//   load SCENE | set mu X | set d N | set h X | set method M | set nonconvex M
//   play | pause | step N | wait FRAMES | record start FILE | record stop
//   screenshot FILE | overlay NAME on|off | quit
// '#' starts a comment. Errors name the file and line.
#pragma once

#include <string>
#include <vector>

namespace pivot::viewer {

struct ScriptAction {
  int line = 0;
  std::string verb;               // first word
  std::vector<std::string> args;  // the rest
};

// Throws pivot::InputError(file, line, 0, message) for an unknown verb or a wrong number
// of arguments.
std::vector<ScriptAction> read_script(const std::string& path);

}  // namespace pivot::viewer
