// Scripted sessions (`pivot-viewer --script FILE`): a test or a user drives the real viewer
// with timed actions, one per line, executed one per frame so the window draws between
// them. A scripted session starts paused, so step counts never depend on frame timing:
//   load SCENE | set mu X | set mu off | set mu:MATERIAL X | set d N | set h X
//   set method M | set nonconvex M
//   set force_scale N_PER_M (newtons per metre of force arrow)
//   set step_budget S (seconds of solving before a step is abandoned and play paused; 0: none)
//   set threads N (threads a step's pairs and islands run on, >= 1; the same result for any)
//   play | pause | step N | wait FRAMES | record start FILE | record stop
//   screenshot FILE | overlay NAME on|off | quit  (overlays: contacts normals forces cones
//   groups frames islands)
//   drag BODY X Y Z (the hand holds BODY's centre of mass at world point X Y Z) | drag off
//   nudge +x|-x|+y|-y|+z|-z|off (a push of the nudged body's weight, held until off)
//   video start FILE | video stop | print state (each body's position on stdout)
//   print panels (the window's size and each panel's rectangle drawn in the last frame)
//   print forces (each contact's forces and the arrows drawn, world frame)
//   plot show | plot hide | plot body NAME | plot window SECONDS
//   plot export FILE (the series over the plot window as CSV, shown or not)
//   contact N (show contact N of print forces' list in the Contact panel) | contact off
//   print screen BODY (the body's bounding box projected: its screen rectangle in pixels)
//   alpha fixed|moving|BODY X (opacity, 1 opaque) | section +x|-x|+y|-y|+z|-z OFFSET
//   (cut away the bodies beyond the plane normal . x = OFFSET [m]) | section off
//   replay open FILE | replay frame N | replay play | replay pause | replay close
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
